"""Typed game state <-> plain msgpack data.

Games keep their state in dataclasses and enums (typed, readable); snapshots need plain data.
One generic converter, driven by the type hints, keeps every game's save format honest without
hand-written to_dict/from_dict pairs that drift from the fields.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from functools import cache
from typing import Any, TypeVar, get_args, get_origin

T = TypeVar("T")

_SCALARS = (int, str, bool, float, bytes, type(None))


def to_plain(obj: Any) -> Any:
    """Dataclasses become dicts, enums their values, tuples lists; scalars stay."""
    if isinstance(obj, _SCALARS):
        return obj
    if isinstance(obj, enum.Enum):
        return obj.value
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_plain(getattr(obj, f.name)) for f in _fields(type(obj))}
    if isinstance(obj, (list, tuple)):
        return [to_plain(item) for item in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(to_plain(item) for item in obj)
    if isinstance(obj, dict):
        if all(isinstance(k, (str, int)) for k in obj):
            return {k: to_plain(v) for k, v in obj.items()}
        # msgpack map keys must be scalars; hex coordinates and the like go as pairs
        return [[to_plain(k), to_plain(v)] for k, v in obj.items()]
    raise TypeError(f"cannot encode {type(obj).__name__} in a snapshot")


def from_plain(tp: Any, data: Any) -> Any:
    """Rebuild a value of type `tp` from what `to_plain` produced."""
    origin = get_origin(tp)
    if tp is Any:
        return data
    if origin in (typing.Union, types.UnionType):
        args = get_args(tp)
        if data is None and type(None) in args:
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return from_plain(arg, data)
            except (TypeError, ValueError, KeyError):
                continue
        raise ValueError(f"{data!r} matches none of {tp}")
    if origin is list:
        (item,) = get_args(tp) or (Any,)
        return [from_plain(item, x) for x in _expect(list, data, tp)]
    if origin is tuple:
        args = get_args(tp)
        items = _expect(list, data, tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_plain(args[0], x) for x in items)
        if len(args) != len(items):
            raise ValueError(f"expected {len(args)} items for {tp}, got {len(items)}")
        return tuple(from_plain(a, x) for a, x in zip(args, items, strict=False))
    if origin in (set, frozenset):
        (item,) = get_args(tp)
        return origin(from_plain(item, x) for x in _expect(list, data, tp))
    if origin is dict:
        key_tp, value_tp = get_args(tp)
        pairs = data if isinstance(data, list) else _expect(dict, data, tp).items()
        return {from_plain(key_tp, k): from_plain(value_tp, v) for k, v in pairs}
    if isinstance(tp, type):
        if issubclass(tp, enum.Enum):
            return tp(data)
        if issubclass(tp, tuple) and hasattr(tp, "_fields"):  # a NamedTuple, e.g. a hex
            hints = _hints(tp)
            items = _expect(list, data, tp)
            return tp(*(from_plain(hints[n], x) for n, x in zip(tp._fields, items, strict=True)))
        if dataclasses.is_dataclass(tp):
            fields = _expect(dict, data, tp)
            hints = _hints(tp)
            kwargs = {
                f.name: from_plain(hints[f.name], fields[f.name])
                for f in _fields(tp)
                if f.name in fields
            }
            return tp(**kwargs)
        if tp is float and isinstance(data, int):
            return float(data)
        if tp in _SCALARS:
            if not isinstance(data, tp) or (tp is int and isinstance(data, bool)):
                raise TypeError(f"expected {tp.__name__}, got {type(data).__name__}")
            return data
    raise TypeError(f"cannot decode {tp!r}")


def _expect(kind: type, data: Any, tp: Any) -> Any:
    if not isinstance(data, kind):
        raise TypeError(f"expected {kind.__name__} for {tp}, got {type(data).__name__}")
    return data


@cache
def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return tuple(f for f in dataclasses.fields(cls) if f.init)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)
