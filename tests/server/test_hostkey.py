"""The host key (server/transport/hostkey.py): made once, private, reused."""

from __future__ import annotations

import stat

import asyncssh
import pytest

from harena.server.transport.hostkey import (
    KEY_NAME,
    HostKeyError,
    fingerprint,
    load_or_create_host_key,
)


def test_first_start_generates_a_private_ed25519_key_and_later_starts_reuse_it(tmp_path):
    key = load_or_create_host_key(tmp_path / "keys")
    path = tmp_path / "keys" / KEY_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert key.get_algorithm() == "ssh-ed25519"
    assert fingerprint(key).startswith("SHA256:")
    again = load_or_create_host_key(tmp_path / "keys")
    assert fingerprint(again) == fingerprint(key)
    assert (tmp_path / "keys" / (KEY_NAME + ".pub")).read_text().startswith("ssh-ed25519 ")


def test_a_key_readable_by_others_is_tightened(tmp_path, caplog):
    load_or_create_host_key(tmp_path)
    (tmp_path / KEY_NAME).chmod(0o644)
    load_or_create_host_key(tmp_path)
    assert stat.S_IMODE((tmp_path / KEY_NAME).stat().st_mode) == 0o600
    assert "readable by others" in caplog.text


def test_a_damaged_key_file_is_an_error_not_a_silent_new_key(tmp_path):
    (tmp_path / KEY_NAME).write_text("not a key")
    (tmp_path / KEY_NAME).chmod(0o600)
    with pytest.raises(HostKeyError, match="cannot read the host key"):
        load_or_create_host_key(tmp_path)


def test_of_two_servers_creating_the_key_at_once_the_second_uses_the_first_key(
    tmp_path, monkeypatch
):
    """Two servers (or bench nodes) started on one folder: while this one generates its key,
    another writes its own first. This one must serve that key, not crash or replace it."""
    real = asyncssh.generate_private_key
    theirs = real("ssh-ed25519")

    def racing(*args, **kwargs):
        (tmp_path / KEY_NAME).write_bytes(theirs.export_private_key())  # the other wins
        return real(*args, **kwargs)

    monkeypatch.setattr(asyncssh, "generate_private_key", racing)
    key = load_or_create_host_key(tmp_path)
    assert fingerprint(key) == fingerprint(theirs)
    assert [p.name for p in tmp_path.iterdir()] == [KEY_NAME]  # nothing left aside
