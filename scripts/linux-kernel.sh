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
fail() {
	echo "bench-linux: $*" >&2
	echo "bench-linux: cannot get Debian's Linux kernel; the package mirror" \
	     "may be unavailable (check /etc/apt/sources.list and the network)" >&2
	exit 1
}
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
	fail "apt-get and dpkg-deb are needed (a Debian host)"
pkg_name() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-6[^ ]*-amd64\)$/\1/p' | head -1
}
pkg=$(pkg_name || true)
if [ -z "$pkg" ]; then
	echo "bench-linux: apt-get update (linux-image-amd64 not in the package lists)" >&2
	apt-get update -qq >&2 || fail "apt-get update failed"
	pkg=$(pkg_name || true)
fi
[ -n "$pkg" ] || fail "no linux-image-6.*-amd64 found as linux-image-amd64's dependency"
mkdir -p "$dir/deb"
rm -f "$dir"/deb/*.deb
echo "bench-linux: downloading $pkg (once; cached in $dir)" >&2
if ! (cd "$dir/deb" && apt-get download -q "$pkg" >&2); then
	echo "bench-linux: download failed; apt-get update and retry" >&2
	apt-get update -qq >&2 || fail "apt-get update failed"
	(cd "$dir/deb" && apt-get download -q "$pkg" >&2) ||
		fail "apt-get download $pkg failed"
fi
rm -rf "$dir/root"
dpkg-deb -x "$dir"/deb/*.deb "$dir/root" || fail "dpkg-deb -x failed"
img=$(ls "$dir"/root/boot/vmlinuz-* 2>/dev/null | head -1)
[ -n "$img" ] || fail "no /boot/vmlinuz-* in $pkg"
cp "$img" "$dir/vmlinuz"
# Only the kernel image is needed: no modules (the initramfs has no disk).
rm -rf "$dir/root/lib" "$dir/deb"
echo "$pkg ${img##*/vmlinuz-}" >"$dir/version"
echo "$dir/vmlinuz"
