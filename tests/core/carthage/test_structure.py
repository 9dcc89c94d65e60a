"""How the Carthage rules are put together (issue 25): one game class on the engine's `Game`,
made of pieces that call each other by name, never a chain of mixins overriding each other."""

from __future__ import annotations

import copy
import gc
import inspect
import pickle
import weakref
from collections import Counter
from pathlib import Path

import pytest

from harena.core.bots import RandomBot, bot_seed
from harena.core.carthage.choices import (
    BuyCard,
    ChooseSide,
    HexChoice,
    PlayCard,
    ReadyEquipment,
    UseEquipment,
)
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


# a piece's class is its attribute's name (issue 38: one name for one thing); these four read
# better spelled out, and each is still the one class of that job
SPELLED_OUT = {
    "resolver": "EffectResolver",
    "conditions": "ActiveConditions",
    "naked": "NakedAndAfraid",
    "rulesets": "RulesetRules",
}


def test_each_piece_is_a_class_named_after_the_attribute_that_holds_it() -> None:
    game = new_carthage(4)
    named = {
        attr: type(value).__name__
        for attr, value in vars(game).items()
        if isinstance(value, Part) or attr in ("team_mode", "essedari_mode")
    }
    assert "board" in named and "flow" in named and "ruleset_table" in named
    for attr, name in named.items():
        expected = SPELLED_OUT.get(attr, attr.title().replace("_", ""))
        assert name == expected, attr


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
    assert twin.board.game.state is twin.state and twin.flow.game.state is twin.state
    assert game.state.chosen == 0 and twin.state.chosen == 1


TYPED = {
    "hex": (HexChoice, lambda c: f"hex:{c.at.q},{c.at.r}"),
    "play": (PlayCard, lambda c: f"play:{c.instance}"),
    "side": (ChooseSide, lambda c: f"side:{c.side}"),
    "equip": (UseEquipment, lambda c: f"equip:{c.equipment}:{c.instance}"),
    "buy": (BuyCard, lambda c: f"buy:{c.slot}"),
    "ready": (ReadyEquipment, lambda c: f"ready:{c.equipment}"),
}


def test_prompts_offer_typed_choices_whose_ids_are_as_saved_logs_hold_them() -> None:
    # issue 25: `act` applies the choice the prompt builder made; the ids on the wire and in
    # saved action logs stay what they were (tests/core/test_store.py loads old saves)
    seen: set[str] = set()
    for seed in range(3):
        game = new_carthage(3, seed, gladiators="choose", tokens="players_choose",
                            equipment="on", sudden_death="10")  # fmt: skip
        bots = [RandomBot(bot_seed(seed, s)) for s in range(3)]
        while game.result() is None and game.version < 400:
            for prompt in game.prompts():
                for offer in prompt.choices:
                    prefix = offer.id.partition(":")[0]
                    if prefix in TYPED:
                        cls, rebuilt = TYPED[prefix]
                        assert isinstance(offer, cls) and rebuilt(offer) == offer.id
                        seen.add(prefix)
            seat = game.awaited()[0]
            game.act(seat, bots[seat].choose(game.view(seat)))
    assert seen >= {"hex", "play", "buy"}


def test_a_game_and_its_pieces_make_no_reference_cycle() -> None:
    # the server avoids cyclic garbage (tests/tui/test_lobby.py, gc_policy): a game nobody
    # holds is freed at once, pieces and all
    gc.disable()
    try:
        game = new_carthage(4, teams="2v2_chained", equipment="on", beasts="on")
        gone = weakref.ref(game)
        piece = weakref.ref(game.board)
        del game
        assert gone() is None and piece() is None
    finally:
        gc.enable()


def test_a_game_rebuilt_after_a_rules_error_plays_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # engine.Game.act replays the log when the rules code fails; the pieces then serve the game
    game = new_carthage(2, gladiators="choose")
    seat = game.prompts()[0].seat
    monkeypatch.setattr(type(game.setup_rules), "choose_gladiator", lambda *a: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        game.act(seat, game.prompts()[0].choices[0].id)
    monkeypatch.undo()
    assert game.setup_rules.game.state is game.state and game.state.chosen == 0
    game.act(seat, game.prompts()[0].choices[0].id)
    assert game.state.chosen == 1
