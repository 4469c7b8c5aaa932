# Case written for pdwiz after TonyLi15/sglang-benchmark scripts/20_run_prefill_container.sh at 6d51892ebb07652472514f3f6d8c8b5560b85477 (the shapes and facts of that script, not its text).
# Exercises: a prefill inside "docker run IMAGE python3 -m sglang.launch_server", all on one line with runs of blanks between words, on a bridged network that publishes only the HTTP port; settings from a sourced file; bash strict mode.
set -euo pipefail

# Shared settings (MODEL_PATH, SGLANG_IMAGE, PREFILL_HOST, PREFILL_PORT, HF_CACHE_DIR) live beside this script.
source "$(dirname "$0")/00_common.sh"

ctr="${PREFILL_CTR:-sglang-prefill}"

# Start from a clean slate if a container of that name is left over.
docker rm -f "${ctr}" 2>/dev/null || true

printf 'prefill container %s (image %s, model %s): host port %s -> 30000\n' "${ctr}" "${SGLANG_IMAGE}" "${MODEL_PATH}" "${PREFILL_PORT}"

docker run -d   --gpus all   --ipc=host   --shm-size=32g   --name "${ctr}"   -e HF_HOME=/root/.cache/huggingface   -v "${HF_CACHE_DIR}:/root/.cache/huggingface"   -p "${PREFILL_PORT}:30000"   "${SGLANG_IMAGE}"   python3 -m sglang.launch_server     --model-path "${MODEL_PATH}"     --disaggregation-mode prefill     --host 0.0.0.0     --port 30000     --mem-fraction-static 0.9

printf 'up: %s:%s; probe it with curl http://localhost:%s/get_model_info\n' "${PREFILL_HOST}" "${PREFILL_PORT}" "${PREFILL_PORT}"
