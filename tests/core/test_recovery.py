"""Damaged saves (core/recovery.py, Table.load): every load restores exactly the game that was
saved, or warns and keeps the most that can be kept; never a silently different game, never a
vanished table. The policy is docs/architecture.md, "Damaged saves"."""

from __future__ import annotations

import logging
import random
import shutil
from pathlib import Path

import msgpack
import pytest

from harena.core.lobby import Lobby
from harena.core.store import (
    SNAPSHOT_MAGIC,
    Store,
    decode_log,
    decode_snapshot,
    encode_record,
    encode_snapshot,
)
from harena.core.table import Table, load_tables
from harena.core.table import records as table_module

SNAP_AT = 8  # records covered by the snapshot in the saved table below


def state(table: Table) -> tuple:
    """Everything a load must bring back."""
    return (
        table.id,
        table.game.snapshot(),
        [(s.identity, s.name, s.bot) for s in table.seats],
        table.started,
        table.chat,
    )


def play(table: Table, moves: int) -> None:
    for _ in range(moves):
        prompt = table.game.prompts()[0]
        table.act(f"key-{prompt.seat}", prompt.choices[-1].id)


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> dict:
    """A saved High Card table: 14 records, the snapshot covering the first 8, and the state
    after every prefix of its log (what a load that keeps k records must equal)."""
    root = tmp_path_factory.mktemp("saved")
    mp = pytest.MonkeyPatch()
    mp.setattr(table_module, "SNAPSHOT_EVERY", SNAP_AT)
    store = Store(root)
    table = Table.create("highcard", 3, seed=2024, options={"rounds": "3"}, store=store)
    for seat in range(3):
        table.sit(f"key-{seat}", f"player{seat}")
    play(table, 2)
    table.say("key-0", "player0", "good luck")
    play(table, 5)
    table.say("key-1", "player1", "gg")
    mp.undo()
    table.close()
    folder = root / "tables" / table.id
    log_bytes = (folder / "log").read_bytes()
    read = decode_log(log_bytes)
    assert (
        len(read.records) == 14
        and decode_snapshot((folder / "snapshot").read_bytes()).data["records"] == SNAP_AT
    )
    prefixes = {}
    for k in range(1, len(read.records) + 1):
        copy = root / f"prefix-{k}"
        (copy / "tables" / table.id).mkdir(parents=True)
        (copy / "tables" / table.id / "log").write_bytes(
            log_bytes[: read.offsets[k] if k < 14 else None]
        )
        (loaded,) = load_tables(Store(copy))
        prefixes[k] = state(loaded)
        loaded.close()
    assert prefixes[14] == state(table)
    return {"folder": folder, "id": table.id, "read": read, "log": log_bytes, "prefixes": prefixes}


@pytest.fixture
def no_fsync(monkeypatch):
    """For the sweeps of a thousand loads: fsync only costs time here (each load repairs
    and fsyncs its files), and durability has its own tests in test_store.py."""
    monkeypatch.setattr("os.fsync", lambda fd: None)


def damaged_copy(saved: dict, tmp: Path, name: str, data: bytes) -> Path:
    """A copy of the saved data folder with file `name` replaced by `data`."""
    root = tmp / "data"
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(saved["folder"], root / "tables" / saved["id"])
    (root / "tables" / saved["id"] / name).write_bytes(data)
    return root


def load_warned(root: Path, caplog) -> tuple[Table, str]:
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        tables = load_tables(Store(root))
    assert len(tables) == 1, caplog.text  # never a vanished table
    tables[0].close()
    return tables[0], caplog.text


def check_load(saved: dict, root: Path, caplog, kept: int) -> str:
    """Loads warn, keep exactly `kept` records' worth of table, and repair the files so that
    the next load is the same table with nothing to say."""
    table, warning = load_warned(root, caplog)
    assert warning, "damage went unnoticed"
    assert state(table) == saved["prefixes"][kept], warning
    again, second = load_warned(root, caplog)
    assert state(again) == state(table) and second == ""
    return warning


def flipped(data: bytes, bit: int) -> bytes:
    out = bytearray(data)
    out[bit // 8] ^= 1 << (bit % 8)
    return bytes(out)


def sample_bits(data: bytes, frames: list[int]) -> list[int]:
    """Every bit of every frame header (and of the snapshot's magic and format byte) and a
    dense sample of the rest, about 1,000 in all: every bit of each is in bench/bit_flips.py."""
    headers = {bit for at in frames for bit in range(at * 8, (at + 8) * 8)}
    rest = sorted(set(range(len(data) * 8)) - headers)
    return sorted(
        headers | set(random.Random(12).sample(rest, min(len(rest), 1000 - len(headers))))
    )


def kept_bytes(folder: Path) -> list[bytes]:
    return [p.read_bytes() for p in sorted(folder.iterdir())]


def test_every_bit_flip_in_a_snapshot_is_caught_and_the_log_restores_the_game(
    saved, tmp_path, caplog, no_fsync
):
    snapshot = (saved["folder"] / "snapshot").read_bytes()
    for bit in sample_bits(snapshot, [0, len(SNAPSHOT_MAGIC) + 1]):
        root = damaged_copy(saved, tmp_path, "snapshot", flipped(snapshot, bit))
        warning = check_load(saved, root, caplog, kept=14)
        assert "snapshot unusable" in warning, bit
        aside = root / "tables" / saved["id"] / "snapshot.bad-1"
        assert aside.read_bytes() == flipped(snapshot, bit)  # kept for whoever investigates


def test_every_bit_flip_in_a_log_is_mended_and_the_game_restored_exactly(
    saved, tmp_path, caplog, no_fsync
):
    """One flipped bit in a record (its length, checksum or payload) is put back: the checksum
    confirms the one single-bit change that makes the record whole. The damaged log is kept."""
    data = saved["log"]
    for bit in sample_bits(data, saved["read"].offsets):
        root = damaged_copy(saved, tmp_path, "log", flipped(data, bit))
        warning = check_load(saved, root, caplog, kept=14)
        assert "mended a flipped bit" in warning, bit
        folder = root / "tables" / saved["id"]
        assert (folder / "log").read_bytes() == data
        assert (folder / "log.bad-1").read_bytes() == flipped(data, bit)


def smashed(data: bytes, at: int) -> bytes:
    """One byte inverted: eight bits, beyond mending."""
    out = bytearray(data)
    out[at] ^= 0xFF
    return bytes(out)


def test_damage_anywhere_in_a_log_keeps_all_records_before_it_or_all_with_the_snapshot(
    saved, tmp_path, caplog, no_fsync
):
    """Damage in a record the snapshot covers loses nothing (the snapshot stands in for it and
    the log is started afresh from the snapshot); damage in a later record keeps every record
    before it. Either way every byte of the damaged log is still in the table's folder."""
    data, offsets = saved["log"], saved["read"].offsets
    for at in range(len(data)):
        record = max(i for i, start in enumerate(offsets) if start <= at)
        damaged = smashed(data, at)
        root = damaged_copy(saved, tmp_path, "log", damaged)
        covered = record < SNAP_AT
        check_load(saved, root, caplog, kept=14 if covered else record)
        folder = root / "tables" / saved["id"]
        (aside,) = folder.glob("log.*-1")  # log.torn-1 if the last record's length was hit
        if covered:
            assert aside.name == "log.bad-1" and aside.read_bytes() == damaged
        else:
            assert (folder / "log").read_bytes() + aside.read_bytes() == damaged


def test_two_flipped_bits_in_one_record_are_not_mended(saved, tmp_path, caplog):
    at = saved["read"].offsets[10] + 12
    damaged = flipped(flipped(saved["log"], at * 8), at * 8 + 3)
    warning = check_load(saved, damaged_copy(saved, tmp_path, "log", damaged), caplog, kept=10)
    assert "mended" not in warning and "checksum mismatch" in warning


def test_a_snapshot_whose_record_count_is_off_is_not_trusted(saved, tmp_path, caplog):
    """Issue 12: a count off by 3 made the table vanish. With a valid checksum it is still
    checked against the log, rejected, and the log restores the game."""
    snap = decode_snapshot((saved["folder"] / "snapshot").read_bytes()).data
    for off in (-3, 3):
        bad = encode_snapshot({**snap, "records": snap["records"] + off})
        warning = check_load(saved, damaged_copy(saved, tmp_path, "snapshot", bad), caplog, kept=14)
        assert "snapshot says" in warning and "set aside" in warning


def test_a_snapshot_that_tells_a_different_story_than_the_log_is_not_trusted(
    saved, tmp_path, caplog
):
    snap = decode_snapshot((saved["folder"] / "snapshot").read_bytes()).data
    seats = [dict(s) for s in snap["seats"]]
    seats[1]["name"] = "mallory"
    bad = encode_snapshot({**snap, "seats": seats})
    warning = check_load(saved, damaged_copy(saved, tmp_path, "snapshot", bad), caplog, kept=14)
    assert "seats differ" in warning


def test_an_appended_act_with_a_valid_checksum_but_an_illegal_choice_is_set_aside(
    saved, tmp_path, caplog
):
    """Issue 12: this made the table vanish. The table keeps every record before it."""
    bad = encode_record({"t": "act", "seat": 1, "choice": "card:99", "by": "key-1"})
    chat = encode_record({"t": "chat", "at": 1.0, "name": "x", "text": "after"})
    root = damaged_copy(saved, tmp_path, "log", saved["log"] + bad + chat)
    warning = check_load(saved, root, caplog, kept=14)
    assert "record 14" in warning and "not a legal choice" in warning
    folder = root / "tables" / saved["id"]
    assert (folder / "log").read_bytes() == saved["log"]
    assert (folder / "log.bad-1").read_bytes() == bad + chat


def test_a_malformed_record_with_a_valid_checksum_is_set_aside(saved, tmp_path, caplog):
    for record in (
        {"t": "seat", "seat": 7, "identity": None, "name": "", "bot": None},
        {"t": "chat", "at": "noon", "name": "x", "text": "hi"},
        {"t": "teleport"},
        {"t": "create", "config": {}},
    ):
        root = damaged_copy(saved, tmp_path, "log", saved["log"] + encode_record(record))
        check_load(saved, root, caplog, kept=14)


def test_a_damaged_first_record_is_covered_by_the_snapshot(saved, tmp_path, caplog):
    """Issue 12: a damaged create record made the table vanish. Every table has a snapshot
    from its creation on, so its config survives and nothing is lost."""
    data = bytearray(saved["log"])
    data[10:13] = b"\x00\x00\x00"  # inside the create record's payload
    root = damaged_copy(saved, tmp_path, "log", bytes(data))
    warning = check_load(saved, root, caplog, kept=14)
    assert "damaged before its snapshot" in warning and "checksum mismatch at byte 0" in warning


def test_a_new_table_whose_create_record_is_damaged_still_loads(tmp_path, caplog):
    store = Store(tmp_path)
    table = Table.create("highcard", 2, seed=3, store=store)
    table.sit("key-0", "ann")
    table.close()
    log_path = tmp_path / "tables" / table.id / "log"
    data = bytearray(log_path.read_bytes())
    data[12:14] = b"\xff\xff"
    log_path.write_bytes(bytes(data))
    loaded, warning = load_warned(tmp_path, caplog)
    assert "damaged before its snapshot" in warning
    assert loaded.game.snapshot() == table.game.snapshot() and loaded.seats[0].identity == "key-0"


def test_an_empty_log_beside_an_intact_snapshot_keeps_the_snapshot(saved, tmp_path, caplog):
    """Issue 12: this made the table vanish. The snapshot's state is kept (the records after
    it are gone with the log) and the log is started afresh from it."""
    root = damaged_copy(saved, tmp_path, "log", b"")
    warning = check_load(saved, root, caplog, kept=SNAP_AT)
    assert "fewer than the" in warning
    folder = root / "tables" / saved["id"]
    assert (folder / "log.bad-1").read_bytes() == b""
    (first,) = decode_log((folder / "log").read_bytes()).records
    assert first["t"] == "base"


def test_a_log_cut_short_before_its_snapshot_keeps_the_snapshot(saved, tmp_path, caplog):
    cut = saved["read"].offsets[5] + 3
    check_load(
        saved, damaged_copy(saved, tmp_path, "log", saved["log"][:cut]), caplog, kept=SNAP_AT
    )


def test_a_table_restarted_from_a_snapshot_plays_on_and_reloads(saved, tmp_path, caplog):
    root = damaged_copy(saved, tmp_path, "log", b"")
    (table,) = load_tables(Store(root))
    play(table, 2)
    table.say("key-2", "player2", "still here")
    table.close()
    again, warning = load_warned(root, caplog)
    assert warning == "" and state(again) == state(table)


def test_a_table_with_no_create_record_and_no_snapshot_is_reported_and_left_alone(tmp_path, caplog):
    """Two faults at once: nothing holds the config any more. The error names the table and
    its files stay as they were for the operator."""
    store = Store(tmp_path)
    table = Table.create("highcard", 2, seed=3, store=store)
    table.close()
    folder = tmp_path / "tables" / table.id
    (folder / "snapshot").unlink()
    (folder / "log").write_bytes(b"\x00" * 20)
    before = kept_bytes(folder)
    with caplog.at_level(logging.WARNING):
        assert load_tables(Store(tmp_path)) == []
    assert (
        f"table {table.id} could not be loaded" in caplog.text
        and "cannot be rebuilt" in caplog.text
    )
    assert kept_bytes(folder) == before


def test_an_old_snapshot_without_a_checksum_loads_with_a_note_and_is_rewritten(
    saved, tmp_path, caplog
):

    snap = decode_snapshot((saved["folder"] / "snapshot").read_bytes()).data
    old = {k: v for k, v in snap.items() if k != "log_bytes"}  # what format 1 held
    root = damaged_copy(saved, tmp_path, "snapshot", msgpack.packb(old, use_bin_type=True))
    warning = check_load(saved, root, caplog, kept=14)
    assert "old format without a checksum" in warning
    rewritten = decode_snapshot((root / "tables" / saved["id"] / "snapshot").read_bytes())
    assert rewritten.format == 2 and rewritten.data["records"] == 14


def test_an_old_snapshot_stands_in_when_the_log_is_damaged_before_it(saved, tmp_path, caplog):
    """Unchecked, but the only copy of what the damage covers: used, with a warning."""

    snap = decode_snapshot((saved["folder"] / "snapshot").read_bytes()).data
    old = {k: v for k, v in snap.items() if k != "log_bytes"}
    root = damaged_copy(saved, tmp_path, "snapshot", msgpack.packb(old, use_bin_type=True))
    damaged = bytearray(saved["log"])
    damaged[saved["read"].offsets[3] + 9 : saved["read"].offsets[3] + 11] = b"\xff\xff"
    (root / "tables" / saved["id"] / "log").write_bytes(bytes(damaged))
    warning = check_load(saved, root, caplog, kept=SNAP_AT)
    assert "restored from that unchecked snapshot" in warning


def test_a_missing_log_beside_an_intact_snapshot_keeps_the_snapshot(saved, tmp_path, caplog):
    root = damaged_copy(saved, tmp_path, "log", b"")
    (root / "tables" / saved["id"] / "log").unlink()
    warning = check_load(saved, root, caplog, kept=SNAP_AT)
    assert "there was none" in warning


def test_a_table_folder_with_nothing_in_it_is_reported(tmp_path, caplog):
    (tmp_path / "tables" / "4").mkdir(parents=True)
    with caplog.at_level(logging.WARNING):
        assert load_tables(Store(tmp_path)) == []
    assert (
        "table 4 could not be loaded: its folder holds neither a log nor a snapshot" in caplog.text
    )


@pytest.mark.parametrize("game", ["carthage", "spartacus"])
def test_bit_flips_in_a_real_game_restore_it_exactly(game, tmp_path, monkeypatch, caplog, no_fsync):
    """The issue's experiment on the games themselves (bench/bit_flips.py runs thousands)."""
    monkeypatch.setattr(table_module, "SNAPSHOT_EVERY", 16)
    table = Table.create(game, 3, seed=12, store=Store(tmp_path / "saved"))
    for seat in range(3):
        table.set_bot(seat, "random")
    for _ in range(40):
        table.play_bot(table.bots_to_move()[0])
    table.close()
    folder = tmp_path / "saved" / "tables" / table.id
    for name in ("snapshot", "log"):
        data = (folder / name).read_bytes()
        for bit in random.Random(name).sample(range(len(data) * 8), 25):
            root = tmp_path / "flip"
            shutil.rmtree(root, ignore_errors=True)
            shutil.copytree(folder, root / "tables" / table.id)
            (root / "tables" / table.id / name).write_bytes(flipped(data, bit))
            loaded, warning = load_warned(root, caplog)
            assert warning and state(loaded) == state(table), (name, bit)


def test_a_damaged_table_is_still_in_the_lobby(saved, tmp_path, caplog):
    """What players see after a restart: the table is listed and can be played on."""
    bad = encode_record({"t": "act", "seat": 1, "choice": "card:99", "by": "key-1"})
    root = damaged_copy(saved, tmp_path, "log", saved["log"] + bad)
    lobby = Lobby.open(Store(root))
    assert list(lobby.tables) == [saved["id"]]
    table = lobby.table(saved["id"])
    assert [s["name"] for s in table.summary()["seats"]] == ["player0", "player1", "player2"]
    play(table, 1)
    lobby.close()


def test_a_snapshot_that_checks_out_but_does_not_restore_falls_back_to_the_log(
    saved, tmp_path, caplog
):
    snap = decode_snapshot((saved["folder"] / "snapshot").read_bytes()).data
    game = msgpack.unpackb(snap["game"], raw=False, strict_map_key=False)
    broken = msgpack.packb({**game, "state": {"deck": "not a list"}}, use_bin_type=True)
    root = damaged_copy(saved, tmp_path, "snapshot", encode_snapshot({**snap, "game": broken}))
    warning = check_load(saved, root, caplog, kept=14)
    assert "snapshot does not restore" in warning and "snapshot.bad-1" in warning
