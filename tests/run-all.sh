#!/bin/bash
# tests/run-all.sh — make test's driver: host unit tests, ktests in QEMU at
# several memory sizes, runner tests (crash report, gdb); then one summary.
set -uo pipefail
cd "$(dirname "$0")/.."
. tests/lib.sh
results=$LOGDIR/results.txt
: >"$results"

# count SUITE < TAP — echo the TAP lines and tally them under SUITE.
count() {
	local suite=$1 line pass=0 fail=0
	while IFS= read -r line; do
		echo "$line"
		case $line in
		"ok "*) pass=$((pass + 1)) ;;
		"not ok "*) fail=$((fail + 1)) ;;
		esac
	done
	echo "$suite $pass $fail" >>"$results.part"
}

# run SUITE CMD... — time a suite and record "suite passed failed seconds".
run() {
	local suite=$1 t0 t1 p f
	shift
	echo "# ==== $suite"
	rm -f "$results.part"
	t0=$(date +%s.%N)
	"$@" | count "$suite"
	t1=$(date +%s.%N)
	read -r _ p f <"$results.part"
	echo "$suite $p $f $(echo "$t1 $t0" | awk '{ printf "%.1f", $1 - $2 }')" >>"$results"
}

host_tests() {
	make -s -C tests/host run 2>&1
}

# ktests MEM — one boot with ktest=all; every planned test must report.
ktests() {
	local mem=$1 log=$LOGDIR/ktest-$1.log plan got
	boot "$log" "$mem" ktest=all page_poison=1 loglevel=5
	plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$log" | head -1)
	got=$(grep -cE '^(not )?ok [0-9]+ ' "$log")
	grep -E '^(not )?ok [0-9]+ |^    # ' "$log" | sed "s/^\(\(not \)\{0,1\}ok [0-9]* \)/\1[$mem] /"
	if [ -z "$plan" ] || [ "$got" -lt "$plan" ] || [ "$BOOT_STATUS" = timeout ] ||
	   [ "$BOOT_STATUS" = 127 ]; then
		echo "not ok - [$mem] ktest run ended early (status $BOOT_STATUS, $got of ${plan:-?} tests reported)"
		show_tail "$log"
	fi
}

run host host_tests
run ktest-32M ktests 32M
run ktest-512M ktests 512M
run ktest-6G ktests 6G
run boot bash tests/qemu/boot.sh
run user bash tests/qemu/user.sh
run crash bash tests/qemu/crash.sh
run gdb bash tests/qemu/gdb.sh

echo
printf '%-12s %7s %7s %8s\n' suite passed failed seconds
total_p=0 total_f=0
while read -r s p f secs; do
	printf '%-12s %7d %7d %8s\n' "$s" "$p" "$f" "$secs"
	total_p=$((total_p + p)) total_f=$((total_f + f))
done <"$results"
[ -f "$LOGDIR/boot-seconds" ] &&
	echo "figure: GRUB to power-off $(cat "$LOGDIR/boot-seconds") s wall under TCG (target < 1.5 s)"
echo "$total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
