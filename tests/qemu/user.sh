#!/bin/bash
# tests/qemu/user.sh [PART...] — user programs as PID 1: init's exit status
# becomes QEMU's; a kernel-side exec failure is reported, not a panic.
# Each PART is independent of the others (its own boots and logs), so that
# tests/run-all.sh can run them side by side; with no PART, all in order.
cd "$(dirname "$0")/../.."
. tests/lib.sh

PARTS="init runner-special runner-refcount runner-off smp4 smp4-zero thp
zpbench-special zpbench-refcount zpbench-off oom outside sh jobctl proc busybox
sqlite"

part_init() {
log=$LOGDIR/user-true.log
boot "$log" 64M init=/bin/true
expect_in "$log" "init=/bin/true runs as PID 1" "zpk: starting /bin/true as PID 1"
expect_in "$log" "its exit is reported" "zpk: init exited with status 0"
expect_status "QEMU's status is init's: 0" 0

log=$LOGDIR/user-false.log
boot "$log" 64M init=/bin/false
expect_status "init=/bin/false: QEMU's status is 1" 1

log=$LOGDIR/user-missing.log
boot "$log" 64M init=/bin/no-such-program
expect_in "$log" "a missing init is reported by name" \
	"zpk: cannot run init /bin/no-such-program: error -2"
expect_status "... and QEMU's status is failure (1)" 1
}

# The runner's TAP lines from LOG, top-level ones numbered on from $tapno
# (runner_tap LOG POLICY): one boot's lines, or two boots' as one list.
runner_tap() {
	tr -d '\r' <"$1" |
		sed -n '/^zpk: starting \/tests\/runner as PID 1/,$p' |
		grep -E '^(ok|not ok|    )' |
		awk -v n="$tapno" -v p="$2" '
			/^(ok|not ok) [0-9]+ / {
				ok = $1 == "ok" ? "ok" : "not ok"
				sub(/^(ok|not ok) [0-9]+ /, "")
				printf "%s [%s] %d %s\n", ok, p, ++n, $0; next }
			{ print }
			END { print n > "/dev/stderr" }' 2>"$LOGDIR/.tapno-$2"
	tapno=$(cat "$LOGDIR/.tapno-$2")
	rm -f "$LOGDIR/.tapno-$2"
}

# The user tests: /tests/runner as PID 1 runs each test binary in a child
# and checks after each that every page came back. Its TAP lines count
# here; each test's own lines are indented under it. mm_verify=exit
# checks every counter and page count at each process's exit. Once per
# zero-page policy: each must keep every test and the checker happy.
# special runs stress_integrity (and sparse_scan) at full size (runner.c),
# by far the longest test: in a boot of its own beside the others' boot,
# its lines numbered on after theirs as if one runner had run them all.
part_runner() {
	local policy=$1 log=$LOGDIR/user-runner-$1.log slog=
	local st1 st2 tapno=0 spid= scale=
	# The runner's own per-test watchdog scales with QEMU's timeout.
	[ "${TIMEOUT_SCALE:-1}" = 1 ] || scale="-T $TIMEOUT_SCALE"
	if [ "$policy" = special ]; then
		slog=$LOGDIR/user-runner-special-stress.log
		TEST_TIMEOUT=400 boot "$slog" 512M init=/tests/runner \
			mm_verify=exit zero_page=$policy -- $scale \
			zeropage/stress_integrity &
		spid=$!
		TEST_TIMEOUT=400 boot "$log" 512M init=/tests/runner \
			mm_verify=exit zero_page=$policy -- $scale --except \
			zeropage/stress_integrity exhaust
		st1=$BOOT_STATUS
		wait $spid
		# boot ran in a subshell: its status is in the log's last line
		st2=$(sed -n 's/^zpk: init exited with status \([0-9]*\).*/\1/p' \
			"$slog" | tail -1)
	else
		TEST_TIMEOUT=120 boot "$log" 512M init=/tests/runner \
			mm_verify=exit zero_page=$policy -- $scale --except exhaust
		st1=$BOOT_STATUS st2=0
	fi
	runner_tap "$log" "$policy"
	[ -z "$slog" ] || runner_tap "$slog" "$policy"
	BOOT_STATUS=$([ "$st1" = 0 ] && [ "$st2" = 0 ] && echo 0 ||
		echo "$st1/${st2:-none}")
	expect_status "[$policy] the runner (PID 1) exited 0: every user test passed" 0
	if [ "$BOOT_STATUS" != 0 ]; then
		show_tail "$log"
		[ -z "$slog" ] || show_tail "$slog"
	fi
	cat "$log" $slog >"$log.all"
	expect_not_in "$log.all" "[$policy] mm_verify found nothing wrong at any exit" \
		"mm_verify:"
	expect_not_in "$log.all" "[$policy] zero_page=$policy is a known parameter" \
		"unknown kernel parameter"
	expect_not_in "$log.all" "[$policy] no BUG (spinlocks, sleeping in atomic context, panics)" \
		"BUG"
	rm -f "$log.all"
}

# The user tests on four CPUs (docs/smp.md, "Tests"): the whole suite
# under refcount, whose shared zero page every CPU's faults write, and the
# zero-page tests under special and off, so that each policy runs on
# several CPUs; mm_verify=exit at every exit, the runner's leak check
# after every test. stress_integrity's full size stays in part runner.
runner_smp4() {
	local policy=$1 log=$LOGDIR/user-smp4-$1.log st tapno=0 scale=
	shift
	[ "${TIMEOUT_SCALE:-1}" = 1 ] || scale="-T $TIMEOUT_SCALE"
	BOOT_SMP=4 TEST_TIMEOUT=200 boot "$log" 512M init=/tests/runner \
		mm_verify=exit zero_page=$policy -- $scale "$@"
	st=$BOOT_STATUS
	runner_tap "$log" "smp4 $policy"
	BOOT_STATUS=$st
	expect_status "[smp4 $policy] the runner (PID 1) exited 0: every test passed" 0
	[ "$BOOT_STATUS" = 0 ] || show_tail "$log"
	expect_not_in "$log" "[smp4 $policy] mm_verify found nothing wrong at any exit" \
		"mm_verify:"
	expect_not_in "$log" "[smp4 $policy] no BUG (spinlocks, sleeping in atomic context, panics)" \
		"BUG"
}

# THP "always" (docs/vm.md, "Transparent huge pages"): the suite on two
# CPUs under huge_zero_page=refcount, but for the two tests that count
# 4 KiB pages of sparse writes (THP makes those 2 MiB, as on Linux); the
# THP and fork tests under the other two lifetimes.
runner_thp() {
	local hz=$1 log=$LOGDIR/user-thp-$1.log st tapno=0 scale=
	shift
	[ "${TIMEOUT_SCALE:-1}" = 1 ] || scale="-T $TIMEOUT_SCALE"
	BOOT_SMP=2 TEST_TIMEOUT=200 boot "$log" 512M init=/tests/runner \
		mm_verify=exit transparent_hugepage=always \
		huge_zero_page="$hz" -- $scale "$@"
	st=$BOOT_STATUS
	runner_tap "$log" "thp $hz"
	BOOT_STATUS=$st
	expect_status "[thp $hz] the runner (PID 1) exited 0: every test passed" 0
	[ "$BOOT_STATUS" = 0 ] || show_tail "$log"
	expect_not_in "$log" "[thp $hz] mm_verify found nothing wrong at any exit" \
		"mm_verify:"
	expect_not_in "$log" "[thp $hz] no BUG (spinlocks, sleeping in atomic context, panics)" \
		"BUG"
	expect_not_in "$log" "[thp $hz] its parameters are known" \
		"unknown kernel parameter"
}

part_thp() {
	runner_thp refcount --except exhaust zeropage/stress_integrity \
		lazy_mmap zeropage/sparse_scan
	for hz in per-mm persistent; do
		runner_thp $hz thp thp_zero thp_zero_switch cow_fork \
			fork_wrprotect mremap madvise_fork prot_none mincore \
			proc_consistency
	done
}

part_smp4() {
	# exhaust runs at 64 MiB on four CPUs in part oom; stress_integrity
	# at its reduced size (40 rounds: not special).
	runner_smp4 refcount --except exhaust
}

part_smp4_zero() {
	local tests t
	tests=$(cd user/tests && for t in zeropage/*.c; do
		t=${t%.c}
		[ "$t" = zeropage/stress_integrity ] || echo "$t"
	done)
	# shellcheck disable=SC2086
	runner_smp4 special $tests
	# shellcheck disable=SC2086
	runner_smp4 off $tests
}

# The fault benchmark checks its own figures (small N): minflt per phase,
# RssAnon/RssZero deltas, the sparse scan's RSS. Once per policy.
part_zpbench() {
	local policy=$1 out rc
	out=$(scripts/zpk-run --mem 256M --timeout 60 \
		--append "zero_page=$policy mm_verify=exit" zpbench --check 2>&1)
	rc=$?
	echo "$out" | grep -E '^(ok|not ok|#)' | sed 's/^/    /'
	tap "[$policy] zpbench --check: every figure of its own checks holds" \
		"$([ $rc = 0 ] && echo "$out" | grep -q '^1\.\.' &&
		   ! echo "$out" | grep -q 'mm_verify:' && echo 1)" \
		"status $rc: $(echo "$out" | grep '^not ok' | head -3 | tr '\n' '|')"
}

# The OOM killer at 64 MiB (the runner above runs it at 512 MiB too): the
# hogs die, the test at oom_score_adj -1000 and init live, Linux's report
# line is printed, and every page comes back. Memory running out every
# other way (exhaust) runs here only: at 64 MiB it costs a fraction of
# what it would at 512. Once per policy, and under refcount on 4 CPUs.
part_oom() {
	local policy smp out rc
	for policy in special refcount off smp4-refcount; do
		smp=1
		case $policy in smp4-*) smp=4 ;; esac
		out=$(scripts/zpk-run --mem 64M --smp $smp --timeout 200 \
			--append "zero_page=${policy#smp4-} mm_verify=exit" \
			/tests/runner oom exhaust 2>&1)
		rc=$?
		echo "$out" | grep -E '^(ok|not ok|    (ok|not ok))' | sed 's/^/    /'
		tap "[$policy] oom and exhaust at 64M: the runner (PID 1) exited 0" \
			"$([ $rc = 0 ] && ! echo "$out" | grep -q 'mm_verify:' && echo 1)" \
			"status $rc"
		tap "[$policy] oom at 64M: Linux's report line" \
			"$(echo "$out" | grep -qE '^Out of memory: Killed process [0-9]+ \(oom\) total-vm:[0-9]+kB, anon-rss:[0-9]+kB, file-rss:[0-9]+kB, shmem-rss:[0-9]+kB, UID:0 pgtables:[0-9]+kB oom_score_adj:1000$' && echo 1)" \
			"no such line"
	done
}

# scripts/zpk-run with a program built here, outside user/: any static
# musl binary runs as PID 1, and its exit status becomes zpk-run's.
part_outside() {
src=$LOGDIR/outside.c
cat >"$src" <<'C'
#include <stdio.h>
int main(int argc, char **argv)
{
	printf("hello from outside, argc %d, last %s\n", argc, argv[argc - 1]);
	return argc == 3 ? 42 : 1;
}
C
if musl-gcc -static -O2 -o "$LOGDIR/outside" "$src"; then
	out=$(scripts/zpk-run --timeout 60 --add "$LOGDIR/outside:/bin/outside" \
		outside one two 2>&1)
	rc=$?
	tap "zpk-run --add runs a static musl program built elsewhere" \
		"$([ "$out" = "hello from outside, argc 3, last two" ] && echo 1)" \
		"output was: $out"
	tap "zpk-run exits with the program's status (42)" \
		"$([ $rc = 42 ] && echo 1)" "status $rc"
else
	tap "zpk-run --add runs a static musl program built elsewhere" 0 \
		"musl-gcc failed"
fi
}

# The shell: pipes, quotes, $?, redirection into /tmp, cd (/etc/sh-test).
part_sh() {
out=$(scripts/zpk-run --timeout 60 sh /etc/sh-test 2>&1)
want="hi
single  quoted double 0
status 1
into-a-file
sh-test.out"
tap "sh runs /etc/sh-test: pipes, quotes, \$?, redirection, cd" \
	"$([ "$(echo "$out" | head -5)" = "$want" ] && echo 1)" \
	"output was: $(echo "$out" | head -5 | tr '\n' '|')"
tap "ls /bin | cat lists the programs" \
	"$(echo "$out" | grep -qx hello && echo "$out" | grep -qx sh && echo 1)"
}

# The interactive shell on the console, typed at: init gives it the
# console as its controlling terminal, so ^Z stops the foreground
# pipeline (cat), fg continues it and ^C ends it, and the shell, which
# ignores both, prompts again. Each line is typed once the shell has
# printed its Nth prompt (no fixed delays: boots under load are slow).
part_jobctl() {
	local log=$LOGDIR/user-jobctl.log fifo=$LOGDIR/.jobctl-in qpid t
	rm -f "$fifo"
	mkfifo "$fifo"
	scripts/qemu.sh --mem 128M --initrd "$ZPK_INITRD" --append loglevel=4 \
		"$ZPK_ELF" <"$fifo" >"$log" 2>&1 &
	qpid=$!
	exec 9>"$fifo"
	# type N TEXT — TEXT once the log shows N prompts (or the text
	# after "when"); gives up after 90 s in all.
	type_at() {
		while [ "$(grep -o 'zpk\$ ' "$log" | wc -l)" -lt "$1" ]; do
			[ $((t += 1)) -lt 900 ] || return 1
			sleep 0.1
		done
		printf '%b' "$2" >&9
	}
	# seen N TEXT — waits until the log has N lines that are TEXT
	seen() {
		while [ "$(tr -d '\r' <"$log" | grep -cxF -- "$2")" -lt "$1" ]; do
			[ $((t += 1)) -lt 900 ] || return 1
			sleep 0.1
		done
	}
	t=0
	type_at 1 'cat\n' && seen 1 'zpk$ cat' && printf 'abc\n' >&9
	seen 2 abc && printf '\032' >&9	# echoed and catted: ^Z
	type_at 2 'echo stopped $?\n'
	type_at 3 'fg\n' && seen 1 'zpk$ fg' && printf 'def\n' >&9
	seen 2 def && printf '\003' >&9
	type_at 4 'echo after $?\n'
	type_at 5 ''
	exec 9>&-
	kill "$qpid" 2>/dev/null
	wait "$qpid" 2>/dev/null
	rm -f "$fifo"
	tr -d '\r' <"$log" >"$log.txt"
	expect_in "$log.txt" "shell: ^Z stops the foreground cat and says so" \
		"[stopped]"
	expect_in "$log.txt" "shell: its status is 128 + SIGTSTP" "stopped 148"
	tap "shell: fg continues cat, which reads the next line" \
		"$(grep -c '^def$' "$log.txt" | grep -qx 2 && echo 1)" \
		"$(tail -5 "$log.txt" | tr '\n' '|')"
	expect_in "$log.txt" "shell: ^C ends cat (128 + SIGINT), not the shell" \
		"after 130"
	rm -f "$log.txt"
}

# /proc as the tools in user/ read it: Linux's lines and columns, and
# zpk's own RssZero. PID 1 is the shell; each cat is a child.
part_proc() {
script=$LOGDIR/proc-cat
cat >"$script" <<'SH'
cat /proc/self/status
cat /proc/meminfo
cat /proc/self/maps
cat /proc/1/status
ls /proc
SH
out=$(scripts/zpk-run --timeout 60 --add "$script:/etc/proc-cat" \
	sh /etc/proc-cat 2>&1)
has() { echo "$out" | grep -qE "$1" && echo 1; }
tap "/proc/self/status: Name, VmRSS and RssZero in Linux's layout" \
	"$([ "$(has '^Name:	cat$')$(has '^VmRSS:	 +[0-9]+ kB$')$(has '^RssShmem:	 +[0-9]+ kB$')$(has '^RssZero:	 +[0-9]+ kB$')" = 1111 ] && echo 1)" \
	"output was: $(echo "$out" | head -30 | tr '\n' '|')"
tap "/proc/meminfo: MemTotal, MemFree, AnonPages" \
	"$([ "$(has '^MemTotal: +[0-9]+ kB$')$(has '^MemFree: +[0-9]+ kB$')$(has '^AnonPages: +[0-9]+ kB$')" = 111 ] && echo 1)"
tap "/proc/self/maps: [stack], and file names start at column 74" \
	"$([ "$(has '\[stack\]$')$(echo "$out" | awk 'index($0, "/bin/cat") == 74 { ok = 1 } END { if (ok) print 1 }')" = 11 ] && echo 1)" \
	"maps: $(echo "$out" | grep -E '^[0-9a-f]+-' | tr '\n' '|')"
tap "/proc/1/status is the shell's; ls /proc lists 1 and self" \
	"$([ "$(has '^Name:	sh$')$(has '^PPid:	0$')$(echo "$out" | grep -qx 1 && echo "$out" | grep -qx self && echo 1)" = 111 ] && echo 1)"
}

# The lines of FILE's section NAME ("== NAME" up to the next "== ").
section() {
	awk -v s="$2" '/^== / { on = substr($0, 4) == s; next } on' "$1"
}

# busybox's applets under its ash: /etc/busybox-test (pipelines, find |
# xargs grep, awk, sort, here-documents, links, id, df, top) runs with
# the host's busybox and on zpk; each section must print the same.
part_busybox() {
local host=$LOGDIR/busybox-host.out log=$LOGDIR/user-busybox.log dir a b
if ! command -v busybox >/dev/null; then
	tap "busybox: the host has none to compare with # SKIP" 1
	return
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/bbtest.XXXXXX")
BBTEST=$dir/t busybox sh user/etc/busybox-test >"$host" 2>&1
rm -rf "$dir"
scripts/zpk-run --timeout 120 busybox sh /etc/busybox-test 2>&1 |
	tr -d '\r' >"$log"
while IFS= read -r name; do
	a=$(section "$host" "$name")
	b=$(section "$log" "$name")
	tap "busybox: $name, as on the host" \
		"$([ "$a" = "$b" ] && grep -qx "== $name" "$log" && echo 1)" \
		"zpk: $(echo "$b" | head -8 | tr '\n' '|') host: $(echo "$a" |
			head -8 | tr '\n' '|')"
done < <(sed -n 's/^== //p' "$host")
expect_not_in "$log" "busybox: no system call zpk lacks" "not implemented"
}

# Debian's own sqlite3 (dynamically linked with glibc), if this host has
# it, run through its interpreter with the libraries ldd names: a
# database in /tmp takes POSIX record locks (F_SETLK, F_GETLK), then a
# WAL file maps its -shm index; the output must be the host's.
part_sqlite() {
local log=$LOGDIR/user-sqlite.log host=$LOGDIR/sqlite-host.out dir lib
local sql=tests/qemu/sqlite/locks.sql adds=()
local prog=${SQLITE3:-/usr/bin/sqlite3}
if ! [ -x "$prog" ] || ! ldd "$prog" >/dev/null 2>&1; then
	tap "sqlite: the host has no dynamically linked sqlite3 # SKIP" 1
	return
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/sqltest.XXXXXX")
"$prog" -init "$sql" "$dir/t.db" .quit >"$host" 2>&1
rm -rf "$dir"
for lib in $(ldd "$prog" | grep -o '/[^ ]*'); do
	adds+=(--add "$lib:$lib")
done
scripts/zpk-run --timeout 180 "${adds[@]}" --add "$prog:$prog" \
	--add "$sql:/tmp/locks.sql" /lib64/ld-linux-x86-64.so.2 "$prog" \
	-init /tmp/locks.sql /tmp/t.db .quit 2>&1 | tr -d '\r' >"$log"
tap "sqlite: Debian's sqlite3 on a /tmp database answers as on the host" \
	"$(grep -v -e '^zpk' -e '^-- Loading' "$log" | cmp -s - "$host" && echo 1)" \
	"zpk: $(head -5 "$log" | tr '\n' '|') host: $(head -5 "$host" |
		tr '\n' '|')"
expect_not_in "$log" "sqlite: no disk I/O error" "disk I/O error"
expect_not_in "$log" "sqlite: no system call zpk lacks" "not implemented"
}

for part in ${*:-$PARTS}; do
	case $part in
	runner-*) part_runner "${part#runner-}" ;;
	zpbench-*) part_zpbench "${part#zpbench-}" ;;
	smp4-zero) part_smp4_zero ;;
	*) "part_$part" ;;
	esac
done
