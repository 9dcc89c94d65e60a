"""Real local servers for the notice tests: an HTTP server taking webhook POSTs and an SMTP
server (aiosmtpd) taking mail, both on 127.0.0.1 and a free port, each in its own thread."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from aiosmtpd.controller import Controller


@dataclass
class WebhookServer:
    """Records every POST; answers `statuses` in turn (then 200); holds each answer while
    `hold` is clear."""

    port: int = 0
    posts: list[dict[str, Any]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    attempts: int = 0
    statuses: list[int] = field(default_factory=list)
    hold: threading.Event = field(default_factory=threading.Event)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook/secret"


@contextmanager
def webhook_server() -> Iterator[WebhookServer]:
    hook = WebhookServer()
    hook.hold.set()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            hook.attempts += 1
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            hook.hold.wait(10)
            status = hook.statuses.pop(0) if hook.statuses else 200
            if status == 200:
                hook.posts.append(json.loads(body))
                hook.paths.append(self.path)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    hook.port = httpd.server_address[1]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield hook
    finally:
        hook.hold.set()
        httpd.shutdown()
        httpd.server_close()


class _Mailbox:
    def __init__(self) -> None:
        self.messages: list[tuple[list[str], Message]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append((list(envelope.rcpt_tos), message_from_bytes(envelope.content)))
        return "250 OK"


@contextmanager
def smtp_server() -> Iterator[tuple[int, _Mailbox]]:
    """(port, mailbox): mail sent there lands in `mailbox.messages` as (recipients, message)."""
    mailbox = _Mailbox()
    with socket.socket() as probe:  # aiosmtpd checks its port by connecting: 0 will not do
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield port, mailbox
    finally:
        controller.stop()
