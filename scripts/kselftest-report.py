#!/usr/bin/env python3
"""scripts/kselftest-report.py — make kselftest's table and checks.

Reads build/kselftest/runs/KERNEL/PROGRAM.log (one boot each: the runner's
TAP with the program's KTAP indented under it; scripts/kselftest.sh), and
prints, and writes to build/kselftest/report.md:
  - program x kernel -> KTAP totals (pass/fail/skip, and how the boot ended);
  - the cases Linux 6.1 passes that zpk fails, skips or never reaches, with
    zpk's own words before each (its diagnostics) and the calls zpk answered
    -ENOSYS in that run (the kernel logs each once per process);
  - the cases excused (tests/kselftest/excused: khugepaged, hugetlb,
    gup_test);
  - the checks against tests/kselftest/baseline, as TAP, and a closing
    "kselftest: N passed, N failed" line; the exit status is 1 if one failed.
KSELFTEST_UPDATE_BASELINE=1 rewrites the baseline from this run instead.

usage: kselftest-report.py OUT PROGRAMS EXCUSED BASELINE SOURCE LINUX
"""
import os
import re
import sys

ZPK = ["special", "refcount", "off"]
KERNELS = ZPK + ["linux"]
GOOD = ("pass", "xfail")
RESULT = re.compile(r"^(not ok|ok) (\d+)(?: (.*))?$")
DIRECTIVE = re.compile(r"^(.*?)\s*#\s*(SKIP|XFAIL|XPASS|error|TODO)\b\s*(.*)$",
                       re.I)
UFFD = re.compile(r"^Testing (.*?)\.\.\. (done|skipped|failed)"
                  r"(?: \[reason: (.*?)\]?)?$")
TOTALS = re.compile(r"^# Totals: pass:(\d+) fail:(\d+) xfail:(\d+) "
                    r"xpass:(\d+) skip:(\d+) error:(\d+)")
UFFD_TOTALS = re.compile(r"^Userfaults unit tests: pass=(\d+), skip=(\d+), "
                         r"fail=(\d+)")
ENOSYS = re.compile(r"system call (\d+) \((.*?)\) not implemented")


class Case:
    def __init__(self, num, key, result, why, diag):
        self.num, self.key, self.result = num, key, result
        self.why, self.diag = why, diag


class Run:
    """One boot: how it ended and the program's cases."""

    def __init__(self):
        self.cases, self.keys = [], {}
        self.totals = None
        self.plan = None
        self.state = "no log"
        self.bail = None
        self.last = ""
        self.leak = None
        self.verify = []
        self.enosys = {}


def case_result(ok, rest):
    """(result, description, reason) of one KTAP result line's tail."""
    m = DIRECTIVE.match(rest)
    if not m:
        return ("pass" if ok == "ok" else "fail"), rest.strip(), ""
    desc, word, why = m.group(1).strip(), m.group(2).lower(), m.group(3)
    if word in ("xfail", "xpass") and not desc:
        return word, why.strip(), ""	# ksft_test_result_xfail's name
    if word in ("skip", "xfail", "xpass", "error"):
        return word, desc, why.strip()
    return ("pass" if ok == "ok" else "fail"), desc, why.strip()


def add_case(run, num, desc, result, why, ctx, fresh, diag):
    """Key a case by the [RUN] or [INFO] line just before it (cow,
    mkdirty: one case each), else by its description (with the line it
    follows, if any), else by its number; repeats get (2), (3), ..."""
    if fresh:
        key = ctx
    elif desc:
        key = desc + (" [in %s]" % ctx if ctx else "")
    else:
        key = "case %d" % num
    n = run.keys.get(key, 0) + 1
    run.keys[key] = n
    if n > 1:
        key = "%s (%d)" % (key, n)
    run.cases.append(Case(num, key, result, why, diag[-3:]))


def parse_program(run, lines):
    """The program's own lines (the runner's indented ones)."""
    ctx, fresh, diag = "", False, []
    for line in lines:
        m = RESULT.match(line)
        u = UFFD.match(line)
        if m:
            result, desc, why = case_result(m.group(1), m.group(3) or "")
            add_case(run, int(m.group(2)), desc, result, why, ctx, fresh,
                     diag)
            fresh, diag = False, []
        elif u:
            result = {"done": "pass", "skipped": "skip"}.get(u.group(2),
                                                             "fail")
            add_case(run, len(run.cases) + 1, u.group(1), result,
                     u.group(3) or "", "", False, diag)
            diag = []
        elif re.match(r"^# \[(RUN|INFO)\] ", line) and run.plan is not None:
            ctx, fresh, diag = line[line.index("]") + 2:].strip(), True, []
        elif line.startswith("1.."):
            run.plan = int(re.match(r"1\.\.(\d+)", line).group(1))
            if "# SKIP" in line:
                run.last = line[line.index("# SKIP") + 2:]
        elif line.startswith("Bail out!"):
            run.bail = line[9:].strip()
        elif TOTALS.match(line):
            run.totals = [int(x) for x in TOTALS.match(line).groups()]
        elif UFFD_TOTALS.match(line):
            p, s, f = (int(x) for x in UFFD_TOTALS.match(line).groups())
            run.totals = [p, f, 0, 0, s, 0]
        elif line.strip() and not line.startswith("TAP version"):
            diag.append(line.lstrip("# ").strip())
            run.last = diag[-1]


def parse_log(path, name):
    run = Run()
    if not os.path.exists(path):
        return run
    text = open(path, errors="replace").read().replace("\r", "")
    prog, runner, rc = [], [], None
    for line in text.split("\n"):
        if line.startswith("    "):
            prog.append(line[4:])
        elif re.match(r"^(not ok|ok) \d+ ", line):
            runner.append(line)
        elif "mm_verify:" in line:
            run.verify.append(line.strip())
        elif ENOSYS.search(line):
            m = ENOSYS.search(line)
            run.enosys[int(m.group(1))] = m.group(2)
        elif line.startswith("# kselftest.status="):
            rc = int(re.match(r"# kselftest.status=(\d+)", line).group(1))
    parse_program(run, prog)
    for line in runner:
        if ": no page leak" in line or "page leak check" in line:
            run.leak = line.startswith("ok")
    ends = [ln for ln in runner if " - ks/%s (" % name in ln]
    if rc == 124 or rc == 137:
        run.state = "hung"
    elif ends:
        st = re.search(r"\((.*), [\d.]+ s\)$", ends[0])
        run.state = st.group(1) if st else "?"
        if "timed out" in run.state:
            run.state = "hung"
    elif "Kernel panic" in text:
        run.state = "panic"
    else:
        run.state = "crashed (QEMU status %s)" % rc
    return run


def counts(run):
    """pass, fail, xfail, xpass, skip, error: the Totals line if printed,
    else counted from the cases seen (a hung or bailed-out run)."""
    if run.totals:
        return run.totals
    c = [0] * 6
    order = ["pass", "fail", "xfail", "xpass", "skip", "error"]
    for case in run.cases:
        c[order.index(case.result)] += 1
    return c


def cell(run):
    if run.state == "no log":
        return "-"
    p, f, xf, xp, s, e = counts(run)
    text = "%d/%d/%d" % (p, f, s)
    if xf or xp or e:
        text += " (xfail %d, xpass %d, error %d)" % (xf, xp, e) \
            if xp or e else " (xfail %d)" % xf
    if not run.state.startswith("exit"):
        text += " **%s**" % run.state.split(",")[0]
    elif run.bail:
        text += " bail"
    if run.leak is False:
        text += " **leak**"
    if run.verify:
        text += " **mm_verify**"
    return text


def read_table(path, fields):
    """Non-comment lines of a whitespace table, split in at most fields."""
    rows = []
    if os.path.exists(path):
        for line in open(path):
            if line.strip() and not line.startswith("#"):
                rows.append(line.rstrip("\n").split(None, fields - 1))
    return rows


def read_excused(path):
    rows = []
    if os.path.exists(path):
        for line in open(path):
            if line.strip() and not line.startswith("#"):
                prog, rx, why = line.rstrip("\n").split("\t", 2)
                rows.append((prog, re.compile(rx), why.strip()))
    return rows


def excuse(excused, prog, case):
    for p, rx, why in excused:
        if p in ("*", prog) and (rx.search(case.key) or rx.search(case.why)):
            return why
    return None


def find(run, case):
    """zpk's case matching Linux's: by key, else the same number when
    zpk's has no description of its own (a bare SKIP or error)."""
    for c in run.cases:
        if c.key == case.key:
            return c
    for c in run.cases:
        if c.num == case.num and c.key.startswith("case "):
            return c
    return None


def zpk_result(run, case, linux):
    if run.state == "no log":
        return None
    c = find(run, case)
    if c:
        return c.result + (": " + c.why if c.why else "")
    if run.state == "hung":
        return "not reached (hung)"
    if run.bail:
        return "not reached (bailed out: %s)" % run.bail
    plan = "; %s cases planned, Linux %s" % (run.plan or "no", linux.plan) \
        if run.plan != linux.plan else ""
    return "not reached (%s%s%s)" % (run.state, plan,
                                     "; last: " + run.last if run.last
                                     else "")


def differences(runs, prog, excused):
    """[(case, {policy: zpk result}, excuse)] for Linux's good cases."""
    out = []
    linux = runs[(prog, "linux")]
    for case in linux.cases:
        if case.result not in GOOD:
            continue
        got = {}
        for k in ZPK:
            r = zpk_result(runs[(prog, k)], case, linux)
            if r is not None and r.split(":")[0] != case.result:
                got[k] = r
        if got:
            out.append((case, got, excuse(excused, prog, case)))
    return out


def diag_of(runs, prog, case):
    """zpk's own lines before its result, from the first policy that
    has them."""
    for k in ZPK:
        c = find(runs[(prog, k)], case)
        if c and c.diag and c.result not in GOOD:
            return c.diag
    return []


def enosys_text(runs, prog):
    calls = {}
    for k in ZPK:
        calls.update(runs[(prog, k)].enosys)
    return ", ".join("%s (%d)" % (calls[n], n) for n in sorted(calls))


def syscall_names(src):
    names = {}
    tbl = os.path.join(src, "arch/x86/entry/syscalls/syscall_64.tbl")
    if os.path.exists(tbl):
        for line in open(tbl):
            f = line.split()
            if len(f) >= 3 and f[0].isdigit() and f[1] in ("common", "64"):
                names[int(f[0])] = f[2]
    return names


def table(runs, progs, out):
    out.append("| program | " + " | ".join(
        k if k == "linux" else "zpk " + k for k in KERNELS) + " |")
    out.append("|---" * (len(KERNELS) + 1) + "|")
    for prog in progs:
        out.append("| %s | %s |" % (prog, " | ".join(
            cell(runs[(prog, k)]) for k in KERNELS)))


def report(runs, progs, left_out, excused, meta):
    out = ["# make kselftest: Linux's mm selftests on zpk and Linux 6.1", "",
           "Selftests from %s, built with musl; reference: Debian's %s in "
           "the same QEMU (TCG). Cells: pass/fail/skip of the program's "
           "KTAP totals; **hung** (killed at its timeout), **panic**, "
           "**leak** (free pages lost), **mm_verify** (a complaint) say "
           "how the boot ended otherwise." % meta, ""]
    table(runs, progs, out)
    out += ["", "## Cases Linux 6.1 passes and zpk does not", ""]
    excused_list = []
    for prog in progs:
        diffs = differences(runs, prog, excused)
        mine = [d for d in diffs if not d[2]]
        excused_list += [(prog, d) for d in diffs if d[2]]
        if not mine:
            continue
        calls = enosys_text(runs, prog)
        out.append("### %s%s" % (prog, " — zpk answered -ENOSYS to: " +
                                  calls if calls else ""))
        out.append("")
        groups = {}
        for case, got, _ in mine:
            same = len(set(got.values())) == 1 and len(got) == len(ZPK)
            res = ("all policies: " + next(iter(got.values()))) if same \
                else "; ".join("%s: %s" % kv for kv in got.items())
            groups.setdefault(res, []).append(case)
        for res, cases in groups.items():
            out.append("- %s — %d case%s:" % (res, len(cases),
                                              "s" if len(cases) > 1 else ""))
            for case in cases:
                out.append("    - %s" % case.key)
                for d in diag_of(runs, prog, case):
                    out.append("        - `%s`" % d)
        out.append("")
    out += ["## Excused: cases that need khugepaged, hugetlb or gup_test",
            ""]
    out += excused_section(runs, progs, excused)
    out += ["", "## Left out", ""]
    out += ["- %s — %s" % (name, why) for name, why in left_out]
    return out


def excused_section(runs, progs, excused):
    """Every case of any run that an excuse covers, by program and reason,
    with Linux's result and zpk's when they differ."""
    out = []
    for prog in progs:
        seen = {}
        for k in KERNELS:
            for c in runs[(prog, k)].cases:
                why = excuse(excused, prog, c)
                if why:
                    seen.setdefault(why, {}).setdefault(c.key, {})[k] = \
                        c.result
        for why, cases in seen.items():
            out.append("- %s, %d case%s — %s" % (prog, len(cases),
                                             "s" if len(cases) > 1 else "",
                                             why))
            for key, res in cases.items():
                out.append("    - %s (%s)" % (key, ", ".join(
                    "%s %s" % kv for kv in res.items())))
    return out


def checks(runs, progs, baseline):
    """TAP lines: for every zpk run of this session, no panic, no
    mm_verify complaint, no leak, no hang unless the baseline allows one,
    and at least the baseline's pass count."""
    base = {(r[0], r[1]): r[2:] for r in baseline}
    lines = []
    for prog in progs:
        for k in ZPK:
            run = runs[(prog, k)]
            if run.state == "no log":
                continue
            b = base.get((prog, k), ["0"])
            want, may_hang = int(b[0]), "hang" in b[1:]
            got = counts(run)[0]
            ok_end = run.state.startswith("exit") or \
                run.state.startswith("signal") or \
                (run.state == "hung" and may_hang)
            lines.append(tap(ok_end, "[%s] %s ended: %s" % (k, prog,
                                                           run.state)))
            lines.append(tap(not run.verify, "[%s] %s: no mm_verify "
                             "complaint" % (k, prog), run.verify[:1]))
            if run.leak is not None:
                lines.append(tap(run.leak, "[%s] %s: no page leak" %
                                 (k, prog)))
            lines.append(tap(got >= want, "[%s] %s: %d passed, baseline %d"
                             % (k, prog, got, want)))
    return lines


def tap(ok, what, why=None):
    return ("ok - " if ok else "not ok - ") + what + \
        (" # " + why[0] if why and not ok else "")


def write_baseline(path, runs, progs):
    old = {(r[0], r[1]): r for r in read_table(path, 4)}
    head = [ln for ln in open(path) if ln.startswith("#")] \
        if os.path.exists(path) else []
    rows = []
    for prog in progs:
        for k in ZPK:
            run = runs[(prog, k)]
            if run.state == "no log":
                if (prog, k) in old:
                    rows.append("\t".join(old[(prog, k)]))
                continue
            rows.append("%s\t%s\t%d%s" % (prog, k, counts(run)[0],
                                           "\thang" if run.state == "hung"
                                           else ""))
    with open(path, "w") as f:
        f.write("".join(head) + "\n".join(rows) + "\n")


def main():
    out_dir, plist, excused_path, base_path, source, linux = sys.argv[1:7]
    progs, left_out = [], []
    for row in read_table(plist, 5):
        if row[1] == "-":
            left_out.append((row[0], row[-1].lstrip("- ")))
        else:
            progs.append(row[0])
    runs = {}
    for prog in progs:
        for k in KERNELS:
            runs[(prog, k)] = parse_log(
                os.path.join(out_dir, "runs", k, prog + ".log"), prog)
    names = syscall_names(os.path.join(out_dir, "src"))
    for run in runs.values():
        for n in run.enosys:
            if run.enosys[n] == "unknown to zpk" and n in names:
                run.enosys[n] = names[n]
    listed = progs  # the baseline keeps the rows of those not run
    progs = [p for p in progs
             if any(runs[(p, k)].state != "no log" for k in KERNELS)]
    text = "\n".join(report(runs, progs, left_out, read_excused(excused_path),
                            (source, linux or "Linux 6.1"))) + "\n"
    with open(os.path.join(out_dir, "report.md"), "w") as f:
        f.write(text)
    # On the terminal, the excused cases by program and reason only.
    part = text.split("## Excused")
    print(part[0] + "## Excused" + re.sub(r"\n    - [^\n]*", "", part[1]))
    if os.environ.get("KSELFTEST_UPDATE_BASELINE") == "1":
        write_baseline(base_path, runs, listed)
        print("kselftest: wrote %s" % base_path)
        return 0
    lines = checks(runs, progs, read_table(base_path, 4))
    print("\n".join(lines))
    bad = sum(ln.startswith("not ok") for ln in lines)
    print("kselftest: %d passed, %d failed" % (len(lines) - bad, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
