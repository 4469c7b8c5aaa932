# cross-role corpus case: the same attention TP on both sides (DP attention
# on the decode: TP 8 over DP 2 is attention TP 4)
python -m sglang.launch_server --model-path openai/gpt-oss-120b --disaggregation-ib-device mlx5_0 --disaggregation-transfer-backend mooncake --disaggregation-mode prefill --host 10.0.0.1 --port 30000 --tp-size 4
python -m sglang.launch_server --model-path openai/gpt-oss-120b --disaggregation-ib-device mlx5_0 --disaggregation-transfer-backend mooncake --disaggregation-mode decode --host 10.0.0.2 --port 30000 --tp-size 8 --dp-size 2 --enable-dp-attention
python -m sglang_router.launch_router --pd-disaggregation --prefill http://10.0.0.1:30000 8998 --decode http://10.0.0.2:30000 --host 0.0.0.0 --port 8000
