"""Denarii for favours, as the heuristic bot deals them: paying for support of a Scheme it
wants, supporting a Scheme it was paid for, inviting a Dominus who paid the Host, and
weighing an invitation's risk against the Influence a refusal costs. Asks (see `asks`) are
priced here too, by one function per favour that both sides use: the asker asks only what the
same function says the favour is worth to the Dominus asked, and a bot asked pays when it says
so from its own seat, so a bot never asks what it would refuse to pay in the other's place.

Deals are not binding (rules: only the transfer is enforced), so the bot pays before it asks
and honours what it was paid for only while it costs it nothing it cares about: it never
supports a Scheme aimed at itself, whatever it was given.
"""

from __future__ import annotations

from typing import Any

from harena.core.spartacus.asks import MAX_ASK
from harena.core.spartacus.content import Content
from harena.core.spartacus.valuation import INFLUENCE, ready_to_fight, strength, worth

View = dict[str, Any]

SUPPORT_FEE = 2  # denarii paid for a Dominus's support
LOSS_KILLS = 0.4  # a defeated combatant with no Favor is often turned down (thumbs)


INVITE_FEE = 1  # denarii paid the Host to be invited (a fight is worth a few to the bot)
SPARE_FEE = 2  # denarii paid the Host to spare a beaten combatant, unasked


def paid_by(view: View, giver: int, moment: str | None = None) -> int:
    """Denarii `giver` gave this seat this round (in one favour moment, if named)."""
    me = view["seat"]
    return sum(int(g[2]) for g in view["board"]["my_gifts"]
               if g[0] == giver and g[1] == me and (moment is None or g[3:4] == [moment]))  # fmt: skip


def paid_to(view: View, taker: int, moment: str | None = None) -> int:
    me = view["seat"]
    return sum(int(g[2]) for g in view["board"]["my_gifts"]
               if g[0] == me and g[1] == taker and (moment is None or g[3:4] == [moment]))  # fmt: skip


def moment(view: View, favour: str) -> dict[str, Any] | None:
    """The favour's moment, if it is on now (board "moments")."""
    return next((m for m in view["board"].get("moments", []) if m["favour"] == favour), None)


def asks_of(
    view: View, favour: str, *, asker: int | None = None, asked: int | None = None
) -> list[dict[str, Any]]:
    return [a for a in view["board"].get("asks", []) if a["favour"] == favour
            and asker in (None, a["asker"]) and asked in (None, a["asked"])]  # fmt: skip


def spendable(view: View, seat: int) -> int:
    """Denarii `seat` can part with and still pay next round's upkeep (the bot's `reserve`)."""
    p = view["board"]["players"][seat]
    upkeep = sum(1 for a in p["assets"] if a["kind"] == "gladiator")
    return max(0, (p["denarii"] or 0) - upkeep - 1)


def pays(value: float, amount: int, view: View, seat: int) -> bool:
    """Whether a favour worth `value` to `seat` is worth `amount` to it, and it can pay."""
    return value >= amount and spendable(view, seat) >= amount


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


def invitation_worth(content: Content, view: View, seat: int | None = None) -> float:
    """Accepting, in denarii, against refusing (which costs 1 Influence): the Influence and
    Favor a win brings, less the combatant a defeat may cost."""
    return fight_worth(content, view, seat) + INFLUENCE  # + the refusal avoided


def fight_worth(content: Content, view: View, seat: int | None = None) -> float:
    """Fighting, in denarii, against not fighting, for `seat` (default: the view's): the
    Influence and Favor a win brings, less the combatant a defeat may cost. Public data only,
    so any seat can weigh it for any other."""
    me = view["seat"] if seat is None else seat
    board = view["board"]
    ready = ready_to_fight(board, me)
    if not ready:
        return 0.0  # nothing to send: accepting costs nothing
    best = max(ready, key=lambda a: strength(content.cards[a["card"]], a["favor"], a["champion"]))
    mine = strength(content.cards[best["card"]], best["favor"], best["champion"])
    fighters = [f for f in board["arena"]["fighters"] if f["seat"] != me]
    theirs = max((strength(content.cards[f["card"]]) for f in fighters), default=7.0)
    p = win_chance(mine, theirs)
    others = [a for a in board["players"][me]["assets"] if a["ref"] != best["ref"]]
    at_stake = worth(content, best, others, board["players"][me]["house"])
    dies = 0.0 if best["favor"] or best["champion"] else LOSS_KILLS
    return p * (INFLUENCE + 2.0) - (1 - p) * dies * at_stake


def host_fight_worth(content: Content, view: View) -> float:
    """An invitation accepted, to the Host: its own fight, if its combatant waits in the Arena
    for an opponent (a win is Influence and Favor); else nothing."""
    board = view["board"]
    host = board["host"]
    arena = board["arena"]
    mine = [f for f in arena["fighters"] if f["seat"] == host] if arena else []
    if not mine or arena["invitee"] is None:
        return 0.0
    theirs = max((strength(content.cards[a["card"]], a["favor"], a["champion"])
                  for a in ready_to_fight(board, arena["invitee"])), default=0.0)  # fmt: skip
    return win_chance(strength(content.cards[mine[0]["card"]]), theirs) * (INFLUENCE + 2.0)


def spare_worth(content: Content, view: View) -> float:
    """The beaten combatant, to its owner: its worth on their table (it dies if the thumb
    turns down)."""
    board = view["board"]
    arena = board["arena"]
    loser = arena["fighters"][arena["loser"]]
    player = board["players"][loser["seat"]]
    asset = next(a for a in player["assets"] if a["ref"] == loser["ref"])
    others = [a for a in player["assets"] if a["ref"] != loser["ref"]]
    return worth(content, asset, others, player["house"])


def spare_price(content: Content, view: View) -> int:
    """What the Host asks to spare: half the combatant's worth to its owner, no more than they
    can spare (0: not worth asking)."""
    owner = view["board"]["arena"]["fighters"][view["board"]["arena"]["loser"]]["seat"]
    value = spare_worth(content, view)
    price = min(MAX_ASK, spendable(view, owner), max(1, int(value / 2)))
    return price if pays(value, price, view, owner) else 0
