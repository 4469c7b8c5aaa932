# Case written for pdwiz after coco-alen/sglang_assistance test_script/pd_prefill.sh at 49e6c1681d5b1543bda37f173b3f271b5341cf37 (the shapes and facts of that script, not its text).
# Exercises: a vision-language prefill on one GPU with NIXL, a ~ path in an export, and a file whose last line ends in a blank and no newline.

# Inductor's compile cache under the home directory.
export TORCHINDUCTOR_CACHE_DIR=~/.triton

CUDA_VISIBLE_DEVICES=6 python -m sglang.launch_server \
    --model-path OpenGVLab/InternVL3-1B \
    --chat-template internvl-2-5 \
    --disaggregation-mode prefill \
    --disaggregation-transfer-backend nixl \
    --mem-fraction-static 0.5 \
    --port 30000 