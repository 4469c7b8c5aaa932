python -m sglang_router.launch_router --pd-disaggregation --prefill http://a:30000 8998 --decode http://b:30001 --host 0.0.0.0 --port 8000
