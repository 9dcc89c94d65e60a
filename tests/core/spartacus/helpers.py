"""Building Spartacus positions for rule tests: a real game, arranged by hand where a test
needs a particular table, with dice that can be scripted."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from harena.core.bots import RandomBot, bot_seed, standing_move
from harena.core.engine import Rng, make_config
from harena.core.spartacus.rules import Spartacus
from harena.core.spartacus.state import Asset, Phase

HOUSES = ("batiatus", "glaber", "solonius", "tullius")


class ScriptedRng(Rng):
    """The game's RNG, except that `roll()` first returns the scripted faces, in order."""

    __slots__ = ("faces",)

    def __init__(self, state: int, faces: list[int]) -> None:
        super().__init__(state)
        self.faces = list(faces)

    def roll(self, sides: int = 6) -> int:
        return self.faces.pop(0) if self.faces else super().roll(sides)


def dice(game: Spartacus, *faces: int) -> ScriptedRng:
    rng = ScriptedRng(game.rng.state, list(faces))
    game.rng = rng
    return rng


def new_game(players: int = 4, seed: int = 1, **options: str) -> Spartacus:
    return Spartacus(make_config("spartacus", players, seed, options))


def choose_houses(game: Spartacus, houses: tuple[str, ...] = HOUSES) -> None:
    """Every seat takes a House: the k-th chooser takes houses[k]."""
    k = 0
    while game.state.phase is Phase.HOUSES:
        seat = game.awaited()[0]
        game.act(seat, f"house:{houses[k]}")
        k += 1


def started(players: int = 4, seed: int = 1, **options: str) -> Spartacus:
    """A game whose Houses are chosen: now in its first Intrigue phase (or waiting in
    Maintenance when a house cannot pay)."""
    game = new_game(players, seed, **options)
    choose_houses(game)
    return game


def choices(game: Spartacus, seat: int) -> list[str]:
    return [c.id for p in game.prompts_for(seat) if not p.standing for c in p.choices]


def kinds(game: Spartacus) -> dict[int, str]:
    return {p.seat: p.kind for p in game.open_prompts() if not p.standing}


def give(game: Spartacus, seat: int, card_id: str, *, hand: bool = False, **marks: object) -> int:
    """A new instance of `card_id` on `seat`'s table (or in hand); returns the instance."""
    s = game.state
    s.cards.append(card_id)
    ref = len(s.cards) - 1
    if hand:
        s.players[seat].hand.append(ref)
    else:
        s.players[seat].assets.append(Asset(ref, **marks))
    game.state_changed()
    return ref


def clear_table(game: Spartacus, seat: int) -> None:
    """Nothing on the table and nothing in hand (the cards go to the discard piles)."""
    p = game.state.players[seat]
    for a in p.assets:
        (
            game.state.intrigue_discard
            if game.card(a.card).kind.value == "guard"
            else game.state.market_discard
        ).append(a.card)
    game.state.intrigue_discard.extend(p.hand)
    p.assets.clear()
    p.hand.clear()
    game.state_changed()


def play_until(
    game: Spartacus, done: Callable[[Spartacus], bool], seed: int = 0, limit: int = 20_000
) -> None:
    bots = [RandomBot(bot_seed(seed, s)) for s in range(game.players)]
    steps = 0
    while not done(game) and game.result() is None:
        seat = game.awaited()[0]
        game.act(seat, bots[seat].choose(game.view(seat)))
        steps += 1
        assert steps < limit


def bot_move(game: Spartacus, bots: list[Any]) -> tuple[int, str]:
    """The next move of a bot game as the drivers make it (simulate, BotRunner): a bot's deal
    while nobody waits for it, else the first awaited seat's decision."""
    deal = standing_move(game, dict(enumerate(bots)))
    if deal is not None:
        return deal
    seat = game.awaited()[0]
    return seat, bots[seat].choose(game.view(seat))


def at_the_market(seed: int = 1, **options: str) -> Spartacus:
    """A 4-player game at the start of its Market phase: empty tables, 10 denarii each."""
    from harena.core.spartacus import market

    game = started(4, seed=seed, **options)
    game.state.intrigue = None
    for seat, p in enumerate(game.state.players):
        clear_table(game, seat)
        p.denarii = 10
    market.start(game)
    game.state_changed()
    return game


def coins(game: Spartacus) -> int:
    s = game.state
    staked = sum(b.amount for b in s.arena.bets if b) if s.arena and s.arena.staked else 0
    return sum(p.denarii for p in s.players) + s.bank + staked


def offer_price(game: Spartacus, seat: int, price: int) -> None:
    """Name `price` in the offer `seat` is drafting, by its +-1, +-5 and none steps, as a
    player would."""
    while True:
        draft = game.view(seat)["board"]["market"]["my_draft"]
        if draft["price"] == price:
            return
        sums = [int(c.split(":")[1]) for c in choices(game, seat) if c.startswith("offer-price:")]
        closer = [n for n in sums if abs(n - price) < abs(draft["price"] - price)]
        if not closer:
            raise AssertionError(f"{price} denarii cannot be named (steps {sums})")
        game.act(seat, f"offer-price:{min(closer, key=lambda n: abs(n - price))}")


def prompt_texts(prompts: list[Any]) -> list[str]:
    """Every text a list of prompts shows: each prompt's line and each choice's label."""
    return [text for p in prompts for text in (p.text, *(c.label for c in p.choices))]
