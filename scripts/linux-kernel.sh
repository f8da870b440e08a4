#!/bin/bash
# scripts/linux-kernel.sh — Debian's own Linux kernel for make bench-linux,
# without installing it: apt-get download of the versioned
# linux-image-6.*-amd64 that linux-image-amd64 depends on, unpacked with
# dpkg-deb -x into build/linux/: the bzImage, and the virtio disk's
# modules in build/linux/modules/.  Cached: a second run downloads nothing
# (rm -rf build/linux to fetch again).  Prints the bzImage's path.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build/linux
if [ -f "$dir/vmlinuz" ] && [ -f "$dir/version" ] &&
	[ -f "$dir/modules/order" ]; then
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
# Of the modules, the virtio disk's only (make kselftest's swap disk), in
# the order their dependencies want; linux-init loads them.
rm -rf "$dir/modules"
mkdir -p "$dir/modules"
for m in virtio/virtio_ring virtio/virtio virtio/virtio_pci_modern_dev \
	virtio/virtio_pci_legacy_dev virtio/virtio_pci block/virtio_blk; do
	ko=$(ls "$dir"/root/lib/modules/*/kernel/drivers/$m.ko 2>/dev/null |
		head -1)
	[ -n "$ko" ] || apt_fail "no $m.ko in $pkg"
	cp "$ko" "$dir/modules/"
	echo "${m#*/}.ko" >>"$dir/modules/order"
done
rm -rf "$dir/root/lib" "$dir/deb"
echo "$pkg ${img##*/vmlinuz-}" >"$dir/version"
echo "$dir/vmlinuz"
