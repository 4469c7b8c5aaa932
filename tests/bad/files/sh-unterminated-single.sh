python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --served-model-name 'abc
