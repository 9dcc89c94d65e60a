"""Notices for players who are away: who is due one, the caps, and what it says.

A player may ask (per key, from the lobby) to be told, by a webhook or by e-mail, that a
decision is theirs. The policy, as correspondence-chess servers settle on it:

* only while the player is not connected (the bell and the lobby's marks tell those who are);
* a table is told once per wait: once it has waited for them longer than their threshold
  (default 15 minutes), and again only after they moved there and it waits anew;
* tables that come due together go out as one digest;
* never more than the player's daily cap (default 2) in any 24 hours; a table left untold by
  the cap is told when the cap allows, if it still waits.

A notice says which table, which game and how long it has waited, and nothing else: it is built
from those public facts alone (`WaitingTable`), never from a view, so nothing hidden can leak.
Plain Python, no I/O: server/notices/delivery.py delivers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from harena.core.clocks import waited

DAY = 86400.0
DEFAULT_AFTER_MINUTES = 15
DEFAULT_DAILY = 2
MAX_DAILY = 10
MAX_AFTER_MINUTES = 7 * 24 * 60
MAX_URL = 300
MAX_EMAIL = 254
SETTINGS = {
    "notice_webhook": "",
    "notice_email": "",
    "notice_after": DEFAULT_AFTER_MINUTES,
    "notice_daily": DEFAULT_DAILY,
}
"""The player settings (core/players.py) a player's notices read, with their defaults."""


@dataclass(frozen=True)
class NoticePrefs:
    """Where and how often one player wants to be told."""

    webhook: str = ""
    email: str = ""
    after: float = DEFAULT_AFTER_MINUTES * 60.0
    """Seconds a table must have waited before it is told."""
    daily: int = DEFAULT_DAILY

    @property
    def wanted(self) -> bool:
        return bool(self.webhook or self.email)

    @classmethod
    def from_settings(cls, get: Any) -> NoticePrefs:
        """From a player's settings: `get(name)` is `PlayerSettings.get` for one identity."""
        return cls(
            webhook=str(get("notice_webhook")),
            email=str(get("notice_email")),
            after=float(get("notice_after")) * 60.0,
            daily=int(get("notice_daily")),
        )


def webhook_problem(url: str) -> str:
    """What is wrong with a webhook URL a player typed, or "" (empty: none wanted)."""
    if not url:
        return ""
    if len(url) > MAX_URL:
        return f"a webhook URL has at most {MAX_URL} characters"
    if any(not char.isprintable() or char.isspace() for char in url):
        return "a webhook URL has no spaces"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "a webhook URL starts with https:// (or http://) and a host"
    if parts.username or parts.password:
        return "put no password in the URL (use a secret token in its path, as Discord does)"
    return ""


def email_problem(address: str) -> str:
    """What is wrong with an e-mail address a player typed, or "" (empty: none wanted)."""
    if not address:
        return ""
    if len(address) > MAX_EMAIL:
        return f"an e-mail address has at most {MAX_EMAIL} characters"
    local, at, domain = address.rpartition("@")
    if not at or not local or "." not in domain.strip("."):
        return "an e-mail address looks like name@example.org"
    if any(not char.isprintable() or char.isspace() or char in "<>,;\"'" for char in address):
        return "an e-mail address has no spaces, quotes, <, >, commas or semicolons"
    return ""


@dataclass(frozen=True)
class WaitingTable:
    """The public facts a notice may tell about a table waiting for the player."""

    table_id: str
    title: str
    """The game's title (`Carthage`)."""
    since: float
    """When it began waiting for the player (epoch seconds), on the clock of the process that
    runs the table: it names the wait alike on every node (the ledger keys waits by it)."""
    shift: float = 0.0
    """How far that process's clock is ahead of the sender's (a cluster node elsewhere)."""
    invited: bool = False
    """Not a wait but an invitation to a private table (core/privacy.py): `since` is when."""

    @property
    def began(self) -> float:
        """`since` on the sender's clock: how long the wait has been is judged and told by it."""
        return self.since - self.shift


@dataclass(frozen=True)
class Notice:
    """One notice to one player: the tables it tells (a digest when more than one)."""

    identity: str
    name: str
    tables: tuple[WaitingTable, ...]
    at: float

    def subject(self) -> str:
        if len(self.tables) == 1 and self.tables[0].invited:
            return f"harena: you are invited to table #{self.tables[0].table_id}"
        if len(self.tables) == 1:
            return f"harena: table #{self.tables[0].table_id} is waiting for you"
        return f"harena: {len(self.tables)} tables are waiting for you"

    def lines(self, connect: str = "") -> list[str]:
        """The text: one line per table, and how to get there (`connect`: `ssh -t -p 2222
        games.example.org`, as the operator wrote it; empty: not said)."""
        out = [
            f"You are invited to table #{t.table_id} ({t.title}), a private table."
            if t.invited
            else f"Table #{t.table_id} ({t.title}) has waited {_wait(self.at - t.began)} "
            f"for your decision."
            for t in self.tables
        ]
        if connect:
            out.append(f"Play: {connect} table {self.tables[0].table_id}")
        return out

    def payload(self, server: str, connect: str = "") -> dict[str, Any]:
        """The webhook's JSON body (docs/server.md): the text under the names ntfy, Discord,
        Slack and Matrix bridges read, and the tables as data."""
        text = "\n".join(self.lines(connect))
        return {
            "event": "your-move",
            "server": server,
            "player": self.name,
            "title": self.subject(),
            "text": text,  # Slack, Mattermost, Matrix hookshot
            "content": f"**{self.subject()}**\n{text}",  # Discord
            "message": text,  # ntfy (JSON published to its root URL, with "topic")
            "tables": [
                {
                    "id": t.table_id,
                    "game": t.title,
                    "waiting_since": round(t.began),
                    "waited_seconds": max(0, round(self.at - t.began)),
                    **({"connect": f"{connect} table {t.table_id}"} if connect else {}),
                    **({"invited": True} if t.invited else {}),
                }
                for t in self.tables
            ],
            "sent_at": round(self.at),
        }


def _wait(seconds: float) -> str:
    """`12 min`, `5 h`, `3 days`: how long, for a sentence."""
    text = waited(seconds)
    if text == "now":
        return "a moment"
    return f"{text[:-1]} {_UNITS[text[-1]]}"


_UNITS = {"m": "min", "h": "h", "d": "days"}


@dataclass
class NoticeLedger:
    """What was sent: kept across restarts so a restart sends nothing twice."""

    sent: dict[str, list[float]] = field(default_factory=dict)
    """identity -> when its notices went out in the last day."""
    told: dict[str, dict[str, float]] = field(default_factory=dict)
    """identity -> table id -> the wait (its `since`) already told."""

    def record(self, notice: Notice) -> None:
        self.sent.setdefault(notice.identity, []).append(notice.at)
        told = self.told.setdefault(notice.identity, {})
        for table in notice.tables:
            told[table.table_id] = table.since

    def sent_today(self, identity: str, now: float) -> int:
        recent = [at for at in self.sent.get(identity, []) if now - at < DAY]
        if recent:
            self.sent[identity] = recent
        else:
            self.sent.pop(identity, None)
        return len(recent)

    def forget_ended(self, identity: str, waiting: list[WaitingTable]) -> None:
        """Forget the waits that are over: a table told that waits no more may be told again
        when it waits anew."""
        now = {t.table_id: t.since for t in waiting}
        told = self.told.get(identity, {})
        for table_id in [t for t, since in told.items() if now.get(t) != since]:
            del told[table_id]
        if not told:
            self.told.pop(identity, None)

    def merge(self, other: NoticeLedger, renamed: dict[str, str] | None = None) -> None:
        """Take in what `other` recorded too (a single server's ledger moved into a cluster's,
        its tables renumbered by `renamed`, old id -> new); where both told one table of one
        player, this ledger's record stands."""
        renamed = renamed or {}
        for identity, ats in other.sent.items():
            self.sent[identity] = sorted({*self.sent.get(identity, []), *ats})
        for identity, tables in other.told.items():
            moved = {renamed.get(table_id, table_id): since for table_id, since in tables.items()}
            self.told[identity] = moved | self.told.get(identity, {})

    def to_data(self) -> dict[str, Any]:
        return {"sent": self.sent, "told": self.told}

    @classmethod
    def from_data(cls, data: Any) -> NoticeLedger:
        if not isinstance(data, dict):
            return cls()
        sent = {
            str(i): [float(at) for at in ats]
            for i, ats in dict(data.get("sent", {})).items()
            if isinstance(ats, list)
        }
        told = {
            str(i): {str(t): float(since) for t, since in dict(tables).items()}
            for i, tables in dict(data.get("told", {})).items()
            if isinstance(tables, dict)
        }
        return cls(sent, told)


def due_notice(
    *,
    identity: str,
    name: str,
    prefs: NoticePrefs,
    waiting: list[WaitingTable],
    online: bool,
    ledger: NoticeLedger,
    now: float,
) -> Notice | None:
    """The notice `identity` is due now, or None (connected, nothing new waited long enough,
    or the daily cap reached). The caller records a notice it sends (`ledger.record`)."""
    ledger.forget_ended(identity, waiting)
    if online or not prefs.wanted:
        return None
    told = ledger.told.get(identity, {})
    fresh = tuple(
        t
        for t in sorted(waiting, key=lambda t: (t.began, t.table_id))
        if now - t.began >= prefs.after and told.get(t.table_id) != t.since
    )
    if not fresh or ledger.sent_today(identity, now) >= prefs.daily:
        return None
    return Notice(identity, name, fresh, now)
