"""Per-key settings (core/players.py): kept across restarts in players.json; a guest's only for
the server's run."""

from __future__ import annotations

from pathlib import Path

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
