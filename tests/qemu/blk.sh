#!/bin/bash
# tests/qemu/blk.sh — the virtio disk (docs/block.md): without one, no
# /dev/vda and no boot line; with a raw image made here, user/tests/blkdev
# under the runner (leak check, mm_verify) on 1 and 4 CPUs, then the
# bytes it wrote are looked for in the image on the host; busybox's mkswap,
# swapon, free and dd on /dev/vda, the swap header checked on the host;
# user/tests/swapon, an area the host's mkswap made, booting with swap
# (init's /etc/fstab, zpk-run --swap); an I/O error (QEMU's blkdebug)
# comes back as EIO; user/tests/swap (reclaim to the disk and back) on 1
# and 4 CPUs; user/tests/swap_scan (the sparse scan larger than RAM, and
# threads against kswapd); user/tests/swap_lru (a hot set stays in memory
# under pressure: the second chance); user/tests/swap_eio (a swap-in's read fails:
# SIGBUS, blkdebug again); user/tests/swapoff (under load, and ENOMEM);
# user/tests/swap_oom (the OOM killer with swap on).
cd "$(dirname "$0")/../.."
. tests/lib.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/zpk-blk.XXXXXX")
trap 'rm -rf "$work"' EXIT
SIZE=$((8 << 20))

# scratch IMG: an image user/tests/blkdev may write (its first line).
scratch() {
	printf 'ZPK-BLK-SCRATCH %d\n' "$SIZE" >"$1"
	truncate -s "$SIZE" "$1"
}

# The pattern blkdev.c leaves: pat(off) = off * 7 + 3 over 64 KiB at
# 1 MiB (inverted over 1000 bytes at 1 MiB + 4196), and over the last
# 10 bytes. Prints what differs, nothing if all is there.
check_image() {
	python3 - "$1" "$SIZE" <<'PY'
import sys
img, size = open(sys.argv[1], 'rb').read(), int(sys.argv[2])
pat = lambda o: (o * 7 + 3) & 0xff
want = {o: pat(o) for o in range(1 << 20, (1 << 20) + (64 << 10))}
want.update({o: ~pat(o) & 0xff for o in range((1 << 20) + 4196, (1 << 20) + 5196)})
want.update({o: pat(o) for o in range(size - 10, size)})
bad = [o for o, v in want.items() if img[o] != v]
if len(img) != size or bad:
    print(f"size {len(img)}, {len(bad)} bytes differ, first at {bad[:1]}")
PY
}

part_nodisk() {
	local log=$LOGDIR/blk-nodisk.log
	scripts/zpk-run --timeout 60 sh -c 'ls /dev; dmesg' >"$log" 2>&1
	expect_not_in "$log" "no disk: no /dev/vda" "vda"
	expect_not_in "$log" "no disk: no virtio_blk line" "virtio_blk"
}

# blkdev under the runner on N CPUs, then the image on the host.
part_blkdev() {
	local smp=$1 img=$work/blk-smp$1.img log=$LOGDIR/blk-smp$1.log why
	scratch "$img"
	BOOT_SMP=$smp BOOT_DISK=$img boot "$log" 256M init=/tests/runner \
		mm_verify=exit -- blkdev
	expect_in "$log" "[smp$smp] the boot line names the disk" \
		"virtio_blk virtio0: [vda] 16384 512-byte logical blocks"
	expect_in "$log" "[smp$smp] blkdev passes" "ok 1 - blkdev (exit 0"
	expect_in "$log" "[smp$smp] no page leak, mm_verify clean" \
		"ok 2 - blkdev: no page leak"
	expect_status "[smp$smp] the runner exited 0" 0
	grep -F "    # 1 MiB:" "$log" | sed "s/^ *# /# [smp$smp] /"
	why=$(check_image "$img")
	tap "[smp$smp] the bytes zpk wrote are in the image on the host" \
		"$([ -z "$why" ] && echo 1)" "$why"
	[ "$BOOT_STATUS" = 0 ] || show_tail "$log"
}

# The seconds of a command in zpk's sh, from /proc/uptime.
DD='t() { cut -d" " -f1 /proc/uptime; }
a=$(t); dd if=/dev/zero of=/dev/vda bs=1M seek=1 count=7 conv=fsync
b=$(t); dd if=/dev/vda of=/dev/null bs=1M
c=$(t); echo "dd: 7 MiB written in $(echo "$b $a" | awk "{print \$1-\$2}") s, 8 MiB read in $(echo "$c $b" | awk "{print \$1-\$2}") s"
grep "^intr" /proc/stat'

part_busybox() {
	local img=$work/swap.img log=$LOGDIR/blk-busybox.log sig
	if [ ! -x build/user/root/bin/busybox ]; then
		tap "busybox: not in the initrd (busybox-static) # SKIP" 1
		return
	fi
	truncate -s "$SIZE" "$img"
	scripts/zpk-run --timeout 120 --disk "$img" busybox sh -c \
		"mkswap /dev/vda && swapon /dev/vda && cat /proc/swaps && free &&
		swapoff /dev/vda && $DD" >"$log" 2>&1
	expect_in "$log" "busybox mkswap /dev/vda runs" \
		"Setting up swapspace version 1, size = 8384512 bytes"
	expect_in "$log" "busybox swapon takes its area: /proc/swaps" \
		"/dev/vda                                partition	8188		0		-2"
	expect_in "$log" "... and free's Swap line" \
		"Swap:          8188           0        8188"
	sig=$(dd if="$img" bs=1 skip=4086 count=10 2>/dev/null)
	tap "its header is on the disk: SWAPSPACE2 at offset 4086" \
		"$([ "$sig" = SWAPSPACE2 ] && echo 1)" "found \"$sig\""
	if command -v file >/dev/null; then
		expect_in <(file "$img") "the host's file(1) sees a Linux swap file" \
			"Linux swap file, 4k page size, little endian, version 1"
	fi
	expect_in "$log" "busybox dd writes 7 MiB" "7+0 records out"
	expect_in "$log" "busybox dd reads the 8 MiB back" "8+0 records out"
	grep -E "^(dd:|intr)" "$log" | tr -d '\r' | sed 's/^/# /'
}

# QEMU's blkdebug fails every read of sector 2048 with EIO: read(2)
# says EIO for it, and the sectors around it still read.
part_eio() {
	local img=$work/eio.img log=$LOGDIR/blk-eio.log conf=$work/eio.conf
	printf '[inject-error]\nevent = "read_aio"\nerrno = "5"\nsector = "2048"\n' \
		>"$conf"
	truncate -s "$SIZE" "$img"
	scripts/zpk-run --timeout 60 --disk "blkdebug:$conf:$img" busybox sh -c \
		'for s in 2047 2048 2049; do
			dd if=/dev/vda of=/dev/null bs=512 skip=$s count=1 2>&1 |
				grep -q "Input/output error" && echo "sector $s: EIO" ||
				echo "sector $s: read"
		done' >"$log" 2>&1
	expect_in "$log" "an I/O error: a read of the failing sector is EIO" \
		"sector 2048: EIO"
	expect_in "$log" "... the sector before it reads" "sector 2047: read"
	expect_in "$log" "... and the one after it, the kernel unharmed" \
		"sector 2049: read"
}

# user/tests/swapon under the runner (leak check, mm_verify); then an
# area util-linux's mkswap made on the host, if it is here.
part_swapon() {
	local img=$work/swapon.img log=$LOGDIR/blk-swapon.log
	scratch "$img"
	BOOT_DISK=$img boot "$log" 128M init=/tests/runner mm_verify=exit \
		-- swapon
	expect_in "$log" "swapon passes" "ok 1 - swapon (exit 0"
	expect_in "$log" "swapon: no page leak, mm_verify clean" \
		"ok 2 - swapon: no page leak"
	expect_status "swapon: the runner exited 0" 0
	command -v mkswap >/dev/null || PATH=$PATH:/sbin:/usr/sbin
	if ! command -v mkswap >/dev/null; then
		tap "a host mkswap's area # SKIP no mkswap on the host" 1
		return
	fi
	img=$work/host-swap.img log=$LOGDIR/blk-hostswap.log
	truncate -s "$SIZE" "$img"
	mkswap -L zpk "$img" >/dev/null 2>&1
	scripts/zpk-run --timeout 60 --disk "$img" busybox sh -c \
		'swapon /dev/vda && cat /proc/swaps && swapoff /dev/vda' \
		>"$log" 2>&1
	expect_in "$log" "an area util-linux's mkswap made on the host is taken" \
		"/dev/vda                                partition	8188		0		-2"
}

# Booting with swap: init swaps on /etc/fstab's /dev/vda (the boot
# script's free shows it), and zpk-run --swap before its program.
part_swap_boot() {
	local img=$work/boot-swap.img log=$LOGDIR/blk-swapboot.log
	scripts/mkswap-img.sh 8M "$img"
	BOOT_DISK=$img boot "$log" 128M init=/sbin/init -- /bin/cat \
		/proc/swaps
	expect_in "$log" "init swaps on fstab's /dev/vda" \
		"/dev/vda                                partition	8188		0		-2"
	log=$LOGDIR/blk-zpkrun-swap.log
	scripts/zpk-run --timeout 60 --swap 8M cat /proc/swaps >"$log" 2>&1
	expect_in "$log" "zpk-run --swap 8M: /proc/swaps lists it" \
		"/dev/vda                                partition	8188		0		-2"
}

# user/tests/swap under the runner (leak check with swap slots, mm_verify)
# on N CPUs and a zero-page policy: pages out with MADV_PAGEOUT and back.
part_swap() {
	local smp=$1 zp=$2 img=$work/swap-$1-$2.img log=$LOGDIR/blk-swap-$1-$2.log
	scratch "$img"
	BOOT_SMP=$smp BOOT_DISK=$img boot "$log" 128M init=/tests/runner \
		mm_verify=exit zero_page=$zp -- swap
	expect_in "$log" "[smp$smp $zp] swap passes" "ok 1 - swap (exit 0"
	expect_in "$log" "[smp$smp $zp] swap: no page or slot leak, mm_verify clean" \
		"ok 2 - swap: no page leak"
	expect_not_in "$log" "[smp$smp $zp] swap: no BUG (an allocation under a spinlock...)" \
		"BUG"
	expect_status "[smp$smp $zp] swap: the runner exited 0, every check passed" 0
	[ "$BOOT_STATUS" = 0 ] || show_tail "$log"
}

# user/tests/swap_eio under the runner: blkdebug fails every read (not
# write) of slot EIO_SLOT, which the scratch line names; the pages out
# fill slots from 1, and the test finds the one on it through pagemap.
EIO_SLOT=40
part_swap_eio() {
	local smp=$1 zp=$2 img=$work/eio-$1-$2.img log=$LOGDIR/blk-eio-$1-$2.log
	local conf=$work/eio-$1-$2.conf
	printf '[inject-error]\nevent = "read_aio"\niotype = "read"\nerrno = "5"\nsector = "%d"\n' \
		$((EIO_SLOT * 8)) >"$conf"
	printf 'ZPK-BLK-SCRATCH %d EIO-SLOT %d\n' "$SIZE" "$EIO_SLOT" >"$img"
	truncate -s "$SIZE" "$img"
	BOOT_SMP=$smp BOOT_DISK=blkdebug:$conf:$img boot "$log" 128M \
		init=/tests/runner mm_verify=exit zero_page=$zp -- swap_eio
	expect_in "$log" "[smp$smp $zp] swap_eio: SIGBUS for the unreadable slot's page, the rest intact" \
		"ok 1 - swap_eio (exit 0"
	expect_in "$log" "[smp$smp $zp] swap_eio: no page or slot leak, mm_verify clean" \
		"ok 2 - swap_eio: no page leak"
	expect_status "[smp$smp $zp] swap_eio: the runner exited 0, every check passed" 0
	expect_not_in "$log" "[smp$smp $zp] swap_eio: no BUG (an allocation under a spinlock...)" \
		"BUG"
	[ "$BOOT_STATUS" = 0 ] || show_tail "$log"
}

# user/tests/swapoff at 64 MiB with a 128 MiB scratch disk: swapoff
# while threads and a child swap in and out, then with more in swap than
# RAM can take (ENOMEM, nothing changed). Slower than the others under
# TCG with 4 CPUs on a busy host: a longer boot timeout.
part_swapoff() {
	local smp=$1 zp=$2 img=$work/off-$1-$2.img log=$LOGDIR/blk-off-$1-$2.log
	local TEST_TIMEOUT=$((TEST_TIMEOUT * 5 / 2))
	printf 'ZPK-BLK-SCRATCH %d\n' $((128 << 20)) >"$img"
	truncate -s 128M "$img"
	BOOT_SMP=$smp BOOT_DISK=$img boot "$log" 64M init=/tests/runner \
		mm_verify=exit zero_page=$zp -- swapoff
	expect_in "$log" "[smp$smp $zp] swapoff: under load, and ENOMEM with RAM too small" \
		"ok 1 - swapoff (exit 0"
	expect_in "$log" "[smp$smp $zp] swapoff: no page or slot leak" \
		"ok 2 - swapoff: no page leak"
	expect_status "[smp$smp $zp] swapoff: the runner exited 0, every check passed" 0
	expect_not_in "$log" "[smp$smp $zp] swapoff: no BUG (an allocation under a spinlock...)" \
		"BUG"
	grep -F "swapoff while" "$log" | sed "s/^ *ok [0-9]* - /# [smp$smp $zp] /"
	[ "$BOOT_STATUS" = 0 ] || show_tail "$log"
}

# user/tests/swap_scan (or $3: swap_lru, swap_oom) at 64 MiB with a 128 MiB
# scratch disk: the sparse scan over 1.25 x RAM swaps under off (pswpout
# rises, not OOM-killed), needs no swap under special; threads fault while
# kswapd evicts. swap_lru: a hot set stays in memory under pressure
# (reclaim's second chance). swap_oom: with swap on, the OOM killer still
# kills a hog of memory reclaim cannot take, and one past RAM and swap.
part_swap_scan() {
	local smp=$1 zp=$2 t=${3:-swap_scan}
	local img=$work/$t-$1-$2.img log=$LOGDIR/blk-$t-$1-$2.log
	printf 'ZPK-BLK-SCRATCH %d\n' $((128 << 20)) >"$img"
	truncate -s 128M "$img"
	BOOT_SMP=$smp BOOT_DISK=$img boot "$log" 64M init=/tests/runner \
		mm_verify=exit zero_page=$zp -- "$t"
	expect_in "$log" "[smp$smp $zp] $t passes" "ok 1 - $t (exit 0"
	expect_in "$log" "[smp$smp $zp] $t: no page or slot leak" \
		"ok 2 - $t: no page leak"
	expect_status "[smp$smp $zp] $t: the runner exited 0, every check passed" 0
	expect_not_in "$log" "[smp$smp $zp] $t: no BUG (an allocation under a spinlock...)" \
		"BUG"
	grep -F "    # " "$log" | sed "s/^ *# /# [smp$smp $zp] /"
	[ "$BOOT_STATUS" = 0 ] || show_tail "$log"
}

part_nodisk
part_eio
part_swapon
part_swap_boot
part_blkdev 1
part_blkdev 4
part_swap 1 special
part_swap 4 off
part_swap_eio 1 special
part_swap_eio 1 off
part_swap_eio 1 refcount
part_swap_eio 4 special
part_swap_eio 4 off
part_swapoff 1 special
part_swapoff 1 off
part_swapoff 1 refcount
part_swapoff 4 special
part_swapoff 4 off
part_swap_scan 1 off
part_swap_scan 1 special
part_swap_scan 4 off
part_swap_scan 1 special swap_lru
part_swap_scan 4 off swap_lru
part_swap_scan 1 off swap_oom
part_busybox
