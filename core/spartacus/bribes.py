"""Denarii for favours, as the heuristic bot deals them: paying for support of a Scheme it
wants, supporting a Scheme it was paid for, inviting a Dominus who paid the Host, and
weighing an invitation's risk against the Influence a refusal costs.

Deals are not binding (rules: only the transfer is enforced), so the bot pays before it asks
and honours what it was paid for only while it costs it nothing it cares about: it never
supports a Scheme aimed at itself, whatever it was given.
"""

from __future__ import annotations

from typing import Any

from harena.core.spartacus.content import Content
from harena.core.spartacus.valuation import INFLUENCE, strength, worth

View = dict[str, Any]

SUPPORT_FEE = 2  # denarii paid for a Dominus's support
LOSS_KILLS = 0.4  # a defeated combatant with no Favor is often turned down (thumbs)


def paid_by(view: View, giver: int) -> int:
    """Denarii `giver` gave this seat this round."""
    me = view["seat"]
    return sum(amount for g, t, amount in view["board"]["my_gifts"] if g == giver and t == me)


def paid_to(view: View, taker: int) -> int:
    me = view["seat"]
    return sum(amount for g, t, amount in view["board"]["my_gifts"] if g == me and t == taker)


def supporter(view: View, short: int, target: int | None) -> int | None:
    """Whom to pay for support: a Dominus whose Influence covers what is missing, never the
    target; the one with the least Influence of those (the cheapest ally, the smallest rival)."""
    me = view["seat"]
    players = view["board"]["players"]
    able = [p["seat"] for p in players
            if p["seat"] not in (me, target) and p["influence"] >= short]  # fmt: skip
    return min(able, key=lambda s: players[s]["influence"], default=None)


def gift(view: View, taker: int, amount: int) -> str | None:
    """The standing gift choice for `amount` to `taker`, if the view offers it."""
    choice = f"give:{taker}:{amount}"
    for prompt in view["prompts"]:
        if prompt.get("standing") and any(c[0] == choice for c in prompt["choices"]):
            return choice
    return None


def win_chance(mine: float, theirs: float) -> float:
    return mine / (mine + theirs) if mine + theirs > 0 else 0.5


def invitation_worth(content: Content, view: View) -> float:
    """Accepting, in denarii, against refusing (which costs 1 Influence): the Influence and
    Favor a win brings, less the combatant a defeat may cost."""
    me = view["seat"]
    board = view["board"]
    ready = [a for a in board["players"][me]["assets"]
             if a["kind"] in ("gladiator", "slave") and not a["exhausted"] and not a["wounded"]]  # fmt: skip
    if not ready:
        return INFLUENCE  # nothing to send: accepting costs nothing
    best = max(ready, key=lambda a: strength(content.cards[a["card"]], a["favor"], a["champion"]))
    mine = strength(content.cards[best["card"]], best["favor"], best["champion"])
    fighters = [f for f in board["arena"]["fighters"] if f["seat"] != me]
    theirs = max((strength(content.cards[f["card"]]) for f in fighters), default=7.0)
    p = win_chance(mine, theirs)
    others = [a for a in board["players"][me]["assets"] if a["ref"] != best["ref"]]
    at_stake = worth(content, best, others, board["players"][me]["house"])
    dies = 0.0 if best["favor"] or best["champion"] else LOSS_KILLS
    return p * (INFLUENCE + 2.0) - (1 - p) * dies * at_stake + INFLUENCE  # + the refusal avoided
