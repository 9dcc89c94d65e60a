"""The course drawn as text: one line per player and measure, at 80 columns, marks in the
column of their round."""

from __future__ import annotations

from harena.core.review.course import Course, Mark, PlayerCourse, Series, course_of
from harena.tui.widgets.course_plot import NAME_WIDTH, course_text
from tests.core.review.test_course import finished, replay_of

PLOT = NAME_WIDTH + 1  # the column the plots start in


def carthage_course() -> Course:
    """Three gladiators over four rounds; Blue falls in round 3."""
    return Course(
        game="carthage",
        rounds=(0, 1, 2, 3, 4),
        players=(
            PlayerCourse(
                0,
                "Red Dimachaerus",
                (Series("Armor", (15, 14, 12, 9, 8)), Series("Favor", (0, 2, 4, 1, 3))),
            ),
            PlayerCourse(
                1,
                "Blue Retiarius",
                (Series("Armor", (15, 10, 4, -1, None)), Series("Favor", (0, 1, 0, 0, None))),
                {3: (Mark.ELIMINATED,)},
            ),
            PlayerCourse(
                2,
                "Purple Gaul",
                (Series("Armor", (15, 15, 15, 15, 15)), Series("Favor", (0, 0, 0, 0, 0))),
            ),
        ),
        winners=(0,),
    )


def test_each_player_has_one_labelled_line_per_measure_with_its_figures() -> None:
    text = course_text(carthage_course(), ["ann", "bob", "normal bot"])
    lines = text.splitlines()
    assert lines[0].startswith("Armor")
    assert lines[1].startswith("Red Dimachaerus (ann)") and lines[1].endswith(
        "15 to 8, min 8 max 15"
    )
    assert lines[2].startswith("Blue Retiarius (bob)") and "15 to -1, min -1 max 15" in lines[2]
    assert lines[3].startswith("Purple Gaul (normal bot)") and lines[3].endswith(
        "15 to 15, min 15 max 15"
    )
    assert lines[4].startswith("Favor")
    assert "x: eliminated in that round" in text
    assert all(len(line) <= 80 for line in lines)


def test_an_eliminated_gladiator_is_marked_in_the_column_of_its_round_and_not_drawn_after() -> None:
    lines = course_text(carthage_course(), ["ann", "bob", "normal bot"]).splitlines()
    blue = lines[2]
    assert blue[PLOT + 3] == "x"  # the start, rounds 1 and 2, then round 3
    assert blue[PLOT + 4] == " "
    assert lines[1][PLOT : PLOT + 5] == lines[1][PLOT : PLOT + 5].strip()  # all five drawn


def test_plain_ascii_for_a_terminal_that_is_not_utf8() -> None:
    text = course_text(carthage_course(), ["ann", "bob", "normal bot"], unicode=False)
    assert text.isascii()
    assert "…" not in text


def test_spartacus_marks_auctions_and_schemes_in_their_rounds() -> None:
    course = course_of(replay_of(finished("spartacus", 5)))
    lines = course_text(course, ["ann", "bob", "cy"]).splitlines()
    first = lines.index("Auctions won and Schemes landed")
    for player in course.players:
        row = lines[first + 1 + player.seat][PLOT : PLOT + len(course.rounds)]
        for index, round_ in enumerate(course.rounds):
            marks = set(player.marks.get(round_, ())) if index else set()
            expected = {
                frozenset(): "·",
                frozenset({Mark.AUCTION}): "A",
                frozenset({Mark.SCHEME}): "S",
            }
            assert row[index] == expected.get(frozenset(marks), "*")
    assert all(len(line) <= 80 for line in lines)


def test_a_long_game_is_bucketed_to_fit_80_columns() -> None:
    rounds = tuple(range(61))
    course = Course(
        "carthage",
        rounds,
        (
            PlayerCourse(
                0,
                "Red Dimachaerus",
                (Series("Armor", tuple(range(61))), Series("Favor", (0,) * 61)),
            ),
        ),
        (0,),
    )
    assert all(len(line) <= 80 for line in course_text(course, ["ann"]).splitlines())
