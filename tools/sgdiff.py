#!/usr/bin/env python3
"""sgdiff - what differs between an SGLang checkout's server flags and pdwiz's
option catalog (rules/options.yaml).

    tools/sgdiff.py [--catalog rules/options.yaml] [--format text|tsv]
                    [--dump] SGLANG

SGLANG is an SGLang checkout (its root, or any directory holding
python/sglang/srt/server_args.py), or a server_args.py file. The flags are read
statically with Python's ast module, nothing of SGLang is imported or run:

  * every parser.add_argument(...) call in server_args.py (the style of every
    release up to 0.5.x);
  * every field of the classes in python/sglang/srt/arg_groups/fields/*.py and
    of ServerArgs written as `name: A[T, "help"]` or `name: A[T, Arg(...)]`
    (the newer style: the flag is Arg.cli_name or --name-with-dashes, bool
    fields are store_true, List[...] fields take nargs "+", Literal[...] gives
    the choices).

The report lists flags added (in SGLang, not in the catalog), removed (in the
catalog, not in SGLang), renamed (the old spelling is now an alias of another
flag, or one removed and one added flag share their dest or help text), and
changed defaults, types and choices. Updating pdwiz to a new SGLang release is
then a reviewed change of rules/options.yaml guided by this list.

--dump prints the flags read from SGLANG as TSV (flag, dest, type, default,
choices, aliases) and does not read the catalog.

Exit status: 0 no difference, 1 differences listed, 2 bad input.
"""

import argparse
import ast
import os
import sys

SERVER_ARGS = "python/sglang/srt/server_args.py"
FIELDS_DIR = "python/sglang/srt/arg_groups/fields"


class Flag:
    """One SGLang flag as the parser would register it."""

    def __init__(self, flag, dest, ftype, default, choices, aliases, origin):
        self.flag = flag
        self.dest = dest
        self.type = ftype          # bool boolopt int float str list custom:NAME
        self.default = default     # a Python value, or Unresolved
        self.choices = choices     # list of strings, None, or Unresolved
        self.aliases = aliases
        self.origin = origin       # "file:line"
        self.help = ""
        self.deprecated = False


class Unresolved:
    """A value the static reading cannot settle (a call, a name from
    another module)."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return "<%s>" % self.text

    def __eq__(self, other):
        return isinstance(other, Unresolved) and other.text == self.text

    def __hash__(self):
        return hash(self.text)


def fail(msg):
    sys.stderr.write("sgdiff: %s\n" % msg)
    sys.exit(2)


# ------------------------------------------------------------ static values

class Scope:
    """Module-level constants and dataclass defaults, for resolving names."""

    def __init__(self):
        self.consts = {}
        self.defaults = {}   # ServerArgs field -> value

    def value(self, node):
        if node is None:
            return None
        try:
            return ast.literal_eval(node)
        except (ValueError, SyntaxError, TypeError):
            pass
        if isinstance(node, ast.Name) and node.id in self.consts:
            return self.consts[node.id]
        if (isinstance(node, ast.Attribute) and
                isinstance(node.value, ast.Name) and
                node.value.id == "ServerArgs" and
                node.attr in self.defaults):
            return self.defaults[node.attr]
        if isinstance(node, (ast.List, ast.Tuple)):
            out = []
            for elt in node.elts:
                if isinstance(elt, ast.Starred):
                    inner = self.value(elt.value)
                    if not isinstance(inner, list):
                        return Unresolved(ast.unparse(node))
                    out.extend(inner)
                else:
                    v = self.value(elt)
                    if isinstance(v, Unresolved):
                        return Unresolved(ast.unparse(node))
                    out.append(v)
            return out
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and
                node.func.id in ("list", "tuple", "sorted") and
                len(node.args) == 1):
            inner = self.value(node.args[0])
            if isinstance(inner, (list, tuple)):
                return sorted(inner) if node.func.id == "sorted" else list(inner)
            if isinstance(inner, dict):
                return sorted(inner) if node.func.id == "sorted" else list(inner)
        if (isinstance(node, ast.Call) and
                isinstance(node.func, ast.Attribute) and
                node.func.attr == "keys" and not node.args):
            inner = self.value(node.func.value)
            if isinstance(inner, dict):
                return list(inner)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            a, b = self.value(node.left), self.value(node.right)
            if isinstance(a, list) and isinstance(b, list):
                return a + b
        return Unresolved(ast.unparse(node))

    def learn_module(self, tree):
        for st in tree.body:
            if (isinstance(st, ast.Assign) and len(st.targets) == 1 and
                    isinstance(st.targets[0], ast.Name)):
                v = self.value(st.value)
                if not isinstance(v, Unresolved):
                    self.consts[st.targets[0].id] = v
            elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
                if st.value is not None:
                    v = self.value(st.value)
                    if not isinstance(v, Unresolved):
                        self.consts[st.target.id] = v


def field_default(scope, node):
    """A dataclass/msgspec field default: a literal, field(default=...),
    field(default_factory=list)."""
    if node is None:
        return None
    if isinstance(node, ast.Call):
        fn = ast.unparse(node.func)
        if fn.endswith("field"):
            for kw in node.keywords:
                if kw.arg == "default":
                    return scope.value(kw.value)
                if kw.arg == "default_factory":
                    name = ast.unparse(kw.value)
                    if name == "list":
                        return []
                    if name == "dict":
                        return {}
                    return Unresolved(name + "()")
            return None
    return scope.value(node)


# --------------------------------------------------- add_argument (old style)

def type_of_call(scope, kw):
    action = kw.get("action")
    nargs = kw.get("nargs")
    if action is not None:
        a = ast.unparse(action).strip("'\"")
        if a in ("store_true", "store_false"):
            return "bool"
        if a.endswith("BooleanOptionalAction"):
            return "boolopt"
        if a == "append":
            return "list"
        if a.endswith("DeprecatedAction"):
            return "deprecated"
        return "custom:" + a
    if nargs is not None:
        n = scope.value(nargs)
        if n in ("+", "*") or (isinstance(n, int) and not isinstance(n, bool)
                               and n > 1):
            return "list"
    t = kw.get("type")
    if t is None:
        return "str"
    name = ast.unparse(t)
    if name in ("int", "float", "str"):
        return name
    return "custom:" + name


def read_add_argument(path, tree, scope, flags):
    rel = os.path.basename(path)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and
                isinstance(node.func, ast.Attribute) and
                node.func.attr == "add_argument"):
            continue
        names = [scope.value(a) for a in node.args]
        names = [n for n in names if isinstance(n, str)]
        opts = [n for n in names if n.startswith("--")]
        if not opts:
            continue
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        dest = scope.value(kw["dest"]) if "dest" in kw else \
            opts[0][2:].replace("-", "_")
        ftype = type_of_call(scope, kw)
        if "default" in kw:
            default = scope.value(kw["default"])
        elif ftype == "bool":
            default = False
        else:
            default = scope.defaults.get(dest)
        choices = scope.value(kw["choices"]) if "choices" in kw else None
        f = Flag(opts[0], dest, ftype, default, choices, opts[1:],
                 "%s:%d" % (rel, node.lineno))
        if "help" in kw:
            h = scope.value(kw["help"])
            f.help = h if isinstance(h, str) else ""
        if ftype == "deprecated":
            f.deprecated = True
            f.type = "str"
        flags.append(f)


# ------------------------------------------------ A[T, Arg(...)] (new style)

def unwrap(node, name):
    """The slice of name[...] if node is that subscript, else None."""
    if isinstance(node, ast.Subscript):
        base = ast.unparse(node.value)
        if base == name or base.endswith("." + name):
            return node.slice
    return None


def annotated_type(node):
    """(type, choices) of the inner annotation: Optional, List, Literal."""
    inner = unwrap(node, "Optional")
    if inner is not None:
        node = inner
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        # X | None
        for side in (node.left, node.right):
            if not (isinstance(side, ast.Constant) and side.value is None):
                node = side
                break
    lit = unwrap(node, "Literal")
    if lit is not None:
        elts = lit.elts if isinstance(lit, ast.Tuple) else [lit]
        vals = [ast.literal_eval(e) for e in elts]
        t = {bool: "bool", int: "int", float: "float"}.get(
            type(vals[0]), "str") if vals else "str"
        return t, vals
    for lname in ("List", "list", "Sequence", "Tuple", "tuple"):
        if unwrap(node, lname) is not None:
            return "list", None
    name = ast.unparse(node)
    if name in ("bool", "int", "float", "str"):
        return name, None
    return "str", None


def read_fields(path, tree, scope, flags):
    rel = os.path.basename(path)
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        for st in cls.body:
            if not (isinstance(st, ast.AnnAssign) and
                    isinstance(st.target, ast.Name)):
                continue
            sl = unwrap(st.annotation, "A")
            if sl is None:
                sl = unwrap(st.annotation, "Annotated")
            if sl is None or not isinstance(sl, ast.Tuple) or len(sl.elts) < 2:
                continue
            meta = None
            for m in sl.elts[1:]:
                if isinstance(m, ast.Constant) and isinstance(m.value, str):
                    meta = {"help": m}
                    break
                if (isinstance(m, ast.Call) and
                        ast.unparse(m.func).split(".")[-1] == "Arg"):
                    meta = {k.arg: k.value for k in m.keywords if k.arg}
                    break
                if isinstance(m, ast.JoinedStr) or (
                        isinstance(m, ast.BinOp) and
                        isinstance(m.op, ast.Add)):
                    meta = {"help": m}
                    break
            if meta is None:
                continue
            if "no_cli" in meta and scope.value(meta["no_cli"]) is True:
                continue
            dest = st.target.id
            flag = "--" + dest.replace("_", "-")
            if "cli_name" in meta:
                v = scope.value(meta["cli_name"])
                if isinstance(v, str):
                    flag = v
            aliases = scope.value(meta["aliases"]) if "aliases" in meta else []
            if not isinstance(aliases, list):
                aliases = []
            ftype, choices = annotated_type(sl.elts[0])
            if "choices" in meta:
                choices = scope.value(meta["choices"])
            if "action" in meta:
                a = ast.unparse(meta["action"]).strip("'\"")
                ftype = ("boolopt" if a.endswith("BooleanOptionalAction")
                         else "bool" if a in ("store_true", "store_false")
                         else "custom:" + a)
            elif "type_parser" in meta:
                tp = ast.unparse(meta["type_parser"])
                ftype = tp if tp in ("int", "float", "str") else "custom:" + tp
            elif "nargs" in meta and ftype != "list":
                n = scope.value(meta["nargs"])
                if n in ("+", "*"):
                    ftype = "list"
            default = field_default(scope, st.value)
            if st.value is None:
                default = None
            f = Flag(flag, dest, ftype, default, choices, aliases,
                     "%s:%d" % (rel, st.lineno))
            h = scope.value(meta.get("help"))
            f.help = h if isinstance(h, str) else ""
            flags.append(f)


def learn_defaults(tree, scope):
    for cls in ast.walk(tree):
        if isinstance(cls, ast.ClassDef) and cls.name == "ServerArgs":
            for st in cls.body:
                if (isinstance(st, ast.AnnAssign) and
                        isinstance(st.target, ast.Name)):
                    scope.defaults[st.target.id] = field_default(scope,
                                                                 st.value)


def parse(path):
    try:
        with open(path, encoding="utf-8") as fp:
            text = fp.read()
    except OSError as e:
        fail("%s: %s" % (path, e.strerror))
    try:
        return ast.parse(text, filename=path)
    except SyntaxError as e:
        fail("%s:%s:%s: not Python: %s" % (path, e.lineno, e.offset, e.msg))


def sglang_flags(where):
    """Every flag the checkout at `where` registers, keyed by flag."""
    if os.path.isfile(where):
        sa, fields = where, None
    else:
        sa = os.path.join(where, SERVER_ARGS)
        if not os.path.isfile(sa):
            sa = os.path.join(where, "server_args.py")
        if not os.path.isfile(sa):
            fail("%s: no %s (give an SGLang checkout or a server_args.py)"
                 % (where, SERVER_ARGS))
        fields = os.path.join(os.path.dirname(sa), "arg_groups", "fields")
        if not os.path.isdir(fields):
            fields = None
    scope = Scope()
    trees = []
    if fields:
        for name in sorted(os.listdir(fields)):
            if name.endswith(".py"):
                p = os.path.join(fields, name)
                trees.append((p, parse(p)))
    sa_tree = parse(sa)
    for p, t in trees:
        scope.learn_module(t)
    scope.learn_module(sa_tree)
    learn_defaults(sa_tree, scope)
    flags = []
    for p, t in trees:
        read_fields(p, t, scope, flags)
    read_fields(sa, sa_tree, scope, flags)
    read_add_argument(sa, sa_tree, scope, flags)
    out = {}
    for f in flags:
        out.setdefault(f.flag, f)
    if not out:
        fail("%s: no flag found (no add_argument call, no A[...] field)" % sa)
    return out


# ------------------------------------------------------------------ catalog

def catalog_flags(path):
    try:
        import yaml
    except ImportError:
        fail("needs PyYAML to read %s (Debian: apt-get install python3-yaml)"
             % path)
    try:
        with open(path, encoding="utf-8") as fp:
            doc = yaml.safe_load(fp)
    except OSError as e:
        fail("%s: %s" % (path, e.strerror))
    except yaml.YAMLError as e:
        fail("%s: %s" % (path, e))
    out = {}
    for o in (doc or {}).get("options", []):
        if o.get("kind") != "flag" or not o.get("flag"):
            continue
        f = Flag(o["flag"], o["name"], o.get("type", "str"),
                 o.get("default"), o.get("choices"), o.get("aliases") or [],
                 "options.yaml")
        f.help = o.get("help") or ""
        f.deprecated = "deprecated" in o
        out[f.flag] = f
    return out


# ------------------------------------------------------------------ compare

def same_default(a, b, ftype):
    if isinstance(b, Unresolved):
        return True          # nothing the static reading can compare
    if ftype in ("bool", "boolopt") and not a and not b:
        return True          # store_true: None and False read the same
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and \
            not isinstance(a, bool) and not isinstance(b, bool):
        return float(a) == float(b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return list(a) == list(b)
    return a == b


def comparable_type(t):
    return not t.startswith("custom:")


def show(v):
    if isinstance(v, Unresolved):
        return repr(v)
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(show(x) for x in v) + "]"
    if isinstance(v, str) and (v in ("", "null", "true", "false", "~") or
                               looks_numeric(v) or v != v.strip() or
                               any(c in v for c in "{}[],:#'\"&*!|>%@`")):
        return "'%s'" % v.replace("'", "''")
    return str(v)


def looks_numeric(s):
    try:
        float(s)
        return True
    except ValueError:
        return False


def compare(cat, sg):
    rows = []
    sg_alias = {a: f for f in sg.values() for a in f.aliases}
    cat_alias = {a: f for f in cat.values() for a in f.aliases}
    removed = [f for k, f in cat.items() if k not in sg]
    added = [f for k, f in sg.items() if k not in cat]
    renamed_old, renamed_new = set(), set()
    for f in removed:
        new = sg_alias.get(f.flag)
        if new is not None and new.flag in f.aliases:
            rows.append(("spelling", f.flag, "%s: SGLang lists it as an alias "
                         "of %s, the catalog the other way round (both "
                         "spellings work with both)" % (f.flag, new.flag)))
            renamed_old.add(f.flag)
            renamed_new.add(new.flag)
            continue
        if new is None:
            by_dest = [a for a in added if a.dest == f.dest]
            by_help = [a for a in added if f.help and a.help == f.help]
            cand = by_dest or by_help
            new = cand[0] if len(cand) == 1 else None
            why = "same dest" if by_dest else "same help text"
        else:
            why = "the old spelling is now an alias"
        if new is not None and new.flag not in renamed_new:
            rows.append(("renamed", f.flag, "catalog %s is %s in SGLang (%s)"
                         % (f.flag, new.flag, why)))
            renamed_old.add(f.flag)
            renamed_new.add(new.flag)
    for f in removed:
        if f.flag in renamed_old:
            continue
        if f.flag in sg_alias:
            continue
        rows.append(("removed", f.flag, "%s (dest %s): in the catalog, not in "
                     "SGLang" % (f.flag, f.dest)))
    for f in added:
        if f.flag in renamed_new or f.flag in cat_alias:
            continue
        rows.append(("added", f.flag, "%s (dest %s, %s, default %s%s) at %s" %
                     (f.flag, f.dest, f.type, show(f.default),
                      ", choices %s" % show(f.choices) if f.choices else "",
                      f.origin)))
    for k in sorted(set(cat) & set(sg)):
        c, s = cat[k], sg[k]
        st = s.type
        if st == "deprecated":
            st = "str"
        if comparable_type(st) and c.type != st and not (
                c.deprecated or s.deprecated):
            rows.append(("type", k, "%s: catalog %s, SGLang %s (%s)" %
                         (k, c.type, st, s.origin)))
        if not c.deprecated and not same_default(c.default, s.default, c.type):
            rows.append(("default", k, "%s: catalog %s, SGLang %s (%s)" %
                         (k, show(c.default), show(s.default), s.origin)))
        if isinstance(s.choices, list) and c.choices != s.choices:
            cs = set(map(str, c.choices or []))
            ss = set(map(str, s.choices))
            if cs != ss:
                more = sorted(ss - cs)
                less = sorted(cs - ss)
                rows.append(("choices", k, "%s: SGLang adds %s, drops %s (%s)"
                             % (k, more or "nothing", less or "nothing",
                                s.origin)))
        if set(c.aliases) != set(s.aliases) and k not in renamed_new:
            rows.append(("aliases", k, "%s: catalog %s, SGLang %s" %
                         (k, show(sorted(c.aliases)), show(sorted(s.aliases)))))
    order = ["added", "removed", "renamed", "spelling", "type", "default",
             "choices", "aliases"]
    rows.sort(key=lambda r: (order.index(r[0]), r[1]))
    return rows


def main():
    ap = argparse.ArgumentParser(
        prog="sgdiff", description="compare an SGLang checkout's server "
        "flags with pdwiz's option catalog")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--catalog", default=os.path.join(here, "..", "rules",
                                                      "options.yaml"))
    ap.add_argument("--format", choices=["text", "tsv"], default="text")
    ap.add_argument("--dump", action="store_true",
                    help="print the flags read from SGLANG and stop")
    ap.add_argument("sglang", metavar="SGLANG")
    a = ap.parse_args()
    sg = sglang_flags(a.sglang)
    if a.dump:
        for k in sorted(sg):
            f = sg[k]
            print("\t".join([f.flag, f.dest, f.type, show(f.default),
                             show(f.choices) if f.choices else "",
                             ",".join(f.aliases)]))
        return 0
    cat = catalog_flags(a.catalog)
    rows = compare(cat, sg)
    counts = {}
    for kind, flag, text in rows:
        counts[kind] = counts.get(kind, 0) + 1
        if a.format == "tsv":
            print("%s\t%s\t%s" % (kind, flag, text))
        else:
            print("%-8s %s" % (kind, text))
    if a.format == "text":
        print("sgdiff: %d SGLang flags, %d catalog flags; %s" % (
            len(sg), len(cat), ", ".join(
                "%d %s" % (counts.get(k, 0), k) for k in
                ["added", "removed", "renamed", "spelling", "type", "default",
                 "choices", "aliases"])))
    return 1 if rows else 0


if __name__ == "__main__":
    sys.exit(main())
