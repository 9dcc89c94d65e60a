"""Strips with lazy caches (server/hosting/lean_strips.py): the same slots and values as
Textual's own, caches that work the same, and no dict until a cache is written."""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.cache import FIFOCache
from textual.strip import Strip

from harena.server.hosting import lean_strips, textual_pins
from harena.server.hosting.lean_strips import LazyFIFOCache


def textual_strip(segments: list[Segment]) -> Strip:
    """A strip made by Textual's own `Strip.__init__`, patched or not."""
    strip = Strip.__new__(Strip)
    textual_pins._lookup(Strip, "__init__")(strip, segments, None)
    return strip


def test_every_slot_is_set_as_textual_sets_it():
    lean_strips.install()
    segments = [Segment("ab", Style(bold=True)), Segment("cd")]
    lean, own = Strip(segments), textual_strip(segments)
    assert Strip.__init__ is not textual_pins._lookup(Strip, "__init__")
    for slot in Strip.__slots__:
        mine, theirs = getattr(lean, slot), getattr(own, slot)
        if isinstance(theirs, FIFOCache):
            assert isinstance(mine, LazyFIFOCache)
            assert mine._maxsize == theirs._maxsize, slot
            assert len(mine) == len(theirs) == 0
        else:
            assert mine == theirs, slot


def test_lazy_caches_share_nothing_and_keep_what_is_written():
    lean_strips.install()
    one, two = Strip([Segment("abcdef")]), Strip([Segment("abcdef")])
    assert one._crop_cache._cache is two._crop_cache._cache  # the one empty dict, unwritten
    cropped = one.crop(1, 3)
    assert one.crop(1, 3) is cropped  # cached
    assert len(one._crop_cache) == 1 and len(two._crop_cache) == 0
    assert two._crop_cache._cache == {}
    assert [strip.text for strip in one.divide([2, 4, 6])] == ["ab", "cd", "ef"]
    cache = LazyFIFOCache(2)
    for key in "abc":
        cache[key] = key.upper()
    assert list(cache.keys()) == ["b", "c"] and cache.get("a") is None and cache.get("c") == "C"
    cache.clear()
    assert len(cache) == 0
