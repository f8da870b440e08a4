#!/bin/bash
# tests/qemu/user.sh — user programs as PID 1: init's exit status becomes
# QEMU's; a kernel-side exec failure is reported, not a panic.
cd "$(dirname "$0")/../.."
. tests/lib.sh

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

# The user tests: /tests/runner as PID 1 runs each test binary in a child
# and checks after each that every page came back. Its TAP lines count
# here; each test's own lines are indented under it.
log=$LOGDIR/user-runner.log
boot "$log" 512M init=/tests/runner
tr -d '\r' <"$log" | sed -n '/^zpk: starting \/tests\/runner as PID 1/,$p' |
	grep -E '^(ok|not ok|    )'
expect_status "the runner (PID 1) exited 0: every user test passed" 0
[ "$BOOT_STATUS" = 0 ] || show_tail "$log"
