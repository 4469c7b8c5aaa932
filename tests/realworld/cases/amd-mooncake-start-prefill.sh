# Case written for pdwiz after alexsun07/recipe sglang_pd_disagg_mooncake/start_prefill.sh at b91ca9bada80894f75c721769ac589db04c806e2 (the shapes and facts of that script, not its text).
# Exercises: an export block the launch reads back (--host $SGLANG_HOST_IP, unquoted), Mooncake over AMD ionic NICs, and the server's output piped to tee from the last continued line.
set -ex

# Per-site values: the address this prefill serves on and the NIC Gloo uses.
export SGLANG_HOST_IP=10.2.224.31
export GLOO_SOCKET_IFNAME=enp193s0f1np1

# ROCm: use the AITER kernels.
export SGLANG_USE_AITER=1

python -m sglang.launch_server \
  --model-path deepseek-ai/DeepSeek-R1-0528 \
  --disaggregation-mode prefill \
  --tp-size 8 \
  --disaggregation-transfer-backend mooncake \
  --disaggregation-ib-device ionic_0,ionic_1,ionic_2,ionic_3,ionic_4,ionic_5,ionic_6,ionic_7 \
  --host $SGLANG_HOST_IP \
  --port 30002 \
  --load-balance-method round_robin \
  --mem-fraction-static 0.5 \
  --disable-radix-cache \
  --trust-remote-code \
  2>&1 | tee prefill_node.log
