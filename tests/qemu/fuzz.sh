#!/bin/bash
# tests/qemu/fuzz.sh [--secs N] [--seed S] [--mem SIZE] POLICY... — boots
# zpk with the fuzzer (tools/fuzz/) as PID 1 and mm_verify=exit, once per
# zero_page policy, for N seconds of calls each; TAP lines, then one
# figure line per boot: calls and calls/s. A panic, a hang, an mm_verify
# complaint, a leaked page or a non-zero fresh mapping fails the boot.
# make test runs 20 s per policy; make fuzz as long as FUZZ_SECS says.
cd "$(dirname "$0")/../.."
. tests/lib.sh

secs=20 seed= mem=256M
while [ $# -gt 0 ]; do
	case $1 in
	--secs) secs=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || set -- special refcount off

# One boot: fuzz_one POLICY SEED. Errors only on the console (loglevel=4):
# the children's segfault and -ENOSYS lines would flood it.
fuzz_one() {
	local policy=$1 s=$2 log=$LOGDIR/fuzz-$1.log done last why
	TEST_TIMEOUT=$((secs * 3 + 180)) boot "$log" "$mem" \
		init=/bin/fuzz zero_page="$policy" mm_verify=exit loglevel=4 \
		-- -s "$s" -t "$secs"
	tr -d '\r' <"$log" >"$log.txt"
	done=$(grep -a -m1 '^fuzz: done:' "$log.txt")
	last=$(grep -a "^fuzz: child " "$log.txt" | tail -1 | awk '{ print $3 }')
	case $BOOT_STATUS in
	0) why= ;;
	timeout) why="hang: the kernel stopped answering in child ${last:-?}" ;;
	127) why="panic in child ${last:-?}" ;;
	3) why="$(grep -a -m1 '^fuzz: HANG' "$log.txt")" ;;
	*) why="status $BOOT_STATUS: $(grep -a -m1 -E '^fuzz: (LEAK|ZERO)' "$log.txt")" ;;
	esac
	tap "[$policy] fuzz ${secs} s (seed $s): no panic, hang, leak or non-zero fresh page" \
		"$([ -z "$why" ] && echo 1)" "$why"
	expect_not_in "$log.txt" "[$policy] fuzz: mm_verify found nothing wrong" \
		"mm_verify:"
	if [ -n "$why" ]; then
		[ "$BOOT_STATUS" = 3 ] || [ -z "$last" ] ||
			echo "# replay: scripts/zpk-run --mem $mem --append 'zero_page=$policy mm_verify=exit' fuzz -s $s -r $last"
		show_tail "$log.txt"
	fi
	# "fuzz: done: seed S, C children, N calls in T s, R calls/s; ..."
	echo "$done" | awk -v p="$policy" '{
		for (i = 1; i <= NF; i++) {
			if ($(i + 1) == "calls" && $(i + 2) == "in") n = $i
			if ($(i + 1) == "calls/s;") r = $i
		}
		if (n != "") printf "figure: [%s] %d calls, %d calls/s\n", p, n, r }'
	rm -f "$log.txt"
}

tapfile=$LOGDIR/fuzz-tap.$$
i=0
for policy in "$@"; do
	i=$((i + 1))
	fuzz_one "$policy" "${seed:-$i}"
done | tee "$tapfile"
# The figure make fuzz reports: calls across the policies.
awk '/^figure: \[/ { n += $3; s = s sep $2 " " $3; sep = ", " }
     END { if (n) printf "figure: %d calls in all (%s)\n", n, s }' \
	"$tapfile"
grep -q '^not ok' "$tapfile" && status=1 || status=0
rm -f "$tapfile"
exit $status
