#!/bin/bash
# tests/qemu/gdb.sh — gdb in batch mode against QEMU: break at kernel_main,
# backtrace, read a local and a global, step into a call, run to power-off.
. tests/lib.sh
log=$LOGDIR/gdb-console.log glog=$LOGDIR/gdb.log
export GDB_PORT=$((20000 + RANDOM % 20000))
scripts/qemu.sh --gdb --mem 64M --append "idle=poweroff loglevel=7" \
	--timeout 60 "$ZPK_ELF" >"$log" 2>&1 &
qpid=$!
timeout 60 gdb -batch -nx -x tools/gdbinit -x tests/gdb/boot.gdb \
	"$ZPK_ELF" >"$glog" 2>&1
wait $qpid
BOOT_STATUS=$(qemu_status_to_zpk $?)
expect_in "$glog" gdb.hbreak_kernel_main "Breakpoint 1, kernel_main ("
if grep -q '^#0  kernel_main' "$glog"; then tap gdb.backtrace_names_kernel_main 1
else tap gdb.backtrace_names_kernel_main 0 "no '#0  kernel_main' frame"; fi
expect_in "$glog" gdb.print_local_magic "= 0x36d76289"
if grep -q '^#1 .* kernel_main' "$glog"; then tap gdb.backtrace_two_frames 1
else tap gdb.backtrace_two_frames 0 "parse_kernel_params not called from kernel_main?"; fi
expect_in "$glog" gdb.print_global_cmdline '"idle=poweroff loglevel=7"'
if grep -q '^#0  .*strlcpy' "$glog"; then tap gdb.step_into_strlcpy 1
else tap gdb.step_into_strlcpy 0 "step did not enter strlcpy"; fi
expect_status gdb.qemu_exits_after_continue 0
if [ "$BOOT_STATUS" != 0 ] || ! grep -q strlcpy "$glog"; then
	show_tail "$glog"
fi
