"""rules: Setup 5 - "Denarii can change hands between players at any time!", and the deals that
come with it: "deals are not binding".

An ask is a public, non-binding request for denarii in return for a favour the asker can do
now: the Host asks a Dominus to pay for an invitation ("invite") or for sparing a beaten
combatant ("spare"), an invited Dominus asks the Host to pay for accepting ("accept"), a Dominus
asked for support asks the schemer to pay for it ("support"). Choice ids, in the standing
prompt `ask_denarii`: "ask:<seat>:<amount>:<favour>" to ask, "payask:<index>" to pay an open
ask addressed to you (the same transfer as a gift; see `gifts`), "refuseask:<index>" to say no
(public: bots waiting for your answer go on at once; you may still pay it while it is open).

Bounded and never blocking (docs/rulings.md, "Asks"): nobody waits for an ask; each favour has
one moment (an invitation, an answer, a thumb, a Scheme's support) and an ask is open only during
it; a Dominus asks at most once per favour per moment, for 1 to MAX_ASK denarii. Asking reveals
nothing: anyone may ask for any sum whatever their treasury holds. Paying is offered only to the
Dominus asked, with the free denarii to pay; the asker's favour stays theirs to grant or not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from harena.core.engine import Choice, Prompt
from harena.core.plural import denarii
from harena.core.spartacus import gifts
from harena.core.spartacus.choices import AnswerAsk, AskDenarii, Favour
from harena.core.spartacus.holdings import free_denarii, ready_combatants, transfer
from harena.core.spartacus.state import ArenaStep, Ask, Phase, SchemeStep

if TYPE_CHECKING:
    from harena.core.spartacus.rules import Spartacus

KIND = "ask_denarii"
MAX_ASK = 9  # one key on the screen; more than any favour in the reference set is worth


@dataclass(frozen=True)
class Moment:
    """A favour that can be asked for now: who may ask whom, and the key that ends it."""

    favour: Favour
    askers: tuple[int, ...]
    asked: tuple[int, ...]
    key: str


def moments(game: Spartacus) -> list[Moment]:
    """The favours open now; none while an effect already decided is resolving (as for gifts)."""
    s = game.state
    if gifts.resolving(game):
        return []
    out: list[Moment] = []
    a = s.arena
    if s.phase is Phase.ARENA and a is not None:
        host = s.host
        if a.step is ArenaStep.INVITE:
            others = tuple(x for x in range(game.players)
                           if x != host and x not in a.asked and ready_combatants(game, x))  # fmt: skip
            if others:
                out.append(
                    Moment(Favour.INVITE, (host,), others, f"{s.round}:invite:{len(a.asked)}")
                )
        elif a.step is ArenaStep.ANSWER and a.invitee is not None:
            out.append(
                Moment(Favour.ACCEPT, (a.invitee,), (host,), f"{s.round}:answer:{len(a.asked)}")
            )
        elif a.step is ArenaStep.THUMBS and a.loser is not None:
            owner = a.fighters[a.loser].seat
            if owner != host:
                out.append(Moment(Favour.SPARE, (host,), (owner,), f"{s.round}:thumbs"))
    scheme = s.intrigue.scheme if s.intrigue is not None else None
    if s.phase is Phase.INTRIGUE and scheme is not None and scheme.step is SchemeStep.SUPPORT:
        askers = tuple(x for x, answer in enumerate(scheme.answers) if answer is None)
        if askers and (i := s.intrigue) is not None:
            # The key names no card: a hidden Scheme stays hidden.
            key = f"{s.round}:support:{i.turns_done}:{len(i.asked)}:{len(s.intrigue_discard)}"
            out.append(Moment(Favour.SUPPORT, askers, (scheme.schemer,), key))
    return out


def current(game: Spartacus) -> str:
    """The key of the favour moment on now ("" if none): gifts are tagged with it, so a bot can
    tell a bribe for this thumb from one paid for the invitation before."""
    found = moments(game)
    return found[0].key if found else ""


def open_asks(game: Spartacus, found: list[Moment] | None = None) -> list[tuple[int, Ask]]:
    """(index in state.asks, ask) for the asks whose moment is still on, oldest first. The
    round's asks are kept until it ends, so an index (in "payask:<index>") never changes.
    `found`: `moments(game)`, when the caller has them already."""
    keys = {m.key for m in (moments(game) if found is None else found)}
    return [(i, ask) for i, ask in enumerate(game.state.asks) if ask.moment in keys]


def prompts(game: Spartacus) -> list[Prompt]:
    found = moments(game)
    if not found:
        return []
    still_open = open_asks(game, found)
    asked_for = {(ask.asker, ask.favour, ask.moment) for _, ask in still_open}
    choices: dict[int, list[Choice]] = {}
    for m in found:
        for asker in m.askers:
            if (asker, m.favour.value, m.key) in asked_for:
                continue  # one ask per Dominus per favour per moment
            for other in m.asked:
                if other == asker:
                    continue
                choices.setdefault(asker, []).extend(_ask_choices(game, other, m.favour))
    for index, ask in still_open:
        favour = _favour_text(game, Favour(ask.favour))
        if not ask.paid and free_denarii(game, ask.asked) >= ask.amount:
            text = f"Pay {game.name_of(ask.asker)} {denarii(ask.amount)} {favour}"
            choices.setdefault(ask.asked, []).append(AnswerAsk.of(index, True, text))
        if not ask.paid and not ask.refused:  # offered whatever the treasury: it tells nothing
            text = f"Refuse {game.name_of(ask.asker)}'s ask of {denarii(ask.amount)} {favour}"
            choices.setdefault(ask.asked, []).append(AnswerAsk.of(index, False, text))
    return [Prompt(seat, KIND, "Ask for denarii, or pay an ask (any time, not binding)", tuple(cs),
                   standing=True) for seat, cs in sorted(choices.items())]  # fmt: skip


def _ask_choices(game: Spartacus, other: int, favour: Favour) -> tuple[Choice, ...]:
    """Asking `other` for 1 to MAX_ASK denarii for `favour`: built once per wording a game, as
    the gift prompts are (they are offered again after every move while the moment lasts)."""
    name, why = game.name_of(other), _favour_text(game, favour)
    key = (other, favour.value, name, why)
    choices = game.ask_choices.get(key)
    if choices is None:
        choices = tuple(AskDenarii.of(other, n, favour, f"Ask {name} {denarii(n)} {why}")
                        for n in range(1, MAX_ASK + 1))  # fmt: skip
        game.ask_choices[key] = choices
    return choices


def apply(game: Spartacus, seat: int, chosen: AskDenarii | AnswerAsk) -> None:
    if isinstance(chosen, AnswerAsk) and chosen.pay:
        _pay(game, seat, game.state.asks[chosen.index])
        return
    if isinstance(chosen, AnswerAsk):
        ask = game.state.asks[chosen.index]
        ask.refused = True
        game.emit(
            f"{game.name_of(seat)} refuses {game.name_of(ask.asker)}'s ask of {denarii(ask.amount)}"
        )
        return
    other, amount, wanted = chosen.asked, chosen.amount, chosen.favour
    moment = next(m for m in moments(game) if m.favour is wanted)
    s = game.state
    s.asks.append(Ask(seat, other, amount, wanted.value, moment.key))
    _count(game, "asks", seat)
    game.emit(f"{game.name_of(seat)} asks {game.name_of(other)} {denarii(amount)} "
              f"{_favour_text(game, wanted)} (not binding)")  # fmt: skip


def _pay(game: Spartacus, seat: int, ask: Ask) -> None:
    paid = transfer(game, seat, ask.asker, ask.amount)
    ask.paid = True
    game.state.gifts.append([seat, ask.asker, paid, current(game)])
    _count(game, "bribes", seat)
    text = (f"{game.name_of(seat)} pays {game.name_of(ask.asker)} {denarii(paid)} "
            f"{_favour_text(game, Favour(ask.favour))}")  # fmt: skip
    if game.state.players[seat].hidden or game.state.players[ask.asker].hidden:
        game.emit(text, seats=[seat, ask.asker],
                  redacted=f"{game.name_of(seat)} gives denarii to {game.name_of(ask.asker)}")  # fmt: skip
    else:
        game.emit(text)


def _count(game: Spartacus, key: str, seat: int) -> None:
    counts = game.state.deals.setdefault(key, [0] * game.players)
    counts[seat] += 1


def _favour_text(game: Spartacus, favour: Favour) -> str:
    s = game.state
    if favour is Favour.INVITE:
        return "to be invited to the games"
    if favour is Favour.ACCEPT:
        return "to accept the invitation"
    if favour is Favour.SPARE:
        a = s.arena
        if a is not None and a.loser is not None:
            return f"to spare {game.card(a.fighters[a.loser].card).name}"
        return "to spare the beaten combatant"
    return "to support the Scheme"


def moments_view(game: Spartacus) -> list[dict[str, object]]:
    """The favours open now, public: who may ask whom (a bot's moment to deal)."""
    return [{"favour": m.favour.value, "askers": list(m.askers), "asked": list(m.asked), "key": m.key}
            for m in moments(game)]  # fmt: skip


def view(game: Spartacus, seat: int | None) -> list[dict[str, object]]:
    """The open asks as everyone sees them. Whether one was paid is public like the payment's
    amount (the log's line); while either side's denarii are hidden only the two of them know."""
    players = game.state.players
    out: list[dict[str, object]] = []
    for index, ask in open_asks(game):
        secret = players[ask.asker].hidden or players[ask.asked].hidden
        known = not secret or seat in (ask.asker, ask.asked)
        out.append({"index": index, "asker": ask.asker, "asked": ask.asked, "amount": ask.amount,
                    "favour": ask.favour, "text": _favour_text(game, Favour(ask.favour)),
                    "paid": ask.paid if known else None, "refused": ask.refused})  # fmt: skip
    return out
