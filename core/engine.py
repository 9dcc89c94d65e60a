"""The contract every game implements: prompts, act, per-seat views, events, result, snapshots.

A game is a deterministic state machine driven by decisions. Everything a seat may do next is an
open `Prompt` with the complete list of legal `Choice`s, so the TUI and the bots need nothing else.
`Game.act` validates against exactly that list before anything changes: one validation path, and
nothing a client sends can corrupt the state.

Games subclass `Game`, keep all mutable rules state in one dataclass (`self.state`, of type
`State`), draw every die and shuffle from `self.rng`, report changes with `self.emit`, and register
themselves with `@register`.
"""

from __future__ import annotations

import dataclasses
import hashlib
from abc import ABC, abstractmethod
from collections.abc import (
    Callable,
    ItemsView,
    Iterable,
    Iterator,
    KeysView,
    Mapping,
    Sequence,
    ValuesView,
)
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

import msgpack

from harena.core.codec import from_plain, to_plain
from harena.core.plural import counted

T = TypeVar("T")

SNAPSHOT_FORMAT = 1
LOG_TAIL = 40  # log lines carried in a view; the table keeps the rest


class LazyDict(dict[str, Any]):
    """A view whose parts are built when first read: a search playout's policy reads a few parts
    of a view a move, and building the rest was most of a view's cost. Reads behave as a
    dict's (`[]`, `get`, `in`, iteration, len, ==) and give what `parts` give, but built from
    the game as it is when read: read it before the game moves on, and never hand it to a
    serializer (msgpack sees only the parts read so far).

    `parts`: key -> function of `args` (Spartacus's board: the game and the seat)."""

    __slots__ = ("_args", "_parts")

    def __init__(self, parts: Mapping[str, Callable[..., Any]], *args: Any) -> None:
        super().__init__()
        self._parts = parts
        self._args = args

    def __missing__(self, key: str) -> Any:
        value = self[key] = self._parts[key](*self._args)  # KeyError for a key it has not
        return value

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self._parts else default

    def __contains__(self, key: object) -> bool:
        return key in self._parts

    def __iter__(self) -> Iterator[str]:
        return iter(self._parts)

    def __len__(self) -> int:
        return len(self._parts)

    def keys(self) -> KeysView[str]:  # type: ignore[override]
        return self.whole().keys()

    def values(self) -> ValuesView[Any]:  # type: ignore[override]
        return self.whole().values()

    def items(self) -> ItemsView[str, Any]:  # type: ignore[override]
        return self.whole().items()

    def __eq__(self, other: object) -> bool:
        return self.whole() == other

    def __repr__(self) -> str:
        return f"LazyDict({self.whole()!r})"

    def whole(self) -> dict[str, Any]:
        """Every part built: a plain dict, in the parts' order."""
        return {key: self[key] for key in self._parts}


class IllegalAction(Exception):
    """A choice that is not legal for that seat now. The game is untouched."""


class GameConfigError(ValueError):
    """Unknown game, wrong player count or bad options when creating a game."""


# --- decisions ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Choice:
    id: str  # stable across versions: what clients send and the action log stores
    label: str  # short human text


@dataclass(frozen=True, slots=True)
class Prompt:
    """One open decision. `kind` is public (others see "Red: play_card"); `text` and the
    choices are shown only to `seat`, so they may mention hidden things.

    A `standing` prompt is something a seat may do at any time but nobody waits for (Spartacus:
    give denarii to another player). It is not listed in "waiting", does not make a bot move,
    and a game is never stuck on it alone.

    `default`: the prompt is part of a *reaction window* (Spartacus: "react?" after a Scheme
    or a lot won): the choice made for the seat if the window closes without its answer. The
    window's prompts are answered in secret and revealed together, so a table may hold a
    person's answer until every person asked has answered, or the window's time is up, and
    answer for whoever did not (core/table/held.py, docs/rulings.md): nobody waits once all have
    answered, and when the window closes tells nobody who held a card.

    `confirm`: choices a person should make with a second press (they harm the one choosing,
    or cannot be undone: Spartacus' Poison aimed at your own House). Shown only to `seat`, as
    the rest of the prompt; a screen asks again, a bot never does."""

    seat: int
    kind: str
    text: str
    choices: tuple[Choice, ...]
    standing: bool = False
    confirm: tuple[str, ...] = ()
    default: str | None = None

    @property
    def stamp(self) -> str:
        """This prompt's list as its seat is shown it, in short (see `choices_stamp`)."""
        return choices_stamp(self.kind, [(c.id, c.label) for c in self.choices])

    def to_view(self) -> dict[str, Any]:
        out = {
            "kind": self.kind,
            "text": self.text,
            "choices": [[c.id, c.label] for c in self.choices],
            "standing": self.standing,
        }
        if self.confirm:
            out["confirm"] = list(self.confirm)
        if self.default is not None:
            out["default"] = self.default
        return out


def choices_stamp(kind: str, choices: Iterable[Sequence[str]]) -> str:
    """A short fingerprint of one prompt's list (its kind, each choice's id and label), made
    only of what the seat is shown: a screen sends it with a choice, and the table refuses the
    choice if that list has changed since (Table.act). A prompt view's stamp is
    `choices_stamp(view["kind"], view["choices"])`."""
    text = "\x1f".join([kind, *(f"{cid}\x1e{label}" for cid, label in choices)])
    return hashlib.blake2s(text.encode(), digest_size=6).hexdigest()


@dataclass(frozen=True, slots=True)
class Action:
    seat: int
    choice: str


# --- events and results -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Event:
    """A log line. `seats=None` is public; otherwise only those seats read `text` and everyone
    else reads `redacted` (or nothing when it is None)."""

    text: str
    seats: tuple[int, ...] | None = None
    redacted: str | None = None

    def text_for(self, seat: int | None) -> str | None:
        if self.seats is None or (seat is not None and seat in self.seats):
            return self.text
        return self.redacted


@dataclass(frozen=True, slots=True)
class Result:
    winners: tuple[int, ...]
    reason: str


# --- configuration and registry -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A table option. Single-choice: the value is one of `choices`. `multi`: any set of
    them, as a comma-separated list in `choices` order ("" = none); more than `warn_above`
    is allowed but earns a warning (`option_warnings`)."""

    name: str
    label: str
    choices: tuple[str, ...]
    default: str
    help: str = ""
    multi: bool = False
    warn_above: int | None = None

    def check(self, value: str) -> str:
        """The value in canonical form; a bad one raises GameConfigError naming it."""
        if not self.multi:
            if value not in self.choices:
                raise GameConfigError(
                    f"option {self.name} must be one of {', '.join(self.choices)}, not {value!r}"
                )
            return value
        if not isinstance(value, str):
            raise GameConfigError(f"option {self.name} takes a comma-separated list, not {value!r}")
        names = {part.strip() for part in value.split(",") if part.strip()}
        unknown = sorted(names - set(self.choices))
        if unknown:
            raise GameConfigError(
                f"option {self.name}: unknown {', '.join(repr(u) for u in unknown)}; "
                f"known: {', '.join(self.choices)}"
            )
        return ",".join(c for c in self.choices if c in names)

    def warning(self, value: str) -> str | None:
        """What to tell the table's creator about an allowed but unwise value."""
        count = len(split_multi(value)) if self.multi else 0
        if self.warn_above is not None and count > self.warn_above:
            return f"{count} {self.label.lower()} chosen: more than {self.warn_above} is not recommended"
        return None


def split_multi(value: str) -> list[str]:
    """The names in a multi-select option's value."""
    return [part for part in value.split(",") if part]


@dataclass(frozen=True, slots=True)
class GameConfig:
    game: str
    players: int
    seed: int
    options: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What the lobby and `harena games` show about a registered game."""

    name: str
    title: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]
    bots: tuple[str, ...]
    reaction_windows: bool = False  # Game.reaction_windows


# --- seeded randomness --------------------------------------------------------------------------

_MASK64 = (1 << 64) - 1


class Rng:
    """SplitMix64: one integer of state, so it snapshots as plain data and gives the same
    sequence on every Python version (random.Random makes no such promise for shuffle)."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK64

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        rng = cls(seed ^ 0x5DEECE66D)
        rng.next64()
        return rng

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def roll(self, sides: int = 6) -> int:
        return self.below(sides) + 1

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


# --- the game base class ------------------------------------------------------------------------


class Game(ABC):
    """Base of every game. Subclasses fill in the class attributes and the abstract methods."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    State: ClassVar[type]  # the dataclass held in self.state
    bots: ClassVar[dict[str, Any]] = {}  # kind -> factory(seed) returning a bot (core.bots.Bot)
    # Options `harena simulate` plays with unless told otherwise (Carthage: random bots seldom
    # fight, so its simulations bound games with sudden death); always printed with the figures.
    simulation_options: ClassVar[dict[str, str]] = {}
    # Options a table with no person at it (bots alone) plays unless its creator chose them:
    # nobody there can stop a game that would not end by the rules alone (Spartacus' round limit).
    unattended_options: ClassVar[dict[str, str]] = {}
    # What `seat_label` names (Carthage: "gladiator", Spartacus: "house"): seats choose them in
    # play, so `harena simulate` also counts wins by label.
    label_kind: ClassVar[str | None] = None
    # Whether its prompts open reaction windows (a `default`): the new-table form then offers
    # the window's length (ClockPolicy.window, core/windows.py).
    reaction_windows: ClassVar[bool] = False

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.rng = Rng.from_seed(config.seed)
        self.actions: list[Action] = []
        self.events: list[Event] = []
        self._decisions = [0] * config.players
        self._prompts_version = -1  # open_prompts() is cached for this version
        self._prompts: list[Prompt] = []
        self.prepare()
        self.state = self.setup()

    # -- to implement ---------------------------------------------------------------------------

    def prepare(self) -> None:
        """Build derived, immutable helpers (card tables, the board) from self.config.
        Runs before setup() and on restore; must not touch self.state or self.rng."""

    @abstractmethod
    def setup(self) -> Any:
        """Return the initial State; may draw from self.rng and emit events."""

    @abstractmethod
    def prompts(self) -> list[Prompt]:
        """Every open decision, for all seats. Empty when the game is over."""

    @abstractmethod
    def apply(self, seat: int, choice: str) -> None:
        """Apply a choice that act() has already checked is offered to seat."""

    def offered_as(self, seat: int, choice: str) -> str | None:
        """The offered choice that `choice` is a copy of, when the prompt shows copies once
        (two Guards in hand: one choice). A saved log may hold the copy a player chose when
        both were offered: it stays legal and is applied as it was, so old games replay."""
        return None

    @abstractmethod
    def board_view(self, seat: int | None) -> dict[str, Any]:
        """Game-specific plain data that `seat` may know (None: a spectator)."""

    def lazy_board_view(self, seat: int | None) -> dict[str, Any]:
        """`board_view(seat)` for a search playout's policy, which reads only some of it: a game
        whose board is costly may return a `LazyDict` of the same parts."""
        return self.board_view(seat)

    @abstractmethod
    def result(self) -> Result | None:
        """None while the game runs."""

    @classmethod
    def check_config(cls, players: int, options: dict[str, str]) -> None:
        """Refuse (GameConfigError) a player count or option mix the game cannot play, beyond
        the class-wide range (Carthage: one player only with essedari=solo, four for a 2 vs 2);
        the options are already known to be valid one by one."""

    def round_number(self) -> int:
        """Rounds begun so far, for statistics; games with rounds override."""
        return 0

    def seat_label(self, seat: int) -> str:
        """What this seat plays as ("Blue Retiarius", "Batiatus"), for statistics."""
        return f"seat {seat}"

    # -- helpers for subclasses -----------------------------------------------------------------

    def emit(
        self, text: str, *, seats: Iterable[int] | None = None, redacted: str | None = None
    ) -> None:
        self.events.append(Event(text, None if seats is None else tuple(seats), redacted))

    # -- the contract ---------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def version(self) -> int:
        """Actions applied so far."""
        return len(self.actions)

    def decision_number(self, seat: int) -> int:
        """How many choices `seat` has made: a client that answers a prompt sends it back, so
        a doubled keypress cannot answer the next prompt by accident (see Table.act)."""
        return self._decisions[seat]

    def open_prompts(self) -> list[Prompt]:
        """prompts(), computed once per version: validating a choice, viewing and choosing a
        bot's seat all ask for them, and building them is a good part of a game's cost.
        Code that changes the state outside act() (test fixtures) calls state_changed()."""
        if self._prompts_version != self.version:
            self._prompts = self.prompts()
            self._prompts_version = self.version
        return self._prompts

    def state_changed(self) -> None:
        """Forget the cached prompts after the state was changed other than by act()."""
        self._prompts_version = -1

    def dealing(self) -> bool:
        """Whether players may deal now with no decision awaited (Spartacus: an invitation, a
        thumb, a Scheme's support): bot drivers ask the bots' `standing` hook only then."""
        return False

    def asked_to_pay(self) -> list[int]:
        """Seats asked for something they have not answered, which nobody waits for (Spartacus:
        an open ask unpaid): a bot driver gives a human there time before bots move on."""
        return []

    def awaited(self) -> list[int]:
        """Seats the game is waiting for (an open prompt that is not standing), in order."""
        return sorted({p.seat for p in self.open_prompts() if not p.standing})

    def prompts_for(self, seat: int) -> list[Prompt]:
        return [p for p in self.open_prompts() if p.seat == seat]

    def act(self, seat: int, choice: str) -> list[Event]:
        """Validate and apply one choice; return the events it caused.

        Raises IllegalAction, leaving the game untouched, when the seat has no such choice now.
        If the rules code itself fails, the game is rebuilt from its action log before the error
        propagates, so a bug cannot leave a half-applied move behind.
        """
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction(f"there is no seat {seat!r}; seats are 0 to {self.players - 1}")
        if not isinstance(choice, str):
            raise IllegalAction(f"a choice is a string id, not {type(choice).__name__}")
        if self.result() is not None:
            raise IllegalAction("the game is over")
        mine = self.prompts_for(seat)
        if not mine:
            # Said to the player who pressed a key: no seat numbers (they name nobody on screen).
            others = len(self.awaited())
            raise IllegalAction(
                "you have nothing to decide now; "
                + (
                    f"waiting for {counted(others, 'other player')}"
                    if others
                    else "nobody is to act"
                )
            )
        offered = {c.id for p in mine for c in p.choices}
        if choice not in offered and self.offered_as(seat, choice) not in offered:
            allowed = [c.id for p in mine for c in p.choices]
            shown = ", ".join(allowed[:12]) + (
                f" ... ({len(allowed)} in all)" if len(allowed) > 12 else ""
            )
            raise IllegalAction(
                f"{choice!r} is not a legal choice now ({mine[0].text}); allowed: {shown}"
            )
        first_event = len(self.events)
        self._prompts_version = -1
        try:
            self.apply(seat, choice)
        except BaseException:
            self._rebuild()
            raise
        self.actions.append(Action(seat, choice))
        self._decisions[seat] += 1
        return self.events[first_event:]

    def view(self, seat: int | None, *, log_from: int = 0, lazy: bool = False) -> dict[str, Any]:
        """Exactly what `seat` may know, as msgpack-able data. The only source the TUI and the
        bots read: its own prompts, who else must act, its log, and the game's board view.
        No action counter: a hidden choice of two steps or three would tell others which it
        was (a Spartacus Scheme aimed at yourself or at another House). Stale screens are
        caught by the seat's own `decision` number instead.

        `log_from`: the seat's private log lines before this event index belong to someone who
        held the seat before; they read as everyone else reads them (see Table.sit).

        `lazy`: a `LazyDict` of the same parts, the board `lazy_board_view`, each built when
        first read (for a search playout's policy only)."""
        if seat is not None and not 0 <= seat < self.players:
            raise IllegalAction(f"there is no seat {seat!r}")
        if lazy:
            return LazyDict(LAZY_VIEW_PARTS, self, seat, log_from)
        return {key: part(self, seat, log_from) for key, part in VIEW_PARTS.items()}

    def prompt_view(self, seat: int) -> dict[str, Any]:
        """The part of view(seat) that says what the seat may choose: for bots that read
        nothing else (RandomBot), so simulations skip building boards and logs."""
        return {
            "seat": seat,
            "decision": self._decisions[seat],
            "prompts": [p.to_view() for p in self.open_prompts() if p.seat == seat],
        }

    def view_for_bot(
        self, seat: int, bot: Any, *, log_from: int = 0, lazy: bool = False
    ) -> dict[str, Any]:
        """The view a bot is given: the whole view unless it says it reads only prompts.
        `lazy`: built only as far as the bot reads it, for a search playout's policy (the view
        is read at once, in the process, and dropped: see `LazyDict`)."""
        if getattr(bot, "reads_board", True):
            return self.view(seat, log_from=log_from, lazy=lazy)
        return self.prompt_view(seat)

    def log_for(self, seat: int | None, limit: int | None = None, log_from: int = 0) -> list[str]:
        """The log as `seat` may read it, oldest first; the last `limit` lines. Lines private
        to `seat` from before event `log_from` read in their public (redacted) form."""
        if limit is not None and limit <= 0:
            return []
        lines: list[str] = []
        left = -1 if limit is None else limit
        index = len(self.events)
        for event in reversed(self.events):
            index -= 1
            # Event.text_for inlined: views are built on every move, and this is their hot loop
            seats = event.seats
            text: str | None
            if seats is None or (seat in seats and index >= log_from):
                text = event.text
            else:
                text = event.redacted
            if text is not None:
                lines.append(text)
                left -= 1
                if left == 0:
                    break
        lines.reverse()
        return lines

    # -- persistence ----------------------------------------------------------------------------

    def snapshot(self) -> bytes:
        """Everything needed to continue this game exactly, as msgpack. Never shown to a client."""
        return msgpack.packb(
            {
                "format": SNAPSHOT_FORMAT,
                "config": to_plain(self.config),
                "rng": self.rng.state,
                "actions": [[a.seat, a.choice] for a in self.actions],
                "events": [[e.text, e.seats, e.redacted] for e in self.events],
                "state": to_plain(self.state),
            },
            use_bin_type=True,
        )

    def _rebuild(self) -> None:
        fresh = replay(self.config, self.actions)
        self.__dict__.update(fresh.__dict__)


# --- registry and entry points ------------------------------------------------------------------

_REGISTRY: dict[str, type[Game]] = {}

# Game packages that register themselves on import; each game adds itself here when it lands.
BUILTIN_GAMES: tuple[str, ...] = (
    "harena.core.carthage.rules",
    "harena.core.spartacus.rules",
    "harena.core.search.levels",  # the easy and search bots of both games
)
_builtins_loaded = False


def _result_view(game: Game) -> dict[str, Any] | None:
    result = game.result()
    return None if result is None else {"winners": list(result.winners), "reason": result.reason}


# Game.view's parts, in order, each from (game, seat, log_from).
VIEW_PARTS: dict[str, Callable[[Game, int | None, int], Any]] = {
    "game": lambda game, seat, log_from: game.name,
    "title": lambda game, seat, log_from: game.title,
    "players": lambda game, seat, log_from: game.players,
    "options": lambda game, seat, log_from: dict(game.config.options),
    "seat": lambda game, seat, log_from: seat,
    "decision": lambda game, seat, log_from: None if seat is None else game.decision_number(seat),
    "prompts": lambda game, seat, log_from: [
        p.to_view() for p in game.open_prompts() if p.seat == seat
    ],
    "waiting": lambda game, seat, log_from: [
        [p.seat, p.kind] for p in game.open_prompts() if not p.standing
    ],
    "result": lambda game, seat, log_from: _result_view(game),
    "log": lambda game, seat, log_from: game.log_for(seat, LOG_TAIL, log_from),
    "board": lambda game, seat, log_from: game.board_view(seat),
}
# The same for a lazy view: its board built only as far as read too.
LAZY_VIEW_PARTS = {
    **VIEW_PARTS,
    "board": lambda game, seat, log_from: game.lazy_board_view(seat),
}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game available to new_game() and the lobby."""
    if not (1 <= cls.min_players <= cls.max_players):
        raise GameConfigError(f"{cls.__name__}: bad player range")
    if not dataclasses.is_dataclass(cls.State):
        raise GameConfigError(f"{cls.__name__}.State must be a dataclass")
    _REGISTRY[cls.name] = cls
    return cls


def unregister(name: str) -> None:
    _REGISTRY.pop(name, None)


def _load_builtins() -> None:
    global _builtins_loaded
    if not _builtins_loaded:
        import importlib

        for module in BUILTIN_GAMES:
            importlib.import_module(module)
        _builtins_loaded = True


def game_class(name: str) -> type[Game]:
    _load_builtins()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none yet"
        raise GameConfigError(f"unknown game {name!r}; available: {known}") from None


def available_games() -> list[GameInfo]:
    _load_builtins()
    return [
        GameInfo(
            c.name,
            c.title,
            c.min_players,
            c.max_players,
            c.options,
            tuple(c.bots),
            c.reaction_windows,
        )
        for c in sorted(_REGISTRY.values(), key=lambda c: c.name)
    ]


def make_config(
    name: str, players: int, seed: int, options: dict[str, str] | None = None
) -> GameConfig:
    """Check a requested game against its spec; fill in option defaults."""
    cls = game_class(name)
    if not isinstance(players, int) or not cls.min_players <= players <= cls.max_players:
        raise GameConfigError(
            f"{cls.title} takes {cls.min_players} to {cls.max_players} players, not {players}"
        )
    given = dict(options or {})
    resolved: dict[str, str] = {}
    for spec in cls.options:
        resolved[spec.name] = spec.check(given.pop(spec.name, spec.default))
    if given:
        raise GameConfigError(f"unknown option(s) for {cls.title}: {', '.join(sorted(given))}")
    cls.check_config(players, resolved)
    return GameConfig(name, players, int(seed), resolved)


def option_warnings(config: GameConfig) -> list[str]:
    """Warnings (never refusals) about a checked config's options, for whoever creates it."""
    specs = game_class(config.game).options
    found = (spec.warning(config.options.get(spec.name, spec.default)) for spec in specs)
    return [w for w in found if w]


def default_players(name: str, options: dict[str, str] | None = None) -> int:
    """The fewest players the game takes with these options (Carthage: 1 only in solo, 4 for
    a 2 vs 2)."""
    cls = game_class(name)
    for players in range(cls.min_players, cls.max_players + 1):
        try:
            make_config(name, players, 0, options)
        except GameConfigError:
            continue
        return players
    return cls.min_players


def new_game(name: str, players: int, seed: int, options: dict[str, str] | None = None) -> Game:
    """The one entry point: a fresh game of a registered kind."""
    config = make_config(name, players, seed, options)
    return game_class(name)(config)


def replay(config: GameConfig, actions: Iterable[Action]) -> Game:
    """Rebuild a game from its initial config and action log."""
    game = game_class(config.game)(config)
    for action in actions:
        game.act(action.seat, action.choice)
    return game


def restore(blob: bytes) -> Game:
    """The game a snapshot() was taken of, exactly."""
    data = msgpack.unpackb(blob, raw=False, strict_map_key=False)
    if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
        raise ValueError("not a harena game snapshot (or an unsupported format)")
    config = from_plain(GameConfig, data["config"])
    cls = game_class(config.game)
    game = cls.__new__(cls)
    game.config = config
    game.rng = Rng(data["rng"])
    game.actions = [Action(seat, choice) for seat, choice in data["actions"]]
    game.events = [
        Event(text, None if seats is None else tuple(seats), redacted)
        for text, seats, redacted in data["events"]
    ]
    game._decisions = [0] * config.players
    game._prompts_version = -1
    game._prompts = []
    for action in game.actions:
        game._decisions[action.seat] += 1
    game.prepare()
    game.state = from_plain(cls.State, data["state"])
    return game
