#!/bin/bash
# scripts/c2c.sh — make c2c: cache-line sharing per fault, measured by the
# c2c plugin (build/c2c.so) around zpbench --c2c on -smp 8, one TCG
# thread. zpk runs under zero_page=special, refcount and off with
# -icount shift=0; Debian's Linux 6.1 without it (its secondary CPUs do
# not come up under -icount in QEMU 7.2: docs/c2c.md); each C2C_RUNS
# times (default 3). Writes OUT/KERNEL.RUN.{log,txt}, OUT/report.md
# and OUT/c2c.png (OUT: C2C_OUT, default build/c2c). docs/c2c.md.
#   C2C_KERNELS="special refcount off linux" C2C_T=1,2,4,8
#   C2C_PAGES=256 C2C_ROUNDS=4 C2C_TIMEOUT=1800
# C2C_HUGE=1 (make c2c-huge) is the sequel: zpbench --huge, a read fault
# per fresh 2 MiB huge page (C2C_PAGES default 16), under zpk's
# huge_zero_page=refcount, per-mm and persistent (kernels hzp-POLICY) and
# Linux 6.1 with THP always (linux-thp); OUT default build/c2c-huge.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${C2C_HUGE:-0}" = 1 ]; then
	OUT=${C2C_OUT:-build/c2c-huge}
	KERNELS=${C2C_KERNELS:-hzp-refcount hzp-per-mm hzp-persistent linux-thp}
	PAGES=${C2C_PAGES:-16}
	HUGE=--huge
else
	OUT=${C2C_OUT:-build/c2c}
	KERNELS=${C2C_KERNELS:-special refcount off linux}
	PAGES=${C2C_PAGES:-256}
	HUGE=
fi
RUNS=${C2C_RUNS:-3}
T=${C2C_T:-1,2,4,8}
ARGS="--c2c $HUGE --procs $T --threads $T --forks $T --smp-pages $PAGES --smp-rounds ${C2C_ROUNDS:-4}"
TIMEOUT=${C2C_TIMEOUT:-1800}
mkdir -p "$OUT"
rm -f "$OUT"/*.[0-9]*.txt "$OUT"/*.[0-9]*.log

# One boot under the plugin: $1 kernel, $2 run.
boot() {
	local base=$OUT/$1.$2
	local icount="-icount shift=0,sleep=off"
	local params="zero_page=$1" thp=
	case $1 in
	linux*)	icount= ;;
	hzp-*)	params="huge_zero_page=${1#hzp-}" ;;
	esac
	[ "$1" = linux-thp ] && thp=transparent_hugepage=always
	export QEMU_ACCEL=tcg,thread=single
	export QEMU_EXTRA="$icount -plugin build/c2c.so,out=$base.txt,top=${C2C_TOP:-20}"
	case $1 in
	linux*)
		scripts/qemu.sh --linux --mem 512M --smp 8 --timeout "$TIMEOUT" \
			--initrd build/bench/linux-initramfs.cpio \
			--append "console=ttyS0 quiet panic=-1 nokaslr $thp -- $ARGS" \
			build/linux/vmlinuz ;;
	*)
		scripts/qemu.sh --mem 256M --smp 8 --timeout "$TIMEOUT" \
			--initrd build/user/initrd.cpio \
			--append "init=/bin/zpbench $params -- $ARGS" \
			build/zpk.elf ;;
	esac >"$base.log" 2>&1 || true
	if ! grep -q '^c2c: windows' "$base.txt" 2>/dev/null; then
		echo "c2c: $1 run $2 did not finish; see $base.log" >&2
	fi
}

# Linux's symbols, from its own /proc/kallsyms (linux-init --kallsyms):
# nokaslr makes them the same in every boot.
linux_symbols() {
	[ -s "$OUT/linux-kallsyms.txt" ] && return
	scripts/qemu.sh --linux --mem 512M --timeout 300 \
		--initrd build/bench/linux-initramfs.cpio \
		--append "console=ttyS0 quiet panic=-1 nokaslr -- --kallsyms" \
		build/linux/vmlinuz 2>&1 | tr -d '\r' |
		grep -E '^[0-9a-f]{16} [a-zA-Z] ' >"$OUT/linux-kallsyms.txt" || true
}

case " $KERNELS " in *" linux"*)
	scripts/bench.sh --linux-setup >/dev/null
	linux_symbols ;;
esac
# Under -icount the figures do not depend on the host's load: two boots
# at a time, one per host core (C2C_JOBS).
for r in $(seq 1 "$RUNS"); do
	for k in $KERNELS; do
		while [ "$(jobs -rp | wc -l)" -ge "${C2C_JOBS:-2}" ]; do
			wait -n || true
		done
		echo "c2c: $k run $r of $RUNS" >&2
		boot "$k" "$r" &
	done
done
wait
python3 scripts/c2c-report.py --summary "$OUT" build/zpk.elf "$OUT/c2c.png" \
	>"$OUT/report.md"
echo "c2c: $OUT/report.md, $OUT/c2c.png" >&2
