"""The lobby's private tables (core/privacy.py): which tables are private, their guest lists as
last seen (an invitation is news to the invited person's lobby), and who may know of each: its
players, creator and guests, and the server's operators.

Most sessions know of no private table and share the lobby's one public view; `knowers` finds,
once per change, the few that know of some.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from harena.core.table_like import TableLike

IN_PLAY = ("waiting", "playing")


class PrivateTables:
    def __init__(self, tables: dict[str, TableLike]) -> None:
        self.tables = tables  # the lobby's, every table listed
        self.ids: set[str] = set()
        self._guests: dict[str, dict[str, Any]] = {}  # table id -> its guest list, as last seen
        self.is_operator: Callable[[str], bool] = lambda identity: False  # the server says

    def note(self, table: TableLike) -> bool:
        """Track `table`'s privacy; whether it changed (made private, someone invited ...)."""
        guests = table.privacy.to_record() if table.privacy is not None else None
        if self._guests.get(table.id) == guests:
            return False
        if guests is None:
            self.forget(table.id)
        else:
            self.ids.add(table.id)
            self._guests[table.id] = guests
        return True

    def forget(self, table_id: str) -> None:
        self.ids.discard(table_id)
        self._guests.pop(table_id, None)

    def knows(self, identity: str | None, table: TableLike) -> bool:
        """Whether `identity` may know `table` exists: anyone a public one; a private one its
        players, the invited and the operators."""
        if table.privacy is None or table.knows(identity):
            return True
        return identity is not None and self.is_operator(identity)

    def known_to(
        self, identity: str | None, knowers: dict[str, list[TableLike]] | None = None
    ) -> list[TableLike]:
        """The private tables `identity` may know of (`knowers`: made once for many people)."""
        if identity is None or not self.ids:
            return []
        if self.is_operator(identity):
            return [self.tables[i] for i in sorted(self.ids)]
        return (self.knowers() if knowers is None else knowers).get(identity, [])

    def knowers(self) -> dict[str, list[TableLike]]:
        """identity -> the private tables it plays at, created or is invited to (as
        `TableLike.knows` says; the operators aside), for everyone at once."""
        found: dict[str, list[TableLike]] = {}
        for table_id in sorted(self.ids):
            table = self.tables[table_id]
            guests = table.privacy.invited if table.privacy is not None else {}
            people = {table.creator, *(seat.identity for seat in table.seats), *guests}
            for identity in people:
                if identity is not None:
                    found.setdefault(identity, []).append(table)
        return found

    def invitations(self, identity: str) -> list[TableLike]:
        """Tables in play `identity` is invited to and not seated at."""
        return [
            t
            for t in self.known_to(identity)
            if t.privacy is not None
            and identity in t.privacy.invited
            and t.seat_of(identity) is None
            and t.status in IN_PLAY
        ]

    def with_code(self, code: str) -> TableLike | None:
        """The table in play whose valid share code `code` is, or None (wrong, revoked or its
        game over: one answer for all)."""
        for table_id in sorted(self.ids):
            table = self.tables[table_id]
            if table.privacy is not None and table.status in IN_PLAY:
                if table.privacy.holds(code):
                    return table
        return None


def marked(summary: dict[str, Any], table: TableLike, identity: str | None) -> dict[str, Any]:
    """A private table's summary as `identity` sees it: marked private, and invited, or its
    creator's (who invites from the lobby)."""
    invited = (
        table.privacy is not None
        and identity in table.privacy.invited
        and table.seat_of(identity) is None
    )
    mark = {"invited": True} if invited else {"yours": True} if identity == table.creator else {}
    return summary | {"private": True} | mark
