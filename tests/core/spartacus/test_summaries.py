"""The rules summaries of Spartacus (core/spartacus/summaries.py, data/summaries.toml): which
page each moment of a real game shows, and a broken file refused with Spartacus's own error.
(The checks common to both games are tested on Carthage's file: tests/core/carthage.)"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from harena.core.spartacus.schema import ContentError
from harena.core.spartacus.state import Phase
from harena.core.spartacus.summaries import KEYS, PHASE_KEYS, key_for, summaries
from harena.core.summaries import MAX_WIDTH, summaries_for
from tests.core.spartacus.helpers import at_the_market, give, new_game, play_until, started


def page(game) -> str:
    return key_for(game.view(0)["board"])


def test_every_phase_of_the_game_has_a_summary_in_the_order_of_play() -> None:
    # rules: Setup, The Game Turn (Maintenance, Intrigue, Market, Arena), Game Objective
    assert set(PHASE_KEYS) == {phase.value for phase in Phase}
    assert [p.key for p in summaries().pages] == list(KEYS)
    assert summaries_for("spartacus") is summaries()
    assert summaries_for("highcard") is None


def test_each_part_of_a_turn_shows_its_own_page() -> None:
    # rules: Setup 1 - House Selection; Intrigue Phase - Set Up Schemes
    game = new_game(2)
    assert page(game) == "houses"
    game = started(2)
    assert game.state.phase is Phase.INTRIGUE and page(game) == "intrigue"
    play_until(game, lambda g: g.state.intrigue is not None and g.state.intrigue.scheme is not None)
    assert page(game) == "schemes"


def test_the_market_shows_the_open_market_then_the_auctions() -> None:
    # rules: Market Phase - Open Market, Auction, Contest for the Host Title
    game = at_the_market()
    assert page(game) == "market"
    for seat in range(game.players):
        game.act(seat, "close")
    assert game.state.market is not None and game.state.market.auction is not None
    assert page(game) == "auction"


def test_the_arena_shows_its_page_then_the_fight_then_the_end() -> None:
    # rules: Arena Phase; Combat Basics; Game Objective
    game = started(2, seed=3, round_limit="10")
    play_until(game, lambda g: g.state.phase is Phase.ARENA)
    assert page(game) == "arena"
    play_until(game, lambda g: g.state.arena is not None and g.state.arena.fight is not None)
    assert page(game) == "fight"
    play_until(game, lambda g: False)
    assert game.result() is not None and page(game) == "end"


# --- a broken summaries.toml ----------------------------------------------------------------------


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    shipped = resources.files("harena.core.spartacus") / "data" / "summaries.toml"
    (tmp_path / "summaries.toml").write_text(shipped.read_text(encoding="utf-8"), "utf-8")
    return tmp_path


def refused(data_dir: Path, old: str, new: str, *fragments: str) -> None:
    path = data_dir / "summaries.toml"
    text = path.read_text("utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), "utf-8")
    with pytest.raises(ContentError) as caught:
        summaries(data_dir)
    for fragment in fragments:
        assert fragment in str(caught.value), str(caught.value)


def test_an_untouched_copy_loads(data_dir: Path) -> None:
    assert [p.key for p in summaries(data_dir).pages] == list(KEYS)


def test_an_unknown_phase_key_is_refused(data_dir: Path) -> None:
    refused(
        data_dir, "[auction]", "[auctions]", "unknown summary 'auctions'", "houses, maintenance"
    )


def test_a_missing_phase_is_refused(data_dir: Path) -> None:
    refused(data_dir, "[fight]", "[arena.fight]", "missing summary 'fight'")


def test_a_line_too_long_for_80x24_is_refused(data_dir: Path) -> None:
    long = "Everything happens by itself, for every House at once, and at great length:"
    refused(data_dir, "Everything happens by itself, for every House at once:", long,
            "summary 'maintenance', line 1", f"at most {MAX_WIDTH} fit an 80x24 screen")  # fmt: skip


def test_a_reaction_window_shows_its_own_page() -> None:
    # rules: Intrigue Phase - Reactions "in response to other events": a lot won
    game = at_the_market()
    give(game, 1, "envy-of-the-forum", hand=True)
    for seat in range(game.players):
        game.act(seat, "close")
    for seat in range(game.players):
        game.act(seat, f"bid:{2 if seat == 0 else 0}")
    assert game.state.window is not None and page(game) == "reactions"
    game.act(1, "pass")
    assert page(game) == "auction"
