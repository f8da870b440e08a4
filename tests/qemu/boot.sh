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
# The initrd's module goes back once unpacked (Linux's free_initrd_mem):
# all its whole pages, so at least its size less a page at each end.
freed=$(sed -n 's/.*Freeing initrd memory: \([0-9]*\)K.*/\1/p' "$log")
want=$(( $(stat -c %s "$ZPK_INITRD") / 1024 - 8 ))
if [ -n "$freed" ] && [ "$freed" -ge "$want" ]; then
	tap boot.initrd_freed 1
else
	tap boot.initrd_freed 0 "Freeing initrd memory: ${freed:-no line}K, want >= ${want}K"
fi
echo "# figure: boot from GRUB to power-off: $BOOT_SECONDS s wall (TCG)"
echo "$BOOT_SECONDS" > "$LOGDIR/boot-seconds"
grep -q "KiB  usable" "$log" || show_tail "$log"

# Eight CPUs: the MADT lists them, each answers INIT-SIPI-SIPI.
log=$LOGDIR/boot-smp8.log
BOOT_SMP=8 boot "$log" 128M idle=poweroff loglevel=7
expect_status boot.smp8_poweroff_status 0
expect_in "$log" boot.smp8_madt "ACPI: LAPIC (acpi_id[0x07] lapic_id[0x07] enabled)"
expect_in "$log" boot.smp8_all_up "smp: Brought up 1 node, 8 CPUs"
expect_in "$log" boot.apic_timer_calibrated "counts per tick (calibrated against the PIT)"
grep -q "Brought up 1 node, 8 CPUs" "$log" || show_tail "$log"
