"""One compare-and-set of a JSON document in a KV bucket: what every shared write of the
cluster's documents (ratings, settings, bans, the ledger of notices sent) is made of."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from nats.js.errors import KeyDeletedError, KeyNotFoundError, KeyWrongLastSequenceError


async def compare_and_set(kv: Any, key: str, change: Callable[[Any], Any]) -> tuple[bool, Any]:
    """Read `key`, apply `change` to it (None if absent) and write the result only if nobody
    wrote since: (True, what was written), or (False, None) when another writer came first
    and the caller should try again on the fresh document."""
    try:
        entry = await kv.get(key)
        revision, current = entry.revision, json.loads(entry.value) if entry.value else None
    except (KeyNotFoundError, KeyDeletedError):
        revision, current = None, None
    data = change(current)
    payload = json.dumps(data, sort_keys=True).encode()
    try:
        if revision is None:
            await kv.create(key, payload)
        else:
            await kv.update(key, payload, last=revision)
    except KeyWrongLastSequenceError:
        return False, None
    return True, data
