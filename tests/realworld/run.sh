#!/bin/sh
# The real-world corpus (files/, PROVENANCE.tsv) through the real binary:
# every file gives one JSON document; a file pdwiz reads gives no error
# that its expected verdict (PROVENANCE.tsv, judged from SGLang's real
# behaviour) does not name; a file it cannot read is refused (exit 2) with
# a message naming what it is; the real problems pdwiz can see are found.
# Prints "N passed, N failed". PDWIZ may point at another build.
cd "$(dirname "$0")/../.." || exit 2
PDWIZ=${PDWIZ:-$PWD/pdwiz}
export PDWIZ_DATADIR="$PWD"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# Errors the expected verdict does not name, allowed with the reason (one
# line each: file<TAB>rule<TAB>why). None at present: keep it that way.
ALLOWED=''

tail -n +2 tests/realworld/PROVENANCE.tsv | cut -f1,7 >"$T/expected"
n=0
while IFS="$(printf '\t')" read -r file expected; do
	f=tests/realworld/files/$file
	[ -f "$f" ] || { bad "$file: listed in PROVENANCE.tsv but missing"; continue; }
	n=$((n + 1))
	"$PDWIZ" check --format json "$f" >"$T/out" 2>"$T/err"
	rc=$?
	python3 - "$T/out" "$rc" "$file" "$expected" "$ALLOWED" <<'PY' && ok || bad "$file (exit $rc)"
import json, sys
out, rc, name, expected, allowed = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
o = json.load(open(out))                      # one document, always
assert rc in (0, 1, 2), rc
if rc == 2:
    assert o.get("unusable") and len(o["diagnostics"]) == 1, o
    msg = o["diagnostics"][0]["message"]
    assert any(w in msg for w in ("manifest", "recipe", "not an SGLang --config",
        "no SGLang command", "no fenced shell block", "more than one YAML document",
        "anchors", "aliases")), msg
    sys.exit(0)
ok_rules = {l.split("\t")[1] for l in allowed.splitlines() if l.split("\t")[0] == name}
errors = [d for d in o["diagnostics"] if d["severity"] == "error" and d["rule"] not in ok_rules]
if expected.startswith("clean") or expected.startswith("unknown"):
    assert not errors, [(d["rule"], d["message"][:120]) for d in errors]
PY
done <"$T/expected"
[ "$n" -ge 40 ] && ok || bad "only $n files in the corpus"

# The real problems pdwiz finds (problems.tsv: file<TAB>rule<TAB>what):
# each file's JSON output must carry a diagnostic of that rule.
grep -v '^#' tests/realworld/problems.tsv | grep -v '^$' >"$T/problems"
while IFS="$(printf '\t')" read -r file rule what args; do
	# shellcheck disable=SC2086 # args: options, split on purpose
	"$PDWIZ" check --format json $args "tests/realworld/files/$file" >"$T/out" 2>/dev/null
	python3 - "$T/out" "$rule" <<'PY' && ok || bad "$file: $what (no $rule error or warning${args:+ with $args})"
import json, sys
o = json.load(open(sys.argv[1]))
assert any(d["rule"] == sys.argv[2] and d["severity"] in ("error", "warning")
           for d in o["diagnostics"])
PY
done <"$T/problems"

echo "realworld: $pass passed, $fail failed"
[ "$fail" = 0 ]
