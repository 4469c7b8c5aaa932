#!/bin/sh
# Scale: inputs made here, for each reader at two sizes N and 4N, must cost
# work that grows about linearly, and memory under a stated bound.
#
#   work    callgrind's instruction count (total Ir) of `pdwiz check`, less
#           that of a one-line input: 4N may cost at most RATIO (5) times N
#           (linear is 4; measured 3.7 to 4.1. A reader quadratic in the
#           input, as those of anchors, aliases, keys of one djb2 hash, env
#           entries, pods and commands were, costs 7 to 16 times at these
#           sizes). Without
#           valgrind, or for an ASan build (which valgrind cannot run), the
#           CPU time instead, with a wide margin: t(4N) <= 10 t(N) + 0.5 s.
#   memory  the maximum resident set of the 4N run (/usr/bin/time %M),
#           under the case's bound; not checked for an ASan build.
#
# Then the limits: a manifest of 4,096 pods and a script of 16,384 SGLang
# commands are read, in bounded time and memory; one more of either is
# refused with the limit's message (exit 2).
#
# Prints a line per case and "scale: N passed, M failed"; exits 1 on any
# failure. PDWIZ may point at another build (the ASan one), PDWIZ_DATADIR
# at another data directory (that of the build, for an older one).
cd "$(dirname "$0")/../.." || exit 2
PDWIZ=${PDWIZ:-./pdwiz}
case $PDWIZ in /*) ;; *) PDWIZ=$PWD/$PDWIZ ;; esac
PDWIZ_DATADIR=${PDWIZ_DATADIR:-$PWD}
export PDWIZ_DATADIR
RATIO=${RATIO:-5}
LIMIT=${LIMIT:-120}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

asan=false
grep -q __asan_init "$PDWIZ" 2>/dev/null && asan=true
mode="time"
if ! $asan && command -v valgrind >/dev/null 2>&1 &&
    valgrind -q --tool=callgrind --callgrind-out-file=/dev/null \
    "$PDWIZ" --version >/dev/null 2>&1; then
	mode=ir
fi
timer=
[ -x /usr/bin/time ] && timer=/usr/bin/time
echo "scale: measuring $([ $mode = ir ] && echo "instructions (callgrind)" ||
    echo "CPU time")$([ -n "$timer" ] || echo ", no /usr/bin/time: memory not checked")"

# blocks I: the 16 blocks "Ab"/"BA" the bits of I choose; djb2 hashes
# "Ab" and "BA" alike, so every such key once had one hash.
BLOCKS='function blocks(i,  s, b) { s = ""; for (b = 0; b < 16; b++) {
	s = s (i % 2 ? "Ab" : "BA"); i = int(i / 2) }; return s }'
META='apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n'
SPEC='spec:\n  containers:\n  - name: c\n    image: lmsysorg/sglang:v0.5.6\n'
POD=$META$SPEC
SERVER='python3 -m sglang.launch_server --model-path /m --disaggregation-mode prefill'

# gen CASE N FILE: the case's input of size N
gen() {
	case $1 in
	anchors)	# Y1: an anchored collection per item
		awk -v n="$2" 'BEGIN { print "k:"
		    for (i = 0; i < n; i++) print "- &a" i " []" }' ;;
	aliases)	# Y2: n anchors, then an alias of each
		awk -v n="$2" 'BEGIN { print "a:"
		    for (i = 0; i < n; i++) print "- &a" i " x"
		    print "b:"; for (i = 0; i < n; i++) print "- *a" i }' ;;
	keys)		# Y3: keys of one djb2 hash in a --config (under one
			# key: the config reader refuses the nesting once)
		awk -v n="$2" "$BLOCKS"' BEGIN { print "k:"
		    for (i = 0; i < n; i++) print "  " blocks(i) ": 1" }' ;;
	labels)		# Y3: k8s metadata.labels of one djb2 hash
		awk -v n="$2" -v meta="$META" -v spec="$SPEC" "$BLOCKS"' BEGIN {
		    printf "%s  labels:\n", meta
		    for (i = 0; i < n; i++) print "    " blocks(i) ": x"
		    printf "%s", spec
		    print "    command: [python3, -m, sglang.launch_server, --model-path, /m]" }' ;;
	unchecked-env)	# Y3: a deployment's unchecked_env of one djb2 hash
		awk -v n="$2" "$BLOCKS"' BEGIN {
		    print "pdwiz: 1\nname: \"s\"\nmodel:\n  path: \"m/m\"\nshared:"
		    print "  options:\n    disaggregation_transfer_backend: \"mooncake\""
		    print "    disaggregation_ib_device: \"mlx5_0\"\n  unchecked_env:"
		    for (i = 0; i < n; i++) print "    " blocks(i) ": \"1\""
		    print "roles:\n  prefill:\n    instances: 1\n  decode:"
		    print "    instances: 1\n  router: {}" }' ;;
	env)		# K1: env entries, each referring to an earlier one
		awk -v n="$2" -v pod="$POD" 'BEGIN { printf "%s", pod
		    print "    env:\n    - {name: V0, value: a}"
		    for (i = 1; i < n; i++)
			printf "    - {name: V%d, value: \"a$(V%d)\"}\n", i, int(i / 2)
		    print "    command: [python3, -m, sglang.launch_server, --model-path, \"/m$(V1)\"]" }' ;;
	words)		# the words of a sh -c script that expansions made
		awk -v n="$2" -v pod="$POD" -v s="$SERVER" 'BEGIN {
		    printf "%s", pod
		    print "    command: [sh, -c]\n    args:\n    - |\n      X=qq"
		    printf "      %s", s
		    for (i = 0; i < n; i++) printf " $X"; print "" }' ;;
	pods)		# pods of one template
		awk -v n="$2" 'BEGIN { printf "apiVersion: apps/v1\nkind: Deployment\n"
		    printf "metadata:\n  name: d\nspec:\n  replicas: %d\n", n
		    printf "  template:\n    spec:\n      containers:\n      - name: c\n"
		    print "        command: [python3, -m, sglang.launch_server, --model-path, /m]" }' ;;
	commands)	# lines that bash runs as commands of their own
		awk -v n="$2" -v s="$SERVER" 'BEGIN { print s
		    for (i = 0; i < n; i++) print "--tp-size 2" }' ;;
	markdown)	# a guide of ```yaml blocks, one of them a pod
		awk -v n="$2" -v pod="$POD" 'BEGIN { print "# Guide\n\n```yaml"
		    printf "%s", pod
		    print "    command: [python3, -m, sglang.launch_server, --model-path, /m]\n```"
		    for (i = 0; i < n; i++) {
			printf "\n## Step %d\n\n```yaml\napiVersion: v1\n", i
			printf "kind: ConfigMap\nmetadata:\n  name: c%d\n", i
			print "data:\n  a: \"1\"\n  b: \"2\"\n```" } }' ;;
	*)	return 1 ;;
	esac >"$3"
}

ext() {
	case $1 in
	commands) echo sh ;;
	markdown) echo md ;;
	*) echo yaml ;;
	esac
}

args() {
	case $1 in
	anchors|aliases|keys) echo "check --input config" ;;
	*) echo check ;;
	esac
}

# ir FILE CASE: the instructions of checking FILE, or nothing
ir() {
	# shellcheck disable=SC2046 # the words of args, split on purpose
	timeout "$LIMIT" valgrind --tool=callgrind \
	    --callgrind-out-file="$T/cg.out" "$PDWIZ" $(args "$2") "$1" \
	    >/dev/null 2>"$T/vg.err" </dev/null
	sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$T/vg.err"
}

# run FILE ARGS...: the check natively: rc, then "user+sys maxrss" in
# $T/usage (maxrss 0 without /usr/bin/time)
run() {
	f=$1
	shift
	if [ -n "$timer" ]; then
		timeout "$LIMIT" "$timer" -o "$T/usage" -f '%U %S %M' \
		    "$PDWIZ" "$@" "$f" >"$T/out" 2>"$T/err" </dev/null
		rc=$?
		# /usr/bin/time says "Command exited ..." first on a failure.
		awk 'END { printf "%.2f %d\n", $1 + $2, $3 }' "$T/usage" \
		    >"$T/usage.1" && mv "$T/usage.1" "$T/usage"
	else
		start=$(date +%s.%N)
		timeout "$LIMIT" "$PDWIZ" "$@" "$f" >"$T/out" 2>"$T/err" \
		    </dev/null
		rc=$?
		awk -v a="$start" -v b="$(date +%s.%N)" \
		    'BEGIN { printf "%.2f 0\n", b - a }' >"$T/usage"
	fi
	return $rc
}

# grow CASE N RSS_BOUND_KB: the work of sizes N and 4N, and the memory
grow() {
	c=$1 n=$2 bound=$3 x=$(ext "$1")
	if ! gen "$c" "$n" "$T/$c.1.$x" || ! gen "$c" $((4 * n)) "$T/$c.4.$x"
	then
		bad "$c: cannot make its input"
		return
	fi
	# shellcheck disable=SC2046
	run "$T/$c.4.$x" $(args "$c")
	rc=$?
	read -r t4 rss <"$T/usage"
	if [ "$rc" -ge 2 ]; then
		bad "$c: size $((4 * n)): exit $rc: $(head -c 300 "$T/err")"
		return
	fi
	if [ -n "$timer" ] && ! $asan && [ "$rss" -gt "$bound" ]; then
		bad "$c: size $((4 * n)): max RSS $rss KB, bound $bound KB"
		return
	fi
	if [ $mode = ir ]; then
		i1=$(ir "$T/$c.1.$x" "$c")
		i4=$(ir "$T/$c.4.$x" "$c")
		if [ -z "$i1" ] || [ -z "$i4" ]; then
			bad "$c: callgrind gave no count: $(tail -n 3 "$T/vg.err")"
			return
		fi
		r=$(awk -v a="$i1" -v b="$i4" -v z="$BASE" \
		    'BEGIN { printf "%.2f", (b - z) / (a > z ? a - z : 1) }')
		line="$c: $n -> $((4 * n)): Ir $i1 -> $i4 (x$r, at most x$RATIO), max RSS $rss KB (bound $bound KB)"
		if awk -v r="$r" -v m="$RATIO" 'BEGIN { exit !(r <= m) }'; then
			ok "$line"
		else
			bad "$line"
		fi
	else
		# shellcheck disable=SC2046
		run "$T/$c.1.$x" $(args "$c")
		read -r t1 _ <"$T/usage"
		line="$c: $n -> $((4 * n)): CPU ${t1}s -> ${t4}s (at most 10x + 0.5s), max RSS $rss KB"
		if awk -v a="$t1" -v b="$t4" 'BEGIN { exit !(b <= 10 * a + 0.5) }'
		then
			ok "$line"
		else
			bad "$line"
		fi
	fi
}

# The instructions of a one-line input: what every run costs.
BASE=0
if [ $mode = ir ]; then
	echo "a: 1" >"$T/base.yaml"
	BASE=$(ir "$T/base.yaml" keys)
	[ -n "$BASE" ] || { echo "scale: callgrind gave no count"; exit 2; }
fi

# The sizes are those at which each reader as it was before issue 22 costs
# 5.5 to 10 times for 4 times the input, small enough to run in seconds.
#    case           N      bound of max RSS (KB) at 4N
grow anchors        1000   65536
grow aliases        300    65536
grow keys           600    65536
grow labels         400    65536
grow unchecked-env  400    65536
grow env            300    65536
grow words          600    65536
grow pods           256    65536
grow commands       300    65536
grow markdown       150    65536

# --- many files in one process (check DIR, as CI runs it on a repository):
# N and 4N files cost about 4 times the work, and 200 files stay far under
# what half a second of one core runs (instructions: 1.5e9, at a low 3e9/s;
# 200 files measure about 1e8).
files() {
	mkdir -p "$2"
	awk -v n="$1" -v d="$2" -v s="$SERVER" 'BEGIN { for (i = 0; i < n; i++) {
	    f = sprintf("%s/f%03d.%s", d, i, i % 2 ? "sh" : "yaml")
	    if (i % 2) printf "#!/bin/sh\n%s --tp-size 2 --port %d\n", s, 20000 + i >f
	    else printf "pdwiz: 1\nname: \"f%d\"\nmodel:\n  path: \"meta-llama/Llama-3.1-8B-Instruct\"\nroles:\n  prefill: {instances: 1}\n  decode: {instances: 1}\n  router: {}\n", i >f
	    close(f) } }'
}
files 50 "$T/files.1"
files 200 "$T/files.4"
run "$T/files.4" check
rc=$?
read -r t4 rss <"$T/usage"
if [ "$rc" -ge 2 ]; then
	bad "files: 200 files: exit $rc: $(head -c 300 "$T/err")"
elif [ $mode = ir ]; then
	i1=$(ir "$T/files.1" files)
	i4=$(ir "$T/files.4" files)
	r=$(awk -v a="$i1" -v b="$i4" -v z="$BASE" \
	    'BEGIN { printf "%.2f", (b - z) / (a > z ? a - z : 1) }')
	line="files: 50 -> 200 in one process: Ir $i1 -> $i4 (x$r, at most x$RATIO; 200 files at most 1500000000), max RSS $rss KB"
	if [ -n "$i4" ] && awk -v r="$r" -v m="$RATIO" -v i="$i4" \
	    'BEGIN { exit !(r <= m && i <= 1500000000) }'; then
		ok "$line"
	else
		bad "$line"
	fi
else
	line="files: 200 files in one process: CPU ${t4}s (at most 0.5 s)"
	if awk -v t="$t4" 'BEGIN { exit !(t <= 0.5) }'; then ok "$line"; else bad "$line"; fi
fi

# --- the limits: read at the cap in bounded time and memory, refused past it
# limit NAME FILE BOUND_KB SECONDS WANT_MESSAGE_PAST
limit() {
	name=$1 f=$2 bound=$3 secs=$4
	run "$f" check
	rc=$?
	read -r t rss <"$T/usage"
	if [ "$rc" -ge 2 ]; then
		bad "$name: exit $rc at the cap: $(head -c 300 "$T/err")"
	elif ! $asan && awk -v t="$t" -v s="$secs" 'BEGIN { exit !(t > s) }'; then
		bad "$name: ${t}s at the cap, bound ${secs}s"
	elif [ -n "$timer" ] && ! $asan && [ "$rss" -gt "$bound" ]; then
		bad "$name: max RSS $rss KB at the cap, bound $bound KB"
	else
		ok "$name: at the cap ${t}s, max RSS $rss KB (bounds ${secs}s, $bound KB)"
	fi
}
past() {
	name=$1 f=$2 want=$3
	run "$f" check
	rc=$?
	if [ "$rc" = 2 ] && grep -qF "$want" "$T/err"; then
		ok "$name: refused past the cap"
	else
		bad "$name: past the cap: exit $rc, want 2 and '$want': $(head -c 300 "$T/err")"
	fi
}

awk 'BEGIN { for (i = 0; i < 4096; i++) { if (i) print "---"
	printf "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p%d\nspec:\n", i
	printf "  containers:\n  - name: c\n    command: [python3, -m, "
	printf "sglang.launch_server, --model-path, /m, --port, \"%d\"]\n", 20000 + i } }' \
    >"$T/pods.yaml"
limit "4,096 pods" "$T/pods.yaml" 262144 20
{ cat "$T/pods.yaml"; printf -- '---\n'; printf '%b' "$POD"
  echo "    command: [python3, -m, sglang.launch_server, --model-path, /m]"; } \
    >"$T/pods1.yaml"
past "4,097 pods" "$T/pods1.yaml" "more than 4096 pods in this manifest"

# The same pods in a guide's ```yaml blocks: each pod's script was read
# into a pool of its own, whose 64 KiB chunk the manifest kept (238 MB).
awk 'BEGIN { print "# Pods" } /^---$/ { print "```\n\n```yaml"; next }
    NR == 1 { print "```yaml" } { print } END { print "```" }' \
    "$T/pods.yaml" >"$T/pods.md"
limit "4,096 pods in Markdown" "$T/pods.md" 65536 20

awk -v s="$SERVER" 'BEGIN { for (i = 0; i < 16384; i++)
	printf "%s --port %d\n", s, 20000 + i }' >"$T/cmds.sh"
limit "16,384 commands" "$T/cmds.sh" 262144 20
{ cat "$T/cmds.sh"; echo "$SERVER"; } >"$T/cmds1.sh"
past "16,385 commands" "$T/cmds1.sh" "cmds1.sh:16385:1: more than 16384 SGLang commands in one script"

echo "scale: $pass passed, $fail failed"
[ "$fail" = 0 ]
