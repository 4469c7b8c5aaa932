#!/bin/sh
# A prefill server with an error (a misspelt flag) and a warning (no IB
# device for Mooncake): the bad script of tests/pkg and tests/precommit.
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct \
    --disaggregation-mode prefill --disaggregation-transfer-backend mooncake \
    --tp-sizee 2 --port 30000
