python -m sglang.launch_server --model-path x --tp-size 2
