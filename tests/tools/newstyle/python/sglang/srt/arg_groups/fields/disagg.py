# Fixture: a fields namespace in SGLang's A[...] style (written for pdwiz).
from typing import List, Literal, Optional

import msgspec

from sglang.srt.arg_groups.arg_utils import A, Arg

BACKENDS = ["mooncake", "nixl", "fake"]


class Disagg(msgspec.Struct):
    _NS_PATH = "disagg"

    disaggregation_mode: A[
        Literal["null", "prefill", "decode"], "PD role of this server."
    ] = "null"
    disaggregation_transfer_backend: A[
        str, Arg(help="Transfer backend.", choices=BACKENDS)
    ] = "mooncake"
    disaggregation_bootstrap_port: A[int, "Bootstrap port."] = 8998
    disaggregation_ib_device: A[Optional[str], "IB devices."] = None
    enable_checksum: A[bool, "Checksum KV pages."] = False
    encoder_urls: A[List[str], "Encoder URLs."] = msgspec.field(default_factory=list)
    ratio: A[float, Arg(help="A ratio.", type_parser=float)] = 0.25
    mode_switch: A[
        bool, Arg(help="Either way.", action="argparse.BooleanOptionalAction")
    ] = True
