"""What one seat may know about a game of Spartacus, as plain data (None: a spectator).

Public: Influence, the cards on every house's table (with markers and exhaustion), hand sizes,
the discard piles, deck sizes, the Host, offers made in the Open Market, revealed lots and bids,
bets once revealed, the fight. Private: your own Intrigue hand; your own denarii while hidden
(others see `None`, and the Bank's total is hidden too, or it would give the sum away); your own
bid and bet until all are in; your answer in a Reaction window; a Scheme's card and target until it is launched or shown to the
players asked for support. Never: deck order, face-down lots, the seed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from harena.core.engine import LazyDict
from harena.core.spartacus import asks
from harena.core.spartacus.state import GUARD_SAVES_FROM, SchemeStep

if TYPE_CHECKING:
    from harena.core.spartacus.rules import Spartacus


def board_view(game: Spartacus, seat: int | None) -> dict[str, Any]:
    return {key: part(game, seat) for key, part in PARTS.items()}


def lazy_board_view(game: Spartacus, seat: int | None) -> LazyDict:
    """`board_view`, each part built when first read (see `LazyDict`): a search playout's
    policy reads a few parts of it a move."""
    return LazyDict(PARTS, game, seat)


def _players(game: Spartacus, seat: int | None) -> list[dict[str, Any]]:
    s = game.state
    info = game.card_info()
    players = []
    for i, p in enumerate(s.players):
        players.append(
            {
                "seat": i,
                "house": p.house,
                "name": game.name_of(i),
                "influence": p.influence,
                "denarii": None if p.hidden and i != seat else p.denarii,
                "hidden": p.hidden,
                "hand_size": len(p.hand),
                "hand_limit": game.content.hand_limit(p.influence),
                "assets": [
                    {
                        "ref": a.card,
                        "card": info[a.card][0],
                        "name": info[a.card][1],
                        "kind": info[a.card][2],
                        "exhausted": a.exhausted,
                        "wounded": a.wounded,
                        "favor": a.favor,
                        "champion": a.champion,
                    }
                    for a in p.assets
                ],
            }
        )
    return players


def _hand(game: Spartacus, seat: int | None) -> list[list[Any]] | None:
    s = game.state
    if seat is None:
        return None
    return [[c, s.cards[c], game.card(c).name] for c in s.players[seat].hand]


def _bank(game: Spartacus, seat: int | None) -> int | None:
    s = game.state
    return None if any(p.hidden for p in s.players) else s.bank


def _my_gifts(game: Spartacus, seat: int | None) -> list[list[Any]]:
    """Gifts this round that this seat gave or received (its log says as much)."""
    return [] if seat is None else [list(g) for g in game.state.gifts if seat in g[:2]]


def _pile(cards: list[str], pile: list[int]) -> dict[str, Any]:
    """A face-up discard pile: its size and the card on top (the rest is under it)."""
    return {"size": len(pile), "top": cards[pile[-1]] if pile else None}


def _intrigue(game: Spartacus, seat: int | None) -> dict[str, Any] | None:
    it = game.state.intrigue
    if it is None:
        return None
    scheme = None
    sc = it.scheme
    if sc is not None:
        launched = sc.step in (SchemeStep.REACT, SchemeStep.PICK)
        # shown to those asked, it stays shown while Solonius decides whether to pay
        known = launched or seat == sc.schemer or sc.revealed
        scheme = {
            "schemer": sc.schemer,
            "step": sc.step.value
            if sc.step in (SchemeStep.SUPPORT, SchemeStep.REACT, SchemeStep.PICK)
            else "preparing",
            "card": game.state.cards[sc.card] if known else None,
            "target": sc.target if known and sc.target >= 0 else None,
            # while the answers are still coming in, only who has answered is public
            "answered": [a is not None for a in sc.answers],
            "answers": [None] * len(sc.answers)
            if sc.step is SchemeStep.SUPPORT
            else list(sc.answers),
        }
        if sc.step is SchemeStep.REACT:
            # the reaction window: who is asked and who has replied are public, not what
            scheme["asked"] = list(sc.queue)
            scheme["replied"] = [sc.replies[s] is not None for s in range(game.players)]
            if seat is not None:
                scheme["my_reply"] = sc.replies[seat]
        if sc.step is SchemeStep.SUPPORT and seat is not None:
            scheme["my_answer"] = sc.answers[seat]
    return {
        "turn": it.turn,
        "turns_done": it.turns_done,
        "discarding": it.discarding,
        "scheme": scheme,
        "guard_roll": None
        if not it.guard_roll
        else {"seat": it.guard_roll[0], "roll": it.guard_roll[1], "saves_from": GUARD_SAVES_FROM},
    }


def _window(game: Spartacus, seat: int | None) -> dict[str, Any] | None:
    """A Reaction window: the event and who is asked are public; who has answered too, but not
    what (your own answer: to you)."""
    w = game.state.window
    if w is None:
        return None
    return {
        "event": w.event,
        "seat": w.seat,
        "card": game.state.cards[w.card],
        "ref": w.card,
        "price": w.price,
        "asked": list(w.asked),
        "answered": [w.answers[s] is not None for s in range(game.players)],
        "my_answer": None if seat is None else w.answers[seat],
    }


def _market(game: Spartacus, seat: int | None) -> dict[str, Any] | None:
    m = game.state.market
    if m is None:
        return None
    offers = [
        {"id": o.id, "proposer": o.proposer, "recipient": o.recipient,
         "give": list(o.terms.give), "want": list(o.terms.want), "price": o.terms.price,
         "answer": o.answer, "counters": o.counters, "countering": o.draft is not None}
        for o in m.offers if o.sent
    ]  # fmt: skip
    # A draft is its drafter's alone until sent (a counter's too: the terms sent stay shown).
    draft = next((o for o in m.offers if o.draft is not None and o.answer == seat), None)
    mine = None
    if draft is not None and draft.draft is not None:
        mine = {"id": draft.id, "proposer": draft.proposer, "recipient": draft.recipient,
                "give": list(draft.draft.give), "want": list(draft.draft.want),
                "price": draft.draft.price}  # fmt: skip
    auction = None
    a = m.auction
    if a is not None:
        auction = {
            "card": None if a.card is None else game.state.cards[a.card],
            "host_title": a.card is None,
            "bidders": list(a.bidders),
            "has_bid": [a.bids[s] is not None for s in range(game.players)],
            "on_table": list(a.totals),
            "my_bid": None if seat is None else a.bids[seat],
        }
    last = None
    if m.last_sale:
        card, winner, price = m.last_sale
        last = {
            "card": None if card < 0 else game.state.cards[card],
            "winner": None if winner < 0 else winner,
            "price": price,
            "bids": [None if b < 0 else b for b in m.last_bids],
        }
    return {
        "last": last,
        "closed": list(m.closed),
        "offers_made": list(m.offers_made),
        "offers": offers,
        "offer_limit": m.offer_limit,
        "my_draft": mine,
        "lots_left": len(m.lots),
        "auction": auction,
    }


def _arena(game: Spartacus, seat: int | None) -> dict[str, Any] | None:
    a = game.state.arena
    if a is None:
        return None
    fighters = [
        {"seat": f.seat, "card": game.state.cards[f.card], "ref": f.card,
         "equipment": [game.state.cards[e] for e in f.equipment],
         "atk": f.atk, "def": f.defence, "spd": f.spd, "at": list(f.at)}
        for f in a.fighters
    ]  # fmt: skip
    bets: list[Any] = []
    for s, bet in enumerate(a.bets):
        visible = a.staked or s == seat
        bets.append(
            None
            if bet is None or not visible
            else {"kind": bet.kind, "on": bet.on, "amount": bet.amount}
        )
    fight = None
    if a.fight is not None:
        f = a.fight
        fight = {"round": f.round, "order": list(f.order), "acting": f.acting, "moves": f.moves,
                 "attacked": f.attacked, "damage": f.damage, "defender": f.defender,
                 "roll": {"kind": f.roll_kind, "dice": [list(d) for d in f.roll_dice], "by": f.roll_by}}  # fmt: skip
    return {
        "step": a.step.value,
        "invitee": a.invitee,
        "asked": list(a.asked),
        "fighters": fighters,
        "has_bet": list(a.betted),
        "bets": bets,
        "fight": fight,
        "loser": a.loser,
        "outcome": a.outcome,
        "contenders": list(a.contenders),
    }


# The board view's parts, in the order shown, each from (game, seat).
PARTS: dict[str, Callable[[Spartacus, int | None], Any]] = {
    "round": lambda game, seat: game.state.round,
    "phase": lambda game, seat: game.state.phase.value,
    "host": lambda game, seat: game.state.host,
    "target": lambda game, seat: game.content.target,
    "players": _players,
    "hand": _hand,
    "bank": _bank,
    "market_deck": lambda game, seat: len(game.state.market_deck),
    "intrigue_deck": lambda game, seat: len(game.state.intrigue_deck),
    "market_discard": lambda game, seat: _pile(game.state.cards, game.state.market_discard),
    "intrigue_discard": lambda game, seat: _pile(game.state.cards, game.state.intrigue_discard),
    "intrigue": _intrigue,
    "market": _market,
    "my_gifts": _my_gifts,
    "asks": asks.view,  # open asks, public (see `asks`)
    "moments": lambda game, seat: asks.moments_view(game),  # the favours that may be asked now
    "arena": _arena,
    "window": _window,
    "arena_board": lambda game, seat: {
        "radius": game.content.board.radius,
        "starts": [list(h) for h in game.content.board.starts],
    },
    "winners": lambda game, seat: list(game.state.winners),
    "reason": lambda game, seat: game.state.reason,
}
