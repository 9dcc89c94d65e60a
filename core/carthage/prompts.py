"""Every open Carthage decision as a `Prompt` with its complete list of legal choices.

At most one seat decides at a time (the game is strictly sequential). The order of the checks is
the order of precedence: an effect waiting on the stack, then the phase's own decision. The
choice-id formats are listed in `rules`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from harena.core.carthage.choices import (
    BuyCard,
    ChooseSide,
    DiscardChoice,
    FocusCard,
    LobbyCard,
    PlayCard,
    SeatChoice,
    StepChoice,
)
from harena.core.carthage.effects import Damage, Gear
from harena.core.carthage.hexgrid import Direction, knockback_directions
from harena.core.carthage.state import (
    FOCUS_COST,
    INITIATE_COST,
    LOBBY_COST,
    SETUP_PHASES,
    Frame,
    Phase,
    Wait,
)
from harena.core.engine import Choice, Prompt
from harena.core.plural import counted

if TYPE_CHECKING:
    from harena.core.carthage.rules import Carthage


def open_prompts(game: Carthage) -> list[Prompt]:
    s = game.state
    if s.phase is Phase.OVER:
        return []
    if s.stack and s.stack[-1].wait is not None:
        return [_effect_prompt(game, s.stack[-1])]
    if not s.stack and game.beast_rules.beast_waiting():
        return [game.beast_rules.beast_prompt()]
    if s.phase in SETUP_PHASES:
        return [game.setup_rules.setup_prompt()]
    ruleset = game.rulesets.ruleset_prompt()  # a Modular Ruleset's own decision
    if ruleset is not None:
        return [ruleset]
    if s.phase is Phase.ACTION:
        return [_action_prompt(game)]
    if s.phase is Phase.FAVOR:
        return [_favor_prompt(game)]
    return []  # pragma: no cover - advance() never stops elsewhere


def _effect_prompt(game: Carthage, frame: Frame) -> Prompt:
    s = game.state
    me = s.players[frame.owner]
    wait = frame.wait
    name = game.board.name_of
    if wait is Wait.MOVE_STEP:
        text = f"Move: {counted(frame.left or 0, 'step')} left"
        choices: tuple[Choice, ...] = tuple(
            StepChoice.of(d, _step_label(game, frame, d)) for d in game.board.step_directions(frame)
        )
    elif wait is Wait.TARGET and isinstance(game.resolver.program(frame)[frame.pc], Gear):
        mate = game.equipment_rules.twin_blades_ask(frame)
        assert mate is not None
        text = f"Twin Blades: deal {frame.damage} Damage to your teammate {name(mate)} too?"
        choices = (
            SeatChoice.of("target", mate, f"{name(mate)}: strike"),
            SeatChoice.of("target", None, f"Spare {name(mate)}"),
        )
    elif wait is Wait.TARGET:
        text = f"Deal {frame.damage} Damage to whom?"
        reach = _reach(game, frame)
        targets = game.board.damage_targets(frame, reach)
        choices = tuple(SeatChoice.of("target", t, name(t)) for t in targets)
        if game.board.may_hold_back(frame, targets):
            choices += (SeatChoice.of("target", None, "Nobody: hold back"),)
    elif wait is Wait.OPPONENT:
        text = f"Which opponent loses {frame.damage} Favor?"
        choices = tuple(
            SeatChoice.of("target", t, f"{name(t)} ({s.players[t].favor} Favor)")
            for t in game.board.opponents(frame.owner)
        )
    elif wait is Wait.KNOCKBACK:
        assert frame.target is not None
        target_at = s.players[frame.target].at
        assert me.at is not None and target_at is not None
        text = f"Knock {name(frame.target)} back which way?"
        choices = tuple(StepChoice.of(d, d.name) for d in knockback_directions(me.at, target_at))
    elif wait is Wait.DISCARD:
        text = "Discard a card from your hand"
        choices = tuple(DiscardChoice.of(i, game.board.card_name(i)) for i in me.hand)
    elif wait is Wait.FOCUS:
        text = "Focus a card from your discard pile (free)?"
        choices = tuple(FocusCard.of(i, game.board.card_name(i)) for i in me.discard)
        choices += (Choice("skip", "Do not Focus"),)
    else:
        text = "Pass the Starting Player token to an opponent"
        choices = tuple(
            SeatChoice.of("start", t, name(t)) for t in game.board.opponents(frame.owner)
        )
    assert wait is not None
    return Prompt(frame.owner, wait.value, text, choices)


def _reach(game: Carthage, frame: Frame) -> int:
    op = game.resolver.program(frame)[frame.pc]
    assert isinstance(op, Damage)
    return op.reach


def _step_label(game: Carthage, frame: Frame, d: Direction) -> str:
    at = game.state.players[frame.owner].at
    assert at is not None
    h = game.arena.step(at, d)
    assert h is not None
    label = d.name
    token = game.state.tokens.get(h)
    if token is not None and token.face_up:
        label += f" ({game.token_defs[token.token].name})"
    return label


def _action_prompt(game: Carthage) -> Prompt:
    s = game.state
    if s.in_play is not None:
        card = game.content.card(s.cards[s.in_play.instance])
        sides = tuple(ChooseSide.of(k, side.text) for k, side in enumerate(card.sides))
        return Prompt(s.in_play.seat, "choose_side", f"{card.name}: choose a side", sides)
    hand = s.players[s.turn].hand
    choices: tuple[Choice, ...] = tuple(
        PlayCard.of(i, f"{game.board.card_name(i)}: {game.card_texts[s.cards[i]]}") for i in hand
    )
    for extra in game.hooks.turn_choices:  # Naked and Afraid; Equipment in place of a card
        choices += extra(s.turn)
    return Prompt(s.turn, "play_card", f"Round {s.round}: play a card", choices)


def _favor_prompt(game: Carthage) -> Prompt:
    s = game.state
    seat = s.turn
    if s.lobby_reveal is not None:
        reveal = (Choice("reveal", "Reveal it to everyone"), Choice("hide", "Keep it secret"))
        return Prompt(s.lobby_reveal, "lobby_reveal", "Reveal the lobbied Theater card?", reveal)
    if s.focus_pick is not None:
        pile = tuple(
            FocusCard.of(i, game.board.card_name(i)) for i in s.players[s.focus_pick].discard
        )
        return Prompt(s.focus_pick, "focus_card", "Focus which card?", pile)
    if s.evaluate_buy is not None:
        seat = s.evaluate_buy
        buys = tuple(_buy_choice(game, seat, k) for k in game.favor_phase.affordable_row(seat))
        return Prompt(
            seat,
            "evaluate_buy",
            "Buy one of the new cards first?",
            (*buys, Choice("decline", "No")),
        )
    choices = (*favor_choices(game, seat), Choice("pass", "Pass (your Favor goes to 0)"))
    return Prompt(seat, "favor", f"Spend Favor ({s.players[seat].favor})", choices)


def favor_choices(game: Carthage, seat: int) -> Iterator[Choice]:
    """Everything `seat` can buy now, in menu order: the one list both the Favor menu and the
    rule that a seat with nothing it can afford passes at once (favor_phase.next_buyer) read
    (lazily: that rule needs only the first)."""
    s = game.state
    favor = s.players[seat].favor
    for k in game.favor_phase.affordable_row(seat):
        yield _buy_choice(game, seat, k)
    if s.initiator is None and favor >= INITIATE_COST:
        yield Choice("initiate", f"Initiate ({INITIATE_COST}): Starting Player next round")
    if favor >= FOCUS_COST and game.board.may_focus(seat):
        yield Choice("focus", f"Focus ({FOCUS_COST}): remove a discarded card")
    if game.favor_phase.may_evaluate(seat):
        yield Choice("evaluate", f"Evaluate ({game.favor_phase.evaluate_cost()}): a new Action row")
    if favor >= LOBBY_COST:
        for card_id in dict.fromkeys(game.favor_phase.lobby_pool()):
            name = game.content.theater(card_id).name
            yield LobbyCard.of(card_id, f"Lobby ({LOBBY_COST}) {name}")
    for extra in game.hooks.favor_choices:  # the Modular Rulesets' Favor Actions; Ready
        yield from extra(seat)


def _buy_choice(game: Carthage, seat: int, slot: int) -> Choice:
    s = game.state
    card_id = s.cards[s.row[slot]]
    cost = game.favor_actions.row_cost(seat, s.row[slot])  # with any Retain cubes
    text = f"Buy {game.card_names[card_id]} ({cost}): {game.card_texts[card_id]}"
    return BuyCard.of(slot, text)
