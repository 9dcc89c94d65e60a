"""Strips whose caches take memory only once used: about 8% of a session's memory.

Every Textual `Strip` (one line of a widget) makes seven `FIFOCache`s when it is created (crop,
divide, style, filter, line length, crop-extend, offsets), each with its own empty dict:
fourteen objects, ~900 bytes, next to a strip whose segments take ~40. A session holds ~180
strips (its widgets' rendered lines, its compositor's chops), and most of their caches are never
written: a line is cropped or divided once, if at all.

`install()` replaces `Strip.__init__` with one that sets the same slots to the same values, but
with caches (`LazyFIFOCache`) that share one empty dict until their first write. What a cache
holds and returns is unchanged (the same `FIFOCache` methods), so rendering is too.

Relies on (pinned in textual_pins): `Strip.__init__(segments, cell_length)` and the slots it
sets, `FIFOCache` (its slots `_maxsize`, `_cache`, `hits`, `misses`, and `set`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.segment import Segment
from textual.cache import FIFOCache
from textual.strip import Strip

from harena.server.hosting.textual_pins import patch

_NOTHING: dict[Any, Any] = {}
"""The dict every cache reads until its first write; never written (see `LazyFIFOCache.set`)."""


class LazyFIFOCache(FIFOCache[Any, Any]):
    """A `FIFOCache` that makes its dict on the first write."""

    __slots__ = ()

    def __init__(self, maxsize: int) -> None:
        self._maxsize = maxsize
        self._cache = _NOTHING
        self.hits = 0
        self.misses = 0

    def set(self, key: Any, value: Any) -> None:
        if self._cache is _NOTHING:
            self._cache = {}
        FIFOCache.set(self, key, value)

    __setitem__ = set

    def clear(self) -> None:
        if self._cache is not _NOTHING:
            self._cache.clear()


def _strip_init(self: Strip, segments: Iterable[Segment], cell_length: int | None = None) -> None:
    """`Strip.__init__` (textual 8.2.8), with lazy caches of the same sizes."""
    self._segments = list(segments)
    self._cell_length = cell_length
    self._divide_cache = LazyFIFOCache(4)
    self._crop_cache = LazyFIFOCache(16)
    self._style_cache = LazyFIFOCache(16)
    self._filter_cache = LazyFIFOCache(4)
    self._line_length_cache = LazyFIFOCache(4)
    self._crop_extend_cache = LazyFIFOCache(4)
    self._offsets_cache = LazyFIFOCache(4)
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


_installed = False


def install() -> None:
    """Make every strip created from now on lazy about its caches (idempotent)."""
    global _installed
    if _installed:
        return
    patch(Strip, "__init__", _strip_init)
    _installed = True
