#!/bin/bash
# tests/run-all.sh — make test's driver: host unit tests, the docs' check,
# ktests in QEMU at several memory sizes, runner tests (crash report, gdb),
# side by side; then one summary.
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

# QEMU suites run side by side, $TEST_JOBS at a time (default: one per
# core); each job's output is buffered in $JOBDIR/NAME.out and printed,
# suite by suite in the order below, once it is done, so nothing
# interleaves.
TEST_JOBS=${TEST_JOBS:-$(nproc)}
JOBDIR=$LOGDIR/jobs
rm -rf "$JOBDIR"
mkdir -p "$JOBDIR"
declare -A job_pid
# TEST_SUITES="host boot ..." runs only those suites (default: all).
TEST_SUITES=${TEST_SUITES:-host docs clang ktest-32M ktest-512M ktest-6G ktest-smp4 boot user blk fuzz crash gdb c2c realprog}
want() { case " $TEST_SUITES " in *" $1 "*) return 0 ;; esac; return 1; }

# job NAME CMD... — start CMD in the background once a slot is free; its
# output goes to $JOBDIR/NAME.out, its wall time to $JOBDIR/NAME.secs.
job() {
	local name=$1
	shift
	want "${name%%-[a-z]*}" || want "$name" || return 0
	while [ "$(jobs -rp | wc -l)" -ge "$TEST_JOBS" ]; do
		wait -n
	done
	(
		t0=$(date +%s.%N)
		"$@" >"$JOBDIR/$name.out" 2>&1
		t1=$(date +%s.%N)
		echo "$t1 $t0" | awk '{ printf "%.1f\n", $1 - $2 }' \
			>"$JOBDIR/$name.secs"
	) &
	job_pid[$name]=$!
}

# suite SUITE JOB... — wait for the jobs, print their output in order,
# tally it, record "suite passed failed seconds" (seconds: the jobs'
# own wall times, added up).
suite() {
	local suite=$1 j secs=0 p f
	shift
	want "$suite" || return 0
	echo "# ==== $suite"
	rm -f "$results.part"
	for j in "$@"; do
		wait "${job_pid[$j]}" 2>/dev/null
		secs=$(echo "$secs $(cat "$JOBDIR/$j.secs" 2>/dev/null || echo 0)" |
			awk '{ printf "%.1f", $1 + $2 }')
	done
	for j in "$@"; do
		[ -f "$JOBDIR/$j.secs" ] ||
			echo "not ok - $suite: job $j did not finish"
		cat "$JOBDIR/$j.out"
	done | count "$suite"
	read -r _ p f <"$results.part"
	echo "$suite $p $f $secs" >>"$results"
}

host_tests() {
	make -s -C tests/host run 2>&1
}

# The docs name only what the tree has (scripts/check-docs.py).
docs_check() {
	python3 scripts/check-docs.py 2>&1
}

# The kernel and its ktests must build with clang too (-Wall -Wextra
# -Werror), in its own build directory; one job is one core, so one
# compiler at a time.
clang_build() {
	local log=$LOGDIR/clang-build.log
	if make -s -j1 B=build/clang CC=clang build/clang/zpk.elf \
		build/clang/zpk-test.elf >"$log" 2>&1
	then tap "clang: the kernel builds with clang" 1
	else
		tap "clang: the kernel builds with clang" 0 "see $log"
		show_tail "$log"
	fi
}

# ktests MEM [CPUS] — one boot of the image with the ktests
# ($ZPK_KTEST_ELF) with ktest=all; every planned test must report. Lines
# are tagged [MEM] or [MEM smpN].
ktests() {
	local mem=$1 smp=${2:-1} tag=$1 log plan got
	[ "$smp" = 1 ] || tag="$mem smp$smp"
	log=$LOGDIR/ktest-${tag// /-}.log
	ZPK_ELF=$ZPK_KTEST_ELF BOOT_SMP=$smp boot "$log" "$mem" ktest=all \
		page_poison=1 loglevel=5
	plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$log" | head -1)
	got=$(grep -cE '^(not )?ok [0-9]+ ' "$log")
	grep -E '^(not )?ok [0-9]+ |^    # ' "$log" | sed "s/^\(\(not \)\{0,1\}ok [0-9]* \)/\1[$tag] /"
	if [ -z "$plan" ] || [ "$got" -lt "$plan" ] || [ "$BOOT_STATUS" = timeout ] ||
	   [ "$BOOT_STATUS" = 127 ]; then
		echo "not ok - [$tag] ktest run ended early (status $BOOT_STATUS, $got of ${plan:-?} tests reported)"
		show_tail "$log"
	fi
}

t_start=$(date +%s.%N)
# Longest first, so that the short ones fill in beside them.
user_parts="init runner-special runner-refcount runner-off smp4 smp4-zero thp
zpbench-special zpbench-refcount zpbench-off oom outside sh jobctl proc busybox
sqlite"
job user-runner-special bash tests/qemu/user.sh runner-special
job user-runner-refcount bash tests/qemu/user.sh runner-refcount
job user-runner-off bash tests/qemu/user.sh runner-off
job realprog bash tests/qemu/realprog.sh
for p in $user_parts; do
	case $p in runner-*) ;; *) job "user-$p" bash tests/qemu/user.sh "$p" ;; esac
done
# The fuzzer, 20 s of calls under each policy (make fuzz runs longer).
seed=0
for p in special refcount off; do
	seed=$((seed + 1))
	job "fuzz-$p" bash tests/qemu/fuzz.sh --secs 20 --seed $seed "$p"
done
job ktest-6G ktests 6G
job ktest-32M ktests 32M
job ktest-512M ktests 512M
job ktest-smp4 ktests 512M 4
job crash bash tests/qemu/crash.sh
job gdb bash tests/qemu/gdb.sh
job c2c bash tests/qemu/c2c.sh
job boot bash tests/qemu/boot.sh
job blk bash tests/qemu/blk.sh
job host host_tests
job docs docs_check
job clang clang_build

suite host host
suite docs docs
suite clang clang
suite ktest-32M ktest-32M
suite ktest-512M ktest-512M
suite ktest-6G ktest-6G
suite ktest-smp4 ktest-smp4
suite boot boot
# shellcheck disable=SC2046
suite user $(for p in $user_parts; do echo "user-$p"; done)
suite blk blk
suite fuzz fuzz-special fuzz-refcount fuzz-off
suite crash crash
suite gdb gdb
suite c2c c2c
suite realprog realprog
wait

echo
printf '%-12s %7s %7s %8s\n' suite passed failed seconds
total_p=0 total_f=0
while read -r s p f secs; do
	printf '%-12s %7d %7d %8s\n' "$s" "$p" "$f" "$secs"
	total_p=$((total_p + p)) total_f=$((total_f + f))
done <"$results"
[ -f "$LOGDIR/boot-seconds" ] &&
	echo "figure: GRUB to power-off $(cat "$LOGDIR/boot-seconds") s wall under TCG (target < 1.5 s)"
echo "wall: $(echo "$(date +%s.%N) $t_start" | awk '{ printf "%.1f", $1 - $2 }') s, $TEST_JOBS jobs at a time"
# The slowest five user tests, from the runner's own "(exit 0, 1.23 s)".
echo "slowest user tests:"
want user && for f in "$LOGDIR"/user-runner-*.log; do
	[ -f "$f" ] || continue
	p=${f#"$LOGDIR"/user-runner-}
	p=${p%.log}
	p=${p%-stress}
	tr -d '\r' <"$f" | sed -n "s/^\(not \)\{0,1\}ok [0-9]* - \([^ ]*\) (.*, \([0-9.]*\) s)$/\3 [$p] \2/p"
done | sort -rn | head -5 | awk '{ printf "  %8.2f s  %s %s\n", $1, $2, $3 }'
echo "$total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
