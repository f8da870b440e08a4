# tests/gdb/zero.gdb — the walk-through of docs/zero-page.md: zptouch's read
# fault maps the zero page, its write copies it away (tests/qemu/gdb.sh).
# The fault functions are inlined into handle_mm_fault at -O2: stop there
# first (its arguments are kept), then at the inlined step we want.
hbreak handle_mm_fault if address == 0x10000000
continue
zpk-pte 0x10000000
tbreak do_anon_zeromap
continue
bt 4
finish
zpk-pte 0x10000000
zpk-zero
continue
tbreak do_wp_page
continue
bt 4
finish
zpk-pte 0x10000000
zpk-vmas
delete
continue
