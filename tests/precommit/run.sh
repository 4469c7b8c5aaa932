#!/bin/sh
# The pre-commit hook (.pre-commit-hooks.yaml), as a project using it runs
# it: a scratch git repository whose .pre-commit-config.yaml takes the hook
# from a repository holding this checkout's hook file, pdwiz on PATH; a
# good and a bad SGLang script staged. The hook fails on the bad one, names
# it and its error, passes when only good files (scripts, YAML, Markdown
# without SGLang) are staged, runs pdwiz once for all of them, and
# `git commit` through the installed hook refuses the bad script. Offline:
# no hook environment is downloaded (language: system). Exits 77 without
# pre-commit. Prints "precommit: N passed, N failed".
cd "$(dirname "$0")/../.." || exit 2
PDWIZ=${PDWIZ:-$PWD/pdwiz}
if ! command -v pre-commit >/dev/null 2>&1; then
	echo "skipped: pre-commit is not installed (tests/deps.sh installs it)"
	exit 77
fi
[ -x "$PDWIZ" ] || { echo "precommit: no $PDWIZ (make pdwiz first)"; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# Nothing of the user's: pre-commit's cache, git's identity and config.
export PRE_COMMIT_HOME="$T/cache" HOME="$T/home" GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.invalid
export GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.invalid
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
mkdir -p "$HOME" "$T/bin"
# pdwiz on PATH, counting its runs.
printf '#!/bin/sh\necho "$$" >>"%s/runs"\nexec "%s" "$@"\n' "$T" "$PDWIZ" >"$T/bin/pdwiz"
chmod +x "$T/bin/pdwiz"
PATH=$T/bin:$PATH
export PATH
runs() { if [ -f "$T/runs" ]; then wc -l <"$T/runs" | tr -d ' '; else echo 0; fi; }

# The hook repository: this checkout's .pre-commit-hooks.yaml, committed.
H=$T/hooks
git init -q "$H" && cp .pre-commit-hooks.yaml "$H/" &&
    git -C "$H" add .pre-commit-hooks.yaml && git -C "$H" commit -qm hooks || exit 2
rev=$(git -C "$H" rev-parse HEAD)

R=$T/project
git init -q "$R" || exit 2
cat >"$R/.pre-commit-config.yaml" <<CFG
repos:
  - repo: $H
    rev: $rev
    hooks:
      - id: pdwiz-check
CFG
cp share/examples/mooncake-llama-1p1d.sh "$R/good.sh"
cp share/examples/nixl-llama-1p1d.sh "$R/good2.sh"
cp share/examples/config.yaml "$R/config.yaml"
cp share/examples/minimal-1p1d.yaml "$R/deploy.yaml"
printf '# Notes\n\nNothing to launch here.\n' >"$R/notes.md"
printf 'plain text, not for pdwiz\n' >"$R/notes.txt"
cp tests/pkg/bad.sh "$R/bad.sh"
git -C "$R" add .pre-commit-config.yaml good.sh good2.sh config.yaml deploy.yaml notes.md notes.txt bad.sh
cd "$R" || exit 2

# A good and a bad script staged: the hook fails, on the bad one.
pre-commit run --files good.sh bad.sh >"$T/out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q 'bad.sh:[0-9:]* error: unrecognized arguments: --tp-sizee 2' "$T/out" &&
    ! grep -q 'good.sh:[0-9:]* error' "$T/out" && ok ||
    bad "good.sh and bad.sh: exit $rc, want 1 with bad.sh's error: $(tail -6 "$T/out")"
grep -q 'pdwiz check (SGLang launch configurations).*Failed' "$T/out" && ok ||
    bad "the hook is not reported as failed: $(head -3 "$T/out")"

# Only good files: scripts, YAML, Markdown without SGLang; passes, in one
# run of pdwiz; the text file is not given to it.
rm -f "$T/runs"
pre-commit run --files good.sh good2.sh config.yaml deploy.yaml notes.md notes.txt >"$T/out" 2>&1
rc=$?
[ $rc = 0 ] && grep -q 'pdwiz check (SGLang launch configurations).*Passed' "$T/out" && ok ||
    bad "only good files: exit $rc, want 0: $(tail -8 "$T/out")"
[ "$(runs)" = 1 ] && ok || bad "only good files: pdwiz ran $(runs) times, want once for all of them"

# Nothing it reads: skipped, pdwiz not run.
rm -f "$T/runs"
pre-commit run --files notes.txt >"$T/out" 2>&1
rc=$?
[ $rc = 0 ] && grep -q 'pdwiz check (SGLang launch configurations).*Skipped' "$T/out" && [ "$(runs)" = 0 ] && ok ||
    bad "a text file alone: exit $rc, $(runs) runs: $(tail -3 "$T/out")"

# Through git commit with the hook installed: the bad script is refused,
# the good ones are committed.
pre-commit install >"$T/out" 2>&1 || bad "pre-commit install: $(cat "$T/out")"
git reset -q
git add .pre-commit-config.yaml good.sh bad.sh
git commit -qm 'with bad.sh' >"$T/out" 2>&1
rc=$?
[ $rc != 0 ] && ! git rev-parse -q --verify HEAD >/dev/null && grep -q 'bad.sh' "$T/out" && ok ||
    bad "git commit of bad.sh: exit $rc, want refused: $(tail -5 "$T/out")"
git reset -q
git add .pre-commit-config.yaml good.sh good2.sh deploy.yaml notes.md
git commit -qm 'good files' >"$T/out" 2>&1
rc=$?
[ $rc = 0 ] && git rev-parse -q --verify HEAD >/dev/null && ok ||
    bad "git commit of good files: exit $rc: $(tail -8 "$T/out")"

echo "precommit: $pass passed, $fail failed"
[ "$fail" = 0 ]
