#!/bin/sh
# own-work.sh [DIR] - the repository holds only its own work.
# Fails when a file of DIR (default: this checkout; the files git tracks,
# or every file outside the build folders when DIR is no git checkout):
#   - carries another project's copyright or licence header (a copyright
#     line, an SPDX tag, Apache/MIT/GPL/BSD boilerplate) - pdwiz's own
#     LICENSE, and lines naming pdwiz, excepted;
#   - sits in a folder kept for other projects' files (tests/realworld/files/,
#     ext/);
#   - is byte for byte a file of the real-world corpus beside the project
#     (../shared/realworld/files/), when that is present.
# Then runs itself on a planted tree to show that each check can fail.
# Prints "own-work: N passed, N failed".
cd "$(dirname "$0")/.." || exit 2
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# The patterns (spelt in pieces) and the planted tree below are the one
# place that names them: this file is left out of the header scan.
C=opy
PAT="C${C}right( \\(c\\)| ©)? [12][0-9]{3}|C${C}right (\\(c\\)|©)|SPDX-(Lic""ense|FileC${C}right)|Licensed under the|Permission is here""by granted|General Public Lic""ense|All rights reser""ved"

files() {
	if git -C "$1" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$1" ls-files
	else
		(cd "$1" && find . -type f ! -path './.git/*' ! -path './build*' \
		    ! -name pdwiz ! -name catalog.img | sed 's|^\./||')
	fi
}

# scan DIR: prints one line per offence, exits 1 if any.
scan() {
	d=$1 found=0
	files "$d" >"$T/list"
	# Foreign headers (LICENSE is pdwiz's own and must say so).
	for f in LICENSE LICENSE.md COPYING; do
		if grep -qxF "$f" "$T/list" && ! grep -qi pdwiz "$d/$f"; then
			echo "$f: a licence file that does not name pdwiz"
			found=1
		fi
	done
	grep -vxE 'LICENSE|LICENSE\.md|COPYING|tests/own-work.sh' "$T/list" | (cd "$d" &&
	    tr '\n' '\0' | xargs -0 grep -nIiE "$PAT" /dev/null 2>/dev/null) |
	    grep -vi pdwiz | awk -F: '++n[$1] <= 3' >"$T/hits"
	if [ -s "$T/hits" ]; then
		cat "$T/hits"
		found=1
	fi
	# Folders for other projects' files.
	grep -E '^(tests/realworld/files|ext)/' "$T/list" | sed 's/$/: another project'"'"'s file (keep it outside the repository)/' | tee "$T/hits"
	[ -s "$T/hits" ] && found=1
	# Verbatim copies of the real-world corpus (same checksum and size).
	if [ -d "$CORPUS" ]; then
		(cd "$CORPUS" && ls | tr '\n' '\0' | xargs -0 cksum) |
		    awk '{print $1, $2}' | sort -u >"$T/corpus"
		(cd "$d" && tr '\n' '\0' <"$T/list" | xargs -0 cksum 2>/dev/null) |
		    awk -v c="$T/corpus" -v src="$CORPUS" '
			BEGIN { while ((getline l < c) > 0) have[l] = 1 }
			($1 " " $2) in have { sub(/^[0-9]+ [0-9]+ /, "");
			    print $0 ": a verbatim copy of a file in " src }' >"$T/hits"
		if [ -s "$T/hits" ]; then
			cat "$T/hits"
			found=1
		fi
	fi
	return $found
}

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
CORPUS=${PDWIZ_REALWORLD:-../shared/realworld}/files

if scan . >"$T/out"; then
	ok
else
	bad "files that are not pdwiz's own work:"
	sed 's/^/  /' "$T/out"
fi

# The checks themselves: a planted tree with one offence of each kind.
P=$T/plant
mkdir -p "$P/src" "$P/tests/realworld/files"
printf '# Copyright 2024 Some Team\n# Licensed under the Apache License, Version 2.0\nx = 1\n' >"$P/src/a.py"
printf 'int x;\n' >"$P/src/ok.c"
printf 'k: v\n' >"$P/tests/realworld/files/r.yaml"
printf 'pdwiz is free software.\n' >"$P/LICENSE"
scan "$P" >"$T/plant.out"
grep -q '^src/a.py:1:' "$T/plant.out" && ok || bad "a copyright header is not found"
grep -q '^tests/realworld/files/r.yaml:' "$T/plant.out" && ok || bad "a corpus copy in the tree is not found"
grep -q 'ok.c\|LICENSE' "$T/plant.out" && bad "own files flagged: $(cat "$T/plant.out")" || ok
if [ -d "$CORPUS" ]; then
	first=$(ls "$CORPUS" | head -n 1)
	mkdir -p "$P/tests/cases"
	cp "$CORPUS/$first" "$P/tests/cases/renamed.txt"
	scan "$P" >"$T/plant.out"
	grep -q '^tests/cases/renamed.txt: a verbatim copy' "$T/plant.out" && ok ||
	    bad "a renamed copy of a corpus file is not found"
fi

echo "own-work: $pass passed, $fail failed"
[ "$fail" = 0 ]
