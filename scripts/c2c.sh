#!/bin/bash
# scripts/c2c.sh — boot zpk on 4 CPUs under -icount shift=0 (one TCG
# thread, round-robin vCPUs) with the c2c plugin (build/c2c.so), run
# /bin/c2cprobe under zero_page=special and refcount, and print shared
# writes per fault. Reports in build/c2c/POLICY.txt (docs/c2c.md).
#   scripts/c2c.sh [procs pages rounds]   (default 4 256 10)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=build/c2c
ARGS=${*:-4 256 10}
POLICIES=${C2C_POLICIES:-special refcount}
mkdir -p "$OUT"
for k in $POLICIES; do
	QEMU_ACCEL=tcg,thread=single \
	QEMU_EXTRA="-icount shift=0,sleep=off -plugin build/c2c.so,out=$OUT/$k.txt,top=${C2C_TOP:-20}" \
		scripts/qemu.sh --mem 128M --smp 4 --timeout "${C2C_TIMEOUT:-600}" \
		--initrd build/user/initrd.cpio \
		--append "init=/bin/c2cprobe zero_page=$k -- $ARGS" \
		build/zpk.elf >"$OUT/$k.log" 2>&1 || true
	faults=$(sed -n 's/.*c2cprobe:.* faults=\([0-9]*\).*/\1/p' "$OUT/$k.log")
	if [ -z "$faults" ]; then
		echo "$k: c2cprobe did not finish (see $OUT/$k.log)"
		continue
	fi
	awk -v k="$k" -v f="$faults" '/^shared_lines/ {
		printf "%-9s faults %d  shared writes %d (%.2f per fault)  transfers %d (%.2f)  invalidations %d\n",
			k, f, $4, $4 / f, $6, $6 / f, $8 }' "$OUT/$k.txt"
done
