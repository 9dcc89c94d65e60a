"""What a Carthage seat may not know, sampled again: the one source for the secrecy checker
(which requires views not to change under it) and the search bot (which plays on the samples).

Every function rewrites, in place, what `viewer` may not know, in a way the rules allow (the
same cards, each pile its size), so the rules run on as if it had happened that way. Each
result depends only on what the viewer knows and on `rng`: hidden piles are pooled in sorted
order before they are shuffled, so two games the viewer cannot tell apart sample alike (the
search bot's "never peeks" test relies on it).
"""

from __future__ import annotations

from typing import Any

from harena.core.carthage.rules import Carthage
from harena.core.deal import deal_again
from harena.core.engine import Game, Rng


def shuffle_sorted(pile: list[Any], rng: Rng) -> None:
    """A hidden order sampled again from the pile's contents alone."""
    pile.sort()
    rng.shuffle(pile)


def cards(game: Game, viewer: int | None, rng: Rng) -> bool:
    """rulebook: hands are hidden, decks face down. Another seat's hand and deck together are
    known (its cards are public as they are bought and discarded), not how they are split;
    your own deck's order is hidden from you too, and the Action deck's from everyone."""
    s = game.state
    for seat, p in enumerate(s.players):
        if seat == viewer:
            shuffle_sorted(p.deck, rng)
        else:
            deal_again([p.hand, p.deck], rng)
    shuffle_sorted(s.action_deck, rng)
    return True


def theater(game: Game, viewer: int | None, rng: Rng) -> bool:
    """The Theater deck's order; a lobbied top card is known to its lobbier (or to all once
    revealed); kept secret, it could have been any card of the pile the Lobby chose from."""
    s = game.state
    lobbied = s.lobbied
    if lobbied is None or not s.theater_deck:
        shuffle_sorted(s.theater_deck, rng)
        return True
    if lobbied.revealed or lobbied.seat == viewer:
        top = s.theater_deck.pop()
        shuffle_sorted(s.theater_deck, rng)
        s.theater_deck.append(top)
        return True
    assert isinstance(game, Carthage)
    pool = game.favor_phase.lobby_pool()
    rest = s.theater_deck[:-1]
    shuffle_sorted(rest, rng)
    card = rng.choice(sorted(set(pool)))
    index = len(pool) - 1 - pool[::-1].index(card)
    s.theater_discard = pool[:index] + pool[index + 1 :]
    s.theater_deck = [*rest, card]
    lobbied.index = index
    return True


def essedari_deck(game: Game, viewer: int | None, rng: Rng) -> bool:
    """The Essedari Maximo's deck order: solo shows none of it ("much more dynamic and
    difficult to anticipate"); co-op shows only his next Action ("easier to anticipate")."""
    ess = game.state.essedari
    if ess is None:
        return False
    if ess.mode.value == "coop":
        rest = ess.deck[:-1]
        shuffle_sorted(rest, rng)
        ess.deck[:-1] = rest
    else:
        shuffle_sorted(ess.deck, rng)
    return True


SCRAMBLES = (("cards", cards), ("theater", theater), ("essedari deck", essedari_deck))


def determinize(game: Game, viewer: int | None, rng: Rng) -> None:
    """Everything `viewer` may not know sampled again at once (the RNG is the caller's)."""
    for _, scramble in SCRAMBLES:
        scramble(game, viewer, rng)
