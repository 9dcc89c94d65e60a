"""The heuristic bot's deals for favours, made while it has no decision of its own (the bot's
`standing` hook, see core/bots.py): paying the Host to be invited or to spare its beaten
combatant, asking a fee for a favour it would not do for free, paying asks worth their price.

Each is read from the view alone, so it repeats exactly (replays, saved tables) and ends: the
bot deals at most once per favour per moment, seeing in its view what it already asked or paid.
Prices come from `bribes`, one function per favour for both sides (see there).
"""

from __future__ import annotations

import math
from typing import Any

from harena.core.spartacus import bribes
from harena.core.spartacus.asks import MAX_ASK
from harena.core.spartacus.cards import Influence, IntrigueCard, Who
from harena.core.spartacus.content import Content
from harena.core.spartacus.valuation import ready_to_fight

View = dict[str, Any]


class Dealer:
    def __init__(self, content: Content) -> None:
        self.content = content

    def standing(self, view: View) -> str | None:
        for m in view["board"].get("moments", []):
            deal: str | None = getattr(self, "_" + m["favour"])(view, m)
            if deal is not None:
                return deal
        # An ask it will not pay is answered no: a human who asked is not left wondering.
        for ask in view["board"].get("asks") or []:
            if ask["asked"] == view["seat"] and not ask["paid"] and not ask.get("refused"):
                return f"refuseask:{ask['index']}"
        return None

    # -- invitations ----------------------------------------------------------------------------

    def _invite(self, view: View, m: dict[str, Any]) -> str | None:
        """Not the Host and free to be invited: pay an ask for it worth its price, or (unasked)
        pay the Host a fee when the fight is worth it and others may be invited instead. The
        Host sells the invitation (`_sell_invitation`)."""
        me, host = view["seat"], view["board"]["host"]
        if me == host:
            return self._sell_invitation(view, m)
        if me not in m["asked"] or bribes.paid_to(view, host) > 0:
            return None  # paid once this round: a Host who took it and invited another gets no more
        value = bribes.fight_worth(self.content, view)
        for ask in bribes.asks_of(view, "invite", asker=host, asked=me):
            if not ask["paid"] and bribes.pays(value, ask["amount"], view, me):
                return f"payask:{ask['index']}"
        sure = m["asked"] == [me]
        if not sure and bribes.pays(value, bribes.INVITE_FEE, view, me):
            return bribes.gift(view, host, bribes.INVITE_FEE)
        return None

    def _sell_invitation(self, view: View, m: dict[str, Any]) -> str | None:
        """As Host, with a choice of whom to invite and nobody paid yet in this moment: ask the
        fee of the candidate the fight is worth most to, if it is worth the fee to them (public
        data: an ask it would refuse in their seat is never made). Whoever pays is invited."""
        me = view["seat"]
        candidates = m["asked"]
        if (
            len(candidates) < 2
            or bribes.asks_of(view, "invite", asker=me)
            or self._hosts_own_turn(view)
        ):
            return None
        if any(bribes.paid_by(view, c, m["key"]) > 0 for c in candidates):
            return None
        worth = {c: bribes.fight_worth(self.content, view, c) for c in candidates}
        best = max(candidates, key=lambda c: (worth[c], -c))
        if not bribes.pays(worth[best], bribes.INVITE_FEE, view, best):
            return None
        return f"ask:{best}:{bribes.INVITE_FEE}:invite"

    @staticmethod
    def _hosts_own_turn(view: View) -> bool:
        """The Host bot invites itself first when it has a combatant to send (HeuristicBot's
        `_invite`): that invitation is not for sale."""
        board = view["board"]
        host = board["host"]
        return bool(ready_to_fight(board, host)) and host not in board["arena"]["asked"]

    def _accept(self, view: View, m: dict[str, Any]) -> str | None:
        """The invitee who would refuse asks the Host what it lacks, if the Host's own fight is
        worth that to it; the Host pays such an ask when it is."""
        me, host = view["seat"], view["board"]["host"]
        if me == host:
            value = bribes.host_fight_worth(self.content, view)
            for ask in bribes.asks_of(view, "accept", asked=me):
                if not ask["paid"] and bribes.pays(value, ask["amount"], view, me):
                    return f"payask:{ask['index']}"
            return None
        if me not in m["askers"] or bribes.asks_of(view, "accept", asker=me):
            return None
        short = -bribes.invitation_worth(self.content, view)
        if short <= 0:
            return None  # it accepts for nothing
        price = max(1, math.ceil(short))
        if price > MAX_ASK or not bribes.pays(
            bribes.host_fight_worth(self.content, view), price, view, host
        ):
            return None  # the Host would not pay it: asking would be an offer it would refuse
        return f"ask:{host}:{price}:accept"

    def accept_paid(self, view: View) -> int:
        """Denarii the Host paid for this acceptance (its ask, or unasked in this moment)."""
        m = bribes.moment(view, "accept")
        host = view["board"]["host"]
        paid: int = sum(
            a["amount"] for a in bribes.asks_of(view, "accept", asker=view["seat"]) if a["paid"]
        )
        return max(paid, bribes.paid_by(view, host, m["key"]) if m else 0)

    # -- thumbs ---------------------------------------------------------------------------------

    def _spare(self, view: View, m: dict[str, Any]) -> str | None:
        me, host = view["seat"], view["board"]["host"]
        owner = m["asked"][0]
        if me == host:
            if not self.would_execute(view) or bribes.asks_of(view, "spare", asker=me):
                return None
            price = bribes.spare_price(self.content, view)
            return f"ask:{owner}:{price}:spare" if price else None
        if me != owner or bribes.paid_to(view, host, m["key"]) > 0:
            return None
        value = bribes.spare_worth(self.content, view)
        asks = bribes.asks_of(view, "spare", asker=host, asked=me)
        for ask in asks:
            if ask["paid"]:
                return None
            if bribes.pays(value, ask["amount"], view, me):
                return f"payask:{ask['index']}"
        if (
            not asks
            and self.would_execute(view)
            and bribes.pays(value - 1, bribes.SPARE_FEE, view, me)
        ):
            return bribes.gift(view, host, bribes.SPARE_FEE)
        return None

    def would_execute(self, view: View) -> bool:
        """The Host's thumb unpaid: down on another's combatant with no Favor (its death costs
        the Host nothing)."""
        board = view["board"]
        arena = board["arena"]
        loser = arena["fighters"][arena["loser"]]
        asset = next(
            a for a in board["players"][loser["seat"]]["assets"] if a["ref"] == loser["ref"]
        )
        return asset["favor"] == 0 and not asset["champion"] and loser["seat"] != board["host"]

    def spare_paid(self, view: View) -> bool:
        """The Host was paid to spare: its ask was paid, or the owner gave the fee unasked."""
        m = bribes.moment(view, "spare")
        if m is None:
            return False
        owner = m["asked"][0]
        if any(a["paid"] for a in bribes.asks_of(view, "spare", asker=view["seat"])):
            return True
        return bribes.paid_by(view, owner, m["key"]) >= bribes.SPARE_FEE

    # -- support for a Scheme -------------------------------------------------------------------

    def _support(self, view: View, m: dict[str, Any]) -> str | None:
        """Asked for support of a shown Scheme not aimed at it (and not paid already): ask the
        schemer the usual fee, if the schemer would pay it. As the schemer: pay an ask when the
        Scheme is worth its price."""
        me = view["seat"]
        scheme = view["board"]["intrigue"]["scheme"]
        schemer = m["asked"][0]
        if me == schemer:
            return self._pay_support(view, scheme)
        if (me not in m["askers"] or not scheme.get("card") or scheme["target"] == me
                or bribes.asks_of(view, "support", asker=me) or bribes.paid_by(view, schemer) > 0):  # fmt: skip
            return None
        if self.schemer_pays(view, scheme, me, bribes.SUPPORT_FEE):
            return f"ask:{schemer}:{bribes.SUPPORT_FEE}:support"
        return None

    def _pay_support(self, view: View, scheme: dict[str, Any]) -> str | None:
        me = view["seat"]
        for ask in bribes.asks_of(view, "support", asked=me):
            if not ask["paid"] and self.schemer_pays(view, scheme, ask["asker"], ask["amount"]):
                return f"payask:{ask['index']}"
        return None

    def schemer_pays(self, view: View, scheme: dict[str, Any], ally: int, amount: int) -> bool:
        """The schemer's side, from public data: the Scheme is worth a fee to it (as the bot
        weighs paying for support), the ally's Influence matters, and it can pay."""
        card = self.content.cards[scheme["card"]]
        assert isinstance(card, IntrigueCard)
        schemer = scheme["schemer"]
        players = view["board"]["players"]
        short = card.influence - players[schemer]["influence"]
        worth = scheme_worth(card)
        return (short > 0 and players[ally]["influence"] > 0 and worth >= 3
                and bribes.pays(worth, amount, view, schemer))  # fmt: skip

    def support_paid(self, view: View) -> bool:
        return any(a["paid"] for a in bribes.asks_of(view, "support", asker=view["seat"]))


def scheme_worth(card: IntrigueCard) -> float:
    """A Scheme's worth to its schemer, in denarii (the heuristic bot's weighing, here so the
    asker can weigh it for the schemer): 4 per Influence it moves the right way, 1.5 per other
    effect, less half its cost."""
    worth = 0.0
    for e in card.effects:
        if isinstance(e, Influence):
            worth += 4 * abs(e.amount) if (e.who is Who.YOU) == (e.amount > 0) else 0
        else:
            worth += 1.5
    return worth - 0.5 * card.cost
