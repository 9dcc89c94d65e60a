"""From keys and the hex cursor to Carthage choice ids: pure functions of this seat's prompt.

The prompt bar numbers every choice; these add the arena's own ways to answer the same prompts
(direction keys, a hex picked with the cursor) and say which choices deserve a second press.
Nothing here invents a choice: every id returned is one of the prompt's own choices.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from harena.tui.boards.carthage.arena import (
    DIRECTION_KEYS,
    DIRECTIONS,
    add,
    direction_between,
    occupants,
)
from harena.tui.boards.carthage.catalog import Hex

# Prompt kinds answered with a hex ("hex:q,r"), a direction ("dir:NE"), a gladiator ("target:<seat>").
HEX_KINDS = ("place_gladiator", "place_token", "place_beast", "renovate_token", "renovate_to")
NAKED = "naked"  # Naked and Afraid: the choice the key `n` makes while it is offered
NAKED_KEY = "n"
DIRECTION_KINDS = ("move_step", "knockback_direction")
GLADIATOR_KINDS = ("choose_target", "choose_opponent", "pass_starting_player")

# Choices that spend Favor, give it up or remove a card for good, one digit away from another:
# the first press asks, the second does it.
CONFIRM_KINDS = ("favor", "evaluate_buy", "focus_card", "strict_discipline")


def my_prompt(game: Mapping[str, Any]) -> dict[str, Any] | None:
    """This seat's open prompt (Carthage asks one seat one thing at a time)."""
    prompts = game["prompts"]
    return prompts[0] if prompts else None


def choice_ids(prompt: Mapping[str, Any] | None) -> list[str]:
    return [] if prompt is None else [cid for cid, _ in prompt["choices"]]


def my_hex(game: Mapping[str, Any]) -> Hex | None:
    seat = game["seat"]
    if seat is None:
        return None
    at = game["board"]["players"][seat]["at"]
    return None if at is None else (at[0], at[1])


def knockback_victim(game: Mapping[str, Any], prompt: Mapping[str, Any]) -> Hex | None:
    """Where the gladiator being knocked back stands (the board's pending decision names it)."""
    pending = game["board"].get("pending")
    if pending is None or pending["target"] is None:
        return None
    at = game["board"]["players"][pending["target"]]["at"]
    return None if at is None else (at[0], at[1])


def direction_origin(game: Mapping[str, Any], prompt: Mapping[str, Any]) -> Hex | None:
    """The hex a direction choice is taken from: your gladiator, or the one knocked back."""
    if prompt["kind"] == "knockback_direction":
        return knockback_victim(game, prompt)
    return my_hex(game)


def direction_choice(game: Mapping[str, Any], direction: str) -> str | None:
    """The choice id for stepping or knocking back towards `direction`, if that is legal now."""
    prompt = my_prompt(game)
    if prompt is None or prompt["kind"] not in DIRECTION_KINDS:
        return None
    choice = f"dir:{direction}"
    return choice if choice in choice_ids(prompt) else None


def hex_choice(game: Mapping[str, Any], h: Hex) -> tuple[str | None, str]:
    """The choice id for picking hex `h` with the cursor, or None and why not."""
    prompt = my_prompt(game)
    if prompt is None:
        return None, "nothing to choose now"
    kind, ids = prompt["kind"], choice_ids(prompt)
    if kind in HEX_KINDS:
        choice = f"hex:{h[0]},{h[1]}"
        if choice in ids:
            return choice, ""
        if kind != "place_gladiator":
            return None, "not a legal hex for this token (the ringed hexes are)"
        if kind == "place_beast":
            return None, "the Beast enters only on a ringed hex"
        return None, "you may enter only on a free outer-edge hex, not next to a gladiator"
    if kind in DIRECTION_KINDS:
        origin = direction_origin(game, prompt)
        direction = None if origin is None else direction_between(origin, h)
        if direction is None:
            return None, "pick a hex next to the gladiator that moves"
        choice = f"dir:{direction}"
        if choice in ids:
            return choice, ""
        return None, f"{direction} is not a legal direction now"
    if kind in GLADIATOR_KINDS:
        who = occupants(game["board"]).get(h)
        ess = game["board"].get("essedari")
        if who is None and ess is not None and h == tuple(ess["at"]) and kind == "choose_target":
            choice = f"target:{ess['seat']}"  # the Essedari Maximo
            return (choice, "") if choice in ids else (None, "he is not in reach")
        if who is None:
            return None, "put the cursor on a gladiator"
        prefix = "start" if kind == "pass_starting_player" else "target"
        choice = f"{prefix}:{who.seat}"
        if choice in ids:
            return choice, ""
        return None, "that gladiator is not one of the choices"
    return None, "this choice is not made on the arena: use the number keys"


def hints(game: Mapping[str, Any], numbers: Mapping[str, str] | None = None) -> dict[Hex, str]:
    """Marks on the arena for this seat's prompt: the key of each legal direction next to the
    gladiator that moves, or on each hex offered (where a gladiator may enter, a token go) its
    number key while the prompt bar shows it (`numbers`: choice id -> key), else a ring."""
    prompt = my_prompt(game)
    if prompt is None:
        return {}
    ids = choice_ids(prompt)
    if prompt["kind"] in HEX_KINDS:
        out = {}
        for cid in ids:
            if cid.startswith("hex:"):
                q, r = cid.removeprefix("hex:").split(",")
                out[(int(q), int(r))] = (numbers or {}).get(cid, "o")
        return out
    if prompt["kind"] in DIRECTION_KINDS:
        origin = direction_origin(game, prompt)
        if origin is None:
            return {}
        return {
            add(origin, DIRECTIONS[name]): key
            for name, key in DIRECTION_KEYS.items()
            if f"dir:{name}" in ids
        }
    return {}


def cursor_home(game: Mapping[str, Any], cursor: Hex | None) -> Hex | None:
    """Where the cursor should jump when a new prompt opens (None: stay): onto a legal hex for
    a placement, onto the first gladiator to choose. A move leaves it alone: the direction keys
    are marked around the gladiator, and a cursor that jumped after every step would fight the
    player steering it."""
    prompt = my_prompt(game)
    if prompt is None:
        return None
    ids = choice_ids(prompt)
    kind = prompt["kind"]
    if kind in HEX_KINDS:
        legal = list(hints(game))
        return None if not legal or cursor in legal else legal[0]
    if kind in GLADIATOR_KINDS:
        standing = {
            f"{'start' if kind == 'pass_starting_player' else 'target'}:{o.seat}": h
            for h, o in occupants(game["board"]).items()
        }
        targets = [standing[cid] for cid in ids if cid in standing]
        return None if not targets or cursor in targets else targets[0]
    return None


def back_choice(game: Mapping[str, Any]) -> str | None:
    """The prompt's own way back from a half-made choice (a token taken but not yet placed)."""
    return "back" if "back" in choice_ids(my_prompt(game)) else None


def naked_choice(game: Mapping[str, Any]) -> str | None:
    """The Naked and Afraid step, when this seat may take it now (its window, or its turn)."""
    return NAKED if NAKED in choice_ids(my_prompt(game)) else None


def label_with_key(choice_id: str, label: str) -> str:
    """A direction choice's label with its key: "NE (e)"; Naked and Afraid's "(n)"."""
    if choice_id == NAKED:
        return f"{label} ({NAKED_KEY})"
    if choice_id.startswith("dir:"):
        key = DIRECTION_KEYS.get(choice_id.removeprefix("dir:"))
        if key:
            return f"{label} ({key})"
    return label


def decorate(prompts: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [
        {**p, "choices": [[cid, label_with_key(cid, label)] for cid, label in p["choices"]]}
        for p in prompts
    ]


def needs_confirm(game: Mapping[str, Any], choice_id: str) -> bool:
    prompt = my_prompt(game)
    return (
        prompt is not None
        and prompt["kind"] in CONFIRM_KINDS
        and choice_id not in ("decline", "skip")
    )
