"""What each game keeps hidden, for the secrecy checker (`tests/core/secrecy.py`).

Written from the rules, not from the view code: a model says what a seat may not know and
which choices are secret; the checker then requires the views not to depend on either. Every
scramble keeps the game legal (the same cards, each pile its size, coins conserved, a hidden
bid within its bidder's treasury), so the rules code runs on as if it had happened that way.
"""

from __future__ import annotations

from typing import Any

from harena.core.carthage.rules import Carthage
from harena.core.engine import Game, Rng
from harena.core.spartacus import bets as spartacus_bets
from harena.core.spartacus import reactions, schemes
from harena.core.spartacus.cards import CardKind, TargetRule
from harena.core.spartacus.holdings import committed
from harena.core.spartacus.rules import Spartacus
from harena.core.spartacus.schemes import may_launch
from harena.core.spartacus.state import Bet, Scheme, SchemeStep
from tests.core.secrecy import Scramble, SecrecyModel, Secret

BANK_FLOOR = 100


def deal_again(piles: list[list[Any]], rng: Rng) -> None:
    """The cards of `piles` dealt back at random, each pile keeping its size."""
    pool = [c for pile in piles for c in pile]
    rng.shuffle(pool)
    for pile in piles:
        pile[:], pool = pool[: len(pile)], pool[len(pile) :]


def _others(game: Game, *knowers: int) -> tuple[int | None, ...]:
    return tuple(s for s in range(game.players) if s not in knowers) + (None,)


# --- Carthage -------------------------------------------------------------------------------------


def _carthage_cards(game: Game, viewer: int | None, rng: Rng) -> bool:
    """rulebook: hands are hidden, decks face down. Another seat's hand and deck together are
    known (its cards are public as they are bought and discarded), not how they are split;
    your own deck's order is hidden from you too, and the Action deck's from everyone."""
    s = game.state
    for seat, p in enumerate(s.players):
        if seat == viewer:
            rng.shuffle(p.deck)
        else:
            deal_again([p.hand, p.deck], rng)
    rng.shuffle(s.action_deck)
    return True


def _carthage_theater(game: Game, viewer: int | None, rng: Rng) -> bool:
    """The Theater deck's order; a lobbied top card is known to its lobbier (or to all once
    revealed); kept secret, it could have been any card of the pile the Lobby chose from."""
    assert isinstance(game, Carthage)
    s = game.state
    lobbied = s.lobbied
    if lobbied is None or not s.theater_deck:
        rng.shuffle(s.theater_deck)
        return True
    if lobbied.revealed or lobbied.seat == viewer:
        top = s.theater_deck.pop()
        rng.shuffle(s.theater_deck)
        s.theater_deck.append(top)
        return True
    pool = game.lobby_pool()
    rest = s.theater_deck[:-1]
    rng.shuffle(rest)
    card = rng.choice(sorted(set(pool)))
    index = len(pool) - 1 - pool[::-1].index(card)
    s.theater_discard = pool[:index] + pool[index + 1 :]
    s.theater_deck = rest + [card]
    lobbied.index = index
    return True


def _essedari_deck(game: Game, viewer: int | None, rng: Rng) -> bool:
    """The Essedari Maximo's deck order: solo shows none of it ("much more dynamic and
    difficult to anticipate"); co-op shows only his next Action ("easier to anticipate")."""
    ess = game.state.essedari
    if ess is None:
        return False
    if ess.mode.value == "coop":
        rest = ess.deck[:-1]
        rng.shuffle(rest)
        ess.deck[:-1] = rest
    else:
        rng.shuffle(ess.deck)
    return True


def _carthage_secret(game: Game, seat: int, choice: str) -> Secret | None:
    """rulebook: Lobby - the lobbier "chooses if they'd like to reveal the card"."""
    if not choice.startswith("lobby:"):
        return None
    lobbies = tuple(
        c.id for p in game.prompts_for(seat) for c in p.choices if c.id.startswith("lobby:")
    )

    def still_secret(g: Game) -> bool:
        lobbied = g.state.lobbied
        return lobbied is not None and not lobbied.revealed and lobbied.seat == seat

    return Secret(lobbies, _others(game, seat), still_secret)


CARTHAGE = SecrecyModel(
    scrambles=(
        Scramble("cards", _carthage_cards),
        Scramble("theater", _carthage_theater),
        Scramble("essedari deck", _essedari_deck),
    ),
    secret=_carthage_secret,
)


# --- Spartacus ------------------------------------------------------------------------------------


def _scheme(game: Game) -> Scheme | None:
    it = game.state.intrigue
    return None if it is None else it.scheme


def scheme_known_to(game: Game, viewer: int | None) -> bool:
    """rules: Seeking Support - "you don't need to show the Scheme": known to its schemer, to
    everyone it was shown to, and to all once it is launched."""
    sc = _scheme(game)
    return (
        sc is None
        or viewer == sc.schemer
        or sc.revealed
        or sc.step in (SchemeStep.REACT, SchemeStep.PICK)
    )


def _intrigue_piles(game: Game, viewer: int | None) -> list[list[int]]:
    s = game.state
    return [p.hand for seat, p in enumerate(s.players) if seat != viewer] + [s.intrigue_deck]


def _spartacus_intrigue(game: Game, viewer: int | None, rng: Rng) -> bool:
    """Other Dominus' Intrigue hands and the deck (its order too), dealt again."""
    deal_again(_intrigue_piles(game, viewer), rng)
    return True


def _spartacus_market(game: Game, viewer: int | None, rng: Rng) -> bool:
    """The Market deck and the lots still face down on the Arena board."""
    s = game.state
    piles = [s.market_deck] + ([s.market.lots] if s.market is not None else [])
    deal_again(piles, rng)
    return True


def _spartacus_scheme(game: Game, viewer: int | None, rng: Rng) -> bool:
    """A hidden Scheme could be any Scheme the schemer might hold and could launch, aimed at
    any seat it may target: its card swaps places with one from the hidden cards."""
    assert isinstance(game, Spartacus)
    sc = _scheme(game)
    if sc is None or scheme_known_to(game, viewer) or sc.step is SchemeStep.PAY:
        return False
    it = game.state.intrigue
    assert it is not None
    schemer = game.state.players[sc.schemer]
    options = []
    for pile in _intrigue_piles(game, viewer):
        for k, c in enumerate(pile):
            card = game.card(c)
            if card.kind is not CardKind.SCHEME or c in it.asked:
                continue
            if not may_launch(game, sc.schemer, c):
                continue
            if sc.step is SchemeStep.TARGET and card.target is TargetRule.SELF:
                continue  # a Scheme at yourself skips the target step
            if sc.step is not SchemeStep.TARGET and card.influence <= schemer.influence:
                continue  # it would have been launched at once
            options.append((pile, k))
    if not options:
        return False
    pile, k = rng.choice(options)
    pile[k], sc.card = sc.card, pile[k]
    if sc.step is not SchemeStep.TARGET:
        rule = game.card(sc.card).target
        targets = [sc.schemer] if rule is TargetRule.SELF else [
            t for t in range(game.players) if rule is TargetRule.ANY or t != sc.schemer
        ]  # fmt: skip
        sc.target = rng.choice(targets)
    return True


def _spartacus_treasuries(game: Game, viewer: int | None, rng: Rng) -> bool:
    """rules: Closing the Open Market - closed treasuries are hidden, and so is the Bank. Any
    other sum a hidden treasury might hold (never less than it has promised in bids), the
    difference taken from or given to the Bank. The Bank is kept above BANK_FLOOR: a Bank that
    runs dry pays short and so tells its total, which no game of 400 coins comes near."""
    s = game.state
    changed = False
    for seat, p in enumerate(s.players):
        if seat == viewer or not p.hidden:
            continue
        low = committed(game, seat)
        high = p.denarii + max(0, s.bank - BANK_FLOOR)
        if high <= low:
            continue
        new = low if rng.below(3) == 0 else low + rng.below(high - low + 1)
        s.bank += p.denarii - new
        p.denarii = new
        changed = True
    return changed


def _spartacus_bids(game: Game, viewer: int | None, rng: Rng) -> bool:
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


def _spartacus_bets(game: Game, viewer: int | None, rng: Rng) -> bool:
    """rules: Making Bets - in secret until all are in: any other bet that seat could place."""
    a = game.state.arena
    if a is None or a.staked or not a.bets:
        return False
    changed = False
    for seat in range(game.players):
        if seat == viewer or not a.betted[seat]:
            continue
        mine = a.bets[seat]
        a.bets[seat] = None  # what the seat could bet, its own bet not yet placed
        choices = [c.id for c in spartacus_bets.prompt(game, seat).choices]
        a.bets[seat] = mine
        parts = rng.choice(choices).split(":")[1:]
        if parts[0] == "win":
            a.bets[seat] = Bet("win", int(parts[1]), int(parts[2]))
        elif parts[0] in ("wound", "decap"):
            a.bets[seat] = Bet(parts[0], -1, int(parts[1]))
        else:
            a.bets[seat] = None
        changed = True
    return changed


def _spartacus_answers(game: Game, viewer: int | None, rng: Rng) -> bool:
    """rules: Seeking Support - answers are revealed together: any other answers given so far."""
    sc = _scheme(game)
    if sc is None or sc.step is not SchemeStep.SUPPORT:
        return False
    changed = False
    for seat, answer in enumerate(sc.answers):
        if seat not in (viewer, sc.schemer) and answer is not None:
            sc.answers[seat] = rng.below(2) == 1
            changed = True
    return changed


def _spartacus_window_answers(game: Game, viewer: int | None, rng: Rng) -> bool:
    """rules: Reactions - answered like support, in secret until all are in: any other answer
    each asked seat could give (pass, or a Reaction it could play)."""
    assert isinstance(game, Spartacus)
    w = game.state.window
    if w is None:
        return False
    changed = False
    for seat in w.asked:
        if seat != viewer and w.answers[seat] is not None:
            w.answers[seat] = rng.choice(
                ["pass"] + [f"react:{c}" for c in reactions.usable(game, w, seat)]
            )
            changed = True
    return changed


def _spartacus_scheme_replies(game: Game, viewer: int | None, rng: Rng) -> bool:
    """rules: Canceling a Scheme - the replies to a launched Scheme are secret until all are
    in (docs/rulings.md): any other reply each asked seat could give."""
    sc = _scheme(game)
    if sc is None or sc.step is not SchemeStep.REACT:
        return False
    changed = False
    for seat in sc.queue:
        if seat != viewer and sc.replies[seat] is not None:
            options = [c.id for c in schemes._reactions(game, sc, seat)]
            sc.replies[seat] = rng.choice(options)
            changed = True
    return changed


def _replies_hidden(game: Game, viewer: int | None) -> bool:
    sc = _scheme(game)
    return sc is not None and sc.step is SchemeStep.REACT


def _window_open(game: Game, viewer: int | None) -> bool:
    return game.state.window is not None


def _treasuries_hidden(game: Game, viewer: int | None) -> bool:
    return any(p.hidden for seat, p in enumerate(game.state.players) if seat != viewer)


def _bids_hidden(game: Game, viewer: int | None) -> bool:
    s = game.state
    a = s.market.auction if s.market is not None else None
    return a is not None and any(b is not None for k, b in enumerate(a.bids) if k != viewer)


def _bets_hidden(game: Game, viewer: int | None) -> bool:
    a = game.state.arena
    return a is not None and bool(a.bets) and not a.staked


def _answers_hidden(game: Game, viewer: int | None) -> bool:
    sc = _scheme(game)
    return sc is not None and sc.step is SchemeStep.SUPPORT


def _scheme_hidden(game: Game, viewer: int | None) -> bool:
    return _scheme(game) is not None and not scheme_known_to(game, viewer)


_SECRET_KINDS = ("bid", "bet", "support_scheme", "reaction", reactions.PROMPT_KIND)
# the drafter's decisions that stay theirs until the offer (or counter) is sent: to whom, each
# card picked either way, the denarii
_DRAFT_STEPS = {("open_market", "offer"), ("compose_offer", "offer-card"),
                ("compose_offer", "offer-price")}  # fmt: skip


def _drafting(game: Game, seat: int) -> bool:
    m = game.state.market
    return m is not None and any(o.draft is not None and o.answer == seat for o in m.offers)


def _spartacus_secret(game: Game, seat: int, choice: str) -> Secret | None:
    prompt = next(
        (p for p in game.prompts_for(seat) if any(c.id == choice for c in p.choices)), None
    )
    if prompt is None:
        return None
    ids = tuple(c.id for c in prompt.choices)
    s = game.state
    if prompt.kind in _SECRET_KINDS:
        # revealed when all are in: until then the seat's slot holds its hidden decision
        def still_secret(g: Game) -> bool:
            gs = g.state
            if prompt.kind == "bid":
                a = gs.market.auction if gs.market is not None else None
                return a is not None and a.bids[seat] is not None
            if prompt.kind == "bet":
                return gs.arena is not None and gs.arena.betted[seat] and not gs.arena.staked
            if prompt.kind == reactions.PROMPT_KIND:
                return gs.window is not None and gs.window.answers[seat] is not None
            sc = _scheme(g)
            if prompt.kind == "reaction":
                return (sc is not None and sc.step is SchemeStep.REACT
                        and sc.replies[seat] is not None)  # fmt: skip
            return sc is not None and sc.step is SchemeStep.SUPPORT and sc.answers[seat] is not None

        return Secret(ids, _others(game, seat), still_secret)
    if choice.startswith("scheme:") or choice.startswith("target:"):
        # rules: Set Up Schemes - the card and its target are the schemer's until shown
        verb = choice.split(":")[0]
        alternatives = tuple(i for i in ids if i.startswith(verb + ":"))
        return Secret(alternatives, _others(game, seat), lambda g: _scheme_hidden(g, None))
    verb = choice.split(":")[0]
    if (prompt.kind, verb) in _DRAFT_STEPS:
        # an offer is its drafter's own until it is sent: to whom, what it gives and asks, the
        # denarii. Only the drafter's own later moves end the draft (what others do must not)
        alternatives = tuple(i for i in ids if i.split(":")[0] == verb)
        return Secret(alternatives, _others(game, seat), lambda g: _drafting(g, seat))
    if choice.startswith("give:"):
        # rules: Closing the Open Market - between two hidden treasuries, a gift's sum is
        # theirs alone (an open treasury shows any coins that leave or reach it)
        taker = int(choice.split(":")[1])
        if not (s.players[seat].hidden and s.players[taker].hidden):
            return None
        prefix = choice.rsplit(":", 1)[0] + ":"
        alternatives = tuple(i for i in ids if i.startswith(prefix))

        def both_hidden(g: Game) -> bool:
            return g.state.players[seat].hidden and g.state.players[taker].hidden

        return Secret(alternatives, _others(game, seat, taker), both_hidden)
    return None


SPARTACUS = SecrecyModel(
    scrambles=(
        Scramble("intrigue cards", _spartacus_intrigue),
        Scramble("market deck and lots", _spartacus_market),
        Scramble("hidden scheme", _spartacus_scheme, _scheme_hidden),
        Scramble("hidden treasuries", _spartacus_treasuries, _treasuries_hidden),
        Scramble("hidden bids", _spartacus_bids, _bids_hidden),
        Scramble("hidden bets", _spartacus_bets, _bets_hidden),
        Scramble("support answers", _spartacus_answers, _answers_hidden),
        Scramble("reaction window answers", _spartacus_window_answers, _window_open),
        Scramble("scheme reaction replies", _spartacus_scheme_replies, _replies_hidden),
    ),
    secret=_spartacus_secret,
)

MODELS = {"carthage": CARTHAGE, "spartacus": SPARTACUS}
