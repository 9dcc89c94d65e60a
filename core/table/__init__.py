"""A table, in the parts that change together: the front that screens, the lobby and the server
use (front.py); a seat and a chat line (seats.py); its records (records.py: create, load,
rebuild, apply, snapshot); who sits where (seating.py); play (play.py); its held reaction
windows (held.py); its clocks and stand-ins (clocks.py); its bots (bots.py); what it shows
(views.py). What users may ask of any table, wherever it runs, is `TableLike`
(core/table_like.py)."""

from harena.core.table.front import Subscription, Table
from harena.core.table.play import STALE_LIST, NotYourTurn
from harena.core.table.records import SNAPSHOT_EVERY, load_tables
from harena.core.table.seats import (
    CHAT_KEPT,
    CHAT_MAX_CHARS,
    CHAT_SHOWN,
    ChatLine,
    Seat,
    clean_text,
    seat_index,
    seat_names,
)
from harena.core.table_like import Subscriber

__all__ = [
    "CHAT_KEPT",
    "CHAT_MAX_CHARS",
    "CHAT_SHOWN",
    "SNAPSHOT_EVERY",
    "STALE_LIST",
    "ChatLine",
    "NotYourTurn",
    "Seat",
    "Subscriber",
    "Subscription",
    "Table",
    "clean_text",
    "load_tables",
    "seat_index",
    "seat_names",
]
