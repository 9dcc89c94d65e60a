"""The text of Carthage's side panels (players, Theater card, Action row, hand) as pure
functions of the table view, and the row widgets that show them.

Every function takes the width it may use and returns lines of (text, style) segments that fit
it; nothing here reads a game, only the view (and the printed cards in `catalog`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harena.tui.boards.carthage import catalog
from harena.tui.boards.carthage.arena import (
    CHARIOT,
    COLOUR_STYLES,
    TEAM_STYLES,
    letter,
    team_of,
)
from harena.tui.widgets.lines_view import (
    TALLER,
    Line,
    LinesView,
    content_line,
    cut_with_more,
    fit,
    wrap,
)

__all__ = ["LinesView", "content_line", "fit", "wrap"]  # the shared line helpers, as before


# --- players --------------------------------------------------------------------------------------


def seat_state(seat: Mapping[str, Any]) -> str:
    if seat["free"]:
        return "free"
    if seat["bot"] is not None:
        return "bot"
    return "" if seat["connected"] else "offline"


def player_lines(view: Mapping[str, Any], width: int, ascii_only: bool = False) -> list[Line]:
    """One line per gladiator: letter, team number (team modes), who plays it, class, Armor,
    Favor, hand, deck/discard, and marks: start player, whose turn, offline, out of the game.
    Wider terminals get the gladiator's class and longer names."""
    table, game = view["table"], view["game"]
    board = game["board"]
    waiting = {seat for seat, _ in game.get("waiting", [])}
    start = "S"
    turn = ">" if ascii_only else "▶"
    lines: list[Line] = []
    for p in board["players"]:
        i = p["seat"]
        free: dict[str, Any] = {"name": "", "free": True, "bot": None}
        seat = table["seats"][i] if i < len(table["seats"]) else free
        who = seat["name"] or "-"
        if i == table["you"]:
            who += " (you)"
        stats = (
            f"A{p['armor']:>2} F{p['favor']:>2} H{p['hand_size']} "
            f"D{p['deck_size']:>2}/{len(p['discard']):<2}"
        )
        stats += equipment_marks(p, ascii_only)
        marks = [start if board["starting_player"] == i else " ", turn if i in waiting else " "]
        beast = p.get("beast")
        state = ("BEAST" if beast else "OUT") if not p["alive"] else seat_state(seat)
        tail = "".join(marks) + (f" {state}" if state else "")
        team = team_of(board, i)
        tag: Line = [] if team is None else [(str(team + 1), TEAM_STYLES[team % len(TEAM_STYLES)])]
        room = width - 2 - len(stats) - len(tail) - 2 - len(tag)
        cls = catalog.kit_item(beast).name if beast else p["class"]
        name = f"{who} {cls}" if room >= len(who) + len(cls) + 1 and width >= 56 else who
        colour = COLOUR_STYLES.get(p["colour"], "")
        style = "dim" if not p["alive"] and not beast else ("bold" if i == table["you"] else "")
        glyph = catalog.BEAST_GLYPH[1 if ascii_only else 0] if beast else letter(p["colour"])
        lines.append(
            [
                (glyph, f"bold reverse {colour}".strip()),
                *tag,
                (" " + fit(name, room, ascii_only).ljust(max(room, 0)) + " ", style),
                (stats, style),
                (" " + tail, "bold" if i in waiting else style),
            ]
        )
    return lines


def equipment_marks(player: Mapping[str, Any], ascii_only: bool) -> str:
    """One mark per Equipment card, face up or face down ("" when the table has none)."""
    equipment = player.get("equipment") or []
    if not equipment or not player["alive"]:  # an eliminated player's Equipment is out of play
        return ""
    up, down = catalog.EQUIPMENT_MARKS[1 if ascii_only else 0]
    return " " + "".join(up if e["ready"] else down for e in equipment)


def equipment_lines(view: Mapping[str, Any], width: int, ascii_only: bool) -> list[Line]:
    """Your own Equipment cards with their text, ready or face down with the Ready cost."""
    you = view["table"]["you"]
    if you is None:
        return []
    lines: list[Line] = []
    up, down = catalog.EQUIPMENT_MARKS[1 if ascii_only else 0]
    for e in view["game"]["board"]["players"][you].get("equipment") or []:
        info = catalog.kit_item(e["id"])
        head = f"{up if e['ready'] else down} {info.name}"
        tail = info.text if e["ready"] else f"face down, Ready {info.ready}: {info.text}"
        room = max(width - len(head) - 2, 0)
        lines.append(
            [(head, "bold" if e["ready"] else "dim"), ("  " + fit(tail, room, ascii_only), "dim")]
        )
    return lines


# --- cards ----------------------------------------------------------------------------------------


def card_line(
    card_id: str, width: int, ascii_only: bool, *, cost: bool = True, key: str = ""
) -> Line:
    """A card on one line: [key] cost name icons, then its text in words as room allows."""
    info = catalog.card(card_id)
    head = f"{key} " if key else ""
    if cost:
        head += f"{info.cost} "
    icons = info.icons(ascii_only)
    name_room = width - len(head) - len(icons) - 1
    name = fit(info.name, max(name_room, 4), ascii_only)
    line: Line = [(head, "dim"), (name, "bold"), (" " + icons, "")]
    used = len(head) + len(name) + 1 + len(icons)
    if width - used > 8:
        line.append(("  " + fit(info.text, width - used - 2, ascii_only), "dim"))
    return line


def row_lines(view: Mapping[str, Any], width: int, ascii_only: bool) -> list[Line]:
    """The Action row; a card with Retain cubes shows them after its cost, one letter per cube
    in its owner's colour (each costs the others 1 more Favor)."""
    board = view["game"]["board"]
    cubes = {slot: owners for slot, owners in board.get("rulesets", {}).get("cubes", [])}
    lines = []
    for slot, card_id in board["row"]:
        owners = cubes.get(slot, [])
        if not owners:
            lines.append(card_line(card_id, width, ascii_only))
            continue
        marks: Line = [("[", "dim")]
        for seat in owners:
            colour = board["players"][seat]["colour"]
            marks.append((letter(colour), f"bold {COLOUR_STYLES.get(colour, '')}".strip()))
        marks.append(("] ", "dim"))
        line = card_line(card_id, width - len(owners) - 3, ascii_only)
        lines.append(line[:1] + marks + line[1:])
    return lines or [[("(the Action deck is empty)", "dim")]]


def rulesets_title(view: Mapping[str, Any]) -> str:
    """The log panel's title: the Modular Rulesets in play (their text is on `?`)."""
    active = view["game"]["board"].get("rulesets", {}).get("active", [])
    if not active:
        return "Log"
    return "Log · Rules: " + ", ".join(catalog.ruleset(r)[0] for r in active)


def ruleset_help(view: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    """Help lines: each ruleset in play with its rulebook text."""
    if view is None:
        return []
    active = view["game"]["board"].get("rulesets", {}).get("active", [])
    return [catalog.ruleset(r) for r in active]


def hand_lines(
    view: Mapping[str, Any], width: int, ascii_only: bool, height: int = 0
) -> list[Line]:
    """Your hand, then your Equipment; cut to `height` (if given) with "+N more"."""
    return cut_with_more(_hand_and_equipment(view, width, ascii_only), height, TALLER)


def _hand_and_equipment(view: Mapping[str, Any], width: int, ascii_only: bool) -> list[Line]:
    hand = view["game"]["board"]["hand"]
    if hand is None:
        return [[(fit("(watching: no hand)", width, ascii_only), "dim")]]
    # your Equipment follows the hand (equipment_lines): all of it shows once the hand is short
    if not hand:
        return [[("(no cards in hand)", "dim")]] + equipment_lines(view, width, ascii_only)
    cards = [card_line(card_id, width, ascii_only, cost=False) for _, card_id in hand]
    return cards + equipment_lines(view, width, ascii_only)


def hand_title(view: Mapping[str, Any]) -> str:
    board, you = view["game"]["board"], view["table"]["you"]
    if you is None:
        return "Hand"
    me = board["players"][you]
    return f"Hand: deck {me['deck_size']} disc {len(me['discard'])}"


def row_title(view: Mapping[str, Any]) -> str:
    return f"Row: deck {view['game']['board']['action_deck_size']}"


def essedari_lines(
    board: Mapping[str, Any], width: int, lines: int, ascii_only: bool
) -> list[Line]:
    """Solo and co-op: the round counter, his Armor, and in co-op his next Action (public: the
    rulebook makes co-op "easier to anticipate"); solo shows the Action he just took."""
    ess = board["essedari"]
    dot = "-" if ascii_only else "·"
    mark = CHARIOT[1 if ascii_only else 0]
    rounds = f"Round {max(board['round'], 1)} of {ess['rounds']}"
    armor = f"Armor {ess['armor']}/{ess['max_armor']}"
    acts = f"{ess['actions']}/{ess['actions_per_round']}"
    head = f"{rounds} {dot} {mark} Essedari Maximo {armor} {dot} action {acts}"
    if len(head) > width:  # 38 columns at most: it fits 80x24 (the help's legend names the mark)
        head = f"{rounds} {dot} {mark} {armor} {dot} act {acts}"
    out: list[Line] = [[(fit(head, width, ascii_only), "bold")]]
    if ess["next"] is not None:
        out.append(
            [
                (
                    fit(f"Next: {ess['next']['name']} - {ess['next']['text']}", width, ascii_only),
                    "bold ansi_red",
                )
            ]
        )
    elif ess["last"] is not None:
        out.append(
            [
                (
                    fit(f"Last: {ess['last']['name']} - {ess['last']['text']}", width, ascii_only),
                    "dim",
                )
            ]
        )
    netted = [board["players"][s]["name"] for s in ess["netted"]]
    if netted:
        out.append([(fit("Netted, no Movement: " + ", ".join(netted), width, ascii_only), "dim")])
    if board["in_play"] is not None:
        played = board["in_play"]
        name = board["players"][played["seat"]]["name"]
        out.append(
            [
                (
                    fit(
                        f"In play: {catalog.card(played['card']).name} ({name})", width, ascii_only
                    ),
                    "dim",
                )
            ]
        )
    return out[:lines]


def theater_lines(
    view: Mapping[str, Any], width: int, lines: int, ascii_only: bool = False
) -> list[Line]:
    """The Theater card of this round (and, when there is room, what else is in play); in
    solo and co-op, the Essedari Maximo instead (there are no Theater cards)."""
    board = view["game"]["board"]
    if board.get("essedari") is not None:
        return essedari_lines(board, width, lines, ascii_only)
    theater = board["theater"]
    out: list[Line] = []
    card_id = theater["card"]
    head = f"Round {board['round']} {'-' if ascii_only else '·'} "
    if card_id is None:
        text = head + "no Theater card yet"
    else:
        info = catalog.theater(card_id)
        text = f"{head}Theater: {info.name}: {info.text}"
    for line in wrap(text, width, lines, ascii_only):
        out.append([(line, "")])
    extra = []
    if board["in_play"] is not None:
        played = board["in_play"]
        name = board["players"][played["seat"]]["name"]
        extra.append(f"In play: {catalog.card(played['card']).name} ({name})")
    if theater["after_actions"]:
        extra.append(f"After the actions: {catalog.theater(theater['after_actions']).name}")
    if theater["top_known"]:
        extra.append(f"Next Theater card (lobbied): {catalog.theater(theater['top_known']).name}")
    teams = board.get("teams")
    if teams:
        extra.append(teams_text(view))
    for text in extra:
        if len(out) < lines:
            out.append([(fit(text, width, ascii_only), "dim")])
    if out and len(out) > lines:
        out = out[:lines]
    return out


# --- whose turn, who won --------------------------------------------------------------------------

KIND_WORDS = {
    "choose_gladiator": "to choose a gladiator",
    "pick_tokens": "to pick the Arena tokens",
    "place_token": "to place a token",
    "place_gladiator": "to enter the arena",
    "play_card": "to play a card",
    "choose_side": "to choose a side",
    "move_step": "to move",
    "choose_target": "to pick a target",
    "choose_opponent": "to pick an opponent",
    "knockback_direction": "to knock back",
    "discard_card": "to discard",
    "focus_card": "to Focus a card",
    "pass_starting_player": "to pass the Starting Player token",
    "favor": "to spend Favor",
    "evaluate_buy": "to buy after Evaluate",
    "lobby_reveal": "to reveal a Lobby or not",
    "naked_and_afraid": "to answer Naked and Afraid",
    "strict_discipline": "to use Strict Discipline or not",
    "campaign_lobby": "to Lobby for Campaign",
    "discipline_card": "to pick a card for Discipline",
    "intimidate_card": "to pick a card for Intimidate",
    "renovate_token": "to pick a token to Renovate",
    "renovate_to": "to move a token",
    "repair_card": "to pick a card for Repair",
    "retain_card": "to place a Retain cube",
    "choose_beast": "to choose an Arena Beast",
    "place_beast": "to place an Arena Beast",
    "pick_ruleset": "to choose a Modular Ruleset",
}


def teams_text(view: Mapping[str, Any]) -> str:
    """ "2 vs 3: Team 1 B G P, Team 2 R Y (rulesets Actuate, Taunt)": the mode on one line."""
    board = view["game"]["board"]
    teams = board["teams"]
    parts = []
    for name, seats in zip(teams["names"], teams["members"], strict=False):
        parts.append(name + " " + " ".join(letter(board["players"][s]["colour"]) for s in seats))
    text = f"{teams['title']}: " + ", ".join(parts)
    if teams["exclusive_team"] is not None:
        owner = teams["names"][teams["exclusive_team"]]
        text += f"; {owner}'s rulesets: " + (", ".join(teams["ruleset_names"]) or "being chosen")
    return text


def gladiator_label(view: Mapping[str, Any], seat: int) -> str:
    """ "R Red Dimachaerus (bob)": the gladiator's letter and name, and who plays it."""
    players = view["game"]["board"]["players"]
    seats = view["table"]["seats"]
    if not 0 <= seat < len(players):
        return f"seat {seat}"
    p = players[seat]
    who = seats[seat]["name"] if seat < len(seats) and seats[seat]["name"] else "free seat"
    if not p["colour"]:  # no gladiator chosen yet (Setup 2): the game calls it "Seat N"
        return who
    return f"{letter(p['colour'])} {p['name']} ({who})"


def waiting_text(view: Mapping[str, Any]) -> str | None:
    """Who the game waits for, named as the arena names them (None before the game starts)."""
    table, game = view["table"], view["game"]
    if table["status"] == "waiting":
        return None
    parts = [
        f"{gladiator_label(view, seat)} {KIND_WORDS.get(kind, kind)}"
        for seat, kind in game["waiting"]
    ]
    who = "; ".join(parts) or "nobody"
    if table["you"] is None:
        return f"Watching as a spectator. Waiting for {who}."
    return f"Waiting for {who}."


def result_lines(view: Mapping[str, Any]) -> list[str]:
    """The game-over summary: winner, your result, the order gladiators fell, the final count."""
    game, you = view["game"], view["table"]["you"]
    board, result = game["board"], game["result"]
    winners = " and ".join(gladiator_label(view, w) for w in result["winners"]) or "nobody"
    teams = board.get("teams")
    if teams and teams["winning_team"] is not None:
        winners = f"{teams['names'][teams['winning_team']]}, {winners}"
    lines = [f"Winner: {winners}: {result['reason']}, round {board['round']}"]
    if you is not None:
        lines.append("You won!" if you in result["winners"] else "You did not win this time.")
    fallen = ", ".join(gladiator_label(view, s) for s in board["eliminated"])
    if fallen:
        lines.append(f"Fell, in order: {fallen}")
    lines.append(
        "Final: "
        + "  ".join(
            f"{letter(p['colour'])} Armor {p['armor']} Favor {p['favor']}" for p in board["players"]
        )
    )
    return lines
