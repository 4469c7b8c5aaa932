# cross-role corpus case: both encoders the language-only prefill names are started (ports 30002, 30003)
python -m sglang.launch_server --model-path Qwen/Qwen2.5-VL-7B-Instruct --encoder-only --encoder-transfer-backend zmq_to_scheduler --port 30002 --base-gpu-id 2
python -m sglang.launch_server --model-path Qwen/Qwen2.5-VL-7B-Instruct --encoder-only --encoder-transfer-backend zmq_to_scheduler --port 30003 --base-gpu-id 3
python -m sglang.launch_server --model-path Qwen/Qwen2.5-VL-7B-Instruct --disaggregation-mode prefill --language-only --encoder-transfer-backend zmq_to_scheduler --encoder-urls http://127.0.0.1:30002 http://127.0.0.1:30003 --disaggregation-transfer-backend nixl
python -m sglang.launch_server --model-path Qwen/Qwen2.5-VL-7B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 1 --disaggregation-transfer-backend nixl
