# a router that finds its workers by Kubernetes service discovery
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode prefill --host 0.0.0.0 --port 8080
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode decode --host 0.0.0.0 --port 8080
python -m sglang_router.launch_router --pd-disaggregation --service-discovery --prefill-selector app=prefill --decode-selector app=decode --service-discovery-port 8080
