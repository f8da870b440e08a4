#!/bin/bash
# scripts/bench-profile.sh KERNEL PHASE [N] — where the instructions of one
# zpbench phase go: boots KERNEL (special|refcount|off|linux) running
# "zpbench --only PHASE --repeat 20 N" (PHASE vmas.N: the vmas phase at N
# VMAs only), turns on QEMU's "-d in_asm,exec,nochain" log
# through the monitor when zpbench says the timed part begins, for
# PROFILE_S (1) seconds of host time, and
# prints instructions per kernel function (scripts/bench-profile.py).
# Linux boots with nokaslr; its symbols come from /proc/kallsyms of a first
# boot (linux-init --kallsyms), cached in build/bench/linux-kallsyms.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: $0 special|refcount|off|linux PHASE [N]" >&2; exit 2; }
k=$1 phase=$2 n=${3:-262144}
d=build/bench/profile
mkdir -p "$d"
sock=$d/mon.sock log=$d/$k-$phase.log
rm -f "$sock" "$log"
mon() {	# mon CMD|sleep:S ... — to the QEMU monitor on $sock
	python3 - "$sock" "$@" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
for _ in range(100):
    try:
        s.connect(sys.argv[1]); break
    except OSError:
        time.sleep(0.05)
for c in sys.argv[2:]:
    if c.startswith("sleep:"):
        time.sleep(float(c[6:]))
        continue
    try:
        s.sendall((c + "\n").encode()); time.sleep(0.05)
    except OSError:	# QEMU has gone: the phase ended first
        break
PY
}
boot() {	# boot ARGS — zpbench ARGS on $k, console on stdout
	# -icount: virtual time follows instructions, so the slow logging
	# does not turn the window into timer interrupts.
	local extra="-icount shift=0,sleep=off -monitor unix:$sock,server,nowait -D $log"
	if [ "$k" = linux ]; then
		QEMU_EXTRA=$extra scripts/qemu.sh --linux --mem 2G --timeout 300 \
			--initrd build/bench/linux-initramfs.cpio \
			--append "console=ttyS0 quiet nokaslr panic=-1 -- $*" "$vmlinuz"
	else
		QEMU_EXTRA=$extra scripts/qemu.sh --mem 2G --timeout 300 \
			--initrd build/user/initrd.cpio \
			--append "init=/bin/zpbench zero_page=$k loglevel=4 -- $*" \
			build/zpk.elf
	fi 2>&1
}
if [ "$k" = linux ]; then
	vmlinuz=$(scripts/bench.sh --linux-setup | tail -1)
	syms=build/bench/linux-kallsyms.txt
	[ -s "$syms" ] || boot --kallsyms | tr -d '\r' | grep -E '^ffffffff[0-9a-f]+ [tTwW] ' >"$syms"
	entry=exc_page_fault
else
	syms=$d/zpk.syms
	"${NM:-${CROSS_COMPILE:-}nm}" -n build/zpk.elf >"$syms"
	entry=do_page_fault
fi
case $phase in
vmas.*) only="--only vmas --vmas ${phase#vmas.} --raise-max-map-count" ;;
*) only="--only $phase" ;;
esac
boot $only --sparse 1 --repeat "${PROFILE_REPEAT:-20}" "$n" | while IFS= read -r l; do
	case ${l%$'\r'} in *zpbench.phase=$phase)
		[ -z "${started:-}" ] || continue
		started=1
		mon "log in_asm,exec,nochain" sleep:${PROFILE_S:-1} "log none" & ;;
	esac
done || true	# zpk's QEMU exits 1 on success
wait || true
python3 scripts/bench-profile.py "$log" "$syms" 30 "$entry"
