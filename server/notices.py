"""Delivering notices to players who are away: a webhook POST or an e-mail, retried with
back-off, off the game's path.

Who is due a notice and what it says is core/notices.py; this module looks every
`check_every` seconds, records a notice as sent before delivering it (a restart never sends one
twice), and delivers in its own task: the blocking HTTP and SMTP calls run in a worker thread
with a timeout, so a slow or dead webhook or mail server never holds up the event loop, a table
or a session. A failed attempt is logged and tried again after each of `retry_delays`.
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


class NoticeRunner:
    """Looks for players due a notice and delivers them, for one lobby."""

    def __init__(
        self, lobby: Lobby, config: NoticeConfig, *, clock: Callable[[], float] = time.time
    ) -> None:
        self.lobby = lobby
        self.config = config
        self._clock = clock
        store = lobby.store
        self.ledger = NoticeLedger.from_data(store.read_document(FILE) if store else None)
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
        for task in list(self._tasks):
            task.cancel()

    async def drain(self) -> None:
        """Wait for every delivery under way (tests; a clean stop)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def check(self) -> list[Notice]:
        """Send every notice due now; returns them (each already recorded as sent)."""
        channels = self.config.channels
        if not channels:
            return []
        settings = self.lobby.settings
        identities = set(settings.identities_with("notice_webhook"))
        if "email" in channels:
            identities |= set(settings.identities_with("notice_email"))
        now = self._clock()
        notices = []
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
                online=self.lobby.sessions_of(identity) > 0,
                ledger=self.ledger,
                now=now,
            )
            if notice is None:
                continue
            self.ledger.record(notice)
            notices.append(notice)
            log.info(
                "notice to %s: %d table(s) waiting",
                identity,
                len(notice.tables),
                extra={"event": "notice", "key": identity},
            )
            if prefs.webhook:
                self._spawn("webhook", notice, partial(self._webhook, prefs.webhook, notice))
            if prefs.email:
                self._spawn("email", notice, partial(self._email, prefs.email, notice))
        self._save()
        return notices

    def _waiting(self, identity: str) -> list[WaitingTable]:
        tables = self.lobby.tables
        return [
            WaitingTable(table_id, tables[table_id].game.title, since)
            for table_id, since in self.lobby.awaiting(identity)
        ]

    def _name(self, identity: str, waiting: list[WaitingTable]) -> str:
        for table in waiting:
            seat = self.lobby.tables[table.table_id].seat_of(identity)
            if seat is not None:
                return self.lobby.tables[table.table_id].seats[seat].name
        return ""

    def _save(self) -> None:
        store = self.lobby.store
        if store is None:
            return
        try:
            store.write_document(FILE, self.ledger.to_data())
        except StoreError:
            log.exception("the notices sent could not be saved")

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
