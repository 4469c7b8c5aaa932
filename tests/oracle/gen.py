#!/usr/bin/env python3
"""gen.py - the oracle corpus's cases: seeded prefill/decode command lines.

    gen.py models                       write tests/oracle/models/*/config.json
    gen.py cases [--seed S] [--count N] [--tree NAME] > cases.jsonl
    gen.py record --sglang DIR [--seed S] [--count N] [--tree NAME] [--jobs J]
                                        the cases and SGLang's verdicts,
                                        tests/oracle/recorded/NAME.jsonl
    gen.py record --examples --sglang DIR --tree NAME
                                        issue 23's examples of that tree
                                        (examples.tsv), with SGLang's
                                        verdicts: recorded/examples-NAME.jsonl

Each case is one JSON line: {"id", "tree", "model", "gpu", "machine",
"env", "argv"}. "gpu" is the accelerator's name as pdwiz knows it
(rules/hardware.yaml), "machine" the facts the oracle's fake torch
reports for it. The command lines are drawn from the flags that decide
a PD deployment's launch: the disaggregation mode and transfer backend,
TP/DP/PP/EP sizes, DP attention, MoE all-to-all backends and runners,
page size, KV cache dtype, chunked prefill, HiCache and the radix cache,
speculative decoding, prefill context parallelism and DSA backends, and
a few PD environment variables. Half valid by construction, half with
one or more values drawn from the whole range, so that both SGLang's
refusals and its acceptances are exercised.

The models are small config.json files of pdwiz's own (only the fields
SGLang's argument checks and pdwiz read): no weights, no tokenizer.
"""
import argparse
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS_DIR = os.path.join(HERE, "models")
REL_MODELS = "tests/oracle/models"

# ---------------------------------------------------------------- models
_LLAMA = {
    "architectures": ["LlamaForCausalLM"], "model_type": "llama",
    "hidden_size": 4096, "intermediate_size": 14336,
    "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
    "num_hidden_layers": 32, "vocab_size": 128256,
    "max_position_embeddings": 131072, "rope_theta": 500000.0,
    "rms_norm_eps": 1e-05, "torch_dtype": "bfloat16",
    "tie_word_embeddings": False,
}
MODELS = {
    # dense, grouped-query attention
    "llama3-8b": _LLAMA,
    # a small dense draft for STANDALONE speculative decoding
    "llama3-1b": dict(_LLAMA, hidden_size=2048, intermediate_size=8192,
                      num_attention_heads=32, num_key_value_heads=8,
                      head_dim=64, num_hidden_layers=16,
                      tie_word_embeddings=True),
    # EAGLE and EAGLE3 draft heads for llama3-8b
    "llama3-8b-eagle": dict(_LLAMA, architectures=["LlamaForCausalLMEagle"],
                            num_hidden_layers=1),
    "llama3-8b-eagle3": dict(_LLAMA, architectures=["LlamaForCausalLMEagle3"],
                             num_hidden_layers=1, draft_vocab_size=32000),
    # mixture of experts, grouped-query attention
    "qwen3-moe-30b-a3b": {
        "architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe",
        "hidden_size": 2048, "intermediate_size": 6144,
        "moe_intermediate_size": 768, "num_attention_heads": 32,
        "num_key_value_heads": 4, "head_dim": 128, "num_hidden_layers": 48,
        "num_experts": 128, "num_experts_per_tok": 8,
        "norm_topk_prob": True, "decoder_sparse_step": 1,
        "mlp_only_layers": [], "vocab_size": 151936,
        "max_position_embeddings": 40960, "rope_theta": 1000000.0,
        "rms_norm_eps": 1e-06, "torch_dtype": "bfloat16",
        "tie_word_embeddings": False,
    },
}
_DSV3 = {
    "architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3",
    "hidden_size": 7168, "intermediate_size": 18432,
    "moe_intermediate_size": 2048, "num_attention_heads": 128,
    "num_key_value_heads": 128, "num_hidden_layers": 61,
    "first_k_dense_replace": 3, "n_routed_experts": 256,
    "n_shared_experts": 1, "num_experts_per_tok": 8, "n_group": 8,
    "topk_group": 4, "routed_scaling_factor": 2.5,
    "kv_lora_rank": 512, "q_lora_rank": 1536, "qk_nope_head_dim": 128,
    "qk_rope_head_dim": 64, "v_head_dim": 128, "num_nextn_predict_layers": 1,
    "vocab_size": 129280, "max_position_embeddings": 163840,
    "rope_theta": 10000, "rms_norm_eps": 1e-06, "torch_dtype": "bfloat16",
    "tie_word_embeddings": False,
    "rope_scaling": {"type": "yarn", "factor": 40, "beta_fast": 32,
                     "beta_slow": 1, "mscale": 1.0, "mscale_all_dim": 1.0,
                     "original_max_position_embeddings": 4096},
    "quantization_config": {"quant_method": "fp8", "fmt": "e4m3",
                            "activation_scheme": "dynamic",
                            "weight_block_size": [128, 128]},
}
# multi-head latent attention (MLA), MoE
MODELS["deepseek-v3"] = _DSV3
# DeepSeek sparse attention (DSA): MLA with a lightning indexer
MODELS["deepseek-v32"] = dict(_DSV3, architectures=["DeepseekV32ForCausalLM"],
                              model_type="deepseek_v32", index_topk=2048,
                              index_head_dim=128, index_n_heads=64)
# sliding-window hybrid (alternate sliding and full attention layers), MoE
MODELS["gpt-oss-120b"] = {
    "architectures": ["GptOssForCausalLM"], "model_type": "gpt_oss",
    "hidden_size": 2880, "intermediate_size": 2880,
    "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 64,
    "num_hidden_layers": 36, "num_local_experts": 128,
    "num_experts_per_tok": 4, "sliding_window": 128,
    "layer_types": ["sliding_attention", "full_attention"] * 18,
    "vocab_size": 201088, "max_position_embeddings": 131072,
    "rope_theta": 150000, "rms_norm_eps": 1e-05, "torch_dtype": "bfloat16",
    "tie_word_embeddings": False, "attention_bias": True,
    "rope_scaling": {"rope_type": "yarn", "factor": 32.0, "beta_fast": 32.0,
                     "beta_slow": 1.0, "truncate": False,
                     "original_max_position_embeddings": 4096},
    "quantization_config": {"quant_method": "mxfp4",
                            "modules_to_not_convert": ["model.layers.*.self_attn",
                                                       "model.layers.*.mlp.router",
                                                       "model.embed_tokens",
                                                       "lm_head"]},
}
# multimodal: a vision encoder before a dense GQA language model
MODELS["qwen25-vl-7b"] = {
    "architectures": ["Qwen2_5_VLForConditionalGeneration"],
    "model_type": "qwen2_5_vl", "hidden_size": 3584,
    "intermediate_size": 18944, "num_attention_heads": 28,
    "num_key_value_heads": 4, "num_hidden_layers": 28,
    "vocab_size": 152064, "max_position_embeddings": 128000,
    "rope_theta": 1000000.0, "rms_norm_eps": 1e-06,
    "torch_dtype": "bfloat16", "tie_word_embeddings": False,
    "image_token_id": 151655, "video_token_id": 151656,
    "vision_start_token_id": 151652, "vision_end_token_id": 151653,
    "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]},
    "vision_config": {"depth": 32, "hidden_size": 1280, "num_heads": 16,
                      "intermediate_size": 3420, "out_hidden_size": 3584,
                      "patch_size": 14, "spatial_merge_size": 2,
                      "temporal_patch_size": 2, "window_size": 112,
                      "fullatt_block_indexes": [7, 15, 23, 31],
                      "in_chans": 3, "hidden_act": "silu",
                      "tokens_per_second": 2},
}
# The models a case serves (the others are drafts).
TARGETS = ["llama3-8b", "qwen3-moe-30b-a3b", "deepseek-v3", "deepseek-v32",
           "gpt-oss-120b", "qwen25-vl-7b"]
KIND = {"llama3-8b": "dense", "qwen3-moe-30b-a3b": "moe",
        "deepseek-v3": "mla", "deepseek-v32": "dsa", "gpt-oss-120b": "swa",
        "qwen25-vl-7b": "vl"}

# ---------------------------------------------------------------- machines
# name as pdwiz knows it -> what the fake torch reports: the memory is
# rules/hardware.yaml's memory_bytes (what the driver reports) in GiB.
GPUS = {
    "A100-40GB": {"platform": "cuda", "sm": 80, "gpu_gib": 40.0,
                  "name": "NVIDIA A100-SXM4-40GB"},
    "A100-80GB": {"platform": "cuda", "sm": 80, "gpu_gib": 80.0,
                  "name": "NVIDIA A100-SXM4-80GB"},
    "H100-SXM-80GB": {"platform": "cuda", "sm": 90,
                      "gpu_gib": 85520809984 / 2 ** 30,
                      "name": "NVIDIA H100 80GB HBM3"},
    "H200-141GB": {"platform": "cuda", "sm": 90,
                   "gpu_gib": 150754820096 / 2 ** 30, "name": "NVIDIA H200"},
    "B200-180GB": {"platform": "cuda", "sm": 100,
                   "gpu_gib": 192265846784 / 2 ** 30, "name": "NVIDIA B200"},
    "MI300X": {"platform": "hip", "sm": 94, "gpu_gib": 192.0,
               "name": "AMD Instinct MI300X", "arch": "gfx942"},
}
GPU_WEIGHTS = {"A100-40GB": 1, "A100-80GB": 2, "H100-SXM-80GB": 4,
               "H200-141GB": 3, "B200-180GB": 3, "MI300X": 2}

# Flag names that releases spell otherwise: the tree's spelling. Before
# main's --enable-prefill-cp / --cp-strategy, the releases had
# --enable-nsa-prefill-context-parallel (DSA models) and
# --enable-prefill-context-parallel; v0.5.9 named the DSA backends nsa.
OLD_DSA = {"v0.5.9"}
OLD_CP = {"v0.5.9", "v0.5.13.post2"}


def write_models():
    for name, cfg in MODELS.items():
        d = os.path.join(MODELS_DIR, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "config.json"), "w", encoding="utf-8") as f:
            json.dump(cfg, f, indent=1, sort_keys=True)
            f.write("\n")


def wpick(rng, table):
    """A key of table {value: weight}."""
    keys = list(table)
    return rng.choices(keys, weights=[table[k] for k in keys])[0]


def gen_case(rng, tree):
    model = rng.choice(TARGETS)
    kind = KIND[model]
    gpu = wpick(rng, GPU_WEIGHTS)
    hip = GPUS[gpu]["platform"] == "hip"
    moe = kind in ("moe", "mla", "dsa", "swa")
    mla = kind in ("mla", "dsa")
    # "wild": draw values from the whole range, not only sensible ones.
    wild = rng.random() < 0.5
    a = ["--model-path", "%s/%s" % (REL_MODELS, model)]
    env = {}

    def flag(name, value=None):
        a.append(name)
        if value is not None:
            a.append(str(value))

    mode = wpick(rng, {"prefill": 45, "decode": 45, "null": 10})
    if mode != "null" or rng.random() < 0.3:
        flag("--disaggregation-mode", mode)
    if mode != "null" or wild:
        tb = wpick(rng, {"mooncake": 40, "nixl": 25, "mori": 10 if hip else 4,
                         "ascend": 3, "fake": 5, None: 15,
                         "mooncake_tcp": 3})
        if tb:
            flag("--disaggregation-transfer-backend", tb)
        if tb in ("mooncake", "mori", None) and rng.random() < 0.3:
            flag("--disaggregation-ib-device",
                 wpick(rng, {"mlx5_0": 5, "mlx5_0,mlx5_1": 4, "rdma0": 1}))
    if mode == "prefill" and rng.random() < 0.3:
        flag("--disaggregation-bootstrap-port", rng.choice([8998, 9000, 70000 if wild else 8999]))

    # Parallelism.
    tp = wpick(rng, {1: 2, 2: 2, 4: 3, 8: 6, 16: 2 if wild else 1})
    flag("--tp-size" if rng.random() < 0.5 else "--tp", tp)
    if tp == 16:
        flag("--nnodes", 2)
        flag("--node-rank", rng.choice([0, 1]))
        flag("--dist-init-addr", "10.0.0.1:5000")
    dpa = rng.random() < (0.45 if mla or moe else 0.15)
    if dpa:
        flag("--enable-dp-attention")
    if dpa or rng.random() < 0.2:
        choices = [d for d in (1, 2, 4, 8, 16) if wild or (tp % d == 0)]
        flag("--dp-size" if rng.random() < 0.85 else "--dp", rng.choice(choices))
    if rng.random() < 0.12:
        flag("--pp-size", rng.choice([2, 4] if wild else [2]))
    if moe and rng.random() < 0.5 or wild and rng.random() < 0.1:
        flag("--ep-size", rng.choice([tp, tp, 1, 2, 4, 8] if wild else [tp]))
    if moe and rng.random() < 0.4 or wild and rng.random() < 0.1:
        flag("--moe-a2a-backend", wpick(rng, {
            "deepep": 10, "mooncake": 3, "mori": 3 if hip else 1,
            "flashinfer": 2, "none": 3, "nixl": 1, "ascend_fuseep": 1 if wild else 0,
            "deepep_v2": 1, "pplx": 1}))
        if rng.random() < 0.5:
            flag("--deepep-mode", rng.choice(["auto", "normal", "low_latency"]))
    if moe and rng.random() < 0.35 or wild and rng.random() < 0.1:
        flag("--moe-runner-backend", wpick(rng, {
            "auto": 2, "triton": 3, "deep_gemm": 3, "flashinfer_trtllm": 2,
            "flashinfer_cutlass": 2, "flashinfer_mxfp4": 2, "cutlass": 1,
            "aiter": 2 if hip else 1, "triton_kernel": 1, "marlin": 1}))
    if moe and rng.random() < 0.1:
        flag("--enable-eplb")
        if rng.random() < 0.5:
            flag("--ep-num-redundant-experts", rng.choice([0, 8, 32]))
    if dpa and rng.random() < 0.3:
        flag("--enable-dp-lm-head")
    if moe and rng.random() < 0.1:
        flag("--moe-dense-tp-size", rng.choice([1, 2] if wild else [1]))

    # Attention backend.
    if rng.random() < 0.3:
        if hip:
            ab = wpick(rng, {"aiter": 5, "triton": 3, "wave": 1, "fa3": 1 if wild else 0})
        elif mla:
            ab = wpick(rng, {"flashinfer": 2, "fa3": 2, "flashmla": 3,
                             "cutlass_mla": 2, "trtllm_mla": 2, "triton": 1,
                             "nsa" if tree in OLD_DSA else "dsa": 3 if kind == "dsa" else 1})
        else:
            ab = wpick(rng, {"flashinfer": 3, "fa3": 3, "triton": 2,
                             "trtllm_mha": 2, "fa4": 1, "torch_native": 1,
                             "flashmla": 1 if wild else 0})
        if ab:
            if rng.random() < 0.8:
                flag("--attention-backend", ab)
            else:
                flag(rng.choice(["--prefill-attention-backend",
                                 "--decode-attention-backend"]), ab)

    # Page size, KV cache dtype, chunked prefill.
    if rng.random() < 0.45:
        flag("--page-size", wpick(rng, {1: 2, 16: 2, 32: 2, 64: 4, 128: 1,
                                        3: 1 if wild else 0, 256: 1}))
    if rng.random() < 0.3:
        flag("--kv-cache-dtype", wpick(rng, {
            "auto": 2, "fp8_e4m3": 5, "fp8_e5m2": 2, "bf16": 1,
            "fp4_e2m1": 1, "nvfp4": 1 if wild else 0, "mxfp8": 1 if wild else 0}))
    if rng.random() < 0.35:
        flag("--chunked-prefill-size", wpick(rng, {
            -1: 2, 4096: 3, 8192: 3, 16384: 2, 1000: 1 if wild else 0,
            32768: 1}))
    if rng.random() < 0.15:
        flag("--mem-fraction-static", rng.choice(["0.8", "0.85", "0.9", "0.95"] +
                                                  (["1.2"] if wild else [])))
    if rng.random() < 0.15:
        flag("--max-running-requests", rng.choice([64, 128, 256, 1024]))
    if rng.random() < 0.12:
        flag("--cuda-graph-max-bs", rng.choice([32, 64, 160, 512]))
    if rng.random() < 0.08:
        flag("--disable-cuda-graph")

    # HiCache and the radix cache.
    if rng.random() < 0.25:
        flag("--enable-hierarchical-cache")
        if rng.random() < 0.5:
            flag("--hicache-ratio", rng.choice(["1.5", "2", "0.5" if wild else "3"]))
        if rng.random() < 0.5:
            flag("--hicache-storage-backend", rng.choice(
                ["file", "mooncake", "hf3fs", "nixl", "aibrix", "mori"]))
        if rng.random() < 0.4:
            flag("--hicache-write-policy", rng.choice(
                ["write_back", "write_through", "write_through_selective"]))
        if rng.random() < 0.4:
            flag("--hicache-io-backend", rng.choice(["direct", "kernel"]))
        if rng.random() < 0.4:
            flag("--hicache-mem-layout", rng.choice(
                ["layer_first", "page_first", "page_first_direct"]))
    if rng.random() < 0.15:
        flag("--disable-radix-cache")
    if mode == "decode" and rng.random() < 0.2:
        flag("--disaggregation-decode-enable-radix-cache")
    if mode == "decode" and rng.random() < 0.15:
        flag("--disaggregation-decode-enable-offload-kvcache")
    if mode != "null" and rng.random() < 0.08:
        flag("--disable-overlap-schedule")

    # Speculative decoding.
    if rng.random() < 0.3:
        algo = wpick(rng, {"EAGLE": 5, "EAGLE3": 3, "NGRAM": 2,
                           "STANDALONE": 2, "NEXTN": 1 if mla else 0})
        flag("--speculative-algorithm", algo)
        draft = None
        if algo == "EAGLE" and not mla:
            draft = "llama3-8b-eagle"
        elif algo == "EAGLE3":
            draft = "llama3-8b-eagle3"
        elif algo == "STANDALONE":
            draft = "llama3-1b"
        if draft and (not wild or rng.random() < 0.8):
            flag("--speculative-draft-model-path", "%s/%s" % (REL_MODELS, draft))
        if algo != "NGRAM" and rng.random() < 0.7:
            steps = rng.choice([1, 2, 3, 5])
            flag("--speculative-num-steps", steps)
            topk = rng.choice([1, 1, 2, 4] if wild else [1, 1, 4])
            flag("--speculative-eagle-topk", topk)
            ndt = steps + 1 if topk == 1 and not wild else rng.choice([2, 4, 8, 16])
            flag("--speculative-num-draft-tokens", ndt)
        elif algo == "NGRAM" and rng.random() < 0.5:
            flag("--speculative-num-draft-tokens", rng.choice([4, 8, 16]))
        if rng.random() < 0.1:
            flag("--speculative-attention-mode", rng.choice(["prefill", "decode"]))

    # Prefill context parallelism and DSA flags.
    if (kind == "dsa" or wild) and rng.random() < 0.25:
        if tree in OLD_CP:
            if kind == "dsa" or tree in OLD_DSA or rng.random() < 0.5:
                flag("--enable-nsa-prefill-context-parallel")
            else:
                flag("--enable-prefill-context-parallel")
            if rng.random() < 0.5:
                flag("--attn-cp-size", rng.choice([2, 4, tp]))
            if rng.random() < 0.3:
                flag("--nsa-prefill-cp-mode", rng.choice(["in-seq-split", "round-robin-split"]))
        else:
            flag("--enable-prefill-cp")
            if rng.random() < 0.7:
                flag("--cp-strategy", rng.choice(["zigzag", "interleave"]))
            if rng.random() < 0.5:
                flag("--attn-cp-size", rng.choice([2, 4, tp]))
            if rng.random() < 0.3:
                flag("--dsa-prefill-cp-mode", rng.choice(["in-seq-split", "round-robin-split"]))
    if kind == "dsa" and rng.random() < 0.25:
        pre = "--nsa" if tree in OLD_DSA else "--dsa"
        be = ["flashmla_sparse", "flashmla_kv", "fa3", "tilelang", "aiter", "trtllm"]
        flag(pre + rng.choice(["-prefill-backend", "-decode-backend"]), rng.choice(be))

    # Others.
    if rng.random() < 0.08:
        flag("--quantization", rng.choice(["fp8", "modelopt_fp4", "w8a8_int8", "mxfp4"]))
    if rng.random() < 0.06:
        flag("--enable-torch-compile")
    if rng.random() < 0.05:
        flag("--load-balance-method", rng.choice(["round_robin", "follow_bootstrap_room", "total_requests"]))

    # PD environment variables.
    if mode != "null" and rng.random() < 0.25:
        k = rng.choice(["SGLANG_DISAGG_STAGING_BUFFER", "MC_FORCE_TCP",
                        "SGLANG_DISAGGREGATION_THREAD_POOL_SIZE",
                        "SGLANG_DISAGGREGATION_BOOTSTRAP_TIMEOUT",
                        "SGLANG_MOONCAKE_CUSTOM_MEM_POOL",
                        "SGLANG_DISAGGREGATION_NIXL_BACKEND"])
        v = {"SGLANG_DISAGG_STAGING_BUFFER": rng.choice(["1", "true", "0"]),
             "MC_FORCE_TCP": rng.choice(["1", "true"]),
             "SGLANG_DISAGGREGATION_THREAD_POOL_SIZE": rng.choice(["4", "12"]),
             "SGLANG_DISAGGREGATION_BOOTSTRAP_TIMEOUT": rng.choice(["300", "600"]),
             "SGLANG_MOONCAKE_CUSTOM_MEM_POOL": rng.choice(["NVLINK", "BAREX", "INTRA_NODE_NVLINK", "true"]),
             "SGLANG_DISAGGREGATION_NIXL_BACKEND": rng.choice(["UCX", "LIBFABRIC"])}[k]
        env[k] = v

    # Keep the command's words in the order a person writes them: the
    # model first, the rest as drawn.
    m = dict(GPUS[gpu], gpus=8)
    return {"tree": tree, "model": model, "gpu": gpu, "machine": m,
            "env": env, "argv": a}


def gen_cases(seed, count, tree):
    rng = random.Random("%s/%s" % (seed, tree))
    seen = set()
    out = []
    while len(out) < count:
        c = gen_case(rng, tree)
        key = json.dumps([c["gpu"], c["env"], c["argv"]], sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        c["id"] = "%s-%04d" % (tree, len(out) + 1)
        out.append(c)
    return out


def example_cases(tree):
    """Issue 23's examples (examples.tsv) of one tree, as cases."""
    import shlex
    out = []
    with open(os.path.join(HERE, "examples.tsv"), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            col = line.rstrip("\n").split("\t")
            if len(col) != 7:
                sys.exit("examples.tsv:%d: %d columns, want 7" % (n, len(col)))
            cid, t, gpu, model, env, words, _ = col
            if t != tree:
                continue
            if gpu not in GPUS or model not in MODELS:
                sys.exit("examples.tsv:%d: no GPU %s or model %s" %
                         (n, gpu, model))
            out.append({"id": cid, "tree": t, "model": model, "gpu": gpu,
                        "machine": dict(GPUS[gpu], gpus=8),
                        "env": {} if env == "-" else json.loads(env),
                        "argv": ["--model-path", "tests/oracle/models/" +
                                 model] + shlex.split(words)})
    return out


def record(a):
    """Run the cases through tools/oracle/sgoracle.py on the tree a.sglang
    (from the project's root: the model paths are relative to it) and
    write each case with SGLang's verdict."""
    import subprocess
    import time

    root = os.path.dirname(os.path.dirname(HERE))
    write_models()
    cases = example_cases(a.tree) if a.examples else \
        gen_cases(a.seed, a.count, a.tree)
    t0 = time.time()
    p = subprocess.run(
        [sys.executable, os.path.join(root, "tools", "oracle", "sgoracle.py"),
         "--sglang", a.sglang, "--batch", "--jobs", str(a.jobs), "--progress"],
        input="".join(json.dumps(c) + "\n" for c in cases),
        capture_output=True, text=True, cwd=root)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        return 1
    answers = {}
    for line in p.stdout.splitlines():
        v = json.loads(line)
        answers[v.pop("id")] = v
    os.makedirs(os.path.join(HERE, "recorded"), exist_ok=True)
    out = os.path.join(HERE, "recorded", ("examples-" if a.examples else
                                          "") + a.tree + ".jsonl")
    bad = 0
    with open(out, "w", encoding="utf-8") as f:
        for c in cases:
            v = answers[c["id"]]
            v.pop("seconds", None)
            if v["verdict"] == "error":
                bad += 1
            c["sglang"] = v
            f.write(json.dumps(c, sort_keys=True) + "\n")
    print("gen.py: %d cases at %s in %.0f s (%d without a verdict) -> %s"
          % (len(cases), a.tree, time.time() - t0, bad,
             os.path.relpath(out, root)), file=sys.stderr)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("models")
    c = sub.add_parser("cases")
    c.add_argument("--seed", default="23")
    c.add_argument("--count", type=int, default=2000)
    c.add_argument("--tree", default="main")
    r = sub.add_parser("record")
    r.add_argument("--sglang", required=True)
    r.add_argument("--seed", default="23")
    r.add_argument("--count", type=int, default=2000)
    r.add_argument("--tree", default="main")
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--examples", action="store_true",
                   help="issue 23's examples (examples.tsv) of the tree, "
                   "into recorded/examples-TREE.jsonl")
    a = ap.parse_args()
    if a.cmd == "models":
        write_models()
        return 0
    if a.cmd == "record":
        return record(a)
    for case in gen_cases(a.seed, a.count, a.tree):
        sys.stdout.write(json.dumps(case, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
