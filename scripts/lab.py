#!/usr/bin/env python3
"""scripts/lab.py — zpk's course labs (docs/labs.md).

  lab.py list                      one line per lab
  lab.py make LAB [DEST]           the student tree for LAB (a git repository)
  lab.py grade LAB [-t NAME ...]   run LAB's graded tests here, print Score
  lab.py check [LAB ...]           CI: each skeleton builds, boots, grades
                                   below the maximum with every task failing,
                                   and this tree grades the maximum

A lab's code is marked in the kernel's own sources:

    /* LAB(name) BEGIN task N: what to write */
    ... the solution ...
    /* LAB(name) END: stub statements */

`make` replaces the block by a TODO comment and the stub; other labs' marker
lines are dropped and their solutions kept. labs/NAME/grade lists the tests:
"points task kind target [kernel parameters]", kind host (BINARY:TEST of
tests/host), ktest (SUITE.TEST) or user (a test of /tests/runner)."""
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARK = re.compile(r"^(\s*)/\* LAB\(([\w-]+)\) (BEGIN|END)(?: task (\d+))?:?"
                  r"\s*(.*?)\s*\*/\s*$")
SOURCES = (".c", ".h", ".asm", ".inc")


def labs(top=TOP):
    d = os.path.join(top, "labs")
    return sorted(n for n in os.listdir(d)
                  if os.path.isfile(os.path.join(d, n, "grade")))


def title(name, top=TOP):
    with open(os.path.join(top, "labs", name, "README.md")) as f:
        return f.readline().lstrip("# ").strip()


# ---- skeletons -----------------------------------------------------------

def strip(text, lab, path):
    """text with lab's blocks stubbed and every other marker line gone."""
    out, inside, found = [], None, 0
    for n, line in enumerate(text.split("\n"), 1):
        m = MARK.match(line)
        if not m:
            if inside is None or inside[0] != lab:
                out.append(line)
            continue
        indent, name, what, task, words = m.groups()
        if what == "BEGIN":
            if inside:
                sys.exit("%s:%d: LAB block inside another" % (path, n))
            inside = (name, indent, task, words)
            continue
        if not inside or inside[0] != name:
            sys.exit("%s:%d: LAB(%s) END without its BEGIN" % (path, n, name))
        if name == lab:
            found += 1
            _, bindent, btask, hint = inside
            out.append("%s/* TODO(%s, task %s): %s (LAB.md) */"
                       % (bindent, lab, btask, hint))
            if words:
                out.append(bindent + words)
        inside = None
    if inside:
        sys.exit("%s: LAB(%s) BEGIN without its END" % (path, inside[0]))
    return "\n".join(out), found


def tracked(top=TOP):
    out = subprocess.run(["git", "-C", top, "ls-files", "-z"], check=True,
                         capture_output=True, text=True).stdout
    return [p for p in out.split("\0") if p]


def make(lab, dest):
    if lab not in labs():
        sys.exit("lab.py: no lab %r (make lab-list)" % lab)
    if os.path.exists(dest):
        shutil.rmtree(dest)
    blocks = 0
    for rel in tracked():
        if rel.startswith("labs/") and not rel.startswith("labs/%s/" % lab):
            continue
        src, dst = os.path.join(TOP, rel), os.path.join(dest, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if rel.endswith(SOURCES):
            with open(src) as f:
                text, n = strip(f.read(), lab, rel)
            blocks += n
            with open(dst, "w") as f:
                f.write(text)
            shutil.copymode(src, dst)
        else:
            shutil.copy2(src, dst)
    if not blocks:
        sys.exit("lab.py: lab %s has no LAB(%s) blocks in the sources"
                 % (lab, lab))
    shutil.copy2(os.path.join(TOP, "labs", lab, "README.md"),
                 os.path.join(dest, "LAB.md"))
    with open(os.path.join(dest, "labs", "LAB"), "w") as f:
        f.write(lab + "\n")
    git = ["git", "-C", dest]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["-c", "user.name=zpk labs", "-c",
                          "user.email=labs@zpk.invalid", "commit", "-q", "-m",
                          "zpk lab %s: %s" % (lab, title(lab))], check=True)
    print("lab %s: %d blocks to write, tree in %s (handout: LAB.md)"
          % (lab, blocks, dest))


# ---- grading -------------------------------------------------------------

class Test:
    def __init__(self, points, task, kind, target, params):
        self.points, self.task, self.kind = int(points), int(task), kind
        self.expect = [p.split("=", 1)[1] for p in params
                       if p.startswith("expect=")]
        self.target = target
        self.params = [p for p in params if not p.startswith("expect=")]
        self.ok, self.why, self.secs, self.log = False, "not run", 0.0, ""

    @property
    def name(self):
        p = " ".join(x.split("=", 1)[1] for x in self.params
                     if x.startswith("zero_page="))
        return self.target + (" [%s]" % p if p else "")


def read_grade(lab, top):
    tests = []
    with open(os.path.join(top, "labs", lab, "grade")) as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if words:
                tests.append(Test(words[0], words[1], words[2], words[3],
                                  words[4:]))
    return tests


def qemu(top, params, timeout, extra=()):
    """Boots the tree's kernel with the initrd; (console text, status)."""
    cmd = [os.path.join(top, "scripts/qemu.sh"), "--mem", "512M", "--append",
           " ".join(params), "--timeout", str(timeout), "--initrd",
           os.path.join(top, "build/user/initrd.cpio"),
           os.path.join(top, "build/zpk.elf")] + list(extra)
    r = subprocess.run(cmd, cwd=top, capture_output=True, text=True,
                       errors="replace")
    return r.stdout.replace("\r", "") + r.stderr, r.returncode


def ended_badly(text, rc):
    if rc in (124, 137):
        return "the kernel hung (timeout)"
    if "Kernel panic" in text:
        m = re.search(r"Kernel panic - not syncing: (.*)", text)
        return "kernel panic: " + (m.group(1) if m else "?")
    return ""


def run_host(top, binary, tests):
    exe = os.path.join(top, "build/host", binary)
    t0 = time.time()
    env = dict(os.environ, CMOCKA_MESSAGE_OUTPUT="TAP")
    r = subprocess.run([exe], cwd=top, capture_output=True, text=True,
                       errors="replace", env=env)
    text = r.stdout + r.stderr
    for t in tests:
        want = t.target.split(":", 1)[1]
        t.secs, t.log = time.time() - t0, text
        if re.search(r"^ok \d+ - %s$" % re.escape(want), text, re.M):
            t.ok = True
        else:
            m = re.search(r"^not ok \d+ - %s.*$" % re.escape(want), text,
                          re.M)
            t.why = "host test failed" if m else "host test did not report"
            k = text.find(want)
            near = [l for l in text[max(k - 600, 0):k].split("\n")
                    if "error" in l.lower() or "BUG" in l]
            if near:
                t.why += ": " + near[-1].strip()


def run_ktests(top, params, tests):
    suites = sorted({t.target.split(".")[0] for t in tests})
    t0 = time.time()
    text, rc = qemu(top, ["ktest=" + ",".join(suites), "page_poison=1",
                          "loglevel=5"] + list(params), 120)
    bad = ended_badly(text, rc)
    for t in tests:
        t.secs, t.log = time.time() - t0, text
        if re.search(r"^ok \d+ %s$" % re.escape(t.target), text, re.M):
            t.ok = True
            continue
        m = re.search(r"^not ok \d+ %s\n((?:    # .*\n)*)" %
                      re.escape(t.target), text, re.M)
        first = m.group(1).split("\n")[0].strip("# ") if m else ""
        t.why = first or bad or "ktest did not report"


# A user test may hang in a skeleton (a broken fork shares memory that
# libc's locks live in): the runner kills it after this many seconds, so
# that it fails as one test and the boot goes on to the next.
USER_TEST_TIMEOUT = 60


def run_user(top, params, tests):
    names = [t.target for t in tests]
    t0 = time.time()
    text, rc = qemu(top, ["init=/tests/runner", "mm_verify=warn",
                          "loglevel=7"] + list(params) +
                    ["--", "--timeout", str(USER_TEST_TIMEOUT)] + names,
                    120 + USER_TEST_TIMEOUT * len(names))
    bad = ended_badly(text, rc)
    result, why = {}, ""
    # The runner relays a test's TAP indented, then its result line, then
    # the leak check's: what came before a result line is that test's.
    for line in text.split("\n"):
        if "mm_verify:" in line or "zpk: BUG" in line:
            why = why if why.startswith("mm_verify") else line.strip()
        elif line.startswith("    not ok") and not why:
            why = line.strip()
        m = re.match(r"^(not )?ok \d+ - (\S+) \((.*)\)$", line)
        if m:
            fails = bool(m.group(1)) or why.startswith("mm_verify")
            result[m.group(2)] = [fails, why or m.group(3), m.group(3)]
            why = ""
        m = re.match(r"^not ok \d+ - (\S+): no page leak(.*)$", line)
        if m and m.group(1) in result:
            result[m.group(1)][0:2] = [True, "page leak" + m.group(2)]
    for t in tests:
        t.log = text
        r = result.get(t.target)
        if not r:
            t.why = bad or "the runner did not report it"
            t.secs = time.time() - t0
            continue
        fails, t.why, how = r
        m = re.search(r"([\d.]+) s", how)
        t.secs = float(m.group(1)) if m else 0.0
        missing = [e for e in t.expect if not re.search(e, text)]
        if not fails and missing:
            fails, t.why = True, "the console lacks /%s/" % missing[0]
        t.ok = not fails


def grade(lab, top=TOP, only=(), quiet=False):
    tests = read_grade(lab, top)
    if only:
        tests = [t for t in tests if any(o in t.name for o in only)]
    groups = {}
    for t in tests:
        key = (t.kind, t.target.split(":")[0] if t.kind == "host" else "",
               tuple(t.params))
        groups.setdefault(key, []).append(t)
    subprocess.run(["make", "-s", "-C", top, "build/zpk.elf", "initrd",
                    "host-tests"], check=True, stdout=subprocess.DEVNULL)
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        jobs = []
        for (kind, binary, params), ts in groups.items():
            if kind == "host":
                jobs.append(ex.submit(run_host, top, binary, ts))
            elif kind == "ktest":
                jobs.append(ex.submit(run_ktests, top, params, ts))
            else:
                jobs.append(ex.submit(run_user, top, params, ts))
        for j in jobs:
            j.result()
    logdir = os.path.join(top, "build/grade", lab)
    os.makedirs(logdir, exist_ok=True)
    score = total = 0
    for t in tests:
        total += t.points
        if t.ok:
            score += t.points
            line = "OK (%.1f s)" % t.secs
        else:
            log = os.path.join(logdir, re.sub(r"[^\w.-]+", "_", t.name) +
                               ".log")
            with open(log, "w") as f:
                f.write(t.log)
            line = "FAIL: %s (log: %s)" % (t.why, os.path.relpath(log, top))
        if not quiet:
            print("%-40s %3d  %s" % ("task %d %s:" % (t.task, t.name),
                                     t.points, line))
    if not quiet:
        print("Score: %d/%d (%.0f s)" % (score, total, time.time() - t0))
    return score, total, tests


# ---- the CI check ----------------------------------------------------------

def check(names):
    bad = 0
    for lab in names or labs():
        score, total, _ = grade(lab, quiet=True)
        print("%s: the full tree scores %d/%d" % (lab, score, total))
        if score != total:
            bad += 1
        dest = tempfile.mkdtemp(prefix="zpk-lab-%s-" % lab)
        try:
            make(lab, dest)
            # The user programs do not change between trees: reuse them.
            shutil.copytree(os.path.join(TOP, "build/user"),
                            os.path.join(dest, "build/user"))
            r = subprocess.run(["make", "-s", "-C", dest, "build/zpk.elf",
                                "host-tests"], capture_output=True, text=True)
            if r.returncode:
                print("%s: the skeleton does not build:\n%s" %
                      (lab, r.stdout + r.stderr))
                bad += 1
                continue
            score, total, tests = grade(lab, dest, quiet=True)
            hung = [t for t in tests if "hung" in t.why or "panic" in t.why]
            # Task 0 is the rest of the kernel: it may pass or fail.
            tasks = {t.task for t in tests} - {0}
            failing = {t.task for t in tests if not t.ok} - {0}
            for t in tests:
                if not t.ok:
                    print("    task %d %s: %s" % (t.task, t.name, t.why))
            print("%s: the skeleton scores %d/%d; tasks failing: %s of %s%s"
                  % (lab, score, total, sorted(failing), sorted(tasks),
                     "; hang or panic: " + hung[0].why if hung else ""))
            if score >= total or failing != tasks or hung:
                bad += 1
        finally:
            shutil.rmtree(dest, ignore_errors=True)
    print("lab check: %s" % ("every lab is real" if not bad else
                             "%d problem%s" % (bad, "s" if bad > 1 else "")))
    return 1 if bad else 0


def main(argv):
    if not argv or argv[0] not in ("list", "make", "grade", "check"):
        sys.exit(__doc__)
    cmd, args = argv[0], argv[1:]
    if cmd == "list":
        for lab in labs():
            print("%-10s %s" % (lab, title(lab)))
    elif cmd == "make":
        if not args:
            sys.exit("usage: lab.py make LAB [DEST]")
        make(args[0], args[1] if len(args) > 1 else
             os.path.join(TOP, "build/labs", args[0]))
    elif cmd == "grade":
        if not args:
            sys.exit("usage: lab.py grade LAB [-t NAME ...]")
        only = [a for a in args[1:] if a != "-t"]
        score, total, _ = grade(args[0], only=only)
        return 0 if score == total else 1
    else:
        return check(args)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
