#!/bin/bash
# tests/qemu/c2c.sh — the c2c plugin is honest on a guest: c2c_pingpong
# on 3 CPUs under -icount with the plugin (build/c2c.so) must show, in its
# first window, at least N - 1 transfers of the line both threads write,
# and in its second (the counters a line apart) about none. Then the
# plugin refuses an argument it does not know, saying so (docs/c2c.md).
cd "$(dirname "$0")/../.."
. tests/lib.sh

log=$LOGDIR/c2c-pingpong.log
report=$LOGDIR/c2c-pingpong.txt
rm -f "$report"
QEMU_ACCEL=tcg,thread=single \
QEMU_EXTRA="-icount shift=0,sleep=off -plugin ${C2C_SO:-build/c2c.so},out=$report,top=5" \
BOOT_SMP=3 boot "$log" 64M init=/tests/c2c_pingpong
expect_status "c2c_pingpong under the plugin exits 0" 0
oks=$(tr -d '\r' <"$log" | grep -c '^ok ')
tap "c2c_pingpong: its 3 checks pass (counters exact)" \
	"$([ "$oks" = 3 ] && echo 1)" "$oks of 3 ok; see $log"

n=$(tr -d '\r' <"$log" | sed -n 's/^c2c_pingpong: n=\([0-9]*\) .*/\1/p')
shared=$(tr -d '\r' <"$log" | sed -n 's/^c2c_pingpong: .* shared=\(0x[0-9a-f]*\) .*/\1/p')
# window W's figure KEY (from its totals), or its top line's field KEY.
total() { awk -v w="$1" -v k="$2" '/^c2c: window / { in_w = $3 == w }
	in_w { for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' "$report"; }
top_line() { awk -v w="$1" -v k="$2" '/^c2c: window / { in_w = $3 == w }
	in_w && /^line / { for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' "$report"; }

windows=$(sed -n 's/^c2c: windows \([0-9]*\)/\1/p' "$report" 2>/dev/null)
tap "the plugin saw the program's two windows" \
	"$([ "$windows" = 2 ] && echo 1)" "windows: ${windows:-none} (see $report)"
va=$(top_line 1 va)
xfers=$(top_line 1 transfers)
same=0
[ -n "$va" ] && [ -n "$shared" ] && [ $((va & ~63)) = $((shared & ~63)) ] && same=1
tap "window 1: the top line is the counters' line ($shared)" "$same" \
	"top line's va ${va:-none}"
tap "window 1: at least N - 1 = $((n - 1)) transfers of it (lockstep replay)" \
	"$([ -n "$xfers" ] && [ -n "$n" ] && [ "$xfers" -ge $((n - 1)) ] && echo 1)" \
	"${xfers:-no} transfers"
pad=$(total 2 transfers)
tap "window 2: counters a line apart, about no transfers (< N/20)" \
	"$([ -n "$pad" ] && [ -n "$n" ] && [ "$pad" -lt $((n / 20)) ] && echo 1)" \
	"${pad:-no} transfers"

out=$(qemu-system-x86_64 -accel tcg -display none -M q35 -nodefaults \
	-plugin build/c2c.so,bogus=1 -kernel "$ZPK_ELF" 2>&1 </dev/null)
case $out in *"c2c: unknown argument 'bogus=1'"*) ok=1 ;; *) ok=0 ;; esac
tap "the plugin refuses an unknown argument by name" "$ok" "$out"
