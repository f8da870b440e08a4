#!/usr/bin/env python3
"""scripts/lab.py — zpk's course labs (docs/labs.md).

  lab.py list                      one line per lab, in labs/ORDER
  lab.py make LAB [DEST]           the student tree for LAB (a git repository)
  lab.py grade LAB [-t NAME ...]   run LAB's graded tests here, print Score;
                                   writes results.json (Gradescope's format)
  lab.py gradescope LAB [ZIP]      Gradescope's autograder zip for LAB
  lab.py refresh [LAB ...]         rewrites labs/LAB/mutants against the
                                   sources as they are now (after a change
                                   near a block), or says which cannot be
  lab.py check [LAB ...]           CI: for each lab, the student tree holds
                                   no answer, its skeleton grades below the
                                   maximum without a hang, the tree with the
                                   lab solved grades the maximum, and every
                                   mutant of labs/LAB/mutants is caught

A lab's code is marked in the kernel's own sources:

    /* LAB(name) BEGIN task N: what to write */
    ... the solution ...
    /* LAB(name) END: stub statements */

or, for a stub of several lines, an END comment that goes on:

    /* LAB(name) END:
     * stub line
     * stub line
     */

and in docs, <!-- LAB(name) BEGIN --> ... <!-- LAB(name) END: text -->.
labs/ORDER is the order a course takes them in: a student tree holds the
labs before its own solved, and its own and every later lab stubbed.
labs/NAME/grade lists the tests: "points task kind target [parameters]",
kind host (BINARY:TEST of tests/host), ktest (SUITE.TEST), user (a test
of /tests/runner) or c2c (MODE:T, zpbench --c2c --MODE T under the c2c
plugin, which passes when the window's shared writes per fault are at
most max=X). smp=N boots N CPUs (a c2c test: T)."""
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARK = re.compile(r"^(\s*)/\* LAB\(([\w-]+)\) (BEGIN|END)(?: task (\d+))?:?"
                  r"[ \t]*(.*?)[ \t]*(\*/)?[ \t]*$")
DOCMARK = re.compile(r"^()<!-- LAB\(([\w-]+)\) (BEGIN|END)(?: task (\d+))?:?"
                     r"[ \t]*(.*?)[ \t]*(-->)[ \t]*$")
SOURCES = (".c", ".h", ".asm", ".inc")
DOCS = (".md",)
# Never in a student tree: what the course staff keeps.
STAFF_ONLY = ("INSTRUCTOR.md", "mutants")
# A timeout per graded user test (the runner kills it and goes on), times
# TIMEOUT_SCALE on a loaded machine (qemu.sh scales the boot's as well).
USER_TEST_TIMEOUT = 60
# A mutant's tests pass in a second or two when they pass: one that hangs
# is caught, and need not be waited for as long.
MUTANT_TEST_TIMEOUT = 15


def scale():
    try:
        return max(1, int(os.environ.get("TIMEOUT_SCALE", "1")))
    except ValueError:
        return 1


def positions(top=TOP):
    """labs/ORDER as a list of positions, each a list of labs: the labs on
    one line are alternatives (a warm-up and a lab of the same mechanism
    written whole), of which a course assigns one."""
    out = []
    with open(os.path.join(top, "labs", "ORDER")) as f:
        for line in f:
            names = line.split("#", 1)[0].split()
            if names:
                out.append(names)
    return out


def order(top=TOP):
    """Every lab, in the order a course takes them."""
    return [n for pos in positions(top) for n in pos]


def labs(top=TOP):
    return order(top)


def position(lab, top=TOP):
    for i, pos in enumerate(positions(top)):
        if lab in pos:
            return i
    sys.exit("lab.py: no lab %r (make lab-list)" % lab)


def before(lab, top=TOP):
    """The labs solved in lab's tree: those of the positions before its
    own, and its alternatives (whose blocks hold or sit beside lab's)."""
    k = position(lab, top)
    pos = positions(top)
    return [n for p in pos[:k] for n in p] + [n for n in pos[k] if n != lab]


def later(lab, top=TOP):
    """The labs whose answers lab's tree must not hold: lab's own, and
    those of the positions after it."""
    k = position(lab, top)
    return [lab] + [n for p in positions(top)[k + 1:] for n in p]


def title(name, top=TOP):
    path = os.path.join(top, "labs", name, "README.md")
    if not os.path.exists(path):	# a student tree holds its own lab only
        return "(not in this tree)"
    with open(path) as f:
        return f.readline().lstrip("# ").strip()


# ---- skeletons -----------------------------------------------------------

def blocks(text, path, doc=False):
    """Splits text into plain lines and LAB blocks: a list whose items are
    a line (str) or a block, a dict (lab, task, hint, indent, body, stub)
    whose body is such a list again: a block may hold another lab's
    blocks (a warm-up's inside the whole mechanism's)."""
    mark = DOCMARK if doc else MARK
    root, stack, lines, i = [], [], text.split("\n"), 0
    while i < len(lines):
        line, i = lines[i], i + 1
        m = mark.match(line)
        if not m:
            (stack[-1]["body"] if stack else root).append(line)
            continue
        indent, name, what, task, words, closed = m.groups()
        if what == "BEGIN":
            if any(b["lab"] == name for b in stack):
                sys.exit("%s:%d: LAB(%s) block inside its own" %
                         (path, i, name))
            b = dict(lab=name, task=task, hint=words, indent=indent,
                     body=[], stub=[])
            (stack[-1]["body"] if stack else root).append(b)
            stack.append(b)
            continue
        if not stack or stack[-1]["lab"] != name:
            sys.exit("%s:%d: LAB(%s) END without its BEGIN" % (path, i, name))
        b = stack.pop()
        b["stub"] = [words] if words else []
        if not closed:		# the stub goes on: " * line" until " */"
            while i < len(lines) and not re.match(r"^\s*\*/\s*$", lines[i]):
                s = lines[i].lstrip()
                if not s.startswith("*"):
                    sys.exit("%s:%d: a stub's line must start with '*'"
                             % (path, i + 1))
                s = s[1:]
                b["stub"].append(s[1:] if s[:1] == " " else s)
                i += 1
            i += 1
    if stack:
        sys.exit("%s: LAB(%s) BEGIN without its END" % (path, stack[-1]["lab"]))
    return root


def lines_of(items):
    """Every line of a body, nested blocks' bodies included."""
    for b in items:
        if isinstance(b, str):
            yield b
        else:
            yield from lines_of(b["body"])


def emit(items, lab, solved, doc, out, found):
    for b in items:
        if isinstance(b, str):
            out.append(b)
        elif b["lab"] in solved:
            emit(b["body"], lab, solved, doc, out, found)
        elif doc:
            found[b["lab"]] = found.get(b["lab"], 0) + 1
            out.extend(b["stub"])
        else:
            found[b["lab"]] = found.get(b["lab"], 0) + 1
            ind = b["indent"]
            note = "" if b["lab"] == lab else ", a later lab"
            out.append("%s/* TODO(%s, task %s): %s (LAB.md%s) */"
                       % (ind, b["lab"], b["task"], b["hint"], note))
            out.extend(ind + s if s else "" for s in b["stub"])


def strip(text, lab, path, solved=(), doc=False):
    """text as lab's student tree has it: the blocks of solved labs as
    they are, every other lab's block its stub (and what it holds gone),
    the markers gone. Returns (text, number of lab's blocks stubbed)."""
    out, found = [], {}
    emit(blocks(text, path, doc), lab, solved, doc, out, found)
    return "\n".join(out), found.get(lab, 0)


def tracked(top=TOP):
    out = subprocess.run(["git", "-C", top, "ls-files", "-z"], check=True,
                         capture_output=True, text=True).stdout
    return [p for p in out.split("\0") if p and os.path.isfile(
        os.path.join(top, p))]


def in_student_tree(rel, lab):
    if not rel.startswith("labs/") or rel == "labs/ORDER":
        return True
    parts = rel.split("/")
    return (len(parts) > 2 and parts[1] == lab and
            parts[2] not in STAFF_ONLY)


def questions(lab, top=TOP):
    """The handout's questions, as the answers file's template."""
    with open(os.path.join(top, "labs", lab, "README.md")) as f:
        text = f.read()
    m = re.search(r"^## Questions.*?\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    out = ["answers-%s.txt: your answers to LAB.md's questions. Write"
           % lab, "below each one; keep the numbers.", ""]
    for q in re.findall(r"^(\d+\.\s.*?)(?=^\d+\.\s|\Z)",
                        m.group(1) if m else "", re.M | re.S):
        out += [" ".join(q.split()), "", "", ""]
    return "\n".join(out)


def write_tree(lab, dest, solved, src=TOP):
    """The files of lab's tree, with solved's blocks solved, into dest.
    A file that comes out as it is in src keeps src's times, so that a
    copied build directory recompiles only what differs."""
    count = 0
    for rel in tracked(src):
        if not in_student_tree(rel, lab):
            continue
        s, d = os.path.join(src, rel), os.path.join(dest, rel)
        os.makedirs(os.path.dirname(d), exist_ok=True)
        if rel.endswith(SOURCES + DOCS):
            with open(s) as f:
                old = f.read()
            text, n = strip(old, lab, rel, solved, rel.endswith(DOCS))
            count += n if rel.endswith(SOURCES) else 0
            if os.path.exists(d):
                with open(d) as f:
                    if f.read() == text:
                        continue
            with open(d, "w") as f:
                f.write(text)
            if text == old:
                shutil.copystat(s, d)
            else:
                shutil.copymode(s, d)
        else:
            shutil.copy2(s, d)
    return count


def this_tree(lab):
    """LAB.md's last section: where the lab sits in the chain."""
    pos = positions()
    k = position(lab)
    done = [n for p in pos[:k] for n in p]
    alts = [n for n in pos[k] if n != lab]
    after = [n for p in pos[k + 1:] for n in p]
    text = ["The labs in the order a course takes them: %s. Your blocks "
            "are the `TODO(%s, task N)` comments in %s." %
            (", ".join(" or ".join(p) for p in pos), lab,
             ", ".join(block_files(lab)))]
    if done:
        text.append("The labs before this one (%s) are solved here."
                    % ", ".join(done))
    for alt in alts:
        if lab_size(lab) < lab_size(alt):
            text.append("%s, the same mechanism written whole, is solved "
                        "here around your blocks: a course assigns one of "
                        "the two." % alt)
        else:
            text.append("%s is the same mechanism as a warm-up, whose "
                        "blocks are inside yours: a course assigns one of "
                        "the two." % alt)
    if after:
        text.append("The later ones (%s) are stubs, marked `TODO(NAME, "
                    "task N): ... (LAB.md, a later lab)`: the kernel works "
                    "without them, more simply." % ", ".join(after))
    return "## This tree\n\n" + " ".join(text) + "\n"


def lab_size(lab):
    """The number of solution lines lab's blocks hold."""
    return sum(1 for _ in solution_lines().get(lab, ()))


def make(lab, dest, git=True, quiet=False):
    if lab not in labs():
        sys.exit("lab.py: no lab %r (make lab-list)" % lab)
    if os.path.exists(dest):
        shutil.rmtree(dest)
    n = write_tree(lab, dest, before(lab))
    if not n:
        sys.exit("lab.py: lab %s has no LAB(%s) blocks in the sources"
                 % (lab, lab))
    with open(os.path.join(TOP, "labs", lab, "README.md")) as f:
        handout = f.read()
    with open(os.path.join(dest, "LAB.md"), "w") as f:
        f.write(handout.rstrip("\n") + "\n\n" + this_tree(lab))
    with open(os.path.join(dest, "labs", "LAB"), "w") as f:
        f.write(lab + "\n")
    with open(os.path.join(dest, "answers-%s.txt" % lab), "w") as f:
        f.write(questions(lab))
    if git:
        g = ["git", "-C", dest]
        subprocess.run(g + ["init", "-q"], check=True)
        subprocess.run(g + ["add", "-A"], check=True)
        subprocess.run(g + ["-c", "user.name=zpk labs", "-c",
                            "user.email=labs@zpk.invalid", "commit", "-q",
                            "-m", "zpk lab %s: %s" % (lab, title(lab))],
                       check=True)
    if not quiet:
        print("lab %s: %d blocks to write, tree in %s (handout: LAB.md)"
              % (lab, n, dest))


# ---- answers that must not be in a student tree ----------------------------

def squeeze(s):
    return re.sub(r"\s+", "", s)


def solution_lines(top=TOP):
    """{lab: [(line, file)]}: the lines of each lab's solution blocks, the
    blocks they hold included, that say something (12 characters or
    more, not a comment)."""
    per = {}

    def collect(items, rel):
        for b in items:
            if isinstance(b, str):
                continue
            for line in lines_of(b["body"]):
                s = line.strip()
                if len(squeeze(s)) >= 12 and not s.startswith(
                        ("/*", "*", "//")):
                    per.setdefault(b["lab"], []).append((s, rel))
            collect(b["body"], rel)

    for rel in tracked(top):
        if rel.endswith(SOURCES):
            with open(os.path.join(top, rel)) as f:
                collect(blocks(f.read(), rel), rel)
    return per


def leaks(lab, dest):
    """The answers in lab's student tree at dest: solution lines of lab or
    of a later lab in any of its files, where the tree's own sources (the
    code outside the blocks, the labs solved there and the stubs) do not
    have the same line."""
    own = []
    texts = {}
    for root, dirs, files in os.walk(dest):
        dirs[:] = [d for d in dirs if d not in (".git", "build")]
        for name in files:
            path = os.path.join(root, name)
            try:
                with open(path) as f:
                    texts[path] = squeeze(f.read())
            except (UnicodeDecodeError, OSError):
                continue
            if name.endswith(SOURCES):
                own.append(texts[path])
    own = "\n".join(own)
    want = set(later(lab))
    wanted = [(s, rel, l) for l, lines in solution_lines().items()
              if l in want for s, rel in lines if squeeze(s) not in own]
    found = []
    for path, text in texts.items():
        for s, rel, l in wanted:
            if squeeze(s) in text:
                found.append("%s: LAB(%s)'s line from %s: %s"
                             % (os.path.relpath(path, dest), l, rel, s))
    return found


# ---- grading -------------------------------------------------------------

class Test:
    def __init__(self, points, task, kind, target, params):
        self.points, self.task, self.kind = int(points), int(task), kind
        qemu_opts = ("smp=", "max=", "mem=", "scratch=")
        opt = {p.split("=", 1)[0]: p.split("=", 1)[1] for p in params
               if p.startswith(qemu_opts)}
        self.expect = [p.split("=", 1)[1] for p in params
                       if p.startswith("expect=")]
        self.target = target
        self.params = [p for p in params
                       if not p.startswith(("expect=",) + qemu_opts)]
        # QEMU's CPUs and RAM, and a fresh scratch disk of that size
        # (tests/qemu/blk.sh's: the swap tests'), not kernel parameters;
        # a c2c test's ceiling.
        self.smp = int(opt.get("smp", target.split(":")[1]
                               if kind == "c2c" else 1))
        self.mem = opt.get("mem", "512M")
        self.scratch = opt.get("scratch", "")
        self.max = float(opt.get("max", 0))
        self.ok, self.why, self.secs, self.log = False, "not run", 0.0, ""
        self.timed_out = False
        self.note = ""		# a figure to show beside OK

    @property
    def name(self):
        p = [x.split("=", 1)[1] for x in self.params
             if x.startswith("zero_page=")]
        if self.smp > 1 and self.kind != "c2c":
            p.append("%d CPUs" % self.smp)
        return self.target + (" [%s]" % ", ".join(p) if p else "")


def read_grade(lab, top):
    tests = []
    with open(os.path.join(top, "labs", lab, "grade")) as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if words:
                tests.append(Test(words[0], words[1], words[2], words[3],
                                  words[4:]))
    return tests


# The kernel the user tests boot, and the one with the ktests linked in.
KERNEL_ELF = "build/zpk.elf"
KTEST_ELF = "build/zpk-test.elf"


def size_bytes(size):
    """ "8M" -> 8388608 (K, M, G suffixes, as QEMU's)."""
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(size[:-1]) * scale[size[-1]] if size[-1] in scale else \
        int(size)


def qemu(top, params, timeout, smp=1, elf=KERNEL_ELF, env=None, mem="512M",
         scratch=""):
    """Boots the tree's kernel elf with the initrd on smp CPUs and mem of
    RAM, with a fresh scratch disk of that size as /dev/vda if scratch
    says one; (console text, status)."""
    cmd = [os.path.join(top, "scripts/qemu.sh"), "--mem", mem, "--smp",
           str(smp), "--append", " ".join(params), "--timeout", str(timeout),
           "--initrd", os.path.join(top, "build/user/initrd.cpio")]
    with tempfile.TemporaryDirectory(prefix="zpk-grade-") as tmp:
        if scratch:
            img = os.path.join(tmp, "scratch.img")
            with open(img, "w") as f:
                f.write("ZPK-BLK-SCRATCH %d\n" % size_bytes(scratch))
            os.truncate(img, size_bytes(scratch))
            cmd += ["--disk", img]
        r = subprocess.run(cmd + [os.path.join(top, elf)], cwd=top,
                           capture_output=True, text=True, errors="replace",
                           env=dict(os.environ, **(env or {})))
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


# Console lines that fail the test they come in, whatever it reports.
FATAL = ("mm_verify", "BUG: sleeping function")


def run_ktests(top, params, tests):
    suites = sorted({t.target.split(".")[0] for t in tests})
    t0 = time.time()
    text, rc = qemu(top, ["ktest=" + ",".join(suites), "page_poison=1",
                          "loglevel=5"] + list(params), 120, tests[0].smp,
                    elf=KTEST_ELF)
    bad = ended_badly(text, rc)
    for t in tests:
        t.secs, t.log = time.time() - t0, text
        t.timed_out = rc in (124, 137)
        if re.search(r"^ok \d+ %s$" % re.escape(t.target), text, re.M):
            t.ok = True
            continue
        # KTAP: a case's diagnostics ("    # SUITE.TEST: file:line: ...")
        # come before its "not ok" line.
        m = re.search(r"^\s+# %s: (.*)$" % re.escape(t.target), text, re.M)
        first = m.group(1).strip() if m else ""
        t.why = first or bad or "ktest did not report"


def run_user(top, params, tests, limit=USER_TEST_TIMEOUT, bail=False):
    names = [t.target for t in tests]
    t0 = time.time()
    text, rc = qemu(top, ["init=/tests/runner", "mm_verify=warn",
                          "loglevel=7"] + list(params) +
                    ["--", "-T", str(scale()), "--timeout", str(limit)] +
                    ["--bail"] * bail + names, 120 + limit * len(names),
                    tests[0].smp, mem=tests[0].mem,
                    scratch=tests[0].scratch)
    bad = ended_badly(text, rc)
    result, why = {}, ""
    # The runner relays a test's TAP indented, then its result line, then
    # the leak check's: what came before a result line is that test's.
    for line in text.split("\n"):
        # An allocation that may sleep made under a spinlock (a fault
        # path's PTE lock: might_alloc) fails the test it shows in.
        if ("mm_verify:" in line or "zpk: BUG" in line or
                "BUG: sleeping function" in line):
            why = why if why.startswith(FATAL) else line.strip()
        elif line.startswith("    not ok") and not why:
            why = line.strip()
        m = re.match(r"^(not )?ok \d+ - (\S+) \((.*)\)$", line)
        if m:
            fails = bool(m.group(1)) or why.startswith(FATAL)
            result[m.group(2)] = [fails, why or m.group(3), m.group(3)]
            why = ""
        m = re.match(r"^not ok \d+ - (\S+): no page leak(.*)$", line)
        if m and m.group(1) in result:
            result[m.group(1)][0:2] = [True, "page leak" + m.group(2)]
    for t in tests:
        t.log = text
        r = result.get(t.target)
        if not r and bail and "\nBail out!" in text and not bad:
            continue		# after the first failure: "not run"
        if not r:
            t.why = bad or "the runner did not report it"
            t.timed_out = rc in (124, 137)
            t.secs = time.time() - t0
            continue
        fails, t.why, how = r
        t.timed_out = "timed out" in how
        if t.timed_out:
            t.why = "timed out after %d s: %s" % (limit * scale(), t.why)
        m = re.search(r"([\d.]+) s", how)
        t.secs = float(m.group(1)) if m else 0.0
        missing = [e for e in t.expect if not re.search(e, text)]
        if not fails and missing:
            fails, t.why = True, "the console lacks /%s/" % missing[0]
        t.ok = not fails


# A c2c test's workload: T workers each read-fault C2C_PAGES fresh pages
# C2C_ROUNDS times, in one window of the plugin (10 to 20 s under TCG).
C2C_PAGES, C2C_ROUNDS = 128, 2
C2C_SO = "build/c2c.so"


def c2c_report_module():
    """scripts/c2c-report.py, which names a report's lines."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "c2c_report", os.path.join(TOP, "scripts", "c2c-report.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run_c2c(top, params, tests):
    """One boot per test: zpbench --c2c under the c2c plugin, -icount and
    one TCG thread (the lockstep replay: the figures repeat), as make c2c
    boots it (scripts/c2c.sh); the window's shared writes per fault."""
    for t in tests:
        mode, nt = t.target.split(":")
        t0 = time.time()
        out = tempfile.mkdtemp(prefix="zpk-c2c-")
        report = os.path.join(out, "c2c.txt")
        env = {"QEMU_ACCEL": "tcg,thread=single",
               "QEMU_EXTRA": "-icount shift=0,sleep=off -plugin %s,out=%s,"
                             "top=5" % (os.path.join(top, C2C_SO), report)}
        text, rc = qemu(top, ["init=/bin/zpbench"] + list(params) +
                        ["--", "--c2c", "--" + mode, nt, "--smp-pages",
                         str(C2C_PAGES), "--smp-rounds", str(C2C_ROUNDS)],
                        120, t.smp, env=env)
        t.secs, t.log = time.time() - t0, text
        t.timed_out = rc in (124, 137)
        try:
            with open(report) as f:
                t.log += "\n" + f.read()
            t.ok, t.why = c2c_verdict(t, report, text, top)
            t.note = t.why if t.ok else ""
        except (OSError, ValueError, KeyError, IndexError) as e:
            t.why = ended_badly(text, rc) or "no c2c report (%s)" % e
        finally:
            shutil.rmtree(out, ignore_errors=True)
        bad = ended_badly(text, rc)
        if bad:		# a window that closed before a panic is no pass
            t.ok, t.why, t.note = False, bad, ""


def c2c_verdict(t, report, text, top):
    """(ok, why): the first window's shared writes per fault against
    t.max, and its top line named, as c2c-report.py names it."""
    m = re.search(r"smp\.\w+\.\d+\.faults=(\d+)", text)
    if not m or not int(m.group(1)):
        return False, "zpbench reported no faults"
    faults = int(m.group(1))
    mod = c2c_report_module()
    log = os.path.join(os.path.dirname(report), "console.log")
    with open(log, "w") as f:
        f.write(text)
    windows, _ = mod.named(report, log, mod.Symbols(
        os.path.join(top, KERNEL_ELF)))
    if not windows:
        return False, "the plugin saw no window"
    totals, lines = windows[0]
    per = totals.get("shared_writes", 0) / faults
    fig = "%.3f shared writes per fault (%d faults; at most %g)" % (
        per, faults, t.max)
    if per <= t.max:
        return True, fig
    top_line = ""
    if lines:
        ln = lines[0]
        fns = ", ".join("%s %d" % fw for fw in ln["writers"][:3])
        top_line = ("; top line %s: %.3f writes per fault from vCPUs %s "
                    "[%s]" % (ln["name"], ln["writes"] / faults, " ".join(
                        "%d:%d" % c for c in sorted(ln["cpus"].items())),
                              fns))
    return False, fig + top_line


def run_tests(top, tests, build=True, limit=USER_TEST_TIMEOUT,
              first_failure=False):
    groups = {}
    for t in tests:
        key = (t.kind, t.target.split(":")[0] if t.kind == "host" else
               t.target if t.kind == "c2c" else "", tuple(t.params), t.smp,
               t.mem, t.scratch)
        groups.setdefault(key, []).append(t)
    if build:
        # Only what the tests run: a mutant's host tests would compile
        # its file again under AddressSanitizer for nothing.
        kinds = {t.kind for t in tests}
        targets = ([KERNEL_ELF] + [KTEST_ELF] * ("ktest" in kinds) +
                   ["initrd"] + ["host-tests"] * ("host" in kinds) +
                   [C2C_SO] * ("c2c" in kinds))
        r = subprocess.run(["make", "-s", "-j2", "-C", top] + targets,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True)
        if r.returncode:
            sys.stderr.write(r.stderr)
            err = [l for l in r.stderr.split("\n") if "error" in l]
            for t in tests:
                t.why = "the kernel does not build" + (
                    ": " + err[0].strip() if err else "")
                t.log = r.stderr
            return
    def run_group(key, ts):
        kind, binary, params = key[:3]
        if kind == "host":
            run_host(top, binary, ts)
        elif kind == "ktest":
            run_ktests(top, params, ts)
        elif kind == "c2c":
            run_c2c(top, params, ts)
        else:
            run_user(top, params, ts, limit, first_failure)

    if first_failure:
        # lab-check's mutants: one boot at a time, in the grade file's
        # order, until one fails (the rest stay "not run").
        for key, ts in groups.items():
            run_group(key, ts)
            if not all(t.ok for t in ts):
                break
        return
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        for j in [ex.submit(run_group, k, ts) for k, ts in groups.items()]:
            j.result()


def results_json(lab, tests, secs):
    """Gradescope's results.json: one entry per graded test."""
    return {
        "execution_time": round(secs),
        "visibility": "visible",
        "stdout_visibility": "visible",
        "tests": [{
            "name": "task %d: %s" % (t.task, t.name),
            "number": str(i + 1),
            "score": t.points if t.ok else 0,
            "max_score": t.points,
            "status": "passed" if t.ok else "failed",
            "output": ("OK (%.1f s)" % t.secs + (": " + t.note if t.note
                                                 else "") if t.ok else
                       "FAIL: %s" % t.why),
            "visibility": "visible",
        } for i, t in enumerate(tests)],
    }


def grade(lab, top=TOP, only=(), quiet=False, tasks=None, build=True,
          limit=USER_TEST_TIMEOUT, first_failure=False):
    tests = read_grade(lab, top)
    if only:
        tests = [t for t in tests if any(o in t.name for o in only)]
    if tasks is not None:
        tests = [t for t in tests if t.task in tasks]
    t0 = time.time()
    run_tests(top, tests, build, limit, first_failure)
    secs = time.time() - t0
    logdir = os.path.join(top, "build/grade", lab)
    os.makedirs(logdir, exist_ok=True)
    score = total = 0
    for t in tests:
        total += t.points
        if t.ok:
            score += t.points
            line = "OK (%.1f s)" % t.secs + (": " + t.note if t.note
                                              else "")
        else:
            # gradelib's save(): the console of every failed test.
            log = os.path.join(logdir, re.sub(r"[^\w.-]+", "_", t.name) +
                               ".log")
            with open(log, "w") as f:
                f.write(t.log)
            line = "FAIL: %s (log: %s)" % (t.why, os.path.relpath(log, top))
        if not quiet:
            print("%-40s %3d  %s" % ("task %d %s:" % (t.task, t.name),
                                     t.points, line))
    res = results_json(lab, tests, secs)
    with open(os.path.join(logdir, "results.json"), "w") as f:
        json.dump(res, f, indent=1)
    out = os.environ.get("GRADESCOPE_RESULTS")
    if out:
        with open(out, "w") as f:
            json.dump(res, f, indent=1)
    if not quiet:
        print("Score: %d/%d (%.0f s)" % (score, total, secs))
    return score, total, tests


# ---- the CI check ----------------------------------------------------------

def build_tree(dest, lab, say):
    """Builds a tree made by write_tree, from a copy of this tree's build
    directory: only the files the lab's blocks changed recompile."""
    shutil.copytree(os.path.join(TOP, "build"), os.path.join(dest, "build"),
                    symlinks=True, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("labs", "grade", "debug",
                                                  "iso*", "test-logs",
                                                  "kselftest", "linux",
                                                  "fuzz", "bench*"))
    r = subprocess.run(["make", "-s", "-j2", "-C", dest, "build/zpk.elf",
                        "host-tests"], capture_output=True, text=True)
    if r.returncode:
        say("%s: the tree does not build:\n%s" % (lab, r.stdout + r.stderr))
    return r.returncode == 0


def clang_builds(dest, lab, say):
    """Students' compilers vary: the files that hold any lab's blocks, as
    the skeleton has them, must build with clang -Werror too (clang warns
    where gcc does not, e.g. of an unused static inline function)."""
    objs = sorted({"build/clang/k/%s.o" % rel[:-2] for l in labs()
                   for rel in block_files(l) if rel.endswith(".c")})
    r = subprocess.run(["make", "-s", "-j2", "-C", dest, "B=build/clang",
                        "CC=clang"] + objs, capture_output=True, text=True)
    if r.returncode:
        err = [l for l in (r.stdout + r.stderr).split("\n") if "error" in l]
        say("%s: the skeleton does not build with clang: %s"
            % (lab, err[0] if err else (r.stdout + r.stderr)[-400:]))
    return r.returncode == 0


def mutants(lab):
    d = os.path.join(TOP, "labs", lab, "mutants")
    if not os.path.isdir(d):
        return []
    out = []
    for name in sorted(os.listdir(d)):
        if name.endswith(".patch"):
            with open(os.path.join(d, name)) as f:
                head = f.readline()
            m = re.match(r"task (\d+): (.*)", head)
            if not m:
                sys.exit("%s: the first line must be 'task N: what'" % name)
            out.append((os.path.join(d, name), int(m.group(1)),
                        m.group(2).strip()))
    return out


def check_mutant(lab, dest, patch, task, solved):
    """Applies patch (against this tree, with its markers) to a copy of
    the files it names, writes them as the solved student tree has them
    into dest, grades task's tests there, and puts dest back. Returns the
    failing tests."""
    with open(patch) as f:
        files = sorted(set(re.findall(r"^\+\+\+ b/(\S+)", f.read(), re.M)))
    tmp = tempfile.mkdtemp(prefix="zpk-mutant-")
    saved = {}
    try:
        for rel in files:
            os.makedirs(os.path.dirname(os.path.join(tmp, rel)),
                        exist_ok=True)
            shutil.copy2(os.path.join(TOP, rel), os.path.join(tmp, rel))
        r = subprocess.run(["patch", "-s", "-F0", "-p1", "-d", tmp, "-i",
                            patch], capture_output=True, text=True)
        if r.returncode:	# fuzz could apply it in the wrong place
            return None, ("the patch does not apply exactly (lab.py "
                          "refresh): " + r.stdout + r.stderr)
        for rel in files:
            with open(os.path.join(dest, rel)) as f:
                saved[rel] = f.read()
            with open(os.path.join(tmp, rel)) as f:
                text, _ = strip(f.read(), lab, rel, solved)
            with open(os.path.join(dest, rel), "w") as f:
                f.write(text)
        # Its own task's tests first; a wrong solution that shows only in
        # another task's tests (a refcount bug seen under special) is
        # caught there.
        # Each stops at its first failing boot: one catch is the proof.
        score, total, tests = grade(lab, dest, quiet=True, tasks={task},
                                    limit=MUTANT_TEST_TIMEOUT,
                                    first_failure=True)
        failed = [t for t in tests if not t.ok and t.why != "not run"]
        if not failed:
            others = {t.task for t in read_grade(lab, dest)} - {task}
            score, total, tests = grade(lab, dest, quiet=True,
                                        tasks=others, build=False,
                                        limit=MUTANT_TEST_TIMEOUT,
                                        first_failure=True)
            failed = [t for t in tests if not t.ok and t.why != "not run"]
        return failed, ""
    finally:
        for rel, text in saved.items():
            with open(os.path.join(dest, rel), "w") as f:
                f.write(text)
        shutil.rmtree(tmp, ignore_errors=True)


def check_lab(lab):
    """The CI check of one lab: (number of problems, report lines)."""
    bad, lines, t0, took = 0, [], time.time(), ""
    say = lines.append
    # 0. The full tree, built already, scores the maximum.
    def secs():
        nonlocal t1
        t, t1 = t1, time.time()
        return " (%.0f s)" % (t1 - t)

    t1 = t0
    score, total, _ = grade(lab, quiet=True, build=False)
    say("%s: the full tree scores %d/%d%s" % (lab, score, total, secs()))
    bad += score != total
    dest = tempfile.mkdtemp(prefix="zpk-lab-%s-" % lab)
    try:
        # 1. The student tree: no answer in it, a skeleton that fails
        # each task cleanly, and the rest of the kernel (task 0) working.
        make(lab, dest, git=False, quiet=True)
        found = leaks(lab, dest)
        for l in found:
            say("    answer in the student tree: " + l)
        if found:
            bad += 1
        if not build_tree(dest, lab, say):
            return bad + 1, lines
        bad += not clang_builds(dest, lab, say)
        say("%s: the student tree builds, with gcc and clang%s"
            % (lab, secs()))
        score, total, tests = grade(lab, dest, quiet=True)
        for t in tests:
            if not t.ok:
                say("    task %d %s: %s" % (t.task, t.name, t.why))
        tasks = {t.task for t in tests} - {0}
        failing = {t.task for t in tests if not t.ok}
        slow = [t for t in tests if t.timed_out or "hung" in t.why or
                "panic" in t.why]
        say("%s: the skeleton scores %d/%d; tasks failing: %s of %s%s"
              % (lab, score, total, sorted(failing - {0}), sorted(tasks),
                 secs()))
        problems = (["it scores the maximum"] * (score >= total) +
                    ["the maximum is %d, not 100" % total] * (total != 100) +
                    ["task 0 (the rest of the kernel) fails"] *
                    (0 in failing) +
                    ["no test fails task %s" % sorted(tasks - failing)] *
                    bool(tasks - failing) +
                    ["%s: %s" % (t.name, t.why) for t in slow])
        for p in problems:
            say("%s: skeleton problem: %s" % (lab, p))
        bad += bool(problems)
        # 2. The same tree with this lab solved: full marks.
        solved = before(lab) + [lab]
        write_tree(lab, dest, solved)
        score, total, tests = grade(lab, dest, quiet=True)
        for t in tests:
            if not t.ok:
                say("    task %d %s: %s" % (t.task, t.name, t.why))
        say("%s: solved in the student tree, it scores %d/%d%s"
              % (lab, score, total, secs()))
        bad += score != total
        # 3. Every mutant loses points in its own task.
        t3 = time.time()
        for patch, task, what in mutants(lab):
            t1 = time.time()
            failed, why = check_mutant(lab, dest, patch, task, solved)
            name = os.path.basename(patch)
            if failed and failed[0].why.startswith("the kernel does not"):
                failed, why = [], "(it does not build: %s)" % failed[0].why
            if failed:
                other = ("" if failed[0].task == task else
                         " (a task %d test)" % failed[0].task)
                say("%s: mutant %s (task %d, %s): caught by %s%s%s: %s"
                      % (lab, name, task, what, failed[0].name, other,
                         secs(), failed[0].why))
            else:
                say("%s: mutant %s (task %d, %s): NOT CAUGHT %s"
                      % (lab, name, task, what, why))
                bad += 1
        few = [t for t in sorted(tasks) if
               sum(1 for _, k, _ in mutants(lab) if k == t) < 3]
        if few:
            say("%s: tasks with fewer than 3 mutants: %s" % (lab, few))
            bad += 1
        took = " (%d mutants in %.0f s)" % (len(mutants(lab)),
                                            time.time() - t3)
    finally:
        shutil.rmtree(dest, ignore_errors=True)
    say("%s: checked in %.0f s%s" % (lab, time.time() - t0, took))
    return bad, lines


def check(names):
    """Checks the labs, LAB_JOBS at a time (default 2: each lab's builds
    and boots mostly keep one core busy), each lab's report in one piece."""
    bad = 0
    jobs = int(os.environ.get("LAB_JOBS", "2"))
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        for n, lines in ex.map(check_lab, names or labs()):
            print("\n".join(lines), flush=True)
            bad += n
    print("lab check: %s" % ("every lab is real" if not bad else
                             "%d problem%s" % (bad, "s" if bad > 1 else "")))
    return 1 if bad else 0


def block_files(lab, top=TOP):
    """The source files that hold lab's blocks: what a student submits."""
    out = []
    for rel in tracked(top):
        if rel.endswith(SOURCES):
            with open(os.path.join(top, rel)) as f:
                if "LAB(%s) BEGIN" % lab in f.read():
                    out.append(rel)
    return out


def gradescope(lab, zpath):
    """Gradescope's autograder zip: its two scripts, the student tree
    (zpk/) and the files a submission may change (files.txt)."""
    import zipfile
    stage = tempfile.mkdtemp(prefix="zpk-gradescope-")
    try:
        make(lab, os.path.join(stage, "zpk"), git=False)
        with open(os.path.join(stage, "files.txt"), "w") as f:
            f.write("".join(rel + "\n" for rel in block_files(lab)))
        for name in ("setup.sh", "run_autograder"):
            shutil.copy2(os.path.join(TOP, "labs/gradescope", name),
                         os.path.join(stage, name))
        os.makedirs(os.path.dirname(zpath), exist_ok=True)
        with zipfile.ZipFile(zpath, "w", zipfile.ZIP_DEFLATED) as z:
            for root, dirs, files in os.walk(stage):
                dirs.sort()
                for name in sorted(files):
                    path = os.path.join(root, name)
                    info = zipfile.ZipInfo.from_file(
                        path, os.path.relpath(path, stage))
                    with open(path, "rb") as f:
                        z.writestr(info, f.read(), zipfile.ZIP_DEFLATED)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    print("gradescope: %s (upload it as the autograder of lab %s)"
          % (zpath, lab))


# ---- mutants kept current ------------------------------------------------

def git_show(rev, rel):
    r = subprocess.run(["git", "-C", TOP, "show", "%s:%s" % (rev, rel)],
                       capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def diff_text(rel, old, new):
    with tempfile.TemporaryDirectory() as d:
        a, b = os.path.join(d, "a"), os.path.join(d, "b")
        with open(a, "w") as f:
            f.write(old)
        with open(b, "w") as f:
            f.write(new)
        return subprocess.run(["diff", "-u", "--label", "a/" + rel,
                               "--label", "b/" + rel, a, b],
                              capture_output=True, text=True).stdout


def file_part(patch, rel):
    """The part of patch's text that changes rel (a mutant may change
    several files)."""
    with open(patch) as f:
        parts = re.split(r"^(?=--- a/)", f.read(), flags=re.M)
    return "".join(p for p in parts
                   if re.match(r"--- a/%s\n" % re.escape(rel), p))


def mutated(patch, rel, base):
    """base with patch's change to rel applied, or None."""
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
        with open(os.path.join(d, rel), "w") as f:
            f.write(base)
        with open(os.path.join(d, "part.patch"), "w") as f:
            f.write(file_part(patch, rel))
        r = subprocess.run(["patch", "-s", "-F0", "-p1", "-d", d, "-i",
                            os.path.join(d, "part.patch")],
                           capture_output=True, text=True)
        if r.returncode:
            return None
        with open(os.path.join(d, rel)) as f:
            return f.read()


def refresh_one(patch):
    """Rewrites patch against the current sources: the change it made to
    the files as they were when the patch was last committed, merged
    into the files as they are (git merge-file). Returns a problem, or
    "" (rewritten or already current)."""
    with open(patch) as f:
        text = f.read()
    head = text.split("\n", 1)[0]
    files = sorted(set(re.findall(r"^\+\+\+ b/(\S+)", text, re.M)))
    rev = subprocess.run(["git", "-C", TOP, "log", "-1", "--format=%H",
                          "--", os.path.relpath(patch, TOP)],
                         capture_output=True, text=True).stdout.strip()
    out = [head]
    for rel in files:
        with open(os.path.join(TOP, rel)) as f:
            cur = f.read()
        # Against the file as it is (exact context, any offset), else as
        # it was when the patch was last committed, or is in HEAD.
        old, bad = cur, mutated(patch, rel, cur)
        for base in (rev, "HEAD"):
            if bad is None and base and git_show(base, rel) is not None:
                old = git_show(base, rel)
                bad = mutated(patch, rel, old)
        if bad is None:
            return "does not apply to %s as it is or was" % rel
        with tempfile.TemporaryDirectory() as d:
            paths = [os.path.join(d, n) for n in ("cur", "old", "bad")]
            for p, t in zip(paths, (cur, old, bad)):
                with open(p, "w") as f:
                    f.write(t)
            r = subprocess.run(["git", "merge-file", "-p"] + paths,
                               capture_output=True, text=True)
        if r.returncode:
            return "its change to %s conflicts with the source's" % rel
        out.append(diff_text(rel, cur, r.stdout).rstrip("\n"))
    new = "\n".join(out) + "\n"
    if new != text:
        with open(patch, "w") as f:
            f.write(new)
    return ""


def refresh(names):
    bad = 0
    for lab in names or labs():
        for patch, _, _ in mutants(lab):
            why = refresh_one(patch)
            if why:
                bad += 1
                print("%s: %s" % (os.path.relpath(patch, TOP), why))
    print("refresh: %d mutant%s to rewrite by hand" % (bad, "" if bad == 1
                                                      else "s"))
    return 1 if bad else 0


def main(argv):
    if not argv or argv[0] not in ("list", "make", "grade", "check",
                                   "gradescope", "refresh"):
        sys.exit(__doc__)
    cmd, args = argv[0], argv[1:]
    if cmd == "list":
        for i, lab in enumerate(labs(), 1):
            print("%d. %-10s %s" % (i, lab, title(lab)))
    elif cmd == "make":
        if not args:
            sys.exit("usage: lab.py make LAB [DEST]")
        make(args[0], args[1] if len(args) > 1 else
             os.path.join(TOP, "build/labs", args[0]))
    elif cmd == "gradescope":
        if not args:
            sys.exit("usage: lab.py gradescope LAB [ZIP]")
        gradescope(args[0], args[1] if len(args) > 1 else os.path.join(
            TOP, "build", "gradescope-%s.zip" % args[0]))
    elif cmd == "grade":
        if not args:
            sys.exit("usage: lab.py grade LAB [-t NAME ...]")
        only = [a for a in args[1:] if a != "-t"]
        score, total, _ = grade(args[0], only=only)
        return 0 if score == total else 1
    elif cmd == "refresh":
        return refresh(args)
    else:
        return check(args)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
