#!/bin/bash
# scripts/mkswap-img.sh SIZE IMG — a raw image of SIZE (truncate's
# suffixes: 64M) with a swap header, for make run SWAP= and zpk-run
# --swap: util-linux's mkswap, or busybox's where there is none.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: scripts/mkswap-img.sh SIZE IMG" >&2; exit 2; }
PATH=$PATH:/sbin:/usr/sbin
rm -f "$2"
truncate -s "$1" "$2"
chmod 600 "$2"
mk=mkswap
command -v mkswap >/dev/null || mk="busybox mkswap"
# Quiet: util-linux warns that a sparse image has holes (QEMU's disk
# has none); on failure, once more to show why.
$mk "$2" >/dev/null 2>&1 || { $mk "$2"; exit 1; }
