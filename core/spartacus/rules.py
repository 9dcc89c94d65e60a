"""Spartacus: A Game of Blood and Treachery, the rules state machine on the engine contract.

The pieces: `state` (what changes), `setup`, `maintenance`, `intrigue`, `schemes` and
`scheme_effects`, `market` and `auction`, `arena`, `bets` and `combat` (the phases), `gifts` (denarii at any time),
`flow` (the turn and the end), `view` (what each seat may know). This module ties them to the
engine contract and registers the game.

Choice ids, by prompt kind (each module's docstring has the details; `choices` makes each from
the typed value the rules apply, and `Spartacus.offered` finds that value for an id):
- choose_house "house:<id>"; discard_gladiator "unpay:<card>";
- give_denarii (standing, one choice) "give:<seat>:<amount>"; ask_denarii (standing)
  "ask:<seat>:<amount>:<favour>", "payask:<index>", "refuseask:<index>";
- intrigue_turn "sell:<card>", "post:<guard>", "scheme:<card>", "power:<ability>:<asset|->[:<card>]",
  "exhaust:<asset>[:<card>]", "end"; discard_to_limit "discard:<card>";
- prepare_scheme "target:<seat>", "ask:show|hide", "buy", "withdraw"; support_scheme "support" |
  "refuse"; reaction "react:<card>", "guard-hand:<card>", "guard-table:<asset>", "pass";
  choose_victim "pick:<asset>";
- open_market "bank:<asset>", "offer:<seat>", "close"; compose_offer "offer-card:<asset>",
  "offer-price:<n>", "offer-send", "offer-cancel"; answer_offer "accept:<offer>",
  "decline:<offer>", "counter:<offer>"; bid "bid:<n>";
- invite "invite:<seat>"; invitation "accept" | "refuse" | "react:<card>"; choose_combatant "fighter:<asset>";
  choose_equipment "equip:<asset|none>"; bet "bet:none", "bet:win:<seat>:<n>", "bet:wound:<n>",
  "bet:decap:<n>"; initiative "first" | "second"; fight "step:<dir>", "attack", "end";
  lose_die "lose:atk|def|spd"; thumbs "thumbs:up|down";
- event_reaction (an auction won, a combatant wounded: see `reactions`) "pass" | "react:<card>".
"""

from __future__ import annotations

from typing import Any

from harena.core.bots import RandomBot
from harena.core.engine import Choice, Game, IllegalAction, OptionSpec, Prompt, Result, register
from harena.core.spartacus import (
    arena,
    asks,
    flow,
    gifts,
    intrigue,
    maintenance,
    market,
    reactions,
    setup,
)
from harena.core.spartacus.bots import HeuristicBot
from harena.core.spartacus.cards import House
from harena.core.spartacus.choices import AnswerAsk, AskDenarii, GiveDenarii
from harena.core.spartacus.content import Content, default_content
from harena.core.spartacus.holdings import free_denarii
from harena.core.spartacus.state import Phase, SpartacusState
from harena.core.spartacus.view import board_view, lazy_board_view

_PHASES: dict[Phase, Any] = {
    Phase.HOUSES: setup,
    Phase.MAINTENANCE: maintenance,
    Phase.INTRIGUE: intrigue,
    Phase.MARKET: market,
    Phase.ARENA: arena,
    Phase.FINAL: arena,
}


@register
class Spartacus(Game):
    name = "spartacus"
    title = "Spartacus: A Game of Blood and Treachery"
    min_players = 2  # 2: a variant (docs/rulings.md); the rules are written for 3 or 4
    max_players = 4
    options = (
        OptionSpec(
            "length",
            "Game length",
            ("quick", "standard", "advanced"),
            "standard",
            "starting Influence (rules: Setup 7): quick 7, standard 4, advanced 1",
        ),
        OptionSpec(
            "round_limit",
            "Round limit",
            ("off", "10", "20", "30", "50"),
            "off",
            "not in the rules (off: the rules' end only): after this many rounds the most "
            "Influence wins; tables of bots alone and `harena simulate` play with 30",
        ),
        OptionSpec(
            "market_offers",
            "Market offers",
            ("2", "4", "8"),
            "4",
            "not in the rules: offers each Dominus may make in one Open Market, so it ends",
        ),
    )
    # rules: Game Objective is the only end with people at the table ("off"); bots alone could
    # in principle trade Influence back and forth for ever, so they keep a limit (docs/rulings.md)
    simulation_options = {"round_limit": "30"}
    unattended_options = {"round_limit": "30"}
    State = SpartacusState
    bots = {"heuristic": HeuristicBot, "random": RandomBot}  # the first is what tables offer first
    label_kind = "house"
    reaction_windows = True  # "react?" after a lot won or a Scheme launched (core/windows.py)

    state: SpartacusState

    def prepare(self) -> None:
        self.content: Content = default_content()
        self.gift_prompts: dict[tuple[int, int], Prompt] = {}  # (seat, free denarii) -> prompt
        self.bid_choices: dict[int, tuple[Choice, ...]] = {}  # most one may bid -> its choices
        # (asked seat, favour, name, favour text) -> the asks of 1 to MAX_ASK denarii
        self.ask_choices: dict[tuple[int, str, str, str], tuple[Choice, ...]] = {}
        self.short_names = {h.id: h.name.removeprefix("House of ") for h in self.content.houses}
        self._defs: list[Any] = []  # instance -> card content, filled on first use
        self._info: list[tuple[str, str, str]] = []  # instance -> (id, name, kind) for views

    def setup(self) -> SpartacusState:
        self.state = setup.initial_state(self)
        setup.roll_for_first(self)
        return self.state

    # -- helpers the phases share -------------------------------------------------------------

    def card(self, instance: int) -> Any:
        """The content of a card instance (MarketCard or IntrigueCard). The instances are fixed
        at setup, so the table is built once (the rules ask this thousands of times a game)."""
        try:
            return self._defs[instance]
        except IndexError:  # first use, or a card added since (cards are only ever appended)
            cards = self.content.cards
            self._defs = [cards[c] for c in self.state.cards]
            return self._defs[instance]

    def card_info(self) -> list[tuple[str, str, str]]:
        """(card id, name, kind) per instance: what a view shows of a card on a table."""
        if len(self._info) != len(self.state.cards):
            self._info = [
                (c.id, c.name, c.kind.value) for c in map(self.card, range(len(self.state.cards)))
            ]
        return self._info

    def house_of(self, seat: int) -> House:
        return self.content.house(self.state.players[seat].house)

    def name_of(self, seat: int) -> str:
        house = self.state.players[seat].house
        return self.short_names[house] if house else f"Seat {seat + 1}"

    def seat_label(self, seat: int) -> str:
        return self.name_of(seat)

    def round_limit(self) -> int | None:
        """The table's round limit; None: off, the game ends only as the rules end it."""
        value = self.config.options.get("round_limit", "off")
        return None if value == "off" else int(value)

    def start_round(self) -> None:
        flow.start_round(self)

    def end_phase(self) -> None:
        flow.end_phase(self)

    def finish(self, winners: list[int], reason: str) -> None:
        flow.finish(self, winners, reason)

    # -- the contract -------------------------------------------------------------------------

    def prompts(self) -> list[Prompt]:
        s = self.state
        if s.phase is Phase.OVER:
            return []
        # an event waiting for Reactions holds its phase until every answer is in
        out = reactions.prompts(self) if s.window is not None else _PHASES[s.phase].prompts(self)
        if s.phase is not Phase.HOUSES:
            out = out + gifts.prompts(self) + asks.prompts(self)
        return out

    def dealing(self) -> bool:
        return self.state.phase is not Phase.OVER and bool(asks.moments(self))

    def asked_to_pay(self) -> list[int]:
        if self.state.phase is Phase.OVER:
            return []
        return sorted({ask.asked for _, ask in asks.open_asks(self)
                       if not ask.paid and not ask.refused
                       and free_denarii(self, ask.asked) >= ask.amount})  # fmt: skip

    def offered(self, seat: int, choice: str) -> Choice:
        """The Choice the open prompt made for `choice` (act() has checked it is offered, or
        that it stands for one: `offered_as`): what the rules apply, so they never work out
        from its id what it picks."""
        for prompts in (self._prompts, None):
            for prompt in self.prompts() if prompts is None else prompts:
                if prompt.seat == seat:
                    for offer in prompt.choices:
                        if offer.id == choice:
                            return offer
        if self.offered_as(seat, choice) is None:
            raise IllegalAction(f"{choice!r} is not offered to seat {seat}")
        return intrigue.stand_in(choice)

    def apply(self, seat: int, choice: str) -> None:
        chosen = self.offered(seat, choice)
        if isinstance(chosen, GiveDenarii):
            gifts.apply(self, seat, chosen)
            if self.state.phase is Phase.MAINTENANCE and self.state.discard_due:
                maintenance.settle(self)
            return
        if isinstance(chosen, (AskDenarii, AnswerAsk)):  # standing: at any moment, a window's too
            asks.apply(self, seat, chosen)
            return
        if self.state.window is not None:
            reactions.apply(self, seat, chosen)
            return
        _PHASES[self.state.phase].apply(self, seat, chosen)

    def offered_as(self, seat: int, choice: str) -> str | None:
        if self.state.window is None and self.state.phase is Phase.INTRIGUE:
            return intrigue.offered_as(self, seat, choice)
        return None

    def board_view(self, seat: int | None) -> dict[str, Any]:
        return board_view(self, seat)

    def lazy_board_view(self, seat: int | None) -> dict[str, Any]:
        return lazy_board_view(self, seat)

    def result(self) -> Result | None:
        s = self.state
        if s.phase is not Phase.OVER:
            return None
        return Result(tuple(s.winners), s.reason)

    def round_number(self) -> int:
        return self.state.round

    def seat_stats(self) -> list[dict[str, int]]:
        """Per seat: offers sent, trades done, Bank sales, bribes paid (gifts and asks paid),
        asks made (public counts, for `simulate`)."""
        deals = self.state.deals
        keys = ("offers", "trades", "bank_sales", "bribes", "asks")
        return [{k: deals.get(k, [0] * self.players)[seat] for k in keys}
                for seat in range(self.players)]  # fmt: skip
