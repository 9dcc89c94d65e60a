"""`harena replay TABLE --data DIR`: a saved table's replay in a local terminal (a real PTY),
reading the files only; a table that is not there is named in one line."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

from harena.core.lobby import Lobby
from harena.core.store import Store
from harena.server.commands.cli import main
from tests.server.test_local_play import LocalTerminal

REPLAY = textwrap.dedent(
    """
    import sys
    from tests.fixture_game import install
    install()
    from harena.server.commands.cli import main
    raise SystemExit(main(["replay", "1", "--data", sys.argv[1]]))
    """
)


def finished_table(data: Path) -> None:
    lobby = Lobby(Store(data))
    table = lobby.create_table("key-a", "ann", "highcard", 2, {"rounds": "1"})
    table.sit("key-b", "bob")
    for seat, key in ((0, "key-a"), (1, "key-b")):
        table.act(key, table.game.prompts_for(seat)[0].choices[0].id)
    assert table.status == "over"
    lobby.close()


def test_a_saved_finished_game_replays_in_the_local_terminal(tmp_path: Path):
    finished_table(tmp_path / "data")
    before = sorted(p.name for p in (tmp_path / "data" / "tables" / "1").iterdir())
    term = LocalTerminal([sys.executable, "-c", REPLAY, str(tmp_path / "data")])
    try:
        term.wait_for("Table 1 · replay")
        term.wait_for("move 2/2")
        assert "[bob] you drew" in term.text()
        term.send("\x1b[H")  # Home
        term.wait_for("move 0/2")
        term.send("q")
        assert term.proc.wait(15) == 0
    finally:
        term.close()
    assert (
        sorted(p.name for p in (tmp_path / "data" / "tables" / "1").iterdir()) == before
    )  # read only


def test_a_table_that_is_not_there_is_named(tmp_path: Path, capsys):
    Store(tmp_path)
    assert main(["replay", "7", "--data", str(tmp_path)]) == 1
    assert "there is no table 7" in capsys.readouterr().err


def test_an_archived_table_is_read_too(tmp_path: Path):
    from harena.server.commands.local_replay import load_for_replay

    finished_table(tmp_path)
    Store(tmp_path).archive("1")
    table = load_for_replay("1", tmp_path)
    assert table.status == "over" and len(table.game.actions) == 2
