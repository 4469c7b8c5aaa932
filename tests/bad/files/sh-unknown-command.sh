sglang-server --model-path x
python -m sglang.launch_serverx --model-path x
