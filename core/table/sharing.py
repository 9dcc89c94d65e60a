"""An invite-only table's guest list: inviting by name, share codes, and who may sit or watch
(core/privacy.py holds the rules). Each change is a `privacy` record holding the whole new guest
list, so the log alone rebuilds it; functions over a `Table`, whose methods call them."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from harena.core.engine import IllegalAction
from harena.core.privacy import MAX_CODES, MAX_INVITED, Privacy, may_know, may_watch, new_code
from harena.core.table.seats import clean_text

if TYPE_CHECKING:
    from harena.core.table.front import Table

log = logging.getLogger(__name__)


def knows(table: Table, identity: str | None) -> bool:
    """Whether `identity` may know this table exists (operators aside: the lobby adds them)."""
    return may_know(table.privacy, table.creator, table.seat_of(identity) is not None, identity)


def watches(table: Table, identity: str | None) -> bool:
    return may_watch(table.privacy, table.creator, table.seat_of(identity) is not None, identity)


def unknown(table: Table) -> IllegalAction:
    """What someone who may not know the table is told: what a missing table answers."""
    return IllegalAction(f"there is no table {table.id}")


def _guest_list(table: Table, by: str) -> Privacy:
    """A copy of the guest list to change, if `by` (its creator) may change it."""
    if table.privacy is None:
        raise IllegalAction("this table is open to everyone: nobody needs an invitation")
    if by != table.creator:
        raise IllegalAction("only the table's creator invites people to it")
    if table.status not in ("waiting", "playing"):
        raise IllegalAction("this game is over")
    return table.privacy.copy()


def _save(table: Table, privacy: Privacy) -> None:
    table._record({"t": "privacy", "privacy": privacy.to_record()})
    table._notify()


def invite(table: Table, by: str, identity: str, name: str) -> None:
    """The creator invites `identity` (known by `name`): they see the table, sit and watch."""
    privacy = _guest_list(table, by)
    if identity == table.creator or identity in privacy.invited:
        return
    if len(privacy.invited) >= MAX_INVITED:
        raise IllegalAction(f"a table invites at most {MAX_INVITED} people")
    privacy.invited[identity] = clean_text(name, 32)
    privacy.invited_at[identity] = table._clock()
    _save(table, privacy)
    log.info(
        "table %s: %s invited",
        table.id,
        identity,
        extra={"event": "table-invite", "table": table.id, "key": identity},
    )


def add_code(table: Table, by: str) -> str:
    """A new share code for the creator to send; the oldest revoked codes make room."""
    privacy = _guest_list(table, by)
    code = new_code()
    privacy.codes[code] = True
    while len(privacy.codes) > MAX_CODES:
        old = next((c for c, valid in privacy.codes.items() if not valid), None)
        privacy.codes.pop(old if old is not None else next(iter(privacy.codes)))
    _save(table, privacy)
    return code


def revoke_codes(table: Table, by: str) -> int:
    """Every code of the table stops working; returns how many did."""
    privacy = _guest_list(table, by)
    live = privacy.live_codes
    if live:
        privacy.codes = dict.fromkeys(privacy.codes, False)
        _save(table, privacy)
    return len(live)


def join_by_code(table: Table, identity: str, name: str, code: str) -> int | None:
    """The holder of a valid `code` is invited and takes a free seat (None: none was free).
    A wrong, revoked or expired code raises what a missing table's code would."""
    privacy = table.privacy
    if privacy is None or table.status not in ("waiting", "playing") or not privacy.holds(code):
        raise IllegalAction("that code opens no table")
    if identity != table.creator and identity not in privacy.invited:
        changed = privacy.copy()
        changed.invited[identity] = clean_text(name, 32)
        changed.invited_at[identity] = table._clock()
        _save(table, changed)
    if table.seat_of(identity) is not None:
        return table.seat_of(identity)
    if not any(s.free for s in table.seats):
        return None
    return table.sit(identity, name)
