"""The text of the Spartacus panels (the Houses, one House in full, the phase) as pure
functions of the table view and the printed cards: testable without Textual.

Every function takes the width (and height) it may use and returns lines of (text, style)
segments that fit. Nothing here reads a game; hidden things are drawn as the view gives them
(another House's denarii are `None` while hidden, a bid is only "has bid").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from harena.core.plural import counted, denarii
from harena.tui.boards.spartacus import catalog
from harena.tui.boards.spartacus.names import name_segment, names_of, player_name, relabel
from harena.tui.widgets.lines_view import TALLER, Line, cut_with_more, fit, line_width

View = Mapping[str, Any]

PHASE_WORDS = {
    "houses": "Choosing Houses",
    "maintenance": "Upkeep",
    "intrigue": "Intrigue",
    "market": "Market",
    "arena": "Arena",
    "final": "Final games",
    "over": "Game over",
}

# What a House is asked to do, in words (the phase panel, when nothing else says it).
KIND_WORDS = {
    "choose_house": "to choose a House",
    "discard_gladiator": "to pay upkeep",
    "intrigue_turn": "to play the Intrigue turn",
    "discard_to_limit": "to discard",
    "prepare_scheme": "to prepare a Scheme",
    "support_scheme": "to answer a request for support",
    "reaction": "to react",
    "event_reaction": "to answer the Reaction window",
    "choose_victim": "to choose a victim",
    "open_market": "to trade or close",
    "compose_offer": "to make an offer",
    "answer_offer": "to answer an offer",
    "bid": "to bid",
    "invite": "to invite",
    "invitation": "to answer the invitation",
    "choose_combatant": "to choose a combatant",
    "choose_equipment": "to equip",
    "bet": "to bet",
    "initiative": "to choose who acts first",
    "fight": "to fight",
    "lose_die": "to take a wound",
    "thumbs": "to give thumbs up or down",
}

KIND_LETTERS = {"gladiator": "G", "slave": "S", "guard": "g", "equipment": "E"}
POOL_STYLES = {"atk": "ansi_red", "def": "", "spd": "ansi_blue"}


def _turn_mark(ascii_only: bool) -> str:
    return ">" if ascii_only else "▶"


def waiting_for(view: View) -> set[int]:
    return {seat for seat, _ in view["game"].get("waiting", [])}


def denarii_text(player: Mapping[str, Any]) -> str:
    """Exact denarii ("17d"; "17d*" while others cannot see them), or "hidden" while the rules
    hide another House's (from the close of the Open Market to the Arena)."""
    if player["denarii"] is None:
        return "hidden"
    return f"{player['denarii']}d" + ("*" if player["hidden"] else "")


def counts(player: Mapping[str, Any]) -> str:
    """ "2G 1S 2g 1E": Gladiators, Slaves, guards, Equipment on the table (none: left out)."""
    tally = {k: 0 for k in KIND_LETTERS}
    for asset in player["assets"]:
        if asset["kind"] in tally:
            tally[asset["kind"]] += 1
    return " ".join(f"{n}{KIND_LETTERS[k]}" for k, n in tally.items() if n) or "-"


def fit_line(line: Line, width: int, ascii_only: bool) -> Line:
    """Cut a line of segments to `width` cells, ending in an ellipsis when anything is cut
    (also when a segment ends right at the edge and more was to follow: the screen audit found
    "Bets: ann/Batiatus 1 on ann/Batiatus to win; bot/Glaber" with the rest silently gone)."""
    if sum(len(text) for text, _ in line) <= width:
        return line
    out: Line = []
    room = width
    for text, style in line:
        if len(text) >= room:  # the rest does not fit: this segment ends in the ellipsis
            if room > 0:
                out.append((fit(text[:room] + "…", room, ascii_only), style))
            break
        out.append((text, style))
        room -= len(text)
    return out


# --- the Houses ------------------------------------------------------------------------------------


def houses_lines(view: View, width: int, height: int, ascii_only: bool = False) -> list[Line]:
    """One line per House (two when there is room: its table in short): whose turn, who is
    the Host, Influence, hand size, denarii (or hidden), what is on its table."""
    table, board = view["table"], view["game"]["board"]
    waiting = waiting_for(view)
    players = board["players"]
    two_lines = height >= 2 * len(players)
    lines: list[Line] = []
    names = [player_name(view, p["seat"]) for p in players]
    name_width = min(max(map(len, names), default=4), 18)
    for p in players:
        seat = p["seat"]
        mark = _turn_mark(ascii_only) if seat in waiting else " "
        host = "H" if board["host"] == seat else " "
        stats = f" Inf{p['influence']:>3} h{p['hand_size']} {denarii_text(p):>6} {counts(p)}"
        name_room = max(min(name_width, width - 3 - len(stats)), 6)
        name, style = name_segment(view, seat, "bold" if seat == table["you"] else "")
        head: Line = [
            (mark, "bold"),
            (host + " ", "bold ansi_yellow"),
            (fit(name, name_room, ascii_only).ljust(name_room), style),
            (stats, ""),
        ]
        lines.append(fit_line(head, width, ascii_only))
        if two_lines:
            lines.append(fit_line([("   ", ""), *asset_summary(p, ascii_only)], width, ascii_only))
    return lines[:height]


def asset_summary(player: Mapping[str, Any], ascii_only: bool) -> Line:
    """A House's table in one line: names, and marks for exhausted, wounded, Favor, Champion."""
    if not player["assets"]:
        return [("(nothing on the table)", "dim")]
    parts: Line = []
    for asset in player["assets"]:
        if parts:
            parts.append((", ", "dim"))
        parts.append((asset["name"], "dim" if asset["exhausted"] else ""))
        marks = state_marks(asset, ascii_only)
        if marks:
            parts.append((f" {marks}", "bold"))
    return parts


def state_marks(asset: Mapping[str, Any], ascii_only: bool) -> str:
    """Short marks: x exhausted, w wounded, C Champion, +N Favor (the help lists them)."""
    marks = []
    if asset["champion"]:
        marks.append("C")
    if asset["favor"]:
        marks.append(f"+{asset['favor']}")
    if asset["wounded"]:
        marks.append("w")
    elif asset["exhausted"]:
        marks.append("x")
    return "".join(marks)


# --- one House in full -----------------------------------------------------------------------------


def influence_track(influence: int, target: int, width: int, ascii_only: bool) -> str:
    full, empty = ("#", ".") if ascii_only else ("▰", "▱")
    cells = min(target, max(width, 0))
    shown = min(influence, cells)
    return full * shown + empty * (cells - shown)


def house_lines(
    view: View, seat: int, width: int, height: int, ascii_only: bool = False
) -> list[Line]:
    """A House in full: Influence on the track to the target with the hand limit, denarii,
    every asset with its dice pool and state, the House's abilities, and, for your own House,
    your Intrigue hand with the cards' texts."""
    board, you = view["game"]["board"], view["table"]["you"]
    p = board["players"][seat]
    target = board["target"]
    lines: list[Line] = []
    track = influence_track(p["influence"], target, 12, ascii_only)
    lines.append(
        fit_line(
            [
                ("Inf ", "dim"),
                (f"{p['influence']}/{target} ", "bold"),
                (track, "ansi_yellow"),
                (f" hand {p['hand_size']}/{p['hand_limit']} ", ""),
                (
                    denarii(p["denarii"]) if not p["hidden"] else denarii_text(p).removesuffix("*"),
                    "bold",
                ),
                (" secret" if p["hidden"] and p["denarii"] is not None else "", "dim"),
            ],
            width,
            ascii_only,
        )
    )
    house = catalog.house(p["house"]) if p["house"] else None
    hand = board["hand"] if seat == you else None
    # The hand first: it is what you play from; then the table, grouped where cards are alike.
    if hand:
        for _, card_id, name in hand:
            lines.append(card_line(card_id, name, width, ascii_only))
    elif seat == you:
        lines.append([("(no Intrigue cards in hand)", "dim")])
    elif p["hand_size"]:
        lines.append([(f"{counted(p['hand_size'], 'Intrigue card')} in hand, face down", "dim")])
    if not p["assets"]:
        lines.append([("(nothing on the table)", "dim")])
    for asset, copies in grouped(p["assets"]):
        lines.append(asset_line(asset, width, ascii_only, copies))
    if house is not None:
        for ability in house.abilities:
            lines.append(
                fit_line(
                    [("* ", "dim"), (ability.name, "bold"), (f": {ability.text}", "dim")],
                    width,
                    ascii_only,
                )
            )
    return cut_with_more(lines, height, TALLER)


def grouped(assets: list[Mapping[str, Any]]) -> list[tuple[Mapping[str, Any], int]]:
    """Alike cards in the same state once, with a count ("2x Guard ready")."""
    out: list[tuple[Mapping[str, Any], int]] = []
    keys: list[tuple[Any, ...]] = []
    for asset in assets:
        key = (
            asset["card"],
            asset["exhausted"],
            asset["wounded"],
            asset["favor"],
            asset["champion"],
        )
        if key in keys:
            index = keys.index(key)
            out[index] = (out[index][0], out[index][1] + 1)
        else:
            keys.append(key)
            out.append((asset, 1))
    return out


def asset_line(asset: Mapping[str, Any], width: int, ascii_only: bool, copies: int = 1) -> Line:
    dice = catalog.dice(asset["card"])
    state = "wounded" if asset["wounded"] else ("exhausted" if asset["exhausted"] else "ready")
    name = f"{copies}x {asset['name']}" if copies > 1 else asset["name"]
    line: Line = [
        (f"{fit(name, 18, ascii_only):<18} ", "bold" if not asset["exhausted"] else "dim")
    ]
    if dice is not None:
        line += [
            (f"A{dice[0]}", POOL_STYLES["atk"]),
            (" ", ""),
            (f"D{dice[1]}", POOL_STYLES["def"]),
            (" ", ""),
            (f"S{dice[2]}", POOL_STYLES["spd"]),
            (" ", ""),
        ]
    else:  # as wide as the dice; "equipment" (9 letters) one wider, never run into its state
        line.append((f"{asset['kind']:<8} ", "dim"))
    line.append((f"{state:<9}", "bold" if asset["wounded"] else ""))
    if asset["champion"]:
        line.append((" Champion", "bold ansi_yellow"))
    if asset["favor"]:
        line.append((f" Favor {asset['favor']}", "ansi_yellow"))
    text = catalog.card_text(asset["card"])
    if text and line_width(line) + 14 < width:  # a few words at least, or none
        line.append((" " + text, "dim"))
    return fit_line(line, width, ascii_only)


def card_line(card_id: str, name: str, width: int, ascii_only: bool) -> Line:
    """An Intrigue card in hand: name, kind (and the Influence a Scheme needs), its text."""
    kind = catalog.kind_word(card_id)
    needs = catalog.scheme_needs(card_id)
    tag = f"{kind} {needs}+" if needs else kind
    return fit_line(
        [("  ", ""), (name, "bold"), (f" ({tag}) ", "dim"), (catalog.card_text(card_id), "")],
        width,
        ascii_only,
    )


# --- the phase ---------------------------------------------------------------------------------------


def phase_title(view: View) -> str:
    board = view["game"]["board"]
    phase = PHASE_WORDS.get(board["phase"], board["phase"])
    return f"Round {board['round']}: {phase}" if board["round"] else phase


def phase_shows(view: View) -> str:
    """What the phase panel is about: "window", "intrigue", "market", "arena" or ""."""
    board = view["game"]["board"]
    if board.get("window") is not None:
        return "window"
    return next((part for part in ("intrigue", "market", "arena") if board[part] is not None), "")


def phase_lines(view: View, width: int, height: int, ascii_only: bool = False) -> list[Line]:
    """What is going on in this phase, as this seat may know it."""
    board = view["game"]["board"]
    lines: list[Line]
    shows = phase_shows(view)
    if shows == "window":  # a lot won or a wound waits for Reactions
        lines = window_lines(view, board["window"])
    elif shows == "intrigue":
        lines = intrigue_lines(view, board["intrigue"], ascii_only)
    elif shows == "market":
        lines = market_lines(view, board["market"], width, ascii_only)
    elif shows == "arena":
        lines = arena_status_lines(view, board["arena"], ascii_only)
    else:
        lines = []
    if not lines:  # (choosing Houses, upkeep): say who is to do what
        for seat, kind in view["game"].get("waiting", []):
            lines.append([name_segment(view, seat), (f" {KIND_WORDS.get(kind, kind)}", "")])
    asks = ask_lines(view)
    # open asks matter now: they keep their rows, the phase's last lines give way (and say so)
    lines = cut_with_more(lines, max(1, height - len(asks)), [(": ", "dim"), (MORE_KEY, "bold")])
    lines += asks
    return [fit_line(line, width, ascii_only) for line in lines][:height]


MORE_KEY = "o"  # the key that shows the phase panel in full (SpartacusBoard's `terms`)


def phase_text(view: View) -> list[str]:
    """The phase panel in full, as plain lines (what `o` shows beside the trade terms)."""
    lines = phase_lines(view, 1000, 1000)
    return ["".join(text for text, _ in line) for line in lines]


def ask_lines(view: View, most: int = 2) -> list[Line]:
    """The open asks, newest last, short enough for 80x24 ("Solonius>Batiatus 3d support paid":
    Solonius asks Batiatus 3 denarii for its support, and was paid; the log has the whole line)."""
    players = view["game"]["board"]["players"]
    asks = view["game"]["board"].get("asks") or []
    you = view["table"]["you"]
    out: list[Line] = []
    for ask in asks[-most:]:
        paid = {True: " paid", False: " refused" if ask.get("refused") else "", None: ""}[
            ask["paid"]
        ]
        line: Line = [(f"{players[ask['asker']]['name']}>{players[ask['asked']]['name']} ", ""),
                      (f"{ask['amount']}d {ask['favour']}{paid}", "bold")]  # fmt: skip
        if ask["asked"] == you and not ask["paid"] and not ask.get("refused"):
            line.append((" (p)", "dim"))  # its key: not in the key bar, which 80 columns fill
        out.append(line)
    return out


def intrigue_lines(view: View, it: Mapping[str, Any], ascii_only: bool) -> list[Line]:
    players = len(view["game"]["board"]["players"])
    lines: list[Line] = [
        [
            ("Turn: ", "dim"),
            name_segment(view, it["turn"], "bold"),
            (f" ({min(it['turns_done'] + 1, players)} of {players})", "dim"),
        ]
    ]
    if it["discarding"]:
        lines.append([("Discarding down to the hand limit", "")])
    guard = it.get("guard_roll")
    sc = it["scheme"]
    if guard is not None:
        saved = guard["roll"] >= guard["saves_from"]
        lines.append(
            [
                ("Guard: ", "dim"),
                name_segment(view, guard["seat"]),
                (" rolls ", "dim"),
                (dice_text([guard["roll"]]), "bold"),
                (f" ({guard['saves_from']}+ cancels): {'cancelled' if saved else 'fails'}", ""),
            ]
        )
    if sc is None:
        return lines
    card = catalog.card(sc["card"]) if sc["card"] else None
    what: Line = [name_segment(view, sc["schemer"])]
    if card is None:
        what.append((": a hidden Scheme", ""))
    else:
        what.append((f": {card.name}", "bold"))
        if sc["target"] is not None:
            what += [(" against ", ""), name_segment(view, sc["target"])]
    lines.append(what)
    if card is not None:
        lines.append([(f"  {card.text}", "dim")])
    if sc["step"] == "support":
        # Who has answered is public; what they answered is not, until all have.
        you, mine = view["table"]["you"], sc.get("my_answer")
        for seat in range(len(sc["answered"])):
            if seat == sc["schemer"]:
                continue
            if seat == you and mine is not None:
                state = f" {'supports' if mine else 'refuses'} (you; secret)"
            else:
                state = " answered" if sc["answered"][seat] else " ..."
            lines.append([("  ", ""), name_segment(view, seat), (state, "dim")])
    elif sc["step"] == "react" and sc.get("asked"):
        lines.append([("Reactions (secret until all in):", "dim")])
        lines += _asked_lines(view, sc["asked"], sc["replied"], sc.get("my_reply"))
    elif sc["step"] == "pick":
        lines.append([("The Scheme resolves: a victim is being chosen", "")])
    return lines


def window_lines(view: View, w: Mapping[str, Any]) -> list[Line]:
    """A Reaction window: the event, then each asked House, answered or not (what it answered
    is secret until all are in; your own answer is shown to you)."""
    card = catalog.card(w["card"])
    name = card.name if card else w["card"]
    if w["event"] == "auction_won":
        event: Line = [name_segment(view, w["seat"]), (f" wins {name} for {w['price']}", "bold")]
    else:
        event = [name_segment(view, w["seat"]), (f"'s {name} is wounded", "bold")]
    lines: list[Line] = [event, [("Reactions (secret until all in):", "dim")]]
    return lines + _asked_lines(view, w["asked"], w["answered"], w.get("my_answer"))


def _asked_lines(
    view: View, asked: Sequence[int], answered: Sequence[bool], mine: str | None
) -> list[Line]:
    """Each House asked in a reaction window, answered or not; your own answer to you (the
    one the table holds for you until the window closes, else the game's)."""
    you = view["table"]["you"]
    held = (view["table"].get("window") or {}).get("answer")
    mine = held or mine
    lines: list[Line] = []
    for seat in asked:
        if seat == you and mine is not None:
            state = (" passes (you)" if mine == "pass" else " plays (you; secret)", "bold")
        else:
            state = (" answered", "") if answered[seat] else (" ...", "dim")
        lines.append([("  ", ""), name_segment(view, seat), state])
    return lines


def market_lines(view: View, m: Mapping[str, Any], width: int, ascii_only: bool) -> list[Line]:
    lines: list[Line] = []
    a = m["auction"]
    last = m.get("last")
    if a is not None:
        if a["host_title"]:
            lines.append([("Contest for the Host title", "bold"), (" (bid in secret)", "dim")])
        else:
            card = catalog.card(a["card"])
            dice = catalog.dice(a["card"])
            name = card.name if card else a["card"]
            stats = f" {dice[0]}/{dice[1]}/{dice[2]}" if dice else ""
            lines.append(
                [
                    ("Lot: ", "dim"),
                    (name, "bold"),
                    (f" ({catalog.kind_word(a['card'])}{stats})", "dim"),
                    (f"  {m['lots_left']} more", "dim"),
                ]
            )
            if card is not None and card.text:
                lines.append([(f"  {card.text}", "dim")])
        # One line per bidder: whether they have bid is public, the amount is not (yours: to you).
        you = view["table"]["you"]
        for seat in a["bidders"]:
            if seat == you and a["my_bid"] is not None:
                state = (f" bid {a['my_bid']} (you; secret)", "bold")
            else:
                state = (" has bid", "") if a["has_bid"][seat] else (" ...", "dim")
            lines.append([("  ", ""), name_segment(view, seat), state])
        if last is not None:
            lines.append(last_sale_line(view, last))
        return lines
    closed = [seat for seat, done in enumerate(m["closed"]) if done]
    lines.append([("Open Market: trade, sell to the Bank, then close", "")])
    rows: list[Line] = []
    if m.get("my_draft"):  # yours alone until sent
        rows.append([("Drafting: ", "bold")] + offer_line(view, m["my_draft"]))
    for offer in m["offers"]:
        rows.append(offer_line(view, offer))
    if any(line_width(row) > width for row in rows):  # cut here: the whole on a key
        lines.append([("o", "bold"), (": all terms in full", "dim")])
    lines += rows
    if closed:
        line: Line = [("Closed: ", "dim")]
        for i, seat in enumerate(closed):
            line += [(", " if i else "", "dim"), name_segment(view, seat)]
        lines.append(line)
    return lines


def last_sale_line(view: View, last: Mapping[str, Any]) -> Line:
    """The auction just settled (its bids are public once revealed): who won it, for what."""
    card = catalog.card(last["card"]) if last["card"] else None
    what = card.name if card else "Host title"
    bids = " ".join(f"{b}" for b in last["bids"] if b is not None)
    if last["winner"] is None:
        return [("Last: ", "dim"), (f"{what}: bids {bids}", "dim")]
    return [
        ("Last: ", "dim"),
        (f"{what} to ", ""),
        name_segment(view, last["winner"]),
        (f" for {last['price']} (bids {bids})", "dim"),
    ]


def offer_line(view: View, offer: Mapping[str, Any]) -> Line:
    board = view["game"]["board"]
    cards = {a["ref"]: a["name"] for p in board["players"] for a in p["assets"]}
    give = ", ".join(cards.get(c, "?") for c in offer["give"]) or "nothing"
    want = ", ".join(cards.get(c, "?") for c in offer["want"]) or "nothing"
    price = offer["price"]
    money = f", pays {price}" if price > 0 else (f", asks {-price}" if price < 0 else "")
    return [
        name_segment(view, offer["proposer"]),
        (" offers ", "dim"),
        name_segment(view, offer["recipient"]),
        (f": {give} for {want}{money}", ""),
    ]


def arena_status_lines(view: View, a: Mapping[str, Any], ascii_only: bool) -> list[Line]:
    lines: list[Line] = []
    step = a["step"]
    if step in ("invite", "answer"):
        line: Line = [("The Host invites a Dominus to the games", "")]
        if a["invitee"] is not None:
            line = [("Invited: ", "dim"), name_segment(view, a["invitee"])]
        lines.append(line)
    for i, f in enumerate(a["fighters"]):
        lines.append(fighter_line(view, f, "I" * (i + 1), ascii_only))
    if step == "bets":
        # Whether a House has bet is public; the bet is not until all are in (yours: to you).
        for seat, placed in enumerate(a["has_bet"]):
            bet = a["bets"][seat] if seat < len(a["bets"]) else None
            if bet is not None:
                lines.append(
                    [
                        ("  ", ""),
                        name_segment(view, seat),
                        (f" bets {bet_words(view, bet)}", "bold"),
                    ]
                )
            else:
                lines.append(
                    [
                        ("  ", ""),
                        name_segment(view, seat),
                        (" has bet" if placed else " ...", "dim"),
                    ]
                )
    fight = a["fight"]
    if fight is not None:
        lines.append(roll_line(view, a, fight))
    if step != "bets" and any(bet is not None for bet in a["bets"]):
        lines.append(revealed_bets_line(view, a["bets"]))
    if fight is not None:
        if fight["defender"] is not None and fight["damage"]:
            lines.append(
                [(f"{counted(fight['damage'], 'wound')} to take: a die is lost for each", "bold")]
            )
    if a["outcome"]:
        lines.append([("Outcome: ", "dim"), (a["outcome"], "bold")])
    return lines


def bet_words(view: View, bet: Mapping[str, Any]) -> str:
    if bet["kind"] == "win":
        return f"{bet['amount']} on {player_name(view, bet['on'])} to win"
    return f"{bet['amount']} on a {'wound' if bet['kind'] == 'wound' else 'decapitation'}"


def revealed_bets_line(view: View, bets: list[Any]) -> Line:
    """Once all are in, the bets are public: whose stake is on what."""
    line: Line = [("Bets: ", "dim")]
    for seat, bet in enumerate(bets):
        if bet is None:
            continue
        if len(line) > 1:
            line.append(("; ", "dim"))
        line += [name_segment(view, seat), (f" {bet_words(view, bet)}", "")]
    return line


def fighter_line(view: View, f: Mapping[str, Any], hex_name: str, ascii_only: bool) -> Line:
    card = catalog.card(f["card"])
    name = card.name if card else f["card"]
    equipment = [c.name for c in map(catalog.card, f["equipment"]) if c is not None]
    gear = f" + {', '.join(equipment)}" if equipment else ""
    atk, dfn, spd = f["atk"], f["def"], f["spd"]
    if not atk + dfn + spd:  # not in the fight yet: its printed dice
        atk, dfn, spd = catalog.dice(f["card"]) or (0, 0, 0)
    # The dice pools first: they are what a narrow panel must not cut.
    return [
        (f"{hex_name:<2} ", "bold"),
        (f"A{atk}", POOL_STYLES["atk"]),
        (" ", ""),
        (f"D{dfn}", POOL_STYLES["def"]),
        (" ", ""),
        (f"S{spd}", POOL_STYLES["spd"]),
        (" ", ""),
        name_segment(view, f["seat"]),
        (f" {name}{gear}", ""),
    ]


def dice_text(faces: list[int]) -> str:
    return " ".join(f"[{face}]" for face in faces) or "-"


def roll_line(view: View, a: Mapping[str, Any], fight: Mapping[str, Any]) -> Line:
    """The last roll as dice: initiative (Speed) or an attack (Attack against Defense)."""
    roll = fight.get("roll") or {}
    fighters = a["fighters"]
    head: Line = [(f"Fight round {fight['round']}", "bold")]
    if roll.get("kind") == "initiative" and len(fighters) == 2:
        return head + [
            (": initiative ", "dim"),
            (dice_text(roll["dice"][0]), POOL_STYLES["spd"]),
            (" vs ", "dim"),
            (dice_text(roll["dice"][1]), POOL_STYLES["spd"]),
        ]
    if roll.get("kind") == "attack" and roll.get("by") is not None and len(fighters) == 2:
        by = roll["by"]
        return head + [
            (": ", ""),
            name_segment(view, fighters[by]["seat"]),
            (" attacks ", "dim"),
            (dice_text(roll["dice"][by]), POOL_STYLES["atk"]),
            (" vs ", "dim"),
            (dice_text(roll["dice"][1 - by]), "bold"),
        ]
    return head


# --- the end -----------------------------------------------------------------------------------------


def result_lines(view: View) -> list[str]:
    game, you = view["game"], view["table"]["you"]
    board, result = game["board"], game["result"]
    winners = " and ".join(player_name(view, w) for w in result["winners"]) or "nobody"
    lines = [f"Winner: {winners}: {relabel(result['reason'], names_of(view))}"]
    if you is not None:
        lines.append("You won!" if you in result["winners"] else "You did not win this time.")
    lines.append(
        "Influence: "
        + "  ".join(f"{player_name(view, p['seat'])} {p['influence']}" for p in board["players"])
    )
    return lines
