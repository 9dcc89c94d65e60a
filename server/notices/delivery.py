"""Delivering notices to players who are away: a webhook POST or an e-mail, retried with
back-off, off the game's path.

Who is due a notice and what it says is core/notices.py; this module looks every
`check_every` seconds, records a notice as sent before delivering it (a restart never sends one
twice), and delivers in its own task: the blocking HTTP and SMTP calls run in a worker thread
with a timeout, so a slow or dead webhook or mail server never holds up the event loop, a table
or a session. A failed attempt is logged and tried again after each of `retry_delays`.

Where the ledger of what was sent lives, who counts as connected and whether this process is
the one that sends are a `NoticeBook`'s: `StoreBook` for one server (its data folder, its own
sessions); server/cluster/notices.py for a cluster (one sender under a lease, the ledger in
KV written by compare-and-set, presence on every node).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import smtplib
import socket
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from functools import partial
from typing import Protocol
from urllib.parse import urlsplit, urlunsplit

from harena.core.lobby import Lobby
from harena.core.notices import Notice, NoticeLedger, NoticePrefs, WaitingTable, due_notice
from harena.core.store import StoreError

log = logging.getLogger(__name__)

FILE = "notices.json"


@dataclass(frozen=True)
class NoticeConfig:
    """The operator's settings (`harena serve --smtp-host ...`, `--no-notices`)."""

    enabled: bool = True
    smtp_host: str = ""
    """Empty: no e-mail, webhooks only."""
    smtp_port: int = 25
    smtp_from: str = "harena@localhost"
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_starttls: bool = False
    connect: str = ""
    """How players reach this server (`ssh -t -p 2222 games.example.org`): notices say it."""
    server_name: str = "harena"
    check_every: float = 60.0
    retry_delays: tuple[float, ...] = (30.0, 120.0, 600.0, 3600.0)
    """Waits before each new attempt after a failure (5 attempts in all by default)."""
    timeout: float = 10.0
    """Seconds one HTTP or SMTP attempt may take."""
    private_addresses: bool = False
    """Whether a webhook may point at a loopback, private or link-local address (off: a player
    cannot make the server POST into its own network)."""

    @property
    def channels(self) -> tuple[str, ...]:
        """What players may register: ("webhook", "email"), less what is off."""
        if not self.enabled:
            return ()
        return ("webhook", "email") if self.smtp_host else ("webhook",)


class DeliveryError(Exception):
    pass


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A webhook is POSTed where the player said, never redirected elsewhere."""

    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def post_webhook(url: str, body: dict[str, object], timeout: float, private_ok: bool) -> int:
    """POST `body` as JSON to `url` (blocking: run it in a thread); the HTTP status, or
    DeliveryError. A `#topic` fragment (never sent) becomes the body's `topic`, as ntfy's JSON
    publishing wants at its root URL."""
    parts = urlsplit(url)
    if parts.fragment:
        body = {**body, "topic": parts.fragment}
    if not private_ok:
        _check_public(parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80))
    request = urllib.request.Request(
        urlunsplit(parts._replace(fragment="")),
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "User-Agent": "harena-notices"},
        method="POST",
    )
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=timeout) as response:
            status = int(response.status)
    except OSError as exc:  # URLError, HTTPError, timeouts
        raise DeliveryError(str(exc)) from exc
    if not 200 <= status < 300:
        raise DeliveryError(f"HTTP {status}")
    return status


def _check_public(host: str, port: int) -> None:
    try:
        found = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except OSError as exc:
        raise DeliveryError(f"cannot resolve {host}: {exc}") from exc
    for *_, address in found:
        ip = ipaddress.ip_address(address[0])
        if not ip.is_global:
            raise DeliveryError(f"{host} is a private address ({ip}): not allowed here")


def send_mail(config: NoticeConfig, to: str, subject: str, text: str) -> None:
    """Send one e-mail through the operator's SMTP server (blocking: run it in a thread)."""
    message = EmailMessage()
    message["From"] = config.smtp_from
    message["To"] = to
    message["Subject"] = subject
    message.set_content(text)
    try:
        with smtplib.SMTP(config.smtp_host, config.smtp_port, timeout=config.timeout) as smtp:
            if config.smtp_starttls:
                smtp.starttls()
            if config.smtp_user:
                smtp.login(config.smtp_user, config.smtp_password)
            smtp.send_message(message)
    except (OSError, smtplib.SMTPException) as exc:
        raise DeliveryError(str(exc)) from exc


class NoticeBook(Protocol):
    """Where a runner keeps its ledger, whom it counts as connected, and whether it sends."""

    def start(self) -> None:
        """Begin (a cluster's book claims the sender's lease, on the running loop)."""

    def close(self) -> None:
        """Stop (a cluster's book hands the sender's lease on at once)."""

    def sending(self) -> bool:
        """Whether this process sends the notices now (in a cluster, one node at a time)."""

    def online(self) -> set[str] | None:
        """The identities with a session open anywhere; None when that cannot be known now
        (then nobody is told: a player connected elsewhere must never be)."""

    def load(self) -> NoticeLedger:
        """The ledger as it is now (in a cluster, read fresh: another node may have sent)."""

    def save(self, ledger: NoticeLedger) -> bool:
        """Record `ledger` before its new notices go out; False if another sender wrote since
        `load` (then this one sends none of them: the other may have)."""


class StoreBook:
    """One server: the ledger in its store's `notices.json`, its own sessions, always the
    sender."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        store = lobby.store
        self.ledger = NoticeLedger.from_data(store.read_document(FILE) if store else None)

    def start(self) -> None:
        pass

    def close(self) -> None:
        pass

    def sending(self) -> bool:
        return True

    def online(self) -> set[str]:
        return set(self.lobby.online_here())

    def load(self) -> NoticeLedger:
        return self.ledger

    def save(self, ledger: NoticeLedger) -> bool:
        self.ledger = ledger
        store = self.lobby.store
        if store is not None:
            try:
                store.write_document(FILE, ledger.to_data())
            except StoreError:  # sent anyway: a full disk must not silence every notice
                log.exception("the notices sent could not be saved")
        return True


class NoticeRunner:
    """Looks for players due a notice and delivers them, for one lobby."""

    def __init__(
        self,
        lobby: Lobby,
        config: NoticeConfig,
        *,
        clock: Callable[[], float] = time.time,
        book: NoticeBook | None = None,
    ) -> None:
        self.lobby = lobby
        self.config = config
        self._clock = clock
        self.book: NoticeBook = book if book is not None else StoreBook(lobby)
        self.ledger = NoticeLedger()
        """The ledger as the last check read it."""
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.delivered: list[tuple[str, Notice]] = []
        """(channel, notice) of every delivery that succeeded, this run."""
        self.failed: list[tuple[str, Notice]] = []
        """(channel, notice) of every delivery given up after its last attempt, this run."""

    @property
    def running(self) -> bool:
        """Whether it looks for notices due (the operator left notices on)."""
        return self._timer is not None

    def start(self) -> None:
        if self.config.channels:
            self.book.start()
            self._schedule()

    def _schedule(self) -> None:
        self._timer = asyncio.get_running_loop().call_later(self.config.check_every, self._tick)

    def _tick(self) -> None:
        try:
            self.check()
        except Exception:
            log.exception("checking for notices failed; trying again later")
        self._schedule()

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
            self.book.close()
        for task in list(self._tasks):
            task.cancel()

    async def drain(self) -> None:
        """Wait for every delivery under way (tests; a clean stop)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def check(self) -> list[Notice]:
        """Send every notice due now; returns them (each already recorded as sent)."""
        channels = self.config.channels
        if not channels or not self.book.sending():
            return []
        online = self.book.online()
        if online is None:
            log.info("who is connected cannot be told now: no notices this time")
            return []
        settings = self.lobby.settings
        identities = set(settings.identities_with("notice_webhook"))
        if "email" in channels:
            identities |= set(settings.identities_with("notice_email"))
        self.ledger = ledger = self.book.load()
        before = _as_text(ledger)
        now = self._clock()
        due: list[tuple[Notice, NoticePrefs]] = []
        for identity in sorted(identities):
            prefs = NoticePrefs.from_settings(partial(settings.get, identity))
            if "email" not in channels:
                prefs = NoticePrefs(prefs.webhook, "", prefs.after, prefs.daily)
            waiting = self._waiting(identity)
            notice = due_notice(
                identity=identity,
                name=self._name(identity, waiting),
                prefs=prefs,
                waiting=waiting,
                online=identity in online,
                ledger=ledger,
                now=now,
            )
            if notice is not None:
                ledger.record(notice)
                due.append((notice, prefs))
        if _as_text(ledger) != before and not self.book.save(ledger):
            log.warning("another node recorded notices meanwhile: none sent from here this time")
            return []
        for notice, prefs in due:
            log.info(
                "notice to %s: %d table(s) waiting",
                notice.identity,
                len(notice.tables),
                extra={"event": "notice", "key": notice.identity},
            )
            if prefs.webhook:
                self._spawn("webhook", notice, partial(self._webhook, prefs.webhook, notice))
            if prefs.email:
                self._spawn("email", notice, partial(self._email, prefs.email, notice))
        return [notice for notice, _ in due]

    def _waiting(self, identity: str) -> list[WaitingTable]:
        """Every table waiting for `identity`; in a cluster also those other nodes run (the
        lobby lists them, with their titles, from the registry, and the offset of their
        owner's clock from ours)."""
        tables = self.lobby.tables
        return [
            WaitingTable(
                table_id,
                str(tables[table_id].summary()["title"]),
                since,
                tables[table_id].clock_shift,
            )
            for table_id, since in self.lobby.awaiting(identity)
        ] + [
            WaitingTable(
                table.id,
                str(table.summary()["title"]),
                table.privacy.invited_at.get(identity, table.touched),
                table.clock_shift,
                invited=True,
            )
            for table in self.lobby.invitations(identity)
            if table.privacy is not None
        ]

    def _name(self, identity: str, waiting: list[WaitingTable]) -> str:
        for table in waiting:
            seat = self.lobby.tables[table.table_id].seat_of(identity)
            if seat is not None:
                return self.lobby.tables[table.table_id].seats[seat].name
            privacy = self.lobby.tables[table.table_id].privacy
            if privacy is not None and identity in privacy.invited:
                return privacy.invited[identity]
        return ""

    def _webhook(self, url: str, notice: Notice) -> None:
        payload = notice.payload(self.config.server_name, self.config.connect)
        post_webhook(url, payload, self.config.timeout, self.config.private_addresses)

    def _email(self, address: str, notice: Notice) -> None:
        text = "\n".join(notice.lines(self.config.connect))
        footer = "\n\nYou get this because you asked for notices in harena's lobby (key a)."
        send_mail(self.config, address, notice.subject(), text + footer)

    def _spawn(self, channel: str, notice: Notice, send: Callable[[], None]) -> None:
        task = asyncio.get_running_loop().create_task(self._deliver(channel, notice, send))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _deliver(self, channel: str, notice: Notice, send: Callable[[], None]) -> None:
        delays = self.config.retry_delays
        for attempt in range(1, len(delays) + 2):
            try:
                await asyncio.to_thread(send)
            except Exception as exc:
                if attempt > len(delays):
                    log.error(
                        "notice to %s by %s failed %d times, given up: %s",
                        notice.identity,
                        channel,
                        attempt,
                        exc,
                        extra={"event": "notice-failed", "key": notice.identity},
                    )
                    self.failed.append((channel, notice))
                    return
                delay = delays[attempt - 1]
                log.warning(
                    "notice to %s by %s failed (attempt %d): %s; again in %gs",
                    notice.identity,
                    channel,
                    attempt,
                    exc,
                    delay,
                )
                await asyncio.sleep(delay)
            else:
                self.delivered.append((channel, notice))
                return


def _as_text(ledger: NoticeLedger) -> str:
    """The ledger as it would be saved: the same text, nothing to save."""
    return json.dumps(ledger.to_data(), sort_keys=True)
