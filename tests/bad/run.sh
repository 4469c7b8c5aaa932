#!/bin/sh
# Bad inputs (tests/bad/cases.tsv): every one is refused with its message
# and exit code, within a time limit, and never crashes. For `check`
# cases the JSON form is run too: stdout must be empty or valid JSON.
# Prints "N passed, M failed"; exits 1 on any failure.
# PDWIZ may point at another build (the ASan one).
cd "$(dirname "$0")/../.." || exit 2
PDWIZ=${PDWIZ:-./pdwiz}
case $PDWIZ in /*) ;; *) PDWIZ=$PWD/$PDWIZ ;; esac
export PDWIZ_DATADIR="$PWD"
LIMIT=${LIMIT:-30}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# python3 -c runs in one python3 for the whole suite.
. tests/pyhost.sh
pyhost_start "$T/py" "$PWD"
pass=0
fail=0
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# rep N STRING: STRING N times, no newline
rep() { head -c "$1" /dev/zero | tr '\0' "$2"; }

# gen NAME FILE: the large or repetitive inputs, made here, not committed
gen() {
	case $1 in
	gen-sh-10mb-line)
		{ printf "python -m sglang.launch_server '"; rep 10485760 a; } >"$2" ;;
	gen-sh-17mb)
		rep 17825792 a >"$2" ;;
	gen-cfg-deep-seq)
		rep 100000 '[' >"$2" ;;
	gen-cfg-deep-map)
		rep 100000 '{' | sed 's/{/{a: /g' >"$2" ;;
	gen-cfg-wide-dup)
		awk 'BEGIN { for (i = 0; i < 200000; i++) print "k" i ": 1";
		    print "k7: 2" }' >"$2" ;;
	gen-cfg-long-scalar)
		rep 2097152 a >"$2" ;;
	gen-cfg-10mb-line)
		{ printf 'model-path: "'; rep 10485760 a; } >"$2" ;;
	*)
		return 1 ;;
	esac
}

# datadir KIND PATH CASEFILE: a copy of the data directory with the case
# file at KIND/PATH; prints the placed file's path
datadir() {
	rm -rf "$T/dd"
	mkdir -p "$T/dd"
	cp -r rules forms "$T/dd/"
	mkdir -p "$(dirname "$T/dd/$1/$2")"
	cp "$3" "$T/dd/$1/$2"
	echo "$T/dd/$1/$2"
}

# valid_json FILE: empty, or one JSON document
valid_json() {
	[ ! -s "$1" ] || python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null
}

while IFS='	' read -r name want cmd expect; do
	case $name in ''|'#'*) continue ;; esac
	F=""
	case $name in gen-cfg-*) ext="yaml" ;; *) ext="sh" ;; esac
	if gen "$name" "$T/$name.$ext" 2>/dev/null; then
		F=$T/$name.$ext
	else
		for f in tests/bad/files/"$name".*; do
			[ -e "$f" ] && F=$f
		done
	fi
	case $cmd in
	rules-dd\ *|forms-dd\ *)
		[ -n "$F" ] || { bad "$name: no file"; continue; }
		kind=${cmd%%-dd *}
		F=$(datadir "$kind" "${cmd#*-dd }" "$F")
		if [ "$kind" = rules ]; then
			PDWIZ_DATADIR=$T/dd timeout "$LIMIT" "$PDWIZ" rules \
			    >"$T/out" 2>"$T/err" </dev/null
		else
			PDWIZ_DATADIR=$T/dd timeout "$LIMIT" "$PDWIZ" \
			    >"$T/out" 2>"$T/err" </dev/null
		fi
		got=$? ;;
	*)
		rm -rf "$T/out.yaml" "$T/outdir"
		# shellcheck disable=SC2086 # the table's words, split on purpose
		eval "set -- $cmd"
		timeout "$LIMIT" "$PDWIZ" "$@" >"$T/out" 2>"$T/err" </dev/null
		got=$? ;;
	esac
	expect=$(printf '%s' "$expect" | sed "s|\\\$F|$F|g")
	msg=$(cat "$T/err" "$T/out")
	if [ "$got" = 124 ]; then
		bad "$name: no answer within $LIMIT s"
	elif [ "$got" -gt 128 ]; then
		bad "$name: killed by signal $((got - 128))"
		head -c 2000 "$T/err" | sed 's/^/  | /'
	elif [ "$got" != "$want" ]; then
		bad "$name: exit $got, want $want"
		head -c 600 "$T/err" | sed 's/^/  | /'
	else
		# A refused import or emit writes nothing.
		if [ -e "$T/out.yaml" ] || [ -n "$(ls -A "$T/outdir" 2>/dev/null)" ]
		then
			bad "$name: refused, but wrote output"
			continue
		fi
		case $msg in
		*"$expect"*) ;;
		*)	bad "$name: message differs"
			echo "  want: $expect"
			head -c 600 "$T/err" | sed 's/^/  got:  /'
			continue ;;
		esac
		case $cmd in
		check\ *)
			eval "set -- $cmd"
			shift
			timeout "$LIMIT" "$PDWIZ" check --format json "$@" \
			    >"$T/out" 2>"$T/err" </dev/null
			if [ $? != "$want" ] || ! valid_json "$T/out"; then
				bad "$name: --format json: exit or output wrong"
				continue
			fi ;;
		esac
		pass=$((pass + 1))
	fi
done <tests/bad/cases.tsv

# Invalid UTF-8 in a usable script: reported as findings, JSON stays valid.
printf 'python -m sglang.launch_server --model-path "caf\351\377" --tp-size x\n' >"$T/u.sh"
"$PDWIZ" check --format json "$T/u.sh" >"$T/out" 2>"$T/err"
if [ $? = 1 ] && python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$T/out"; then
	pass=$((pass + 1))
else
	bad "invalid UTF-8 in a script: JSON output not valid"
fi

echo "bad inputs: $pass passed, $fail failed"
[ "$fail" = 0 ]
