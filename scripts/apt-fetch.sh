# scripts/apt-fetch.sh — sourced by the scripts that fetch a Debian package
# without installing it (linux-kernel.sh, kselftest-build.sh).  Set WHO (the
# messages' prefix) first.

# apt_fail MSG — say why, and that the mirror may be unreachable; exit 3
# (.ci/run tells that from a failing build or test).
apt_fail() {
	echo "$WHO: $*" >&2
	echo "$WHO: cannot get Debian's package; the package mirror may be" \
	     "unavailable (check /etc/apt/sources.list and the network)" >&2
	exit 3
}

# apt_name CMD... — CMD's output (a package name from apt-cache), after an
# apt-get update if the lists do not have it yet; empty if none.
apt_name() {
	local name
	command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
		apt_fail "apt-get and dpkg-deb are needed (a Debian host)"
	name=$("$@" 2>/dev/null || true)
	if [ -z "$name" ]; then
		echo "$WHO: apt-get update (no such package in the lists yet)" >&2
		apt-get update -qq >&2 || apt_fail "apt-get update failed"
		name=$("$@" 2>/dev/null || true)
	fi
	echo "$name"
}

# apt_download PKG DIR — PKG's .deb into DIR (emptied of .debs first),
# retried once after an apt-get update; prints the .deb's path.
apt_download() {
	local pkg=$1 dir=$2
	mkdir -p "$dir"
	rm -f "$dir"/*.deb
	echo "$WHO: downloading $pkg (once; cached in build/)" >&2
	if ! (cd "$dir" && apt-get download -q "$pkg" >&2); then
		echo "$WHO: download failed; apt-get update and retry" >&2
		apt-get update -qq >&2 || apt_fail "apt-get update failed"
		(cd "$dir" && apt-get download -q "$pkg" >&2) ||
			apt_fail "apt-get download $pkg failed"
	fi
	ls "$dir"/*.deb
}
