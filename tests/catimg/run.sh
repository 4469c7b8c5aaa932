#!/bin/sh
# The compiled catalog (rules/catalog.img), as pdwiz uses it: used when it
# matches its sources, never when it is stale or damaged, and checks give
# the same results with it as from the YAML. Prints "N passed, N failed".
# PDWIZ may point at another build (the ASan one).
cd "$(dirname "$0")/../.." || exit 2
PDWIZ=${PDWIZ:-$PWD/pdwiz}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# origin DATADIR: the catalog line of pdwiz --version
origin() {
	PDWIZ_DATADIR=$1 "$PDWIZ" --version 2>&1 | sed -n 's/^catalog: //p'
}
# expect_origin NAME DATADIR PATTERN
expect_origin() {
	o=$(origin "$2")
	case "$o" in
	$3) ok ;;
	*) bad "$1: catalog: '$o', want '$3'" ;;
	esac
}

# The source tree's image, built by make, is the one in use.
expect_origin "source tree uses its image" "$PWD" "compiled image $PWD/rules/catalog.img"

o=$(PDWIZ_NO_IMAGE=1 PDWIZ_DATADIR=$PWD "$PDWIZ" --version | sed -n 's/^catalog: //p')
case "$o" in "YAML in $PWD/rules (image not used: PDWIZ_NO_IMAGE is set)") ok ;;
*) bad "PDWIZ_NO_IMAGE: '$o'" ;; esac

# Same results from the image and from the YAML, on every example, every
# bad input and every deployment of the corpus: in JSON, which holds every
# message, fix and position the text shows; the text too for every tenth
# file. CATIMG_EVERY=N compares every Nth file (the ASan run: the
# comparison is the plain build's; ASan watches the image loader, which
# every run uses).
n=0 nth=0
for f in share/examples/* tests/bad/files/* tests/deploy/corpus/*; do
	[ -f "$f" ] || continue
	nth=$((nth + 1))
	[ $((nth % ${CATIMG_EVERY:-1})) = 0 ] || continue
	fmts=json
	[ $((nth % 10)) = 0 ] && fmts="text json"
	for fmt in $fmts; do
		PDWIZ_DATADIR=$PWD "$PDWIZ" check --format $fmt "$f" \
		    >"$T/img" 2>&1; a=$?
		PDWIZ_NO_IMAGE=1 PDWIZ_DATADIR=$PWD "$PDWIZ" check \
		    --format $fmt "$f" >"$T/yaml" 2>&1; b=$?
		if [ "$a" != "$b" ] || ! cmp -s "$T/img" "$T/yaml"; then
			bad "image and YAML differ on $f ($fmt): exit $a vs $b"
			diff "$T/img" "$T/yaml" | head -10
		else
			n=$((n + 1))
		fi
	done
done
[ "$n" -gt $((25 / ${CATIMG_EVERY:-1})) ] && ok || bad "only $n files compared"
for id in stg-backend xs-gpu-collision tb-ib-none; do
	a=$(PDWIZ_DATADIR=$PWD "$PDWIZ" explain $id 2>&1)
	b=$(PDWIZ_NO_IMAGE=1 PDWIZ_DATADIR=$PWD "$PDWIZ" explain $id 2>&1)
	[ "$a" = "$b" ] && ok || bad "explain $id differs between image and YAML"
done
a=$(PDWIZ_DATADIR=$PWD "$PDWIZ" rules --format json)
b=$(PDWIZ_NO_IMAGE=1 PDWIZ_DATADIR=$PWD "$PDWIZ" rules --format json)
[ "$a" = "$b" ] && ok || bad "rules --format json differs between image and YAML"

# A copy of the data directory with an image of its own.
D=$T/data
mkdir -p "$D"
cp -R rules forms "$D"/
rm -f "$D/rules/catalog.img"
expect_origin "no image: YAML" "$D" "YAML in $D/rules (image not used: *No such file*)"
if PDWIZ_DATADIR=$D "$PDWIZ" compile-catalog >"$T/out" 2>&1; then ok; else
	bad "compile-catalog: $(cat "$T/out")"; fi
expect_origin "compiled copy is used" "$D" "compiled image $D/rules/catalog.img"
cp "$D/rules/catalog.img" "$T/good.img"

# Touched but unchanged sources (a copy, an install): still used.
touch "$D"/rules/checks/*.yaml
expect_origin "touched sources, same contents" "$D" "compiled image*"

# Reproducible: the same sources give the same bytes, whatever their
# mtimes and wherever the data directory is.
PDWIZ_DATADIR=$D "$PDWIZ" compile-catalog -o "$T/again.img" >"$T/out" 2>&1 &&
    cmp -s "$T/good.img" "$T/again.img" && ok ||
    bad "touched sources: the image differs: $(cmp "$T/good.img" "$T/again.img" 2>&1)"
D2=$T/data2
mkdir -p "$D2"
cp -R rules forms "$D2"/
touch -d '2001-02-03 04:05:06' "$D2"/rules/*.yaml "$D2"/rules/checks/*.yaml
PDWIZ_DATADIR=$D2 "$PDWIZ" compile-catalog -o "$T/elsewhere.img" >"$T/out" 2>&1 &&
    cmp -s "$T/good.img" "$T/elsewhere.img" && ok ||
    bad "another directory, other mtimes: the image differs: $(cmp "$T/good.img" "$T/elsewhere.img" 2>&1)"
rm -rf "$D2"

# An edit that keeps the size: newer than the image, so its contents are
# compared.
sed 's/^# /#_/' rules/checks/10-pd.yaml >"$D/rules/checks/10-pd.yaml"
if cmp -s rules/checks/10-pd.yaml "$D/rules/checks/10-pd.yaml"; then
	bad "same-size edit: nothing edited"
else
	expect_origin "same-size edit" "$D" "YAML in*rules/checks/10-pd.yaml changed since it was compiled)"
fi
cp rules/checks/10-pd.yaml "$D/rules/checks/10-pd.yaml"
expect_origin "same-size edit undone" "$D" "compiled image*"

# An edited source makes the image stale: the YAML is read, and says why.
printf '# edited\n' >>"$D/rules/checks/10-pd.yaml"
expect_origin "edited source" "$D" "YAML in*rules/checks/10-pd.yaml changed since it was compiled)"
cp rules/checks/10-pd.yaml "$D/rules/checks/10-pd.yaml"
expect_origin "source restored" "$D" "compiled image*"

# The flag history is in the image too: the same migration hints and
# version line from both, and an edited history makes the image stale.
for args in "--sglang-version 0.5.4 -- --model-path m --enable-flashinfer-mxfp4-moe" \
    "-- --model-path m --enable-deepep-moe" "--sglang-version 0.4.8.post1 -- --model-path m --enable-deepep-moe"; do
	# shellcheck disable=SC2086 # args: split on purpose
	a=$(PDWIZ_DATADIR=$PWD "$PDWIZ" check $args 2>&1)
	# shellcheck disable=SC2086
	b=$(PDWIZ_NO_IMAGE=1 PDWIZ_DATADIR=$PWD "$PDWIZ" check $args 2>&1)
	[ "$a" = "$b" ] && case "$a" in *"hint: --enable-"*|*"checked for SGLang"*) ok ;; *) bad "flag history: no hint or note: $a" ;; esac ||
	    bad "flag history differs between image and YAML ($args)"
done
a=$(PDWIZ_DATADIR=$PWD "$PDWIZ" --version | grep "^SGLang modelled")
b=$(PDWIZ_NO_IMAGE=1 PDWIZ_DATADIR=$PWD "$PDWIZ" --version | grep "^SGLang modelled")
[ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "--version: '$a' vs '$b'"
printf '# edited\n' >>"$D/rules/flag-history.yaml"
expect_origin "edited flag history" "$D" "YAML in*rules/flag-history.yaml changed since it was compiled)"
cp rules/flag-history.yaml "$D/rules/flag-history.yaml"
expect_origin "flag history restored" "$D" "compiled image*"

# The flag inventory is in the image too: the same release verdicts
# (an unrecognized flag, a release's choices, a flag only a release has)
# from both, and an edited inventory makes the image stale.
for args in "--sglang-version 0.5.13.post2 -- --model-path m --enable-prefill-cp --cp-strategy zigzag" \
    "--sglang-version 0.5.9 -- --model-path m --moe-a2a-backend megamoe" \
    "--sglang-version 0.5.9 -- --model-path m --disaggregation-decode-tp 2 --tp 2"; do
	# shellcheck disable=SC2086 # args: split on purpose
	a=$(PDWIZ_DATADIR=$PWD "$PDWIZ" check $args 2>&1)
	# shellcheck disable=SC2086
	b=$(PDWIZ_NO_IMAGE=1 PDWIZ_DATADIR=$PWD "$PDWIZ" check $args 2>&1)
	[ "$a" = "$b" ] && case "$a" in *"flag-inventory.tsv"*) ok ;; *) bad "flag inventory: no note: $a" ;; esac ||
	    bad "flag inventory differs between image and YAML ($args)"
done
printf '# edited\n' >>"$D/rules/flag-inventory.tsv"
expect_origin "edited flag inventory" "$D" "YAML in*rules/flag-inventory.tsv changed since it was compiled)"
cp rules/flag-inventory.tsv "$D/rules/flag-inventory.tsv"
expect_origin "flag inventory restored" "$D" "compiled image*"

# A rule file added or removed.
printf "rules: []\n" >"$D/rules/checks/99-extra.yaml"
expect_origin "added rule file" "$D" "YAML in*rule files changed*"
rm "$D/rules/checks/99-extra.yaml"
expect_origin "added file removed" "$D" "compiled image*"

# Damage: a flipped byte in the middle, a truncated file, garbage, empty.
size=$(wc -c <"$T/good.img")
cp "$T/good.img" "$D/rules/catalog.img"
# Flip it to a value it does not have (the image may hold 0xff there).
mid=$(dd if="$T/good.img" bs=1 skip=$((size / 2)) count=1 2>/dev/null | od -An -tu1 | tr -d ' ')
if [ "$mid" = 255 ]; then flip='\376'; else flip='\377'; fi
printf '%b' "$flip" | dd of="$D/rules/catalog.img" bs=1 seek=$((size / 2)) \
    conv=notrunc 2>/dev/null
cmp -s "$T/good.img" "$D/rules/catalog.img" && bad "byte was not flipped"
expect_origin "flipped byte" "$D" "YAML in*damaged*"
head -c $((size - 100)) "$T/good.img" >"$D/rules/catalog.img"
expect_origin "truncated" "$D" "YAML in*damaged*"
head -c 5000 /dev/urandom >"$D/rules/catalog.img"
expect_origin "garbage" "$D" "YAML in*not a pdwiz catalog image*"
: >"$D/rules/catalog.img"
expect_origin "empty" "$D" "YAML in*"
# An image that is not a regular file: never opened (a FIFO would block
# pdwiz, even --version), the YAML is read and says why.
for kind in FIFO directory; do
	rm -f "$D/rules/catalog.img"
	if [ $kind = FIFO ]; then mkfifo "$D/rules/catalog.img"; else mkdir "$D/rules/catalog.img"; fi
	o=$(PDWIZ_DATADIR=$D timeout 10 "$PDWIZ" --version 2>&1 </dev/null | sed -n 's/^catalog: //p')
	[ "$o" = "YAML in $D/rules (image not used: $D/rules/catalog.img: not a regular file (a $kind))" ] && ok ||
	    bad "image that is a $kind: catalog: '$o' (empty: it blocked)"
	PDWIZ_DATADIR=$D timeout 10 "$PDWIZ" check -- --model-path m --tp-sizee 2 >"$T/out" 2>&1 </dev/null
	[ $? = 1 ] && grep -q "unrecognized arguments" "$T/out" && ok ||
	    bad "check with an image that is a $kind: $(head -3 "$T/out")"
	rm -rf "$D/rules/catalog.img"
done
# Written by another build: the header's build id differs.
cp "$T/good.img" "$D/rules/catalog.img"
printf 'X' | dd of="$D/rules/catalog.img" bs=1 seek=16 conv=notrunc 2>/dev/null
expect_origin "another build" "$D" "YAML in*another build of pdwiz*"
# Damaged image, but checks still work (from the YAML).
PDWIZ_DATADIR=$D "$PDWIZ" check -- --model-path m --tp-sizee 2 >"$T/out" 2>&1
[ $? = 1 ] && grep -q "unrecognized arguments" "$T/out" && ok ||
    bad "check with a damaged image: $(head -3 "$T/out")"

# check -v says on stderr when the rules came from the YAML, and why.
PDWIZ_DATADIR=$D "$PDWIZ" check -v -- --model-path m >"$T/out" 2>"$T/err"
grep -q "^pdwiz: rules read from the YAML in $D/rules (image not used: .*another build" "$T/err" && ok ||
    bad "check -v with an unusable image: $(head -2 "$T/err")"
PDWIZ_DATADIR=$PWD "$PDWIZ" check -v -- --model-path m >"$T/out" 2>"$T/err"
grep -q "rules read" "$T/err" && bad "check -v with the image in use: $(cat "$T/err")" || ok

# Hostile images (tests/catimg/hostile.py): the real header, source id
# included, kept; one count, offset, pointer or string slot of it made
# hostile; the checksum recomputed. Before the loader checked past the
# checksum, --version crashed (SIGSEGV) on the first eight, check crashed
# on hcap-huge, expr-slot and option-name-null, aborted (out of memory) on
# nopts-huge and hung on strtab-full; string-unterminated read past the
# string's end. Now each is damaged: the YAML is read, with the note, and
# check gives the YAML's verdict.
for f in share/examples/deepseek-2p2d-deepep.yaml \
    tests/deploy/corpus/xs-port-range.fire.yaml; do
	PDWIZ_NO_IMAGE=1 PDWIZ_DATADIR=$D "$PDWIZ" check "$f" \
	    >"$T/want.$(basename "$f")" 2>&1
	echo $? >>"$T/want.$(basename "$f")"
done
for c in $(/usr/bin/python3 tests/catimg/hostile.py --list); do
	if ! /usr/bin/python3 tests/catimg/hostile.py "$T/good.img" "$c" \
	    "$D/rules/catalog.img"; then
		bad "hostile $c: not made"
		continue
	fi
	PDWIZ_DATADIR=$D timeout 20 "$PDWIZ" --version >"$T/out" 2>&1
	rc=$?
	[ $rc = 0 ] && grep -q "^catalog: YAML in $D/rules (image not used: $D/rules/catalog.img: damaged (" "$T/out" && ok ||
	    bad "hostile $c: --version exit $rc: $(grep -v '^  ' "$T/out" | head -4)"
	for f in share/examples/deepseek-2p2d-deepep.yaml \
	    tests/deploy/corpus/xs-port-range.fire.yaml; do
		PDWIZ_DATADIR=$D timeout 20 "$PDWIZ" check "$f" >"$T/got" 2>&1
		echo $? >>"$T/got"
		cmp -s "$T/got" "$T/want.$(basename "$f")" && ok ||
		    bad "hostile $c: check $f: exit $(tail -1 "$T/got") (want $(tail -1 "$T/want.$(basename "$f")")): $(head -3 "$T/got")"
	done
done
cp "$T/good.img" "$D/rules/catalog.img"
expect_origin "sound image after the hostile ones" "$D" "compiled image $D/rules/catalog.img"

# The images a user has checked are listed ($XDG_CACHE_HOME/pdwiz) and not
# checked again; a file changed since (a hostile image written over a
# listed one, its modification time put back) is checked again: its
# change time differs. A list others may write is not read.
C=$T/xdg
XDG_CACHE_HOME=$C PDWIZ_DATADIR=$D "$PDWIZ" --version >"$T/out" 2>&1
[ "$(wc -l <"$C/pdwiz/checked-images" 2>/dev/null)" = 1 ] &&
    [ "$(stat -c %a "$C/pdwiz/checked-images")" = 600 ] &&
    [ "$(stat -c %a "$C/pdwiz")" = 700 ] && ok ||
    bad "checked images: not listed, or not the user's own: $(ls -la "$C/pdwiz" 2>&1)"
XDG_CACHE_HOME=$C PDWIZ_DATADIR=$D "$PDWIZ" --version >"$T/out" 2>&1
[ "$(wc -l <"$C/pdwiz/checked-images")" = 1 ] && ok ||
    bad "checked images: listed twice"
first=$(/usr/bin/python3 tests/catimg/hostile.py --list | head -1)
/usr/bin/python3 tests/catimg/hostile.py "$T/good.img" "$first" "$T/h.img" &&
    cat "$T/h.img" >"$D/rules/catalog.img" && touch -r "$T/good.img" "$D/rules/catalog.img" ||
    bad "checked images: hostile image not written"
XDG_CACHE_HOME=$C PDWIZ_DATADIR=$D timeout 20 "$PDWIZ" --version >"$T/out" 2>&1
grep -q "^catalog: YAML in $D/rules (image not used: $D/rules/catalog.img: damaged (" "$T/out" && ok ||
    bad "checked images: a listed file written over was not checked again: $(grep -v '^  ' "$T/out" | head -3)"
# the hostile image's own identity (device, inode, size, times, its
# header's checksum) in a list others may write: not read
cp "$T/h.img" "$D/rules/catalog.img"
/usr/bin/python3 - "$D/rules/catalog.img" >"$T/id" <<'PY'
import os, struct, sys
st = os.stat(sys.argv[1])
with open(sys.argv[1], "rb") as f:
    # the header's checksum: H_SUM of tests/catimg/hostile.py
    s = struct.unpack_from("<Q", f.read(64), 56)[0]
print(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns // 10**9,
      st.st_mtime_ns % 10**9, st.st_ctime_ns // 10**9, st.st_ctime_ns % 10**9, s)
PY
cat "$T/id" >>"$C/pdwiz/checked-images"
chmod 666 "$C/pdwiz/checked-images"
XDG_CACHE_HOME=$C PDWIZ_DATADIR=$D timeout 20 "$PDWIZ" --version >"$T/out" 2>&1
grep -q "damaged (" "$T/out" && [ "$(stat -c %a "$C/pdwiz/checked-images")" = 666 ] && ok ||
    bad "checked images: a list others may write was used or rewritten: $(ls -la "$C/pdwiz")"
# the same line in the user's own list is trusted: what the list is for
# (the test that the line above is the identity pdwiz compares)
chmod 600 "$C/pdwiz/checked-images"
XDG_CACHE_HOME=$C PDWIZ_DATADIR=$D timeout 20 "$PDWIZ" --version >"$T/out" 2>&1
grep -q "damaged (" "$T/out" && bad "checked images: the identity written above is not what pdwiz lists ($(cat "$T/id"))" || ok
cp "$T/good.img" "$D/rules/catalog.img"

# A rules error stays a rules error with file:line (the YAML is read).
cp "$T/good.img" "$D/rules/catalog.img"
printf 'rules: [\n' >"$D/rules/checks/10-pd.yaml"
PDWIZ_DATADIR=$D "$PDWIZ" check -- --model-path m >"$T/out" 2>&1
[ $? = 2 ] && grep -q "10-pd.yaml:" "$T/out" && ok ||
    bad "broken rules with a stale image: $(head -3 "$T/out")"

echo "catalog image: $pass passed, $fail failed"
[ "$fail" = 0 ]
