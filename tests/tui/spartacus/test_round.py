"""A whole round of Spartacus played by keys on three players' screens (Pilot): a hidden Scheme
asked for support and met by a Guard, a trade, an auction tie and the Host contest, the games
with a bet and a full fight, and the next round's upkeep. Every screen each player saw is kept
and read: what the rules show must be there, and what they hide must not be.
"""

from __future__ import annotations

from typing import Any

from harena.core.spartacus.state import Phase
from tests.core.spartacus.helpers import give
from tests.tui.spartacus.helpers import Players, first, game_of, new_table, play, three_players


class RoundPolicy:
    """How each player decides, chosen so that the round passes through every phase's
    interesting steps (and nothing depends on luck but the dice)."""

    def __init__(self, schemer: int, supporter: int, target: int) -> None:
        self.schemer, self.supporter, self.target = schemer, supporter, target
        self.offered = self.answered = False
        self.auctions = 0

    def __call__(self, seat: int, prompt: dict[str, Any], view: dict[str, Any]) -> str | None:
        kind = prompt["kind"]
        board = view["game"]["board"]
        pick: str | None = None
        if kind == "intrigue_turn":
            pick = first(prompt, "scheme:") if seat == self.schemer else None
            pick = pick or "end"
        elif kind == "prepare_scheme":
            pick = first(prompt, f"target:{self.target}", "ask:hide")
        elif kind == "support_scheme":
            pick = "support" if seat == self.supporter else "refuse"
        elif kind == "reaction":
            pick = first(prompt, "guard-hand:", "pass")
        elif kind == "open_market":
            offer = first(prompt, f"offer:{self.supporter}")
            if seat == self.schemer and not self.offered and offer:
                self.offered = True
                pick = offer
            elif seat == self.supporter and not self.answered:
                return None  # stays in the Open Market until the offer has come
            else:
                pick = "close"
        elif kind == "compose_offer":
            pick = first(prompt, "offer-send", "offer-card:")
        elif kind == "answer_offer":
            self.answered = True
            pick = first(prompt, "accept:")
        elif kind == "bid":
            pick = self._bid(seat, board)
        elif kind == "invite":
            pick = first(prompt, *(f"invite:{s}" for s in range(3) if s != seat))
        elif kind == "invitation":
            pick = "accept"
        elif kind == "bet":
            fighters = {f["seat"] for f in board["arena"]["fighters"]}
            pick = "bet:none" if seat in fighters else first(prompt, "bet:win:")
        elif kind == "fight":
            pick = first(prompt, "attack", "step:", "end")
        elif kind == "thumbs":
            pick = "thumbs:up"
        return pick or prompt["choices"][0][0]

    def _bid(self, seat: int, board: dict[str, Any]) -> str:
        """The first lot: schemer and supporter bid alike (a tie), then the schemer bids more;
        the Host title: the target bids 1; every other lot: nobody bids."""
        auction = board["market"]["auction"]
        if auction["host_title"]:
            return "bid:1" if seat == self.target else "bid:0"
        lot = board["market"]["lots_left"]
        if self.auctions == 0:
            self.auctions = lot + 1  # remember which lot is the first
        if lot + 1 != self.auctions or seat == self.target:
            return "bid:0"
        rebid = any(auction["on_table"])  # a re-bid adds to what is on the table
        if rebid:
            return "bid:2" if seat == self.schemer else "bid:0"
        return "bid:1"


def seen(players: Players, seat: int, text: str) -> bool:
    return any(text in screen for screen in players.screens[seat])


async def test_a_whole_round_by_keys_on_three_screens() -> None:
    lobby, table = new_table(seed=3, length="advanced")
    game = game_of(table)
    s = game.state
    assert s.intrigue is not None
    schemer = s.intrigue.turn
    supporter, target = (schemer + 1) % 3, (schemer + 2) % 3
    for p in s.players:
        game.state.intrigue_discard.extend(p.hand)
        p.hand.clear()
        p.denarii = 10
    spy = give(game, schemer, "spy", hand=True)  # needs 2 Influence: the schemer has 1
    give(game, target, "guard", hand=True)
    policy = RoundPolicy(schemer, supporter, target)

    async with three_players(lobby, table) as players:
        await play(players, policy, lambda: s.round == 2 and s.phase is Phase.INTRIGUE)

        log = game.log_for(None)
        names = ["ann/Batiatus", "bob/Glaber", "cat/Solonius"]
        # Everyone is named by name and House; nobody by a seat number.
        for seat in range(3):
            assert seen(players, seat, f"you: {names[seat]}")
            assert not any("Seat " in screen for screen in players.screens[seat])
        # Intrigue: the Scheme was hidden while support was asked (only its schemer saw it),
        # then the target's Guard was rolled, the die drawn on the screens.
        for seat in (supporter, target):
            asked = [sc for sc in players.screens[seat] if "a hidden Scheme" in sc]
            assert asked and not any("Spy" in sc for sc in asked)
        assert any(line.endswith("asks for support for a Scheme") for line in log)
        assert any(line.startswith("Support for") and "supports" in line for line in log)
        assert any("discards a Guard from the hand and rolls" in line for line in log)
        assert seen(players, schemer, "Guard: ") and any(
            "rolls [" in sc for sc in players.screens[schemer]
        )
        # Market: a trade offered and taken, a tie at the first lot, the Host contest.
        assert any(line.startswith("Trade done:") for line in log)
        assert any(line.startswith(("Tied", "Roll-off")) for line in log)
        assert any("Contest for the Host title" in line for line in log)
        assert seen(players, target, "has bid")
        # The games: a bet, a fight with dice, a result, the thumbs.
        assert any(line.startswith("Bets:") for line in log)
        assert any(" attacks: " in line for line in log)
        assert any("[" in sc and "Fight round" in sc for sc in players.screens[schemer])
        assert any("defeats" in line for line in log)
        # Round 2 began with upkeep.
        assert any(line == "Round 2: Maintenance" for line in log)
        assert spy in s.intrigue_discard  # the Spy was played (and cancelled by the Guard)
