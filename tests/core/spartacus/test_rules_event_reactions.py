"""rules: Intrigue Phase - "Reactions: These are powerful countermeasures that can be played in
response to other events, not just on your turn. They also have a Required Influence level, but
you cannot receive support to play them." The events beside a Scheme and an invitation: an
auction won (Envy of the Forum) and a combatant wounded in the Arena (Medicus); the window that
asks for them must not tell who holds one (docs/rulings.md, "The Reaction window")."""

from __future__ import annotations

from typing import Any

import pytest

from harena.core.bots import bot_seed
from harena.core.spartacus import reactions
from harena.core.spartacus.bots import HeuristicBot
from harena.core.spartacus.rules import Spartacus
from harena.core.spartacus.state import ArenaStep
from tests.core.spartacus.helpers import at_the_market, choices, give, kinds
from tests.core.spartacus.test_rules_arena import _arena, _finish, _two_fighters

QUESTION = "wins"  # every asked seat reads "<winner> wins <lot> for <price>: play a Reaction?"


def _market(hands: dict[int, str], influence: int = 4) -> tuple[Spartacus, dict[int, int]]:
    """At the auction: every Market closed, `hands[seat]` in that seat's hand."""
    game = at_the_market()
    refs = {seat: give(game, seat, card, hand=True) for seat, card in hands.items()}
    for p in game.state.players:
        p.influence = influence
    for seat in range(4):
        game.act(seat, "close")
    return game, refs


def _win_lot(game: Spartacus, winner: int, price: int) -> int:
    lot = game.state.market.auction.card
    for seat in range(4):
        game.act(seat, f"bid:{price if seat == winner else 0}")
    return lot


def _holds(game: Spartacus, seat: int, ref: int) -> bool:
    return any(a.card == ref for a in game.state.players[seat].assets)


def test_another_dominus_may_answer_a_lot_won_and_the_winner_keeps_it() -> None:
    """rules: Reactions "in response to other events": an auction won. Every Dominus but the
    winner who holds an Intrigue card and enough Influence is asked, all at once, the same.
    rules: Open Market - "This is the only time these cards can change hands between
    players": the Reaction (Envy of the Forum) costs the winner Influence, never the lot."""
    game, refs = _market({1: "slander", 2: "envy-of-the-forum", 3: "guard"})
    lot = _win_lot(game, winner=0, price=4)
    assert kinds(game) == {1: "event_reaction", 2: "event_reaction", 3: "event_reaction"}
    texts = {p.text for p in game.open_prompts() if not p.standing}
    assert len(texts) == 1 and QUESTION in texts.pop()
    assert choices(game, 1) == ["pass"] and choices(game, 3) == ["pass"]
    assert choices(game, 2) == ["pass", f"react:{refs[2]}"]
    game.act(2, f"react:{refs[2]}")
    assert game.view(1)["log"][-1] == f"{game.name_of(2)} has answered"
    game.act(1, "pass")
    game.act(3, "pass")
    assert _holds(game, 0, lot) and not _holds(game, 2, lot)
    assert game.state.players[0].influence == 3 and game.state.players[2].influence == 4
    assert refs[2] in game.state.intrigue_discard
    assert any("plays Envy of the Forum" in line for line in game.view(None)["log"])
    assert set(kinds(game).values()) == {"bid"}  # on to the next lot


def test_no_reference_card_moves_a_resource_outside_the_open_market() -> None:
    """rules: Open Market - "the only time these cards can change hands between players":
    no Reaction to an auction won takes the lot (docs/rulings.md)."""
    from harena.core.spartacus.cards import Influence

    game = at_the_market()
    answering = [c for c in game.content.intrigue if c.answers == "auction_won"]
    assert [c.id for c in answering] == ["envy-of-the-forum"]
    assert all(isinstance(e, Influence) for c in answering for e in c.effects)


def test_the_first_reactor_clockwise_from_the_winner_plays_and_the_other_keeps_its_card() -> None:
    """The answers come in together; the first in turn order from the event's seat plays."""
    game, refs = _market({1: "envy-of-the-forum", 3: "envy-of-the-forum"})
    _win_lot(game, winner=2, price=3)
    for seat in (1, 3):
        game.act(seat, f"react:{refs[seat]}")
    assert refs[3] in game.state.intrigue_discard  # 3 comes right after the winner, 2
    assert refs[1] in game.state.players[1].hand
    assert game.state.players[2].influence == 3  # played once
    log = game.view(0)["log"]
    assert not any(game.name_of(1) in line and "Envy" in line for line in log)


def test_a_reaction_needs_its_own_influence() -> None:
    """rules: Reactions "have a Required Influence level, but you cannot receive support":
    below the lowest Required Influence for the event a Dominus is not asked."""
    game, refs = _market({1: "envy-of-the-forum", 2: "envy-of-the-forum"}, influence=2)
    game.state.players[2].influence = 3
    game.state_changed()
    _win_lot(game, winner=0, price=3)
    assert kinds(game) == {2: "event_reaction"}  # 1 has 2 Influence: Envy of the Forum needs 3
    assert choices(game, 2) == ["pass", f"react:{refs[2]}"]


def test_nobody_is_asked_when_nobody_holds_an_intrigue_card() -> None:
    game, _ = _market({})
    lot = _win_lot(game, winner=1, price=2)
    assert _holds(game, 1, lot) and set(kinds(game).values()) == {"bid"}


def test_the_host_title_opens_no_reaction_window() -> None:
    """ruling (docs/rulings.md): the Host title is no lot; no Reaction answers it."""
    game, _ = _market({1: "envy-of-the-forum", 2: "slander", 3: "slander"})
    for _ in range(4):  # four lots, nobody bids: each is discarded
        for seat in range(4):
            game.act(seat, "bid:0")
    assert game.state.market.auction.card is None  # the Host title is up
    for seat in range(4):
        game.act(seat, f"bid:{3 if seat == 2 else 0}")
    assert game.state.window is None and game.state.host == 2


def test_a_medicus_undoes_a_wound_taken_in_the_arena() -> None:
    """rules: Reactions "in response to other events": your combatant wounded. Only its owner
    is asked; the combatant stays exhausted (it fought), then the Host turns a thumb."""
    game = _arena()
    _, victim = _two_fighters(game)
    medicus = give(game, 2, "medicus", hand=True)
    give(game, 1, "slander", hand=True)
    for seat in range(4):
        game.act(seat, "bet:none")
    _finish(game, loser=1, outcome="wound")
    assert kinds(game) == {2: "event_reaction"}
    assert choices(game, 2) == ["pass", f"react:{medicus}"]
    game.act(2, f"react:{medicus}")
    asset = next(a for a in game.state.players[2].assets if a.card == victim)
    assert not asset.wounded and asset.exhausted
    assert kinds(game) == {0: "thumbs"}
    assert game.state.arena.step is ArenaStep.THUMBS


@pytest.mark.parametrize(("outcome", "hand"), [("yield", "medicus"), ("wound", None)])
def test_a_yield_or_an_owner_without_cards_opens_no_window(outcome: str, hand: str | None) -> None:
    """Only a wound is answered, and only an owner with an Intrigue card is asked."""
    game = _arena()
    _two_fighters(game)
    if hand:
        give(game, 2, hand, hand=True)
    for seat in range(4):
        game.act(seat, "bet:none")
    _finish(game, loser=1, outcome=outcome)
    assert game.state.window is None and kinds(game) == {0: "thumbs"}


# --- the twin test: holding the card must not show ------------------------------------------------


def _seen(game: Spartacus, seats: tuple[int | None, ...]) -> list[Any]:
    """Everything a seat receives, and the version counter."""
    return [(game.view(s), game.version) for s in seats]


def _twins(card: str, answer: str) -> tuple[Spartacus, int]:
    """Seat 2 holds `card` (else a Slander) and answers `answer` ("play" or "pass")."""
    game, refs = _market({1: "guard", 2: card, 3: "slander"})
    _win_lot(game, winner=0, price=2)
    ref = refs[2]
    game.act(2, f"react:{ref}" if answer == "play" else "pass")
    return game, ref


@pytest.mark.parametrize("answer", ["play", "pass"])
def test_whether_a_seat_holds_the_card_and_plays_it_is_hidden_until_revealed(answer: str) -> None:
    """Two games differing only in whether seat 2 holds Envy of the Forum (and plays it or
    passes) show the other seats and a spectator the same views, log lines, prompt texts and
    version, until the answers are revealed; when it passes, ever after too."""
    holder, _ = _twins("envy-of-the-forum", answer)
    other, _ = _twins("slander", "pass")
    others = (0, 1, 3, None)
    assert _seen(holder, others) == _seen(other, others)
    for game in (holder, other):
        game.act(1, "pass")
    assert _seen(holder, others) == _seen(other, others)
    for game in (holder, other):
        game.act(3, "pass")  # all in: revealed
    if answer == "pass":
        assert _seen(holder, others) == _seen(other, others)
    else:
        assert _seen(holder, others) != _seen(other, others)


def test_the_twin_test_catches_a_window_that_asks_only_holders(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The naive window, planted: it tells the table who holds Envy of the Forum."""
    real = reactions._may_be_asked

    def holders(game: Spartacus, event: str, seat: int, at: int) -> bool:
        held = any(game.card(c).answers == event for c in game.state.players[seat].hand)
        return real(game, event, seat, at) and held

    monkeypatch.setattr(reactions, "_may_be_asked", holders)
    game, _refs = _market({1: "guard", 2: "envy-of-the-forum", 3: "slander"})
    twin, _ = _market({1: "guard", 2: "slander", 3: "slander"})
    for g in (game, twin):
        _win_lot(g, winner=0, price=2)
    assert _seen(game, (0, 1, 3, None)) != _seen(twin, (0, 1, 3, None))


# --- bots ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("winner_influence", "plays"), [(6, True), (4, False)])
def test_the_heuristic_bot_envies_only_a_winner_who_leads(
    winner_influence: int, plays: bool
) -> None:
    """It spends Envy of the Forum on the winner only when the winner leads the others."""
    game = at_the_market()
    envy = give(game, 2, "envy-of-the-forum", hand=True)
    for p in game.state.players:
        p.influence = 4
    game.state.players[3].influence = 5
    game.state.players[0].influence = winner_influence
    for seat in range(4):
        game.act(seat, "close")
    _win_lot(game, winner=0, price=1)
    assert game.state.window is not None
    bot = HeuristicBot(bot_seed(1, 2))
    assert bot.choose(game.view(2)) == (f"react:{envy}" if plays else "pass")


def test_the_heuristic_bot_sends_its_medicus_to_its_wounded_combatant() -> None:
    game = _arena()
    _two_fighters(game)
    medicus = give(game, 2, "medicus", hand=True)
    for seat in range(4):
        game.act(seat, "bet:none")
    _finish(game, loser=1, outcome="wound")
    assert HeuristicBot(bot_seed(1, 2)).choose(game.view(2)) == f"react:{medicus}"
