# tests/cli/import.sh - `pdwiz import`: what a script holds is kept, what
# cannot be placed is reported, bounded memory. Sourced by tests/cli/run.sh
# (uses its PDWIZ, T, ok, bad, expect_rc).

# --- a script of 100,000 commands: refused at the cap, in bounded memory ---
python3 - "$T/huge.sh" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(100000):
        f.write("python3 -m sglang.launch_server --model-path /m "
                "--disaggregation-mode prefill --port %d\n" % (20000 + i % 40000))
PY
for sub in "import -o $T/huge.yaml" "check --format json"; do
	# 256 MiB of address space: the whole pdwiz, catalog included.
	(ulimit -v 262144; exec $PDWIZ $sub "$T/huge.sh") >"$T/out" 2>"$T/err"; rc=$?
	[ $rc = 2 ] && grep -q "huge.sh:8193:1: more than 8192 commands in one script" "$T/err" "$T/out" && ok ||
	    bad "100,000 commands ($sub): exit $rc, want 2 and the cap's message: $(head -c 300 "$T/err")"
done
[ ! -e "$T/huge.yaml" ] && ok || bad "a refused import wrote its file"
