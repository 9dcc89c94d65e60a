"""Where a guide panel goes (tui/guide_dock.py): beside the region it explains, within the
screen between the header and the prompt bar, its text wrapped to fit and paged if it must."""

from __future__ import annotations

from textual.geometry import Region

from harena.tui.guide_dock import FRAME, dock, paragraphs, wrap

FREE = Region(0, 1, 80, 14)  # 80x24: under the header, above the prompt bar
TEXT = ("A few words about the region beside.", "And a second line of them.")


def test_beside_a_region_on_the_left_the_panel_goes_right_of_it():
    arena = Region(0, 1, 38, 9)
    where = dock(FREE, arena, "The arena", TEXT)
    assert where is not None and where.side == "left"  # the arena is left of the panel
    assert not where.region.overlaps(arena) and FREE.contains_region(where.region)
    assert where.region.x == arena.right


def test_for_the_prompt_bar_the_panel_sits_just_above_it():
    prompt = Region(0, 15, 80, 6)
    where = dock(FREE, prompt, "Choose", TEXT)
    assert where is not None and where.side == "below"
    assert where.region.bottom == prompt.y and where.region.width == 80
    assert len(where.pages) == 1 and where.region.height == len(where.pages[0]) + 2


def test_the_side_that_needs_fewer_pages_wins_then_the_one_that_covers_less():
    wide_top = Region(0, 1, 80, 11)  # leaves 3 rows below: a page of one line
    where = dock(FREE, wide_top, "Title", TEXT)
    assert where is not None and where.side == "above" and len(where.pages) > 1
    left_column = Region(0, 1, 46, 14)
    where = dock(FREE, left_column, "Title", TEXT)
    assert where is not None and where.side == "left" and len(where.pages) == 1


def test_a_long_text_is_paged_and_every_page_fits():
    house = Region(0, 5, 46, 10)
    text = tuple("word " * 14 for _ in range(7))
    where = dock(FREE, house, "A long one", text)
    assert where is not None and len(where.pages) >= 2
    rows = where.region.height - 2
    assert all(len(page) <= rows for page in where.pages)
    width = where.region.width - FRAME
    assert all(len(line) <= width for page in where.pages for line in page)
    assert [line for page in where.pages for line in page] == wrap("A long one", text, width)


def test_no_room_on_any_side_gives_none():
    assert dock(Region(0, 1, 30, 3), Region(0, 1, 10, 3), "T", TEXT) is None


def test_lines_are_joined_into_paragraphs_a_blank_line_ends_one():
    assert paragraphs(["one", "two", "", "three"]) == ["one two", "three"]
