"""Where the optional features plug into the round of Carthage: one list per event, read here.

The core pieces (`flow`, `board`, `resolve`, `prompts`) run every hook of an event at
that moment, in list order; `plug_features` is the one place that says which feature listens
to what. A feature whose table option is off listens anyway and does nothing, so the lists
never depend on the options and a new feature is one more line here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from harena.core.carthage.beasts import BeastTiming
from harena.core.carthage.state import Frame
from harena.core.engine import Choice

if TYPE_CHECKING:
    from harena.core.carthage.rules import Carthage


@dataclass
class Hooks:
    round_starts: list[Callable[[], None]] = field(default_factory=list)
    """A round begins, before the Starting Player changes hands (Gear conditions end)."""
    actions_start: list[Callable[[], None]] = field(default_factory=list)
    """The Action phase begins, after the Theater card and before the hands are drawn."""
    hands_drawn: list[Callable[[], None]] = field(default_factory=list)
    """Every hand is drawn (the Beasts that act at the start push their frames)."""
    actions_end: list[Callable[[], None]] = field(default_factory=list)
    """The last card is played, after a late Theater card is pushed (on top of it)."""
    after_actions: list[Callable[[], bool]] = field(default_factory=list)
    """Before King of the Hill; True: something was started, the round waits for it."""
    card_chosen: list[Callable[[Frame], None]] = field(default_factory=list)
    """A card's (or an Equipment card's) frame is made, before it goes on the stack."""
    card_revealed: list[Callable[[], None]] = field(default_factory=list)
    """An Action card's side is chosen and its frame is on the stack."""
    frame_held: list[Callable[[Frame], bool]] = field(default_factory=list)
    """Before each operation of the top frame: True holds it (a response window is open)."""
    stepped: list[Callable[[int], None]] = field(default_factory=list)
    """A gladiator or Beast has taken one step of Movement."""
    damage_taken: list[Callable[[int, int], int]] = field(default_factory=list)
    """The Damage `seat` takes of `amount`, each hook given the previous one's answer."""
    turn_choices: list[Callable[[int], tuple[Choice, ...]]] = field(default_factory=list)
    """What a seat may do on its turn besides playing a card."""
    favor_choices: list[Callable[[int], list[Choice]]] = field(default_factory=list)
    """What a seat may buy in the Favor phase besides the Game Board's Favor Options."""


def plug_features(game: Carthage) -> Hooks:
    """Every optional feature's hooks, in the order the rules run them."""
    beasts, equipment = game.beast_rules, game.equipment_rules
    conditions, naked = game.conditions, game.naked
    return Hooks(
        round_starts=[equipment.clear_conditions],
        actions_start=[conditions.start_of_actions],  # Battle Hardened, Featured Match
        hands_drawn=[lambda: beasts.beast_actions(BeastTiming.START)],
        actions_end=[lambda: beasts.beast_actions(BeastTiming.END)],
        after_actions=[conditions.end_of_actions],  # Strict Discipline, The Southern Winds
        card_chosen=[equipment.mark_hobbled],  # Weighted Bola
        card_revealed=[naked.card_revealed],  # Naked and Afraid's window opens
        frame_held=[naked.holds_frame],  # ... and holds the card while it is open
        stepped=[conditions.stepped],  # Crocodile Island
        damage_taken=[equipment.incoming_damage],  # Heavy Scutum
        turn_choices=[naked.naked_turn_choices, equipment.equipment_choices],
        favor_choices=[game.favor_actions.ruleset_favor_choices, equipment.ready_choices],
    )
