#!/bin/sh
# One verdict: the set of error and warning rule ids pdwiz gives an input
# is the same however it arrives -
#   check FILE;
#   import FILE, then check of the deployment file written;
#   for a deployment (a deployment file, or what import wrote): emit in
#   each launch format (shell, config's launch.sh, runbook, k8s, yaml),
#   then check.
# Inputs: every example (share/examples), the deployment corpus
# (tests/deploy/corpus), this suite's own deployments (tests/verdict: the
# accelerator as a model fact), the real-world script cases and, where
# present, the real-world corpus beside the project. Import may refuse only
# what check also cannot read, or an input without a prefill, decode or
# router command (nothing to import); words it could not place are
# reported and the rest compared (--keep-going). Known differences are in
# known.tsv with the reason; none may be added silently, and a line that
# agrees again fails. The reports are judged at the end in one Python
# (compare.py). Prints "verdict: N passed, N failed".
cd "$(dirname "$0")/../.." || exit 2
PDWIZ=${PDWIZ:-$PWD/pdwiz}
export PDWIZ_DATADIR="$PWD"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
RW=${PDWIZ_REALWORLD:-$PWD/../shared/realworld}/files
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
R=$T/results
: >"$R"
k=0

# report INPUT ROUTE FILE: check FILE, one line into the results.
report() {
	k=$((k + 1))
	"$PDWIZ" check --format json "$3" >"$T/$k.json" 2>/dev/null
	if [ $? = 2 ]; then
		printf '%s\t%s\texit 2\n' "$1" "$2" >>"$R"
	else
		printf '%s\t%s\t%s\n' "$1" "$2" "$T/$k.json" >>"$R"
	fi
}
assert() { printf '%s\tassert\t%s\n' "$1" "$2" >>"$R"; }

# exports INPUT DEPLOYMENT: emit in each format, check each launch file.
exports() {
	for fmt in shell config runbook k8s yaml; do
		d=$T/e$k.$fmt
		mkdir "$d"
		if ! "$PDWIZ" emit --force --format $fmt -o "$d" "$2" >/dev/null 2>"$T/emit.err"; then
			assert "$1" "emit --format $fmt: $(head -c 300 "$T/emit.err" | tr '\t\n' '  ')"
			continue
		fi
		case $fmt in
		shell|config) f=$d/launch.sh ;;
		runbook) f=$d/RUNBOOK.md ;;
		k8s) f=$d/k8s.yaml ;;
		yaml) f=$d/deployment.yaml ;;
		esac
		report "$1" "emit $fmt" "$f"
	done
}

n=0
for f in share/examples/* tests/deploy/corpus/* tests/verdict/*.yaml \
    tests/realworld/cases/*.sh "$RW"/*; do
	[ -f "$f" ] || continue
	b=${f#"$PWD"/}
	n=$((n + 1))
	report "$b" check "$f"
	refused=$(tail -n 1 "$R" | cut -f3)
	# A deployment file: its exports.
	if head -c 4096 "$f" | grep -q '^pdwiz: '; then
		[ "$refused" = "exit 2" ] || exports "$b" "$f"
		continue
	fi
	# Anything else: import, then the deployment and its exports.
	i=$T/i$n.yaml
	"$PDWIZ" import -o "$i" "$f" >/dev/null 2>"$T/imp.err"
	rc=$?
	# Words import could not place are reported; the rest is compared.
	if [ $rc != 0 ] && grep -q 'nothing written (--keep-going' "$T/imp.err"; then
		"$PDWIZ" import --keep-going -o "$i" "$f" >/dev/null 2>"$T/imp.err"
		rc=$?
	fi
	if [ $rc != 0 ]; then
		printf '%s\timport refuses\t%s\n' "$b" "$(tr '\t\n' '  ' <"$T/imp.err" | sed "s|$PWD/||g")" >>"$R"
		continue
	fi
	[ "$refused" = "exit 2" ] && { assert "$b" "check refuses it, import does not"; continue; }
	report "$b" import "$i"
	exports "$b" "$i"
done
[ "$n" -ge 50 ] && assert inputs ok || assert inputs "only $n inputs"
# The accelerator reaches every export: the L40S deployment's two errors
# from its file and from its manifests (and, above, every route).
L=tests/verdict/l40s-70b-tp1.yaml
"$PDWIZ" check "$L" | grep -q '^2 errors, ' && assert "$L" ok ||
    assert "$L" "the file does not give 2 errors"
mkdir "$T/l40s"
"$PDWIZ" emit --force --format k8s -o "$T/l40s" "$L" 2>/dev/null
"$PDWIZ" check "$T/l40s/k8s.yaml" | grep -q '^2 errors, ' && assert "$L" ok ||
    assert "$L" "its manifests do not give 2 errors"
grep -q "^$L	check	" "$R" && grep "^$L	check	" "$R" | cut -f3 | xargs grep -q '"rule":"fit-weights","severity":"error"' &&
    assert "$L" ok || assert "$L" "no fit-weights error"

[ -d "$RW" ] || echo "skipped: the real-world corpus is not present ($RW)"
c=0; [ -d "$RW" ] && c=1
$PY tests/verdict/compare.py "$R" tests/verdict/known.tsv $c
