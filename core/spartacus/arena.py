"""rules: Arena Phase - the Host's games, tribute, bets, the fight (see `combat`), and after.

The Host gains 1 Influence, then invites two Dominus one at a time (refusing costs 1
Influence; when nobody is left to ask, the phase ends without games). An invited Dominus
chooses a ready Gladiator or Slave and up to one Equipment card of each type. The Bank pays
tribute for the combatants' Favor and Champion markers; everyone bets at once and in secret;
they fight; the winner gains Influence and Favor; bets are paid; the Host turns a thumb.

rules: Game Objective - when several Dominus end a phase at 12, the Arena decides: the phase
FINAL is a chain of deciding bouts between them (docs/rulings.md), reusing the same steps
without tribute, bets, Favor or thumbs.

Choice ids: "invite:<seat>", "accept", "refuse", "react:<card>" (a Reaction that answers an
invitation: refuse without the Influence), "fighter:<asset>", "equip:<asset>|none",
"bet:none", "bet:win:<seat>:<n>", "bet:wound:<n>", "bet:decap:<n>", "thumbs:up|down"; the
fight's own in `combat`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harena.core.engine import Choice, Prompt
from harena.core.plural import denarii
from harena.core.spartacus import bets, combat, reactions
from harena.core.spartacus.cards import CardKind, Slot
from harena.core.spartacus.choices import (
    CardAct,
    OnCard,
    OnSeat,
    PlaceBet,
    Say,
    SeatAct,
    Word,
)
from harena.core.spartacus.holdings import (
    change_influence,
    discard_asset,
    discard_intrigue,
    find_asset,
    gain,
    label,
    ready_combatants,
)
from harena.core.spartacus.state import (
    CHAMPION_TRIBUTE,
    FAVOR_TRIBUTE,
    FAVORS_FOR_CHAMPION,
    ArenaState,
    ArenaStep,
    Asset,
    Fighter,
    Phase,
)

if TYPE_CHECKING:
    from harena.core.spartacus.rules import Spartacus

SLOTS = tuple(Slot)


def start(game: Spartacus) -> None:
    s = game.state
    s.phase = Phase.ARENA
    game.emit(f"Round {s.round}: Arena")
    change_influence(game, s.host, 1)  # rules: Honor to the Host
    game.emit(f"{game.name_of(s.host)} hosts the games and gains 1 Influence")
    s.arena = ArenaState()
    _next_invitation(game)


def start_final(game: Spartacus, leaders: list[int]) -> None:
    s = game.state
    s.phase = Phase.FINAL
    host = s.host
    order = sorted(leaders, key=lambda seat: (seat - host) % game.players)
    game.emit(f"{', '.join(game.name_of(x) for x in order)} all reach {game.content.target} Influence: "
              "glory is decided in the Arena")  # fmt: skip
    s.arena = ArenaState(contenders=order)
    _next_bout(game)


def _arena(game: Spartacus) -> ArenaState:
    assert game.state.arena is not None
    return game.state.arena


# --- invitations ----------------------------------------------------------------------------------


def _candidates(game: Spartacus) -> list[int]:
    a = _arena(game)
    return [s for s in range(game.players) if s not in a.asked and ready_combatants(game, s)]


def _next_invitation(game: Spartacus) -> None:
    a = _arena(game)
    if len(a.fighters) == 2:
        _tribute_and_bets(game)
    elif not _candidates(game):
        game.emit("Nobody else can be invited: no games this round")
        _end(game)
    else:
        a.step = ArenaStep.INVITE


def _next_bout(game: Spartacus) -> None:
    """FINAL: the first two contenders who can field a combatant fight; a contender who
    cannot forfeits."""
    a = _arena(game)
    for seat in list(a.contenders):
        if not ready_combatants(game, seat) and not any(f.seat == seat for f in a.fighters):
            a.contenders.remove(seat)
            game.emit(f"{game.name_of(seat)} has no combatant to send and forfeits")
    if len(a.contenders) == 1:
        game.finish(a.contenders, f"{game.name_of(a.contenders[0])} wins the deciding games")
        return
    if not a.contenders:
        best = max(p.influence for p in game.state.players)
        top = [s for s, p in enumerate(game.state.players) if p.influence == best]
        game.finish(top, "nobody could fight the deciding games; most Influence")
        return
    a.fighters = [f for f in a.fighters if f.seat in a.contenders[:2]]
    for f in a.fighters:
        f.at = game.content.board.starts[a.fighters.index(f)]
    fielded = {f.seat for f in a.fighters}
    waiting = [s for s in a.contenders[:2] if s not in fielded]
    if waiting:
        a.invitee = waiting[0]
        a.step = ArenaStep.COMBATANT
    else:
        for f in a.fighters:
            combat.arm(game, f)
        a.step = ArenaStep.FIGHT
        combat.begin(game, a)


def prompts(game: Spartacus) -> list[Prompt]:
    a = _arena(game)
    host = game.state.host
    choices: tuple[Choice, ...]
    if a.step is ArenaStep.INVITE:
        choices = tuple(
            OnSeat.of(SeatAct.INVITE, s, "Yourself" if s == host else game.name_of(s))
            for s in _candidates(game)
        )
        return [Prompt(host, "invite", "Invite a Dominus to the games", choices)]
    if a.step is ArenaStep.ANSWER:
        assert a.invitee is not None
        choices = (Say.of(Word.ACCEPT, "Accept"), Say.of(Word.REFUSE, "Refuse (lose 1 Influence)"),
                   *_invitation_reactions(game, a.invitee))  # fmt: skip
        return [
            Prompt(
                a.invitee, "invitation", f"{game.name_of(host)} invites you to the games", choices
            )
        ]
    if a.step is ArenaStep.COMBATANT:
        assert a.invitee is not None
        choices = tuple(
            OnCard.of(CardAct.FIGHTER, x.card, label(game.card(x.card), x))
            for x in ready_combatants(game, a.invitee)
        )
        return [Prompt(a.invitee, "choose_combatant", "Choose your combatant", choices)]
    if a.step is ArenaStep.EQUIP:
        assert a.invitee is not None
        slot = SLOTS[a.slot]
        choices = tuple(
            OnCard.of(CardAct.EQUIP, c, game.card(c).name + ": " + game.card(c).text)
            for c in _equipment(game, a.invitee, slot))  # fmt: skip
        return [Prompt(a.invitee, "choose_equipment", f"Equip a {slot.value}?",
                       choices + (Say.of(Word.NO_EQUIPMENT, f"No {slot.value}"),))]  # fmt: skip
    if a.step is ArenaStep.BETS:
        return [bets.prompt(game, s) for s in range(game.players) if not a.betted[s]]
    if a.step is ArenaStep.THUMBS:
        choices = (
            Say.of(Word.THUMBS_UP, "Thumbs up: it lives"),
            Say.of(Word.THUMBS_DOWN, "Thumbs down: execute it"),
        )
        loser = _loser(a)
        # an execution cannot be undone (and costs the Host Influence per Favor): asked twice
        return [
            Prompt(host, "thumbs", f"The fate of {combat.who(game, loser)}", choices,
                   confirm=(Word.THUMBS_DOWN.value,))
        ]  # fmt: skip
    return combat.prompts(game, a)


def _invitation_reactions(game: Spartacus, seat: int) -> list[Choice]:
    """Reactions in `seat`'s hand that answer an invitation (their prompt is theirs alone)."""
    p = game.state.players[seat]
    out: list[Choice] = []
    for c in p.hand:
        card = game.card(c)
        if (
            card.kind is CardKind.REACTION
            and card.answers == "invitation"
            and card.influence <= p.influence
        ):
            out.append(OnCard.of(CardAct.REACT, c, f"{card.name}: {card.text}"))
    return out


def _equipment(game: Spartacus, seat: int, slot: Slot) -> list[int]:
    used = {e for f in _arena(game).fighters for e in f.equipment}
    seen: set[str] = set()
    out = []
    for asset in game.state.players[seat].assets:
        card = game.card(asset.card)
        if getattr(card, "slot", None) is slot and asset.card not in used and card.id not in seen:
            seen.add(card.id)
            out.append(asset.card)
    return out


# --- choices --------------------------------------------------------------------------------------


def apply(game: Spartacus, seat: int, chosen: Choice) -> None:
    a = _arena(game)
    name = game.name_of(seat)
    match chosen:
        case OnSeat(act=SeatAct.INVITE, seat=invitee):
            a.invitee = invitee
            a.asked.append(invitee)
            if invitee == game.state.host:
                game.emit(f"{name} invites their own House")
                a.step = ArenaStep.COMBATANT
            else:
                game.emit(f"{name} invites {game.name_of(invitee)}")
                a.step = ArenaStep.ANSWER
        case Say(word=Word.ACCEPT):
            game.emit(f"{name} accepts")
            a.step = ArenaStep.COMBATANT
        case Say(word=Word.REFUSE):
            change_influence(game, seat, -1)  # rules: Refusing an Invitation
            game.emit(f"{name} refuses and loses 1 Influence")
            a.invitee = None
            _next_invitation(game)
        case OnCard(act=CardAct.REACT, card=card):
            # rules: Reactions "in response to other events": an invitation
            discard_intrigue(game, seat, card)
            game.emit(f"{name} plays {game.card(card).name} and refuses without losing Influence")
            a.invitee = None
            _next_invitation(game)
        case OnCard(act=CardAct.FIGHTER, card=card):
            fighter = Fighter(seat, card, at=game.content.board.starts[len(a.fighters)])
            a.fighters.append(fighter)
            game.emit(f"{name} sends {game.card(card).name} to hex {'I' * len(a.fighters)}")
            a.slot = -1
            _next_slot(game)
        case OnCard(act=CardAct.EQUIP, card=card):
            a.fighters[-1].equipment.append(card)
            game.emit(f"{name} equips {game.card(card).name}")
            _next_slot(game)
        case Say(word=Word.NO_EQUIPMENT):
            _next_slot(game)
        case PlaceBet() | Say(word=Word.NO_BET):
            if bets.place(game, seat, chosen):
                _fight(game)
        case Say(word=Word.THUMBS_UP | Word.THUMBS_DOWN as word):
            _thumbs(game, word is Word.THUMBS_DOWN)
        case _:
            combat.apply(game, a, chosen)
            if a.fight is None:
                _after_fight(game)


def _next_slot(game: Spartacus) -> None:
    a = _arena(game)
    while True:
        a.slot += 1
        if a.slot >= len(SLOTS):
            break
        if _equipment(game, a.fighters[-1].seat, SLOTS[a.slot]):
            a.step = ArenaStep.EQUIP
            return
    a.invitee = None
    if game.state.phase is Phase.FINAL:
        _next_bout(game)
    else:
        _next_invitation(game)


def _tribute_and_bets(game: Spartacus) -> None:
    a = _arena(game)
    for f in a.fighters:
        asset = find_asset(game, f.seat, f.card)
        due = FAVOR_TRIBUTE * asset.favor + CHAMPION_TRIBUTE * asset.champion  # rules: Tribute
        if due:
            game.emit(
                f"The Bank pays {game.name_of(f.seat)} {denarii(gain(game, f.seat, due))} of tribute"
            )
        combat.arm(game, f)
    a.step = ArenaStep.BETS
    if bets.open_bets(game):
        _fight(game)


def _fight(game: Spartacus) -> None:
    a = _arena(game)
    a.step = ArenaStep.FIGHT
    combat.begin(game, a)


# --- after the fight ------------------------------------------------------------------------------


def _after_fight(game: Spartacus) -> None:
    a = _arena(game)
    assert a.loser is not None
    loser, winner = a.fighters[a.loser], a.fighters[1 - a.loser]
    game.emit(f"{combat.who(game, winner)} defeats {combat.who(game, loser)} ({a.outcome})")
    loser_asset = find_asset(game, loser.seat, loser.card)
    if game.state.phase is Phase.FINAL:
        _wound_or_kill(game, loser.seat, loser_asset, a.outcome)
        a.contenders.remove(loser.seat)
        a.fighters = [winner]
        a.loser = None
        _next_bout(game)
        return
    change_influence(game, winner.seat, 1)  # rules: Victory and Defeat
    asset = find_asset(game, winner.seat, winner.card)
    asset.favor += 1
    game.emit(
        f"{game.name_of(winner.seat)} gains 1 Influence; {game.card(winner.card).name} gains a Favor marker"
    )
    if not asset.champion and asset.favor >= FAVORS_FOR_CHAMPION:  # rules: Crowning a Champion
        asset.favor -= FAVORS_FOR_CHAMPION
        asset.champion = True
        change_influence(game, winner.seat, 1)
        game.emit(
            f"{game.card(winner.card).name} is crowned Champion: {game.name_of(winner.seat)} gains 1 Influence"
        )
    bets.pay(game, winner.seat, a.outcome)
    _wound_or_kill(game, loser.seat, loser_asset, a.outcome)
    # rules: Reactions "in response to other events": a combatant wounded (docs/rulings.md)
    if a.outcome == "wound" and reactions.open_window(game, "wounded", loser.seat, loser.card):
        return
    after_wounds(game)


def after_wounds(game: Spartacus) -> None:
    """The loser's fate once its wound (and any Reaction to it) is settled."""
    a = _arena(game)
    if a.outcome == "decapitation":
        _end(game)
    elif find_asset(game, _loser(a).seat, _loser(a).card).champion:
        game.emit("A Champion cannot be executed: it returns to its house")
        _end(game)
    else:
        a.step = ArenaStep.THUMBS


def _loser(a: ArenaState) -> Fighter:
    assert a.loser is not None
    return a.fighters[a.loser]


def _wound_or_kill(game: Spartacus, seat: int, asset: Asset, outcome: str) -> None:
    if outcome == "wound":
        asset.wounded = asset.exhausted = True
    elif outcome == "decapitation":
        discard_asset(game, seat, asset.card)


def _thumbs(game: Spartacus, down: bool) -> None:
    """rules: The Power of Life & Death - execution costs the Host 1 Influence per Favor."""
    a = _arena(game)
    loser = _loser(a)
    host = game.state.host
    if down:
        asset = find_asset(game, loser.seat, loser.card)
        cost = -change_influence(game, host, -asset.favor)
        game.emit(
            f"Thumbs down: {combat.who(game, loser)} is executed"
            + (f"; {game.name_of(host)} loses {cost} Influence" if cost else "")
        )
        discard_asset(game, loser.seat, loser.card)
    else:
        game.emit(f"Thumbs up: {combat.who(game, loser)} lives")
    _end(game)


def _end(game: Spartacus) -> None:
    game.state.arena = None
    game.end_phase()
