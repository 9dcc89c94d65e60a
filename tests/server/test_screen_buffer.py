"""ScreenBuffer: what it sends must leave a real terminal (pyte) showing exactly the target."""

from __future__ import annotations

import pyte
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.color import ColorSystem
from rich.segment import Segment
from rich.style import Style
from textual._compositor import ChopsUpdate, LayoutUpdate
from textual.geometry import Region
from textual.strip import Strip

from harena.server.transport.screen_buffer import ScreenBuffer, strip_cells, style_key

COLORS = ColorSystem.EIGHT_BIT
STYLES = [
    None,
    Style(),
    Style(bold=True),
    Style(reverse=True, bold=True),
    Style(color="red", bgcolor="default"),
    Style(color="default", bgcolor="default"),
    Style(color="color(39)", underline=True),
]


class Terminal:
    """A pyte screen fed with everything the buffer renders."""

    def __init__(self, width: int, height: int) -> None:
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.Stream(self.screen)
        self.bytes = 0

    def feed(self, text: str) -> None:
        self.bytes += len(text.encode())
        self.stream.feed(text)


def full_update(rows: list[list[tuple[str, Style | None]]], width: int) -> LayoutUpdate:
    strips = [[Strip([Segment(text, style) for text, style in row])] for row in rows]
    return LayoutUpdate(strips, Region(0, 0, width, len(rows)))


def blank_rows(width: int, height: int) -> list[list[tuple[str, Style | None]]]:
    return [[(" " * width, None)] for _ in range(height)]


def test_the_first_render_clears_and_writes_only_what_is_not_blank() -> None:
    buffer, terminal = ScreenBuffer(20, 3), Terminal(20, 3)
    rows = blank_rows(20, 3)
    rows[1] = [("  ", None), ("hello", Style(bold=True)), (" " * 13, None)]
    buffer.apply(full_update(rows, 20), COLORS)
    out = buffer.render()
    assert out.startswith("\x1b[0m\x1b[2J")
    terminal.feed(out)
    assert terminal.screen.display[1] == "  hello" + " " * 13
    assert terminal.screen.buffer[1][2].bold and not terminal.screen.buffer[1][0].bold
    assert len(out) < 40  # the blank rows cost nothing


def test_an_identical_paint_sends_nothing_and_a_change_only_its_cells() -> None:
    buffer = ScreenBuffer(30, 2)
    rows = [[("total: 41", None), (" " * 21, None)], [("turn: 2", None), (" " * 23, None)]]
    buffer.apply(full_update(rows, 30), COLORS)
    buffer.render()
    buffer.apply(full_update(rows, 30), COLORS)
    assert buffer.render() == ""
    rows[0] = [("total: 42", None), (" " * 21, None)]
    buffer.apply(full_update(rows, 30), COLORS)
    # One digit, then the cursor back where Textual keeps it (the top left corner).
    assert buffer.render() == "\x1b[8C2\x1b[1;1H"


def test_a_settled_screen_keeps_one_grid_of_cells_and_still_sends_only_changes() -> None:
    """Memory per session: rows the client shows as the target has them are one list in both
    grids; a paint copies the row it writes, so the comparison still finds the change."""
    buffer = ScreenBuffer(30, 2)
    rows = [[("total: 41", None), (" " * 21, None)], [("turn: 2", None), (" " * 23, None)]]
    buffer.apply(full_update(rows, 30), COLORS)
    buffer.render()
    assert all(buffer._client_chars[y] is buffer._target_chars[y] for y in range(2))
    assert all(buffer._client_keys[y] is buffer._target_keys[y] for y in range(2))
    rows[1] = [("turn: 3", Style(bold=True)), (" " * 23, None)]
    buffer.apply(full_update(rows, 30), COLORS)
    assert buffer._client_chars[1] is not buffer._target_chars[1]
    assert buffer._client_chars[1][6] == "2"
    assert "3" in buffer.render()
    assert buffer._client_chars[1] is buffer._target_chars[1]
    assert buffer.render() == ""


def test_default_colours_are_the_reset_state() -> None:
    # Textual writes default colours explicitly; after a reset they are implied.
    assert style_key(Style(color="default", bgcolor="default"), COLORS) == ""
    assert style_key(Style(bgcolor="default"), COLORS) == ""
    assert style_key(None, COLORS) == ""
    assert style_key(Style(bold=True, color="default"), COLORS) == "1"
    assert style_key(Style(color="color(39)"), COLORS) == "38;5;39"
    assert style_key(Style(bgcolor="color(49)"), COLORS) == "48;5;49"


def test_a_partial_update_writes_only_its_spans() -> None:
    buffer, terminal = ScreenBuffer(20, 2), Terminal(20, 2)
    buffer.apply(full_update([[("a" * 20, None)], [("b" * 20, None)]], 20), COLORS)
    terminal.feed(buffer.render())
    chops = [{0: Strip([Segment("x" * 20)])}, {0: Strip([Segment("y" * 20)])}]
    buffer.apply(ChopsUpdate(chops, [(1, 5, 8)], [[20], [20]]), COLORS)
    out = buffer.render()
    terminal.feed(out)
    # As Textual's ChopsUpdate: a chop that starts before the span is written from its start.
    assert terminal.screen.display == ["a" * 20, "y" * 8 + "b" * 12]
    assert "x" not in out and len(out) <= 24


def test_blanks_inside_a_row_are_erased_not_written() -> None:
    # A panel beside another emptied, or a short line written over a long one: ECH and a move.
    buffer, terminal = ScreenBuffer(40, 1), Terminal(40, 1)
    buffer.apply(full_update([[("x" * 30 + "|right", None)]], 40), COLORS)
    terminal.feed(buffer.render())
    buffer.apply(full_update([[("ab" + " " * 28 + "|right", None)]], 40), COLORS)
    out = buffer.render()
    terminal.feed(out)
    assert terminal.screen.display == ["ab" + " " * 28 + "|right" + " " * 4]
    assert "\x1b[28X" in out and len(out) < 20, repr(out)
    # Styled text after the blanks is drawn in its style (the erase reset the colours first).
    buffer.apply(
        full_update([[("red" + " " * 27, Style(color="red")), ("|right", Style(color="red"))]], 40),
        COLORS,
    )
    terminal.feed(buffer.render())
    buffer.apply(
        full_update(
            [[("r", Style(color="red")), (" " * 29, None), ("|right", Style(color="red"))]], 40
        ),
        COLORS,
    )
    terminal.feed(buffer.render())
    assert terminal.screen.display[0].startswith("r" + " " * 29 + "|right")
    assert (
        terminal.screen.buffer[0][30].fg == "red" and terminal.screen.buffer[0][5].fg == "default"
    )


def test_wide_characters_are_never_cut_in_two() -> None:
    buffer, terminal = ScreenBuffer(10, 1), Terminal(10, 1)
    buffer.apply(full_update([[("ab世界cdef", None)]], 10), COLORS)
    terminal.feed(buffer.render())
    assert terminal.screen.display == ["ab世界cdef"]
    # Overwrite the right half of 世: the left half must not stay on the screen.
    buffer.apply(ChopsUpdate([{3: Strip([Segment("X")])}], [(0, 3, 4)], [[4]]), COLORS)
    terminal.feed(buffer.render())
    assert terminal.screen.display[0].startswith("ab X界")


def test_a_resize_clears_and_repaints() -> None:
    buffer = ScreenBuffer(10, 2)
    buffer.apply(full_update([[("0123456789", None)], [("abcdefghij", None)]], 10), COLORS)
    buffer.render()
    buffer.resize(12, 3)
    out = buffer.render()
    assert out.startswith("\x1b[0m\x1b[2J") and "0123456789" in out


def test_the_cursor_goes_where_textual_puts_it() -> None:
    buffer = ScreenBuffer(10, 2)
    buffer.apply(full_update([[("x" * 10, None)], [(" " * 10, None)]], 10), COLORS)
    buffer.cursor = (3, 1)
    assert buffer.render().endswith("\x1b[2;4H")
    assert buffer.render() == ""  # nothing changed, the cursor is there already
    buffer.cursor = (0, 0)
    assert buffer.render() == "\x1b[1;1H"


# ------------------------------------------------------------------ any paints, a real terminal

TEXTS = st.sampled_from(["a", "bc", " ", "   ", "─", "世", "界x", "é", "xyz ", " " * 11])
SEGMENTS = st.lists(st.tuples(TEXTS, st.sampled_from(range(len(STYLES)))), min_size=1, max_size=6)
PAINTS = st.lists(
    st.tuples(st.integers(0, 5), st.integers(0, 15), SEGMENTS, st.integers(1, 16)),
    min_size=1,
    max_size=8,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PAINTS, min_size=1, max_size=5))
def test_any_sequence_of_paints_shows_the_target_on_a_real_terminal(frames) -> None:
    width, height = 16, 6
    buffer, terminal = ScreenBuffer(width, height), Terminal(width, height)
    buffer.apply(full_update(blank_rows(width, height), width), COLORS)
    terminal.feed(buffer.render())
    for paints in frames:
        for y, x, segments, span in paints:
            strip = Strip([Segment(text, STYLES[index]) for text, index in segments])
            x2 = min(width, x + span)
            chops = [{} for _ in range(y)] + [{x: strip}]
            ends = [[] for _ in range(y)] + [[width]]
            buffer.apply(ChopsUpdate(chops, [(y, x, x2)], ends), COLORS)
        terminal.feed(buffer.render())
        for row in range(height):
            shown = "".join(terminal.screen.buffer[row][col].data for col in range(width))
            wanted = "".join(char if char is not None else "" for char in buffer._target_chars[row])
            assert shown.replace(" ", "") == wanted.replace(" ", ""), (row, shown, wanted)
            for col in range(width):
                char = buffer._target_chars[row][col]
                if char:  # the right half of a wide character has no cell of its own in pyte
                    cell = terminal.screen.buffer[row][col]
                    key = buffer._target_keys[row][col]
                    assert cell.data == char, (row, col)
                    assert cell.bold == ("1" in key.split(";")), (row, col, key)
                    assert cell.reverse == ("7" in key.split(";")), (row, col, key)


def test_a_strip_painted_by_many_sessions_is_turned_into_cells_once_per_colour_system() -> None:
    strip = Strip([Segment("ab", Style(bold=True)), Segment("界x", Style(color="red"))])
    chars, keys = strip_cells(strip, COLORS)
    assert chars == ["a", "b", "界", "", "x"]
    assert keys[0] == keys[1] == style_key(Style(bold=True), COLORS) != keys[2]
    assert strip_cells(strip, COLORS)[0] is chars  # the second session reuses the first's
    assert strip_cells(strip, ColorSystem.STANDARD)[0] is not chars
    # An equal strip that is another object is worked out on its own (strips are keyed by
    # identity, never mixed up when an id is reused).
    assert strip_cells(Strip(list(strip)), COLORS)[0] is not chars
