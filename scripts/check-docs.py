#!/usr/bin/env python3
"""scripts/check-docs.py — make test's check that the docs say what the
tree has (README.md, docs/*.md, labs/*/README.md).

  check-docs.py     TAP lines, then "N passed, N failed"; exit 1 on any
                    failure (make test's docs suite)

Every backticked name in the prose must exist:
  - `make X`: X is a target of the Makefile (`make -C DIR X`: DIR's);
  - a path (arch/..., mm/..., tests/..., or a bare file name like fault.c):
    a file or directory of the tree (NAME, PID, POLICY... and * match
    anything; build/ and absolute paths are made at run time, not checked);
  - an identifier (`do_wp_page`, `timer_tick()`, `struct mm_struct`,
    `-EFAULT`, `VM_UFFD_WP`): a word of the sources (C, asm, headers,
    scripts, the Makefile, gdb sessions, the user programs).
Names the docs cite from Linux (or from elsewhere) that zpk does not
have are listed, each with why, in scripts/docs-known.txt.

Indented code blocks are not prose (commands, output); two are checked
as figures instead:
  - docs/zero-page.md's gdb walk-through (scripts/gen-walkthrough.py):
    every "at FILE:LINE" frame names a function defined in FILE around
    LINE, and the source line gdb printed is FILE's line LINE;
  - docs/vm.md's fault-path diagram: every name in it is a function of
    the tree, and the walk-through's backtrace (do_page_fault down to
    do_anonymous_page) appears in it in the same order.
Single lower-case words without an underscore (`ps`, `brk`, `awk`) are
not checked: too many are commands or plain words."""
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
KNOWN = "scripts/docs-known.txt"
SRC_EXT = (".c", ".h", ".asm", ".inc", ".S", ".py", ".sh", ".gdb", ".ld",
           ".patch", ".mk")
# Upper-case words in a path that stand for any name.
PLACEHOLDER = re.compile(r"(?<![A-Za-z0-9])(NAME|PID|TID|POLICY|TEST|SUITE|"
                         r"N|LAB|INO|PROGRAM|FILE|PHASE|ADDR)(?![A-Za-z0-9])"
                         r"|<[a-z]+>")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

results = []


def tap(ok, what, why=""):
    results.append((ok, what, why))


def tracked():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    return [f for f in out.splitlines()
            if os.path.exists(os.path.join(ROOT, f))]


def docs(files):
    return [f for f in files if f == "README.md" or
            (f.startswith("docs/") and f.endswith(".md")) or
            re.fullmatch(r"labs/[^/]+/README\.md", f)]


def source_words(files):
    words = set()
    for f in files:
        base = os.path.basename(f)
        if not (f.endswith(SRC_EXT) or base in ("Makefile", "grade") or
                f.startswith("tests/kselftest/") or f.startswith(".ci/") or
                f.startswith("scripts/")):
            continue
        if f == KNOWN:
            continue
        try:
            with open(os.path.join(ROOT, f), errors="replace") as fh:
                words.update(IDENT.findall(fh.read()))
        except IsADirectoryError:
            pass
    return words


def make_targets(makefile):
    targets = set()
    try:
        with open(os.path.join(ROOT, makefile)) as fh:
            text = fh.read()
    except FileNotFoundError:
        return targets
    for m in re.finditer(r"^([A-Za-z0-9_.$()/%-][^:=\n]*?)\s*::?(?!=)", text,
                         re.M):
        for t in m.group(1).split():
            targets.add(t)
    return targets


def load_known():
    known = {}
    with open(os.path.join(ROOT, KNOWN)) as fh:
        for n, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            name, _, why = line.partition("#")
            name = name.strip()
            if not why.strip():
                sys.exit("%s:%d: %s has no reason" % (KNOWN, n, name))
            known[name] = why.strip()
    return known


def blocks(text):
    """(first line number, lines, is_code) per block of non-blank lines.
    A block indented 4 is code unless it continues a list item."""
    out, cur, start, listish = [], [], 0, False
    lines = text.split("\n") + [""]
    for i, line in enumerate(lines, 1):
        if line.strip():
            if not cur:
                start = i
            cur.append(line)
            continue
        if not cur:
            continue
        indented = all(re.match(r"( {4}|\t)", l) for l in cur)
        item = re.match(r"\s*([-*+]|\d+\.)\s", cur[0]) is not None
        code = indented and not listish
        if not code:
            listish = item or (listish and re.match(r"\s", cur[0]) is not None)
        out.append((start, cur, code))
        cur = []
    return out


def spans(block_lines):
    """The code spans of a prose block, as (offset line, text)."""
    text = "\n".join(block_lines)
    text = re.sub(r"<!--.*?-->", lambda m: re.sub(r"[^\n]", " ", m.group()),
                  text, flags=re.S)
    for m in re.finditer(r"(`+)(.+?)(?<!`)\1(?!`)", text, re.S):
        yield text.count("\n", 0, m.start()), \
            m.group(2).replace("\n", " ").strip().replace("\\|", "|")


class Tree:
    def __init__(self, files):
        self.files = set(files)
        self.dirs = set()
        for f in files:
            d = os.path.dirname(f)
            while d:
                self.dirs.add(d)
                d = os.path.dirname(d)
        self.base = {}
        for f in files:
            self.base.setdefault(os.path.basename(f), []).append(f)
        self.top = {p.split("/")[0] for p in self.files}

    def exists(self, path):
        path = path.rstrip("/")
        pat = PLACEHOLDER.sub("\0", path)
        if "\0" not in pat and not re.search(r"[*{\[]", pat):
            return path in self.files or path in self.dirs
        rx = re.escape(pat).replace("\\\0", "\0").replace("\0", "[^/]+")
        rx = rx.replace("\\*", "[^/]*")
        rx = re.sub(r"\\\{([^}]*)\\\}",
                    lambda m: "(" + "|".join(m.group(1).split(",")) + ")", rx)
        rx = rx.replace("\\[", "[").replace("\\]", "]")
        r = re.compile(rx + "$")
        return any(r.match(p) for p in self.files | self.dirs)


def check_span(span, tree, words, targets, known):
    """None if fine, else why the span names nothing in the tree."""
    if span in known:
        return None
    toks = span.split()
    # make [VAR=x ...] [-C DIR] TARGET
    if "make" in toks and all("=" in t for t in toks[:toks.index("make")]):
        rest = toks[toks.index("make") + 1:]
        mk = "Makefile"
        while rest and (rest[0].startswith("-") or "=" in rest[0]):
            if rest[0] == "-C" and len(rest) > 1:
                mk = rest[1] + "/Makefile"
                rest = rest[1:]
            rest = rest[1:]
        if not rest or rest[0].startswith("["):
            return None
        t = rest[0]
        if t in known or t in targets.setdefault(mk, make_targets(mk)):
            return None
        return "no target %s in %s" % (t, mk)
    first = toks[0] if toks else ""
    # paths: the first word, if it starts in the tree
    if "/" in first and not first.startswith(("/", "build/", "~")) and \
            re.fullmatch(r"[\w.*{},<>\[\]-]+(/[\w.*{},<>\[\]-]*)+", first):
        if first.split("/")[0] not in tree.top:
            return None
        if first in known or tree.exists(first):
            return None
        return "no file %s" % first
    if span in tree.files:
        return None
    if re.fullmatch(r"[\w-]+\.(c|h|asm|sh|py|gdb|patch|md)", first):
        if first in known or first in tree.base or tree.exists(first):
            return None
        return "no file named %s" % first
    # identifiers
    m = re.fullmatch(r"(?:struct\s+)?-?([A-Za-z_]\w*)(\(.*\))?(\[.*\])?", span)
    if not m:
        return None
    name = m.group(1)
    if "_" not in name and not m.group(2) and not span.startswith("struct") \
            and not re.fullmatch(r"E[A-Z]+|[A-Z][A-Z0-9]+", name):
        return None
    if name in known or name in words:
        return None
    # a fragment (`_WP` after `VM_FAULT_UFFD_MISSING`, `inc_`): the end or
    # the start of a name of the sources
    if span.startswith("_") and not span.startswith("__") and \
            any(w.endswith(span) for w in words):
        return None
    if span.endswith("_") and any(w.startswith(span) for w in words):
        return None
    return "no %s in the sources" % name


# A path in plain prose: a top directory of the tree, then a file with an
# extension or a directory ending in "/".
PROSE_PATH = re.compile(r"(?<![\w/.`-])((?:%s)/(?:[\w.-]+/)*(?:[\w-]+\.\w+|))"
                        r"(?![\w/`-])")


def check_prose(doc, tree, words, targets, known):
    with open(os.path.join(ROOT, doc)) as fh:
        text = fh.read()
    tops = "|".join(sorted(re.escape(t) for t in tree.top
                           if t in tree.dirs and not t.startswith(".")))
    prose_path = re.compile(PROSE_PATH.pattern % tops)
    bad = 0
    for start, lines, code in blocks(text):
        if code:
            continue
        for off, span in spans(lines):
            why = check_span(span, tree, words, targets, known)
            if why:
                bad += 1
                tap(False, "%s:%d: `%s`" % (doc, start + off, span), why)
        for i, line in enumerate(lines):
            plain = re.sub(r"`[^`]*`", "", line)
            for m in re.finditer(r"\]\(([^)#\s]+)(#[^)]*)?\)", plain):
                t = m.group(1)
                if re.match(r"\w+:", t):
                    continue
                path = os.path.normpath(os.path.join(os.path.dirname(doc), t))
                if not tree.exists(path):
                    bad += 1
                    tap(False, "%s:%d: link %s" % (doc, start + i, t),
                        "no file %s" % path)
            plain = re.sub(r"\]\([^)]*\)", "]", plain)
            for m in prose_path.finditer(plain):
                path = m.group(1).rstrip(".")
                if path in known or tree.exists(path):
                    continue
                bad += 1
                tap(False, "%s:%d: %s" % (doc, start + i, path),
                    "no file %s" % path)
    return bad


def func_bounds(path, func):
    """(first, last) line of func's definition in path, or None."""
    try:
        with open(os.path.join(ROOT, path)) as fh:
            lines = fh.read().split("\n")
    except FileNotFoundError:
        return None
    for i, l in enumerate(lines):
        if not re.match(r"[A-Za-z_].*\b%s\(" % re.escape(func), l):
            continue
        j = i	# the signature's last line: ";" ends a declaration
        while j < len(lines) and not lines[j].rstrip().endswith((")", "{",
                                                                ";")):
            j += 1
        if j == len(lines) or lines[j].rstrip().endswith(";"):
            continue
        while j < len(lines) and lines[j] != "}":
            j += 1
        return i + 1, j + 1, lines
    return None


WALK = ("docs/zero-page.md",
        "<!-- walkthrough: begin", "<!-- walkthrough: end -->")


def walkthrough():
    with open(os.path.join(ROOT, WALK[0])) as fh:
        text = fh.read()
    try:
        return text.split(WALK[1], 1)[1].split(WALK[2], 1)[0].split("\n")
    except IndexError:
        tap(False, "%s: the walk-through block" % WALK[0], "no markers")
        return []


FRAME = re.compile(r"(?:#\d+\s+(?:0x[0-9a-f]+ in )?|Breakpoint \d+, |"
                   r"^\s*0x[0-9a-f]+ in )([A-Za-z_]\w*) \(.*\) at "
                   r"([\w/.-]+):(\d+)$")


def check_walkthrough(lines):
    """Each frame's function is defined in its file around its line, and
    the source line gdb printed after it is that line of the file."""
    bad = n = 0
    for i, line in enumerate(lines):
        m = FRAME.search(line.strip())
        if not m or not m.group(2).endswith(".c"):
            continue
        func, path, ln = m.group(1), m.group(2), int(m.group(3))
        n += 1
        fb = func_bounds(path, func)
        what = "%s: walk-through %s at %s:%d" % (WALK[0], func, path, ln)
        if not fb:
            bad += 1
            tap(False, what, "no %s in %s" % (func, path))
            continue
        first, last, src = fb
        if not first <= ln <= last:
            bad += 1
            tap(False, what, "%s is lines %d-%d of %s now; regenerate: "
                "tests/qemu/gdb.sh, then scripts/gen-walkthrough.py"
                % (func, first, last, path))
            continue
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        sm = re.match(r"(\d+)\t(.*)$", lines[i + 1].lstrip(" ")) \
            if i + 1 < len(lines) else None
        if not sm:
            continue
        at = int(sm.group(1))
        have = src[at - 1].rstrip() if at <= len(src) else None
        if at != ln or sm.group(2).rstrip() != have:
            bad += 1
            tap(False, what, "gdb printed %r, line %d of the file is %r"
                % (nxt, at, have))
    tap(n > 0 and bad == 0,
        "%s: the gdb walk-through's %d frames match the sources"
        % (WALK[0], n))
    return lines


DIAGRAM = ("docs/vm.md", "## The fault path")


def check_diagram(walk, words):
    """docs/vm.md's fault path: its names exist, and the walk-through's
    first backtrace, outermost to innermost, appears in it in order."""
    with open(os.path.join(ROOT, DIAGRAM[0])) as fh:
        text = fh.read()
    if DIAGRAM[1] not in text:
        tap(False, "%s: %s" % DIAGRAM, "no such section")
        return
    sec = text.split(DIAGRAM[1], 1)[1]
    code = [b for b in blocks(sec) if b[2]]
    if not code:
        tap(False, "%s: the fault-path diagram" % DIAGRAM[0], "no diagram")
        return
    diagram = "\n".join(code[0][1])
    names = [w for w in IDENT.findall(diagram) if "_" in w]
    missing = [w for w in names if w not in words]
    tap(not missing, "%s: the fault-path diagram names functions of the tree"
        % DIAGRAM[0], "no " + ", ".join(missing) if missing else "")
    bt = []
    for line in walk:
        s = line.strip()
        if s == "(gdb) bt":
            bt = ["start"]
            continue
        if bt and bt[0] == "start" or (bt and s.startswith("#")):
            m = re.match(r"#\d+\s+(?:0x[0-9a-f]+ in )?([A-Za-z_]\w*) ", s)
            if not m:
                if len(bt) > 1:
                    break
                continue
            if bt[0] == "start":
                bt = []
            bt.append(m.group(1))
    chain = list(reversed(bt))
    chain = chain[chain.index("do_page_fault"):] if "do_page_fault" in chain \
        else []
    order = [w for w in IDENT.findall(diagram)]
    pos, missing = 0, []
    for f in chain:
        try:
            pos = order.index(f, pos) + 1
        except ValueError:
            missing.append(f)
    tap(chain and not missing,
        "%s: the diagram follows the walk-through's backtrace (%s)"
        % (DIAGRAM[0], " -> ".join(chain)),
        "not in order in the diagram: " + ", ".join(missing) if missing
        else "no backtrace in the walk-through" if not chain else "")


SYSCALLS = "docs/syscalls.md"


def check_syscalls(files):
    """docs/syscalls.md has a row for each SYSCALL(__NR_x, ...) of the
    sources, and each call its rows name is one of them."""
    have = set()
    for f in files:
        if f.endswith(".c") and not os.path.basename(f).startswith("ktest_") \
                and "/tests/" not in "/" + f and f.split("/")[0] in \
                ("arch", "kernel", "mm", "fs", "ipc", "net", "lib"):
            with open(os.path.join(ROOT, f)) as fh:
                have.update(re.findall(r"^SYSCALL\w*\(__NR_(\w+)", fh.read(),
                                       re.M))
    rows = set()
    with open(os.path.join(ROOT, SYSCALLS)) as fh:
        intable = False
        for line in fh:
            if line.startswith("| call |"):
                intable = True
                continue
            if not line.startswith("|"):
                intable = False
                continue
            if intable and not line.startswith("|---"):
                cell = re.sub(r"\([^)]*\)", "", line.split("|")[1])
                rows.update(c.strip() for c in cell.split(",") if c.strip())
    undocumented = sorted(have - rows)
    tap(not undocumented, "%s: a row for each of the %d system calls"
        % (SYSCALLS, len(have)), "none for " + ", ".join(undocumented))
    unknown = sorted(rows - have)
    tap(not unknown, "%s: each call in a row is implemented" % SYSCALLS,
        "no SYSCALL(__NR_x) for " + ", ".join(unknown))


# Figures made by a program: each must be newer (by its last commit) than
# what makes it.
GENERATED = [
    ("docs/bench/*", "user/bench/zpbench.c scripts/bench.sh "
     "scripts/bench-report.py", "make bench, then copy build/bench/"),
    ("docs/c2c.png", "user/bench/smp.c scripts/c2c.sh scripts/c2c-report.py "
     "tools/c2c/c2c.c tools/c2c/model.c",
     "make c2c, then copy build/c2c/c2c.png"),
]


def last_commit(paths):
    out = subprocess.run(["git", "log", "-1", "--format=%ct", "--"] + paths,
                         cwd=ROOT, capture_output=True, text=True)
    return int(out.stdout.strip() or 0)


def check_generated(files):
    import fnmatch
    for pattern, sources, how in GENERATED:
        made = [f for f in files if fnmatch.fnmatch(f, pattern)]
        src = sources.split()
        t_src = last_commit(src)
        old = [f for f in made if last_commit([f]) < t_src]
        tap(made and not old,
            "%s is newer than %s" % (pattern, ", ".join(src)),
            "stale: %s (%s)" % (", ".join(old), how) if old else "no files")


def main():
    files = tracked()
    tree = Tree(files)
    words = source_words(files)
    known = load_known()
    targets = {}
    for doc in sorted(docs(files)):
        bad = check_prose(doc, tree, words, targets, known)
        if not bad:
            tap(True, "%s: every backticked name exists" % doc)
    walk = check_walkthrough(walkthrough())
    check_diagram(walk, words)
    check_syscalls(files)
    check_generated(files)
    passed = failed = 0
    for n, (ok, what, why) in enumerate(results, 1):
        if ok:
            passed += 1
        else:
            failed += 1
        print("%s %d - %s%s" % ("ok" if ok else "not ok", n, what,
                                "" if ok or not why else ": " + why))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
