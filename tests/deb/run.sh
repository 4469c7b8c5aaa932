#!/bin/sh
# The Debian package (debian/): built once with dpkg-buildpackage -us -uc -b
# in a scratch copy of the tree (its tracked and new files, not the work
# tree itself), under build/deb/; unpacked with dpkg -x into a scratch
# root and run from another directory: the version, the rules, a check of
# an installed example, the compiled catalog in use from /usr/lib/pdwiz
# and byte for byte the tree's own (a reproducible image), the hardening
# of dpkg-buildflags in the binary. Exits 77 without dpkg-buildpackage,
# debhelper or fakeroot. Prints "deb: N passed, N failed".
cd "$(dirname "$0")/../.." || exit 2
for t in dpkg-buildpackage dh fakeroot dpkg-deb readelf; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "skipped: no $t (tests/deps.sh installs debhelper, dpkg-dev, fakeroot)"
		exit 77
	fi
done
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "skipped: not a git checkout (the copy to build is what git tracks)"
	exit 77
fi
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
V=$(cat VERSION)
TOP=$PWD
S=$TOP/${BUILD:-build}/deb
rm -rf "$S"
mkdir -p "$S/pdwiz-$V" || exit 2

# The scratch copy: what git tracks, and new files it does not ignore, as
# they are in the work tree (a deleted file is left out).
git ls-files -z --cached --others --exclude-standard |
    xargs -0 sh -c 'for f; do [ -f "$f" ] && printf "%s\0" "$f"; done' sh |
    tar --null -T - -cf - | tar -xf - -C "$S/pdwiz-$V" || exit 2
[ -f "$S/pdwiz-$V/debian/rules" ] || { bad "no debian/rules in the copy"; echo "deb: $pass passed, $fail failed"; exit 1; }

start=$(date +%s)
(cd "$S/pdwiz-$V" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u WERROR \
    DEB_BUILD_OPTIONS="parallel=$(nproc 2>/dev/null || echo 1)" \
    dpkg-buildpackage -us -uc -b) >"$S/build.log" 2>&1
rc=$?
echo "dpkg-buildpackage: exit $rc in $(( $(date +%s) - start ))s (log: $S/build.log)"
deb=$S/pdwiz_${V}_$(dpkg --print-architecture).deb
if [ $rc != 0 ] || [ ! -f "$deb" ]; then
	bad "dpkg-buildpackage: exit $rc, no $deb: $(tail -15 "$S/build.log")"
	echo "deb: $pass passed, $fail failed"
	exit 1
fi
ok
[ "$(dpkg-deb -f "$deb" Package)" = pdwiz ] && [ "$(dpkg-deb -f "$deb" Version)" = "$V" ] && ok ||
    bad "package name/version: $(dpkg-deb -f "$deb" Package Version | tr '\n' ' ')"
dpkg-deb -f "$deb" Depends | grep -q 'libyaml' && ok || bad "Depends lacks libyaml: $(dpkg-deb -f "$deb" Depends)"
# Built with dpkg-buildflags: the compiles got its CPPFLAGS and CFLAGS.
grep -q '^cc .*-D_FORTIFY_SOURCE=2.*-fstack-protector-strong.* -c -o build/src/cli/main.o' "$S/build.log" && ok ||
    bad "the compiles lack dpkg-buildflags' hardening: $(grep -m1 '^cc .*main.o' "$S/build.log")"
grep -q 'Werror ' "$S/build.log" && bad "the package build uses -Werror" || ok

R=$S/root
dpkg -x "$deb" "$R" || bad "dpkg -x"
for f in usr/bin/pdwiz usr/lib/pdwiz/catalog.img usr/share/pdwiz/rules/options.yaml \
    usr/share/pdwiz/forms usr/share/man/man1/pdwiz.1.gz \
    usr/share/bash-completion/completions/pdwiz usr/share/zsh/vendor-completions/_pdwiz \
    usr/share/fish/vendor_completions.d/pdwiz.fish usr/share/doc/pdwiz/copyright \
    usr/share/doc/pdwiz/examples/minimal-1p1d.yaml; do
	[ -e "$R/$f" ] && ok || bad "the package lacks /$f"
done
[ ! -e "$R/usr/local" ] && [ ! -e "$R/usr/share/pdwiz/rules/catalog.img" ] && ok ||
    bad "the package has /usr/local or an image under /usr/share"
cmp -s "$R/usr/lib/pdwiz/catalog.img" rules/catalog.img && ok ||
    bad "the package's catalog image differs from the tree's rules/catalog.img (not reproducible?)"

# The installed binary, run from another directory, finds its data.
P=$R/usr/bin/pdwiz
cd / || exit 2
o=$(env -u PDWIZ_DATADIR "$P" --version 2>&1)
[ "$(printf '%s\n' "$o" | head -1)" = "pdwiz $V" ] && ok || bad "pdwiz --version: $(printf '%s\n' "$o" | head -2)"
printf '%s\n' "$o" | grep -qx "catalog: compiled image $R/usr/lib/pdwiz/catalog.img" && ok ||
    bad "installed pdwiz does not use its image: $(printf '%s\n' "$o" | grep catalog:)"
env -u PDWIZ_DATADIR "$P" rules >"$S/rules.out" 2>&1
[ $? = 0 ] && [ "$(head -5 "$S/rules.out" | wc -l)" = 5 ] && grep -q '^stg-backend ' "$S/rules.out" && ok ||
    bad "pdwiz rules: $(head -3 "$S/rules.out")"
env -u PDWIZ_DATADIR "$P" check "$R/usr/share/doc/pdwiz/examples/mooncake-llama-1p1d.sh" >"$S/check.out" 2>&1 && ok ||
    bad "pdwiz check on an installed example: $(head -5 "$S/check.out")"
env -u PDWIZ_DATADIR "$P" check "$TOP/tests/pkg/bad.sh" >"$S/check.out" 2>&1
[ $? = 1 ] && grep -q argparse-unrecognized "$S/check.out" && ok || bad "pdwiz check on a bad script: $(head -3 "$S/check.out")"
env -u PDWIZ_DATADIR "$P" explain stg-backend >"$S/explain.out" 2>&1 && ok || bad "pdwiz explain: $(head -3 "$S/explain.out")"
cd "$TOP" || exit 2

# Hardening (dpkg-buildflags, hardening=+all): PIE, full RELRO, stack
# protector, fortified calls.
readelf -h "$P" | grep -q 'Type: *DYN' && ok || bad "not a PIE"
readelf -lW "$P" | grep -q GNU_RELRO && readelf -d "$P" | grep -q 'BIND_NOW\|FLAGS.*NOW' && ok || bad "no full RELRO"
readelf -sW --dyn-syms "$P" | grep -q '__stack_chk_fail' && ok || bad "no stack protector"
readelf -sW --dyn-syms "$P" | grep -q '__[a-z]*printf_chk' && ok || bad "not fortified"

echo "deb: $pass passed, $fail failed"
[ "$fail" = 0 ]
