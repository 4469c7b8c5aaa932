#!/usr/bin/env python3
"""sgoracle.py - SGLang's own verdict on a launch command, without a GPU.

    sgoracle.py --sglang DIR [facts] -- ARGS...      one command line
    sgoracle.py --sglang DIR --batch < cases.jsonl   many, one JSON line each

DIR is a source tree of SGLang (a checkout, or `git archive` of one: the
directory holding python/sglang). The command line (what follows
`python -m sglang.launch_server`) goes through SGLang's own
prepare_server_args (its argparse, ServerArgs.__post_init__ with every
hook) and check_server_args, on a machine that the facts describe:

    --platform cuda|hip   --sm 90   --gpu-gib 80   --gpus 8
    --gpu-name NAME       --env NAME=VALUE (repeatable)

torch, transformers, the kernels and the device probes are stand-ins
(sgstubs.py); the model is a local directory with a config.json.

Prints one JSON object: {"verdict": "accepted" | "refused", "stage":
"argparse" | "post_init" | "check_server_args", "exc_type", "message",
"function", "file", "line", "resolved": {...}}. A batch case is
{"id", "argv": [...], "env": {NAME: VALUE or null}, "machine":
{"platform", "sm", "gpu_gib", "gpus", "name"}}; its answer carries the
same id, one line per case in input order. Cases are grouped by machine:
one worker process per group (and --jobs at a time) imports SGLang once
and forks a child per case, so no case sees another's state.
"""
import argparse
import io
import json
import os
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))

# What is read back of the resolved ServerArgs of an accepted command.
RESOLVED = (
    "tp_size", "dp_size", "pp_size", "ep_size", "enable_dp_attention",
    "chunked_prefill_size", "page_size", "attention_backend",
    "prefill_attention_backend", "decode_attention_backend",
    "mem_fraction_static", "max_running_requests", "cuda_graph_max_bs",
    "disable_cuda_graph", "kv_cache_dtype", "disable_radix_cache",
    "enable_hierarchical_cache", "hicache_storage_backend",
    "disable_overlap_schedule", "moe_a2a_backend", "moe_runner_backend",
    "speculative_algorithm", "speculative_num_steps",
    "speculative_eagle_topk", "speculative_num_draft_tokens",
    "speculative_draft_model_path", "disaggregation_mode",
    "disaggregation_transfer_backend", "disaggregation_decode_tp",
    "disaggregation_decode_dp", "disaggregation_prefill_pp",
    "enable_prefill_cp", "attn_cp_size", "nsa_prefill_backend",
    "nsa_decode_backend", "max_total_tokens", "device",
)

# Environment variables a worker clears before any case: a case states
# the ones it wants.
ENV_PREFIXES = ("SGLANG_", "SGL_", "MC_", "NCCL_", "CUDA_VISIBLE_DEVICES",
                "HIP_VISIBLE_DEVICES", "ASCEND_", "MOONCAKE_", "NIXL_",
                "MORI_", "ENABLE_", "FLASHINFER_")

DEFAULT_MACHINE = {"platform": "cuda", "sm": 90, "gpu_gib": 80, "gpus": 8}


def _jsonable(v):
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    return str(v)


def _where(tb, tree):
    """The innermost frame of SGLang's own code: (function, file, line);
    the function by its qualified name (ServerArgs._handle_page_size)."""
    best = None
    while tb is not None:
        co = tb.tb_frame.f_code
        f = os.path.abspath(co.co_filename)
        if f.startswith(tree + os.sep) and "/sglang/" in f:
            best = (getattr(co, "co_qualname", co.co_name),
                    os.path.relpath(f, tree), tb.tb_lineno)
        tb = tb.tb_next
    return best or (None, None, None)


def _argparse_message(text):
    """The error line of an argparse exit: 'prog: error: MESSAGE'."""
    for line in reversed(text.splitlines()):
        i = line.find(": error: ")
        if i >= 0:
            return line[i + len(": error: "):]
    return text.strip().splitlines()[-1] if text.strip() else ""


def run_case(sa, argv, tree):
    """Run one command line through SGLang; the verdict as a dict."""
    out = {}
    stage = "argparse"
    err = io.StringIO()
    old_err = sys.stderr
    try:
        sys.stderr = err
        try:
            parser = argparse.ArgumentParser(prog="sglang serve")
            sa.ServerArgs.add_cli_args(parser)
            raw = parser.parse_args(argv)
        finally:
            sys.stderr = old_err
        stage = "post_init"
        args = sa.ServerArgs.from_cli_args(raw)
        stage = "check_server_args"
        args.check_server_args()
    except SystemExit as e:
        out.update(verdict="refused", stage=stage, exc_type="SystemExit",
                   message=_argparse_message(err.getvalue()),
                   exit_code=e.code if isinstance(e.code, int) else 1)
        return out
    except BaseException as e:  # noqa: B902 - every exception is a verdict
        fn, f, ln = _where(e.__traceback__, tree)
        out.update(verdict="refused", stage=stage, exc_type=type(e).__name__,
                   message=str(e), function=fn, file=f, line=ln)
        return out
    out["verdict"] = "accepted"
    res = {}
    for k in RESOLVED:
        try:
            v = getattr(args, k)
        except Exception:
            continue
        res[k] = _jsonable(v)
    out["resolved"] = res
    return out


def _clean_env():
    for k in list(os.environ):
        if k.startswith(ENV_PREFIXES):
            del os.environ[k]


def _import_sglang(tree, machine):
    sys.path.insert(0, HERE)
    import sgstubs
    sgstubs.install(machine)
    sys.path.insert(0, os.path.join(tree, "python"))
    import logging
    logging.disable(logging.CRITICAL)
    import sglang.srt.server_args as sa
    return sa


def _host_probes(machine):
    """The InfiniBand devices SGLang looks up in sysfs: the machine's
    (ib_devices, by default mlx5_0 .. mlx5_7)."""
    ib = "/sys/class/infiniband"
    devs = list(machine.get("ib_devices",
                            ["mlx5_%d" % i for i in range(8)]))
    isdir, listdir = os.path.isdir, os.listdir

    def fake_isdir(p):
        if os.path.normpath(str(p)) == ib:
            return bool(devs) or isdir(p)
        return isdir(p)

    def fake_listdir(p="."):
        if os.path.normpath(str(p)) == ib:
            return list(devs)
        return listdir(p)

    os.path.isdir, os.listdir = fake_isdir, fake_listdir


# Warm-up: command lines run once in the worker before it forks, so that
# the modules SGLang imports on first use (the model config, the hooks,
# the quantization methods) are imported once, not in every child.
WARMUP = (
    ["--disaggregation-mode", "prefill", "--tp-size", "2",
     "--speculative-algorithm", "EAGLE", "--enable-hierarchical-cache"],
    ["--disaggregation-mode", "decode", "--enable-dp-attention",
     "--dp-size", "2", "--tp-size", "2", "--moe-a2a-backend", "deepep"],
)


def _warm_up(sa, tree, model_paths):
    env = dict(os.environ)
    for mp in model_paths:
        for argv in WARMUP:
            try:
                run_case(sa, ["--model-path", mp] + list(argv), tree)
            except BaseException:
                pass
    os.environ.clear()
    os.environ.update(env)


def _model_paths(cases):
    seen = []
    for c in cases:
        argv = c.get("argv") or []
        for i, w in enumerate(argv[:-1]):
            if w in ("--model-path", "--model") and argv[i + 1] not in seen:
                seen.append(argv[i + 1])
    return seen[:8]


def worker(tree, machine, cases, timeout, wout):
    """One process per machine: import SGLang once, fork a child per case."""
    _clean_env()
    _host_probes(machine)
    try:
        sa = _import_sglang(tree, machine)
        _warm_up(sa, tree, _model_paths(cases))
    except BaseException as e:
        fn, f, ln = _where(e.__traceback__, tree)
        for c in cases:
            wout.write(json.dumps({"id": c.get("id"), "verdict": "error",
                                   "stage": "import",
                                   "exc_type": type(e).__name__,
                                   "message": str(e), "function": fn,
                                   "file": f, "line": ln}) + "\n")
        wout.flush()
        return
    for c in cases:
        t0 = time.time()
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            for k, v in (c.get("env") or {}).items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = str(v)
            try:
                res = run_case(sa, list(c["argv"]), tree)
            except BaseException as e:
                res = {"verdict": "error", "exc_type": type(e).__name__,
                       "message": str(e)}
            data = json.dumps(res).encode()
            with os.fdopen(w, "wb") as f:
                f.write(data)
            os._exit(0)
        os.close(w)
        chunks = []
        import select
        deadline = t0 + timeout
        timed_out = False
        while True:
            left = deadline - time.time()
            if left <= 0:
                timed_out = True
                break
            rd, _, _ = select.select([r], [], [], left)
            if not rd:
                continue
            b = os.read(r, 65536)
            if not b:
                break
            chunks.append(b)
        os.close(r)
        if timed_out:
            os.kill(pid, 9)
        os.waitpid(pid, 0)
        if timed_out:
            res = {"verdict": "error", "exc_type": "Timeout",
                   "message": "no verdict in %d s" % timeout}
        elif not chunks:
            res = {"verdict": "error", "exc_type": "Crash",
                   "message": "the case's process died"}
        else:
            res = json.loads(b"".join(chunks))
        res = dict({"id": c.get("id")}, **res)
        res["seconds"] = round(time.time() - t0, 3)
        wout.write(json.dumps(res, sort_keys=True) + "\n")
        wout.flush()


def machine_of(c):
    m = dict(DEFAULT_MACHINE)
    m.update(c.get("machine") or {})
    return m


def batch(tree, cases, jobs, timeout, out, progress):
    """Group cases by machine, run each group in a worker (jobs at a time),
    print the answers in input order."""
    groups = {}
    for i, c in enumerate(cases):
        c.setdefault("id", str(i))
        key = json.dumps(machine_of(c), sort_keys=True)
        groups.setdefault(key, []).append(c)
    # Chunks of at most 250 cases, so that --jobs workers share the work.
    units = []
    for key, cs in groups.items():
        for i in range(0, len(cs), 250):
            units.append((key, cs[i:i + 250]))
    import threading

    answers = {}
    lock = threading.Lock()
    me = os.path.abspath(__file__)
    done = [0]

    def run_unit(key, cs):
        p = subprocess.Popen(
            [sys.executable, me, "--sglang", tree, "--worker", key,
             "--timeout", str(timeout)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        p.stdin.write("".join(json.dumps(c) + "\n" for c in cs))
        p.stdin.close()
        for line in p.stdout:
            a = json.loads(line)
            with lock:
                answers[a["id"]] = a
                done[0] += 1
                if progress and done[0] % 100 == 0:
                    print("sgoracle: %d/%d" % (done[0], len(cases)),
                          file=sys.stderr)
        p.wait()
        with lock:
            for c in cs:
                answers.setdefault(c["id"], {
                    "id": c["id"], "verdict": "error",
                    "exc_type": "WorkerDied",
                    "message": "exit %s" % p.returncode})

    def runner():
        while True:
            with lock:
                if not units:
                    return
                key, cs = units.pop(0)
            run_unit(key, cs)

    threads = [threading.Thread(target=runner) for _ in range(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for c in cases:
        out.write(json.dumps(answers[c["id"]], sort_keys=True) + "\n")


def main():
    ap = argparse.ArgumentParser(
        description="SGLang's own verdict on launch command lines "
                    "(argparse, ServerArgs.__post_init__, check_server_args) "
                    "with stand-ins for torch, transformers and the GPU.")
    ap.add_argument("--sglang", required=True,
                    help="SGLang source tree (holds python/sglang)")
    ap.add_argument("--batch", action="store_true",
                    help="read cases as JSON lines on stdin")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=120,
                    help="seconds a case may take")
    ap.add_argument("--progress", action="store_true")
    ap.add_argument("--platform", choices=("cuda", "hip"), default="cuda")
    ap.add_argument("--sm", type=int, default=90)
    ap.add_argument("--gpu-gib", type=float, default=80)
    ap.add_argument("--gpus", type=int, default=8)
    ap.add_argument("--gpu-name")
    ap.add_argument("--env", action="append", default=[],
                    metavar="NAME=VALUE")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("argv", nargs="*")
    a = ap.parse_args()
    tree = os.path.abspath(a.sglang)
    if not os.path.isfile(os.path.join(tree, "python", "sglang", "srt",
                                       "server_args.py")):
        print("sgoracle: %s: no python/sglang/srt/server_args.py" % tree,
              file=sys.stderr)
        return 2
    if a.worker:
        cases = [json.loads(l) for l in sys.stdin if l.strip()]
        worker(tree, json.loads(a.worker), cases, a.timeout, sys.stdout)
        return 0
    if a.batch:
        cases = [json.loads(l) for l in sys.stdin if l.strip()]
        batch(tree, cases, max(1, a.jobs), a.timeout, sys.stdout, a.progress)
        return 0
    env = {}
    for e in a.env:
        k, _, v = e.partition("=")
        env[k] = v
    m = {"platform": a.platform, "sm": a.sm, "gpu_gib": a.gpu_gib,
         "gpus": a.gpus}
    if a.gpu_name:
        m["name"] = a.gpu_name
    c = {"id": "0", "argv": a.argv, "env": env, "machine": m}
    buf = io.StringIO()
    batch(tree, [c], 1, a.timeout, buf, False)
    r = json.loads(buf.getvalue())
    r.pop("id", None)
    print(json.dumps(r, indent=2, sort_keys=True))
    return 0 if r["verdict"] == "accepted" else 1


if __name__ == "__main__":
    sys.exit(main())
