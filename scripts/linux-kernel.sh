#!/bin/bash
# scripts/linux-kernel.sh — Debian's own Linux kernel for make bench-linux,
# without installing it: apt-get download of the versioned
# linux-image-6.*-amd64 that linux-image-amd64 depends on, unpacked with
# dpkg-deb -x into build/linux/.  Cached: a second run downloads nothing
# (rm -rf build/linux to fetch again).  Prints the bzImage's path.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build/linux
if [ -f "$dir/vmlinuz" ] && [ -f "$dir/version" ]; then
	echo "$dir/vmlinuz"
	exit 0
fi
WHO=${WHO:-bench-linux}	# make kselftest sets its own
. scripts/apt-fetch.sh
pkg_name() {
	apt-cache depends linux-image-amd64 |
		sed -n 's/^ *Depends: \(linux-image-6[^ ]*-amd64\)$/\1/p' | head -1
}
pkg=$(apt_name pkg_name)
[ -n "$pkg" ] || apt_fail "no linux-image-6.*-amd64 found as linux-image-amd64's dependency"
deb=$(apt_download "$pkg" "$dir/deb")
rm -rf "$dir/root"
dpkg-deb -x "$deb" "$dir/root" || apt_fail "dpkg-deb -x failed"
img=$(ls "$dir"/root/boot/vmlinuz-* 2>/dev/null | head -1)
[ -n "$img" ] || apt_fail "no /boot/vmlinuz-* in $pkg"
cp "$img" "$dir/vmlinuz"
# Only the kernel image is needed: no modules (the initramfs has no disk).
rm -rf "$dir/root/lib" "$dir/deb"
echo "$pkg ${img##*/vmlinuz-}" >"$dir/version"
echo "$dir/vmlinuz"
