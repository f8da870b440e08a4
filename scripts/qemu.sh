#!/bin/bash
# scripts/qemu.sh [options] ZPK_ELF — boots zpk from a GRUB ISO in QEMU.
# Exits with QEMU's status: (value << 1) | 1 for kernel_poweroff(value).
set -euo pipefail
usage() {
	cat <<USAGE
usage: scripts/qemu.sh [--mem SIZE] [--append PARAMS] [--initrd FILE]
                       [--timeout SECONDS] [--interactive] [--gdb]
                       [--linux] ZPK_ELF|BZIMAGE
  --mem SIZE      guest RAM, e.g. 32M, 6G (default 128M)
  --append P      kernel command line
  --initrd FILE   a cpio archive loaded as a multiboot2 module
  --timeout S     kill QEMU after S seconds (exit 124)
  --interactive   serial console on this terminal (Ctrl-A X quits)
  --gdb           start halted with a gdb stub on tcp::\${GDB_PORT:-1234}
  --linux         boot a Linux bzImage with -kernel/-initrd/-append instead
                  of zpk from a GRUB ISO; every other argument is the same
Environment: QEMU (qemu-system-x86_64), QEMU_ACCEL (tcg), QEMU_CPU (max),
             QEMU_EXTRA (more QEMU arguments), QEMU_T0_FILE (write the
             time QEMU starts, \$EPOCHREALTIME, into this file),
             TIMEOUT_SCALE (multiplies --timeout: on a loaded machine,
             e.g. TIMEOUT_SCALE=4 make test)
USAGE
	exit 2
}
mem=128M append= initrd= timeout_s= interactive= gdb= linux=
while [ $# -gt 1 ]; do
	case $1 in
	--mem) mem=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--initrd) initrd=$2; shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--interactive) interactive=1; shift ;;
	--gdb) gdb=1; shift ;;
	--linux) linux=1; shift ;;
	*) usage ;;
	esac
done
[ $# -eq 1 ] || usage
elf=$1
here=$(cd "$(dirname "$0")" && pwd)

common=(-accel "${QEMU_ACCEL:-tcg}" -cpu "${QEMU_CPU:-max}" -m "$mem"
	-no-reboot -nic none -device isa-debug-exit,iobase=0xf4,iosize=0x04)
if [ -n "$linux" ]; then
	args=("${common[@]}" -kernel "$elf" -append "$append")
	[ -z "$initrd" ] || args+=(-initrd "$initrd")
else
	# One ISO per (kernel, command line, initrd): GRUB's config holds the line.
	key=$( { cat "$elf"; echo "$append"; [ -z "$initrd" ] || cat "$initrd"; } |
		md5sum | cut -c1-12)
	isodir=$(dirname "$elf")/iso
	iso=$isodir/zpk-$key.iso
	if [ ! -f "$iso" ]; then
		mkdir -p "$isodir"
		"$here/mkiso.sh" "$elf" "$iso.tmp.$$" "$append" "$initrd"
		mv "$iso.tmp.$$" "$iso"	# parallel boots: each its own tmp
	fi
	args=("${common[@]}" -boot d -cdrom "$iso")
fi
if [ -n "$interactive" ]; then
	args+=(-nographic)
else
	args+=(-display none -serial stdio -monitor none)
fi
[ -z "$gdb" ] || args+=(-S -gdb "tcp::${GDB_PORT:-1234}")
# shellcheck disable=SC2206
args+=(${QEMU_EXTRA:-})

[ -z "${QEMU_T0_FILE:-}" ] || echo "$EPOCHREALTIME" >"$QEMU_T0_FILE"
if [ -n "$timeout_s" ]; then
	timeout_s=$((timeout_s * ${TIMEOUT_SCALE:-1}))
	exec timeout --foreground -k 2 "$timeout_s" "${QEMU:-qemu-system-x86_64}" "${args[@]}" </dev/null
else
	exec "${QEMU:-qemu-system-x86_64}" "${args[@]}"
fi
