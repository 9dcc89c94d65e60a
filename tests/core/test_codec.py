"""Typed state survives the trip to msgpack and back (core/codec.py)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import NamedTuple

import msgpack
import pytest

from harena.core.codec import from_plain, to_plain


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Spot(NamedTuple):
    q: int
    r: int


@dataclass
class Token:
    kind: str
    face_up: bool = True


@dataclass
class Board:
    colour: Colour
    tokens: dict[tuple[int, int], Token] | None
    armor: dict[int, int]
    hand: list[str]
    where: tuple[int, int]
    history: tuple[int, ...]
    owners: frozenset[str]
    maybe: Token | None = None
    scores: list[float] = field(default_factory=list)
    spots: dict[Spot, str] = field(default_factory=dict)


def test_nested_dataclasses_enums_and_containers_round_trip_through_msgpack():
    board = Board(
        Colour.BLUE,
        {(0, 0): Token("crocodile"), (1, -1): Token("favor", False)},
        {0: 15, 3: 20},
        ["Javelin", "Slash"],
        (2, -1),
        (1, 2, 3),
        frozenset({"a", "b"}),
        Token("pillar", False),
        [1.5, 2.0],
        {Spot(0, 0): "centre", Spot(2, -1): "pillar"},
    )
    data = msgpack.unpackb(msgpack.packb(to_plain(board)), strict_map_key=False)
    assert from_plain(Board, data) == board
    assert all(type(k) is Spot for k in from_plain(Board, data).spots)
    board.tokens = None
    assert from_plain(Board, to_plain(board)) == board


def test_wrong_types_are_refused_not_coerced():
    with pytest.raises(TypeError):
        from_plain(Token, {"kind": 3, "face_up": True})
    with pytest.raises(TypeError):
        from_plain(list[int], {"a": 1})
    with pytest.raises(ValueError):
        from_plain(Colour, "green")


def test_objects_that_are_not_plain_data_cannot_be_saved():
    with pytest.raises(TypeError, match="cannot encode"):
        to_plain(object())
