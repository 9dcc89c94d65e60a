"""`harena review TABLE --data DIR`: a saved finished table's review printed, reading the files
only; an unknown or unfinished table, or a player who did not play there, named in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from harena.core.lobby import Lobby
from harena.core.review.reviewer import Reviewer
from harena.core.review.verdict import TableReview
from harena.core.store import Store
from harena.core.table_like import TableLike
from harena.server.commands.cli import main
from harena.tui import review_calls
from tests.tui.review_tables import finished_table, review_of


def saved_finished_table(data: Path) -> str:
    lobby = Lobby(Store(data))
    table = finished_table(lobby, "carthage", 2)
    table_id = table.id
    lobby.close()
    return table_id


def test_a_saved_finished_table_is_reviewed_for_every_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    table_id = saved_finished_table(data)
    before = sorted(p.name for p in (data / "tables" / table_id).iterdir())
    asked: list[int] = []

    async def ask(
        _reviewer: Reviewer | None, table: TableLike, seat: int, progress: review_calls.Progress
    ) -> TableReview:
        asked.append(seat)
        return review_of(table, [0.0, 0.3], seat=seat)  # type: ignore[arg-type]

    monkeypatch.setattr(review_calls, "ask_review", ask)
    assert main(["review", table_id, "--data", str(data)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Table {table_id} · Carthage · how it went")
    assert "Armor, from the start to round" in out
    headings = [line for line in out.splitlines() if line.startswith("Where it turned for")]
    assert [h.endswith(("(ann):", "(normal bot):")) for h in headings] == [True, True]
    assert "about 30% less chance to win" in out
    assert asked == [0, 1]
    assert sorted(p.name for p in (data / "tables" / table_id).iterdir()) == before  # read only

    asked.clear()
    assert main(["review", table_id, "--data", str(data), "--player", "ann"]) == 0
    assert asked == [0] and "(normal bot):" not in capsys.readouterr().out.split("Where it")[1]


def test_unknown_unfinished_tables_and_players_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    table_id = saved_finished_table(data)
    assert main(["review", "77", "--data", str(data)]) == 1
    assert "harena: there is no table 77 under" in capsys.readouterr().err
    assert main(["review", table_id, "--data", str(data), "--player", "zed"]) == 1
    assert f"nobody named zed played at table {table_id}: ann, normal bot did" in (
        capsys.readouterr().err
    )
    lobby = Lobby(Store(data))
    playing = lobby.create_table("id-ann", "ann", "carthage", 2, bots=1)
    lobby.close()
    assert main(["review", playing.id, "--data", str(data)]) == 1
    assert "a review is for a finished game: this one is not over" in capsys.readouterr().err
