python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill --nnodes 2 --node-rank 0 --dist-init-addr 10.0.0.1:5000 --tp 16
python3 -m sglang.launch_server --model-path m --disaggregation-mode decode
python3 -m sglang_router.launch_router --pd-disaggregation --prefill http://10.0.0.1:30000 --decode http://127.0.0.1:30000
