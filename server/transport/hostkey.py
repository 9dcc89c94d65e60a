"""The server's SSH host key: generated once, kept private, reused on every start.

Reusing the key matters: players' ssh clients remember it, and a new key on every start would
teach them to ignore the "host key changed" warning that protects them.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import asyncssh

log = logging.getLogger(__name__)

KEY_NAME = "ssh_host_ed25519_key"


class HostKeyError(Exception):
    """The host key file exists but cannot be used."""


def load_or_create_host_key(keys_dir: Path) -> asyncssh.SSHKey:
    """The ed25519 host key in `keys_dir`, created (mode 0600) on first start."""
    keys_dir.mkdir(parents=True, exist_ok=True)
    path = keys_dir / KEY_NAME
    if path.exists():
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            log.warning("%s is readable by others (mode %o); tightening to 0600", path, mode)
            path.chmod(0o600)
        try:
            return asyncssh.read_private_key(str(path))
        except (asyncssh.KeyImportError, OSError, ValueError) as exc:
            raise HostKeyError(f"cannot read the host key {path}: {exc}") from exc
    key = asyncssh.generate_private_key("ssh-ed25519", comment="harena host key")
    # Written aside, then linked into place: the key appears whole or not at all, and of two
    # servers started at once on one folder the second finds the first's key and uses it.
    aside = path.with_name(f"{KEY_NAME}.{os.getpid()}.new")
    fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(key.export_private_key())
            f.flush()
            os.fsync(f.fileno())
        os.link(aside, path)
    except FileExistsError:
        log.info("another server created the host key in %s first; using it", path)
        return load_or_create_host_key(keys_dir)
    finally:
        aside.unlink(missing_ok=True)
    key.write_public_key(str(path) + ".pub")
    log.info("generated a new host key in %s", path)
    return key


def fingerprint(key: asyncssh.SSHKey) -> str:
    """SHA256 fingerprint as ssh shows it, e.g. SHA256:abc..."""
    return key.get_fingerprint("sha256")
