"""The screen audit (issue 36) on a few seeded games, and its checks caught on planted screens.

Each game is played once (through the real TUI: people by keys, bots, a spectator) and every
screen each session received is checked against each rule of tests/tui/screen_checks.py; one
test per game and rule says which rule broke. bench/screen_audit.py runs many more games.
"""

from __future__ import annotations

import asyncio
from functools import cache

import pytest

from harena.tui.screens.table import TableScreen
from harena.tui.widgets.status_line import StatusLine
from tests.tui import screen_checks as checks
from tests.tui.harness import session, until
from tests.tui.screen_audit import (
    LARGE,
    SPECTATOR,
    AuditGame,
    AuditResult,
    audit_game,
    make_table,
)

GAMES = {
    # a whole game: 2 seats, one person, a bot, a spectator
    "carthage": AuditGame("carthage", players=2, people=1, seed=3, options={"sudden_death": "10"}),
    # two people and a bot, the first rounds of a quick game, reaction windows as a table has
    # them by default (open 10 s at most: here each closes at the people's answers)
    "spartacus": AuditGame(
        "spartacus", players=3, people=2, seed=1, options={"length": "quick"}, window=10, moves=120
    ),
    "carthage 120x40": AuditGame("carthage", players=3, people=2, seed=2, size=LARGE, moves=60),
    # the start of a guided game of each (the learner reads each panel, then closes it)
    "carthage guided": AuditGame("carthage", guided=True, moves=40),
    "spartacus guided": AuditGame("spartacus", guided=True, moves=60),
}


@cache
def audited(name: str) -> AuditResult:
    return asyncio.run(audit_game(GAMES[name]))


@pytest.mark.parametrize("rule", checks.RULES)
@pytest.mark.parametrize("name", GAMES)
def test_every_screen_of_the_game_keeps_the_rule(name: str, rule: str) -> None:
    result = audited(name)
    spec = result.game
    assert result.screens > 10 * (spec.people + spec.spectator)
    assert result.finished or result.moves == spec.moves
    found = result.by_rule(rule)
    assert not found, "\n".join(
        f"{result.counts[(f.rule, f.kind)]} screens: {f.kind} ({f.who}, {f.size}): "
        f"{f.detail}\n    {f.line}"
        for f in found
    )


def test_the_whole_carthage_game_is_played_to_its_end() -> None:
    assert audited("carthage").finished


# -- each check can fail: planted bad screens --------------------------------------------------

BAR = [
    " Choose your gladiator",
    " 1  Blue Murmillo                      4  Yellow Retiarius",
    " 2  Red Dimachaerus                    5  Purple Gaul's Gallic Shove",
    " 3  Green Thraex",
]
CHOICES = [
    ("1", "Blue Murmillo"),
    ("2", "Red Dimachaerus"),
    ("3", "Green Thraex"),
    ("4", "Yellow Retiarius"),
    ("5", "Purple Gaul's Gallic Shove"),
]


def test_a_screen_that_shows_every_choice_passes_every_check() -> None:
    assert checks.hidden_choices(BAR, CHOICES, 0) == []
    assert checks.ids_shown(BAR, ["gladiator:blue"]) == []
    texts = [("choice label", label) for _, label in CHOICES]
    assert checks.cut_words(BAR, texts) == []


def test_a_choice_covered_by_a_panel_is_a_hidden_choice() -> None:
    covered = [*BAR[:2], "┃ Pick the Purple Gaul: its Gallic Shove knocks back ┃", BAR[3]]
    found = checks.hidden_choices(covered, CHOICES, 0)
    assert [p.detail for p in found] == ["2 'Red Dimachaerus'", '5 "Purple Gaul\'s Gallic Shove"']
    assert {p.rule for p in found} == {checks.HIDDEN}


def test_more_choices_than_the_page_need_a_visible_marker() -> None:
    assert [p.kind for p in checks.hidden_choices(BAR, CHOICES, 3)] == ["no marker for more"]
    marked = [f"{BAR[0]}                         page 1/2  [ ]", *BAR[1:]]
    assert checks.hidden_choices(marked, CHOICES, 3) == []


def test_a_choice_cut_with_an_ellipsis_is_shown() -> None:
    cut = [BAR[0], BAR[1], " 2  Red Dimach…                         5  Purple Gaul's Gal…", BAR[3]]
    assert checks.hidden_choices(cut, CHOICES, 0) == []
    assert checks.cut_words(cut, [("choice label", label) for _, label in CHOICES]) == []


def test_a_word_cut_without_an_ellipsis_is_found() -> None:
    cut = [BAR[0], BAR[1], " 2  Red Dimachaerus                    5  Purple Gaul's Gal│", BAR[3]]
    found = checks.cut_words(cut, [("choice label", label) for _, label in CHOICES])
    assert [(p.rule, p.kind) for p in found] == [(checks.CUT, "a cut choice label")]
    assert "Purple Gaul's Gal" in found[0].detail


def test_a_sentence_stopped_at_the_screen_edge_is_cut_but_a_wrapped_one_is_not() -> None:
    text = "You chose: Scheme: Forged Letters (Influence 4): The target discards 2 Intrigue cards"
    stopped = ["You chose: Scheme: Forged Letters (Influence 4): The target discards 2 Intrigue"]
    assert [p.kind for p in checks.cut_words(stopped, [("status line", text)])] == [
        "a cut status line"
    ]
    wrapped = [*stopped, "cards"]
    assert checks.cut_words(wrapped, [("status line", text)]) == []


@pytest.mark.parametrize(
    ("line", "what"),
    [
        ("Waiting for seat 2 (react)", "a seat number"),
        ("p1 plays Javelin", "a player number"),
        (" 1  react:murmillo_riposte", "a choice id"),
        (" 1  0,-4                     6  -1,-3", "hex coordinates"),
        ("Blue Murmillo moves NW to -2,1", "hex coordinates"),
        ("Target: None", "None"),
        ("{'seat': 1}", "a Python repr"),
    ],
)
def test_seat_numbers_and_ids_on_screen_are_found(line: str, what: str) -> None:
    assert [(p.rule, p.kind) for p in checks.ids_shown([line])][:1] == [(checks.IDS, what)]


def test_names_numbers_and_keys_are_not_ids() -> None:
    fine = [
        "Table 3 · Carthage · playing · you: ann/Blue Murmillo          ? help",
        " 1-9,0 choose  g give  Tab house  c chat  r rules  Esc lobby  ? help",
        "Round 2 · 10 s · 12 denarii · bob/Glaber 3:1 · Speed 2 · page 1/2  [ ]",
    ]
    assert checks.ids_shown(fine) == []


def test_a_raw_choice_id_of_the_view_is_found() -> None:
    found = checks.ids_shown(["You chose: bid7"], ["bid7", "lot:2"])
    assert found == []  # ids without a colon read as words
    found = checks.ids_shown(["You chose: lot:2"], ["lot:2"])
    assert {p.kind for p in found} == {"a choice id"}


def test_a_panel_over_the_prompt_or_its_region_is_found() -> None:
    lines = ["x" * 80] * 24
    prompt, arena = (0, 16, 80, 6), (0, 1, 38, 9)
    assert checks.covered(lines, (0, 12, 80, 10), {"the prompt bar": prompt}, None)[0].kind == (
        "the panel covers the prompt bar"
    )
    assert checks.covered(lines, (0, 1, 80, 8), {"the highlighted arena": arena}, None)
    assert (
        checks.covered(lines, (0, 10, 80, 5), {"the prompt bar": prompt, "arena": arena}, None)
        == []
    )
    framed = checks.covered(
        lines, None, {"the highlighted theater": (0, 10, 38, 1)}, "the highlighted theater"
    )
    assert [p.kind for p in framed] == ["the frame is drawn over the highlighted theater"]


def test_a_key_a_spectator_cannot_use_on_their_key_bar_is_found() -> None:
    bar = " 1-9,0 choose  g give  Tab house  c chat  l leave seat  Esc lobby  ? help"
    keys = [
        checks.BarKey("1-9,0", "choose", "prompt_choose(0)"),
        checks.BarKey("g", "give", "give"),
        checks.BarKey("Tab", "house", "board('next')"),
        checks.BarKey("c", "chat", "chat"),
        checks.BarKey("l", "leave seat", "leave"),
        checks.BarKey("Esc", "lobby", "lobby"),
        checks.BarKey("k", "ask", "ask"),  # not on this bar: nothing to say
    ]
    assert checks.dead_keys(bar, keys, spectator=False) == []
    found = checks.dead_keys(bar, keys, spectator=True)
    assert [p.kind for p in found] == [
        "1-9,0 choose: a spectator cannot use it",
        "g give: a spectator cannot use it",
        "l leave seat: a spectator cannot use it",
    ]
    unbound = checks.dead_keys(" x  explode ", [checks.BarKey("x", "explode", "")], False)
    assert [p.kind for p in unbound] == ["x explode: no action"]


async def test_the_keys_the_audit_calls_seated_only_do_nothing_for_a_spectator() -> None:
    """What `dead_keys` declares (SEATED_ONLY), checked on a real spectator's screen: each such
    key of the bar is refused, and `l` takes them to the lobby with no seat to leave."""
    lobby, table = make_table(AuditGame("spartacus", players=2, people=1))
    async with session(lobby, *SPECTATOR, start_table=table.id) as (app, pilot):
        await until(lambda: isinstance(app.screen, TableScreen) and bool(app.screen.view))
        screen = app.screen
        assert isinstance(screen, TableScreen)
        for key, action in (("1", "prompt_choose(0)"), ("g", "give"), ("k", "ask")):
            assert checks.SEATED_ONLY.match(action)
            await pilot.press(key)
            assert screen.query_one(StatusLine).text.startswith("Error: you are watching")
        assert checks.SEATED_ONLY.match("leave")
        await pilot.press("l")
        await until(lambda: not isinstance(app.screen, TableScreen))
        assert table.seat_of(SPECTATOR[0]) is None


def test_a_title_cut_mid_word_before_the_next_column_is_found() -> None:
    """The lobby's table list: "Spartacus: A G playing", and "1 watchi" at the edge."""
    line = " > #1   Spartacus: A G playing  3/3 seated  ann, bob, bot              1 watchi"
    title = "Spartacus: A Game of Blood and Treachery"
    assert [p.detail for p in checks.cut_words([line], [("game title", title)])] == [
        f"'Spartacus: A G' of {title!r}"
    ]
    full = line[3:] + "ng"
    assert [p.kind for p in checks.cut_words([line], [("table line", full)])] == [
        "a cut table line"
    ]


def test_an_asset_name_cut_in_its_column_is_found() -> None:
    """Found playing at 80x24: the House panel's "2x Murmillo Recrui A1 D3" said nothing of the
    cut; "Recru…" says it."""
    name = [("asset name", "Murmillo Recruit")]
    cut = " 2x Murmillo Recrui A1 D3 S1 ready             bot/Batiatus gains 2 denarii"
    assert [p.kind for p in checks.cut_words([cut], name)] == ["a cut asset name"]
    marked = " 2x Murmillo Recru… A1 D3 S1 ready             bot/Batiatus gains 2 denarii"
    assert checks.cut_words([marked], name) == []
    whole = " Murmillo Recruit   A1 D3 S1 ready"
    assert checks.cut_words([whole], name) == []


def test_running_text_that_only_starts_like_another_is_no_cut() -> None:
    line = " 4  Offer bot/Glaber a trade"
    log = "bot/Glaber asks for support for Political Alliance for themselves"
    assert checks.cut_words([line], [("log line", log)]) == []


def test_a_text_wrapped_whole_is_not_another_text_cut() -> None:
    """The log's "X launches Slave Revolt against Y: One of ..." wraps at the edge; the
    prompt "X launches Slave Revolt against Y: react?" starts alike and is not what it shows."""
    lines = [
        "bob/Glaber launches Slave Revolt against ann/Solonius:",
        "One of the target's slaves dies.",
    ]
    texts = [
        ("log line", " ".join(lines)),
        ("prompt text", "bob/Glaber launches Slave Revolt against ann/Solonius: react?"),
    ]
    assert checks.cut_words(lines, texts) == []
    assert [p.kind for p in checks.cut_words(lines[:1], texts)] == ["a cut log line"]
