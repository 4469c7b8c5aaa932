# Case written for pdwiz after ai-dynamo/dynamo examples/backends/sglang/slurm_jobs/scripts/gb200-fp4/disagg/1k1k-low-latency.sh at 75b4a35fca941e8c2f817f7c91b16e9681dde511 (the shapes and facts of that script, not its text).
# Exercises: one role per run (if/elif on the mode argument), a block of 15 environment prefixes continued onto python3 -m dynamo.sglang, sizes and rendezvous from Slurm variables ("$TOTAL_GPUS", "$HOST_IP_MACHINE:$PORT"), ${RUN_IN_CI,,}, an unquoted ${dump_opt} after the last option, and no newline after the final fi.

usage() {
    echo "usage: $0 prefill|decode" >&2
    echo "  runs one DeepSeek-R1 FP4 worker of the 1k/1k low-latency GB200 job" >&2
    exit 1
}

[ $# -eq 1 ] || { echo "one argument expected, $# given" >&2; usage; }
mode=$1
case "$mode" in
    prefill|decode) ;;
    *) echo "unknown mode '$mode'" >&2; usage ;;
esac
echo "worker mode: $mode (dynamo)"

# The Slurm job exports these; stop early if one is missing.
for var in HOST_IP_MACHINE PORT TOTAL_GPUS RANK TOTAL_NODES USE_INIT_LOCATIONS RUN_IN_CI; do
    if [ -z "${!var}" ]; then
        echo "$var is not set in the environment" >&2
        exit 1
    fi
done

# In CI the Dynamo 0.7.0 wheels are installed from the mounted configs first.
ci_wheels() {
    if [[ "${RUN_IN_CI,,}" == "true" ]]; then
        python3 -m pip install /configs/ai_dynamo_runtime-0.7.0-cp310-abi3-manylinux_2_28_aarch64.whl
        python3 -m pip install /configs/ai_dynamo-0.7.0-py3-none-any.whl
    fi
}

if [ "$mode" = "prefill" ]; then
    set -x
    ci_wheels
    export TORCH_DISTRIBUTED_DEFAULT_TIMEOUT=1800

    # Optionally dump the resolved server config.
    dump_opt=""
    if [[ -n "${DUMP_CONFIG_PATH}" ]]; then dump_opt="${dump_opt} --dump-config-to ${DUMP_CONFIG_PATH}"; fi

    PYTHONUNBUFFERED=1 \
    DYN_SKIP_SGLANG_LOG_FORMATTING=1 \
    FLASHINFER_WORKSPACE_BASE=/configs/flashinfer-cache \
    SGLANG_USE_MESSAGE_QUEUE_BROADCASTER=0 \
    SGLANG_DISABLE_TP_MEMORY_INBALANCE_CHECK=1 \
    SGLANG_DISAGGREGATION_HEARTBEAT_MAX_FAILURE=100000 \
    SGLANG_DISAGGREGATION_BOOTSTRAP_TIMEOUT=100000 \
    SGLANG_DISAGGREGATION_WAITING_TIMEOUT=100000 \
    SGLANG_DECODE_BOOTSTRAP_TIMEOUT=1000 \
    SGLANG_MOONCAKE_CUSTOM_MEM_POOL=True \
    SGLANG_ENABLE_JIT_DEEPGEMM=false \
    SGLANG_ENABLE_FLASHINFER_GEMM=true \
    MC_FORCE_MNNVL=1 \
    NCCL_MNNVL_ENABLE=1 \
    NCCL_CUMEM_ENABLE=1 \
    python3 -m dynamo.sglang \
        --disaggregation-mode prefill \
        --served-model-name deepseek-ai/DeepSeek-R1 \
        --model-path /model/ \
        --trust-remote-code \
        --quantization modelopt_fp4 \
        --kv-cache-dtype fp8_e4m3 \
        --attention-backend trtllm_mla \
        --moe-runner-backend flashinfer_trtllm \
        --moe-dense-tp-size 1 \
        --disable-radix-cache \
        --context-length 2200 \
        --mem-fraction-static 0.95 \
        --max-total-tokens 8192 \
        --chunked-prefill-size 8192 \
        --max-running-requests 512 \
        --cuda-graph-max-bs 256 \
        --stream-interval 10 \
        --scheduler-recv-interval 10 \
        --watchdog-timeout 1000000 \
        --enable-symm-mem \
        --load-balance-method round_robin \
        --disaggregation-bootstrap-port 30001 \
        --tensor-parallel-size "$TOTAL_GPUS" \
        --data-parallel-size 1 \
        --expert-parallel-size 1 \
        --nnodes "$TOTAL_NODES" \
        --node-rank "$RANK" \
        --dist-init-addr "$HOST_IP_MACHINE:$PORT" \
        --host 0.0.0.0 ${dump_opt}

elif [ "$mode" = "decode" ]; then
    set -x
    ci_wheels
    export TORCH_DISTRIBUTED_DEFAULT_TIMEOUT=1800

    # Optionally dump the resolved server config.
    dump_opt=""
    if [[ -n "${DUMP_CONFIG_PATH}" ]]; then dump_opt="${dump_opt} --dump-config-to ${DUMP_CONFIG_PATH}"; fi

    PYTHONUNBUFFERED=1 \
    DYN_SKIP_SGLANG_LOG_FORMATTING=1 \
    FLASHINFER_WORKSPACE_BASE=/configs/flashinfer-cache \
    SGLANG_USE_MESSAGE_QUEUE_BROADCASTER=0 \
    SGLANG_DISABLE_TP_MEMORY_INBALANCE_CHECK=1 \
    SGLANG_DISAGGREGATION_HEARTBEAT_MAX_FAILURE=100000 \
    SGLANG_DISAGGREGATION_BOOTSTRAP_TIMEOUT=100000 \
    SGLANG_DISAGGREGATION_WAITING_TIMEOUT=100000 \
    SGLANG_DECODE_BOOTSTRAP_TIMEOUT=1000 \
    SGLANG_MOONCAKE_CUSTOM_MEM_POOL=True \
    SGLANG_ENABLE_JIT_DEEPGEMM=false \
    SGLANG_ENABLE_FLASHINFER_GEMM=true \
    MC_FORCE_MNNVL=1 \
    NCCL_MNNVL_ENABLE=1 \
    NCCL_CUMEM_ENABLE=1 \
    python3 -m dynamo.sglang \
        --disaggregation-mode decode \
        --served-model-name deepseek-ai/DeepSeek-R1 \
        --model-path /model/ \
        --trust-remote-code \
        --quantization modelopt_fp4 \
        --kv-cache-dtype fp8_e4m3 \
        --attention-backend trtllm_mla \
        --moe-runner-backend flashinfer_trtllm \
        --moe-dense-tp-size 1 \
        --disable-radix-cache \
        --context-length 2200 \
        --mem-fraction-static 0.95 \
        --chunked-prefill-size 8192 \
        --cuda-graph-max-bs 256 \
        --stream-interval 10 \
        --scheduler-recv-interval 10 \
        --watchdog-timeout 1000000 \
        --enable-symm-mem \
        --prefill-round-robin-balance \
        --disaggregation-bootstrap-port 30001 \
        --tensor-parallel-size "$TOTAL_GPUS" \
        --expert-parallel-size 1 \
        --nnodes "$TOTAL_NODES" \
        --node-rank "$RANK" \
        --dist-init-addr "$HOST_IP_MACHINE:$PORT" \
        --host 0.0.0.0 ${dump_opt}
fi