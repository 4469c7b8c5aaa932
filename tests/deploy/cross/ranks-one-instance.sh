# the two ranks of one prefill instance use the same ports on their own machines
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode prefill --tp 16 --nnodes 2 --node-rank 0 --dist-init-addr 10.0.0.1:5000 --host 10.0.0.1 --port 30000
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode prefill --tp 16 --nnodes 2 --node-rank 1 --dist-init-addr 10.0.0.1:5000 --host 10.0.0.1 --port 30000
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode decode --tp 8 --host 10.0.0.3 --port 30000
