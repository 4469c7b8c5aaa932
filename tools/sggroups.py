#!/usr/bin/env python3
"""sggroups - SGLang's own groups of its options, into rules/options.yaml.

    tools/sggroups.py GIT_DIR [REV] < rules/options.yaml > new-options.yaml
    tools/sggroups.py --list GIT_DIR [REV]

GIT_DIR is a clone of sgl-project/sglang (a bare one will do; nothing is
checked out and nothing of SGLang is imported or run). REV (default: the
commit named by the catalog's "SA-groups" entry of sglang.commits, else
main) is read with `git show`:

- python/sglang/srt/server_args.py: the fields of class ServerArgs sit
  under three-line comment banners (a rule of dashes, the section's name,
  a rule of dashes); a field's group is the banner above it. A flag that
  add_cli_args registers by hand (parser.add_argument) and no field
  declares takes the "# --- NAME ---" section comment above the call.
- python/sglang/srt/environ.py: the variables of class Envs sit under the
  same kind of banners (rules of '='); a variable's group is its banner.

Everything the source does not place gets "Other". The catalog on stdin is
written to stdout with a `group:` line in each option (after its `kind:`)
and the groups in order as sglang.groups (server_args.py's, then
environ.py's, then "Other"; a section of environ.py named as one of
server_args.py is that group); any earlier ones are replaced. Facts and
deployment keys get no group. Only the names of SGLang's sections are
copied (they are facts: which group SGLang files an option under).

--list prints "group<TAB>name" for every field, flag and variable read.
"""
import ast
import re
import subprocess
import sys

SA = "python/sglang/srt/server_args.py"
ENV = "python/sglang/srt/environ.py"
OTHER = "Other"


def fail(msg):
    sys.stderr.write("sggroups: %s\n" % msg)
    sys.exit(2)


def show(gd, rev, path):
    p = subprocess.run(["git", "--git-dir=" + gd, "show", "%s:%s" % (rev, path)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        fail("%s:%s: %s" % (rev, path, p.stderr.decode(errors="replace").strip()))
    return p.stdout.decode()


def banners(lines, rule_char, lo, hi):
    """(line number of the name, name) of every three-line banner between
    lines lo and hi (1-based, inclusive)."""
    rule = re.compile(r"^\s*#\s*%s{10,}\s*$" % re.escape(rule_char))
    out = []
    for i in range(max(lo, 1), min(hi, len(lines) - 1)):
        # lines[i - 1] is line i
        if (rule.match(lines[i - 1]) and i + 1 < len(lines) and
                rule.match(lines[i + 1])):
            name = lines[i].strip().lstrip("#").strip()
            if name and not rule.match(lines[i]):
                out.append((i + 1, name))
    return out


def group_at(bs, line):
    g = None
    for ln, name in bs:
        if ln < line:
            g = name
        else:
            break
    return g


def find_class(tree, name):
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return node
    fail("no class %s" % name)


def class_fields(cls):
    """Assignments of the class body before its first method:
    (line, name)."""
    out = []
    for node in cls.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            break
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.append((node.lineno, node.target.id))
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    out.append((node.lineno, t.id))
    return out


def end_of_fields(cls):
    for node in cls.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return node.lineno
    return cls.end_lineno


def server_args_groups(src):
    """(order of groups, field name -> group, flag spelling -> group)."""
    lines = src.split("\n")
    tree = ast.parse(src)
    cls = find_class(tree, "ServerArgs")
    bs = banners(lines, "-", cls.lineno, end_of_fields(cls))
    order = []
    for _, name in bs:
        if name not in order:
            order.append(name)
    fields = {}
    for line, name in class_fields(cls):
        g = group_at(bs, line)
        if g is not None:
            fields[name] = g
    flags = {}
    for node in cls.body:
        if isinstance(node, ast.FunctionDef) and node.name == "add_cli_args":
            sect = re.compile(r"^\s*#\s*---\s*(.*?)\s*---\s*$")
            secs = []
            for i in range(node.lineno, node.end_lineno + 1):
                m = sect.match(lines[i - 1])
                if m:
                    secs.append((i, m.group(1)))
            for call in ast.walk(node):
                if (isinstance(call, ast.Call) and
                        isinstance(call.func, ast.Attribute) and
                        call.func.attr == "add_argument"):
                    g = group_at(secs, call.lineno)
                    if g is None:
                        continue
                    for a in call.args:
                        if (isinstance(a, ast.Constant) and
                                isinstance(a.value, str) and
                                a.value.startswith("--")):
                            flags.setdefault(a.value, g)
                            if g not in order:
                                order.append(g)
    return order, fields, flags


def environ_groups(src):
    lines = src.split("\n")
    tree = ast.parse(src)
    cls = find_class(tree, "Envs")
    bs = banners(lines, "=", cls.lineno, end_of_fields(cls))
    order = []
    for _, name in bs:
        if name not in order:
            order.append(name)
    env = {}
    for line, name in class_fields(cls):
        g = group_at(bs, line)
        if g is not None:
            env[name] = g
    return order, env


def yaml_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def catalog_rev(text):
    m = re.search(r"\{short: SA-groups, path: %s, commit: ([0-9a-f]{40})" %
                  re.escape(SA), text)
    return m.group(1) if m else None


def options_of(lines):
    """Per option: [first line index, name, kind, flag spellings, index of
    its kind: line]."""
    opts = []
    cur = None
    in_opts = False
    for i, l in enumerate(lines):
        if l.startswith("options:"):
            in_opts = True
            continue
        if not in_opts:
            continue
        m = re.match(r"^  - name: (\S+)\s*$", l)
        if m:
            cur = {"name": m.group(1), "kind": None, "flags": [], "kind_at": None}
            opts.append(cur)
            continue
        if cur is None:
            continue
        m = re.match(r"^    kind: (\S+)\s*$", l)
        if m:
            cur["kind"] = m.group(1)
            cur["kind_at"] = i
        m = re.match(r"^    flag: (\S+)\s*$", l)
        if m:
            cur["flags"].append(m.group(1))
        m = re.match(r"^    aliases: \[(.*)\]\s*$", l)
        if m:
            cur["flags"] += [a.strip() for a in m.group(1).split(",") if a.strip()]
    return opts


def assign(opts, fields, flags, env):
    for o in opts:
        g = None
        if o["kind"] == "flag":
            g = fields.get(o["name"])
            if g is None:
                for f in o["flags"]:
                    if f in flags:
                        g = flags[f]
                        break
        elif o["kind"] == "env":
            g = env.get(o["name"])
        else:
            continue
        o["group"] = g if g is not None else OTHER


def rewrite(text, order, opts):
    lines = text.split("\n")
    drop = set()
    # Earlier groups: the sglang.groups block and every option's group line.
    i = 0
    while i < len(lines):
        if lines[i].startswith("  groups:"):
            drop.add(i)
            j = i + 1
            while j < len(lines) and lines[j].startswith("    - "):
                drop.add(j)
                j += 1
            i = j
            continue
        if re.match(r"^    group: ", lines[i]):
            drop.add(i)
        i += 1
    after = {}
    for o in opts:
        if "group" in o:
            after[o["kind_at"]] = "    group: " + yaml_str(o["group"])
    out = []
    for i, l in enumerate(lines):
        if l.startswith("options:"):
            out.append("  groups:           # SGLang's own groups, in its "
                       "order (tools/sggroups.py)")
            for g in order:
                out.append("    - " + yaml_str(g))
        if i in drop:
            continue
        out.append(l)
        if i in after:
            out.append(after[i])
    return "\n".join(out)


def main():
    args = sys.argv[1:]
    listing = False
    if args and args[0] == "--list":
        listing = True
        args = args[1:]
    if not args or len(args) > 2 or args[0].startswith("-"):
        sys.stderr.write(__doc__)
        sys.exit(2)
    gd = args[0]
    text = None if listing else sys.stdin.read()
    rev = args[1] if len(args) > 1 else (catalog_rev(text) if text else None) or "main"
    sorder, fields, flags = server_args_groups(show(gd, rev, SA))
    eorder, env = environ_groups(show(gd, rev, ENV))
    if listing:
        for n, g in fields.items():
            print("%s\t%s" % (g, n))
        for n, g in flags.items():
            print("%s\t%s" % (g, n))
        for n, g in env.items():
            print("%s\t%s" % (g, n))
        return
    order = list(sorder)
    for g in eorder:
        # A section of the same name in both files is one group (SGLang
        # names one topic): its variables go with its flags.
        if g not in order:
            order.append(g)
    opts = options_of(text.split("\n"))
    if not opts:
        fail("stdin: no options")
    assign(opts, fields, flags, env)
    used = set(o["group"] for o in opts if "group" in o)
    order = [g for g in order if g in used]
    if OTHER in used and OTHER not in order:
        order.append(OTHER)
    sys.stdout.write(rewrite(text, order, opts))


if __name__ == "__main__":
    main()
