"""How the Carthage rules are put together (issue 25): one game class on the engine's `Game`,
made of pieces that call each other by name, never a chain of mixins overriding each other."""

from __future__ import annotations

import copy
import inspect
import pickle
from collections import Counter
from pathlib import Path

from harena.core.carthage.part import Part
from harena.core.carthage.rules import Carthage
from tests.core.carthage.table_helpers import new_carthage

CARTHAGE = Path(inspect.getfile(Carthage)).parent


def own_names(cls: type) -> set[str]:
    return {name for name in vars(cls) if not (name.startswith("__") and name.endswith("__"))}


def test_the_game_class_stands_directly_on_the_engines_game() -> None:
    # it fills in the engine's contract and nothing else of a base class
    assert [cls.__name__ for cls in Carthage.__mro__] == ["Carthage", "Game", "ABC", "object"]


def test_no_method_name_is_defined_in_two_classes_of_any_rules_piece() -> None:
    game = new_carthage(4)
    pieces = [value for value in vars(game).values() if isinstance(value, Part)]
    assert len(pieces) >= 10  # board, resolver, flow, setup, the features and the rulesets
    for piece in pieces:
        mro = [cls for cls in type(piece).__mro__ if cls is not object]
        counts = Counter(name for cls in mro for name in own_names(cls))
        assert [name for name, n in counts.items() if n > 1] == [], type(piece).__name__
        assert [cls.__name__ for cls in mro][1:] in ([], ["Part"]), type(piece).__name__


def test_the_rules_carry_no_type_ignore_and_no_not_implemented_stub() -> None:
    for path in sorted(CARTHAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "type: ignore" not in text, path.name
        assert "NotImplementedError" not in text, path.name


def test_a_shallow_copy_plays_on_its_own_state() -> None:
    # tests/core/secrecy.py forks games with copy.copy: the copy's pieces must be its own
    game = new_carthage(2, gladiators="choose")
    twin = copy.copy(game)
    twin.state = pickle.loads(pickle.dumps(game.state))
    twin.state_changed()
    prompt = twin.prompts()[0]
    twin.act(prompt.seat, prompt.choices[0].id)
    assert twin.board.game is twin and twin.flow.game is twin
    assert game.state.chosen == 0 and twin.state.chosen == 1
