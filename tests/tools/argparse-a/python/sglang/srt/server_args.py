# Fixture for tests/tools/run.sh, written for pdwiz (not SGLang's code): the
# shapes of a server_args.py of the 0.4 releases, a dataclass of defaults
# and flags registered one parser.add_argument call at a time, with a few of
# that era's flags (their names, types, defaults and choices are facts).
import argparse
import dataclasses
from typing import List, Optional

TRANSFER_BACKENDS = ["mooncake", "nixl"]


@dataclasses.dataclass
class ServerArgs:
    model_path: str = None
    tp_size: int = 1
    mem_fraction_static: Optional[float] = None
    enable_ep_moe: bool = False
    enable_deepep_moe: bool = False
    disaggregation_mode: str = "null"
    disaggregation_transfer_backend: str = "mooncake"
    disaggregation_bootstrap_port: int = 8998
    hicache_ratio: float = 2.0
    json_model_override_args: str = "{}"

    @staticmethod
    def add_cli_args(parser: argparse.ArgumentParser):
        parser.add_argument(
            "--model-path",
            type=str,
            help="Where the weights are.",
            required=True,
        )
        parser.add_argument(
            "--tp-size",
            "--tensor-parallel-size",
            type=int,
            default=ServerArgs.tp_size,
            help="Tensor parallel degree.",
        )
        parser.add_argument("--mem-fraction-static", type=float,
                            default=ServerArgs.mem_fraction_static,
                            help="Static memory share.")
        parser.add_argument(
            "--enable-ep-moe",
            action="store_true",
            help="Expert parallelism for MoE layers.",
        )
        parser.add_argument("--enable-deepep-moe", action="store_true",
                            help="DeepEP dispatch for MoE layers.")
        parser.add_argument(
            "--disaggregation-mode",
            type=str,
            default="null",
            choices=["null", "prefill", "decode"],
            help="PD role.",
        )
        parser.add_argument(
            "--disaggregation-transfer-backend",
            type=str,
            default=ServerArgs.disaggregation_transfer_backend,
            choices=TRANSFER_BACKENDS,
            help="How KV pages travel.",
        )
        parser.add_argument("--disaggregation-bootstrap-port", type=int,
                            default=ServerArgs.disaggregation_bootstrap_port,
                            help="Bootstrap port of a prefill server.")
        parser.add_argument("--hicache-ratio", type=float, default=2.0,
                            help="Host cache size over device cache size.")
        parser.add_argument(
            "--json-model-override-args",
            type=str,
            default=ServerArgs.json_model_override_args,
            help="JSON overrides of the model config.",
        )
