sglang serve --model-path x --disaggregation-mode decode --port 30001 && echo ok; sgl-router --pd-disaggregation
