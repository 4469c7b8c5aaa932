# cross-role corpus case
python -m sglang.launch_server --model-path openai/gpt-oss-120b --disaggregation-ib-device mlx5_0 --disaggregation-transfer-backend mooncake --disaggregation-mode prefill --host 10.0.0.1 --port 30000 --tp-size 4
python -m sglang.launch_server --model-path openai/gpt-oss-120b --disaggregation-ib-device mlx5_0 --disaggregation-transfer-backend mooncake --disaggregation-mode decode --host 10.0.0.2 --port 30000 --tp-size 8
python -m sglang_router.launch_router --pd-disaggregation --prefill http://10.0.0.1:30000 8998 --decode http://10.0.0.2:30000 --host 0.0.0.0 --port 8000
