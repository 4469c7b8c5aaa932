python3 -m sglang.launch_server --model-path --evil --disaggregation-mode prefill
python3 -m sglang.launch_server --model-path m --disaggregation-mode decode --port 30001 --base-gpu-id 1
python3 -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 --decode http://127.0.0.1:30001 --port 8000
