#!/bin/sh
# The packaging of pdwiz, what a user or a CI gets besides the binary: the
# licence, one version string, warnings as errors only in CI, the install
# layout (the compiled catalog under lib/), shell completion for every
# option of every command (bash, zsh and fish, each run for real where the
# shell is installed), the GitHub problem matcher and the composite
# Action. The Debian package is tests/deb/, the pre-commit hook
# tests/precommit/. Prints "pkg: N passed, N failed".
# PDWIZ may point at another build of ./pdwiz.
cd "$(dirname "$0")/../.." || exit 2
PDWIZ=${PDWIZ:-$PWD/pdwiz}
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
note() { echo "note: $*"; }
[ -x "$PDWIZ" ] || { echo "pkg: no $PDWIZ (make pdwiz first)"; exit 2; }
V=$(cat VERSION)

# --- LICENSE: Apache-2.0 in full, naming pdwiz ---
head -3 LICENSE | grep -q 'Copyright 2026 the pdwiz authors' && ok ||
    bad "LICENSE: no copyright line naming pdwiz in its first lines"
grep -q 'Apache License' LICENSE && grep -q 'Version 2.0, January 2004' LICENSE &&
    grep -q 'END OF TERMS AND CONDITIONS' LICENSE && ok ||
    bad "LICENSE: not the full Apache-2.0 text"
grep -q 'Apache License, Version 2.0' README.md && grep -q '`LICENSE`' README.md && ok ||
    bad "README.md does not mention the licence"

# --- one version string: VERSION ---
printf '%s\n' "$V" | grep -Eqx '[0-9]+\.[0-9]+\.[0-9]+([~+.][0-9A-Za-z.~+]+)?' && ok ||
    bad "VERSION: '$V' is not a version"
[ "$("$PDWIZ" --version | head -1)" = "pdwiz $V" ] && ok ||
    bad "pdwiz --version says '$("$PDWIZ" --version | head -1)', VERSION says $V (stale build?)"
"$PDWIZ" check --format sarif share/examples/minimal-1p1d.yaml >"$T/sarif" 2>&1
$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["runs"][0]["tool"]["driver"]["version"] != sys.argv[2])' "$T/sarif" "$V" && ok ||
    bad "SARIF driver version differs from VERSION $V"
th=$(sed -n '1s/^\.TH .*"pdwiz \([^"]*\)".*/\1/p' share/pdwiz.1)
[ "$th" = "$V" ] && ok || bad "share/pdwiz.1: .TH says pdwiz '$th', VERSION says $V"
if [ -f debian/changelog ]; then
	dv=$(sed -n '1s/^pdwiz (\([^)]*\)).*/\1/p' debian/changelog)
	[ "${dv%-*}" = "$V" ] && ok || bad "debian/changelog: version '$dv', VERSION says $V"
else
	bad "no debian/changelog"
fi
# No other place states a version of its own: a fallback in C must agree.
git ls-files 'src/*.c' 'src/*.h' | xargs grep -n 'define PDWIZ_VERSION "' |
    grep -v "\"$V\"" >"$T/vers"
[ ! -s "$T/vers" ] && ok || bad "a PDWIZ_VERSION other than VERSION: $(cat "$T/vers")"
make -n -s NO_DEPS=1 -W src/cli/main.c build/src/cli/main.o 2>&1 |
    grep -q "PDWIZ_VERSION='\"$V\"'" && ok ||
    bad "the compile of main.o is not given -DPDWIZ_VERSION from VERSION"

# --- warnings are errors in CI only (WERROR=1) ---
# A user's make: none of the variables of the make running the suites
# (make check WERROR=1 in CI). A new warning (here one every file gets).
fresh_make() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u WERROR make "$@"; }
printf 'static int pdwiz_test_unused(void) { return 0; }\n' >"$T/warn.h"
fresh_make -s NO_DEPS=1 BUILD="$T/b1" CPPFLAGS="-include $T/warn.h" "$T/b1/src/core/util.o" >"$T/out" 2>&1
[ $? = 0 ] && grep -q 'warning:' "$T/out" && ok ||
    bad "a user's build with a new warning: $(tail -3 "$T/out")"
fresh_make -s NO_DEPS=1 WERROR=1 BUILD="$T/b2" CPPFLAGS="-include $T/warn.h" "$T/b2/src/core/util.o" >"$T/out" 2>&1
[ $? != 0 ] && grep -q 'Werror' "$T/out" && ok ||
    bad "WERROR=1 does not make a warning an error: $(tail -3 "$T/out")"
grep -q '^make check WERROR=1' .ci/run && ok || bad ".ci/run does not build with WERROR=1"

# --- make install: where each file goes ---
make -s NO_DEPS=1 install PREFIX=/usr DESTDIR="$T/root" >"$T/out" 2>&1 || bad "make install: $(cat "$T/out")"
for f in usr/bin/pdwiz usr/lib/pdwiz/catalog.img usr/share/pdwiz/rules/options.yaml \
    usr/share/man/man1/pdwiz.1 usr/share/bash-completion/completions/pdwiz \
    usr/share/zsh/site-functions/_pdwiz usr/share/fish/vendor_completions.d/pdwiz.fish; do
	[ -f "$T/root/$f" ] && ok || bad "make install: no $f"
done
[ ! -e "$T/root/usr/share/pdwiz/rules/catalog.img" ] && ok ||
    bad "make install: the compiled catalog (architecture-specific) is under share/"
make -s NO_DEPS=1 install PREFIX="$T/pfx" >"$T/out" 2>&1 || bad "make install PREFIX: $(cat "$T/out")"
o=$(cd / && env -u PDWIZ_DATADIR "$T/pfx/bin/pdwiz" --version | sed -n 's/^catalog: //p')
[ "$o" = "compiled image $T/pfx/lib/pdwiz/catalog.img" ] && ok ||
    bad "installed pdwiz does not use its installed image: catalog: $o"
(cd / && env -u PDWIZ_DATADIR "$T/pfx/bin/pdwiz" check -- --model-path m --tp-sizee 2 >"$T/out" 2>&1)
[ $? = 1 ] && grep -q argparse-unrecognized "$T/out" && ok || bad "installed pdwiz check: $(head -3 "$T/out")"
# Touched but unchanged rules (a reinstall) keep the image; a rule file of
# another size does not.
touch "$T/pfx/share/pdwiz/rules/checks/"*.yaml
o=$(cd / && "$T/pfx/bin/pdwiz" --version | sed -n 's/^catalog: //p')
[ "$o" = "compiled image $T/pfx/lib/pdwiz/catalog.img" ] && ok || bad "installed, rules touched: catalog: $o"
printf '# edited\n' >>"$T/pfx/share/pdwiz/rules/checks/10-pd.yaml"
o=$(cd / && "$T/pfx/bin/pdwiz" --version | sed -n 's/^catalog: //p')
case $o in "YAML in $T/pfx/share/pdwiz/rules (image not used: rules/checks/10-pd.yaml changed"*) ok ;;
*) bad "installed, a rule file edited: catalog: $o" ;; esac
rm "$T/pfx/lib/pdwiz/catalog.img"
o=$(cd / && "$T/pfx/bin/pdwiz" --version | sed -n 's/^catalog: //p')
case $o in "YAML in $T/pfx/share/pdwiz/rules (image not used: $T/pfx/lib/pdwiz/catalog.img: No such file"*) ok ;;
*) bad "installed, no image: catalog: $o" ;; esac
make -s NO_DEPS=1 uninstall PREFIX="$T/pfx" >/dev/null 2>&1
left=$(find "$T/pfx" -type f | head -3)
[ -z "$left" ] && ok || bad "make uninstall leaves $left"

# --- shell completion: every option of every command ---
$PY tests/pkg/helpopts.py "$PDWIZ" >"$T/opts" || bad "cannot read the options from --help"
[ "$(grep -c '^long ' "$T/opts")" -gt 20 ] && ok || bad "only $(grep -c '^long ' "$T/opts") options read from --help"
# Each file names every option (fish: -l NAME / -s X).
while read -r kind cmd opt rest; do
	case $kind in long|short) ;; *) continue ;; esac
	for f in share/bash-completion/pdwiz share/zsh/_pdwiz; do
		grep -q -- "$opt\\b" "$f" || echo "$f: $cmd $opt"
	done
	case $kind in
	long) grep -q -- "-l ${opt#--}\\b" share/fish/pdwiz.fish || echo "share/fish/pdwiz.fish: $cmd $opt" ;;
	short) grep -q -- "-s ${opt#-}\\b" share/fish/pdwiz.fish || echo "share/fish/pdwiz.fish: $cmd $opt" ;;
	esac
	[ "$cmd" = - ] || grep -q -- "$cmd" share/fish/pdwiz.fish || echo "share/fish/pdwiz.fish: no $cmd"
done <"$T/opts" >"$T/missing"
[ ! -s "$T/missing" ] && ok || bad "options missing from completion files:$(sed 's/^/ /' "$T/missing" | tr '\n' ';')"

# The cases to complete for real, and what each must offer: per command
# its long options after "--", its short ones after "-", the values of an
# option whose argument is a|b|c; and a few of the rest.
: >"$T/cases"
: >"$T/want"
while read -r kind cmd opt rest; do
	case $cmd in -) line="pdwiz " ;; *) line="pdwiz $cmd " ;; esac
	case $kind in
	long) printf '%s--\t%s\n' "$line" "$opt" >>"$T/want" ;;
	short) printf '%s-\t%s\n' "$line" "$opt" >>"$T/want" ;;
	values) for v in $rest; do printf '%s%s \t%s\n' "$line" "$opt" "$v" >>"$T/want"; done ;;
	esac
done <"$T/opts"
printf 'pdwiz \tcheck\npdwiz \tcompile-catalog\npdwiz help \tcoverage\n' >>"$T/want"
printf 'pdwiz explain stg-b\tstg-backend\npdwiz check --gpu H1\tH100\n' >>"$T/want"
printf 'pdwiz check --platform \tnpu\npdwiz check -- --model-path m --tp-s\t--tp-size\n' >>"$T/want"
cut -f1 "$T/want" | awk '!seen[$0]++' >"$T/cases"
# check_offers SHELL OUTPUT: every wanted word offered in its case.
check_offers() {
	awk -F'\t' -v sh="$1" '
	    FILENAME == ARGV[1] { got[$1] = " " $2 " "; seen[$1] = 1; next }
	    !($1 in seen) { print sh ": no answer for \"" $1 "\""; next }
	    index(got[$1], " " $2 " ") == 0 { print sh ": \"" $1 "\" does not offer " $2 }
	' "$2" "$T/want" >"$T/$1.miss"
	[ ! -s "$T/$1.miss" ] && ok || bad "$(wc -l <"$T/$1.miss") completions missing: $(head -8 "$T/$1.miss" | tr '\n' ';')"
}
PATH=$(dirname "$PDWIZ"):$PATH
export PATH
if [ -f /usr/share/bash-completion/bash_completion ]; then
	bash tests/pkg/bashcomp.bash share/bash-completion/pdwiz <"$T/cases" >"$T/bash.out" 2>"$T/bash.err" &&
	    ok || bad "bash completion: $(head -3 "$T/bash.err")"
	check_offers bash "$T/bash.out"
	# Exactly the values, nothing else, where a|b|c is given.
	grep '^values ' "$T/opts" | while read -r kind cmd opt rest; do
		got=$(grep -F "pdwiz $cmd $opt 	" "$T/bash.out" | cut -f2)
		[ "$got" = "$rest" ] || echo "bash: pdwiz $cmd $opt offers '$got', want '$rest'"
	done >"$T/bash.exact"
	[ ! -s "$T/bash.exact" ] && ok || bad "$(cat "$T/bash.exact")"
else
	bash -n share/bash-completion/pdwiz && ok || bad "bash completion: syntax"
	note "bash-completion is not installed: its cases not run (tests/deps.sh installs it)"
fi
if command -v zsh >/dev/null 2>&1; then
	zsh -n share/zsh/_pdwiz && ok || bad "zsh completion: syntax"
	timeout 120 zsh -f tests/pkg/zcomp.zsh "$PWD/share/zsh" <"$T/cases" >"$T/zsh.out" 2>"$T/zsh.err" &&
	    ok || bad "zsh completion: $(head -3 "$T/zsh.err")"
	check_offers zsh "$T/zsh.out"
else
	note "zsh is not installed: its completion not run (tests/deps.sh installs it)"
fi
if command -v fish >/dev/null 2>&1; then
	fish -n share/fish/pdwiz.fish && ok || bad "fish completion: syntax"
	fish --no-config -c 'source share/fish/pdwiz.fish; while read -l line; printf "%s\t%s\n" "$line" (string join -- " " (complete -C "$line" | cut -f1)); end' \
	    <"$T/cases" >"$T/fish.out" 2>"$T/fish.err" && ok || bad "fish completion: $(head -3 "$T/fish.err")"
	check_offers fish "$T/fish.out"
else
	note "fish is not installed: its completion not run (tests/deps.sh installs it)"
fi

# --- the GitHub problem matcher of the text format ---
cp tests/pkg/bad.sh "$T/bad launch:1.sh"
"$PDWIZ" check "$T/bad launch:1.sh" >"$T/text.out" 2>&1
$PY tests/pkg/matcher.py share/pdwiz-problem-matcher.json "$T/text.out" >"$T/out" 2>&1 && ok ||
    bad "problem matcher: $(grep -v '^problem matcher:' "$T/out" | head -5 | tr '\n' ';')"
tail -1 "$T/out"

# --- the composite Action (action.yml), its run steps executed here ---
W=$T/ws
mkdir -p "$W/sub dir"
cp share/examples/mooncake-llama-1p1d.sh "$W/good.sh"
cp tests/pkg/bad.sh "$W/bad.sh"
cp share/examples/config.yaml "$W/sub dir/config.yaml"
printf '# Notes\n\nNothing to launch here.\n' >"$W/notes.md"
# action NAME INPUT=VALUE...: run it; $T/NAME.json says what happened.
action() {
	n=$1
	shift
	$PY tests/pkg/action.py "$PWD" "$W" "$T/$n.json" "$@" >"$T/$n.log" 2>&1 ||
	    bad "action $n: the harness failed: $(tail -3 "$T/$n.log")"
}
# expect_action NAME PYTHON-CONDITION: on r (the result) and sarif (the
# parsed SARIF it would upload, or None).
expect_action() {
	$PY - "$T/$1.json" "$2" <<'EOF' >"$T/cond" 2>&1 && ok || bad "action $1: $(cat "$T/cond"); log: $(grep -v '^    ' "$T/$1.log" | tail -6 | tr '\n' ';')"
import json, os, sys
r = json.load(open(sys.argv[1]))
st = {s["name"]: s["status"] for s in r["steps"]}
up = r["upload"]
sarif = None
if up and os.path.isfile(up.get("sarif_file", "")):
    sarif = json.load(open(up["sarif_file"]))
res = [x for run in (sarif or {}).get("runs", []) for x in run.get("results", [])]
def where(x):
    return x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
if not eval(sys.argv[2]):
    print("not true: " + sys.argv[2] + "; steps " + repr(st) + "; outputs " + repr(r["outputs"]) + "; results " + repr([(x["ruleId"], where(x)) for x in res]))
    sys.exit(1)
EOF
}
# One clean script, as a single path: the SARIF is written, valid, empty
# of errors; the upload would get it.
action one paths=good.sh
expect_action one 'r["status"] == "success" and r["outputs"]["exit-code"] == "0" and st["Upload the SARIF report"] == "not run" and sarif is not None and sarif["version"] == "2.1.0" and not [x for x in res if x["level"] == "error"]'
# The default: the whole workspace (".") in one run; bad.sh's error in the
# report, the upload gets it, then the action fails.
action all
expect_action all 'sarif is not None and sarif["version"] == "2.1.0" and r["outputs"]["exit-code"] == "1" and any(x["ruleId"] == "argparse-unrecognized" and where(x).endswith("bad.sh") for x in res) and st["Upload the SARIF report"] == "not run" and st["Fail on errors"] == "failure" and r["status"] == "failure"'
# Several paths, one with a space, and fail-on-error off.
action several 'paths=good.sh
sub dir/config.yaml
bad.sh' fail-on-error=false
expect_action several 'r["outputs"]["exit-code"] == "1" and st["Fail on errors"] == "skipped" and r["status"] == "success" and any(where(x).endswith("bad.sh") for x in res)'
# The text format: the problem matcher is registered, and exists; no upload.
action text format=text paths=bad.sh
expect_action text 'st["Upload the SARIF report"] == "skipped" and up is None and r["outputs"]["exit-code"] == "1"'
m=$(sed -n 's/^::add-matcher:://p' "$T/text.log")
[ -n "$m" ] && [ -f "$m" ] && [ "$m" = "$PWD/share/pdwiz-problem-matcher.json" ] && ok ||
    bad "action text: no ::add-matcher:: of the matcher file ('$m')"
grep -q '^::remove-matcher owner=pdwiz::$' "$T/text.log" && ok || bad "action text: the matcher is not removed after the check"
# A format it does not know fails the check step.
action nonsense format=xml paths=good.sh
expect_action nonsense 'st["Check"] == "failure" and r["status"] == "failure"'

echo "pkg: $pass passed, $fail failed"
[ "$fail" = 0 ]
