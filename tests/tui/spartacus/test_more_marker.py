"""A list cut to fit says what is hidden and the key that shows it (issue 36: the Reactions
list was cut at 80x24 without a word): "+N more: o", and `o` shows the phase in full."""

from __future__ import annotations

from harena.tui.boards.spartacus import panels
from tests.tui.harness import screen_text, session, until
from tests.tui.screen_keys import until_prompt
from tests.tui.spartacus.test_reactions import BOB, _lot_won_by_ann


def plain(lines: list) -> list[str]:
    return ["".join(text for text, _ in line) for line in lines]


def test_a_reactions_list_cut_to_fit_ends_with_how_many_more_and_the_key() -> None:
    _, table, _, _ = _lot_won_by_ann()
    view = table.view_for(BOB)
    whole = plain(panels.phase_lines(view, 34, 20))
    assert whole[1] == "Reactions (secret until all in):"
    asked = whole[2:]
    assert len(asked) >= 2 and "  bob/Glaber ..." in asked  # every House asked, a line each
    cut = plain(panels.phase_lines(view, 34, 3))
    assert cut == [whole[0], whole[1], f"+{len(asked)} more: o"]  # the Houses asked: hidden
    assert panels.phase_text(view) == whole  # ... and `o` shows them


async def test_o_shows_the_phase_in_full_at_80x24() -> None:
    lobby, table, _, _ = _lot_won_by_ann()
    async with session(lobby, BOB, "bob", size=(80, 24)) as (bob, keys):
        await until_prompt(bob, "event_reaction")
        await keys.press("o")
        await until(lambda: "The phase in full" in screen_text(bob))
        screen = screen_text(bob)
        for line in panels.phase_text(table.view_for(BOB)):
            assert line.strip() in screen
        await keys.press("escape")
        await until(lambda: "The phase in full" not in screen_text(bob))


def test_a_house_cut_to_fit_says_how_many_lines_more_within_its_width() -> None:
    _, table, _, _ = _lot_won_by_ann()
    view = table.view_for(BOB)
    whole = plain(panels.house_lines(view, 1, 44, 100))
    cut = plain(panels.house_lines(view, 1, 44, 3))
    assert cut == [*whole[:2], f"+{len(whole) - 2} more (a taller terminal shows them)"]
    assert all(len(line) <= 44 for line in cut)


def test_a_line_whose_segment_ends_at_the_edge_still_says_it_is_cut() -> None:
    """The screen audit found "Bets: ann/Batiatus 1 on ann/Batiatus to win; bot/Glaber" at
    120x40, the rest of the bets gone without a mark: a segment that fills the room exactly
    while more follows ends in the ellipsis."""
    line = [("Bets: ", "dim"), ("ann", ""), (" 1 on ann; ", ""), ("bob", ""), (" 1 on ann", "")]
    assert plain([panels.fit_line(line, 23, False)]) == ["Bets: ann 1 on ann; bo…"]
    assert plain([panels.fit_line(line, 23, True)]) == ["Bets: ann 1 on ann; bo~"]
    assert plain([panels.fit_line(line, 29, False)]) == ["Bets: ann 1 on ann; bob 1 on…"]
    assert panels.fit_line(line, 50, False) == line  # fits: untouched


def test_an_asset_name_cut_to_its_column_ends_in_an_ellipsis():
    """Found at 80x24: two Murmillo Recruits read "2x Murmillo Recrui" with nothing to say so."""
    asset = {
        "card": "murmillo-recruit",
        "name": "Murmillo Recruit",
        "exhausted": False,
        "wounded": False,
        "favor": 0,
        "champion": False,
    }
    name = panels.asset_line(asset, 46, False, copies=2)[0][0]
    assert name.rstrip() == "2x Murmillo Recru…"
    assert panels.asset_line(asset, 46, True, copies=2)[0][0].rstrip() == "2x Murmillo Recru~"
