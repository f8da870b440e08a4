# tests/gdb/zero.gdb — the walk-through of docs/zero-page.md: zptouch's read
# fault maps the zero page, its write copies it away. tests/qemu/gdb.sh runs
# it against the -Og build; scripts/gen-walkthrough.py turns its log into
# the doc. The breakpoints test the address: musl's start-up faults first.
# Breakpoint 1 is disabled once it has stopped, at the read fault and at
# the write's: a hardware breakpoint can fire again at the same fault
# (QEMU re-executes the instruction after an interrupt), which put a
# second stop in the log.
# tests/qemu/gdb.sh checks the backtraces: every frame from do_page_fault
# down, with its arguments, none <optimized out>. In wp_page_copy only
# zero is printed: at -O0 its other locals hold stack garbage until set,
# which made the log (and the doc) differ from run to run.
set trace-commands on
hbreak handle_pte_fault if address == 0x10000000
continue
zpk-pte 0x10000000
disable 1
tbreak do_anon_zeromap if address == 0x10000000
continue
bt
tbreak zero_pte_add
continue
up
info locals
finish
zpk-pte 0x10000000
zpk-zero
tbreak __walk_pte if addr == 0x10000000
continue
bt 5
enable 1
continue
disable 1
tbreak wp_page_copy if address == 0x10000000
continue
bt
tbreak alloc_pages
continue
up
info args
info locals ^zero$
tbreak update_hiwater_rss
continue
bt 4
up 3
finish
zpk-pte 0x10000000
zpk-vmas
delete
zpk-memmap --summary
continue
