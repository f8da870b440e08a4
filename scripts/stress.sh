#!/bin/bash
# scripts/stress.sh — stress-ng as an outside fuzzer (make stress;
# docs/robustness.md): Debian's stress-ng on zpk, one boot per zero-page
# policy at -smp 4 with mm_verify=exit, each memory stressor in turn for
# STRESS_SECS seconds (default 3) with --verify where it has it. A
# stressor passes when stress-ng reports no failure (exit 0), the kernel
# prints no BUG or mm_verify report, and no page is missing at the end
# (MemFree before and after every stressor, within STRESS_SLACK pages).
# The same script then runs on Debian's Linux 6.1 in the same QEMU (-smp
# 4, 1G; STRESS_LINUX=0 skips it) for the comparison column.
# Writes build/stress/report.md: the table of ops/s and results, and the
# stressors that could not run with what stress-ng said.
set -uo pipefail
cd "$(dirname "$0")/.."
SECS=${STRESS_SECS:-3}
SLACK=${STRESS_SLACK:-64}
STRESSORS=${STRESSORS:-"vm mmap zero brk stack bigheap malloc fork vfork clone
pthread futex mremap madvise msync mlock memfd userfaultfd pipe sigsegv
mprotect tlb-shootdown zombie"}
out=build/stress
mkdir -p "$out"

# The run on zpk (busybox's ash): each stressor, its exit status after
# it; MemFree around all of them.
{
	echo 'grep MemFree /proc/meminfo | sed "s/^/=== before /"'
	for s in $STRESSORS; do
		echo "echo '=== stressor $s'"
		echo "stress-ng --$s 4 -t $SECS --verify --metrics-brief 2>&1"
		echo "echo \"=== rc $s \$?\""
		echo 'grep MemFree /proc/meminfo | sed "s/^/=== free /"'
	done
	echo 'sleep 1; grep MemFree /proc/meminfo | sed "s/^/=== after /"'
	echo 'cat /proc/meminfo; ls -la / /tmp; ps'
} >"$out/run.sh"

for pol in ${STRESS_POLICIES:-special refcount off}; do
	echo "stress: zero_page=$pol, $(echo $STRESSORS | wc -w) stressors of ${SECS}s" >&2
	scripts/zpk-run --pkg stress-ng --mem 1G --smp 4 \
		--timeout $((60 + 40 * SECS * $(echo $STRESSORS | wc -w))) \
		--append "zero_page=$pol mm_verify=exit" \
		--add "$out/run.sh:/tmp/run.sh" /bin/ash /tmp/run.sh \
		>"$out/$pol.log" 2>&1
	rc=$?
	echo "=== zpk-run $rc" >>"$out/$pol.log"
	if grep -q "cannot get Debian's package" "$out/$pol.log"; then
		echo "stress: Debian's mirror cannot be reached" >&2
		exit 3
	fi
	if ! grep -q "^=== after" "$out/$pol.log"; then
		echo "stress: the run under $pol did not end (zpk-run: $rc):" >&2
		tail -n 20 "$out/$pol.log" >&2
	fi
done

# Linux 6.1: the same package set as initramfs, linux-init as /init
# (it mounts /proc and /sys, runs the script, powers off).
if [ "${STRESS_LINUX:-1}" != 0 ]; then
	echo "stress: Linux 6.1, the same stressors" >&2
	vmlinuz=$(WHO=stress scripts/linux-kernel.sh) || exit
	WHO=stress scripts/rootfs.sh --out build/rootfs/sets/stress-ng \
		stress-ng >&2 || exit
	root=$out/linux-root
	rm -rf "$root"
	cp -a build/rootfs/sets/stress-ng/root "$root"
	mkdir -p "$root"/{proc,sys,dev,tmp}
	cp build/user/bin/linux-init "$root/init"
	# Linux's initramfs has no /dev nodes until devtmpfs is mounted.
	{ echo 'mount -t devtmpfs devtmpfs /dev'; cat "$out/run.sh"; } \
		>"$root/tmp/run.sh"
	(cd "$root" && find . -mindepth 1 | sed 's|^\./||' | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --quiet) >"$out/linux-initramfs.cpio"
	scripts/qemu.sh --linux --mem 1G --smp 4 \
		--timeout $((180 + 40 * SECS * $(echo $STRESSORS | wc -w))) \
		--initrd "$out/linux-initramfs.cpio" \
		--append "console=ttyS0 quiet panic=-1 -- /bin/ash /tmp/run.sh" \
		"$vmlinuz" >"$out/linux.log" 2>&1
	rm -rf "$root"
fi

# The table: per stressor and policy, bogo ops/s (real time) and whether
# it passed on zpk; Linux's ops/s beside them.
python3 - "$out" "$SLACK" $STRESSORS <<'EOF' >"$out/report.md"
import re, sys
out, slack, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
import os
pols = ["special", "refcount", "off"]
linux = os.path.exists("%s/linux.log" % out)
runs, why, kernel = {}, {}, {}
for p in pols + (["linux"] if linux else []):
    try:
        text = open("%s/%s.log" % (out, p)).read().replace("\r", "")
    except OSError:	# a policy left out (STRESS_POLICIES)
        text = ""
    free = [int(x) for x in
            re.findall(r"=== (?:before|after) MemFree:\s+(\d+)", text)]
    lost = len(free) == 2 and free[0] - free[1] > slack * 4
    bad = re.findall(r"^.*(?:BUG|mm_verify: |Kernel panic).*$", text, re.M)
    kernel[p] = (bad[:1], free, lost)
    for chunk in text.split("=== stressor ")[1:]:
        name = chunk.split("\n", 1)[0].strip()
        rc = re.search(r"=== rc \S+ (\d+)", chunk)
        ops = re.search(r"metrc: \[\d+\] %s\s+\d+(?:\s+[\d.]+){3}\s+([\d.]+)"
                        % re.escape(name), chunk)
        runs[name, p] = (int(rc.group(1)) if rc else None,
                         ops.group(1) if ops else "-")
        said = [l.split("] ", 1)[-1] for l in chunk.split("\n")
                if re.search(r"fail|error|not implemented|skipp", l, re.I)
                and "no CPUs found" not in l]
        if said and runs[name, p][0] != 0 and p != "linux":
            why.setdefault(name, said[0][:100].replace("|", "/"))
print("| stressor | special ops/s | refcount ops/s | off ops/s | "
      "Linux 6.1 ops/s | result on zpk |")
print("|---|---|---|---|---|---|")
for n in names:
    rcs = [runs.get((n, p), (None, "-"))[0] for p in pols]
    ops = [runs.get((n, p), (None, "-"))[1] for p in pols]
    lrc, lops = runs.get((n, "linux"), (None, "-"))
    if linux and lrc != 0:
        lops += " (exit %s)" % lrc
    ok = all(rc == 0 for rc in rcs)
    res = "pass" if ok else "exit %s: %s" % (
        "/".join(str(rc) for rc in rcs), why.get(n, "no message"))
    print("| %s | %s | %s | %s | %s | %s |" % (n, ops[0], ops[1], ops[2],
                                              lops, res))
print()
for p in pols:
    bad, free, lost = kernel[p]
    print("- zero_page=%s: kernel reports: %s; MemFree before and after "
          "the stressors: %s kB%s" % (p, bad[0] if bad else "none",
          " -> ".join(map(str, free)) or "?",
          " (more than %d pages lost)" % slack if lost else ""))
EOF
cat "$out/report.md"
