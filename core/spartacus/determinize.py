"""What a Spartacus seat may not know, sampled again: the one source for the secrecy checker
(which requires views not to change under it) and the search bot (which plays on the samples).

Every function rewrites, in place, what `viewer` may not know, in a way the rules allow (the
same cards, each pile its size, coins conserved, a hidden bid within its bidder's treasury), so
the rules run on as if it had happened that way. `determinize` samples everything at once, and
its result depends only on what the viewer knows and on `rng`: hidden piles are pooled in sorted
order, hidden commitments are set aside before the treasuries are drawn, and a treasury is drawn
from public figures, so two games the viewer cannot tell apart sample alike (the search bot's
"never peeks" test relies on it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harena.core.deal import deal_again
from harena.core.engine import Game, Rng
from harena.core.spartacus import bets as spartacus_bets
from harena.core.spartacus import reactions, schemes
from harena.core.spartacus.cards import CardKind, TargetRule
from harena.core.spartacus.choices import PlaceBet
from harena.core.spartacus.holdings import committed
from harena.core.spartacus.schemes import may_launch
from harena.core.spartacus.state import Bet, Scheme, SchemeStep

if TYPE_CHECKING:
    from harena.core.spartacus.rules import Spartacus

# The Bank is kept above this: a Bank that runs dry pays short and so tells its total, which no
# game of 400 coins comes near.
BANK_FLOOR = 100


def _spartacus(game: Game) -> Spartacus:
    """`game`, which is a Spartacus: the rules' own functions take one."""
    from harena.core.spartacus.rules import Spartacus  # not at the top: the rules import bots

    assert isinstance(game, Spartacus)
    return game


def scheme_of(game: Game) -> Scheme | None:
    it = game.state.intrigue
    return None if it is None else it.scheme


def scheme_known_to(game: Game, viewer: int | None) -> bool:
    """rules: Seeking Support - "you don't need to show the Scheme": known to its schemer, to
    everyone it was shown to, and to all once it is launched."""
    sc = scheme_of(game)
    return (
        sc is None
        or viewer == sc.schemer
        or sc.revealed
        or sc.step in (SchemeStep.REACT, SchemeStep.PICK)
    )


def _intrigue_piles(game: Game, viewer: int | None) -> list[list[int]]:
    s = game.state
    return [p.hand for seat, p in enumerate(s.players) if seat != viewer] + [s.intrigue_deck]


def _scheme_swappable(game: Game, viewer: int | None) -> bool:
    sc = scheme_of(game)
    return sc is not None and not scheme_known_to(game, viewer) and sc.step is not SchemeStep.PAY


def intrigue(game: Game, viewer: int | None, rng: Rng) -> bool:
    """Other Dominus' Intrigue hands and the deck (its order too), dealt again; a hidden Scheme's
    card goes into the pool too and is then drawn again (`hidden_scheme`)."""
    piles = _intrigue_piles(game, viewer)
    sc = scheme_of(game)
    if sc is None or not _scheme_swappable(game, viewer):
        deal_again(piles, rng)
        return True
    held = [sc.card]
    deal_again([*piles, held], rng)
    sc.card = held[0]
    hidden_scheme(game, viewer, rng, keep=True)
    return True


def market(game: Game, viewer: int | None, rng: Rng) -> bool:
    """The Market deck and the lots still face down on the Arena board."""
    s = game.state
    piles = [s.market_deck] + ([s.market.lots] if s.market is not None else [])
    deal_again(piles, rng)
    return True


def hidden_scheme(game: Game, viewer: int | None, rng: Rng, *, keep: bool = False) -> bool:
    """A hidden Scheme could be any Scheme the schemer might hold and could launch, aimed at
    any seat it may target: its card swaps places with one from the hidden cards (`keep`: or
    stays, when it is one of them itself)."""
    sc = scheme_of(game)
    if sc is None or not _scheme_swappable(game, viewer):
        return False
    it = game.state.intrigue
    schemer = game.state.players[sc.schemer]
    rules = _spartacus(game)

    def fits(c: int) -> bool:
        card = rules.card(c)
        if card.kind is not CardKind.SCHEME or c in it.asked:
            return False
        if not may_launch(rules, sc.schemer, c):
            return False
        if sc.step is SchemeStep.TARGET and card.target is TargetRule.SELF:
            return False  # a Scheme at yourself skips the target step
        if sc.step is not SchemeStep.TARGET and card.influence <= schemer.influence:
            return False  # it would have been launched at once
        return True

    held = [sc.card]
    options = [(pile, k) for pile in _intrigue_piles(game, viewer) for k, c in enumerate(pile)]
    options = [(pile, k) for pile, k in options if fits(pile[k])]
    if keep and fits(sc.card):
        options.append((held, 0))
    if not options:
        return False
    pile, k = rng.choice(options)
    pile[k], sc.card = held[0], pile[k]
    if sc.step is not SchemeStep.TARGET:
        rule = rules.card(sc.card).target
        targets = [sc.schemer] if rule is TargetRule.SELF else [
            t for t in range(game.players) if rule is TargetRule.ANY or t != sc.schemer
        ]  # fmt: skip
        sc.target = rng.choice(targets)
    return True


def _hidden_others(game: Game, viewer: int | None) -> list[int]:
    return [seat for seat, p in enumerate(game.state.players) if seat != viewer and p.hidden]


def treasuries(game: Game, viewer: int | None, rng: Rng) -> bool:
    """rules: Closing the Open Market - closed treasuries are hidden, and so is the Bank. Any
    other sum a hidden treasury might hold (never less than it has promised), drawn around the
    treasuries the viewer can see; the Bank takes the rest (the box's total is known), kept
    above BANK_FLOOR."""
    s = game.state
    hidden = _hidden_others(game, viewer)
    if not hidden:
        return False
    seen = [p.denarii for seat, p in enumerate(s.players) if seat not in hidden]
    typical = sum(seen) // len(seen) if seen else s.coins // (4 * game.players)
    shared = s.coins - sum(seen)  # what the hidden treasuries and the Bank hold together
    for seat in hidden:
        low = committed(_spartacus(game), seat)
        spare = max(0, shared - BANK_FLOOR - low)
        new = low if rng.below(3) == 0 else low + rng.below(2 * typical + 1)
        s.players[seat].denarii = min(new, low + spare)
        shared -= s.players[seat].denarii
    s.bank = shared
    return True


def bids(game: Game, viewer: int | None, rng: Rng) -> bool:
    """rules: Auction - bids are secret until all are in: another sum each bidder could bid."""
    s = game.state
    a = s.market.auction if s.market is not None else None
    if a is None:
        return False
    changed = False
    for seat in a.bidders:
        if seat != viewer and a.bids[seat] is not None:
            most = s.players[seat].denarii - a.totals[seat]
            if most >= 0:
                a.bids[seat] = rng.below(most + 1)
                changed = True
    return changed


def placed_bets(game: Game, viewer: int | None, rng: Rng) -> bool:
    """rules: Making Bets - in secret until all are in: any other bet that seat could place."""
    a = game.state.arena
    if a is None or a.staked or not a.bets:
        return False
    changed = False
    for seat in range(game.players):
        if seat == viewer or not a.betted[seat]:
            continue
        a.bets[seat] = None  # what the seat could bet, its own bet not yet placed
        chosen = rng.choice(list(spartacus_bets.prompt(_spartacus(game), seat).choices))
        if isinstance(chosen, PlaceBet):
            a.bets[seat] = Bet(chosen.on.value, chosen.seat, chosen.amount)
        changed = True
    return changed


def support_answers(game: Game, viewer: int | None, rng: Rng) -> bool:
    """rules: Seeking Support - answers are revealed together: any other answers given so far."""
    sc = scheme_of(game)
    if sc is None or sc.step is not SchemeStep.SUPPORT:
        return False
    changed = False
    for seat, answer in enumerate(sc.answers):
        if seat not in (viewer, sc.schemer) and answer is not None:
            sc.answers[seat] = rng.below(2) == 1
            changed = True
    return changed


def window_answers(game: Game, viewer: int | None, rng: Rng) -> bool:
    """rules: Reactions - answered like support, in secret until all are in: any other answer
    each asked seat could give (pass, or a Reaction it could play)."""
    w = game.state.window
    if w is None:
        return False
    changed = False
    for seat in w.asked:
        if seat != viewer and w.answers[seat] is not None:
            w.answers[seat] = rng.choice(
                ["pass"] + [f"react:{c}" for c in reactions.usable(_spartacus(game), w, seat)]
            )
            changed = True
    return changed


def scheme_replies(game: Game, viewer: int | None, rng: Rng) -> bool:
    """rules: Canceling a Scheme - the replies to a launched Scheme are secret until all are
    in (docs/rulings.md): any other reply each asked seat could give."""
    sc = scheme_of(game)
    if sc is None or sc.step is not SchemeStep.REACT:
        return False
    changed = False
    for seat in sc.queue:
        if seat != viewer and sc.replies[seat] is not None:
            replies = schemes.reactions_of(_spartacus(game), sc, seat)
            sc.replies[seat] = rng.choice([c.id for c in replies])
            changed = True
    return changed


def _set_aside_commitments(game: Game, viewer: int | None) -> None:
    """Others' hidden bids and bets, cleared before the treasuries are drawn (and drawn again
    after), so the draw does not depend on them."""
    s = game.state
    a = s.market.auction if s.market is not None else None
    if a is not None:
        for seat in a.bidders:
            if seat != viewer and a.bids[seat] is not None:
                a.bids[seat] = 0
    arena = s.arena
    if arena is not None and arena.bets and not arena.staked:
        for seat in range(game.players):
            if seat != viewer and arena.betted[seat]:
                arena.bets[seat] = None


def determinize(game: Game, viewer: int | None, rng: Rng) -> None:
    """Everything `viewer` may not know sampled again at once (the RNG is the caller's)."""
    _set_aside_commitments(game, viewer)
    treasuries(game, viewer, rng)
    intrigue(game, viewer, rng)
    market(game, viewer, rng)
    bids(game, viewer, rng)
    placed_bets(game, viewer, rng)
    support_answers(game, viewer, rng)
    window_answers(game, viewer, rng)
    scheme_replies(game, viewer, rng)
