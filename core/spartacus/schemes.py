"""rules: Set Up Schemes, Seeking Support, Reactions, Canceling a Scheme, Guards.

A Scheme goes: choose its target; if the schemer's Influence is short, ask the others for
support (showing the Scheme or not: "you don't need to show the Scheme"), all of them answer at
once (revealed together) and support is final; Solonius may pay for what is missing. Once
launched, the reaction window asks every Dominus who could react by public facts (a card in
hand, or the target's ready Guard on the table) at once, in secret, like the window for other
events (`reactions`): each may play a Reaction (no support allowed) and the target may discard
a Guard, rolling 4-6 to cancel. The replies are revealed together and taken clockwise from the
schemer's left: the first Reaction (or successful Guard) cancels the Scheme and the others
keep their cards. A Guard that fails lets the target try again (asked alone, as they still
could by public facts) before the later replies count. An uncancelled Scheme pays its cost
and resolves; the schemer picks the victim of a Wound, Kill or Exhaust.

Choice ids: "target:<seat>"; "ask:show", "ask:hide", "buy", "withdraw"; "support", "refuse";
"react:<card>", "guard-hand:<card>", "guard-table:<asset>", "pass"; "pick:<asset>".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harena.core.engine import Choice, Prompt
from harena.core.plural import denarii
from harena.core.spartacus import scheme_effects
from harena.core.spartacus.cards import (
    CardKind,
    Denarii,
    DiscardRandom,
    Exhaust,
    Influence,
    IntrigueCard,
    Kill,
    SchemeInfluence,
    Steal,
    TargetRule,
    Who,
    Wound,
)
from harena.core.spartacus.choices import (
    CardAct,
    OnCard,
    OnSeat,
    Say,
    SeatAct,
    Word,
    held_card,
)
from harena.core.spartacus.holdings import (
    discard_asset,
    discard_intrigue,
    find_asset,
    free_denarii,
    label,
    pay_bank,
)
from harena.core.spartacus.state import GUARD_SAVES_FROM, Asset, Scheme, SchemeStep

if TYPE_CHECKING:
    from harena.core.spartacus.rules import Spartacus

__all__ = ["SchemeInfluence", "apply", "begin", "may_launch", "prompts"]


def coin_power(game: Spartacus, seat: int) -> SchemeInfluence | None:
    """Solonius's house rule, if this house has it."""
    for ab in game.house_of(seat).abilities:
        if isinstance(ab.gain, SchemeInfluence):
            return ab.gain
    return None


def _buyable(game: Spartacus, seat: int, missing: int, cost: int) -> bool:
    power = coin_power(game, seat)
    return (
        power is not None
        and 0 < missing <= power.most
        and free_denarii(game, seat) >= missing * power.denarii + cost
    )


def may_launch(game: Spartacus, seat: int, card_ref: int) -> bool:
    """Offered only if it could be launched at all: enough Influence with everyone's support
    (or Solonius's coin), and denarii for its cost."""
    card = game.card(card_ref)
    players = game.state.players
    if free_denarii(game, seat) < card.cost:
        return False
    everyone = sum(p.influence for p in players)
    power = coin_power(game, seat)
    return bool(card.influence <= everyone + (power.most if power else 0))


def begin(game: Spartacus, seat: int, card_ref: int) -> None:
    it = game.state.intrigue
    assert it is not None
    game.state.players[seat].hand.remove(card_ref)
    scheme = Scheme(card_ref, seat)
    it.scheme = scheme
    if game.card(card_ref).target is TargetRule.SELF:
        _targeted(game, scheme, seat)


def _targeted(game: Spartacus, scheme: Scheme, target: int) -> None:
    scheme.target = target
    card = game.card(scheme.card)
    if game.state.players[scheme.schemer].influence >= card.influence:
        _launch(game, scheme)
    else:
        scheme.step = SchemeStep.ASK


def _missing(game: Spartacus, scheme: Scheme, *, with_answers: bool = True) -> int:
    """Influence still short. `with_answers=False`: short before anyone answered, which is all
    a seat asked for support may read while the answers are secret (docs/rulings.md)."""
    players = game.state.players
    have = players[scheme.schemer].influence
    if with_answers:
        have += sum(players[s].influence for s, yes in enumerate(scheme.answers) if yes)
    return max(0, int(game.card(scheme.card).influence) - have)


# --- prompts --------------------------------------------------------------------------------------


def prompts(game: Spartacus, scheme: Scheme) -> list[Prompt]:
    card = game.card(scheme.card)
    me = scheme.schemer
    step = scheme.step
    if step is SchemeStep.TARGET:
        # the others clockwise from your left, yourself last: the first key never aims a
        # harmful Scheme at your own House, and doing so takes a second press
        n = game.players
        seats = [(me + k) % n for k in range(1, n)]
        if card.target is TargetRule.ANY:
            seats.append(me)
        harmful = harms_target(card)
        choices: tuple[Choice, ...] = tuple(
            OnSeat.of(SeatAct.TARGET, t, _target_label(game, t, me, harmful)) for t in seats
        )
        confirm = (f"target:{me}",) if harmful and card.target is TargetRule.ANY else ()
        # one public kind for every step of preparing a Scheme: the kind must not tell the
        # table whether a hidden Scheme has a target or is short of Influence
        return [
            Prompt(
                me, "prepare_scheme", f"{card.name}: choose the target", choices, confirm=confirm
            )
        ]
    if step in (SchemeStep.ASK, SchemeStep.PAY):
        missing = _missing(game, scheme)
        out = []
        if step is SchemeStep.ASK:
            out += [Say.of(Word.ASK_SHOW, "Ask for support, showing the Scheme and its target"),
                    Say.of(Word.ASK_HIDE, "Ask for support, keeping the Scheme hidden")]  # fmt: skip
        if _buyable(game, me, missing, card.cost):
            power = coin_power(game, me)
            assert power is not None
            pay = f"Pay {denarii(missing * power.denarii)} for {missing} Influence"
            out.append(Say.of(Word.BUY, pay))
        out.append(Say.of(Word.WITHDRAW, "Withdraw the Scheme (back to your hand)"))
        return [Prompt(me, "prepare_scheme", f"{card.name}: {missing} Influence short", tuple(out))]
    if step is SchemeStep.SUPPORT:
        if scheme.revealed:
            text = f"{game.name_of(me)} asks your support for {card.name}{aim(game, scheme)}"
            # the answers are revealed together: the shortfall read before then ignores them
            text += f" ({_missing(game, scheme, with_answers=False)} Influence short)"
        else:
            text = f"{game.name_of(me)} asks your support for a hidden Scheme"
        choices = (
            Say.of(Word.SUPPORT, "Support it (adds your Influence)"),
            Say.of(Word.REFUSE, "Refuse"),
        )
        return [
            Prompt(s, "support_scheme", text, choices)
            for s, a in enumerate(scheme.answers)
            if a is None
        ]
    if step is SchemeStep.REACT:
        text = f"{game.name_of(me)} launches {card.name}{aim(game, scheme)}: react?"
        return [
            Prompt(seat, "reaction", text, tuple(reactions_of(game, scheme, seat)), default="pass")
            for seat in scheme.queue
            if scheme.replies[seat] is None
        ]
    victims = scheme_effects.victims(game, scheme)
    choices = tuple(OnCard.of(CardAct.PICK, a.card, label(game.card(a.card), a)) for a in victims)
    return [Prompt(me, "choose_victim", f"{card.name}: choose the victim", choices)]


def aim(game: Spartacus, scheme: Scheme) -> str:
    """Whom a Scheme is aimed at, as words after its name: " against bob/Glaber", or for a
    Scheme at the schemer's own House " for themselves" (" at their own House" when it harms
    it): never the schemer's name twice in one line."""
    if scheme.target != scheme.schemer:
        return f" against {game.name_of(scheme.target)}"
    return " at their own House" if harms_target(game.card(scheme.card)) else " for themselves"


def harms_target(card: IntrigueCard) -> bool:
    """Whether the Scheme takes something from its target (Influence, denarii, cards, a
    combatant): aimed at yourself, it is asked for twice."""
    for e in card.effects:
        if isinstance(e, (Steal, DiscardRandom, Wound, Kill, Exhaust)):
            return True
        if isinstance(e, (Influence, Denarii)) and e.who is Who.TARGET and e.amount < 0:
            return True
    return False


def _target_label(game: Spartacus, seat: int, me: int, harmful: bool) -> str:
    if seat != me:
        return game.name_of(seat)
    return f"{game.name_of(seat)} (your own House{': it harms you' if harmful else ''})"


def reactions_of(game: Spartacus, scheme: Scheme, seat: int) -> list[Choice]:
    p = game.state.players[seat]
    out = []
    for c in p.hand:
        card = game.card(c)
        usable = (card.kind is CardKind.REACTION and card.answers == "scheme"
                  and card.influence <= p.influence)  # fmt: skip
        if usable and (not card.against_you or seat == scheme.target):
            out.append(OnCard.of(CardAct.REACT, c, f"{card.name}: {card.text}"))
    if seat == scheme.target:
        if any(game.card(c).kind is CardKind.GUARD for c in p.hand):
            c = next(c for c in p.hand if game.card(c).kind is CardKind.GUARD)
            roll = "Discard a Guard from your hand and roll (4-6 cancels)"
            out.append(OnCard.of(CardAct.GUARD_HAND, c, roll))
        ready = _table_guards(game, seat)
        if ready:
            roll = "Discard a Guard from your table and roll (4-6 cancels)"
            out.append(OnCard.of(CardAct.GUARD_TABLE, ready[0].card, roll))
    return [Say.of(Word.PASS, "Let it be"), *out]


def _table_guards(game: Spartacus, seat: int) -> list[Asset]:
    return [
        a
        for a in game.state.players[seat].assets
        if not a.exhausted and game.card(a.card).kind is CardKind.GUARD
    ]


def _may_react(game: Spartacus, scheme: Scheme, seat: int) -> bool:
    """Public knowledge only: a seat with no cards in hand and no ready Guard on its table
    (when it is the target) cannot react, so it is not asked."""
    return bool(game.state.players[seat].hand) or (
        seat == scheme.target and bool(_table_guards(game, seat))
    )


# --- choices --------------------------------------------------------------------------------------


def apply(game: Spartacus, scheme: Scheme, seat: int, chosen: Choice) -> None:
    card = game.card(scheme.card)
    match chosen:
        case OnSeat(act=SeatAct.TARGET, seat=target):
            _targeted(game, scheme, target)
        case Say(word=Word.ASK_SHOW | Word.ASK_HIDE as word):
            scheme.revealed = word is Word.ASK_SHOW
            scheme.step = SchemeStep.SUPPORT
            scheme.answers = [None if s != scheme.schemer else False for s in range(game.players)]
            what = f"{card.name}{aim(game, scheme)}" if scheme.revealed else "a Scheme"
            game.emit(f"{game.name_of(seat)} asks for support for {what}")
        case Say(word=Word.SUPPORT | Word.REFUSE as word):
            _answered(game, scheme, seat, word is Word.SUPPORT)
        case Say(word=Word.BUY):
            power = coin_power(game, seat)
            assert power is not None
            scheme.bought = _missing(game, scheme)
            paid = pay_bank(game, seat, scheme.bought * power.denarii)  # ruling: paid at launch
            game.emit(f"{game.name_of(seat)} pays {denarii(paid)} for {scheme.bought} Influence")
            _launch(game, scheme)
        case Say(word=Word.WITHDRAW):
            _withdraw(game, scheme, "is withdrawn")
        case (
            Say(word=Word.PASS)
            | OnCard(act=CardAct.REACT | CardAct.GUARD_HAND | CardAct.GUARD_TABLE)
        ):
            _reply(game, scheme, seat, chosen)
        case OnCard(act=CardAct.PICK, card=victim):
            scheme_effects.hit(game, scheme, find_asset(game, scheme.target, victim))
            scheme.effect += 1
            scheme_effects.resolve(game, scheme)


def _answered(game: Spartacus, scheme: Scheme, seat: int, support: bool) -> None:
    """A secret answer to an ask for support; once all are in, they are revealed together."""
    card = game.card(scheme.card)
    scheme.answers[seat] = support
    game.emit(f"You {'support' if support else 'refuse to support'} the Scheme", seats=[seat],
              redacted=f"{game.name_of(seat)} has answered")  # fmt: skip
    if all(a is not None for a in scheme.answers):
        # revealed together, like every simultaneous decision
        answers = [f"{game.name_of(s)} {'supports' if a else 'refuses'}"
                   for s, a in enumerate(scheme.answers) if s != scheme.schemer]  # fmt: skip
        game.emit(
            "Support for " + game.name_of(scheme.schemer) + "'s Scheme: " + ", ".join(answers)
        )
        if _missing(game, scheme) == 0:
            _launch(game, scheme)
        elif _buyable(game, scheme.schemer, _missing(game, scheme), card.cost):
            scheme.step = SchemeStep.PAY
        else:
            _withdraw(game, scheme, "lacks support")


def _withdraw(game: Spartacus, scheme: Scheme, why: str) -> None:
    """Not launched: the card goes back to the hand, still hidden unless it was shown."""
    it = game.state.intrigue
    assert it is not None
    game.state.players[scheme.schemer].hand.append(scheme.card)
    it.asked.append(scheme.card)  # ruling: not asked for again this turn
    what = game.card(scheme.card).name if scheme.revealed else "Scheme"
    game.emit(f"{game.name_of(scheme.schemer)}'s {what} {why}")
    it.scheme = None


def _launch(game: Spartacus, scheme: Scheme) -> None:
    card = game.card(scheme.card)
    backers = [game.name_of(s) for s, yes in enumerate(scheme.answers) if yes]
    if scheme.bought:
        backers.append(f"{scheme.bought} Influence bought")
    how = f" with the support of {' and '.join(backers)}" if backers else ""
    game.emit(
        f"{game.name_of(scheme.schemer)} launches {card.name}{aim(game, scheme)}{how}: {card.text}"
    )
    scheme.step = SchemeStep.REACT
    n = game.players
    scheme.replies = [None] * n
    scheme.queue = [
        s for s in ((scheme.schemer + k) % n for k in range(1, n)) if _may_react(game, scheme, s)
    ]
    if not scheme.queue:
        scheme_effects.succeed(game, scheme)


def _reply(game: Spartacus, scheme: Scheme, seat: int, chosen: Choice) -> None:
    """A secret reply, kept in the state as its id; once every asked seat has one, they are
    taken in turn (`_settle`)."""
    scheme.replies[seat] = chosen.id
    passed = isinstance(chosen, Say)
    mine = "You let it be" if passed else "You answer the Scheme (if nobody before you does)"
    game.emit(mine, seats=[seat], redacted=f"{game.name_of(seat)} has answered")
    if all(scheme.replies[s] is not None for s in scheme.queue):
        _settle(game, scheme)


def _settle(game: Spartacus, scheme: Scheme) -> None:
    """The replies, clockwise from the schemer's left: the first Reaction or Guard acts."""
    while scheme.queue:
        seat = scheme.queue[0]
        reply = held_card(scheme.replies[seat] or Word.PASS.value)
        if reply is None:
            scheme.queue.pop(0)
            continue
        act, ref = reply
        if act is CardAct.REACT and ref in game.state.players[seat].hand:
            _react(game, scheme, seat, ref)
            return
        if act is not CardAct.REACT and _guard_ready(game, seat, act, ref):
            if _guard(game, scheme, seat, ref, act is CardAct.GUARD_TABLE):
                return  # cancelled
            if _may_react(game, scheme, seat):
                scheme.replies[seat] = None  # rules: Guards - "you can try with another"
                return
        scheme.queue.pop(0)
    scheme_effects.succeed(game, scheme)


def _guard_ready(game: Spartacus, seat: int, act: CardAct, ref: int) -> bool:
    if act is CardAct.GUARD_HAND:
        return ref in game.state.players[seat].hand
    return any(a.card == ref for a in _table_guards(game, seat))


def _cancelled(game: Spartacus, scheme: Scheme, by: str) -> None:
    game.state.intrigue_discard.append(scheme.card)
    game.emit(
        f"{game.name_of(scheme.schemer)}'s {game.card(scheme.card).name} is cancelled by {by}"
    )
    scheme_effects.done(game)


def _react(game: Spartacus, scheme: Scheme, seat: int, card_ref: int) -> None:
    card = game.card(card_ref)
    discard_intrigue(game, seat, card_ref)
    _cancelled(game, scheme, f"{game.name_of(seat)}'s {card.name}")
    for effect in card.effects:
        scheme_effects.apply_effect(game, effect, seat, scheme.schemer)


def _guard(game: Spartacus, scheme: Scheme, seat: int, ref: int, on_table: bool) -> bool:
    """Discard the Guard and roll; True when it cancels the Scheme."""
    if on_table:
        discard_asset(game, seat, ref)
    else:
        discard_intrigue(game, seat, ref)
    roll = game.rng.roll()
    if game.state.intrigue is not None:
        game.state.intrigue.guard_roll = [seat, roll]
    where = "table" if on_table else "hand"
    if roll >= GUARD_SAVES_FROM:
        game.emit(f"{game.name_of(seat)} discards a Guard from the {where} and rolls {roll}")
        _cancelled(game, scheme, "a Guard")
        return True
    game.emit(f"{game.name_of(seat)} discards a Guard from the {where} and rolls {roll}: it fails")
    return False
