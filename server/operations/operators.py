"""Who may run the server from inside the lobby, and who may not come in at all.

Operators are key fingerprints: from `--operators FILE` (an authorized_keys file) and the config
file's `operator-keys` (keys or `SHA256:` fingerprints). Bans are keys (by fingerprint) and
addresses (an IP or a CIDR network, as sshd's `from=` does), saved in `bans.json` in the data
folder (written atomically) so a restart keeps them.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

log = logging.getLogger(__name__)

BANS_FILE = "bans.json"
BANNED_KEY_MESSAGE = "harena: this key is banned from this server"
"""What a banned key is told, at login or when a ban reaches its open session."""
KEY_PREFIXES = ("ssh-", "ecdsa-", "sk-", "rsa-")


class OperatorsError(Exception):
    """An operators file or key that cannot be read; the message says which and why."""


def load_operators(path: Path | None, keys: list[str]) -> frozenset[str]:
    """The operators' fingerprints from an authorized_keys file and a list of keys."""
    found: set[str] = set()
    if path is not None:
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise OperatorsError(
                f"cannot read operators file {path}: {exc.strerror or exc}"
            ) from exc
        for number, line in enumerate(lines, 1):
            if line.strip() and not line.lstrip().startswith("#"):
                found.add(key_fingerprint(line, f"{path}:{number}"))
    for key in keys:
        found.add(key_fingerprint(key, "operator-keys"))
    return frozenset(found)


def key_fingerprint(text: str, where: str) -> str:
    """`SHA256:...` as given, or the fingerprint of an authorized_keys line (options allowed)."""
    text = text.strip()
    if text.startswith("SHA256:"):
        return text.split()[0]
    words = text.split()
    for i, word in enumerate(words):
        if word.startswith(KEY_PREFIXES) and i + 1 < len(words):
            try:
                key = asyncssh.import_public_key(f"{word} {words[i + 1]}")
            except (asyncssh.KeyImportError, ValueError) as exc:
                raise OperatorsError(f"{where}: not a public key: {exc}") from exc
            return key.get_fingerprint("sha256")
    raise OperatorsError(
        f"{where}: expected a public key (ssh-ed25519 AAAA...) or a SHA256: fingerprint"
    )


def parse_address(text: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise OperatorsError(
            f"{text!r} is not an IP address or network (e.g. 203.0.113.7 or 203.0.113.0/24)"
        ) from None


@dataclass
class Bans:
    """Banned keys and addresses; `path` None keeps them in memory only (tests, no data folder)."""

    path: Path | None = None
    keys: dict[str, str] = field(default_factory=dict)  # fingerprint -> why (name at the time)
    addresses: dict[str, str] = field(default_factory=dict)  # network -> why

    @classmethod
    def load(cls, data_dir: Path | None) -> Bans:
        if data_dir is None:
            return cls()
        path = data_dir / BANS_FILE
        bans = cls(path)
        if path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                bans.keys = {str(k): str(v) for k, v in data.get("keys", {}).items()}
                bans.addresses = {
                    str(parse_address(k)): str(v) for k, v in data.get("addresses", {}).items()
                }
            except (OSError, ValueError, AttributeError, OperatorsError) as exc:
                # Starting without the bans would let every banned client in: refuse to start.
                raise OperatorsError(f"cannot read {path}: {exc}; fix or remove it") from exc
        return bans

    def key_banned(self, fingerprint: str) -> bool:
        return fingerprint in self.keys

    def address_banned(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in ipaddress.ip_network(net) for net in self.addresses)

    def ban_key(self, fingerprint: str, note: str) -> None:
        self.keys[fingerprint] = note
        self._save()

    def ban_address(self, address: str, note: str) -> str:
        network = str(parse_address(address))
        self.addresses[network] = note
        self._save()
        return network

    def unban(self, what: str) -> str:
        """Lift a ban on a key fingerprint or an address; returns what was lifted."""
        if what in self.keys:
            del self.keys[what]
        else:
            network = str(parse_address(what))
            if network not in self.addresses:
                raise OperatorsError(f"{what} is not banned")
            del self.addresses[network]
            what = network
        self._save()
        return what

    def _save(self) -> None:
        if self.path is None:
            return
        tmp = self.path.with_suffix(".tmp")
        data = json.dumps(
            {"keys": self.keys, "addresses": self.addresses}, indent=1, sort_keys=True
        )
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(data + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
