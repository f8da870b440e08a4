#!/bin/bash
# tests/qemu/gdb.sh — gdb in batch mode against QEMU: break at kernel_main,
# backtrace, read a local and a global, step into a call, run to power-off;
# the zero-page walk-through; every zpk-* command once.
. tests/lib.sh

# gdb_session NAME SCRIPT PARAMS [QEMU-ARGS...] — QEMU waiting for gdb on a
# random port, gdb running tests/gdb/SCRIPT against it; sets log (console),
# glog (gdb's output) and BOOT_STATUS.
gdb_session() {
	local name=$1 script=$2 params=$3 qpid
	shift 3
	log=$LOGDIR/$name-console.log glog=$LOGDIR/$name.log
	export GDB_PORT=$((20000 + RANDOM % 20000))
	scripts/qemu.sh --gdb --mem 64M --append "$params" --timeout 90 "$@" \
		"$ZPK_DEBUG_ELF" >"$log" 2>&1 &
	qpid=$!
	timeout $((90 * ${TIMEOUT_SCALE:-1})) gdb -batch -nx -x tools/gdbinit -x "tests/gdb/$script" \
		"$ZPK_DEBUG_ELF" >"$glog" 2>&1
	wait $qpid
	BOOT_STATUS=$(qemu_status_to_zpk $?)
}

gdb_session gdb boot.gdb "idle=poweroff loglevel=7"
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

# bt_check NAME LOG FRAMES...: the backtrace of LOG ("+bt" and its "#N"
# lines) whose frame #0 is FRAMES' first names FRAMES in that order, each
# with its arguments, none <optimized out> (the debug build's real frames:
# __fault_inline, FRAME_OPT in the Makefile).
bt_check() {
	local name=$1 glog=$2 want got bad
	shift 2
	want="$*"
	got=$(awk -v f="$1" -v n=$# '
		/^\+bt/ { inbt = 1; i = 0; take = 0; next }
		/^\+/ { inbt = 0 }
		inbt && /^#/ {
			fn = $3 == "in" ? $4 : $2
			if (i++ == 0) take = fn == f
			if (take && i <= n) print
		}' "$glog")
	bad=$(echo "$got" | grep -v ' ([a-z_]*=[^)]' ; echo "$got" | grep 'optimized out')
	got=$(echo "$got" | awk '{ print $3 == "in" ? $4 : $2 }' | xargs)
	if [ "$got" = "$want" ] && [ -z "$(echo "$bad" | tr -d '[:space:]')" ]; then
		tap "$name" 1
	else
		tap "$name" 0 "frames '$got', want '$want'; $(echo "$bad" | head -1)"
	fi
}

# The zero-page walk-through (docs/zero-page.md), on the -Og build: zptouch's
# read fault at 0x10000000 maps the zero page behind a special PTE; its
# write copies it away. The zpk-* commands come from tools/gdb/zpk_mm.py.
gdb_session gdb-zero zero.gdb "init=/bin/zptouch loglevel=7" \
	--initrd "$ZPK_INITRD"
expect_in "$glog" gdb.zero_break_do_anon_zeromap "do_anon_zeromap (vma="
if grep -q '^#1 .*do_anonymous_page' "$glog" && grep -q 'handle_mm_fault' "$glog"
then tap gdb.zero_backtrace_fault_path 1
else tap gdb.zero_backtrace_fault_path 0 "no do_anonymous_page/handle_mm_fault frames"; fi
bt_check gdb.zero_bt_read_fault "$glog" do_anon_zeromap do_anonymous_page \
	handle_pte_fault __handle_mm_fault handle_mm_fault mm_fault do_page_fault
bt_check gdb.zero_bt_walk "$glog" __walk_pte __handle_mm_fault handle_mm_fault \
	mm_fault do_page_fault
bt_check gdb.zero_bt_cow "$glog" wp_page_copy do_wp_page handle_pte_fault \
	__handle_mm_fault handle_mm_fault mm_fault do_page_fault
bt_check gdb.zero_bt_rss "$glog" update_hiwater_rss add_mm_counter \
	inc_mm_counter wp_page_copy
expect_in "$glog" gdb.zero_pte_before "not present: the next fault at 0x10000000 is a first touch"
expect_in "$glog" gdb.zero_pte_special "P U A SPECIAL NX"
expect_in "$glog" gdb.zero_pte_is_zero_page "<- the zero page"
expect_in "$glog" gdb.zero_break_do_wp_page "do_wp_page (vma="
expect_in "$glog" gdb.zero_wp_locals_zero "zero = true"
expect_in "$glog" gdb.zero_wp_locals_no_old_page "old = 0x0"
expect_in "$glog" gdb.zero_pte_after_write "P RW U A D SOFT_DIRTY NX"
expect_in "$glog" gdb.zero_vmas "0000000010000000-0000000010001000 rw-p"
# zpk-memmap counts free pages from struct page (PG_buddy heads and their
# orders): the count must be the allocator's own, and nothing "other".
free_map=$(awk '$1 == "." { print $2 }' "$glog")
free_stat=$(awk '/^NR_FREE_PAGES \(vm_stat\):/ { print $3 }' "$glog")
if [ -n "$free_map" ] && [ "$free_map" = "$free_stat" ]; then
	tap gdb.memmap_free_matches_vm_stat 1
else
	tap gdb.memmap_free_matches_vm_stat 0 "free '$free_map' vs vm_stat '$free_stat'"
fi
expect_in "$glog" gdb.memmap_zero_page "  Z        1         4 kB  the zero page"
expect_status gdb.zero_zptouch_exits_0 0
# docs/zero-page.md shows this very session: it must not drift.
if why=$(python3 scripts/gen-walkthrough.py --check "$glog" docs/zero-page.md 2>&1)
then tap gdb.zero_walkthrough_doc_current 1
else tap gdb.zero_walkthrough_doc_current 0 "$(echo "$why" | tr '\n' ' ')"; fi
if [ "$BOOT_STATUS" != 0 ] || ! grep -q do_wp_page "$glog"; then
	show_tail "$glog"
fi

# Every zpk-* command of tools/gdb/zpk_mm.py once, with zptouch stopped in
# its write fault: none may raise an error. tests/gdb/commands.gdb finds
# them in gdb itself; the gdb.Command classes in the file are counted
# too, so that a command which never registers is caught.
gdb_session gdb-cmds commands.gdb "init=/bin/zptouch loglevel=7" \
	--initrd "$ZPK_INITRD"
classes=$(grep -c '^class .*(gdb\.Command)' tools/gdb/zpk_mm.py)
found=$(sed -n 's/^zpk commands found: \([0-9]*\):.*/\1/p' "$glog")
if [ -n "$found" ] && [ "$classes" -gt 0 ] && [ "$found" -ge "$classes" ]; then
	tap "gdb.cmds_found ($found commands, $classes classes)" 1
else
	tap gdb.cmds_found 0 "found '$found' commands, $classes gdb.Command classes"
fi
cmds_failed=0
while read -r _ name verdict why; do
	if [ "$verdict" = ok ]; then tap "gdb.cmd $name" 1
	else tap "gdb.cmd $name" 0 "$why"; cmds_failed=1; fi
done < <(grep '^zpk-cmd ' "$glog")
expect_status gdb.cmds_zptouch_exits_0 0
if [ "$cmds_failed" = 1 ] || [ -z "$found" ] || [ "$BOOT_STATUS" != 0 ]; then
	show_tail "$glog"
fi

# A core file from zpk, opened by the host's gdb with the program: the
# crashing child's backtrace, through the function that called it
# (user/helpers/crasher.c prints the core in base64 on the console).
log=$LOGDIR/gdb-core-console.log core=$LOGDIR/gdb-core.core
boot "$log" 64M loglevel=7 init=/tests/helpers/crasher
expect_in "$log" gdb.core_dumped "crasher: status 0x8b (core dumped)"
sed -n '/^-----BEGIN CORE-----/,/^-----END CORE-----/p' "$log" |
	sed '1d;$d' | tr -d '\r' | base64 -d >"$core" 2>/dev/null
gdb -batch -nx -ex bt build/user/bin/tests/helpers/crasher "$core" \
	>"$LOGDIR/gdb-core.log" 2>&1
if grep -q '^#0  crash_in_leaf (p=.*0x10)' "$LOGDIR/gdb-core.log" &&
   grep -q '^#1 .* caller_of_leaf ()' "$LOGDIR/gdb-core.log" &&
   grep -q '^#2 .* main ()' "$LOGDIR/gdb-core.log"; then
	tap gdb.core_backtrace 1
else
	tap gdb.core_backtrace 0 "gdb's bt of the core lacks crash_in_leaf <- caller_of_leaf <- main"
	show_tail "$LOGDIR/gdb-core.log"
fi
