#!/bin/sh
# The real-world suite through the real binary. Two sets of inputs:
#   - the corpus beside the project, ../shared/realworld/files/ (data files
#     of other projects: manifests, recipes, guides, issue snippets; kept
#     outside the repository, PDWIZ_REALWORLD may point elsewhere), judged
#     against the project's own expected verdicts in verdicts.tsv;
#   - cases/ (shell scripts written for pdwiz after real ones, listed with
#     their source and verdict in cases.tsv).
# Every input gives one JSON document; an input pdwiz reads gives no error
# that its expected verdict does not name; an input it cannot read is
# refused (exit 2) with a message naming what it is; and every real problem
# of problems.tsv is found. Without the corpus its part is skipped, said so,
# and the suite exits 77 (skipped), never 0.
# Prints "realworld: N passed, N failed[, N skipped]". PDWIZ may point at
# another build.
cd "$(dirname "$0")/../.." || exit 2
PDWIZ=${PDWIZ:-$PWD/pdwiz}
export PDWIZ_DATADIR="$PWD"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
CORPUS=${PDWIZ_REALWORLD:-$PWD/../shared/realworld}/files
CASES=tests/realworld/cases
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# Errors the expected verdict does not name, allowed with the reason (one
# line each: file<TAB>rule<TAB>why). None at present: keep it that way.
ALLOWED=''

# The inputs: path<TAB>name<TAB>expected verdict.
: >"$T/inputs"
if [ -d "$CORPUS" ]; then
	grep -v '^#' tests/realworld/verdicts.tsv |
	    awk -F'\t' -v d="$CORPUS" '{ print d "/" $1 "\t" $1 "\t" $2 }' >>"$T/inputs"
	# Every corpus file has a verdict, every verdict a file.
	for f in "$CORPUS"/*; do
		b=$(basename "$f")
		grep -q "^$b	" tests/realworld/verdicts.tsv ||
		    bad "$b: in the corpus, no verdict in tests/realworld/verdicts.tsv"
	done
else
	echo "skipped: the real-world corpus is not present ($CORPUS)"
	skip=$((skip + 1))
fi
tail -n +2 tests/realworld/cases.tsv |
    awk -F'\t' -v d="$CASES" '{ print d "/" $1 "\t" $1 "\t" $5 }' >>"$T/inputs"

n=0
while IFS="$(printf '\t')" read -r f file expected; do
	[ -f "$f" ] || { bad "$file: has a verdict but no file ($f)"; continue; }
	n=$((n + 1))
	"$PDWIZ" check --format json "$f" >"$T/out" 2>"$T/err"
	rc=$?
	$PY - "$T/out" "$rc" "$file" "$expected" "$ALLOWED" <<'PY' && ok || bad "$file (exit $rc)"
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
done <"$T/inputs"
ncases=$(tail -n +2 tests/realworld/cases.tsv | grep -c .)
[ "$ncases" -ge 12 ] && ok || bad "only $ncases script cases"
if [ -d "$CORPUS" ]; then
	[ "$n" -ge 40 ] && ok || bad "only $n inputs in the corpus and cases"
fi

# The real problems pdwiz finds (problems.tsv: file<TAB>rule<TAB>what):
# each input's JSON output must carry a diagnostic of that rule.
grep -v '^#' tests/realworld/problems.tsv | grep -v '^$' >"$T/problems"
while IFS="$(printf '\t')" read -r file rule what args; do
	if [ -f "$CASES/$file" ]; then
		f=$CASES/$file
	elif [ -d "$CORPUS" ]; then
		f=$CORPUS/$file
	else
		continue        # counted in the corpus's skip
	fi
	# shellcheck disable=SC2086 # args: options, split on purpose
	"$PDWIZ" check --format json $args "$f" >"$T/out" 2>/dev/null
	$PY - "$T/out" "$rule" <<'PY' && ok || bad "$file: $what (no $rule error or warning${args:+ with $args})"
import json, sys
o = json.load(open(sys.argv[1]))
assert any(d["rule"] == sys.argv[2] and d["severity"] in ("error", "warning")
           for d in o["diagnostics"])
PY
done <"$T/problems"

if [ "$skip" -gt 0 ]; then
	echo "realworld: $pass passed, $fail failed, $skip skipped"
	[ "$fail" = 0 ] && exit 77
	exit 1
fi
echo "realworld: $pass passed, $fail failed"
[ "$fail" = 0 ]
