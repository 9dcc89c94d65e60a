"""rules: Setup 5 - "Denarii can change hands between players at any time!"; deals are not
binding. Asks (core/spartacus/asks.py, docs/rulings.md "Asks"): public, never blocking,
bounded, paid like a gift, and nothing in them tells a hidden treasury."""

from __future__ import annotations

import pytest

from harena.core.engine import IllegalAction
from harena.core.spartacus import asks
from harena.core.spartacus.rules import Spartacus
from harena.core.spartacus.state import ArenaStep, Fight
from tests.core.spartacus.helpers import coins, give, kinds
from tests.core.spartacus.test_rules_arena import _arena, _begin, _finish, _two_fighters
from tests.core.spartacus.test_rules_schemes import _others, _turn


def choices(game: Spartacus, seat: int) -> list[str]:
    """Every choice of the seat, its standing ones (gifts, asks) too."""
    return [c.id for p in game.prompts_for(seat) for c in p.choices]


def at_the_thumbs() -> Spartacus:
    """Seat 0 hosts; seat 2's Secutor (no Favor) lost to seat 1's Veteran: seat 0 turns a thumb."""
    game = _arena()
    _two_fighters(game)
    for seat in range(4):
        game.act(seat, "bet:none")
    _finish(game, loser=1, outcome="yield")
    assert kinds(game) == {0: "thumbs"}
    return game


def test_the_host_asks_publicly_and_the_thumb_stays_free() -> None:
    """Deals are not binding: an ask paid changes nobody's choices but the coins."""
    game = at_the_thumbs()
    assert "ask:2:3:spare" in choices(game, 0)
    assert not any(c.startswith("ask:") for c in choices(game, 1) + choices(game, 3))
    game.act(0, "ask:2:3:spare")
    line = "Batiatus asks Solonius 3 denarii to spare Secutor (not binding)"
    for viewer in (None, 0, 1, 2, 3):
        view = game.view(viewer)
        assert line in view["log"]
        assert view["board"]["asks"] == [
            {
                "index": 0,
                "asker": 0,
                "asked": 2,
                "amount": 3,
                "favour": "spare",
                "text": "to spare Secutor",
                "paid": False,
                "refused": False,
            }
        ]
    assert kinds(game) == {0: "thumbs"}  # the ask never blocks: only the thumb is awaited
    before = coins(game)
    game.act(2, "payask:0")
    assert game.state.players[2].denarii == 7 and game.state.players[0].denarii == 13
    assert coins(game) == before
    assert game.view(3)["board"]["asks"][0]["paid"] is True
    assert "Solonius pays Batiatus 3 denarii to spare Secutor" in game.view(1)["log"]
    assert "thumbs:down" in choices(game, 0)  # paid, and still the Host's to turn
    game.act(0, "thumbs:down")
    assert game.state.players[2].denarii == 7  # nothing comes back


def test_an_ask_refused_is_said_to_all_stops_the_wait_and_may_still_be_paid() -> None:
    """The Dominus asked may say no, publicly, whatever their treasury (a refusal is offered
    with no coins too, so it tells nothing): bots waiting for the answer go on (Game.asked_to_pay,
    server/runners/bot_runner.py); deals are not binding, so paying stays open while the moment lasts."""
    game = at_the_thumbs()
    game.act(0, "ask:2:3:spare")
    assert game.asked_to_pay() == [2]
    assert "refuseask:0" in choices(game, 2) and "refuseask:0" not in choices(game, 1)
    broke = at_the_thumbs()
    broke.state.players[2].denarii = 0
    broke.act(0, "ask:2:3:spare")
    assert "refuseask:0" in choices(broke, 2) and "payask:0" not in choices(broke, 2)
    game.act(2, "refuseask:0")
    assert "Solonius refuses Batiatus's ask of 3 denarii" in game.view(1)["log"]
    assert game.view(3)["board"]["asks"][0]["refused"] is True
    assert game.asked_to_pay() == []
    assert "refuseask:0" not in choices(game, 2) and "payask:0" in choices(game, 2)
    with pytest.raises(IllegalAction):
        game.act(1, "refuseask:0")  # only the Dominus asked answers
    game.act(2, "payask:0")  # changed their mind: still theirs to pay
    assert game.view(3)["board"]["asks"][0]["paid"] is True


def test_a_bot_answers_no_to_an_ask_it_will_not_pay() -> None:
    from harena.core.spartacus.bots import HeuristicBot

    game = at_the_thumbs()
    game.act(0, "ask:2:9:spare")  # 9 denarii for a Secutor: not worth it to the owner
    bot = HeuristicBot(seed=1)
    assert bot.standing(game.view(2)) == "refuseask:0"


def test_one_ask_per_dominus_per_favour_per_moment_and_never_twice_paid() -> None:
    game = at_the_thumbs()
    game.act(0, "ask:2:2:spare")
    assert not any(c.startswith("ask:") for c in choices(game, 0))
    with pytest.raises(IllegalAction):
        game.act(0, "ask:2:5:spare")
    game.act(2, "payask:0")
    with pytest.raises(IllegalAction):
        game.act(2, "payask:0")
    game2 = at_the_thumbs()
    assert "ask:2:9:spare" in choices(game2, 0) and "ask:2:10:spare" not in choices(game2, 0)
    assert asks.MAX_ASK == 9


def test_asks_end_with_their_moment() -> None:
    game = at_the_thumbs()
    game.act(0, "ask:2:2:spare")
    game.act(0, "thumbs:up")
    assert game.view(2)["board"]["asks"] == []
    assert not any(c.startswith("payask:") for c in choices(game, 2))


def test_asking_needs_no_denarii_and_paying_needs_them_free() -> None:
    """Asking reveals nothing: a House with no coin may ask for 9. Only the Dominus asked, with
    the free denarii, is offered the payment."""
    game = at_the_thumbs()
    game.state.players[0].denarii = 0
    game.state.players[2].denarii = 2
    game.state_changed()
    assert "ask:2:9:spare" in choices(game, 0)
    game.act(0, "ask:2:3:spare")
    assert "payask:0" not in choices(game, 2) and "payask:0" not in choices(game, 1)


def test_an_invitee_asks_the_host_to_accept() -> None:
    game = _arena()
    give(game, 1, "veteran")
    give(game, 2, "veteran")
    _begin(game)
    assert any(c.startswith("ask:1:") and c.endswith(":invite") for c in choices(game, 0))
    game.act(0, "invite:1")
    assert game.state.arena.step is ArenaStep.ANSWER
    assert "ask:0:2:accept" in choices(game, 1)
    assert not any(c.endswith(":accept") for c in choices(game, 0))
    game.act(1, "ask:0:2:accept")
    assert kinds(game) == {1: "invitation"}
    game.act(0, "payask:0")
    game.act(1, "refuse")  # not binding
    assert game.state.players[1].denarii == 12


def test_a_dominus_asked_for_support_may_ask_the_schemer() -> None:
    game, schemer = _turn(influence=3)
    card = give(game, schemer, "favour-of-the-senate", hand=True)  # needs 5
    game.act(schemer, f"scheme:{card}")
    game.act(schemer, "ask:show")
    askers = _others(schemer)
    for s in askers:
        assert f"ask:{schemer}:2:support" in choices(game, s)
    game.act(askers[0], f"ask:{schemer}:2:support")
    assert game.view(askers[1])["board"]["asks"][0]["favour"] == "support"
    game.act(askers[0], "refuse")  # not binding either way, and answering ends its moment
    assert not any(c.startswith("ask:") for c in choices(game, askers[0]))
    assert f"ask:{schemer}:2:support" in choices(game, askers[1])


def test_no_ask_while_a_decided_effect_resolves() -> None:
    """As for gifts: not while wounds are taken or a victim picked."""
    game = at_the_thumbs()
    game.state.arena.step = ArenaStep.FIGHT
    game.state.arena.fight = Fight(defender=0)
    game.state_changed()
    assert asks.moments(game) == [] and not game.dealing()
