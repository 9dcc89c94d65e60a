"""rules: Intrigue Phase - Reactions "can be played in response to other events, not just on
your turn. They also have a Required Influence level, but you cannot receive support to play
them." The window for the events other than a Scheme and an invitation: an auction won
(`auction_won`) and a combatant wounded in the Arena (`wounded`).

When the event happens, every Dominus its Reactions could serve is asked at once, chosen by
public facts alone: holds an Intrigue card, has at least the lowest Required Influence of the
Reactions that answer the event, and fits the event (an auction: every Dominus but the winner;
a wound: the combatant's owner). Each asked seat reads the same prompt; its choices are "pass"
and its own usable Reactions; the answers stay secret until all are in, like support answers.
Then the first reactor clockwise from the event's seat plays its card (revealed, logged); the
others keep theirs and nothing tells that they tried.

Choice ids (prompt `event_reaction`): "pass", "react:<card>".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harena.core.engine import Choice, Prompt
from harena.core.spartacus.cards import CardKind, Heal, Influence, IntrigueCard, Who
from harena.core.spartacus.choices import CardAct, OnCard, Say, Word, held_card
from harena.core.spartacus.holdings import discard_intrigue, find_asset, owner_of
from harena.core.spartacus.scheme_effects import apply_effect
from harena.core.spartacus.state import ReactionWindow

if TYPE_CHECKING:
    from harena.core.spartacus.rules import Spartacus

PROMPT_KIND = "event_reaction"


def cards_for(game: Spartacus, event: str) -> list[IntrigueCard]:
    """The Reactions in the box that answer `event` (content, the same for every player)."""
    return [c for c in game.content.intrigue if c.kind is CardKind.REACTION and c.answers == event]


def _may_be_asked(game: Spartacus, event: str, seat: int, at: int) -> bool:
    """Public facts only: a hand, enough Influence for the cheapest such Reaction, and the
    event's own condition (another Dominus won; your combatant was wounded)."""
    cards = cards_for(game, event)
    p = game.state.players[seat]
    if not cards or not p.hand or p.influence < min(c.influence for c in cards):
        return False
    return seat != at if event == "auction_won" else seat == at


def open_window(game: Spartacus, event: str, seat: int, card: int, price: int = 0) -> bool:
    """Open the window for `event` at `seat` (the lot or combatant `card`). False when nobody
    could be asked: the caller goes on at once."""
    n = game.players
    asked = [s for s in ((seat + k) % n for k in range(n)) if _may_be_asked(game, event, s, seat)]
    if not asked:
        return False
    game.state.window = ReactionWindow(event, seat, card, price, asked, [None] * n)
    return True


def _window(game: Spartacus) -> ReactionWindow:
    w = game.state.window
    assert w is not None
    return w


def _question(game: Spartacus, w: ReactionWindow) -> str:
    what = game.card(w.card).name
    if w.event == "auction_won":
        return f"{game.name_of(w.seat)} wins {what} for {w.price}: play a Reaction?"
    return f"{game.name_of(w.seat)}'s {what} is wounded: play a Reaction?"


def usable(game: Spartacus, w: ReactionWindow, seat: int) -> list[int]:
    """The Reactions `seat` could play now (no support: its own Influence must do)."""
    p = game.state.players[seat]
    out = []
    for c in p.hand:
        card = game.card(c)
        if card.kind is not CardKind.REACTION or card.answers != w.event:
            continue
        if card.influence > p.influence:
            continue
        out.append(c)
    return out


def prompts(game: Spartacus) -> list[Prompt]:
    w = _window(game)
    text = _question(game, w)
    out = []
    for seat in w.asked:
        if w.answers[seat] is not None:
            continue
        plays = tuple(
            OnCard.of(CardAct.REACT, c, _label(game, w, c)) for c in usable(game, w, seat)
        )
        let_be = Say.of(Word.PASS, "Let it be")
        out.append(Prompt(seat, PROMPT_KIND, text, (let_be, *plays), default=let_be.id))
    return out


def _label(game: Spartacus, w: ReactionWindow, ref: int) -> str:
    """What playing it would do here, short enough for an 80-column prompt bar (the card's
    text is in the hand panel)."""
    card = game.card(ref)
    lot = game.card(w.card).name
    does = []
    for e in card.effects:
        if isinstance(e, Heal):
            does.append(f"{lot} is not wounded")
        elif isinstance(e, Influence):
            whose = game.name_of(w.seat) if e.who is Who.TARGET else "you"
            verb = "loses" if whose != "you" else "lose"
            verb = verb if e.amount < 0 else ("gains" if whose != "you" else "gain")
            does.append(f"{whose} {verb} {abs(e.amount)} Influence")
    return f"Play {card.name}" + (f": {', '.join(does)}" if does else f": {card.text}")


def apply(game: Spartacus, seat: int, chosen: Choice) -> None:
    """A secret answer, kept in the state as its id until every answer is in (`_resolve`)."""
    w = _window(game)
    w.answers[seat] = chosen.id
    if isinstance(chosen, OnCard):
        mine = f"You play {game.card(chosen.card).name} (if nobody before you does)"
    else:
        mine = "You let it be"
    game.emit(mine, seats=[seat], redacted=f"{game.name_of(seat)} has answered")
    if all(w.answers[s] is not None for s in w.asked):
        _resolve(game, w)


def _resolve(game: Spartacus, w: ReactionWindow) -> None:
    """The first reactor clockwise from the event's seat plays; the rest keep their cards."""
    player = None
    for seat in w.asked:  # already clockwise from the event's seat
        answer = held_card(w.answers[seat] or Word.PASS.value)
        if answer is not None and answer[1] in usable(game, w, seat):
            player = seat, answer[1]
            break
    game.state.window = None
    if player is None:
        game.emit("No Reaction is played")
    else:
        _play(game, w, *player)
    _go_on(game, w)


def _play(game: Spartacus, w: ReactionWindow, seat: int, card_ref: int) -> None:
    card = game.card(card_ref)
    discard_intrigue(game, seat, card_ref)
    game.emit(f"{game.name_of(seat)} plays {card.name}")  # what it does: the lines that follow
    for effect in card.effects:
        if isinstance(effect, Heal):
            owner = owner_of(game, w.card)
            if owner is not None:
                find_asset(game, owner, w.card).wounded = False
                game.emit(f"{game.name_of(owner)}'s {game.card(w.card).name} is not wounded")
        else:
            apply_effect(game, effect, seat, w.seat)


def _go_on(game: Spartacus, w: ReactionWindow) -> None:
    """Back to the event's phase, where it stopped."""
    from harena.core.spartacus import arena, auction  # they open windows: imported when closing

    if w.event == "auction_won":
        auction.next_lot(game)
    else:
        arena.after_wounds(game)
