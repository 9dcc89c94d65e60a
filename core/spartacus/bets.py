"""rules: Making Bets - 1 to 3 denarii on victory (1:1), a wound (2:1) or a decapitation (2:1),
all at once and in secret; winners recover the stake and the gain, lost stakes go to the Bank.

One bet per Dominus (one House marker); one whose combatant fights may bet only on it to win
("not against your own combatant"). A bet is hidden until all are in; then the stakes leave the
treasuries for the Arena board (`ArenaState.staked`) until the fight is over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harena.core.engine import Choice, Prompt
from harena.core.plural import denarii
from harena.core.spartacus import combat
from harena.core.spartacus.choices import BetOn, PlaceBet, Say, Word
from harena.core.spartacus.holdings import free_denarii, gain
from harena.core.spartacus.state import BET_AMOUNTS, ArenaState, Bet

if TYPE_CHECKING:
    from harena.core.spartacus.rules import Spartacus

PAYOUT = {"win": 1, "wound": 2, "decap": 2}


def _arena(game: Spartacus) -> ArenaState:
    assert game.state.arena is not None
    return game.state.arena


def prompt(game: Spartacus, seat: int) -> Prompt:
    a = _arena(game)
    most = min(free_denarii(game, seat), BET_AMOUNTS[-1])
    choices: list[Choice] = [Say.of(Word.NO_BET, "No bet")]
    mine = any(f.seat == seat for f in a.fighters)
    for n in BET_AMOUNTS[:most]:
        for f in a.fighters:
            if not mine or f.seat == seat:  # rules: not against your own combatant
                text = f"{n} on {combat.who(game, f)} to win (1:1)"
                choices.append(PlaceBet.of(BetOn.WIN, f.seat, n, text))
        choices.append(PlaceBet.of(BetOn.WOUND, -1, n, f"{n} on a wound (2:1)"))
        choices.append(PlaceBet.of(BetOn.DECAP, -1, n, f"{n} on a decapitation (2:1)"))
    return Prompt(seat, "bet", "Place your bet (revealed when all are in)", tuple(choices))


def open_bets(game: Spartacus) -> bool:
    """Everyone may bet now; a Dominus with no denarii to spare is not asked. True when
    nobody is left to ask (the bets are then revealed)."""
    a = _arena(game)
    a.bets = [None] * game.players
    a.betted = [free_denarii(game, s) <= 0 for s in range(game.players)]
    if all(a.betted):
        reveal(game)
    return all(a.betted)


def place(game: Spartacus, seat: int, chosen: PlaceBet | Say) -> bool:
    """A hidden bet (or none). True when it was the last one and the bets are revealed."""
    a = _arena(game)
    if isinstance(chosen, PlaceBet):
        a.bets[seat] = Bet(chosen.on.value, chosen.seat, chosen.amount)
    a.betted[seat] = True
    game.emit("You have bet", seats=[seat], redacted=f"{game.name_of(seat)} has bet")
    if all(a.betted):
        reveal(game)
    return all(a.betted)


def reveal(game: Spartacus) -> None:
    a = _arena(game)
    players = game.state.players
    shown = []
    for seat, bet in enumerate(a.bets):
        if bet is None:
            continue
        players[seat].denarii -= bet.amount  # on the Arena board now
        what = (
            f"{game.name_of(bet.on)} to win"
            if bet.kind == "win"
            else ("a wound" if bet.kind == "wound" else "a decapitation")
        )
        shown.append(f"{game.name_of(seat)} {bet.amount} on {what}")
    a.staked = True
    game.emit("Bets: " + ("; ".join(shown) if shown else "none"))


def pay(game: Spartacus, winner_seat: int, outcome: str) -> None:
    """rules: Making Bets - winners recover the stake and the gain; lost stakes go to the Bank."""
    a = _arena(game)
    s = game.state
    for seat, bet in enumerate(a.bets):
        if bet is None:
            continue
        won = {"win": bet.on == winner_seat, "wound": outcome == "wound",
               "decap": outcome == "decapitation"}[bet.kind]  # fmt: skip
        if won:
            s.players[seat].denarii += bet.amount
            gained = gain(game, seat, bet.amount * PAYOUT[bet.kind])
            game.emit(f"{game.name_of(seat)} wins a bet: {denarii(gained)}")
        else:
            s.bank += bet.amount
    a.bets = [None] * game.players
