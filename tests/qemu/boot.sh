#!/bin/bash
# tests/qemu/boot.sh — a plain boot: banner, command line, memory map, params.
# Also reports the boot-to-poweroff wall time (a figure, not a check).
. tests/lib.sh
log=$LOGDIR/boot.log
boot "$log" 128M idle=poweroff loglevel=7 no_such_param=1
expect_status boot.poweroff_status 0
expect_in "$log" boot.banner "zpk 0.1, the zero-page kernel"
expect_in "$log" boot.cmdline "Command line: idle=poweroff loglevel=7 no_such_param=1"
expect_in "$log" boot.memory_map_usable "KiB  usable"
expect_in "$log" boot.memory_total "KiB usable RAM"
expect_in "$log" boot.tsc_calibrated "MHz (calibrated against the PIT)"
expect_in "$log" boot.unknown_param 'unknown kernel parameter "no_such_param=1"'
echo "# figure: boot from GRUB to power-off: $BOOT_SECONDS s wall (TCG)"
echo "$BOOT_SECONDS" > "$LOGDIR/boot-seconds"
grep -q "KiB  usable" "$log" || show_tail "$log"
