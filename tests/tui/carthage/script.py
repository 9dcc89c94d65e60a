"""A scripted first round of Carthage at a real table, for the Pilot tests.

Four seats: three test players ("id-s0".."id-s2", moved here through `Table.act`) and alice, the
Yellow Thracian (seat 3), who plays through the TUI. With the Dodging Teeth tokens and SEED, the
round shows every step of a turn: the draw, a "/" card (Sica Feint) with its side chosen, a move
step by step onto the Damage & Knockback token beside Blue, Blue knocked back, and a purchase in
the Favor phase. The test players only ever choose among their prompts' own choices.
"""

from __future__ import annotations

from typing import Any

from harena.core.lobby import Lobby
from harena.core.table import Table

SEED = 1
OPTIONS = {"tokens": "dodging_teeth", "gladiators": "by_seat"}
ALICE = "id-alice"
ALICE_SEAT = 3
OTHERS = ["id-s0", "id-s1", "id-s2"]
PLACES = {0: "hex:4,-4", 1: "hex:-4,0", 2: "hex:-4,4", ALICE_SEAT: "hex:4,-2"}
BLUE_PATH = ["dir:SW", "dir:SE"]  # Advance: (4,-4) -> (3,-3) -> (3,-2), next to the token
TOKEN = (2, -1)  # Damage & Knockback
ALICE_PATH = ["dir:SW", "dir:W"]  # Sica Feint's Move 2: (4,-2) -> (3,-1) -> (2,-1)


def new_table(seed: int = SEED) -> tuple[Lobby, Table]:
    lobby = Lobby(new_seed=lambda: seed)
    table = lobby.create_table(OTHERS[0], "s0", "carthage", 4, OPTIONS)
    table.sit(OTHERS[1], "s1", 1)
    table.sit(OTHERS[2], "s2", 2)
    table.sit(ALICE, "alice", ALICE_SEAT)
    return lobby, table


def prompt_of(table: Table, identity: str) -> dict[str, Any] | None:
    prompts = table.view_for(identity)["game"]["prompts"]
    return prompts[0] if prompts else None


def hand_cards(table: Table, identity: str) -> dict[str, str]:
    """card id -> the "play:<instance>" choice, for the cards in this seat's hand."""
    hand = table.view_for(identity)["game"]["board"]["hand"]
    return {card: f"play:{instance}" for instance, card in hand}


def blue_at(table: Table) -> tuple[int, int] | None:
    at = table.view_for(ALICE)["game"]["board"]["players"][0]["at"]
    return None if at is None else (at[0], at[1])


def other_choice(table: Table, seat: int) -> str:
    """What test player `seat` does now: its scripted placement and Advance, else something
    harmless (a card that neither moves nor strikes, passing in the Favor phase)."""
    identity = OTHERS[seat]
    prompt = prompt_of(table, identity)
    assert prompt is not None
    ids = [cid for cid, _ in prompt["choices"]]
    kind = prompt["kind"]
    if kind == "place_gladiator":
        return PLACES[seat]
    if kind == "play_card":
        hand = hand_cards(table, identity)
        if seat == 0 and "advance" in hand and blue_at(table) == (4, -4):
            return hand["advance"]
        for card in ("guard", "hail-the-crowd", "scutum-wall", "jab", "twin-cut", "trident-thrust"):
            if card in hand:
                return hand[card]
        return ids[0]
    if kind == "move_step" and seat == 0 and blue_at(table) in ((4, -4), (3, -3)):
        return BLUE_PATH[0] if blue_at(table) == (4, -4) else BLUE_PATH[1]
    if kind == "favor":
        return "pass"
    return ids[-1] if "skip" in ids or "decline" in ids else ids[0]


def run_others(table: Table) -> None:
    """Let the test players act until alice must choose or the round is over."""
    for _ in range(200):
        if prompt_of(table, ALICE) is not None or table.game.result() is not None:
            return
        seats = [seat for seat, _ in table.view_for(ALICE)["game"]["waiting"]]
        if not seats:
            return
        seat = seats[0]
        table.act(OTHERS[seat], other_choice(table, seat))
    raise AssertionError("the test players never stopped")


def alice_plan(table: Table) -> str:
    """Alice's choice now, as the Pilot test will make it through keys (used by the seed search
    and to check the script still holds)."""
    prompt = prompt_of(table, ALICE)
    assert prompt is not None
    ids = [cid for cid, _ in prompt["choices"]]
    kind = prompt["kind"]
    board = table.view_for(ALICE)["game"]["board"]
    me = board["players"][ALICE_SEAT]
    if kind == "place_gladiator":
        return PLACES[ALICE_SEAT]
    if kind == "play_card":
        hand = hand_cards(table, ALICE)
        if "sica-feint" in hand and blue_at(table) == (3, -2) and me["at"] == [4, -2]:
            return hand["sica-feint"]
        for card in ("hail-the-crowd", "guard", "jab"):
            if card in hand:
                return hand[card]
        return ids[0]
    if kind == "choose_side":
        return "side:0"
    if kind == "move_step":
        return ALICE_PATH[0] if me["at"] == [4, -2] else ALICE_PATH[1]
    if kind == "favor":
        buys = [cid for cid in ids if cid.startswith("buy:")]
        return buys[0] if buys else "pass"
    return ids[0]
