"""Per-player settings, kept per key across restarts (guests' live as long as their session).

`name`: the one name a key shows everywhere, on every node of a cluster (this document is
shared): the SSH user name it first connected with, until `ssh host rename NAME` (so `root@`
and `ann@` with one key are both "ann"); no two keys hold one name. `bell`: whether a decision
that becomes yours rings the terminal bell; `notice_*`: where and how often to be told of one
while you are away (core/notices.py); `auto_pass`: whether every reaction window that asks you
is answered "Let it be" for you at once (core/windows.py; you may still change the answer while
it is open).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from harena.core.notices import SETTINGS as NOTICE_SETTINGS
from harena.core.store import Store, StoreError
from harena.core.table import clean_text

log = logging.getLogger(__name__)

FILE = "players.json"
DEFAULTS: dict[str, Any] = {"name": "", "bell": True, "auto_pass": False, **NOTICE_SETTINGS}
MAX_NAME = 32


class NameRefused(ValueError):
    """A name a key may not take; the text says why."""


class PlayerSettings:
    def __init__(self, store: Store | None = None) -> None:
        self._store = store
        data = store.read_document(FILE) if store is not None else None
        self._saved: dict[str, dict[str, Any]] = data if isinstance(data, dict) else {}
        self._session: dict[str, dict[str, Any]] = {}  # guests: never written

    def replace(self, data: Any) -> None:
        """The settings as another server of a cluster saved them."""
        if isinstance(data, dict):
            self._saved = data

    def get(self, identity: str, name: str) -> Any:
        for kept in (self._session, self._saved):
            if name in kept.get(identity, {}):
                return kept[identity][name]
        return DEFAULTS[name]

    def identities_with(self, name: str) -> list[str]:
        """The keys whose `name` is set to something other than its default."""
        return sorted(
            {
                identity
                for kept in (self._saved, self._session)
                for identity in kept
                if self.get(identity, name) != DEFAULTS[name]
            }
        )

    def set(self, identity: str, name: str, value: Any, *, persist: bool = True) -> None:
        """Change a setting; `persist=False` (a guest) keeps it for this server run only. A
        failed save is logged and the setting still holds until the server stops."""
        if name not in DEFAULTS:
            raise KeyError(name)
        if not persist or self._store is None:
            self._session.setdefault(identity, {})[name] = value
            return
        self._saved.setdefault(identity, {})[name] = value

        def change(fresh: Any) -> dict[str, dict[str, Any]]:
            # Only this one setting, applied to the document as saved now: another server of a
            # cluster may have changed other settings since this one read it.
            data = fresh if isinstance(fresh, dict) else self._saved  # (none yet, or damaged)
            data.setdefault(identity, {})[name] = value
            return data

        try:
            self._saved = self._store.update_document(FILE, change)
        except StoreError:
            log.exception("player settings not saved")

    # -- the key's name -----------------------------------------------------------------------

    def name_for(self, identity: str, wanted: str, *, others: Iterable[str] = (),
                 persist: bool = True) -> str:  # fmt: skip
        """The name `identity` shows: the one it holds, else `wanted` (made printable and
        short; `~2`, `~3`... when another key holds it or `others` shows it), which it then
        holds. A guest (`persist=False`) holds nothing: its name lasts its session."""
        held = self.get(identity, "name") if persist else ""
        if held:
            return str(held)
        base = clean_text(wanted, MAX_NAME) or "player"
        if not persist:
            return _free(base, self._held_by_others(identity, self._saved) | _folded(others))

        def pick(data: dict[str, dict[str, Any]]) -> str:
            # the document as saved now: another node may have named this key since
            kept = data.get(identity)
            if isinstance(kept, dict) and kept.get("name"):
                return str(kept["name"])
            return _free(base, self._held_by_others(identity, data) | _folded(others))

        return self._hold(identity, pick)

    def rename(self, identity: str, wanted: str, *, others: Iterable[str] = ()) -> str:
        """Hold `wanted` from now on; NameRefused if it is empty, unprintable or another key's
        (or shown by someone online: `others`)."""
        name = clean_text(wanted, MAX_NAME)
        if not name or name != wanted.strip():
            raise NameRefused(f"a name is 1 to {MAX_NAME} printable characters")

        def checked(data: dict[str, dict[str, Any]]) -> str:
            if name.casefold() in self._held_by_others(identity, data) | _folded(others):
                raise NameRefused(f"another player is called {name}")
            return name

        return self._hold(identity, checked)

    def _hold(self, identity: str, pick: Any) -> str:
        """Save the name `pick(document)` chooses, on the document as saved now (another node of
        a cluster may have given a name since this one read it)."""
        picked = [""]

        def change(fresh: Any) -> dict[str, dict[str, Any]]:
            data = fresh if isinstance(fresh, dict) else {}
            picked[0] = pick(data)
            data.setdefault(identity, {})["name"] = picked[0]
            return data

        if self._store is None:
            change(self._saved)
            return picked[0]
        try:
            self._saved = self._store.update_document(FILE, change)
        except StoreError:
            log.exception("a player's name not saved")
            self._saved.setdefault(identity, {})["name"] = picked[0]
        return picked[0]

    def identity_named(self, name: str) -> str | None:
        """The key that holds `name` (any case), if one does: names are one per key, so a name
        finds a person even while they are away (an invitation, a seat kept for a friend:
        core/table/kept.py). A guest's name is found while their session lasts."""
        wanted = clean_text(name, MAX_NAME).casefold()
        for kept in (self._session, self._saved):
            for identity, values in kept.items():
                if isinstance(values, dict) and str(values.get("name", "")).casefold() == wanted:
                    return identity
        return None

    @staticmethod
    def _held_by_others(identity: str, data: dict[str, dict[str, Any]]) -> frozenset[str]:
        return frozenset(
            str(kept["name"]).casefold()
            for other, kept in data.items()
            if other != identity and isinstance(kept, dict) and kept.get("name")
        )


def _folded(names: Iterable[str]) -> frozenset[str]:
    return frozenset(name.casefold() for name in names)


def _free(base: str, taken: frozenset[str]) -> str:
    """`base`, or `base~2`, `base~3`... : the first that nobody in `taken` (casefolded) holds."""
    name, n = base, 1
    while name.casefold() in taken:
        n += 1
        name = f"{base[: MAX_NAME - len(str(n)) - 1]}~{n}"
    return name
