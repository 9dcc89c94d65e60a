"""Pieces without an app: the generic board, the create form, keys and seats in words."""

from __future__ import annotations

from textual.binding import Binding

from harena.core.lobby import Lobby
from harena.tui.boards import (
    BoardWidget,
    GenericBoard,
    board_widget_for,
    register_board,
    unregister_board,
)
from harena.tui.boards.generic import board_lines
from harena.tui.screens.create_table import TableForm
from harena.tui.widgets.key_bar import help_entries, key_bar_content, key_bar_entries
from harena.tui.widgets.seats import seat_label, seat_state
from harena.tui.widgets.table_list import summary_line

GAMES = [
    {
        "name": "highcard",
        "title": "High Card",
        "min_players": 2,
        "max_players": 4,
        "bots": ["random"],
        "options": [
            {
                "name": "rounds",
                "label": "Rounds",
                "choices": ["1", "2", "3"],
                "default": "3",
                "help": "",
            }
        ],
    },
    {
        "name": "solo",
        "title": "Solo",
        "min_players": 1,
        "max_players": 1,
        "bots": [],
        "options": [],
    },
]


def test_the_generic_board_prints_plain_view_data_as_key_value_lines() -> None:
    board = {
        "round": 2,
        "hand": [3, 7],
        "my_card": None,
        "has_played": [True, False],
        "market": {"open": True, "lots": []},
        "houses": [{"name": "Batiatus", "gold": 5}],
    }
    assert board_lines(board) == [
        "round: 2",
        "hand: 3, 7",
        "my card: -",
        "has played: yes, no",
        "market:",
        "  open: yes",
        "  lots: none",
        "houses:",
        "  0:",
        "    name: Batiatus",
        "    gold: 5",
    ]


def test_games_without_their_own_board_get_the_generic_one() -> None:
    assert board_widget_for("highcard") is GenericBoard

    @register_board("test-board-game")
    class Special(BoardWidget):
        def show(self, view: dict) -> None:
            pass

    try:
        assert board_widget_for("test-board-game") is Special
    finally:
        unregister_board("test-board-game")


def test_the_create_form_keeps_bots_below_the_player_count() -> None:
    form = TableForm(GAMES)
    fields = {f.label: f for f in form.fields()}
    assert list(fields) == [
        "Game",
        "Players",
        "Rounds",
        "Bots",
        "Move clock",
        "Time bank",
        "Stand-in after",
        "Stand-in bot",
        "Who may join",
        "Rematch: a no",
    ]
    fields["Players"].cycle(1)
    fields = {f.label: f for f in form.fields()}
    for _ in range(5):
        fields["Bots"].cycle(1)
    assert form.bots == 5 % 3  # 0..players-1 wraps
    fields["Bots"].cycle(1)
    assert form.bots == 0
    fields["Bots"].cycle(-1)
    assert form.bots == 2
    fields["Players"].cycle(-1)
    assert (form.players, form.bots) == (2, 1)
    fields["Rounds"].cycle(1)
    request = form.request()
    assert (request.game, request.players, request.options, request.bots, request.bot_kinds) == (
        "highcard",
        2,
        {"rounds": "1"},
        1,
        ["random"],
    )


def test_the_create_form_sets_each_bots_level_and_the_stand_in() -> None:
    """issue 27: a level per bot seat (easy, normal, hard), and the stand-in bot."""
    carthage = {**GAMES[0], "name": "carthage", "bots": ["heuristic", "random", "search", "easy"]}
    form = TableForm([carthage])
    fields = {f.label: f for f in form.fields()}
    fields["Players"].cycle(1)  # 3 players
    fields["Bots"].cycle(2)  # 2 bots
    fields = {f.label: f for f in form.fields()}
    assert (fields["Bot 1"].value, fields["Bot 2"].value) == ("normal", "normal")
    fields["Bot 1"].cycle(1)
    fields["Bot 2"].cycle(-1)
    fields["Stand-in bot"].cycle(1)
    fields = {f.label: f for f in form.fields()}
    assert (fields["Bot 1"].value, fields["Bot 2"].value) == ("hard (search)", "easy")
    request = form.request()
    assert request.bot_kinds == ["search", "easy"] and request.policy.bot == "search"


def test_a_game_without_bots_offers_none() -> None:
    form = TableForm(GAMES)
    form.fields()[0].cycle(1)
    fields = [(f.label, f.value) for f in form.fields()]
    assert fields == [
        ("Game", "Solo"),
        ("Players", "1"),
        ("Bots", "none"),
        ("Who may join", "anyone"),
    ]
    assert form.request().bots == 0


def test_the_key_bar_and_the_help_come_from_the_same_bindings() -> None:
    bindings = [
        Binding("up,k", "move(-1)", "select", key_display="↑↓", tooltip="select a table"),
        Binding("down,j", "move(1)", show=False),
        Binding("w", "watch", "watch", tooltip="watch it"),
        Binding("x", "secret", "hidden", show=False),
    ]
    entries = key_bar_entries(bindings)
    assert key_bar_content(entries).plain == " ↑↓  select  w  watch "
    assert key_bar_content(entries, gap=2).plain == " ↑↓ select  w watch"  # for a narrow terminal
    assert help_entries(bindings, [("1-9", "choose")]) == [
        ("↑↓", "select a table"),
        ("w", "watch it"),
        ("x", "hidden"),
        ("1-9", "choose"),
    ]


def test_seats_are_named_by_their_players_and_states_are_words() -> None:
    """One name per player, everywhere: never a seat number or letter."""
    seat = {"name": "bob", "bot": None, "connected": False, "free": False}
    free = {"name": "", "bot": None, "connected": False, "free": True}
    assert [seat_label([seat, free], i) for i in range(2)] == ["bob", "the free seat"]
    assert seat_state(seat) == "offline"
    assert seat_state({**seat, "connected": True}) == "online"
    assert seat_state({**seat, "bot": "random"}) == "bot"
    assert seat_state({"name": "", "bot": None, "connected": False, "free": True}) == "free"
    line = summary_line(
        {
            "id": "7",
            "title": "High Card",
            "status": "over",
            "options": {},
            "seats": [
                {**seat, "connected": True},
                {"name": "", "bot": None, "connected": False, "free": True},
            ],
            "spectators": ["carol"],
        }
    )
    assert line.startswith("#7") and "finished" in line and "1/2 seated" in line
    assert "bob, -" in line and "1 watching" in line


def test_a_log_line_names_seats_by_their_players() -> None:
    """Before a gladiator or a House is chosen a game writes "Seat 2": the screen says who."""
    from harena.tui.widgets.seats import named_seats

    names = ("ann", "", "cat")
    line = "Seat 2 rolls 3, Seat 3 rolls 5: Seat 3 is the Starting Player"
    assert (
        named_seats(line, names) == "a free seat rolls 3, cat rolls 5: cat is the Starting Player"
    )
    plain = "Purple Gaul draws 5 cards"
    assert named_seats(plain, names) is plain


def test_a_key_bar_too_wide_for_80_columns_is_drawn_compact_with_every_key() -> None:
    from harena.tui.boards.spartacus.board import SpartacusBoard
    from harena.tui.screens.table import TableScreen
    from harena.tui.widgets.key_bar import KeyBar

    bar = KeyBar(TableScreen.BINDINGS, lead=SpartacusBoard.KEY_BAR_LEAD)
    assert bar._fitted(120).plain.startswith(" 1-9,0  choose  g  give")  # room: the padded form
    narrow = bar._fitted(80).plain
    assert len(narrow) <= 80
    assert narrow.rstrip().endswith("Esc lobby ? help")  # the last keys still show


def test_the_bots_field_says_what_happens_to_the_other_seats_in_words_for_any_count() -> None:
    """Never "bots fill 1 of the 1 seats besides yours" (issue 36)."""
    from harena.tui.screens.create_table import bots_help

    assert bots_help(1, 1) == "a bot takes the other seat"
    assert bots_help(0, 1) == "the other seat waits for a person"
    assert bots_help(3, 3) == "bots take all 3 other seats"
    assert bots_help(1, 3) == "bots take 1 of the 3 other seats; the rest wait for people"


def test_the_table_list_names_a_game_by_its_title_before_the_subtitle() -> None:
    """Never "Spartacus: A G" cut mid-word (issue 36)."""
    from harena.tui.widgets.table_list import short_title

    assert short_title("Spartacus: A Game of Blood and Treachery") == "Spartacus"
    assert short_title("High Card") == "High Card"
    assert short_title("A Very Long Game Name Indeed") == "A Very Long G…"


def test_a_wrapped_help_line_continues_under_its_text_not_under_the_keys() -> None:
    """Issue 36: "wrapped help lines not indented"."""
    from harena.tui.screens.help import TEXT_WIDTH, hanging

    what = "step through the game so far as your seat saw it (a finished game: all revealed)"
    lines = hanging(what, 12)
    assert len(lines) == 2 and lines[1].startswith(" " * 12 + "finished")
    assert all(len(line) <= TEXT_WIDTH - 12 for line in lines[:1])
    assert all(len(line) <= TEXT_WIDTH for line in lines)
    assert " ".join(line.strip() for line in lines) == what


def test_free_seats_in_a_log_line_are_told_apart() -> None:
    """Issue 36: "a free seat rolls 2" for a seat nobody holds yet: the only free one is "the
    free seat", several are numbered, as bots of one level are."""
    from harena.tui.widgets.seats import named_seats, seat_names

    ann = {"name": "ann", "bot": None, "connected": True, "free": False}
    free = {"name": "", "bot": None, "connected": False, "free": True}
    line = "Rolls for the first choice: Seat 1 rolls 4, Seat 2 rolls 2, Seat 3 rolls 6"
    assert named_seats(line, seat_names([ann, free, {**ann, "name": "normal bot"}])) == (
        "Rolls for the first choice: ann rolls 4, the free seat rolls 2, normal bot rolls 6"
    )
    assert named_seats(line, seat_names([ann, free, free])) == (
        "Rolls for the first choice: ann rolls 4, free seat 1 rolls 2, free seat 2 rolls 6"
    )


def test_the_create_form_shows_each_real_games_fields_in_order() -> None:
    """Options, then bots and their levels, the clocks, a reaction window where the game holds
    them, and the guided game last (issue 38 split the form's builder: the order stays)."""
    games = Lobby().view()["games"]
    form = TableForm(games)
    labels: dict[str, list[str]] = {}
    for game in games:
        assert form.fields()[0].value == game["title"]
        next(f for f in form.fields() if f.label == "Players").cycle(1)
        next(f for f in form.fields() if f.label == "Bots").cycle(1)
        labels[game["name"]] = [f.label for f in form.fields()]
        form.fields()[0].cycle(1)
    clocks = ["Move clock", "Time bank", "Stand-in after", "Stand-in bot"]
    assert labels["carthage"] == [
        "Game", "Players", "Arena tokens", "Gladiators", "Sudden death", "Rulesets", "Equipment",
        "Legend cards", "Arena Beasts", "Teams", "Essedari", "Bots", "Bot 1", *clocks,
        "Who may join", "Hints", "Rematch: a no", "Learn to play",
    ]  # fmt: skip
    assert labels["spartacus"] == [
        "Game", "Players", "Game length", "Round limit", "Market offers", "Bots", "Bot 1",
        *clocks, "Reaction window", "Who may join", "Hints", "Rematch: a no", "Learn to play",
    ]  # fmt: skip
    form.fields()[-1].cycle(1)  # Learn to play: yes
    assert [(f.label, f.value) for f in form.fields()] == [
        ("Game", form.game["title"]),
        ("Learn to play", "yes"),
    ]
