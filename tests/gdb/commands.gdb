# tests/gdb/commands.gdb — every zpk-* command of tools/gdb/zpk_mm.py, once,
# with zptouch stopped in its write fault at 0x10000000 (tests/qemu/gdb.sh).
# The commands are found in gdb itself (apropos), so a new one runs here
# without a change to this file; the usage before the colon on its help's
# first line ("zpk-pte ADDR [PID]: ...") says which arguments it needs.
hbreak do_wp_page if address == 0x10000000
continue
delete
python
import re

examples = {"ADDR": "0x10000000",
            "PID": str(int(current_task()["pid"]))}
found = gdb.execute("apropos ^zpk-", to_string=True)
names = sorted(set(re.findall(r"^(zpk-[\w-]+) -- ", found, re.M)))
print("zpk commands found: %d: %s" % (len(names), " ".join(names)))
for name in names:
    usage = gdb.execute("help " + name, to_string=True).split(":")[0]
    needed = re.sub(r"\[[^]]*\]", "", usage).split()[1:]
    if any(w not in examples for w in needed):
        print("zpk-cmd %s FAILED no example for %s" % (name, needed))
        continue
    cmd = " ".join([name] + [examples[w] for w in needed])
    try:
        out = gdb.execute(cmd, to_string=True)
    except Exception as e:
        print("zpk-cmd %s FAILED %s: %s" % (name, cmd, e))
        continue
    print(out, end="")
    print("zpk-cmd %s ok %s" % (name, cmd))
end
continue
