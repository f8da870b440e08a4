#!/bin/sh
# scripts/deps.sh — checks for every tool zpk's build and tests use.
# As root it installs what is missing with apt-get; otherwise it says how.
set -eu
# command:package pairs; a path means "this file must exist".
need="qemu-system-x86_64:qemu-system-x86 grub-mkrescue:grub-common
/usr/lib/grub/i386-pc/moddep.lst:grub-pc-bin xorriso:xorriso mformat:mtools
nasm:nasm musl-gcc:musl-tools cpio:cpio gdb:gdb gcc:gcc clang:clang make:make
/usr/include/cmocka.h:libcmocka-dev gnuplot:gnuplot-nox python3:python3
patch:patch xz:xz-utils /bin/busybox:busybox-static"
missing=
for pair in $need; do
	what=${pair%%:*} pkg=${pair#*:}
	case $what in
	/*) [ -e "$what" ] && continue ;;
	*) command -v "$what" >/dev/null 2>&1 && continue ;;
	esac
	missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing
else
	echo "deps: missing packages. Install them with:"
	echo "  sudo apt-get install$missing"
	exit 1
fi
