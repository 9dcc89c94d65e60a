"""How players reach the server, as the `ssh` command they type (server/transport/ssh_address.py): the
operator's `--public-address NAME[:PORT]`, else the address and port a connection reached."""

from __future__ import annotations

import argparse

import pytest

from harena.server.transport.ssh_address import SshAddress, public_address, reached_address


def test_the_command_names_the_port_only_when_it_is_not_22():
    assert SshAddress("play.example.org").command("status") == "ssh play.example.org status"
    assert SshAddress("127.0.0.1", 2222).command("status") == "ssh -p 2222 127.0.0.1 status"
    opens = SshAddress("127.0.0.1", 2222).command("table", "3", terminal=True)
    assert opens == "ssh -t -p 2222 127.0.0.1 table 3"
    assert SshAddress("::1", 2222).command() == "ssh -p 2222 ::1"  # ssh reads a bare IPv6


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("play.example.org", SshAddress("play.example.org")),
        ("play.example.org:2022", SshAddress("play.example.org", 2022)),
        ("203.0.113.5:22", SshAddress("203.0.113.5")),
        ("2001:db8::1", SshAddress("2001:db8::1")),
        ("[2001:db8::1]:2222", SshAddress("2001:db8::1", 2222)),
        ("[2001:db8::1]", SshAddress("2001:db8::1")),
    ],
)
def test_a_public_address_is_a_name_and_maybe_a_port(text, address):
    assert public_address(text) == address
    assert public_address(str(address)) == address  # as --print-config writes it back


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "host name or address"),
        ("play example.org", "host name or address"),
        ("host;rm -rf ~", "host name or address"),
        (":2222", "host name or address"),
        ("example.org:0", "1 to 65535"),
        ("example.org:ssh", "1 to 65535"),
        ("[2001:db8::1", "[IPv6]:PORT"),
        ("[2001:db8::1]2222", "[IPv6]:PORT"),
    ],
)
def test_a_bad_public_address_says_why(text, message):
    with pytest.raises(argparse.ArgumentTypeError, match=message.replace("[", r"\[")):
        public_address(text)


def test_unset_it_is_the_address_and_port_the_connection_reached():
    fallback = SshAddress("0.0.0.0", 2222)
    assert reached_address(("192.168.1.5", 2222), fallback) == SshAddress("192.168.1.5", 2222)
    assert reached_address(("fe80::1%eth0", 2200, 0, 2), fallback) == SshAddress(
        "fe80::1%eth0", 2200
    )
    # a dual-stack listener sees IPv4 players as mapped IPv6: they typed the IPv4
    assert reached_address(("::ffff:10.0.0.7", 22, 0, 0), fallback) == SshAddress("10.0.0.7")
    assert reached_address(None, fallback) == fallback
