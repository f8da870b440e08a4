#!/bin/bash
# tests/qemu/realprog.sh — Debian's own programs on zpk, unmodified and
# started by plain execve (dynamic, through their PT_INTERP), from the
# packages of make rootfs (scripts/zpk-run --pkg), in one boot: each
# command's output is compared with the same command on this machine, or
# with what it must print, and python3's sparse read of the seed article
# measures RSS under the three policies (switched through
# /proc/sys/vm/zero_page). Skipped when Debian's mirror cannot be reached
# (scripts/rootfs.sh's exit 3).
cd "$(dirname "$0")/../.."
. tests/lib.sh

PKGS="python3-minimal libpython3.11-stdlib sqlite3 lua5.4 dash coreutils"
dir=$LOGDIR/realprog
rm -rf "$dir"
mkdir -p "$dir"

# dash: pipes, redirections, a here-document, $(...), arithmetic, a trap.
cat >"$dir/dash.sh" <<'EOF'
trap "echo trapped EXIT" EXIT
x=$(echo hello | tr a-z A-Z)
echo "$x $((6 * 7))" > /tmp/out; cat < /tmp/out
cat <<EOT | wc -l
one
two
EOT
for i in 1 2 3; do printf "%s," "$i"; done; echo
EOF
# coreutils at their Debian paths (busybox has the names too, in /bin).
cat >"$dir/coreutils.sh" <<'EOF'
printf "10\n9\n100\n" | /usr/bin/sort -n | /usr/bin/tr "\n" " "; echo
printf "zpk" | /usr/bin/md5sum
/usr/bin/seq 1000 | /usr/bin/wc -l
EOF
printf '%s\n' "create table t(a integer, b text);" \
	"insert into t values (1, 'zero'), (2, 'page'), (3, 'kernel');" \
	"select group_concat(b, ' ') from t where a > 1;" \
	"select count(*), sum(a) from t;" >"$dir/q.sql"
# python3: json, re, hashlib, subprocess (fork and exec of a dynamic
# program) and threading (json is in libpython3.11-stdlib).
cat >"$dir/t.py" <<'EOF'
import hashlib, json, re, subprocess, threading
print(json.dumps({"policy": ["special", "refcount", "off"], "pages": 65536},
                 sort_keys=True))
print(json.loads('{"zero": [0, 0.5, null, true]}')["zero"])
print(re.sub(r"(\w+) (\w+)", r"\2 \1", "page zero"))
print(hashlib.sha256(b"zpk").hexdigest())
print(subprocess.run(["/bin/dash", "-c", "echo $((6 * 7))"],
                     capture_output=True, text=True).stdout.strip())
sums = [0] * 4
def add(i):
    sums[i] = sum(range(i * 100000, (i + 1) * 100000))
ts = [threading.Thread(target=add, args=(i,)) for i in range(4)]
for t in ts: t.start()
for t in ts: t.join()
print(sum(sums))
EOF
# The seed's sparse reader in Python: bytes(256 MiB) is calloc, so mmap;
# one byte of every page read; VmRSS and RssZero.
cat >"$dir/zp.py" <<'EOF'
b = bytes(256 << 20)
s = sum(b[i] for i in range(0, len(b), 4096))
for line in open("/proc/self/status"):
    if line.startswith(("VmRSS", "RssZero")):
        print(line.split()[0], line.split()[1])
EOF
# All of it on zpk, each output after a line "=== NAME".
cat >"$dir/run.sh" <<'EOF'
echo "=== lua"
/usr/bin/lua5.4 -e 'print(string.format("%d %s", 6 * 7, ("zpk"):upper()))'
echo "=== dash"
/bin/dash /tmp/dash.sh
echo "=== coreutils"
/bin/dash /tmp/coreutils.sh
echo "=== ls"
/bin/ls -l /proc/self/
echo "=== sqlite"
/usr/bin/sqlite3 -init /tmp/q.sql /tmp/t.db .quit
echo "=== python"
/usr/bin/python3 -S /tmp/t.py
for pol in special refcount off; do
	echo "=== zp-$pol"
	echo $pol > /proc/sys/vm/zero_page
	/usr/bin/python3 -S /tmp/zp.py
done
echo "=== end"
EOF

adds=() pkgs=()
for f in run.sh dash.sh coreutils.sh q.sql t.py zp.py; do
	adds+=(--add "$dir/$f:/tmp/$f")
done
for p in $PKGS; do pkgs+=(--pkg "$p"); done
scripts/zpk-run --timeout 300 --mem 512M --smp 2 "${pkgs[@]}" "${adds[@]}" \
	/bin/dash /tmp/run.sh 2>"$dir/zpk-run.err" | tr -d '\r' >"$dir/zpk.out"
if grep -q "cannot get Debian's package" "$dir/zpk-run.err"; then
	tap "realprog: Debian's mirror cannot be reached # SKIP" 1
	exit 0
fi

# part NAME: the output after "=== NAME", up to the next such line.
part() { awk -v n="$1" '/^=== / { on = $2 == n; next } on' "$dir/zpk.out"; }
# same NAME WHAT HOST-OUTPUT: NAME's output is the host's.
same() {
	tap "$2: as on the host" "$([ "$(part "$1")" = "$3" ] && echo 1)" \
		"zpk: $(part "$1" | tr '\n' '|') host: $(echo "$3" | tr '\n' '|')"
}

tap "the commands ran to their end" \
	"$(grep -qx '=== end' "$dir/zpk.out" && echo 1)" \
	"$(tail -n 3 "$dir/zpk.out" "$dir/zpk-run.err" | tr '\n' '|')"
tap "lua5.4: 42 ZPK" "$([ "$(part lua)" = "42 ZPK" ] && echo 1)" \
	"$(part lua | head -n 3 | tr '\n' '|')"
same dash "dash: pipes, redirections, here-document, \$(...), a trap" \
	"$(dash "$dir/dash.sh" 2>&1)"
same coreutils "coreutils: sort -n, md5sum, seq | wc" \
	"$(dash "$dir/coreutils.sh" 2>&1)"
same python "python3: json, re, hashlib, subprocess, threading" \
	"$(python3 -S "$dir/t.py" 2>&1)"
tap "coreutils: ls -l /proc/self/ lists maps and exe" \
	"$(part ls | grep -q ' maps$' && part ls | grep -q ' exe -> ' && echo 1)" \
	"$(part ls | head -n 3 | tr '\n' '|')"
tap "sqlite3: SQL from a file on a /tmp database" \
	"$([ "$(part sqlite | grep -v '^-- Loading' | tr '\n' '|')" = 'page kernel|3|6|' ] && echo 1)" \
	"$(part sqlite | head -n 5 | tr '\n' '|')"
for pol in special refcount off; do
	rss=$(part "zp-$pol" | sed -n 's/^VmRSS: //p')
	zero=$(part "zp-$pol" | sed -n 's/^RssZero: //p')
	case $pol in
	special) ok=$([ "${rss:-999999}" -lt 32768 ] &&
		      [ "${zero:-0}" -ge 260000 ] && echo 1) ;;
	refcount) ok=$([ "${rss:-0}" -ge 262144 ] &&
		       [ "${zero:-0}" -ge 260000 ] && echo 1) ;;
	off) ok=$([ "${rss:-0}" -ge 262144 ] && [ "${zero:-1}" = 0 ] &&
		  echo 1) ;;
	esac
	tap "python3 reads 256 MiB a byte a page under $pol: VmRSS ${rss:-?} kB, RssZero ${zero:-?} kB" \
		"$ok"
done
