#!/usr/bin/env python3
"""scripts/gen-walkthrough.py — docs/zero-page.md's gdb walk-through, made
from the log of tests/gdb/zero.gdb (gdb's trace-commands echo, "+cmd").

  gen-walkthrough.py LOG DOC          rewrite DOC's block from LOG
  gen-walkthrough.py --check LOG DOC  exit 1 if DOC's block is stale

The check compares everything but addresses and page frame numbers, which
move with every build; function names, arguments, source lines and PTE
flags must match, so the doc cannot drift from the code."""
import re
import sys

BEGIN = "<!-- walkthrough: begin (scripts/gen-walkthrough.py from tests/gdb/zero.gdb) -->"
END = "<!-- walkthrough: end -->"


def render(log):
    out, started = [], False
    for line in log.splitlines():
        if line.startswith("+"):
            cmd = line[1:]
            if cmd.startswith("set ") and not started:
                continue
            if cmd == "delete":
                break
            started = True
            out.append("(gdb) " + cmd)
        elif started and line.strip() and not re.match(
                r"(Temporary|Hardware assisted) breakpoint \d+ at ", line):
            # A helper of a header has a copy per file: "breakpoint 7.5"
            # names the copy, which moves when another file starts using it.
            out.append(re.sub(r"^(Temporary breakpoint \d+)\.\d+,", r"\1,",
                              line.rstrip()))
    return "\n".join("    " + l for l in out) + "\n"


def normal(text):
    text = re.sub(r"0x[0-9a-f]{3,}", "0x_", text)
    return re.sub(r"pfn 0x[0-9a-f]+", "pfn 0x_", text)


def split(doc):
    if doc.count(BEGIN) != 1 or doc.count(END) != 1:
        sys.exit("gen-walkthrough: no single walk-through block in the doc")
    head, rest = doc.split(BEGIN + "\n", 1)
    block, tail = rest.split(END, 1)
    return head, block.strip("\n") + "\n", tail


def main(argv):
    check = argv[:1] == ["--check"]
    logf, docf = argv[1:] if check else argv
    with open(logf) as f:
        new = render(f.read())
    with open(docf) as f:
        head, old, tail = split(f.read())
    if check:
        if normal(old) != normal(new):
            sys.stderr.write("%s: the gdb walk-through is stale; run\n"
                             "  scripts/gen-walkthrough.py %s %s\n"
                             % (docf, logf, docf))
            return 1
        return 0
    with open(docf, "w") as f:
        f.write(head + BEGIN + "\n\n" + new + "\n" + END + tail)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
