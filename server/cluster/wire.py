"""What harena nodes say to each other on NATS, checked on the way in.

Every message is one msgpack map. Whatever arrives on a harena subject is checked for size,
shape and types before anything acts on it: a malformed or oversized message is dropped and
logged (`Malformed`), and never reaches a table.
"""

from __future__ import annotations

from typing import Any

import msgpack

MAX_MESSAGE = 1024 * 1024  # NATS's default max_payload: nothing larger can arrive anyway

REQUESTS: dict[str, dict[str, tuple[type, ...]]] = {
    # op -> its arguments and their types (besides `identity`, a str or None)
    "ping": {},  # does the owner answer (after it let a question time out)?
    "view": {},
    "act": {"choice": (str,), "decision": (int, type(None)), "shown": (str, type(None))},
    "say": {"name": (str,), "text": (str,)},
    "sit": {"name": (str,), "seat": (int, type(None))},
    "watch": {"name": (str,)},
    "leave": {},
    "take_back": {},
    "remove_player": {"seat": (int,)},
    "release_seat": {"seat": (int,)},  # the creator stops keeping a seat for a friend
    "rematch": {"yes": (bool,)},  # play again at a finished game
    "connected": {"on": (bool,)},
    "unwatch": {},
    # a private table's guest list (core/privacy.py), changed by its creator or a code's holder
    "invite": {"whom": (str,), "name": (str,)},
    "add_code": {},
    "revoke_codes": {},
    "join_by_code": {"name": (str,), "code": (str,)},
}


class Malformed(Exception):
    """A message no harena node would send: dropped and logged."""


def pack(message: dict[str, Any]) -> bytes:
    return msgpack.packb(message, use_bin_type=True)


def unpack(data: bytes) -> dict[str, Any]:
    if len(data) > MAX_MESSAGE:
        raise Malformed(f"{len(data)} bytes, more than {MAX_MESSAGE}")
    try:
        message = msgpack.unpackb(data, raw=False, strict_map_key=False)
    except Exception as exc:
        raise Malformed(f"not msgpack ({type(exc).__name__})") from None
    if not isinstance(message, dict):
        raise Malformed("not a map")
    return message


def request(data: bytes) -> tuple[str, str | None, dict[str, Any], str]:
    """(op, identity, arguments, asking node) of a request to a table's owner."""
    message = unpack(data)
    op, identity, args, node = (
        message.get("op"),
        message.get("identity"),
        message.get("args"),
        message.get("node"),
    )
    if not isinstance(op, str) or op not in REQUESTS:
        raise Malformed(f"unknown request {op!r:.40}")
    if identity is not None and not (isinstance(identity, str) and len(identity) <= 200):
        raise Malformed("bad identity")
    if not isinstance(args, dict) or set(args) != set(REQUESTS[op]):
        raise Malformed(f"bad arguments for {op}")
    for name, kinds in REQUESTS[op].items():
        value = args[name]
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            raise Malformed(f"bad {name} for {op}")
        if isinstance(value, str) and len(value) > 4096:
            raise Malformed(f"{name} too long")
    if not isinstance(node, str) or len(node) > 200:
        raise Malformed("bad node")
    return op, identity, args, node
