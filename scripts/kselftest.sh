#!/bin/bash
# scripts/kselftest.sh — make kselftest: Linux's mm selftests
# (scripts/kselftest-build.sh) on zpk under zero_page=special, refcount and
# off, and on Debian's Linux 6.1 (the reference) in the same QEMU line as
# make bench, both booted with transparent_hugepage=always (the reference
# for the THP cases is Linux with THP on everywhere), each with a swap disk
# of KSELFTEST_SWAP (128M) that the runner swaps on first (Linux loads
# Debian's virtio modules for it).  One boot per program
# and kernel: /tests/runner as init runs
# the program, with zpk's free-page check after it (mm_verify=exit on zpk);
# a boot still running after the program's timeout is killed and counts as
# "hung".  scripts/kselftest-report.py then parses the KTAP, prints the
# table and the differences, writes build/kselftest/report.md, and checks
# zpk against tests/kselftest/baseline.
#   KSELFTEST_KERNELS  kernels to run (default: special refcount off linux)
#   KSELFTEST_CI=1     only the programs and policies of the list's CI column,
#                      each boot cut at 60 s (zpk's take a few seconds; cow's
#                      hang, while vmsplice is missing, costs no more)
#   KSELFTEST_JOBS     boots side by side (default: one per core)
#   KSELFTEST_PROGRAMS the programs to run (default: the list's)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=build/kselftest
LIST=tests/kselftest/programs
KERNELS=${KSELFTEST_KERNELS:-special refcount off linux}
JOBS=${KSELFTEST_JOBS:-$(nproc)}
CI=${KSELFTEST_CI:-0}
THP=transparent_hugepage=always
# Each boot's swap disk (a fresh mkswap'd image, sparse), swapped on by
# the runner before the program: the swap and MADV_PAGEOUT cases run.
SWAP=${KSELFTEST_SWAP:-128M}

# The runs, one "PROGRAM KERNEL MEM TIMEOUT" a line.
runs() {
	awk -v kernels="$KERNELS" -v ci="$CI" -v only=" ${KSELFTEST_PROGRAMS:-} " '
		/^#/ || !NF || $2 == "-" { next }
		only != "  " && index(only, " " $1 " ") == 0 { next }
		{
			n = split(kernels, k, " ")
			for (i = 1; i <= n; i++)
				if (ci != 1)
					print $1, k[i], $2, $3
				else if (("," $4 ",") ~ ("," k[i] ","))
					print $1, k[i], $2, ($3 < 60 ? $3 : 60)
		}' "$LIST"
}

# initrd ROOT OUT — ROOT's tree as a newc cpio archive, owner root.
initrd() {
	(cd "$1" && find . -mindepth 1 | sed 's|^\./||' | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --quiet) >"$2"
}

# zpk's initrd with the programs in /tests/ks/; Linux's initramfs with
# make bench's /init (linux-init runs the path it is given), the runner and
# the same programs.
setup() {
	local root=$OUT/root progs
	progs=$(runs | awk '{ print $1 }' | sort -u)
	rm -rf "$root"
	mkdir -p "$root"
	cp -a build/user/root "$root/zpk"
	mkdir -p "$root/zpk/tests/ks"
	for p in $progs; do cp "$OUT/bin/$p" "$root/zpk/tests/ks/"; done
	initrd "$root/zpk" "$OUT/zpk-initrd.cpio"
	runs | grep -q ' linux ' || return 0
	vmlinuz=$(WHO=kselftest scripts/linux-kernel.sh) || exit 1
	mkdir -p "$root/linux/tests/ks" "$root/linux/"{bin,proc,sys,dev,tmp}
	cp build/user/bin/linux-init "$root/linux/init"
	mkdir -p "$root/linux/lib/modules"
	cp build/linux/modules/* "$root/linux/lib/modules/"
	cp build/user/bin/tests/runner "$root/linux/tests/"
	for p in $progs; do cp "$OUT/bin/$p" "$root/linux/tests/ks/"; done
	initrd "$root/linux" "$OUT/linux-initramfs.cpio"
}

# run PROGRAM KERNEL MEM TIMEOUT — one boot; the console in
# $OUT/runs/KERNEL/PROGRAM.log, then "# kselftest.status=RC secs=S".
run() {
	local p=$1 k=$2 mem=$3 t=$4 log=$OUT/runs/$2/$1.log t0 rc=0
	local swap=$OUT/runs/$2/$1.swap
	mkdir -p "$OUT/runs/$k"
	scripts/mkswap-img.sh "$SWAP" "$swap"
	t0=$EPOCHREALTIME
	if [ "$k" = linux ]; then
		# Linux's own boot takes 20-40 s of TCG more than zpk's.
		scripts/qemu.sh --linux --mem "$mem" --timeout $((t + 120)) \
			--initrd "$OUT/linux-initramfs.cpio" --disk "$swap" \
			--append "console=ttyS0 quiet panic=-1 $THP -- /tests/runner --swapon /dev/vda ks/$p" \
			"$vmlinuz" >"$log" 2>&1 || rc=$?
	else
		scripts/qemu.sh --mem "$mem" --timeout "$t" \
			--initrd "$OUT/zpk-initrd.cpio" --disk "$swap" \
			--append "init=/tests/runner mm_verify=exit zero_page=$k $THP -- --swapon /dev/vda ks/$p" \
			build/zpk.elf >"$log" 2>&1 || rc=$?
	fi
	rm -f "$swap"
	echo "# kselftest.status=$rc secs=$(echo "$EPOCHREALTIME $t0" |
		awk '{ printf "%.1f", $1 - $2 }')" >>"$log"
	echo "kselftest: $p on $k: $(tail -1 "$log" | cut -c3-)" >&2
}

if [ "$CI" = 1 ]; then
	scripts/kselftest-build.sh $(runs | awk '{ print $1 }' | sort -u)
else
	scripts/kselftest-build.sh ${KSELFTEST_PROGRAMS:-}
fi
t_start=$EPOCHREALTIME
setup
for k in $KERNELS; do rm -rf "$OUT/runs/$k"; done
# $JOBS boots side by side, the longest timeouts first.
while read -r p k mem t; do
	while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
	run "$p" "$k" "$mem" "$t" &
done < <(runs | sort -k4,4nr -s)
wait
echo "$EPOCHREALTIME $t_start" | awk '{ printf "%.0f\n", $1 - $2 }' \
	>"$OUT/runs/total-seconds"
python3 scripts/kselftest-report.py "$OUT" "$LIST" \
	tests/kselftest/excused tests/kselftest/baseline \
	"$(cut -d' ' -f1,2 "$OUT/src/.version")" \
	"$(cat build/linux/version 2>/dev/null || echo)"
