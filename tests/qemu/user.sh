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
