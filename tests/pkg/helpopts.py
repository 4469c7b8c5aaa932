#!/usr/bin/python3
# helpopts.py PDWIZ: the options pdwiz declares, as its --help prints them
# (src/cli/cliopt.c prints every command's table), one per line:
#   cmd NAME                 a command (pdwiz --help's synopsis)
#   long NAME --OPT          a long option of NAME ("-" is pdwiz itself)
#   short NAME -X            a short option of NAME
#   values NAME --OPT A B C  the values --OPT takes (its argument is A|B|C)
import re
import subprocess
import sys

pdwiz = sys.argv[1]


def helptext(*args):
    p = subprocess.run([pdwiz, *args, "--help"], capture_output=True,
                       text=True, check=False)
    if p.returncode != 0:
        sys.exit("%s %s --help: exit %d" % (pdwiz, " ".join(args),
                                            p.returncode))
    return p.stdout


top = helptext()
cmds = []
toplong = set(["--help"])
for line in top.split("\n\n")[0].splitlines():
    m = re.match(r"^(?:usage: |\s+)pdwiz\s+(\S+)", line)
    if not m:
        continue
    word = m.group(1)
    if re.fullmatch(r"[a-z][a-z-]*", word):
        if word not in cmds:
            cmds.append(word)
    else:
        toplong.update(re.findall(r"--[a-z][a-z0-9-]*", line))
if not cmds:
    sys.exit("no commands in pdwiz --help")
for c in cmds:
    print("cmd", c)
for o in sorted(toplong):
    print("long - " + o)
# --help and -h: every command's (cliopt.c), listed or not.
for c in cmds:
    print("long %s --help" % c)
    print("short %s -h" % c)
    for line in helptext(c).splitlines():
        m = re.match(r"^  (?:-(\w), )?--([a-z][a-z0-9-]*)(?:[ =](\S+))?",
                     line)
        if not m:
            continue
        print("long %s --%s" % (c, m.group(2)))
        if m.group(1):
            print("short %s -%s" % (c, m.group(1)))
        arg = m.group(3) or ""
        if re.fullmatch(r"[a-z0-9]+(\|[a-z0-9]+)+", arg):
            print("values %s --%s %s" % (c, m.group(2),
                                         " ".join(arg.split("|"))))
