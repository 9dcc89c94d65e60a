"""Persistence (core/store.py): every accepted action survives a restart or a crash."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harena.core.store import Store, decode_log, decode_snapshot, encode_record
from harena.core.table import Table, load_tables
from harena.core.table import records as table_module

REPO = Path(__file__).resolve().parents[2]


def play(table: Table, moves: int) -> None:
    for _ in range(moves):
        if table.game.result() is not None:
            return
        prompt = table.game.prompts()[0]
        table.act(f"key-{prompt.seat}", prompt.choices[-1].id)


def make_table(store: Store, players: int = 3) -> Table:
    table = Table.create("highcard", players, seed=2024, options={"rounds": "3"}, store=store)
    for seat in range(players):
        table.sit(f"key-{seat}", f"player{seat}")
    return table


def same_table(a: Table, b: Table) -> None:
    assert a.game.snapshot() == b.game.snapshot()
    assert [(s.identity, s.name, s.bot) for s in a.seats] == [
        (s.identity, s.name, s.bot) for s in b.seats
    ]
    assert a.chat == b.chat and a.started == b.started and a.id == b.id


def test_a_restart_restores_every_table_exactly(tmp_path):
    store = Store(tmp_path)
    first = make_table(store)
    play(first, 4)
    first.say("key-0", "player0", "good luck")
    second = Table.create("highcard", 2, seed=5, store=store)
    second.sit("key-9", "solo")
    loaded = {t.id: t for t in load_tables(Store(tmp_path))}
    assert sorted(loaded) == sorted([first.id, second.id])
    same_table(loaded[first.id], first)
    same_table(loaded[second.id], second)
    assert not any(s.connected for s in loaded[first.id].seats)


def test_a_reloaded_table_plays_on_and_reloads_again(tmp_path):
    store = Store(tmp_path)
    table = make_table(store)
    play(table, 3)
    table.close()  # the server stopped
    again = load_tables(Store(tmp_path))[0]
    play(again, 3)
    again.close()
    assert again.game.version == 6
    same_table(load_tables(Store(tmp_path))[0], again)


def test_periodic_snapshots_shorten_the_replay_and_agree_with_the_log(tmp_path, monkeypatch):
    monkeypatch.setattr(table_module, "SNAPSHOT_EVERY", 4)
    store = Store(tmp_path)
    table = make_table(store)
    play(table, 6)  # 5 table records + 6 actions: a snapshot at record 8
    snap_path = tmp_path / "tables" / table.id / "snapshot"
    assert snap_path.exists()
    snap = decode_snapshot(snap_path.read_bytes()).data
    assert snap["records"] % 4 == 0 and snap["records"] < len(store.load(table.id).records)
    same_table(load_tables(Store(tmp_path))[0], table)


def test_an_unreadable_snapshot_falls_back_to_the_log(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(table_module, "SNAPSHOT_EVERY", 4)
    store = Store(tmp_path)
    table = make_table(store)
    play(table, 6)
    (tmp_path / "tables" / table.id / "snapshot").write_bytes(b"\x00garbage")
    same_table(load_tables(Store(tmp_path))[0], table)
    assert "unreadable snapshot" in caplog.text


def test_a_torn_last_record_is_dropped_with_a_warning_and_nothing_before_is_lost(tmp_path, caplog):
    store = Store(tmp_path)
    table = make_table(store)
    play(table, 4)
    log_path = tmp_path / "tables" / table.id / "log"
    whole = log_path.read_bytes()
    reference = Table.load(store.load(table.id), store)
    last = encode_record({"t": "act", "seat": 0, "choice": "card:1", "by": "key-0"})
    for cut in (1, 7, 8, len(last) - 1):
        log_path.write_bytes(whole + last[:cut])
        caplog.clear()
        loaded = load_tables(Store(tmp_path))[0]
        same_table(loaded, reference)
        assert "torn record" in caplog.text
        assert log_path.read_bytes() == whole  # the torn tail is cut off ...
        aside = sorted(log_path.parent.glob("log.torn-*"))
        assert aside and aside[-1].read_bytes() == last[:cut]  # ... and kept aside
        loaded.close()


def test_a_corrupt_record_keeps_every_record_before_it(tmp_path):
    frames = [encode_record({"t": "chat", "n": i}) for i in range(5)]
    data = bytearray(b"".join(frames))
    data[len(frames[0]) + len(frames[1]) + 9] ^= 0xFF  # a flipped bit inside record 3
    read = decode_log(bytes(data))
    assert [r["n"] for r in read.records] == [0, 1]
    assert "checksum mismatch" in read.problem


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.dictionaries(
            st.text(max_size=5), st.integers(-(2**63), 2**63 - 1) | st.text(max_size=20), max_size=4
        ),
        max_size=8,
    ),
    st.integers(min_value=0),
)
def test_any_truncation_of_the_log_yields_exactly_the_whole_records_before_it(records, cut):
    frames = [encode_record(r) for r in records]
    data = b"".join(frames)
    cut %= len(data) + 1
    read = decode_log(data[:cut])
    whole = 0
    while whole < len(frames) and sum(map(len, frames[: whole + 1])) <= cut:
        whole += 1
    assert read.records == records[:whole]
    assert read.good_bytes == sum(map(len, frames[:whole]))
    assert (read.problem is None) == (cut == read.good_bytes)


CRASHING_WRITER = textwrap.dedent(
    """
    import json, os, signal, sys
    from harena.core.store import Store, TableLog
    from harena.core.table import Table
    from tests.fixture_game import install
    install()
    store = Store(sys.argv[1])
    table = Table.create("highcard", 3, seed=77, store=store)
    for seat in range(3):
        table.sit(f"key-{seat}", f"p{seat}")
    for _ in range(5):
        prompt = table.game.prompts()[0]
        table.act(f"key-{prompt.seat}", prompt.choices[0].id)
        print(json.dumps({"id": table.id, "snapshot": table.game.snapshot().hex()}), flush=True)

    real_write = table.records.log._file.write
    def write_half_then_die(frame):
        real_write(frame[: len(frame) // 2])
        os.fsync(table.records.log._file.fileno())
        os.kill(os.getpid(), signal.SIGKILL)
    table.records.log._file.write = write_half_then_die
    prompt = table.game.prompts()[0]
    table.act(f"key-{prompt.seat}", prompt.choices[0].id)
    print("survived the kill", flush=True)
    """
)


def test_a_writer_killed_mid_record_loses_only_that_record(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-c", CRASHING_WRITER, str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    lines = proc.stdout.splitlines()
    assert "survived the kill" not in lines and len(lines) == 5
    last = json.loads(lines[-1])
    log_path = tmp_path / "tables" / last["id"] / "log"
    assert decode_log(log_path.read_bytes()).problem is not None  # the torn half is there
    loaded = load_tables(Store(tmp_path))[0]
    assert loaded.game.snapshot().hex() == last["snapshot"]
    assert loaded.game.version == 5
    assert decode_log(log_path.read_bytes()).problem is None
    assert os.path.exists(log_path.parent / "log.torn-1")


def modes(root: Path) -> dict[str, int]:
    return {
        str(p.relative_to(root)): stat.S_IMODE(p.stat().st_mode) for p in [root, *root.rglob("*")]
    }


@pytest.mark.parametrize("umask", [0o000, 0o022, 0o077, 0o777])
def test_saved_tables_are_private_to_the_server_user_whatever_the_umask(tmp_path, umask, caplog):
    """They hold every seed and every move: 0700 folders, 0600 files, set aside bytes too."""
    old = os.umask(umask)
    try:
        root = tmp_path / "data"
        store = Store(root)
        table = make_table(store)
        play(table, 2)
        table.close()
        (root / "tables" / table.id / "log").open("ab").write(b"\x00\x00")  # a torn tail
        assert len(load_tables(Store(root))) == 1
    finally:
        os.umask(old)
    found = modes(root)
    assert "tables/1/log.torn-1" in found and "tables/1/snapshot" in found
    for name, mode in found.items():
        assert mode == (0o700 if (root / name).is_dir() else 0o600), name


def test_tables_saved_world_readable_are_made_private_on_load(tmp_path):
    store = Store(tmp_path)
    table = make_table(store)
    table.close()
    for path in [tmp_path / "tables", *(tmp_path / "tables").rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    assert len(load_tables(Store(tmp_path))) == 1
    found = modes(tmp_path / "tables")
    assert set(found.values()) == {0o700, 0o600} and found["."] == 0o700


def test_an_existing_data_folder_keeps_its_mode(tmp_path):
    """The data folder may be the operator's (--data); only what harena creates is changed."""
    tmp_path.chmod(0o755)
    Store(tmp_path)
    assert stat.S_IMODE(tmp_path.stat().st_mode) == 0o755
    assert stat.S_IMODE((tmp_path / "tables").stat().st_mode) == 0o700


def test_a_new_table_folder_is_fsynced_once_its_first_files_exist(tmp_path, monkeypatch):
    """A power loss must not lose a table players already saw: the new folder's entries
    (log, snapshot) and its own name in tables/ are fsynced before create returns."""
    store = Store(tmp_path)
    synced: list[tuple[int, set[str]]] = []
    real_fsync = os.fsync

    def watching_fsync(fd: int) -> None:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            names = {
                p.relative_to(tmp_path / "tables").as_posix() for p in tmp_path.glob("tables/*/*")
            }
            synced.append((info.st_ino, names))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", watching_fsync)
    table = Table.create("highcard", 2, seed=1, store=store)
    folder = tmp_path / "tables" / table.id
    folder_syncs = [names for ino, names in synced if ino == folder.stat().st_ino]
    assert folder_syncs and "1/log" in folder_syncs[0]  # the log's name is durable ...
    assert any("1/snapshot" in names for names in folder_syncs)  # ... and the first snapshot's
    assert (tmp_path / "tables").stat().st_ino in [ino for ino, _ in synced]  # and the folder's own
    assert decode_log((folder / "log").read_bytes()).records[0]["t"] == "create"
    synced.clear()
    store.create("7").close()  # the store alone, before any record or snapshot
    folder = tmp_path / "tables" / "7"
    assert any(ino == folder.stat().st_ino and "7/log" in names for ino, names in synced)
