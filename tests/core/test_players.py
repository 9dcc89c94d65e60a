"""Per-key settings (core/players.py): kept across restarts in players.json; a guest's only for
the server's run."""

from __future__ import annotations

from pathlib import Path

import pytest

from harena.core.players import PlayerSettings
from harena.core.store import Store


def test_the_bell_setting_is_kept_per_key_across_a_restart_and_a_guests_is_not(tmp_path: Path):
    settings = PlayerSettings(Store(tmp_path))
    assert settings.get("key-a", "bell") is True  # on by default
    settings.set("key-a", "bell", False)
    settings.set("guest:1", "bell", False, persist=False)
    assert settings.get("guest:1", "bell") is False
    again = PlayerSettings(Store(tmp_path))
    assert again.get("key-a", "bell") is False
    assert again.get("key-b", "bell") is True
    assert again.get("guest:1", "bell") is True
    assert (tmp_path / "players.json").stat().st_mode & 0o777 == 0o600


def test_a_damaged_settings_file_is_set_aside_and_the_defaults_hold(tmp_path: Path):
    (tmp_path / "players.json").write_text("{not json")
    settings = PlayerSettings(Store(tmp_path))
    assert settings.get("key-a", "bell") is True
    assert (tmp_path / "players.json.bad-1").read_text() == "{not json"


def test_a_key_keeps_the_name_it_first_chose_whatever_it_asks_for_later(tmp_path: Path) -> None:
    """Issue 36: one name per key, saved, so every node of a cluster reads the same one."""

    settings = PlayerSettings(Store(tmp_path))
    assert settings.name_for("key-a", "ann") == "ann"
    assert settings.name_for("key-a", "root") == "ann"
    assert PlayerSettings(Store(tmp_path)).name_for("key-a", "root") == "ann"  # after a restart
    assert settings.name_for("key-b", "ANN") == "ANN~2"  # no two keys hold one name
    assert settings.name_for("key-c", "cat", others=["cat"]) == "cat~2"  # a guest shows "cat"
    assert settings.name_for("guest:1", "ann", persist=False) == "ann~3"  # ann, ANN~2 held
    assert settings.get("guest:1", "name") == ""  # a guest holds nothing


def test_a_rename_is_saved_and_refuses_anothers_name_or_an_empty_one(tmp_path: Path) -> None:
    from harena.core.players import NameRefused

    settings = PlayerSettings(Store(tmp_path))
    settings.name_for("key-a", "ann")
    settings.name_for("key-b", "bob")
    assert settings.rename("key-a", "Annia") == "Annia"
    assert PlayerSettings(Store(tmp_path)).name_for("key-a", "ann") == "Annia"
    for taken in ("bob", "BOB", "  ", "a\x1bb"):
        with pytest.raises(NameRefused):
            settings.rename("key-a", taken)
    assert settings.name_for("key-c", "ann") == "ann"  # given up by key-a: free again


def test_two_servers_sharing_the_players_document_give_a_key_one_name(tmp_path: Path) -> None:
    """A cluster's nodes share players.json (server/cluster/node.py watches it): a node that
    has not yet heard of a key's name finds it in the document as saved, never names it anew."""
    store = Store(tmp_path)
    here, there = PlayerSettings(store), PlayerSettings(store)  # `there` read it before
    assert here.name_for("key-a", "ann") == "ann"
    assert there.name_for("key-a", "root") == "ann"
    assert there.name_for("key-b", "ann") == "ann~2"
    assert here.name_for("key-a", "x") == "ann"
