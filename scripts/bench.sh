#!/bin/bash
# scripts/bench.sh — make bench: boots zpk with bench=mm twice, free-running
# TCG and with -icount shift=0 (virtual time advances 1 ns per guest
# instruction, so those TSC figures repeat exactly), and prints a table.
set -euo pipefail
cd "$(dirname "$0")/.."
elf=build/zpk.elf
run() {
	QEMU_EXTRA="$1" scripts/qemu.sh --mem 128M --append "bench=mm loglevel=4" \
		--timeout 120 "$elf" 2>&1 | tr -d '\r' | sed -n 's/^bench: //p' || true
}
free_run=$(run "")
icount=$(run "-icount shift=0,sleep=off")
printf '%-32s %18s %22s\n' "figure" "TSC (TCG, free)" "TSC (-icount shift=0)"
paste -d'|' <(echo "$free_run") <(echo "$icount") | while IFS='|' read -r a b; do
	name=${a% * *}
	printf '%-32s %18s %22s\n' "$name" "$(echo "$a" | awk '{print $(NF-1), $NF}')" \
		"$(echo "$b" | awk '{print $(NF-1)}')"
done
