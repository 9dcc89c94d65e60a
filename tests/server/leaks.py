"""Leak checks: whatever no reference holds must be freed by a collection of everything.

`gc_policy` freezes what survives its collections (and each new session's objects), and frozen
garbage waits for its deep collection; a leak check wants to know about references, not when
the server would collect, so it unfreezes first."""

from __future__ import annotations

import gc


def collect_all() -> int:
    gc.unfreeze()
    return gc.collect()
