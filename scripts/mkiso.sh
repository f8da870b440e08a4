#!/bin/sh
# scripts/mkiso.sh ELF ISO "CMDLINE" [INITRD] — a GRUB (multiboot2) boot ISO.
# GRUB talks on the serial line too, and boots at once (timeout 0).
set -eu
elf=$1 iso=$2 cmdline=${3:-} initrd=${4:-}
dir=$(mktemp -d "${TMPDIR:-/tmp}/zpk-iso.XXXXXX")
log=$(mktemp "${TMPDIR:-/tmp}/zpk-iso-log.XXXXXX")
trap 'rm -rf "$dir" "$log"' EXIT
mkdir -p "$dir/boot/grub"
cp "$elf" "$dir/boot/zpk.elf"
{
	echo 'serial --unit=0 --speed=115200'
	echo 'terminal_input serial console'
	echo 'terminal_output serial console'
	echo 'set timeout=0'
	echo 'menuentry "zpk" {'
	echo "	multiboot2 /boot/zpk.elf $cmdline"
	if [ -n "$initrd" ]; then
		cp "$initrd" "$dir/boot/initrd.cpio"
		echo '	module2 /boot/initrd.cpio initrd'
	fi
	echo '	boot'
	echo '}'
} > "$dir/boot/grub/grub.cfg"
# Only the BIOS (i386-pc) platform: that is what QEMU boots by default.
${GRUB_MKRESCUE:-grub-mkrescue} -d /usr/lib/grub/i386-pc -o "$iso" "$dir" \
	>"$log" 2>&1 || { cat "$log" >&2; exit 1; }
