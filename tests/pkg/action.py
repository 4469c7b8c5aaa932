#!/usr/bin/python3
# action.py ACTION_DIR WORKSPACE RESULT.json [INPUT=VALUE ...]: runs the
# composite action ACTION_DIR/action.yml as the Actions runner would, on
# this machine: its inputs (defaults, or INPUT=VALUE), each step in order
# with its `if:` evaluated, `${{ }}` expressions substituted in env, with,
# working-directory and outputs, `run:` steps executed by
# `bash --noprofile --norc -eo pipefail`, step outputs read back from
# $GITHUB_OUTPUT. A `uses:` step is not run: only the SARIF upload is
# known, and what it would upload is recorded. Writes RESULT.json: every
# step's name, status and outputs, the upload's `with`, the action's
# outputs and status; the steps' output goes to standard output. Fails on
# an expression or a step it does not know, never guesses.
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

action_dir, workspace, result_path = sys.argv[1:4]
action_dir = os.path.abspath(action_dir)
workspace = os.path.abspath(workspace)
with open(os.path.join(action_dir, "action.yml"), encoding="utf-8") as f:
    action = yaml.safe_load(f)


def die(msg):
    sys.exit("action.py: " + msg)


if action.get("runs", {}).get("using") != "composite":
    die("not a composite action")
declared = action.get("inputs") or {}
inputs = {k: str(v.get("default", "")) if v else "" for k, v in declared.items()}
for arg in sys.argv[4:]:
    k, _, v = arg.partition("=")
    if k not in declared:
        die("no input %r in action.yml" % k)
    inputs[k] = v

temp = tempfile.mkdtemp(prefix="action-",
                        dir=os.path.dirname(os.path.abspath(result_path)))
ctx = {
    "github": {"action_path": action_dir, "workspace": workspace},
    "runner": {"temp": temp, "os": "Linux"},
    "inputs": inputs,
    "steps": {},
    "env": {},
}
status = "success"  # of the job so far
step_ids = {st["id"] for st in action["runs"]["steps"] if st.get("id")}

# ---- expressions: a tokenizer and a recursive-descent parser ----
TOKEN = re.compile(r"\s*(?:(\|\||&&|==|!=|!|\(|\))|'((?:[^']|'')*)'"
                   r"|([A-Za-z_][A-Za-z0-9_.-]*(?:\(\))?))")


def tokens(expr):
    out, i = [], 0
    expr = expr.strip()
    while i < len(expr):
        m = TOKEN.match(expr, i)
        if not m or m.end() == i:
            die("cannot read expression %r at %r" % (expr, expr[i:]))
        if m.group(1):
            out.append(("op", m.group(1)))
        elif m.group(2) is not None:
            out.append(("str", m.group(2).replace("''", "'")))
        else:
            out.append(("name", m.group(3)))
        i = m.end()
        while i < len(expr) and expr[i].isspace():
            i += 1
    return out


def lookup(name):
    if name in ("always()", "success()", "failure()", "cancelled()"):
        return {"always()": True, "success()": status == "success",
                "failure()": status == "failure",
                "cancelled()": False}[name]
    if name in ("true", "false"):
        return name == "true"
    parts = name.split(".")
    if parts[0] == "steps":
        if len(parts) != 4 or parts[2] not in ("outputs", "outcome",
                                               "conclusion"):
            die("unknown step reference %r" % name)
        if parts[1] not in step_ids:
            die("%r: no step has the id %r" % (name, parts[1]))
        st = ctx["steps"].get(parts[1])
        return st["outputs"].get(parts[3], "") if st else ""
    if parts[0] not in ctx or len(parts) != 2:
        die("unknown context %r" % name)
    if parts[0] == "inputs" and parts[1] not in declared:
        die("%r: no such input" % name)
    if parts[0] in ("github", "runner") and parts[1] not in ctx[parts[0]]:
        die("%r: not known here" % name)
    return ctx[parts[0]].get(parts[1], "")


def as_str(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def truthy(v):
    return v if isinstance(v, bool) else v != ""


def evaluate(expr):
    toks = tokens(expr)
    pos = [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else (None, None)

    def take():
        t = peek()
        pos[0] += 1
        return t

    def primary():
        kind, val = take()
        if kind == "op" and val == "(":
            v = disj()
            if take() != ("op", ")"):
                die("missing ) in %r" % expr)
            return v
        if kind == "op" and val == "!":
            return not truthy(primary())
        if kind == "str":
            return val
        if kind == "name":
            return lookup(val)
        die("unexpected %r in %r" % (val, expr))

    def comparison():
        left = primary()
        while peek() in (("op", "=="), ("op", "!=")):
            op = take()[1]
            right = primary()
            same = as_str(left).lower() == as_str(right).lower()
            left = same if op == "==" else not same
        return left

    def conj():
        v = comparison()
        while peek() == ("op", "&&"):
            take()
            r = comparison()
            v = r if truthy(v) else v
        return v

    def disj():
        v = conj()
        while peek() == ("op", "||"):
            take()
            r = conj()
            v = v if truthy(v) else r
        return v

    v = disj()
    if pos[0] != len(toks):
        die("trailing words in expression %r" % expr)
    return v


def substitute(s):
    if not isinstance(s, str):
        return s
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: as_str(evaluate(m.group(1))),
                  s)


def read_outputs(path):
    out = {}
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line:
            continue
        m = re.match(r"^([A-Za-z0-9_-]+)<<(.+)$", line)
        if m:
            val = []
            while i < len(lines) and lines[i] != m.group(2):
                val.append(lines[i])
                i += 1
            i += 1
            out[m.group(1)] = "\n".join(val)
        elif "=" in line:
            k, _, v = line.partition("=")
            out[k] = v
        else:
            die("cannot read output line %r" % line)
    return out


result = {"steps": [], "upload": None}
for n, step in enumerate(action["runs"]["steps"]):
    name = step.get("name", "step %d" % n)
    cond = step.get("if", "success()")
    cond = cond.strip()
    if cond.startswith("${{") and cond.endswith("}}"):
        cond = cond[3:-2]
    # A condition without a status function holds only on success.
    if not re.search(r"\b(always|success|failure|cancelled)\(\)", cond):
        cond = "success() && (%s)" % cond
    rec = {"name": name, "id": step.get("id"), "outputs": {}}
    result["steps"].append(rec)
    if not truthy(evaluate(cond)):
        rec["status"] = "skipped"
        print("== %s: skipped (if: %s)" % (name, step.get("if")), flush=True)
        continue
    if "uses" in step:
        uses = step["uses"]
        if not uses.startswith("github/codeql-action/upload-sarif@"):
            die("step %r uses %s: not known here" % (name, uses))
        rec["status"] = "not run"
        result["upload"] = {k: substitute(v)
                            for k, v in (step.get("with") or {}).items()}
        print("== %s: not run here (%s)" % (name, uses), flush=True)
        continue
    if "run" not in step:
        die("step %r has neither run nor uses" % name)
    if step.get("shell") != "bash":
        die("step %r: shell %r (only bash is run here)" % (name,
                                                           step.get("shell")))
    if "${{" in step["run"]:
        die("step %r pastes an expression into its script" % name)
    files = {k: os.path.join(temp, "%s.%d" % (k, n))
             for k in ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH",
                       "GITHUB_STEP_SUMMARY")}
    for p in files.values():
        open(p, "w").close()
    env = dict(os.environ)
    env.update(ctx["env"])
    env.update(files)
    env.update({"GITHUB_ACTION_PATH": action_dir,
                "GITHUB_WORKSPACE": workspace, "RUNNER_TEMP": temp,
                "GITHUB_ACTIONS": "true", "CI": "true"})
    for k, v in (step.get("env") or {}).items():
        env[k] = as_str(substitute(v))
    cwd = substitute(step.get("working-directory", workspace))
    script = os.path.join(temp, "step%d.sh" % n)
    with open(script, "w", encoding="utf-8") as f:
        f.write(step["run"])
    print("== %s" % name, flush=True)
    rc = subprocess.call(["bash", "--noprofile", "--norc", "-eo", "pipefail",
                          script], cwd=cwd, env=env)
    rec["exit"] = rc
    rec["outputs"] = read_outputs(files["GITHUB_OUTPUT"])
    with open(files["GITHUB_ENV"], encoding="utf-8") as f:
        for line in f:
            if "=" in line:
                k, _, v = line.rstrip("\n").partition("=")
                ctx["env"][k] = v
    rec["status"] = "success" if rc == 0 else "failure"
    if rc != 0:
        status = "failure"
    if step.get("id"):
        ctx["steps"][step["id"]] = rec
    print("== %s: exit %d, outputs %s" % (name, rc, rec["outputs"]),
          flush=True)

result["status"] = status
result["outputs"] = {k: substitute(v.get("value", ""))
                     for k, v in (action.get("outputs") or {}).items()}
with open(result_path, "w", encoding="utf-8") as f:
    json.dump(result, f, indent=1)
