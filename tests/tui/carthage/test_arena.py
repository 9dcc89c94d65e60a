"""The hex arena drawn as text: every hex, gladiators by letter, tokens by symbol, the cursor,
in Unicode and in plain ASCII, without Textual."""

from __future__ import annotations

from typing import Any

from harena.tui.boards.carthage import catalog
from harena.tui.boards.carthage.arena import (
    COMPACT,
    LARGE,
    arena_lines,
    cursor_step,
    describe_hex,
    hex_at,
    plain,
    position,
    size,
)


def board(**extra: Any) -> dict[str, Any]:
    """A board view with Blue on the west corner, Red dead, and a face-down Favor token."""
    players = [
        {
            "seat": 0,
            "colour": "blue",
            "name": "Blue Retiarius",
            "armor": 15,
            "favor": 0,
            "alive": True,
            "at": [-4, 0],
        },
        {
            "seat": 1,
            "colour": "red",
            "name": "Red Dimachaerus",
            "armor": 0,
            "favor": 0,
            "alive": False,
            "at": None,
        },
    ]
    tokens = [
        {"at": [0, 0], "token": "favor-2", "face_up": True},
        {"at": [2, -2], "token": "armor-1", "face_up": False},
        {"at": [1, 1], "token": "pillar", "face_up": True},
    ]
    return {"players": players, "tokens": tokens, **extra}


def test_the_compact_arena_is_36_by_9_and_shows_all_61_hexes() -> None:
    shape = catalog.arena()
    assert size(shape, COMPACT) == (36, 9)
    lines = plain(arena_lines(board(), compass=False))
    assert len(lines) == 9 and all(len(line) == 36 for line in lines)
    # One word per hex, row by row: 5 + 6 + 7 + 8 + 9 + 8 + 7 + 6 + 5 = 61.
    assert [len(line.split()) for line in lines] == [5, 6, 7, 8, 9, 8, 7, 6, 5]


def test_gladiators_are_letters_and_tokens_symbols_with_values() -> None:
    text = "\n".join(plain(arena_lines(board())))
    assert " B " in text  # Blue, by letter
    assert "R" not in text  # an eliminated gladiator leaves the arena
    assert "★2" in text and "██" in text
    assert "(♦1)" in text  # face down: in parentheses


def test_plain_ascii_draws_the_same_arena() -> None:
    lines = plain(arena_lines(board(), ascii_only=True))
    text = "\n".join(lines)
    assert all(ch.isascii() for ch in text)
    assert "$2" in text and "(+1)" in text and "##" in text and "@" not in text
    assert [
        len(line.split()) for line in plain(arena_lines(board(), ascii_only=True, compass=False))
    ] == [5, 6, 7, 8, 9, 8, 7, 6, 5]


def test_the_centre_and_the_inner_circle_are_marked() -> None:
    empty = {"players": [], "tokens": []}
    lines = plain(arena_lines(empty, compass=False))
    assert lines[4].split()[4] == "◎"  # the centre of the middle row
    assert lines[4].split().count("∘") == 4 and lines[2].split().count("∘") == 3
    assert "@" in "\n".join(plain(arena_lines(empty, ascii_only=True)))


def test_the_cursor_brackets_its_hex_and_the_compass_sits_in_the_corner() -> None:
    lines = plain(arena_lines(board(), cursor=(0, 0)))
    assert "[★2]" in lines[4]
    assert (
        lines[0].startswith(" w e") and lines[1].startswith("a * d") and lines[2].startswith(" z x")
    )


def test_hints_mark_legal_steps_with_their_keys() -> None:
    lines = plain(arena_lines(board(), hints={(-3, 0): "d", (-4, 1): "x"}))
    assert " B   d " in lines[4]
    assert " x " in lines[5]


def test_the_large_arena_spreads_out() -> None:
    lines = plain(arena_lines(board(), scale=LARGE, cursor=(-4, 0)))
    assert size(catalog.arena(), LARGE) == (54, 17) and len(lines) == 17
    assert "[ B  ]" in lines[8]
    assert lines[1].strip() == "a * d"  # the compass, between the first rows


def test_a_click_finds_the_hex_under_it() -> None:
    shape = catalog.arena()
    for h in shape.hexes:
        x, y = position(shape, COMPACT, h)
        assert hex_at(shape, COMPACT, x + 1, y) == h
        assert hex_at(shape, COMPACT, x + 3, y) == h
    assert hex_at(shape, COMPACT, 0, 0) is None


def test_arrow_keys_move_the_cursor_along_rows_and_between_them() -> None:
    shape = catalog.arena()
    h, col = (0, 0), position(shape, COMPACT, (0, 0))[0]
    h, col = cursor_step(shape, COMPACT, h, "right", col)
    assert h == (1, 0)
    h, col = cursor_step(shape, COMPACT, h, "up", col)
    h, col = cursor_step(shape, COMPACT, h, "down", col)
    assert h == (1, 0)  # up and down come back: no drift
    edge = (4, 0)
    assert cursor_step(shape, COMPACT, edge, "right", 32)[0] == edge
    top = (0, -4)
    assert cursor_step(shape, COMPACT, top, "up", 8)[0] == top


def test_the_hex_under_the_cursor_in_words() -> None:
    assert describe_hex(board(), (0, 0)) == "the centre (centre): Favor +2 token, face up"
    assert (
        describe_hex(board(), (-4, 0))
        == "4 W of the centre (outer edge): B Blue Retiarius, Armor 15"
    )
    assert (
        describe_hex(board(), (2, -2))
        == "2 NE of the centre (Inner Circle): Armor +1 token, face down"
    )
