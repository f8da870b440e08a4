#!/bin/bash
# scripts/rootfs.sh — a root file system of Debian's own packages for zpk
# (make rootfs; README's "Running Debian programs"):
#
#   scripts/rootfs.sh [--out DIR] PKG...
#
# The packages and their Depends and Pre-Depends, all of them, are fetched
# with apt-get download (nothing is installed on this machine) into
# build/rootfs/debs, which keeps them: a second run downloads nothing.
# Each is unpacked with dpkg-deb -x into DIR/root (default build/rootfs),
# without docs, man pages and translations; then zpk's own initrd tree
# (build/user/root: /sbin/init, /bin/sh, zpk's tools and tests, busybox's
# applets) is laid over it where Debian has no file of that name, and the
# whole is packed into DIR/initrd.cpio. Maintainer scripts do not run:
# what they would make (alternatives, /bin/sh -> dash) is not there.
# Exit 3 when Debian's mirror cannot be reached, as apt-fetch.sh's.
set -euo pipefail
cd "$(dirname "$0")/.."
WHO=rootfs
. scripts/apt-fetch.sh

out=build/rootfs
if [ "${1:-}" = --out ]; then
	out=$2
	shift 2
fi
[ $# -gt 0 ] || { echo "usage: scripts/rootfs.sh [--out DIR] PKG..." >&2; exit 2; }
[ -d build/user/root ] || { echo "$WHO: build/user/root is missing: make initrd first" >&2; exit 2; }
cache=build/rootfs/debs
mkdir -p "$cache"

# The closure: every package the named ones need to run (Depends and
# Pre-Depends, recursively), by name; virtual packages ("<name>") are
# provided by a real one apt-cache also lists.
closure() {
	apt-cache depends --recurse --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances "$@" |
		grep -E '^[a-z0-9][a-z0-9.+-]*$' | sort -u
}
first=$(apt_name apt-cache show --no-all-versions "$@" >/dev/null && echo ok)
[ -n "$first" ] || apt_fail "no such package among: $*"
pkgs=$(closure "$@")
[ -n "$pkgs" ] || apt_fail "apt-cache found no packages for: $*"

# Downloaded once: a package whose .deb is in the cache is not fetched
# again.
need=()
for p in $pkgs; do
	compgen -G "$cache/${p}_*.deb" >/dev/null || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	echo "$WHO: downloading ${#need[@]} packages into $cache" >&2
	(cd "$cache" && apt-get download -q -o APT::Sandbox::User=root \
		"${need[@]}" >&2) ||
		apt_fail "apt-get download failed for: ${need[*]}"
fi

# Made already from the same packages and the same zpk initrd: kept.
stamp="$(echo $pkgs) $(stat -c %Y build/user/initrd.cpio 2>/dev/null)"
if [ -f "$out/initrd.cpio" ] && [ "$(cat "$out/stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "$WHO: $out/initrd.cpio is up to date" >&2
	exit 0
fi
root=$out/root
rm -rf "$root" "$out/stamp"
mkdir -p "$root"
for p in $pkgs; do
	deb=$(ls "$cache/${p}"_*.deb | tail -1)
	dpkg-deb -x "$deb" "$root"
done
rm -rf "$root"/usr/share/{doc,man,info,locale,lintian}
# zpk's tree where Debian has nothing of that name.
cp -a --no-clobber build/user/root/. "$root"/
(cd "$root" && find . -mindepth 1 | sed 's|^\./||' | LC_ALL=C sort |
	cpio -o -H newc -R 0:0 --quiet) >"$out/initrd.cpio"
echo "$stamp" >"$out/stamp"
echo "$WHO: $(echo "$pkgs" | wc -w) packages, $(du -sm "$root" | cut -f1) MiB: $out/initrd.cpio" >&2
