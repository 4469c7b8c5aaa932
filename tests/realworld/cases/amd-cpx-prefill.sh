# Case written for pdwiz after ZhaiFeiyue/amd-tools cpx/sglang/prefill.sh at 5020021c23e1ec9eee071bafd782d1252e632e51 (the shapes and facts of that script, not its text).
# Exercises: a lone prefill behind a misspelt "set" line, its GPUs chosen by a HIP_VISIBLE_DEVICES prefix, its last option followed by a blank and no backslash.
se -ex

# The node is split into CPX partitions, so logical GPU numbers run past 8.
HIP_VISIBLE_DEVICES=56,58,60,62 python -m sglang.launch_server \
  --disaggregation-mode prefill \
  --model-path Qwen/Qwen2.5-32B \
  --tp-size 4 \
  --host 0.0.0.0 \
  --port 30002 \
  --disaggregation-ib-device rdma0,rdma1,rdma2,rdma3,rdma4,rdma5,rdma6,rdma7 \
  --trust-remote-code 
