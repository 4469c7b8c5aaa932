# tests/cli/lint.sh - `pdwiz check` as a CI linter: many files and
# directories in one run, nothing-to-check, thresholds, formats. Sourced by
# tests/cli/run.sh (uses its PDWIZ, T, ok, bad, expect_rc).

L=$T/lint
PDWIZ_ABS=$(cd "$(dirname "$PDWIZ")" && pwd)/$(basename "$PDWIZ")
mkdir -p "$L/repo/deploy" "$L/repo/docs" "$L/repo/ignored" "$L/repo/vendor/x"
LS="python -m sglang.launch_server --model-path m"
printf '#!/bin/sh\n%s --tp-size 2\n' "$LS" >"$L/repo/deploy/good.sh"
printf '#!/bin/sh\n%s --tp-sizee 2\n' "$LS" >"$L/repo/deploy/bad.sh"
printf '#!/bin/sh\n%s --disaggregation-mode prefill --disaggregation-transfer-backend mooncake\n' "$LS" >"$L/repo/deploy/warn.sh"
printf '# Notes\n\nNothing to run.\n' >"$L/repo/docs/README.md"
printf 'name: ci\non: [push]\njobs: {}\n' >"$L/repo/docs/workflow.yml"
printf '%s --tp-sizee 9\n' "$LS" >"$L/repo/ignored/bad.sh"
printf '%s --tp-sizee 8\n' "$LS" >"$L/repo/vendor/x/bad.sh"
printf 'binary \0 file' >"$L/repo/deploy/blob.bin"
printf '#!/usr/bin/env bash\n%s --tp-sizee 7\n' "$LS" >"$L/repo/deploy/launch"
printf 'ignored/\n' >"$L/repo/.gitignore"

# --- several files in one run: one report, exit over all of them ---
expect_rc "two files, one bad" 1 $PDWIZ check "$L/repo/deploy/good.sh" "$L/repo/deploy/bad.sh"
grep -q "^$L/repo/deploy/bad.sh:2:[0-9]*: error: unrecognized arguments: --tp-sizee 2 \[argparse-unrecognized\]$" "$T/out" && ok || bad "two files: the bad one's error: $(cat "$T/out")"
grep -q "in 2 commands of 2 files" "$T/out" && ok || bad "two files: one summary over both: $(tail -2 "$T/out")"
expect_rc "two good files" 0 $PDWIZ check "$L/repo/deploy/good.sh" "$L/repo/deploy/warn.sh"

# --- a directory: walked; without git every candidate file ---
expect_rc "a directory (no git)" 1 $PDWIZ check --format json "$L/repo"
python3 - "$T/out" "$L/repo" <<'PY' && ok || bad "directory walk (no git): $(head -c 600 "$T/out")"
import json, sys
o = json.load(open(sys.argv[1])); r = sys.argv[2] + "/"
files = {f["file"][len(r):]: f["status"] for f in o["files"]}
# by name: .sh, .md, .yml, and the extensionless script by its #! line;
# not the binary blob (its name says nothing), nothing under .git
assert files == {"deploy/bad.sh": "checked", "deploy/good.sh": "checked",
    "deploy/launch": "checked", "deploy/warn.sh": "checked",
    "docs/README.md": "nothing", "docs/workflow.yml": "nothing",
    "ignored/bad.sh": "checked", "vendor/x/bad.sh": "checked"}, files
assert o["version"] == 1 and o["file"] is None
assert sorted(o["files"], key=lambda f: f["file"]) == o["files"], "not sorted"
assert all("file" in d for d in o["diagnostics"])
errs = sorted(d["file"][len(r):] for d in o["diagnostics"] if d["severity"] == "error")
assert errs == ["deploy/bad.sh", "deploy/launch", "ignored/bad.sh", "vendor/x/bad.sh"], errs
s = o["summary"]
assert (s["files"], s["checked"], s["nothing"], s["unusable"]) == (8, 6, 2, 0), s
PY
# --exclude: a glob on the path, "**" across folders, a bare name anywhere
expect_rc "--exclude" 1 $PDWIZ check --format json --exclude 'vendor' --exclude '**/ignored/*.sh' --exclude 'launch' "$L/repo"
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); f=sorted(x["file"].rsplit("/",2)[-2]+"/"+x["file"].rsplit("/",1)[-1] for x in o["files"]); assert f==["deploy/bad.sh","deploy/good.sh","deploy/warn.sh","docs/README.md","docs/workflow.yml"], f' "$T/out" && ok || bad "--exclude: $(head -c 400 "$T/out")"
# In a git work tree: what git would commit (ignored files left out).
if command -v git >/dev/null 2>&1; then
	git -C "$L/repo" init -q 2>/dev/null
	mkdir -p "$L/repo/.git/hooks"
	printf '%s --tp-sizee 5\n' "$LS" >"$L/repo/.git/hooks/pre-push.sh"
	expect_rc "a git work tree" 1 $PDWIZ check --format json "$L/repo"
	python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); f=[x["file"] for x in o["files"]]; assert not [x for x in f if "/ignored/" in x or "/.git/" in x], f; assert len(f)==7, f' "$T/out" && ok || bad "git work tree: ignored and .git files read: $(head -c 600 "$T/out")"
	(cd "$L/repo" && $PDWIZ_ABS check --format json . >"$T/out" 2>&1)
	python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); f=[x["file"] for x in o["files"]]; assert "deploy/bad.sh" in f and not [x for x in f if x.startswith("./")], f' "$T/out" && ok || bad "check . names files as git does: $(head -c 300 "$T/out")"
else
	ok; ok
fi

# --- nothing to check: exit 0, a note under -v only ---
expect_rc "only files with nothing to check" 0 $PDWIZ check "$L/repo/docs"
[ ! -s "$T/out" ] && ok || bad "nothing to check prints nothing: $(cat "$T/out")"
expect_rc "only files with nothing to check, -v" 0 $PDWIZ check -v "$L/repo/docs"
grep -q "README.md:1:1: note: nothing to check: no fenced shell block" "$T/out" && grep -q "nothing to check in 2 files" "$T/out" && ok || bad "nothing to check, -v: $(cat "$T/out")"
# A named file that is unreadable stays exit 2, the others are reported.
expect_rc "a missing file among good ones" 2 $PDWIZ check --format json "$L/repo/deploy/good.sh" "$L/nope.sh"
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); s={f["file"].rsplit("/",1)[1]: f["status"] for f in o["files"]}; assert s=={"good.sh":"checked","nope.sh":"unusable"}, s; assert o["unusable"] is True and o["valid"] is False' "$T/out" && ok || bad "missing file among good: $(head -c 400 "$T/out")"
grep -q "nope.sh: No such file or directory" "$T/err" && ok || bad "missing file: stderr: $(cat "$T/err")"
# A Helm template: render it first.
printf 'apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: {{ .Values.replicas }}\n  template:\n    spec:\n      containers:\n        - image: lmsysorg/sglang:latest\n          command: [python3, -m, sglang.launch_server]\n' >"$L/helm.yaml"
expect_rc "a Helm template" 2 $PDWIZ check "$L/helm.yaml"
grep -q "helm.yaml:4:13: a Helm template ({{ ... }}): render it first with \`helm template\`" "$T/err" && ok || bad "Helm template message: $(cat "$T/err")"

# --- thresholds: --fail-on, --quiet, --ignore ---
expect_rc "a warning does not fail by default" 0 $PDWIZ check "$L/repo/deploy/warn.sh"
expect_rc "--fail-on warning" 1 $PDWIZ check --fail-on warning "$L/repo/deploy/warn.sh"
expect_rc "--fail-on bogus" 2 $PDWIZ check --fail-on note "$L/repo/deploy/warn.sh"
expect_rc "--quiet" 1 $PDWIZ check --quiet "$L/repo/deploy/warn.sh" "$L/repo/deploy/bad.sh"
[ "$(grep -c . "$T/out")" = 2 ] && grep -q "^$L/repo/deploy/bad.sh:2:.*error" "$T/out" && ! grep -q "warning\|not checked\|could not" "$T/out" && ok || bad "--quiet shows only what fails: $(cat "$T/out")"
expect_rc "--quiet, nothing fails" 0 $PDWIZ check -q "$L/repo/deploy/warn.sh"
[ ! -s "$T/out" ] && ok || bad "--quiet with nothing failing prints nothing: $(cat "$T/out")"
expect_rc "--ignore the rule that fails" 0 $PDWIZ check --format json --ignore argparse-unrecognized "$L/repo/deploy/bad.sh"
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); assert o["files"][0]["suppressed"]==1 and not [d for d in o["diagnostics"] if d["rule"]=="argparse-unrecognized"]' "$T/out" && ok || bad "--ignore: $(head -c 300 "$T/out")"
expect_rc "--ignore an unknown rule" 2 $PDWIZ check --ignore no-such-rule "$L/repo/deploy/bad.sh"
grep -q "ignore: no rule 'no-such-rule'" "$T/err" && ok || bad "--ignore unknown rule message: $(cat "$T/err")"

# --- could-not-check: counted by what it lacks; --show-unknown lists each ---
$PDWIZ check "$L/repo/deploy/warn.sh" >"$T/out" 2>&1
grep -q "^1 check could not be run (--show-unknown lists each):$" "$T/out" && grep -q "^  1 needs model architecture: pass --model-arch" "$T/out" && ! grep -q ": note: could not check" "$T/out" && ok || bad "could-not-check grouped: $(cat "$T/out")"
$PDWIZ check --show-unknown "$L/repo/deploy/warn.sh" >"$T/out" 2>&1
grep -q ":2:[0-9]*: note: could not check: model architecture unknown" "$T/out" && ! grep -q "could not be run" "$T/out" && ok || bad "--show-unknown lists each: $(cat "$T/out")"
# overrides are notes, the kind in the message
$PDWIZ check -v "$L/repo/deploy/warn.sh" >"$T/out" 2>&1
grep -q ":[0-9]*:[0-9]*: note: override: " "$T/out" && ! grep -qE ':[0-9]+: (unknown|override): ' "$T/out" && ok || bad "overrides as notes: $(head -5 "$T/out")"

# --- colour: auto (a terminal, NO_COLOR), always, never ---
$PDWIZ check --color always "$L/repo/deploy/bad.sh" >"$T/out" 2>&1
grep -q "$(printf '\033')" "$T/out" && ok || bad "--color always"
NO_COLOR=1 $PDWIZ check --color never "$L/repo/deploy/bad.sh" >"$T/out" 2>&1
grep -q "$(printf '\033')" "$T/out" && bad "--color never" || ok
expect_rc "--color bogus" 2 $PDWIZ check --color sometimes "$L/repo/deploy/bad.sh"

# --- SARIF: one run for all inputs; could-not-check is kind open; stdin has a place ---
$PDWIZ check --format sarif "$L/repo/deploy" >"$T/out" 2>&1
python3 - "$T/out" <<'PY' && ok || bad "SARIF over a directory: $(head -c 600 "$T/out")"
import json, sys
o = json.load(open(sys.argv[1]))
assert len(o["runs"]) == 1
res = o["runs"][0]["results"]
uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].rsplit("/", 1)[1] for r in res}
assert {"bad.sh", "launch", "warn.sh"} <= uris, uris
opens = [r for r in res if r.get("kind") == "open"]
assert opens and all(r["level"] == "none" for r in opens), opens
assert all(r.get("kind", "fail") == "fail" or r["level"] == "none" for r in res)
rules = o["runs"][0]["tool"]["driver"]["rules"]
assert [r["id"] for r in rules].count("argparse-unrecognized") <= 1
withsrc = [r for r in rules if "sglangSource" in r.get("properties", {})]
assert withsrc and all(r["helpUri"].startswith("https://github.com/sgl-project/sglang/blob/") for r in withsrc), rules
assert all("pdwiz explain " + r["id"] in r["help"]["text"] for r in rules if "help" in r)
PY
printf '%s --tp-sizee 2\n' "$LS" | $PDWIZ check --format sarif - >"$T/out" 2>&1
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); r=o["runs"][0]["results"]; assert r and all(x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]=="stdin" for x in r), r' "$T/out" && ok || bad "SARIF from stdin has a location: $(head -c 400 "$T/out")"
printf '%s --tp-sizee 2\n' "$LS" | $PDWIZ check --format sarif --stdin-filename 'deploy/a b.sh' - >"$T/out" 2>&1
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); r=o["runs"][0]["results"]; assert r and all(x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]=="deploy/a%20b.sh" for x in r), r' "$T/out" && ok || bad "SARIF --stdin-filename: $(head -c 400 "$T/out")"
printf '%s --tp-sizee 2\n' "$LS" | $PDWIZ check --stdin-filename deploy/s.sh - >"$T/out" 2>&1
grep -q "^deploy/s.sh:1:[0-9]*: error: " "$T/out" && ok || bad "text --stdin-filename: $(cat "$T/out")"
expect_rc "stdin named twice" 2 $PDWIZ check - - </dev/null

# --- GitHub annotations over many files; could-not-checks folded per file ---
$PDWIZ check --format github "$L/repo/deploy" >"$T/out" 2>&1
grep -q "^::error file=$L/repo/deploy/bad.sh,line=2,col=[0-9]*,title=pdwiz argparse-unrecognized::" "$T/out" && grep -q "^::notice file=$L/repo/deploy/warn.sh,line=2,title=pdwiz not-checked::1 check could not be run" "$T/out" && ok || bad "github over a directory: $(cat "$T/out")"

# --- JSON over several inputs: one document ---
$PDWIZ check --format json "$L/repo/deploy/bad.sh" "$L/repo/deploy/warn.sh" >"$T/out" 2>&1
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); assert o["version"]==1 and len(o["files"])==2 and {c["file"] for c in o["commands"]}=={f["file"] for f in o["files"]}' "$T/out" && ok || bad "JSON over two files: $(head -c 300 "$T/out")"

# --- every JSON document matches the schema in share/ (share/check.schema.json) ---
k=0
for args in "$L/repo" "$L/repo/deploy/bad.sh" "$L/repo/docs" "$L/nope.sh" "$L/helm.yaml" \
    "--ignore argparse-unrecognized $L/repo/deploy/bad.sh" "-v $L/repo/deploy/warn.sh" \
    "--frobnicate" "share/examples" "-- python -m sglang.launch_server --model-path m --tp-size 3"; do
	k=$((k + 1))
	# shellcheck disable=SC2086 # the words of args, split on purpose
	$PDWIZ check --format json $args >"$L/doc$k.json" 2>/dev/null
done
python3 - share/check.schema.json "$L"/doc*.json <<'PY' && ok || bad "JSON documents against share/check.schema.json"
import json, sys
try:
    import jsonschema
except ImportError:
    sys.exit("python3-jsonschema is not installed (tests/deps.sh installs it)")
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
for f in sys.argv[2:]:
    doc = json.load(open(f))
    errs = sorted(v.iter_errors(doc), key=str)
    assert not errs, "%s: %s" % (f, errs[0])
PY

# --- a manifest that names SGLang but launches none of its commands ---
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: store}\nspec:\n  containers:\n    - name: s\n      image: lmsysorg/sglang:v0.5.3\n      command: [mooncake_master, --port, "50051"]\n' >"$L/store.yaml"
expect_rc "a manifest with an SGLang image and no SGLang command" 0 $PDWIZ check -v "$L/store.yaml"
grep -q "store.yaml:1:1: note: nothing to check: .*with no SGLang command" "$T/out" && ok || bad "SGLang image, no command: $(cat "$T/out" "$T/err")"
# could-not-checks without a missing fact are counted by reason (rules
# with the same one together), else by rule with the first reason shown
printf 'python -m sglang.launch_server --model-path m --disaggregation-mode prefill --host 0.0.0.0 --port 30000\npython -m sglang.launch_server --model-path m --disaggregation-mode decode --host 0.0.0.0 --port 30001\npython -m sglang_router.launch_router --pd-disaggregation --prefill http://p0:30000 --decode http://d0:30001\n' >"$L/pd.sh"
$PDWIZ check "$L/pd.sh" >"$T/out" 2>&1
grep -q "^  2 checks: pdwiz cannot tell whether the router.s http://p0:30000 is prefill 0.*\[xs-router-missing, xs-router-unknown\]$" "$T/out" && ok || bad "could-not-checks by reason: $(cat "$T/out")"

# --- inline suppressions: # pdwiz: disable=RULE, disable-file, Markdown ---
S=$L/supp
mkdir -p "$S"
printf '# pdwiz: disable=argparse-unrecognized\n%s \\\n  --tp-sizee 2\n' "$LS" >"$S/above.sh"
expect_rc "a suppression above a command" 0 $PDWIZ check --format json "$S/above.sh"
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); assert o["files"][0]["suppressed"]==1 and not o["diagnostics"], o' "$T/out" && ok || bad "suppression above: $(head -c 300 "$T/out")"
printf '%s --tp-sizee 2  # pdwiz: disable=argparse-unrecognized\n%s --tp-sizee 3\n' "$LS" "$LS" >"$S/same.sh"
expect_rc "a suppression on its line only" 1 $PDWIZ check "$S/same.sh"
grep -q "same.sh:2:.*--tp-sizee 3" "$T/out" && ! grep -q "same.sh:1:" "$T/out" && ok || bad "same-line suppression: $(cat "$T/out")"
printf '%s --tp-sizee 2\n# pdwiz: disable-file=argparse-unrecognized\n%s --tp-sizee 3\n' "$LS" "$LS" >"$S/file.sh"
expect_rc "disable-file" 0 $PDWIZ check "$S/file.sh"
printf '# Guide\n\n<!-- pdwiz: disable=argparse-unrecognized -->\n```bash\n%s \\\n  --tp-sizee 2\n```\n\n```bash\n%s --tp-sizee 3\n```\n' "$LS" "$LS" >"$S/guide.md"
expect_rc "a Markdown suppression before a block" 1 $PDWIZ check "$S/guide.md"
grep -q "guide.md:10:.*--tp-sizee 3" "$T/out" && ! grep -q "tp-sizee 2" "$T/out" && ok || bad "Markdown suppression: $(cat "$T/out")"
printf '# pdwiz: disable=xs-tp-non-mla\n%s --tp-size 2\n# pdwiz: disabel=x\n# pdwiz: disable=no-such-rule\n%s --tp-size 2\n' "$LS" "$LS" >"$S/stale.sh"
expect_rc "an unused, a malformed and an unknown suppression" 0 $PDWIZ check -v "$S/stale.sh"
grep -q "stale.sh:1:[0-9]*: note: the suppression of xs-tp-non-mla suppresses nothing: remove it \[suppression-unused\]" "$T/out" &&
    grep -q "stale.sh:3:[0-9]*: warning: unknown pdwiz directive 'disabel' (did you mean 'disable'?) \[suppression-invalid\]" "$T/out" &&
    grep -q "stale.sh:4:[0-9]*: warning: no rule 'no-such-rule'" "$T/out" && ok || bad "suppression reports: $(cat "$T/out")"
expect_rc "an unused suppression is said under -v only" 0 $PDWIZ check "$S/stale.sh"
! grep -q "suppression-unused" "$T/out" && grep -q "suppression-invalid" "$T/out" && ok || bad "unused suppression without -v: $(cat "$T/out")"

# --- .pdwiz.yaml: found upward from each file, up to the repository root ---
R=$L/rcrepo
mkdir -p "$R/.git" "$R/a/b" "$R/vendor"
printf '%s --tp-sizee 2\n' "$LS" >"$R/a/b/bad.sh"
printf '#!/bin/sh\n%s --disaggregation-mode prefill --disaggregation-transfer-backend mooncake\n' "$LS" >"$R/a/warn.sh"
printf '%s --tp-sizee 2\n' "$LS" >"$R/vendor/x.sh"
printf 'ignore: [argparse-unrecognized]\n' >"$L/.pdwiz.yaml"	# above the repository: not used
expect_rc "no .pdwiz.yaml in the repository (one above it is not read)" 1 $PDWIZ check "$R/a/b/bad.sh"
printf '# the repository'"'"'s\nignore:\n  - argparse-unrecognized\nexclude: [vendor]\nfail-on: warning\n' >"$R/.pdwiz.yaml"
expect_rc ".pdwiz.yaml: ignore, exclude, fail-on" 1 $PDWIZ check --format json "$R"
python3 - "$T/out" <<'PY' && ok || bad ".pdwiz.yaml over a tree: $(head -c 500 "$T/out")"
import json, sys
o = json.load(open(sys.argv[1]))
files = {f["file"].rsplit("/", 1)[1]: f for f in o["files"]}
assert set(files) == {"bad.sh", "warn.sh"}, files           # vendor/ excluded
assert files["bad.sh"]["suppressed"] == 1 and files["bad.sh"]["errors"] == 0
assert files["warn.sh"]["warnings"] == 1                     # fails the run: fail-on warning
PY
expect_rc "--fail-on on the command line wins" 0 $PDWIZ check --fail-on error "$R"
printf 'severity:\n  tb-ib-none: error\n' >"$R/a/.pdwiz.yaml"	# nearer: wins for a/
expect_rc ".pdwiz.yaml: a severity made error" 1 $PDWIZ check "$R/a/warn.sh"
grep -q "warn.sh:2:[0-9]*: error: No IB devices specified" "$T/out" && ok || bad "severity error: $(cat "$T/out")"
printf 'severity:\n  tb-ib-none: "off"\nfacts:\n  gpu: H100\n  sglang-version: 0.5.3\n' >"$R/a/.pdwiz.yaml"
printf '%s --model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --trust-remote-code\n' "python -m sglang.launch_server" >"$R/a/ds.sh"
expect_rc ".pdwiz.yaml: facts (gpu H100)" 1 $PDWIZ check --format json "$R/a/ds.sh" "$R/a/warn.sh"
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); r=[d["rule"] for d in o["diagnostics"] if d["severity"]=="error"]; assert r==["fit-weights"], r; assert not [d for d in o["diagnostics"] if d["rule"]=="tb-ib-none"]' "$T/out" && ok || bad ".pdwiz.yaml facts: $(head -c 400 "$T/out")"
expect_rc "the command line's --gpu wins over the file's" 0 $PDWIZ check --gpu B200 "$R/a/ds.sh"
# --rcfile and PDWIZ_RC replace the search
printf 'ignore: [fit-weights]\n' >"$L/other.yaml"
expect_rc "--rcfile" 1 $PDWIZ check --rcfile "$L/other.yaml" "$R/a/b/bad.sh"
expect_rc "PDWIZ_RC" 0 env PDWIZ_RC="$L/other.yaml" $PDWIZ check --gpu H100 "$R/a/ds.sh"
# a broken configuration: every problem at FILE:LINE:COL, exit 2
printf 'ignored: [x]\nseverity:\n  tb-ib-none: warn\n  no-such-rule: error\nfacts:\n  gpu: Z9000\n' >"$R/a/.pdwiz.yaml"
expect_rc "a broken .pdwiz.yaml" 2 $PDWIZ check "$R/a/warn.sh"
grep -q "a/.pdwiz.yaml:1:1: unknown key 'ignored' (did you mean 'ignore'?)" "$T/err" && grep -q "a/.pdwiz.yaml:3:15: unknown severity 'warn'" "$T/err" && ok || bad "broken .pdwiz.yaml: $(cat "$T/err")"
printf 'severity:\n  no-such-rule: error\n' >"$R/a/.pdwiz.yaml"
expect_rc "a .pdwiz.yaml naming no rule" 2 $PDWIZ check --format json "$R/a/warn.sh"
grep -q "a/.pdwiz.yaml:2:3: no rule 'no-such-rule'" "$T/err" && python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); assert o["unusable"] and o["diagnostics"][0]["rule"]=="rcfile" and o["diagnostics"][0]["line"]==2' "$T/out" && ok || bad "unknown rule in .pdwiz.yaml: $(cat "$T/err" "$T/out")"
rm -f "$L/.pdwiz.yaml"

# --- a verdict line always, a clean run's too; a finding said once ---
expect_rc "a clean file" 0 $PDWIZ check share/examples/minimal-1p1d.yaml
[ "$(tail -1 "$T/out")" = "0 errors, 0 warnings, 0 not checked, 0 notes, in 3 commands" ] && ok || bad "clean run: no verdict line: $(cat "$T/out")"
printf 'pdwiz: 1\nname: "t"\nmodel:\n  path: "meta-llama/Llama-3.1-70B-Instruct"\n  facts:\n    gpu: H100\nshared:\n  options:\n    disaggregation_transfer_backend: "mooncake"\n    disaggregation_ib_device: "mlx5_0"\nroles:\n  prefill:\n    instances: 1\n    nodes_per_instance: 2\n    hosts: ["10.0.0.1", "10.0.0.2"]\n    options:\n      tp_size: 16\n  decode:\n    instances: 1\n    hosts: ["10.0.0.3"]\n    options:\n      tp_size: 8\n  router: {}\n' >"$L/two-node.yaml"
expect_rc "a 2-node instance" 0 $PDWIZ check "$L/two-node.yaml"
[ "$(grep -c 'note: memory per GPU: .* tp 16' "$T/out")" = 1 ] && grep -q "2 notes, in 4 commands" "$T/out" && ok || bad "the ranks of a 2-node instance say their memory note once: $(cat "$T/out")"
