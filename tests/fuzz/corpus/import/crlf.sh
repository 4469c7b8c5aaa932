python -m sglang.launch_server \
 --model-path x
