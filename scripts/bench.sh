#!/bin/bash
# scripts/bench.sh — make bench: the zero-page fault benchmark (zpbench) on
# zpk under zero_page=special, refcount and off, and on Debian's Linux, each
# booted twice with the same QEMU command line: free-running TCG (TSC =
# host time, noisy) and -icount shift=0,sleep=off (TSC = guest instruction
# count: exact, repeatable).  Then zpk's own page-allocator figures.  Then
# the 2009 story: each kernel booted on BENCH_SMP_CPUS (8) CPUs (MTTCG, no
# -icount) runs zpbench --threads and --procs with 1, 2, 4 and 8 workers.
# Linux boots with transparent_hugepage=always for the thp phase (the
# others ask for 4 KiB pages with MADV_NOHUGEPAGE).  Then the swap phase:
# each kernel booted free-running with BENCH_SWAP_MEM (256M) of RAM and a
# fresh swap disk of BENCH_SWAP_DISK (512M), which zpbench swaps on
# (Linux loads Debian's virtio modules for it first).
# Writes build/bench/{report.md,results.csv,faults.png,scale.png,vmas.png,
# smp.png}.
# make bench-linux runs only the Linux column.  Nothing passes or fails.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=build/bench
MEM=${BENCH_MEM:-2G}
PAGES=${BENCH_PAGES:-16384}
SPARSE=${BENCH_SPARSE_MIB:-256}
SCALE=${BENCH_SCALE:-1024,4096,16384,65536,262144}
ICOUNT="-icount shift=0,sleep=off"
TIMEOUT=${BENCH_TIMEOUT:-600}
KERNELS=${BENCH_KERNELS:-special refcount off linux}
SMP_CPUS=${BENCH_SMP_CPUS:-8}
SMP_T=${BENCH_SMP_T:-1,2,4,8}
PHASES=${BENCH_PHASES:-}	# zpbench --only: the phases to run (all)
SWAP_MEM=${BENCH_SWAP_MEM:-256M}
SWAP_DISK=${BENCH_SWAP_DISK:-512M}
elf=build/zpk.elf
mkdir -p "$OUT/runs"

# Linux: Debian's kernel (fetched once) and an initramfs whose /init is
# user/bench/linux-init.c, with zpbench as /bin/zpbench; the swap boots'
# has the virtio modules its disk needs too (the others load none, so
# that their kernel is the same as before the swap phase).
linux_setup() {
	vmlinuz=$(scripts/linux-kernel.sh) || exit 1
	local root=$OUT/initramfs
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev"
	cp build/user/bin/linux-init "$root/init"
	cp build/user/bin/zpbench "$root/bin/zpbench"
	cp build/user/bin/cat "$root/bin/cat"	# linux-init --kallsyms
	cpio_of "$root" >"$OUT/linux-initramfs.cpio"
	mkdir -p "$root/lib/modules"
	cp build/linux/modules/* "$root/lib/modules/"
	cpio_of "$root" >"$OUT/linux-swap-initramfs.cpio"
}

cpio_of() {
	(cd "$1" && find . -mindepth 1 | sed 's|^\./||' | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --quiet)
}

# Each console line with the time it arrived, before any buffering.
stamp() {
	local l
	while IFS= read -r l; do
		printf '%s %s\n' "$EPOCHREALTIME" "${l%$'\r'}"
	done
}

# run KERNEL MODE — one boot; figures into $OUT/runs/KERNEL-MODE.txt.
# MODE smp: on $SMP_CPUS CPUs, the --threads and --procs runs only;
# swap: free-running, the swap phase alone with a swap disk.
run() {
	local k=$1 mode=$2 base=$OUT/runs/$1-$2 extra="" args t0 t1 cpus=1
	local mem=$MEM disk=() initramfs=$OUT/linux-initramfs.cpio
	args="$PAGES --sparse $SPARSE --raise-max-map-count${PHASES:+ --only $PHASES}"
	if [ "$mode" = icount ]; then
		extra=$ICOUNT
		args="$args --scale $SCALE"
	elif [ "$mode" = smp ]; then
		cpus=$SMP_CPUS
		args="--threads $SMP_T --procs $SMP_T"
	elif [ "$mode" = swap ]; then
		mem=$SWAP_MEM
		scripts/mkswap-img.sh "$SWAP_DISK" "$base.img"
		disk=(--disk "$base.img")
		initramfs=$OUT/linux-swap-initramfs.cpio
		args="--only swap --swapon /dev/vda"
	fi
	if [ "$k" = linux ]; then
		QEMU_EXTRA=$extra QEMU_T0_FILE=$base.t0 scripts/qemu.sh --linux \
			--mem "$mem" --smp "$cpus" --timeout "$TIMEOUT" \
			--initrd "$initramfs" "${disk[@]}" \
			--append "console=ttyS0 quiet panic=-1 transparent_hugepage=always -- $args" \
			"$vmlinuz"
	else
		QEMU_EXTRA=$extra QEMU_T0_FILE=$base.t0 scripts/qemu.sh \
			--mem "$mem" --smp "$cpus" --timeout "$TIMEOUT" \
			--initrd build/user/initrd.cpio "${disk[@]}" \
			--append "init=/bin/zpbench zero_page=$k loglevel=4 -- $args" \
			"$elf"
	fi 2>&1 | stamp >"$base.log" || true
	rm -f "$base.img"
	t0=$(cat "$base.t0")
	t1=$(awk '/ zpbench\.start=1$/ { print $1; exit }' "$base.log")
	sed -n 's/^[0-9.]* \([a-z_]*\.[a-z_.0-9]*=.*\)$/\1/p' "$base.log" >"$base.txt"
	[ -n "$t1" ] && echo "bench.first_line_s=$(echo "$t1 $t0" |
		awk '{ printf "%.3f", $1 - $2 }')" >>"$base.txt"
	echo "bench.run_s=$(echo "$EPOCHREALTIME $t0" |
		awk '{ printf "%.1f", $1 - $2 }')" >>"$base.txt"
	grep -q '^zpbench.done=1' "$base.txt" ||
		echo "bench: $k ($mode) did not finish; see $base.log" >&2
}

# The page-allocator section (bench=mm), as make bench always printed it.
page_alloc() {
	local mode
	for mode in free icount; do
		QEMU_EXTRA=$([ $mode = icount ] && echo "$ICOUNT") scripts/qemu.sh \
			--mem 128M --append "bench=mm loglevel=4" --timeout 120 \
			"$elf" 2>&1 | tr -d '\r' | sed -n 's/^bench: //p' \
			>"$OUT/runs/page-alloc-$mode.txt" || true
	done
}

# scripts/bench-profile.sh uses linux_setup alone.
[ "${1:-}" = --linux-setup ] && { linux_setup; echo "$vmlinuz"; exit 0; }
t_start=$EPOCHREALTIME
case " $KERNELS " in *" linux "*) linux_setup ;; esac
# BENCH_ONLY=smp (make bench-smp): the several-CPU runs alone, the others'
# figures kept.
if [ "${BENCH_ONLY:-}" = smp ]; then
	rm -f "$OUT"/runs/*-smp.*
else
	rm -f "$OUT"/runs/*
	# Two lanes on two cores: the free-running boots one after another
	# (their figures are host time), the -icount boots (exact whatever
	# the load) beside.
	(
		for k in $KERNELS; do run "$k" free; done
		for k in $KERNELS; do run "$k" swap; done
		[ "${BENCH_PAGE_ALLOC:-1}" = 0 ] || page_alloc
	) &
	lane=$!
	for k in $KERNELS; do run "$k" icount; done
	wait "$lane"
fi
# The several-CPU runs alone, one after another: their vCPUs want every
# host core there is.
[ "${BENCH_SMP:-1}" = 0 ] || for k in $KERNELS; do run "$k" smp; done
{
	echo "bench.total_s=$(echo "$EPOCHREALTIME $t_start" |
		awk '{ printf "%.1f", $1 - $2 }')"
	echo "bench.host_cpus=$(nproc)"
	echo "bench.host_load=$(cut -d' ' -f1-3 /proc/loadavg)"
} >"$OUT/runs/total.txt"
python3 scripts/bench-report.py "$OUT"
cat "$OUT/report.md"
