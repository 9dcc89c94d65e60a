"""Private tables: who may know one exists, sit at it and watch it; invitations and share codes.

A table is public (its `privacy` is None) or invite-only. An invite-only table is known only to
its players, the people invited (by name, or by holding a share code) and the server's
operators: to everyone else it does not exist, and every answer they get is the one a missing
table gets. Spectating is the creator's choice: the invited may watch, or nobody.

Its privacy is saved with the table (in its create record, then a `privacy` record at each
change: core/table/records.py), so it survives a restart and a recovery.

Ids (a ruling, docs/server.md): a public table takes the next number (`table 12`); a private
one takes a random id of its own (`p` and 7 letters or digits, `#pk3m9x2q`) and no number, so
nobody can infer a private table from a number missing in the lobby's list.

Share codes: 80 bits from `secrets`, written `abcd-efgh-ijkm-npqr` (the dashes and case do not
matter). A code seats whoever holds it; it stops working when revoked or when the game ends.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

WATCHERS = ("invited", "nobody")
"""Who may watch a private table: its invited people (and players), or nobody but its players."""

PRIVATE_ID_PREFIX = "p"
_ID_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read aloud, typed by hand
_ID_LENGTH = 7
_CODE_BYTES = 10  # 80 bits
_CODE_LETTERS = "abcdefghijklmnopqrstuvwxyz234567"  # base32, lower case
MAX_CODES = 8  # codes a table keeps, revoked ones included (the oldest revoked go first)
MAX_INVITED = 64


@dataclass
class Privacy:
    """An invite-only table's guest list and share codes."""

    watchers: str = "invited"  # one of WATCHERS
    invited: dict[str, str] = field(default_factory=dict)  # identity -> name when invited
    codes: dict[str, bool] = field(default_factory=dict)  # share code -> still valid
    invited_at: dict[str, float] = field(default_factory=dict)  # identity -> when (a notice's)

    def to_record(self) -> dict[str, Any]:
        return {
            "watchers": self.watchers,
            "invited": dict(self.invited),
            "codes": dict(self.codes),
            "at": dict(self.invited_at),
        }

    @classmethod
    def from_record(cls, data: Any) -> Privacy | None:
        """From a saved record; None (a public table) for anything not shaped as one."""
        if not isinstance(data, dict):
            return None
        watchers = data.get("watchers")
        invited = data.get("invited", {})
        codes = data.get("codes", {})
        at = data.get("at", {})
        if watchers not in WATCHERS or not all(isinstance(d, dict) for d in (invited, codes, at)):
            raise ValueError("a malformed privacy record")
        return cls(
            str(watchers),
            {str(i): str(n) for i, n in invited.items()},
            {str(c): bool(v) for c, v in codes.items()},
            {str(i): float(t) for i, t in at.items()},
        )

    def copy(self) -> Privacy:
        return Privacy(self.watchers, dict(self.invited), dict(self.codes), dict(self.invited_at))

    @property
    def live_codes(self) -> list[str]:
        return [code for code, valid in self.codes.items() if valid]

    def holds(self, code: str) -> bool:
        """Whether `code` (as typed) is a valid code of this table; compared in constant time."""
        typed = normal_code(code)
        found = False
        for known in self.live_codes:
            found |= hmac.compare_digest(typed.encode(), normal_code(known).encode())
        return found


def new_code() -> str:
    """A fresh share code: 80 random bits as 16 base32 letters, in groups of four."""
    value = int.from_bytes(secrets.token_bytes(_CODE_BYTES), "big")
    letters = "".join(_CODE_LETTERS[(value >> (5 * k)) & 31] for k in range(16))
    return "-".join(letters[k : k + 4] for k in range(0, 16, 4))


def normal_code(code: str) -> str:
    """A code as compared: lower case, without dashes."""
    return code.replace("-", "").lower()


def looks_like_code(text: str) -> bool:
    """Whether `text` is shaped as a share code (the parser's check, not a lookup)."""
    plain = normal_code(text)
    return len(plain) == 16 and all(c in _CODE_LETTERS for c in plain)


def new_private_id(taken: Callable[[str], bool]) -> str:
    """A private table's id: random, never a number (see the module's docstring)."""
    while True:
        table_id = PRIVATE_ID_PREFIX + "".join(
            secrets.choice(_ID_LETTERS) for _ in range(_ID_LENGTH)
        )
        if not taken(table_id):
            return table_id


def is_private_id(table_id: str) -> bool:
    return table_id.startswith(PRIVATE_ID_PREFIX) and len(table_id) == 1 + _ID_LENGTH


def invited_here(privacy: Privacy | None, creator: str | None, identity: str | None) -> bool:
    """Whether `identity` is on the guest list (the creator always is)."""
    if privacy is None or identity is None:
        return False
    return identity == creator or identity in privacy.invited


def may_know(
    privacy: Privacy | None, creator: str | None, seated: bool, identity: str | None
) -> bool:
    """Whether `identity` may know the table exists (operators: the lobby adds them)."""
    return privacy is None or seated or invited_here(privacy, creator, identity)


def may_watch(
    privacy: Privacy | None, creator: str | None, seated: bool, identity: str | None
) -> bool:
    """Whether `identity` may watch: anyone at a public table; at a private one its players,
    and the invited unless the creator chose that nobody watches."""
    if privacy is None or seated:
        return True
    return privacy.watchers == "invited" and invited_here(privacy, creator, identity)
