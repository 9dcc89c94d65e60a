# The part of msgpack (1.1) harena uses: msgpack ships no type information.
from collections.abc import Callable
from typing import Any

version: tuple[int, int, int]

def packb(
    o: Any, *, use_bin_type: bool = ..., default: Callable[[Any], Any] | None = ...
) -> bytes: ...
def unpackb(
    packed: bytes | bytearray | memoryview,
    *,
    raw: bool = ...,
    strict_map_key: bool = ...,
    use_list: bool = ...,
) -> Any: ...
