#!/bin/bash
# scripts/qemu.sh [options] ZPK_ELF — boots zpk from a GRUB ISO in QEMU.
# Exits with QEMU's status: (value << 1) | 1 for kernel_poweroff(value);
# with --zpk-status, with value itself.
set -euo pipefail
usage() {
	cat <<USAGE
usage: scripts/qemu.sh [--mem SIZE] [--smp N] [--append PARAMS]
                       [--initrd FILE] [--timeout SECONDS] [--interactive]
                       [--gdb] [--linux] [--zpk-status] [--disk IMG]
                       ZPK_ELF|BZIMAGE
  --mem SIZE      guest RAM, e.g. 32M, 6G (default 128M)
  --smp N         CPUs, 1..8 (default 1); with more than one, TCG runs
                  each on a host thread (-accel tcg,thread=multi) unless
                  QEMU_ACCEL says otherwise
  --append P      kernel command line
  --initrd FILE   a cpio archive loaded as a multiboot2 module
  --timeout S     kill QEMU after S seconds (exit 124)
  --interactive   serial console on this terminal (Ctrl-A X quits)
  --gdb           start halted with a gdb stub on tcp::\${GDB_PORT:-1234}
  --linux         boot a Linux bzImage with -kernel/-initrd/-append instead
                  of zpk from a GRUB ISO; every other argument is the same
  --disk IMG      a raw disk image as a virtio disk (-drive
                  file=IMG,if=virtio,format=raw): zpk's /dev/vda
  --zpk-status    exit with kernel_poweroff's value instead of QEMU's
                  status: 0 when zpk powered off normally (init exited 0),
                  init's status, 127 for a panic; 124 on timeout; 125 if
                  QEMU stopped before zpk powered off (Ctrl-A X, gdb's
                  kill, a QEMU error)
Environment: QEMU (qemu-system-x86_64), QEMU_ACCEL (tcg; for --smp > 1
             tcg,thread=multi), QEMU_CPU (max),
             QEMU_EXTRA (more QEMU arguments), QEMU_T0_FILE (write the
             time QEMU starts, \$EPOCHREALTIME, into this file),
             TIMEOUT_SCALE (multiplies --timeout: on a loaded machine,
             e.g. TIMEOUT_SCALE=4 make test)
USAGE
	exit "${1:-2}"
}
mem=128M smp=1 append= initrd= timeout_s= interactive= gdb= linux=
zpk_status= disk=
case ${1:-} in -h|--help) usage 0 ;; esac
while [ $# -gt 1 ]; do
	case $1 in
	-h|--help) usage 0 ;;
	--mem) mem=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--initrd) initrd=$2; shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--interactive) interactive=1; shift ;;
	--gdb) gdb=1; shift ;;
	--linux) linux=1; shift ;;
	--zpk-status) zpk_status=1; shift ;;
	--disk) disk=$2; shift 2 ;;
	*) usage ;;
	esac
done
[ $# -eq 1 ] && [ "${1#-}" = "$1" ] || usage
elf=$1
here=$(cd "$(dirname "$0")" && pwd)

case $smp in [1-8]) ;; *) echo "qemu.sh: --smp takes 1..8" >&2; exit 2 ;; esac
# Several vCPUs run truly in parallel only with multi-threaded TCG.
accel=${QEMU_ACCEL:-tcg}
[ "$smp" -gt 1 ] && [ "$accel" = tcg ] && accel=tcg,thread=multi
common=(-accel "$accel" -cpu "${QEMU_CPU:-max}" -m "$mem" -smp "$smp"
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
[ -z "$disk" ] || args+=(-drive "file=$disk,if=virtio,format=raw")
# shellcheck disable=SC2206
args+=(${QEMU_EXTRA:-})

qemu=("${QEMU:-qemu-system-x86_64}" "${args[@]}")
if [ -n "$timeout_s" ]; then
	timeout_s=$((timeout_s * ${TIMEOUT_SCALE:-1}))
	qemu=(timeout --foreground -k 2 "$timeout_s" "${qemu[@]}")
	exec </dev/null
fi
[ -z "${QEMU_T0_FILE:-}" ] || echo "$EPOCHREALTIME" >"$QEMU_T0_FILE"
[ -n "$zpk_status" ] || exec "${qemu[@]}"

# --zpk-status: QEMU's status back to kernel_poweroff's value, as
# tests/lib.sh's qemu_status_to_zpk. QEMU's own start-up errors exit 1
# too, which reads as 0: their message is on the terminal.
rc=0
"${qemu[@]}" || rc=$?
if [ $((rc & 1)) -eq 1 ]; then
	value=$((rc >> 1))
	case $value in
	0) ;;
	127) echo "qemu.sh: zpk panicked (kernel_poweroff 127)" >&2 ;;
	*) echo "qemu.sh: zpk powered off with status $value" >&2 ;;
	esac
	exit "$value"
elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	echo "qemu.sh: timed out after $timeout_s s" >&2
	exit 124
fi
echo "qemu.sh: QEMU stopped (status $rc) before zpk powered off" >&2
exit 125
