#!/bin/sh
# The oracle suite: pdwiz's launch-time verdict against SGLang's own, on
# the recorded corpus (tests/oracle/recorded/TREE.jsonl: command lines
# that tests/oracle/gen.py drew, each with the verdict SGLang's argparse,
# ServerArgs.__post_init__ and check_server_args gave it, recorded by
# tools/oracle/sgoracle.py on that SGLang tree). No SGLang is needed here:
# each case becomes a one-command script with its accelerator as a
# PDWIZ_FACT_gpu line and its model as a local config directory
# (tests/oracle/models), pdwiz checks each tree's scripts in one run
# (--sglang-version: a release tree's release, main's commit), and
# compare.py judges: refuse or
# accept, and whether SGLang's message is among pdwiz's errors. Every
# disagreement must be listed in known.tsv with its reason; a listed one
# that agrees now fails (the list only shrinks). Prints the agreement,
# the largest groups of disagreements, then "oracle: N passed, N failed".
cd "$(dirname "$0")/../.." || exit 2
PDWIZ=${PDWIZ:-$PWD/pdwiz}
export PDWIZ_DATADIR="$PWD"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
set -- tests/oracle/recorded/*.jsonl
[ -f "$1" ] || { echo "oracle: no recorded corpus"; echo "oracle: 0 passed, 1 failed"; exit 1; }
trees=$($PY tests/oracle/compare.py scripts "$T" "$@") || exit 2
for t in $trees; do
	v=$(cat "$T/$t.version")
	"$PDWIZ" check --format json ${v:+--sglang-version "$v"} \
	    "$T/scripts/$t" >"$T/$t.json" 2>"$T/$t.err"
	rc=$?
	if [ $rc -gt 1 ]; then
		echo "FAIL: pdwiz check of $t's scripts: exit $rc"
		head -c 2000 "$T/$t.err"
	fi
done
# ORACLE_KNOWN_UPDATE=1: write known.tsv anew from reasons.tsv (after a
# new recording or a change of pdwiz), then judge against it.
if [ -n "$ORACLE_KNOWN_UPDATE" ]; then
	$PY tests/oracle/compare.py known "$T" tests/oracle/reasons.tsv "$@" \
	    >"$T/known.tsv" || echo "oracle: differences reasons.tsv does not explain (above)"
	cp "$T/known.tsv" tests/oracle/known.tsv
fi
$PY tests/oracle/compare.py judge "$T" tests/oracle/known.tsv "$@"
