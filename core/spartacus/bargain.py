"""How the heuristic bot deals in the Open Market: Bank sales, offers, answers and counters.

Every deal is priced with `valuation` for both sides, from the public board. The bot proposes
only deals that leave both sides better off by its own reckoning of each (it splits the
surplus), so it never makes an offer it would refuse in the other's seat; it accepts any offer
worth at least nothing to it, counters when a deal could still help both (changing the denarii,
or taking back a card it would give), and declines when no terms could.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harena.core.spartacus.content import Content
from harena.core.spartacus.valuation import Appraiser, Asset, Holding, sale_gain

View = dict[str, Any]

MAX_PRICE = 30  # as the market offers it
SURPLUS = 1.0  # a proposal must be worth this much to the two sides together
SELL_FROM = 2.0  # sell to the Bank when the sale beats keeping the card by this much
_TRADED = ("gladiator", "slave", "equipment", "guard")


@dataclass
class Terms:
    """An offer as the proposer builds it: refs of the proposer's and the recipient's cards."""

    proposer: int
    recipient: int
    give: list[int] = field(default_factory=list)
    want: list[int] = field(default_factory=list)
    price: int = 0  # the proposer pays (negative: the recipient pays)


def assets(view: View, seat: int) -> list[Asset]:
    return [a for a in view["board"]["players"][seat]["assets"] if a["kind"] in _TRADED]


def spendable(view: View, seat: int) -> int:
    """Denarii a House can pay and still meet next round's upkeep (hidden counts as none)."""
    p = view["board"]["players"][seat]
    upkeep = sum(1 for a in p["assets"] if a["kind"] == "gladiator")
    return max(0, (p["denarii"] or 0) - upkeep - 1)


def gain(content: Content, view: View, seat: int, t: Terms) -> float:
    """What terms `t` are worth to `seat` (one of its two sides)."""
    return Pricer(content, view).gain(seat, t)


def possible(view: View, t: Terms) -> bool:
    """Every card named is still on its side's table (another deal may have moved it)."""
    give = {a["ref"] for a in assets(view, t.proposer)}
    want = {a["ref"] for a in assets(view, t.recipient)}
    return set(t.give) <= give and set(t.want) <= want


def split(content: Content, view: View, t: Terms) -> Terms | None:
    """The same cards at the price that shares the surplus evenly (or as near as the payer can
    pay), or None when the two sides together gain too little or either would lose."""
    return Pricer(content, view).split(t)


class Pricer:
    """`gain` and `split` for one view, asked many times in one decision (a proposal round
    prices every card against every card): each House's tradeable cards read once, and the
    cards of a deal valued once for each side, at any price (the price only adds denarii)."""

    def __init__(self, content: Content, view: View) -> None:
        self.view = view
        self.appraiser = Appraiser(content)
        self._assets: dict[int, list[Asset]] = {}
        self._holdings: dict[int, Holding] = {}
        self._by_ref: dict[tuple[int, int], dict[int, Asset]] = {}
        self._cards: dict[tuple[int, int, int, tuple[int, ...], tuple[int, ...]], float] = {}

    def assets(self, seat: int) -> list[Asset]:
        known = self._assets.get(seat)
        if known is None:
            known = self._assets[seat] = assets(self.view, seat)
        return known

    def holding(self, seat: int) -> Holding:
        known = self._holdings.get(seat)
        if known is None:
            known = self._holdings[seat] = self.appraiser.holding(self.assets(seat))
        return known

    def gain(self, seat: int, t: Terms) -> float:
        """As the module's `gain`: the cards' worth to `seat`, plus the denarii it receives."""
        cards = self._cards_gain(seat, t)
        return cards + (-t.price if seat == t.proposer else t.price)

    def _cards_gain(self, seat: int, t: Terms) -> float:
        """What the cards of `t` alone are worth to `seat` (`trade_gain` less the denarii)."""
        key = (seat, t.proposer, t.recipient, tuple(t.give), tuple(t.want))
        known = self._cards.get(key)
        if known is not None:
            return known
        pair = (t.proposer, t.recipient)
        by_ref = self._by_ref.get(pair)
        if by_ref is None:
            by_ref = self._by_ref[pair] = {a["ref"]: a for s in pair for a in self.assets(s)}
        give = [by_ref[r] for r in t.give if r in by_ref]
        want = [by_ref[r] for r in t.want if r in by_ref]
        house = self.view["board"]["players"][seat]["house"]
        holding = self.holding(seat)
        if seat == t.proposer:
            gets, gives = want, give
        else:
            gets, gives = give, want
        # trade_gain's `got - lost + denarii_in` with no denarii: `gain` adds them after, the
        # same sum in the same order
        known = self._cards[key] = self.appraiser.trade_gain(house, holding, gets, gives, 0)
        return known

    def split(self, t: Terms) -> Terms | None:
        """As the module's `split`."""
        view = self.view
        base = Terms(t.proposer, t.recipient, list(t.give), list(t.want), 0)
        mine = self.gain(t.proposer, base)
        theirs = self.gain(t.recipient, base)
        surplus = mine + theirs
        if surplus < 1.0:
            return None
        price = round(mine - surplus / 2)  # what the proposer pays to be left with half
        # a payer short of the fair sum pays what it can, if that still leaves the other no worse
        price = max(-min(spendable(view, t.recipient), MAX_PRICE),
                    min(price, spendable(view, t.proposer), MAX_PRICE))  # fmt: skip
        base.price = price
        if self.gain(t.proposer, base) < 0 or self.gain(t.recipient, base) < 0:
            return None
        return base


class Bargainer:
    """The Market half of the heuristic bot; it remembers its plans between decisions."""

    def __init__(self, content: Content) -> None:
        self.content = content
        self.plan: Terms | None = None
        self.asked: set[tuple[int, int]] = set()  # (round, seat) already sent an offer

    # -- the Open Market ------------------------------------------------------------------------

    def open_market(self, view: View, ids: list[str]) -> str:
        me = view["seat"]
        board = view["board"]
        sale = self._sale(view, ids)
        if sale is not None:
            return sale
        pricer = Pricer(self.content, view)
        best: tuple[float, Terms] | None = None
        for other in range(len(board["players"])):
            if f"offer:{other}" not in ids or (board["round"], other) in self.asked:
                continue
            for t in self._proposals(pricer, me, other):
                surplus = pricer.gain(me, t) + pricer.gain(other, t)
                if best is None or surplus > best[0]:
                    best = (surplus, t)
        if best is not None and best[0] >= SURPLUS:
            self.plan = best[1]
            self.asked.add((board["round"], best[1].recipient))
            return f"offer:{best[1].recipient}"
        return "close"

    def _sale(self, view: View, ids: list[str]) -> str | None:
        me = view["seat"]
        house = view["board"]["players"][me]["house"]
        holding = assets(view, me)
        short = spendable(view, me) == 0 and (view["board"]["players"][me]["denarii"] or 0) < sum(
            1 for a in holding if a["kind"] == "gladiator")  # fmt: skip
        options = [(sale_gain(self.content, house, holding, a), a["ref"]) for a in holding
                   if f"bank:{a['ref']}" in ids]  # fmt: skip
        if not options:
            return None
        best, ref = max(options)
        if best >= SELL_FROM or (short and best >= 0):
            return f"bank:{ref}"
        return None

    def _proposals(self, pricer: Pricer, me: int, other: int) -> list[Terms]:
        """Buy one of theirs, sell one of mine, or swap one for one: each at the fair price."""
        mine = [a["ref"] for a in pricer.assets(me)]
        theirs = [a["ref"] for a in pricer.assets(other)]
        shapes = [([], [c]) for c in theirs] + [([m], []) for m in mine]
        shapes += [([m], [c]) for m in mine for c in theirs]
        out = []
        for give, want in shapes:
            t = pricer.split(Terms(me, other, give, want))
            if t is not None:
                out.append(t)
        return out

    # -- composing ------------------------------------------------------------------------------

    def compose(self, view: View, ids: list[str]) -> str:
        draft = view["board"]["market"]["my_draft"]
        plan = self.plan
        if draft is None or plan is None or (draft["proposer"], draft["recipient"]) != (
                plan.proposer, plan.recipient):  # fmt: skip
            return "offer-cancel"
        wanted = set(plan.give) | set(plan.want)
        have = set(draft["give"]) | set(draft["want"])
        for ref in sorted(wanted ^ have):
            if f"offer-card:{ref}" in ids:
                return f"offer-card:{ref}"
            self.plan = None
            return "offer-cancel"  # a card it meant to trade is gone
        if draft["price"] != plan.price:
            sums = [int(c.split(":")[1]) for c in ids if c.startswith("offer-price:")]
            closer = [n for n in sums if abs(n - plan.price) < abs(draft["price"] - plan.price)]
            if not closer:
                self.plan = None
                return "offer-cancel"
            return f"offer-price:{min(closer, key=lambda n: abs(n - plan.price))}"
        self.plan = None
        return "offer-send" if "offer-send" in ids else "offer-cancel"

    # -- answering ------------------------------------------------------------------------------

    def answer(self, view: View, ids: list[str]) -> str:
        offer_id = int(ids[0].split(":")[1])
        o = next(o for o in view["board"]["market"]["offers"] if o["id"] == offer_id)
        me = view["seat"]
        t = Terms(o["proposer"], o["recipient"], list(o["give"]), list(o["want"]), o["price"])
        if not possible(view, t):
            return f"decline:{offer_id}"  # it would fall through
        pricer = Pricer(self.content, view)
        if pricer.gain(me, t) >= 0:
            return f"accept:{offer_id}"
        counter = self.counter(view, t, pricer) if f"counter:{offer_id}" in ids else None
        if counter is None:
            return f"decline:{offer_id}"
        self.plan = counter
        return f"counter:{offer_id}"

    def counter(self, view: View, t: Terms, pricer: Pricer | None = None) -> Terms | None:
        """Terms both sides gain from: the same cards at a fair price, or without one of the
        cards asked of me; None when there are none. (`pricer`: one already made for `view`.)"""
        me = view["seat"]
        pricer = pricer or Pricer(self.content, view)
        mine = t.give if me == t.proposer else t.want
        options = [t] + [
            Terms(
                t.proposer,
                t.recipient,
                [c for c in t.give if c != r],
                [c for c in t.want if c != r],
            )
            for r in mine
        ]
        best: tuple[float, Terms] | None = None
        for option in options:
            if not option.give and not option.want:
                continue
            fair = pricer.split(option)
            if fair is None:
                continue
            mine_gain = pricer.gain(me, fair)
            if best is None or mine_gain > best[0]:
                best = (mine_gain, fair)
        return None if best is None else best[1]
