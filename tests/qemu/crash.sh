#!/bin/bash
# tests/qemu/crash.sh — crash=pf|ud|panic: the fatal-exception report is
# complete (name, CR2, symbolized RIP, backtrace) and QEMU exits as panic.
. tests/lib.sh
log=$LOGDIR/crash-pf.log
boot "$log" 64M crash=pf
expect_status crash.pf_exit_status 127
expect_in "$log" crash.pf_name "Page Fault (#PF)"
expect_in "$log" crash.pf_error "[kernel write, not present]"
expect_in "$log" crash.pf_cr2 "CR2=0x00000000dead0000"
expect_in "$log" crash.pf_rip_symbol "<crash_pf+0x"
if sed -n '/^Call Trace:/,$p' "$log" | grep -q "kernel_main+0x"; then
	tap crash.pf_backtrace_kernel_main 1
else
	tap crash.pf_backtrace_kernel_main 0 "no kernel_main in Call Trace"
	show_tail "$log"
fi
log=$LOGDIR/crash-zero-page.log
boot "$log" 64M crash=zero_page
expect_status crash.zero_page_exit_status 127
expect_in "$log" crash.zero_page_named "zpk: BUG: write to the zero page at 0xffff888"
expect_in "$log" crash.zero_page_rip_symbol "<crash_zero_page+0x"
log=$LOGDIR/crash-ud.log
boot "$log" 64M crash=ud
expect_status crash.ud_exit_status 127
expect_in "$log" crash.ud_name "Invalid Opcode (#UD)"
log=$LOGDIR/crash-panic.log
boot "$log" 64M crash=panic
expect_status crash.panic_exit_status 127
expect_in "$log" crash.panic_message "Kernel panic - not syncing: crash=panic requested"
# On four CPUs: the debug check names the lock and the CPU, and the panic
# stops the other three (an NMI each) before QEMU exits.
log=$LOGDIR/crash-spinlock.log
BOOT_SMP=4 boot "$log" 64M crash=spinlock
expect_status crash.spinlock_exit_status 127
expect_in "$log" crash.spinlock_recursion "BUG: spinlock recursion on CPU#0, swapper/0"
expect_in "$log" crash.spinlock_lock_named "lock: crash_lock, .owner_cpu: 0"
expect_in "$log" crash.spinlock_backtrace "crash_spinlock+0x"
expect_in "$log" crash.spinlock_panic "Kernel panic - not syncing: spinlock recursion: crash_lock"
