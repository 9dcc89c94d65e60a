"""What one seat may know about a game of Carthage, as plain data (None: a spectator).

Public: the board, tokens and whether each is face up (a face-down token's kind stays public:
everyone saw it placed), Armor, Favor, hand and deck sizes, discard and
focus piles (face up), the Action row, the Theater card and discard pile. Private: your own hand
and which cards your draw pile holds (sorted: its order stays hidden even from you);
a lobbied Theater card that was not revealed (only its lobbier; the others see the discard
pile with that card still in it, where it was). Never: deck order, the Action
and Theater decks' contents, instance ids of cards another seat holds in hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harena.core.carthage.essedari.view import essedari_view
from harena.core.carthage.rulesets.view import rulesets_view

if TYPE_CHECKING:
    from harena.core.carthage.rules import Carthage


def board_view(game: Carthage, seat: int | None) -> dict[str, Any]:
    s = game.state
    card_of = s.cards
    return {
        "round": s.round,
        "phase": s.phase.value,
        "starting_player": s.starting,
        "initiator": s.initiator,
        "turn": s.turn,
        "players": _players_view(game),
        "hand": None if seat is None else [[i, card_of[i]] for i in s.players[seat].hand],
        # your own draw pile: which cards are in it (you know what you own), never their order
        "my_deck": None if seat is None else sorted(card_of[i] for i in s.players[seat].deck),
        "tokens": [
            {"at": [h.q, h.r], "token": t.token, "face_up": t.face_up} for h, t in s.tokens.items()
        ],
        "row": [[slot, card_of[i]] for slot, i in enumerate(s.row)],
        "action_deck_size": len(s.action_deck),
        "evaluated": [card_of[i] for i in s.evaluated],
        "theater": _theater_view(game, seat),
        "in_play": _in_play_view(game),
        "pending": _pending(game),
        "token_pool": list(s.token_pool),  # setup: picked tokens still to be placed
        "token_held": s.token_held,
        "teams": game.team_mode.team_view(),  # None unless a team mode (core/carthage/teams.py)
        "eliminated": list(s.eliminated),
        "winner": s.winner,
        "rulesets": rulesets_view(game),  # Modular Rulesets: all public
        "essedari": essedari_view(game, seat),  # None in the free-for-all
    }


def _players_view(game: Carthage) -> list[dict[str, Any]]:
    """Every player board, public to all: what each holds is counted, its piles are named."""
    card_of = game.state.cards
    board, equipment = game.board, game.equipment_rules.equipment  # looked up once per view
    return [
        {
            "seat": i,
            "colour": p.colour,  # "" until chosen (Setup 2)
            "class": board.class_of(i),
            "name": board.name_of(i),
            "armor": p.armor,
            "favor": p.favor,
            "alive": p.alive,
            "at": None if p.at is None else [p.at.q, p.at.r],
            "hand_size": len(p.hand),
            "deck_size": len(p.deck),
            "discard": [card_of[c] for c in p.discard],
            "focus": [card_of[c] for c in p.focus],
            "passed": p.passed,
            # equipment_rules: face up (ready) or face down, public like the player board
            "equipment": [{"id": e.id, "ready": e.id not in p.spent} for e in equipment(i)],
            "conditions": list(p.conditions),
            "beast": p.beast if not p.alive else None,  # beast_rules: its Armor is "armor"
        }
        for i, p in enumerate(game.state.players)
    ]


def _in_play_view(game: Carthage) -> dict[str, Any] | None:
    """The Action card being resolved, face up for all."""
    played = game.state.in_play
    if played is None:
        return None
    return {"seat": played.seat, "card": game.state.cards[played.instance], "side": played.side}


def _theater_view(game: Carthage, seat: int | None) -> dict[str, Any]:
    """The Theater deck and discard pile as `seat` may know them (a Lobby may be secret)."""
    s = game.state
    top_known = None
    discard = s.theater_discard
    if s.lobbied is not None and s.theater_deck:
        if s.lobbied.revealed or s.lobbied.seat == seat:
            top_known = s.theater_deck[-1]
        else:
            # a secret Lobby: the pile as everyone saw it, or its difference names the card
            discard = game.favor_phase.lobby_pool()
    return {
        "card": s.theater_card,
        "after_actions": s.after_actions,
        "deck_size": len(s.theater_deck),
        "discard": list(discard),
        "top_known": top_known,
        "hooks": list(s.hooks),
    }


def _pending(game: Carthage) -> dict[str, Any] | None:
    """The effect decision the game waits for, in public terms: whose, what kind, and the
    opponent it concerns (a knockback's victim), so a screen can point at the right hex."""
    s = game.state
    frame = s.stack[-1] if s.stack else None
    if frame is None or frame.wait is None:
        return None
    return {"seat": frame.owner, "kind": frame.wait.value, "target": frame.target}
