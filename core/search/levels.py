"""The bot kinds beyond each game's own (random, heuristic): the easy level and the search bot,
offered by every game that has a heuristic bot and a determinizer. Imported with the built-in
games (`engine.BUILTIN_GAMES`), so every table, `harena simulate` and the lobby know them."""

from __future__ import annotations

from harena.core.bots import EasyBot
from harena.core.carthage.rules import Carthage
from harena.core.search.bot import SearchBot
from harena.core.spartacus.rules import Spartacus

for _cls in (Carthage, Spartacus):
    _cls.bots.setdefault("search", SearchBot)
    _cls.bots.setdefault("easy", EasyBot)
