"""Bans (server/operations/operators.py): keys and networks, saved so a restart keeps them."""

from __future__ import annotations

import json

import pytest

from harena.server.operations.operators import BANS_FILE, Bans, OperatorsError


def test_bans_match_keys_and_networks_and_survive_a_reload(tmp_path):
    bans = Bans.load(tmp_path)
    bans.ban_key("SHA256:abc", "ann by olga")
    assert bans.ban_address("203.0.113.7/24", "by olga") == "203.0.113.0/24"
    bans.ban_address("2001:db8::1", "by olga")
    again = Bans.load(tmp_path)
    assert again.key_banned("SHA256:abc") and not again.key_banned("SHA256:abd")
    assert again.address_banned("203.0.113.200") and not again.address_banned("203.0.114.1")
    assert again.address_banned("2001:db8::1") and not again.address_banned("2001:db8::2")
    assert (tmp_path / BANS_FILE).stat().st_mode & 0o777 == 0o600
    assert again.unban("203.0.113.9/24") == "203.0.113.0/24"
    assert Bans.load(tmp_path).addresses == {"2001:db8::1/128": "by olga"}
    with pytest.raises(OperatorsError, match="is not banned"):
        again.unban("198.51.100.1")
    with pytest.raises(OperatorsError, match="not an IP address"):
        again.ban_address("example.org", "")


def test_an_unreadable_bans_file_stops_the_server_rather_than_letting_everyone_in(tmp_path):
    (tmp_path / BANS_FILE).write_text("{not json")
    with pytest.raises(OperatorsError, match="fix or remove it"):
        Bans.load(tmp_path)
    (tmp_path / BANS_FILE).write_text(json.dumps({"addresses": {"nonsense": "x"}}))
    with pytest.raises(OperatorsError, match="fix or remove it"):
        Bans.load(tmp_path)
