"""What the Spartacus log and prompts say reads as English a player would write: a counted noun
agrees with its number ("1 denarius", "2 wounds", never "1 denarii" or "wound(s)"), a Scheme for
the schemer's own House is not "against" them, and two copies of one card are one choice."""

from __future__ import annotations

import re

import pytest

from harena.core.engine import IllegalAction, Rng
from harena.core.plural import counted, denarii
from harena.core.spartacus.rules import Spartacus
from tests.core.spartacus.helpers import give, new_game, prompt_texts, started

BAD_COUNT = re.compile(
    r"\b1 denarii\b|\(s\)|\b1 (wounds|moves|Intrigue cards|gladiators)\b"
    r"|[Dd]efence"  # rules: Combat Basics - "Defense (black)": the rulebook's spelling
)


def test_counted_nouns_agree_with_their_number() -> None:
    assert [denarii(n) for n in (0, 1, 2)] == ["0 denarii", "1 denarius", "2 denarii"]
    assert counted(1, "wound") == "1 wound" and counted(3, "wound") == "3 wounds"
    assert counted(2, "game") == "2 games"


def test_random_games_never_say_1_denarii_nor_a_plural_in_brackets_nor_defence() -> None:
    for seed in range(6):
        game = new_game(3, seed, round_limit="10")
        rng = Rng.from_seed(seed + 7)
        while game.result() is None:
            prompts = [p for p in game.open_prompts() if not p.standing]
            for text in prompt_texts(prompts):
                assert not BAD_COUNT.search(text), text
            prompt = prompts[rng.below(len(prompts))]
            game.act(prompt.seat, prompt.choices[rng.below(len(prompt.choices))].id)
        for event in game.events:
            assert not BAD_COUNT.search(event.text), event.text


def _intrigue_turn(game: Spartacus, influence: int = 4) -> int:
    s = game.state
    seat = s.intrigue.turn
    for p in s.players:
        p.influence, p.denarii = influence, 10
    game.state_changed()
    return seat


def test_a_scheme_for_the_schemers_own_house_is_asked_for_them_not_against_them() -> None:
    """rules: Set Up Schemes - a target "which can be yourself"; Seeking Support."""
    game = started(3)
    seat = _intrigue_turn(game)
    card = give(game, seat, "political-alliance", hand=True)  # needs 9 Influence: support
    game.act(seat, f"scheme:{card}")
    game.act(seat, "ask:show")
    name = game.name_of(seat)
    asks = [p.text for p in game.open_prompts() if p.kind == "support_scheme"]
    assert asks and all(
        text.startswith(f"{name} asks your support for Political Alliance for themselves")
        for text in asks
    )
    assert f"against {name}" not in " ".join(asks + game.log_for(None))


def test_a_harmful_scheme_at_your_own_house_says_so() -> None:
    game = started(3)
    seat = _intrigue_turn(game, influence=5)
    card = give(game, seat, "arson", hand=True)
    game.act(seat, f"scheme:{card}")
    game.act(seat, f"target:{seat}")
    assert f"{game.name_of(seat)} launches Arson at their own House" in " ".join(game.log_for(None))


def test_two_guards_in_hand_are_one_choice_to_put_on_the_table() -> None:
    """rules: Guards - "Guards can be in your hand (hidden) or on the table": which copy goes
    down is no choice at all, so it is offered once."""
    game = started(3)
    seat = _intrigue_turn(game)
    first = give(game, seat, "guard", hand=True)
    give(game, seat, "guard", hand=True)
    labels = [c.label for p in game.prompts_for(seat) for c in p.choices]
    assert labels.count("Put a Guard on your table") == 1
    game.act(seat, f"post:{first}")
    assert [c.label for p in game.prompts_for(seat) for c in p.choices].count(
        "Put a Guard on your table"
    ) == 1  # the other copy may go down too


def test_a_host_who_invites_their_own_house_is_logged_with_the_houses_capital() -> None:
    """rules: Arena Phase - the Host may invite themself (docs/rulings.md)."""
    from tests.core.spartacus.test_rules_arena import _arena, _begin

    game = _arena()
    give(game, 0, "veteran")
    give(game, 1, "secutor")
    _begin(game)
    game.act(0, "invite:0")
    assert game.log_for(None)[-1] == f"{game.name_of(0)} invites their own House"


def test_a_saved_game_that_put_down_the_second_guard_still_replays() -> None:
    """A log saved while both copies were offered may hold the second copy's `post:`: it stays
    legal and puts down exactly that copy, so the moves after it (selling the first) replay."""
    game = started(3)
    seat = _intrigue_turn(game)
    first = give(game, seat, "guard", hand=True)
    second = give(game, seat, "guard", hand=True)
    offered = [c.id for p in game.prompts_for(seat) for c in p.choices]
    assert f"post:{second}" not in offered
    game.act(seat, f"post:{second}")
    hand = game.state.players[seat].hand
    assert first in hand and second not in hand
    assert second in [a.card for a in game.state.players[seat].assets]
    game.act(seat, f"sell:{first}")  # what the old log did next
    assert first not in game.state.players[seat].hand


def test_a_copy_of_a_card_not_in_hand_is_still_refused() -> None:
    game = started(3)
    seat = _intrigue_turn(game)
    give(game, seat, "guard", hand=True)
    other = give(game, (seat + 1) % 3, "guard", hand=True)
    with pytest.raises(IllegalAction):
        game.act(seat, f"post:{other}")
