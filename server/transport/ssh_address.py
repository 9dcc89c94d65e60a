"""Where players reach this server, printed as the `ssh` command they type.

A command's reply (`ssh host status`: "Open the first: ssh -t ... table 3"), a refusal's list
of commands and the lobby's help name the server: a player copies the line as it is, so it
must be the address that works for them, not a word to replace. The operator may say it
(`harena serve --public-address NAME[:PORT]`: behind NAT, a container's mapped port, a DNS
name); else it is the address and port this connection reached (the socket's local name),
which is what the player typed, give or take a name resolved.
"""

from __future__ import annotations

import argparse
import ipaddress
import re
from dataclasses import dataclass
from typing import Any

SSH_PORT = 22
_NAME = re.compile(r"[A-Za-z0-9._%:-]+")
"""A host name, an IPv4 or an IPv6 address (with a %scope): nothing a shell would read."""


@dataclass(frozen=True)
class SshAddress:
    """A host and port as a player passes them to `ssh`."""

    host: str
    port: int = SSH_PORT

    def command(self, *words: str, terminal: bool = False) -> str:
        """The command line: `ssh -p 2222 example.org status` (`-p` only when not 22; `-t`
        with `terminal`, for the commands that open the TUI)."""
        parts = ["ssh"]
        if terminal:
            parts.append("-t")
        if self.port != SSH_PORT:
            parts += ["-p", str(self.port)]
        return " ".join([*parts, self.host, *words])

    def __str__(self) -> str:
        """As `--public-address` takes it back (what `--print-config` shows)."""
        if self.port == SSH_PORT:
            return self.host
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def public_address(text: str) -> SshAddress:
    """`NAME[:PORT]` (an IPv6 address with a port in brackets: `[2001:db8::1]:2222`), the
    argparse type of `--public-address` and so of its config key."""
    text = text.strip()
    port = str(SSH_PORT)
    if text.startswith("["):
        host, bracket, rest = text[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            raise argparse.ArgumentTypeError(f"expected NAME[:PORT] or [IPv6]:PORT, got {text!r}")
        port = rest[1:] or port
    elif text.count(":") == 1:
        host, _, port = text.partition(":")
    else:
        host = text  # a name, an IPv4, or an IPv6 address without a port
    if not host or not _NAME.fullmatch(host):
        raise argparse.ArgumentTypeError(f"expected a host name or address, got {text!r}")
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, not {port!r}")
    return SshAddress(host, int(port))


def reached_address(sockname: Any, fallback: SshAddress) -> SshAddress:
    """The address and port a connection reached, from its socket's local name (a (host, port)
    pair, or four items for IPv6); `fallback` when there is none (not a TCP socket)."""
    if not isinstance(sockname, tuple) or len(sockname) < 2:
        return fallback
    host, port = str(sockname[0]), int(sockname[1])
    try:
        mapped = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return SshAddress(host, port)
    if isinstance(mapped, ipaddress.IPv6Address) and mapped.ipv4_mapped is not None:
        host = str(mapped.ipv4_mapped)  # a dual-stack listener: the player typed the IPv4
    return SshAddress(host, port)
