#!/bin/sh
# tests/fit/run.sh - the memory estimate end to end against real SGLang
# startup logs (tests/fit/calibration.tsv, check.py): each row's command
# through ./pdwiz check --gpu GPU --format json, its estimate against the
# logged weights, KV tokens and whether SGLang started. Prints the table and
# "fit: N passed, M failed" (the calibration line before it says how many
# rows are within tolerance); exits 1 on a wrong verdict or a row marked
# goal that is out of tolerance. PDWIZ may point at another build.
cd "$(dirname "$0")/../.." || exit 2
PDWIZ=${PDWIZ:-./pdwiz}
case $PDWIZ in /*) ;; *) PDWIZ=$PWD/$PDWIZ ;; esac
PDWIZ_DATADIR=${PDWIZ_DATADIR:-$PWD}
export PDWIZ_DATADIR
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if $PY tests/fit/check.py "$PDWIZ" tests/fit/calibration.tsv "$T"; then
	echo "fit: 1 passed, 0 failed"
else
	echo "fit: 0 passed, 1 failed"
	exit 1
fi
