"""HeuristicBot: plays Spartacus to win, from a seat's view alone.

It reads only `Game.view(seat)`: its prompts and the board that seat may see, plus the printed
card texts (`content`, the same for every player). What it does: values cards by their printed
worth and fighting strength, keeps reactions and guards to protect itself, launches Schemes
against the leader (or for itself), bids for lots up to what they are worth to it, hosts when
the title is cheap or the win is near, fights with its best gladiator and closes in to attack.
In the Open Market it deals (see `bargain`): sells to the Bank what costs more than it earns,
proposes trades that help both sides by its reckoning, answers by value.
"""

from __future__ import annotations

from typing import Any

from harena.core.bots import awaited_prompts
from harena.core.engine import Rng
from harena.core.spartacus import bribes
from harena.core.spartacus.bargain import Bargainer
from harena.core.spartacus.board import DIRECTIONS, Hex, distance
from harena.core.spartacus.cards import (
    AssetKind,
    CardKind,
    Draw,
    GainDenarii,
    GainInfluence,
    HouseAbility,
    Influence,
    IntrigueCard,
    SchemeInfluence,
)
from harena.core.spartacus.content import Content, default_content
from harena.core.spartacus.dealer import Dealer, scheme_worth
from harena.core.spartacus.valuation import ready_to_fight, strength

View = dict[str, Any]


def ability_use(ability: HouseAbility) -> str | None:
    """When the bot uses a House ability, read from what it does (the data files may be
    replaced): "sacrifice" (a card for Influence: while it holds two of the kind), "spare"
    (exhausts a Gladiator: one it does not need in the Arena), "free" (once a turn, exhausts a
    Slave or Guard, costs nothing), "paid" (pays denarii to draw: when it is rich); None: not by
    itself (a card cycled, or an ability used elsewhere, like launching a Scheme short)."""
    if ability.sacrifice is not None and isinstance(ability.gain, GainInfluence):
        return "sacrifice"
    if ability.exhaust is AssetKind.GLADIATOR and isinstance(ability.gain, GainDenarii):
        return "spare"
    if ability.exhaust in (AssetKind.SLAVE, AssetKind.GUARD) and ability.per_turn == 1:
        return "free" if not ability.pay else None
    if ability.exhaust is None and ability.sacrifice is None and ability.pay:
        return "paid" if isinstance(ability.gain, Draw) else None
    return None


class HeuristicBot:
    def __init__(self, seed: int, content: Content | None = None) -> None:
        self.rng = Rng.from_seed(seed)
        self.content: Content = content or default_content()
        self.market = Bargainer(self.content)
        self.deals = Dealer(self.content)
        self.uses = {a.id: use for h in self.content.houses for a in h.abilities
                     if (use := ability_use(a)) is not None}  # fmt: skip
        self.sacrificed = {a.id: a.sacrifice.value for h in self.content.houses
                           for a in h.abilities if a.sacrifice is not None}  # fmt: skip
        # House id -> its way to launch a Scheme above its Influence (Solonius's Coin over Blood)
        self.coin: dict[str, SchemeInfluence] = {
            h.id: a.gain for h in self.content.houses for a in h.abilities
            if isinstance(a.gain, SchemeInfluence)
        }  # fmt: skip

    # -- the entry point ------------------------------------------------------------------------

    def choose(self, view: View) -> str:
        prompt = awaited_prompts(view)[0]
        ids = [c[0] for c in prompt["choices"]]
        handler = getattr(self, "_" + prompt["kind"], None)
        choice: str | None = handler(view, ids) if handler else None
        if choice is not None and choice in ids:
            return choice
        if (
            choice is not None
            and choice.startswith("give:")
            and choice == bribes.gift(view, *map(int, choice.split(":")[1:]))
        ):
            return choice  # a bribe, paid from the standing gift prompt before deciding
        return str(ids[0])

    def standing(self, view: View) -> str | None:
        """A deal made while nobody waits for this seat (core/bots.py `standing_move`): a
        bribe or an ask for a favour (see `dealer`); None when it has none to make."""
        return self.deals.standing(view)

    # -- reading the view -----------------------------------------------------------------------

    def card(self, card_id: str) -> Any:
        return self.content.cards[card_id]

    def me(self, view: View) -> dict[str, Any]:
        me: dict[str, Any] = view["board"]["players"][view["seat"]]
        return me

    def leader(self, view: View, among: list[int] | None = None) -> int:
        players = view["board"]["players"]
        seats = (
            among
            if among is not None
            else [p["seat"] for p in players if p["seat"] != view["seat"]]
        )
        return max(seats, key=lambda s: (players[s]["influence"], len(players[s]["assets"])))

    def ref_card(self, view: View, ref: int) -> tuple[Any, dict[str, Any] | None]:
        for p in view["board"]["players"]:
            for a in p["assets"]:
                if a["ref"] == ref:
                    return self.card(a["card"]), a
        for r, card_id, _ in view["board"]["hand"] or []:
            if r == ref:
                return self.card(card_id), None
        return None, None

    def reserve(self, view: View) -> int:
        """Denarii kept back for next round's upkeep."""
        me = self.me(view)
        return 1 + sum(1 for a in me["assets"] if a["kind"] == "gladiator")

    def best_fighter(self, view: View, seat: int) -> float:
        return max((strength(self.card(a["card"]), a["favor"], a["champion"])
                    for a in ready_to_fight(view["board"], seat)), default=0.0)  # fmt: skip

    # -- setup and maintenance ------------------------------------------------------------------

    def _choose_house(self, view: View, ids: list[str]) -> str:
        return ids[self.rng.below(len(ids))]

    def _discard_gladiator(self, view: View, ids: list[str]) -> str:
        return min(ids, key=lambda c: self.ref_card(view, int(c.split(":")[1]))[0].value)

    # -- intrigue -------------------------------------------------------------------------------

    def _launchable(self, view: View, card: IntrigueCard) -> bool:
        me = self.me(view)
        short = card.influence - me["influence"]
        if short <= 0:
            return True
        coin = self.coin.get(me["house"])
        if (coin is not None and short <= coin.most and self._scheme_worth(view, card) >= 4
                and me["denarii"] >= coin.denarii * short + card.cost + self.reserve(view)):  # fmt: skip
            return True
        # or buy a supporter's Influence (see `_ask_support`)
        spare = me["denarii"] - self.reserve(view) - card.cost
        return (spare >= bribes.SUPPORT_FEE and self._scheme_worth(view, card) >= 3
                and bribes.supporter(view, short, None) is not None)  # fmt: skip

    def _scheme_worth(self, view: View, card: IntrigueCard) -> float:
        return scheme_worth(card)

    def _intrigue_turn(self, view: View, ids: list[str]) -> str:
        me = self.me(view)
        hand = {r: self.card(c) for r, c, _ in view["board"]["hand"]}
        schemes = [c for c in ids if c.startswith("scheme:")]
        good = [c for c in schemes if self._launchable(view, hand[int(c.split(":")[1])])]
        if good:
            return max(good, key=lambda c: self._scheme_worth(view, hand[int(c.split(":")[1])]))
        fighters = sorted(
            (
                a
                for a in me["assets"]
                if a["kind"] == "gladiator" and not a["exhausted"] and not a["wounded"]
            ),
            key=lambda a: strength(self.card(a["card"]), a["favor"], a["champion"]),
        )
        spare = {str(a["ref"]) for a in fighters[:-1]}  # keep the best one ready for the Arena
        for c in ids:
            parts = c.split(":")
            use = self.uses.get(parts[1]) if c.startswith("power:") else None
            if use == "sacrifice" and sum(
                    1 for a in me["assets"] if a["kind"] == self.sacrificed[parts[1]]) >= 2:  # fmt: skip
                return c
            if use == "spare" and parts[2] in spare:
                return c
            if use == "free":
                return c
            if use == "paid" and me["denarii"] >= self.reserve(view) + 6:
                return c
            if c.startswith("exhaust:") and len(parts) == 2:
                card, _ = self.ref_card(view, int(parts[1]))
                if card is not None and card.kind is CardKind.SLAVE:
                    return c
        limit = me["hand_limit"]
        if len(hand) > limit:
            posts = [c for c in ids if c.startswith("post:")]
            if posts:
                return posts[0]
            return self._worst_sell(view, ids, hand)
        return "end"

    def _worst_sell(self, view: View, ids: list[str], hand: dict[int, IntrigueCard]) -> str:
        sells = [c for c in ids if c.startswith("sell:")]
        return min(
            sells, key=lambda c: self._keep_value(view, hand[int(c.split(":")[1])]), default="end"
        )

    def _keep_value(self, view: View, card: IntrigueCard) -> float:
        if card.kind is CardKind.GUARD:
            return 3.0
        if card.kind is CardKind.REACTION:
            return 3.5 if card.influence <= self.me(view)["influence"] else 1.0
        return self._scheme_worth(view, card) - (2 if not self._launchable(view, card) else 0)

    def _discard_to_limit(self, view: View, ids: list[str]) -> str:
        hand = {r: self.card(c) for r, c, _ in view["board"]["hand"]}
        return min(ids, key=lambda c: self._keep_value(view, hand[int(c.split(":")[1])]))

    def _prepare_scheme(self, view: View, ids: list[str]) -> str:
        if ids[0].startswith("target:"):
            return self._choose_target(view, ids)
        if "buy" in ids:
            return "buy"
        return self._ask_support(view, ids) or "withdraw"

    def _ask_support(self, view: View, ids: list[str]) -> str | None:
        """Pay a Dominus whose Influence covers the gap, then ask, showing the Scheme (so they
        see it is not aimed at them)."""
        scheme = view["board"]["intrigue"]["scheme"]
        if "ask:show" not in ids or scheme is None:
            return None
        card = self.card(scheme["card"])
        short = card.influence - self.me(view)["influence"]
        target = scheme["target"] if scheme["target"] not in (None, -1) else None
        ally = bribes.supporter(view, short, target)
        if ally is None or self._scheme_worth(view, card) < 3:
            return None
        if bribes.paid_to(view, ally) >= bribes.SUPPORT_FEE:
            return "ask:show"
        spare = (self.me(view)["denarii"] or 0) - self.reserve(view) - card.cost
        if spare < bribes.SUPPORT_FEE:
            return None
        return bribes.gift(view, ally, bribes.SUPPORT_FEE)

    def _choose_target(self, view: View, ids: list[str]) -> str:
        seats = [int(c.split(":")[1]) for c in ids]
        others = [s for s in seats if s != view["seat"]]
        return f"target:{self.leader(view, others)}" if others else ids[0]

    def _support_scheme(self, view: View, ids: list[str]) -> str:
        scheme = view["board"]["intrigue"]["scheme"]
        me = view["seat"]
        if scheme["target"] != me and (bribes.paid_by(view, scheme["schemer"]) >= bribes.SUPPORT_FEE
                                       or self.deals.support_paid(view)):  # fmt: skip
            return "support"  # paid for, and not against me
        leader = self.leader(view, [p["seat"] for p in view["board"]["players"]])
        if (
            scheme["card"]
            and scheme["target"] not in (None, me)
            and scheme["target"] == leader != scheme["schemer"]
        ):
            return "support"
        return "refuse"

    def _reaction(self, view: View, ids: list[str]) -> str:
        scheme = view["board"]["intrigue"]["scheme"]
        me = view["seat"]
        card = self.card(scheme["card"])
        harmful_to_me = scheme["target"] == me and scheme["schemer"] != me
        everyone = [p["seat"] for p in view["board"]["players"]]
        helps_leader = scheme["schemer"] == self.leader(view, everyone) and any(
            isinstance(e, Influence) and e.amount > 0 for e in card.effects
        )
        if harmful_to_me or helps_leader:
            for prefix in ("react:", "guard-hand:", "guard-table:"):
                for c in ids:
                    if c.startswith(prefix) and (prefix == "react:" or harmful_to_me):
                        return c
        return "pass"

    def _event_reaction(self, view: View, ids: list[str]) -> str:
        """A Reaction to an auction won or a wound (see `reactions`): a Medicus always (a wound
        may kill and keeps the combatant out of the next games); one against an auction's
        winner (Envy of the Forum) only when the winner leads the others."""
        window = view["board"]["window"]
        plays = [c for c in ids if c.startswith("react:")]
        if window is None or not plays:
            return "pass"
        if window["event"] == "wounded":
            return plays[0]
        return plays[0] if window["seat"] == self.leader(view) else "pass"

    def _choose_victim(self, view: View, ids: list[str]) -> str:
        def worth(c: str) -> float:
            card, asset = self.ref_card(view, int(c.split(":")[1]))
            return strength(card, asset["favor"], asset["champion"]) if asset else 0.0

        return max(ids, key=worth)

    # -- market ---------------------------------------------------------------------------------

    def _open_market(self, view: View, ids: list[str]) -> str:
        return self.market.open_market(view, ids)

    def _compose_offer(self, view: View, ids: list[str]) -> str:
        return self.market.compose(view, ids)

    def _answer_offer(self, view: View, ids: list[str]) -> str:
        return self.market.answer(view, ids)

    def _bid(self, view: View, ids: list[str]) -> str:
        auction = view["board"]["market"]["auction"]
        me = self.me(view)
        budget = me["denarii"] - self.reserve(view) - auction["on_table"][view["seat"]]
        if auction["host_title"]:
            worth = 3 + (4 if me["influence"] >= view["board"]["target"] - 2 else 0)
        else:
            card = self.card(auction["card"])
            worth = card.value * 0.8
            if card.kind is CardKind.GLADIATOR and strength(card) > self.best_fighter(
                view, view["seat"]
            ):
                worth += 2
        amount = max(
            0, min(budget, int(worth) - auction["on_table"][view["seat"]] + self.rng.below(2))
        )
        return f"bid:{amount}"

    # -- arena ----------------------------------------------------------------------------------

    def _invite(self, view: View, ids: list[str]) -> str:
        me = view["seat"]
        seats = [int(c.split(":")[1]) for c in ids]
        if me in seats and self.best_fighter(view, me) > 0:
            return f"invite:{me}"
        players = view["board"]["players"]
        paid = [s for s in seats if bribes.paid_by(view, s) > 0]
        if paid:  # whoever paid the Host for the honour
            return f"invite:{max(paid, key=lambda s: bribes.paid_by(view, s))}"
        return f"invite:{min(seats, key=lambda s: (self.best_fighter(view, s), players[s]['influence']))}"

    def _invitation(self, view: View, ids: list[str]) -> str:
        if bribes.invitation_worth(self.content, view) + self.deals.accept_paid(view) >= 0:
            return "accept"  # worth it, or the Host paid what it lacked
        excuse = next((c for c in ids if c.startswith("react:")), None)
        return excuse or "refuse"

    def _choose_combatant(self, view: View, ids: list[str]) -> str:
        def worth(c: str) -> float:
            card, asset = self.ref_card(view, int(c.split(":")[1]))
            return strength(card, asset["favor"], asset["champion"]) if asset else 0.0

        return max(ids, key=worth)

    def _choose_equipment(self, view: View, ids: list[str]) -> str:
        return ids[0]

    def _bet(self, view: View, ids: list[str]) -> str:
        fighters = view["board"]["arena"]["fighters"]
        spare = self.me(view)["denarii"] - self.reserve(view)
        if spare <= 0 or len(fighters) < 2:
            return "bet:none"
        scores = [strength(self.card(f["card"])) + f["atk"] + f["def"] - self.card(f["card"]).atk
                  - self.card(f["card"]).defence for f in fighters]  # fmt: skip
        best = 0 if scores[0] >= scores[1] else 1
        margin = abs(scores[0] - scores[1])
        amount = 3 if margin > 3 else 2 if margin > 1.5 else 1
        choice = f"bet:win:{fighters[best]['seat']}:{min(amount, spare)}"
        return choice if choice in ids else "bet:none"

    def _initiative(self, view: View, ids: list[str]) -> str:
        fighters = view["board"]["arena"]["fighters"]
        mine = next(f for f in fighters if f["seat"] == view["seat"])
        other = next(f for f in fighters if f is not mine)
        gap = distance(Hex(*mine["at"]), Hex(*other["at"]))
        return "first" if gap - 1 <= mine["spd"] else "second"

    def _fight(self, view: View, ids: list[str]) -> str:
        if "attack" in ids:
            return "attack"
        fighters = view["board"]["arena"]["fighters"]
        mine = next(f for f in fighters if f["seat"] == view["seat"])
        other = Hex(*next(f for f in fighters if f is not mine)["at"])
        at = Hex(*mine["at"])
        best, gap = "end", distance(at, other) - 1
        for c in ids:
            if c.startswith("step:"):
                dq, dr = DIRECTIONS[c.split(":")[1]]
                d = distance(Hex(at.q + dq, at.r + dr), other) - 1
                if d < gap:
                    best, gap = c, d
        return best

    def _lose_die(self, view: View, ids: list[str]) -> str:
        arena = view["board"]["arena"]
        mine = arena["fighters"][arena["fight"]["defender"]]
        order = {"lose:spd": 2, "lose:def": 1, "lose:atk": 0}
        return max(ids, key=lambda c: (mine[c.split(":")[1]], order[c]))

    def _thumbs(self, view: View, ids: list[str]) -> str:
        if self.deals.spare_paid(view):
            return "thumbs:up"  # its owner paid for it
        return "thumbs:down" if self.deals.would_execute(view) else "thumbs:up"
