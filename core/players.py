"""Per-player settings, kept per key across restarts (guests' live as long as their session).

`bell`: whether a decision that becomes yours rings the terminal bell; `notice_*`: where and
how often to be told of one while you are away (core/notices.py); `auto_pass`: whether every
reaction window that asks you is answered "Let it be" for you at once (core/windows.py; you may
still change the answer while it is open).
"""

from __future__ import annotations

import logging
from typing import Any

from harena.core.notices import SETTINGS as NOTICE_SETTINGS
from harena.core.store import Store, StoreError

log = logging.getLogger(__name__)

FILE = "players.json"
DEFAULTS: dict[str, Any] = {"bell": True, "auto_pass": False, **NOTICE_SETTINGS}


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
