"""Leaks of hidden information found in play (issue 12): each test shows two positions that
differ only in something a seat may not know, and requires that seat to read the same thing."""

from __future__ import annotations

from harena.core.spartacus.rules import Spartacus
from harena.core.spartacus.state import Phase
from tests.core.spartacus.helpers import at_the_market, choose_houses, kinds, new_game


def _forged_letters_shown_and_asked() -> Spartacus:
    """The issue's table: Solonius shows Forged Letters against Glaber and asks for support."""
    game = new_game(4, 1, length="advanced", round_limit="10")
    choose_houses(game, ("solonius", "glaber", "batiatus", "tullius"))
    hand = game.state.players[0].hand
    letters = next(c for c in hand if game.card(c).name == "Forged Letters")
    game.act(0, f"scheme:{letters}")
    game.act(0, "target:1")
    game.act(0, "ask:show")
    return game


def test_a_seat_still_to_answer_reads_the_shortfall_before_anyone_answered() -> None:
    """rules: Seeking Support - the answers are revealed together (docs/rulings.md): while
    they come in, the shortfall a seat reads must not count the answers already given."""
    seen = {}
    for answer in ("support", "refuse"):
        game = _forged_letters_shown_and_asked()
        game.act(1, answer)
        seen[answer] = (game.view(3), game.view(2), game.view(None))
    assert seen["support"] == seen["refuse"]
    text = seen["refuse"][0]["prompts"][0]["text"]
    assert (
        text == "Solonius asks your support for Forged Letters against Glaber (3 Influence short)"
    )


def _tied_at_three(denarii: int) -> Spartacus:
    """Seats 0 and 1 tie at 3 for the first lot, each holding `denarii` (hidden since they
    closed); the coins they lack stay in the Bank, so the box still adds up."""
    game = at_the_market()
    s = game.state
    for seat in (0, 1):
        s.bank += s.players[seat].denarii - denarii
        s.players[seat].denarii = denarii
    game.state_changed()
    for seat in range(4):
        game.act(seat, "close")
    for seat, bid in enumerate((3, 3, 1, 0)):
        game.act(seat, f"bid:{bid}")
    return game


def test_tied_leaders_bid_again_whether_or_not_their_hidden_denarii_allow_more() -> None:
    """rules: Resolving Ties - bid again; ruling (docs/rulings.md): re-bid or roll-off is
    decided from the revealed bids alone, so it cannot tell the table the leaders' treasuries."""
    broke, rich = _tied_at_three(3), _tied_at_three(10)
    for seat in (2, 3, None):
        assert broke.view(seat) == rich.view(seat)
    assert kinds(broke) == {0: "bid", 1: "bid"}
    assert [c.id for p in broke.prompts_for(0) for c in p.choices if not p.standing] == ["bid:0"]
    broke.act(0, "bid:0")
    broke.act(1, "bid:0")  # nobody could add: rolled off
    assert any(line.startswith("Roll-off") for line in broke.log_for(None))
    assert broke.state.phase is Phase.MARKET and broke.state.market.auction.card is not None


def _drafting_to(recipient: int) -> Spartacus:
    game = at_the_market()
    game.act(0, f"offer:{recipient}")
    return game


def test_whom_an_offer_is_drafted_for_stays_secret_when_that_seat_closes() -> None:
    """docs/rulings.md (Market): an offer is its proposer's until made; the seat it was for
    closing the Open Market must not end the draft in everyone's sight."""
    for_one, for_two = _drafting_to(1), _drafting_to(2)
    for game in (for_one, for_two):
        game.act(1, "close")
    for seat in (1, 2, 3, None):
        assert for_one.view(seat) == for_two.view(seat)
    assert [c.id for p in for_one.prompts_for(0) for c in p.choices if not p.standing] == [
        "offer-cancel"
    ]
    for_one.act(0, "offer-cancel")
    assert kinds(for_one)[0] == "open_market"
