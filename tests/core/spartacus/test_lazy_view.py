"""The lazy view a search playout's policy reads (`Game.view(seat, lazy=True)`) and its lazy
board are the view and the board view, part for part: the same keys in the same order, the same
values, and a dict's answers to `get`, `in`, `len` and iteration."""

from __future__ import annotations

import pytest

from harena.core.bots import bot_seed, decide
from harena.core.engine import LazyDict, game_class, make_config
from tests.core.spartacus.helpers import new_game


def test_the_lazy_board_is_the_board_view_along_a_game() -> None:
    game = new_game(players=4, seed=11)
    bots = [game.bots["heuristic"](bot_seed(11, s)) for s in range(4)]
    step = 0
    while game.result() is None and step < 600:
        for seat in (None, *range(game.players)):
            board = game.board_view(seat)
            lazy = game.lazy_board_view(seat)
            assert isinstance(lazy, LazyDict)
            assert lazy["players"] == board["players"]  # one part read first, then the rest
            assert list(lazy) == list(board) and len(lazy) == len(board)
            assert lazy.whole() == board and lazy == board
            assert list(lazy.items()) == list(board.items())
            view = game.view(seat, lazy=True)
            assert isinstance(view, LazyDict) and isinstance(view["board"], LazyDict)
            assert view == game.view(seat) and list(view) == list(game.view(seat))
        seat = game.awaited()[0]
        game.act(seat, decide(game, seat, bots[seat]))
        step += 1


def test_a_lazy_view_of_carthage_is_its_view() -> None:
    game = game_class("carthage")(make_config("carthage", 2, 3, {}))
    bots = [game.bots["heuristic"](bot_seed(3, s)) for s in range(2)]
    for _ in range(200):
        if game.result() is not None:
            break
        for seat in (None, 0, 1):
            assert game.view(seat, lazy=True) == game.view(seat)
        seat = game.awaited()[0]
        game.act(seat, decide(game, seat, bots[seat]))


def test_a_lazy_dict_answers_as_a_dict() -> None:
    built: list[str] = []

    def part(key: str) -> str:
        built.append(key)
        return key.upper()

    lazy = LazyDict({"a": lambda: part("a"), "b": lambda: part("b")})
    assert "a" in lazy and "c" not in lazy and len(lazy) == 2 and built == []
    assert lazy["b"] == "B" and lazy["b"] == "B" and built == ["b"]  # built once
    assert lazy.get("a") == "A" and lazy.get("c", 0) == 0
    assert list(lazy) == ["a", "b"] and dict(lazy) == {"a": "A", "b": "B"}
    with pytest.raises(KeyError):
        lazy["c"]  # a key it has not
