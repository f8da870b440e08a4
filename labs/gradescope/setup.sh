#!/bin/bash
# labs/gradescope/setup.sh — Gradescope runs this once, as root, when it
# builds the autograder's image (Ubuntu): the packages zpk's build and
# tests need, then the student tree's build, so that each submission
# recompiles only the files the student changed. AUTOGRADER (default
# /autograder) as run_autograder.
set -euo pipefail
src=${AUTOGRADER:-/autograder}/source
cd "$src/zpk"
apt-get update -qq
scripts/deps.sh
make -s -j"$(nproc)" build/zpk.elf initrd host-tests
