#!/bin/bash
# scripts/kselftest-build.sh [--fetch | PROGRAM...] — Linux's mm selftests,
# built static with musl for make kselftest: Debian's linux-source-6.N
# package (apt-get download, not installed), the parts the selftests need
# unpacked into build/kselftest/src/ (cached: rm -rf it to fetch again),
# the uapi headers made there with the tree's own make headers, the patches
# in tests/kselftest/patches/ applied to a copy, and each program of
# tests/kselftest/programs (or those named) built into build/kselftest/bin/.
# --fetch only fetches.  Exit status 3: the package could not be had (the
# mirror is unreachable), as scripts/apt-fetch.sh says.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=$PWD/build/kselftest
SRC=$OUT/src
PKG=${KSELFTEST_SOURCE:-linux-source-6.12}
MUSL_CC=${MUSL_CC:-musl-gcc}
WHO=kselftest
. scripts/apt-fetch.sh

# The tree's paths that the selftests and make headers read.
PARTS="Makefile scripts include/uapi arch/x86 mm/gup_test.h tools/include
tools/testing/selftests/lib.mk tools/testing/selftests/kselftest.h
tools/testing/selftests/kselftest_harness.h tools/testing/selftests/mm"

# fetch — the source tree's parts into $SRC, once.
fetch() {
	local deb tarball ver dir=$OUT/deb
	[ -f "$SRC/.version" ] && [ "$(cut -d' ' -f1 "$SRC/.version")" = "$PKG" ] &&
		return 0
	ver=$(apt_name apt-cache show --no-all-versions "$PKG" |
		sed -n 's/^Version: //p' | head -1)
	[ -n "$ver" ] || apt_fail "no package $PKG (KSELFTEST_SOURCE names another)"
	deb=$(apt_download "$PKG" "$dir")
	tarball=$(dpkg-deb -c "$deb" | grep -o '\./usr/src/linux-source-.*\.tar\.xz')
	[ -n "$tarball" ] ||
		{ echo "$WHO: no source tarball in $deb" >&2; exit 1; }
	echo "$WHO: unpacking the selftests, tools/include and the uapi headers" >&2
	rm -rf "$SRC"
	mkdir -p "$SRC"
	# shellcheck disable=SC2046
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "$tarball" |
		tar -xJ -C "$SRC" --strip-components=1 --wildcards \
			$(for p in $PARTS; do echo "linux-source-*/$p"; done) ||
		{ echo "$WHO: cannot unpack $tarball from $deb" >&2; exit 1; }
	echo "$WHO: make headers (the uapi headers into $SRC/usr/include)" >&2
	make -s -C "$SRC" -j"$(nproc)" headers >&2 ||
		{ echo "$WHO: make headers failed in $SRC" >&2; exit 1; }
	rm -rf "$dir"
	echo "$PKG $ver" >"$SRC/.version"
}

# tree — a copy of the selftests with the patches applied, in $OUT/tree.
tree() {
	local p
	rm -rf "$OUT/tree"
	mkdir -p "$OUT/tree/tools/testing" "$OUT/tree/mm"
	cp -a "$SRC/tools/testing/selftests" "$OUT/tree/tools/testing/"
	cp "$SRC/mm/gup_test.h" "$OUT/tree/mm/"
	for p in tests/kselftest/patches/*.patch; do
		[ -f "$p" ] || continue
		patch -s -p1 -d "$OUT/tree" <"$p" ||
			{ echo "$WHO: $p does not apply" >&2; exit 1; }
	done
	# No liburing for musl: the io_uring cases skip, as the Makefile
	# arranges when check_config.sh finds none.
	echo "// No liburing support found" \
		>"$OUT/tree/tools/testing/selftests/mm/local_config.h"
}

# build NAME — one program, as the selftests' Makefile builds it (every
# program links vm_util.c and thp_settings.c; uffd-* uffd-common.c too).
build() {
	local name=$1 mm=$OUT/tree/tools/testing/selftests/mm extra=
	case $name in uffd-*) extra=uffd-common.c ;; esac
	(cd "$mm" && $MUSL_CC -static -Wall -O2 -U_FORTIFY_SOURCE \
		-I "$OUT/tree" -isystem "$SRC/usr/include" \
		-isystem "$SRC/tools/include/uapi" \
		"$name.c" vm_util.c thp_settings.c $extra -lrt -lpthread -lm \
		-o "$OUT/bin/$name") >"$OUT/bin/$name.log" 2>&1
}

# The programs to build: those named, or every one the list runs.
programs() {
	if [ $# -gt 0 ]; then
		echo "$@"
	else
		awk '!/^#/ && NF && $2 != "-" { print $1 }' tests/kselftest/programs
	fi
}

fetch
[ "${1:-}" = --fetch ] && exit 0
tree
mkdir -p "$OUT/bin"
failed=0
for name in $(programs "$@"); do
	if build "$name"; then
		rm -f "$OUT/bin/$name.log"
	else
		echo "$WHO: $name does not build; see $OUT/bin/$name.log" >&2
		failed=1
	fi
done
exit $failed
