"""Log lines an operator can use: text for a terminal or journald, JSON for log collectors.

Lines about a connection carry `extra={"address": ..., "key": ...}` (and `table`, `event` where
they apply); the text format already says them in the message, the JSON format adds them as
fields, so a collector can filter by key fingerprint or address without parsing sentences.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from harena.server.common.log_safe import SafeFormatter

FIELDS = ("event", "address", "key", "player", "table", "session", "node")
"""The extra fields a log call may carry (the only ones the JSON format copies)."""

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
NODE_TEXT_FORMAT = "%(asctime)s [%(node)s] %(levelname)s %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, the extras."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in FIELDS:
            value = record.__dict__.get(name)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


class StderrHandler(logging.StreamHandler[TextIO]):
    """Writes to whatever sys.stderr is at the time (a test's capture, a redirected stream)."""

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, _value: object) -> None:
        pass


def configure_logging(verbose: bool, log_format: str) -> None:
    """Set (or reset) harena's handler on the root logger, in the chosen format. Where someone
    else set up logging already (pytest, an embedding program), only the levels are set."""
    root = logging.getLogger()
    ours = [h for h in root.handlers if isinstance(h, StderrHandler)]
    if ours or not root.handlers:
        for old in ours:
            root.removeHandler(old)
        handler = StderrHandler()
        # Text lines carry no control character a client sent (a TERM with ESC or newlines);
        # JSON escapes them by its own rules.
        handler.setFormatter(
            JsonFormatter() if log_format == "json" else SafeFormatter(TEXT_FORMAT)
        )
        root.addHandler(handler)
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    if not verbose:
        logging.getLogger("asyncssh").setLevel(logging.WARNING)  # it logs every channel request


class _NodeName(logging.Filter):
    def __init__(self, node: str) -> None:
        super().__init__()
        self.node = node

    def filter(self, record: logging.LogRecord) -> bool:
        record.node = self.node
        return True


def name_node(node: str) -> None:
    """In a cluster every line of ours names the node that wrote it (text: `[node]`, JSON: a
    `node` field)."""
    for handler in logging.getLogger().handlers:
        if isinstance(handler, StderrHandler):
            handler.addFilter(_NodeName(node))
            if isinstance(handler.formatter, SafeFormatter):
                handler.setFormatter(SafeFormatter(NODE_TEXT_FORMAT))


TERMINAL_LOG = Path("logs") / "terminal.log"
"""Where `harena play` and `harena replay` log, under the data folder, while their screen owns
the terminal."""


@contextmanager
def logging_to_file(path: Path) -> Iterator[Path]:
    """While a full-screen app owns this terminal, log lines go to `path` (appended, private),
    not over the screen; harena's stderr handler comes back afterwards. A folder that cannot be
    written to loses the lines, never the game."""
    root = logging.getLogger()
    ours = [h for h in root.handlers if isinstance(h, StderrHandler)]
    handler: logging.Handler
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        handler = logging.StreamHandler(open(fd, "a", encoding="utf-8"))
        handler.setFormatter(SafeFormatter(TEXT_FORMAT))
    except OSError:
        handler = logging.NullHandler()
    for old in ours:
        root.removeHandler(old)
    root.addHandler(handler)
    try:
        yield path
    finally:
        root.removeHandler(handler)
        handler.close()
        for old in ours:
            root.addHandler(old)
