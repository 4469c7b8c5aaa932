#!/bin/sh
# tests/logs/run.sh - pdwiz explain, from a failed launch back to its cause:
# the corpus of real failure logs (tests/logs/cases.tsv, check.py), the
# command line (a message, --log FILE, --log -, exit statuses, JSON), a
# log imported as the deployment it describes (pdwiz import, pdwiz check),
# interleaved processes, and the work a long log costs (linear: a log four
# times as long costs about four times the instructions).
#
# Prints a line per check and "logs: N passed, M failed"; exits 1 on any
# failure. PDWIZ may point at another build.
cd "$(dirname "$0")/../.." || exit 2
PDWIZ=${PDWIZ:-./pdwiz}
case $PDWIZ in /*) ;; *) PDWIZ=$PWD/$PDWIZ ;; esac
PDWIZ_DATADIR=${PDWIZ_DATADIR:-$PWD}
export PDWIZ_DATADIR
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
L=tests/logs
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect_rc NAME RC CMD...: run CMD (stdout in $T/out, stderr in $T/err)
expect_rc() {
	name=$1 want=$2
	shift 2
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = "$want" ] && ok "$name (exit $rc)" ||
	    bad "$name: exit $rc, want $want: $(head -c 400 "$T/err")"
}

# --- the corpus ---
$PY $L/check.py "$PDWIZ" $L/cases.tsv $L "$T" >"$T/corpus" 2>&1
cat "$T/corpus"
pass=$((pass + $(grep -c '^ok: ' "$T/corpus")))
fail=$((fail + $(grep -c '^FAIL: ' "$T/corpus")))
grep -q '^corpus: ' "$T/corpus" || bad "check.py did not finish"

# --- a message, standard input, what is not a log ---
expect_rc "a message" 0 $PDWIZ explain "--enable-dsa-cache-layer-split currently only supports the mooncake transfer backend (mooncake / mooncake_tcp). Got --disaggregation-transfer-backend 'nixl'. mori/nixl support will be added later by the community."
grep -q "explained by cp-dsa-cache-layer-split-backend" "$T/out" && grep -q "disaggregation_transfer_backend!r = 'nixl'" "$T/out" &&
    ok "a message: its rule and the hole's value" || bad "a message: $(head -c 300 "$T/out")"
expect_rc "a message no rule says" 1 $PDWIZ explain "the flux capacitor is out of sync"
grep -q "not explained" "$T/out" && ok "says so plainly" || bad "no 'not explained': $(cat "$T/out")"
expect_rc "a rule id still explains the rule" 0 $PDWIZ explain stg-backend
grep -q "^stg-backend  (error" "$T/out" && ok "explain RULE-ID unchanged" || bad "explain RULE-ID: $(head -3 "$T/out")"
expect_rc "a rule id, as JSON" 0 $PDWIZ explain --format json stg-backend
$PY -c 'import json,sys; assert json.load(open(sys.argv[1]))["rule"]["id"] == "stg-backend"' "$T/out" && ok "rule JSON" || bad "rule JSON"
expect_rc "a word that can only be an id" 2 $PDWIZ explain stg-backnd
grep -q "did you mean 'stg-backend'" "$T/err" && ok "did you mean" || bad "did you mean: $(cat "$T/err")"
expect_rc "--log -" 0 sh -c "$PDWIZ explain --log - < $L/cases/seed-002-staging-backend.log"
grep -q "^<stdin>:7:1: ValueError: SGLANG_DISAGG_STAGING_BUFFER requires" "$T/out" &&
    ok "standard input is <stdin>" || bad "--log -: $(head -3 "$T/out")"
expect_rc "--log - twice" 2 sh -c "$PDWIZ explain --log - --log - < /dev/null"
expect_rc "a rule and --log" 2 $PDWIZ explain stg-backend --log $L/cases/seed-002-staging-backend.log
expect_rc "nothing to explain" 2 $PDWIZ explain
expect_rc "a log that is not there" 2 $PDWIZ explain --log "$T/nothere.log"
grep -q "^pdwiz: .*nothere.log" "$T/err" && ok "the missing file named" || bad "missing file: $(cat "$T/err")"
printf 'Traceback (most recent call last):\nValue\000Error: x\n' > "$T/bin.log"
expect_rc "a binary log" 2 $PDWIZ explain --log "$T/bin.log"
grep -q "bin.log:2:6: binary input (a NUL byte)" "$T/err" && ok "file:line:col of the NUL" || bad "binary: $(cat "$T/err")"
expect_rc "a log without a failure" 2 $PDWIZ explain --log $L/other/sglang-4655-server-args-cut.log
grep -q "no failure found" "$T/err" && ok "says there is no failure" || bad "no failure: $(cat "$T/err")"
expect_rc "--format xml" 2 $PDWIZ explain --format xml --log $L/cases/seed-002-staging-backend.log

# --- the text says what the JSON says ---
expect_rc "seed-004 as text" 0 $PDWIZ explain --log $L/cases/seed-004-staging-pp-nixl.log
for want in "RuntimeError: SGLANG_DISAGG_STAGING_BUFFER with pp_size > 1 is only supported by Mooncake. (2 times, from PP0 TP0,PP1 TP3)" \
    "explained by stg-pp-mooncake" "What it means" \
    "The re-check of the configuration reports stg-pp-mooncake: the same failure." \
    "fix (verified): use the mooncake transfer backend:" \
    "SGLANG_DISAGG_STAGING_BUFFER=1 python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-70B-Instruct" \
    "1 field of server_args is not an option of the SGLang release pdwiz models (another release's, skipped): max_micro_batch_size" \
    "the configuration SGLang resolved, its server_args" "1 failure, 1 explained"; do
	grep -qF -- "$want" "$T/out" && ok "text: $want" || bad "text lacks: $want"
done
expect_rc "not explained, as text" 1 $PDWIZ explain --log $L/cases/sglang-pr14474-page-size-mismatch.log
for want in "not explained: no rule's message matches it." "Does not look like configuration" \
    "Closest rule messages (sharing most of their literal text):" "xs-page-size ("; do
	grep -qF -- "$want" "$T/out" && ok "not explained: $want" || bad "not explained lacks: $want"
done
expect_rc "raised in server_args.py: looks like configuration" 1 $PDWIZ explain "ValueError: the frobnication level must be set"
printf 'Traceback (most recent call last):\n  File "/x/sglang/srt/server_args.py", line 9, in check_server_args\n    raise ValueError("a")\nValueError: the frobnication level must be set\n' > "$T/cfg.log"
expect_rc "a configuration error no rule models" 1 $PDWIZ explain --log "$T/cfg.log"
grep -q "Looks like configuration: raised in server_args.py" "$T/out" && ok "looks like configuration, by its frame" || bad "frames: $(cat "$T/out")"

# --- interleaved processes: one failure, every rank counted ---
$PY - "$T/ranks.log" <<'PY'
import sys
ranks = ["TP%d" % i for i in range(8)]
lines = []
for r in ranks:
    lines.append("[2026-08-28 10:01:02 %s] Scheduler hit an exception: Traceback (most recent call last):" % r)
for part in ['  File "/s/sglang/srt/managers/scheduler.py", line 9, in run_scheduler_process',
             "    scheduler = Scheduler(",
             "AssertionError: chunked_prefill_size must be divisible by page_size"]:
    for r in ranks:
        lines.append(part)
        lines.append("[2026-08-28 10:01:03 %s] Load weight begin. avail mem=78.02 GB" % r)
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
expect_rc "eight ranks interleaved" 0 $PDWIZ explain --format json --log "$T/ranks.log"
$PY -c '
import json,sys
d=json.load(open(sys.argv[1]))
p=[f for f in d["failures"] if f["primary"]]
assert len(p) == 1 and p[0]["count"] == 8, p
assert p[0]["processes"] == ",".join("TP%d" % i for i in range(8)), p[0]["processes"]
assert p[0]["rules"][0]["id"] == "pd-chunked-page"' "$T/out" && ok "one failure of eight ranks" || bad "interleaved: $(head -c 400 "$T/out")"

# --- a log is an input: pdwiz check and pdwiz import read its configuration ---
expect_rc "check of a log" 1 $PDWIZ check $L/cases/seed-004-staging-pp-nixl.log
grep -q "seed-004-staging-pp-nixl.log:3:.*\[stg-pp-mooncake\]" "$T/out" && ok "check reports at the server_args line" || bad "check of a log: $(head -c 400 "$T/out")"
expect_rc "import of a log" 0 $PDWIZ import -o "$T/imp.yaml" $L/other/sglang-4655-server-args-cut.log
for want in 'path: "/home/models/Qwen2.5-0.5B-Instruct"' 'disaggregation_ib_device: "mlx5_2"' \
    'chunked_prefill_size: 16384' 'decode: "no decode command'; do
	grep -qF "$want" "$T/imp.yaml" && ok "import keeps $want" || bad "import lacks $want: $(head -c 600 "$T/imp.yaml")"
done
cat $L/cases/mine-page-size-prefill.log $L/cases/mine-page-size-decode.log $L/cases/mine-page-size-router.log > "$T/pd.log"
expect_rc "import of a 1P1D's logs, one file" 0 $PDWIZ import -o "$T/pd.yaml" "$T/pd.log"
$PY - "$T/pd.yaml" <<'PY' && ok "the deployment holds prefill, decode and router with their page sizes" || bad "import of pd.log: $(head -c 800 "$T/pd.yaml")"
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
r = d["roles"]
assert r["prefill"]["options"]["page_size"] == 64, r["prefill"]
assert r["decode"]["options"]["page_size"] == 1, r["decode"]
assert "router" in r and "missing" not in d, d
PY
expect_rc "check of the deployment imported" 1 $PDWIZ check "$T/pd.yaml"
grep -q "\[xs-page-size\]" "$T/out" && ok "one verdict: xs-page-size after import" || bad "verdict: $(head -c 400 "$T/out")"

# --- linear: four times the log costs about four times the work ---
$PY - "$T" <<'PY'
import sys
t = sys.argv[1]
def log(n, path):
    out = []
    for i in range(n):
        r = "TP%d" % (i % 8)
        k = i % 10
        if k == 0:
            out.append("[2026-08-28 10:%02d:%02d %s] Prefill batch. #new-seq: 1, #new-token: %d, token usage: 0.01" % (i // 60 % 60, i % 60, r, i))
        elif k == 1:
            out.append("[2026-08-28 10:00:00 %s] Decode transfer failed for request rank=%d bootstrap_room=%d with exception KVTransferError(bootstrap_room=%d): Failed to get kvcache from prefill instance, it might be dead" % (r, i % 8, i, i))
        elif k == 2:
            out.append("[2026-08-28 10:00:00 %s] Scheduler hit an exception: Traceback (most recent call last):" % r)
        elif k == 3:
            out.append('  File "/s/sglang/srt/managers/scheduler.py", line %d, in event_loop' % i)
        elif k == 4:
            out.append("RuntimeError: step %d failed: the prefill server has page_size=%d" % (i, i))
        else:
            out.append("[2026-08-28 10:00:00 %s] INFO:     10.0.0.%d:%d - \"POST /generate HTTP/1.1\" 200 OK" % (r, i % 250, 40000 + i % 20000))
    out.insert(1, "[2026-08-28 09:00:00] server_args=ServerArgs(model_path='/m', tp_size=8, page_size=64, disaggregation_mode='decode', cuda_graph_bs=[1, 2, 4, 8])")
    open(path, "w").write("\n".join(out) + "\n")
log(2000, t + "/n.log")
log(8000, t + "/4n.log")
PY
expect_rc "a 2,000-line log" 1 $PDWIZ explain --log "$T/n.log"
if command -v valgrind >/dev/null 2>&1 && ! grep -q __asan_init "$PDWIZ" 2>/dev/null; then
	ir() {
		valgrind -q --tool=callgrind --callgrind-out-file="$T/cg" "$PDWIZ" explain --log "$1" >/dev/null 2>&1
		awk '/^summary:|^totals:/ { print $2; exit }' "$T/cg"
	}
	base=$(ir $L/cases/sglang-6005-hicache-attribute.log)
	a=$(ir "$T/n.log")
	b=$(ir "$T/4n.log")
	if [ -n "$a" ] && [ -n "$b" ] && [ -n "$base" ] &&
	    [ $(( (b - base) )) -le $(( 5 * (a - base) )) ]; then
		ok "2,000 -> 8,000 lines: $(( (a - base) / 1000000 )) M -> $(( (b - base) / 1000000 )) M instructions (at most 5x)"
	else
		bad "2,000 -> 8,000 lines: $a -> $b instructions (base $base): more than 5x"
	fi
else
	s=$(date +%s)
	$PDWIZ explain --log "$T/4n.log" >/dev/null 2>&1
	e=$(date +%s)
	[ $((e - s)) -le 10 ] && ok "8,000 lines in $((e - s)) s" || bad "8,000 lines took $((e - s)) s"
fi

echo "logs: $pass passed, $fail failed"
[ "$fail" = 0 ]
