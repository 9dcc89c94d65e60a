"""Guided first games: a table made for teaching, and the panels that explain it as it is played.

A guide is a data file per game (`core/data/guides/GAME.toml`, quoting the rulebook where it
helps): the set-up (players, a fixed seed, options, the bots' kind) and the panels in order.
Each panel names the moment it explains (`Trigger`: the first prompt of a kind, a choice whose
label matches, the game's end ...) and the part of the screen it talks about (`points`: a
region the TUI highlights). The player sees each panel once, the first time its moment comes,
and then plays that moment for real; the panel leaves when its moment passes (`lasts`): its
condition no longer holds, or the player made a decision since it showed. Which panel is due,
and for how long, are pure functions of the seat's view, so the guide needs nothing the player
may not see, and what a panel says can be checked against the view it shows in.

A guided table is an ordinary table: leaving or finishing the guide leaves a table that plays on
like any other (the lobby only remembers which tables are guided, in memory).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

from harena.core.clocks import ClockPolicy
from harena.core.engine import game_class

if TYPE_CHECKING:
    from harena.core.lobby import Lobby
    from harena.core.table import Table

MAX_LINES = 7
"""Text lines a panel may have: with its border, title and key line it takes 10 of 24 rows."""
MAX_WIDTH = 74
MAX_TITLE = 60
REGIONS = {
    "carthage": ("prompt", "arena", "players", "theater", "row", "hand", "log"),
    "spartacus": ("prompt", "houses", "house", "arena", "phase", "log"),
}
"""The parts of each game's screen a panel may point at (tui/guide.py highlights them)."""


class GuideError(ValueError):
    """A guide file that does not load: the message names the file and the panel."""


@dataclass(frozen=True)
class Trigger:
    """When a panel is due; every condition given must hold.

    `start`: the game has begun and the seat has made no decision yet; `prompt`: the seat has
    an open decision of this kind;
    `choice`: one of its choices' labels matches this regular expression; `board`: the board
    view has these keys with these values; `over`: the game has ended."""

    start: bool = False
    prompt: str = ""
    choice: str = ""
    text: str = ""
    board: Mapping[str, Any] = field(default_factory=dict)
    over: bool = False

    def holds(self, view: Mapping[str, Any]) -> bool:
        game = view["game"]
        if self.over:
            return game["result"] is not None
        if game["result"] is not None or view["table"]["status"] != "playing":
            return False
        board = game["board"]
        if any(board.get(key) != value for key, value in self.board.items()):
            return False
        if self.start:
            return not game.get("decision")
        # A prompt named is looked for among standing ones too (Spartacus: the Open Market
        # while offers await answers); `start` and a choice alone look at decisions only.
        if self.prompt:
            mine = [p for p in game["prompts"] if p["kind"] == self.prompt]
        else:
            mine = [p for p in game["prompts"] if not p.get("standing")]
        if self.text:
            mine = [p for p in mine if re.search(self.text, p["text"])]
        if not mine:
            return False
        if self.choice:
            pattern = re.compile(self.choice)
            return any(pattern.search(label) for p in mine for _, label in p["choices"])
        return True


@dataclass(frozen=True)
class GuidePanel:
    key: str
    title: str
    lines: tuple[str, ...]
    points: str
    """The region of the screen it talks about (one of `REGIONS[game]`)."""
    trigger: Trigger
    suggest: tuple[str, ...] = ()
    """Regular expressions on the label of the choice the text advises, if it advises one: the
    first that matches a choice names it. Several say what comes first in a multi-step choice
    (a trade: send it once it asks for a card, else ask for one), which one expression over
    choices checked in the prompt's order could not."""

    def lasts(self, view: Mapping[str, Any], shown_at: int | None) -> bool:
        """Whether the moment this panel was shown for (at the seat's decision number
        `shown_at`) is still on: its condition holds and the seat has not decided since."""
        return view["game"].get("decision") == shown_at and self.trigger.holds(view)

    def suggested(self, prompt: Mapping[str, Any]) -> str | None:
        """The id of the choice of `prompt` this panel advises, if any."""
        if prompt["kind"] != self.trigger.prompt:
            return None
        for expression in self.suggest:
            pattern = re.compile(expression)
            for cid, label in prompt["choices"]:
                if pattern.search(label):
                    return str(cid)
        return None


@dataclass(frozen=True)
class GuideSetup:
    players: int
    seed: int
    bots: str
    options: Mapping[str, str]


@dataclass(frozen=True)
class Guide:
    game: str
    title: str
    setup: GuideSetup
    panels: tuple[GuidePanel, ...]

    def due(self, view: Mapping[str, Any], shown: Iterable[str]) -> GuidePanel | None:
        """The first panel whose moment `view` shows and that was not shown yet."""
        done = set(shown)
        return next((p for p in self.panels if p.key not in done and p.trigger.holds(view)), None)

    def current(self, view: Mapping[str, Any], shown: Iterable[str]) -> GuidePanel | None:
        """The panel for `?`: the last one shown whose moment is now, else the last shown."""
        done = [p for p in self.panels if p.key in set(shown)]
        now = [p for p in done if p.trigger.holds(view)]
        last = now or done
        return last[-1] if last else None

    def panel(self, key: str) -> GuidePanel:
        return next(p for p in self.panels if p.key == key)

    def advice(self, prompt: Mapping[str, Any], shown: Iterable[str]) -> str | None:
        """The choice of `prompt` that the panels shown so far advise, if one does: what a
        learner who follows the guide picks (the tests walk the guided games this way)."""
        advised = (self.panel(key).suggested(prompt) for key in shown)
        return next((cid for cid in advised if cid is not None), None)


GUIDES = ("carthage", "spartacus")


def load_guide(game: str, text: str | None = None) -> Guide:
    """The guide of `game`, from its data file (or from `text`, a TOML document)."""
    if game not in GUIDES:
        raise GuideError(f"no guided game for {game!r}; there is one for {', '.join(GUIDES)}")
    name = f"guides/{game}.toml"
    if text is None:
        text = resources.files("harena.core").joinpath("data", "guides", f"{game}.toml").read_text()
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GuideError(f"{name}: not valid TOML: {exc}") from exc
    setup = _setup(game, raw.get("setup"), name)
    panels = tuple(
        _panel(game, item, f"{name}, panel {i + 1}") for i, item in enumerate(raw.get("panel", []))
    )
    if not panels:
        raise GuideError(f"{name}: no [[panel]]")
    keys = [p.key for p in panels]
    if len(set(keys)) != len(keys):
        raise GuideError(f"{name}: two panels share the key {_first_twice(keys)!r}")
    return Guide(game, str(raw.get("title", game)), setup, panels)


def create_guided_table(
    lobby: Lobby, identity: str, name: str, game: str, *, seed: int | None = None
) -> Table:
    """A table set up for teaching `game`, `identity` in seat 0 and the guide's bots around
    (`seed`: another deal than the guide's, for tests)."""
    setup = load_guide(game).setup
    # Reaction windows answered by keys (no fixed time): their time hides who holds a Reaction
    # from the other people at a table, and here there are none; the learner waits for nobody.
    table = lobby.create_table(
        identity,
        name,
        game,
        setup.players,
        dict(setup.options),
        bots=setup.players - 1,
        bot_kind=setup.bots,
        seed=setup.seed if seed is None else seed,
        policy=ClockPolicy(window=0),
        hints=True,  # a learner may ask the hard bot what it would choose
    )
    lobby.guided[table.id] = game
    return table


def _setup(game: str, raw: Any, name: str) -> GuideSetup:
    if not isinstance(raw, dict):
        raise GuideError(f"{name}: no [setup]")
    cls = game_class(game)
    players, seed, bots = raw.get("players"), raw.get("seed"), raw.get("bots", "random")
    if not isinstance(players, int) or not cls.min_players <= players <= cls.max_players:
        raise GuideError(f"{name}: [setup] players must be {cls.min_players}-{cls.max_players}")
    if not isinstance(seed, int) or bots not in cls.bots:
        raise GuideError(f"{name}: [setup] needs a whole-number seed and one of bots {cls.bots}")
    options = raw.get("options", {})
    if not isinstance(options, dict):
        raise GuideError(f"{name}: [setup] options is a table of name = value")
    return GuideSetup(players, seed, str(bots), {str(k): str(v) for k, v in options.items()})


def _panel(game: str, raw: Any, where: str) -> GuidePanel:
    if not isinstance(raw, dict):
        raise GuideError(f"{where}: not a table")
    unknown = set(raw) - {"key", "title", "text", "points", "when", "suggest"}
    if unknown:
        raise GuideError(f"{where}: unknown field {sorted(unknown)[0]!r}")
    key, title, text = raw.get("key"), raw.get("title"), raw.get("text")
    if not all(isinstance(v, str) and v for v in (key, title, text)):
        raise GuideError(f"{where}: key, title and text are needed")
    assert isinstance(key, str) and isinstance(title, str) and isinstance(text, str)
    where = f"{where} ({key})"
    if len(title) > MAX_TITLE or not title.isascii():
        raise GuideError(f"{where}: the title is plain ASCII of at most {MAX_TITLE} characters")
    lines = tuple(line.rstrip() for line in text.strip("\n").splitlines())
    if len(lines) > MAX_LINES:
        raise GuideError(f"{where}: {len(lines)} lines, at most {MAX_LINES} fit beside the table")
    for number, line in enumerate(lines, 1):
        if len(line) > MAX_WIDTH or not line.isascii() or not line.isprintable():
            raise GuideError(
                f"{where}, line {number}: plain ASCII of at most {MAX_WIDTH} columns, please"
            )
    points = raw.get("points", "prompt")
    if points not in REGIONS[game]:
        raise GuideError(f"{where}: points at {points!r}, not one of {', '.join(REGIONS[game])}")
    raw_suggest = raw.get("suggest", [])
    suggest = [raw_suggest] if isinstance(raw_suggest, str) else raw_suggest
    if not isinstance(suggest, list) or not all(isinstance(s, str) and s for s in suggest):
        raise GuideError(f"{where}: `suggest` is a regular expression or a list of them")
    for expression in suggest:
        try:
            re.compile(expression)
        except re.error as exc:
            raise GuideError(f"{where}: `suggest` is not a regular expression: {exc}") from exc
    trigger = _trigger(raw.get("when"), where)
    return GuidePanel(key, title, lines, str(points), trigger, tuple(suggest))


def _trigger(raw: Any, where: str) -> Trigger:
    if not isinstance(raw, dict) or not raw:
        raise GuideError(f"{where}: `when` says when the panel is due (start, prompt, over ...)")
    unknown = set(raw) - {"start", "prompt", "choice", "text", "board", "over"}
    if unknown:
        raise GuideError(f"{where}: unknown condition {sorted(unknown)[0]!r} in `when`")
    choice, text = str(raw.get("choice", "")), str(raw.get("text", ""))
    for name, expression in (("choice", choice), ("text", text)):
        try:
            re.compile(expression)
        except re.error as exc:
            raise GuideError(f"{where}: `{name}` is not a regular expression: {exc}") from exc
    return Trigger(
        start=bool(raw.get("start", False)),
        prompt=str(raw.get("prompt", "")),
        choice=choice,
        text=text,
        board=dict(raw.get("board", {})),
        over=bool(raw.get("over", False)),
    )


def _first_twice(keys: list[str]) -> str:
    return next(k for i, k in enumerate(keys) if k in keys[:i])
