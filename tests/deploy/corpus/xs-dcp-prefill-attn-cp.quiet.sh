# cross-role corpus case
python -m sglang.launch_server --disaggregation-ib-device mlx5_0 --disaggregation-transfer-backend mooncake --host 10.0.0.1 --port 30000 --disaggregation-mode prefill --tp-size 8 --model-path deepseek-ai/DeepSeek-V3
python -m sglang.launch_server --disaggregation-ib-device mlx5_0 --disaggregation-transfer-backend mooncake --host 10.0.0.2 --port 30000 --disaggregation-mode decode --tp-size 8 --model-path deepseek-ai/DeepSeek-V3 --dcp-size 8
python -m sglang_router.launch_router --pd-disaggregation --prefill http://10.0.0.1:30000 8998 --decode http://10.0.0.2:30000 --host 0.0.0.0 --port 8000
