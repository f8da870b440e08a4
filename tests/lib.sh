# tests/lib.sh — shared helpers for the QEMU runner tests (sourced by bash).
# Each check prints one TAP line: "ok - NAME" or "not ok - NAME # why".

ZPK_ELF=${ZPK_ELF:-build/zpk.elf}
ZPK_DEBUG_ELF=${ZPK_DEBUG_ELF:-build/debug/zpk.elf}	# DEBUG_OPT: the gdb tests
ZPK_KTEST_ELF=${ZPK_KTEST_ELF:-build/zpk-test.elf}	# with the ktests
ZPK_INITRD=${ZPK_INITRD:-build/user/initrd.cpio}	# "" boots without one
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
LOGDIR=${LOGDIR:-build/test-logs}
mkdir -p "$LOGDIR"

# QEMU's status (value << 1) | 1 back to kernel_poweroff's value; see
# include/zpk/reboot.h.  124 = timeout, 0 = QEMU quit otherwise -> -1.
qemu_status_to_zpk() {
	local rc=$1
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then echo timeout
	elif [ $((rc & 1)) -eq 1 ]; then echo $((rc >> 1))
	else echo "qemu-$rc"
	fi
}

# boot LOG MEM PARAMS... — boots zpk, output to LOG; sets BOOT_STATUS
# (decoded) and BOOT_SECONDS (wall time). BOOT_SMP=N: N CPUs (default 1);
# BOOT_DISK=IMG: a raw image as the virtio disk /dev/vda.
boot() {
	local log=$1 mem=$2 t0 t1 rc
	shift 2
	t0=$(date +%s.%N)
	scripts/qemu.sh --mem "$mem" --smp "${BOOT_SMP:-1}" --append "$*" \
		--timeout "$TEST_TIMEOUT" ${BOOT_DISK:+--disk "$BOOT_DISK"} \
		${ZPK_INITRD:+--initrd "$ZPK_INITRD"} "$ZPK_ELF" >"$log" 2>&1
	rc=$?
	t1=$(date +%s.%N)
	BOOT_STATUS=$(qemu_status_to_zpk $rc)
	BOOT_SECONDS=$(echo "$t1 $t0" | awk '{ printf "%.2f", $1 - $2 }')
}

# tap NAME OK [WHY] — print one result line.
tap() {
	if [ "$2" = 1 ]; then echo "ok - $1"
	else echo "not ok - $1${3:+ # $3}"
	fi
}

# expect_in LOG NAME FIXED-STRING — the log must contain the string.
expect_in() {
	if grep -qF -- "$3" "$1"; then tap "$2" 1
	else tap "$2" 0 "\"$3\" not in $1"
	fi
}

# expect_not_in LOG NAME FIXED-STRING — the log must not contain it.
expect_not_in() {
	if ! grep -qF -- "$3" "$1"; then tap "$2" 1
	else tap "$2" 0 "\"$(grep -F -m1 -- "$3" "$1")\" in $1"
	fi
}

# expect_status NAME WANT — the last boot ended with this decoded status.
expect_status() {
	if [ "$BOOT_STATUS" = "$2" ]; then tap "$1" 1
	else tap "$1" 0 "exit status $BOOT_STATUS, want $2"
	fi
}

# Last 40 lines of a console log, for failures.
show_tail() {
	echo "# ---- last 40 lines of $1 ----"
	tail -n 40 "$1" | sed 's/^/# /'
}
