"""Bots play from a seat's view alone: its prompts and what that seat may know.

Reading nothing but `Game.view(seat)` keeps bots honest (they cannot peek at hidden cards) and
means a bot can sit wherever a human can, over the same boundary.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from harena.core.engine import Rng


class Bot(Protocol):
    def choose(self, view: dict[str, Any]) -> str:
        """The id of one choice offered in view["prompts"]."""
        ...


MAX_DEALS = 64  # standing deals in a row with no decision between them: a bot that never stops


def standing_move(
    game: Any, bots: Mapping[int, Any], log_from: Mapping[int, int] | None = None
) -> tuple[int, str] | None:
    """The first bot's deal while nobody waits for it: each bot seat in order, if its bot has a
    `standing(view) -> str | None` hook (Spartacus: a bribe, an ask) and the game has a moment
    for deals (`Game.dealing`). Drivers (simulate, the server's BotRunner, test helpers) call
    it after every change and before any bot decision, so a bot can pay before a bot Host
    decides. The hook reads only its view, so the same game deals the same way every time, and
    must return None once it has dealt (it sees its own asks and gifts): drivers stop a bot
    that deals MAX_DEALS times in a row."""
    if not game.dealing():
        return None
    for seat, bot in sorted(bots.items()):
        hook = getattr(bot, "standing", None)
        if hook is None:
            continue
        choice = hook(game.view(seat, log_from=(log_from or {}).get(seat, 0)))
        if choice is not None:
            return seat, choice
    return None


def awaited_prompts(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The seat's prompts the game waits for: a bot leaves standing ones (gifts) alone."""
    prompts = [prompt for prompt in view["prompts"] if not prompt.get("standing")]
    if not prompts:
        raise ValueError("the bot was asked to act with no open prompt")
    return prompts


class RandomBot:
    """Uniformly random among the legal choices: the baseline, and the fuzzer of property tests."""

    reads_board = False  # it needs only view["prompts"] (Game.prompt_view)

    def __init__(self, seed: int) -> None:
        self.rng = Rng.from_seed(seed)

    def choose(self, view: dict[str, Any]) -> str:
        legal: list[str] = [cid for prompt in awaited_prompts(view) for cid, _ in prompt["choices"]]
        return self.rng.choice(legal)


def bot_seed(game_seed: int, seat: int) -> int:
    """A bot's own seed: derived from the game's so simulations repeat, but a separate stream,
    so a bot learns nothing about the game's hidden draws."""
    return Rng.from_seed(game_seed * 1_000_003 + seat).next64()


def decide(game: Any, seat: int, bot: Any, *, log_from: int = 0) -> str:
    """A bot's choice for `seat`: a bot that thinks (`decide`, the search bot) is given the
    game, which it reads only through samples of what the seat may not know; any other bot
    reads the seat's view."""
    think = getattr(bot, "decide", None)
    if think is not None:
        return str(think(game, seat, log_from=log_from))
    return str(bot.choose(game.view_for_bot(seat, bot, log_from=log_from)))


MISTAKE_RATE = 0.25  # the easy bot: how often it takes another choice of the same prompt


class EasyBot:
    """The easy level, for a first game: the heuristic bot, but now and then it takes another
    choice of the same prompt, as a newcomer does (steps the wrong way, buys the lesser card,
    misjudges a bid), though never one the screen asks a person to press twice for (aiming a
    harmful Scheme at its own House). Deals are the heuristic's."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = Rng.from_seed(seed ^ 0xEA5E)
        self._normal: Any = None

    def _heuristic(self, view: dict[str, Any]) -> Any:
        if self._normal is None:
            from harena.core.engine import game_class

            self._normal = game_class(view["game"]).bots["heuristic"](self.seed)
        return self._normal

    def choose(self, view: dict[str, Any]) -> str:
        picked = str(self._heuristic(view).choose(view))
        if self.rng.below(1_000_000) >= MISTAKE_RATE * 1_000_000:
            return picked
        prompt = next(
            (p for p in awaited_prompts(view) if any(cid == picked for cid, _ in p["choices"])),
            None,
        )
        if prompt is None or len(prompt["choices"]) < 2:
            return picked
        slip = str(self.rng.choice([cid for cid, _ in prompt["choices"]]))
        # A newcomer's slip, never a blunder the screen would ask a person twice about (a
        # Scheme at your own House, an execution: `Prompt.confirm`): then the heuristic's.
        return picked if slip in prompt.get("confirm", ()) else slip

    def standing(self, view: dict[str, Any]) -> str | None:
        hook = getattr(self._heuristic(view), "standing", None)
        return None if hook is None else hook(view)


# Strength levels a table owner picks per bot seat, and the bot kind each plays as.
LEVELS: dict[str, str] = {"easy": "easy", "normal": "heuristic", "hard": "search"}
# How a bot kind is named where players choose one (the create form), weakest first.
KIND_LABELS: dict[str, str] = {
    "random": "random",
    "easy": "easy",
    "heuristic": "normal",
    "search": "hard (search)",
}


# How a bot seat is named on screen: by the level a player picked, never the kind's code name.
BOT_NAMES: dict[str, str] = {
    "random": "random bot",
    "easy": "easy bot",
    "heuristic": "normal bot",
    "search": "hard bot",
}


def bot_seat_names(kinds: Sequence[str | None]) -> list[str | None]:
    """Each seat's bot name by its level ("normal bot"), None where no bot sits; bots of one
    level at one table are numbered in seat order ("normal bot 1", "normal bot 2"), so a log
    line and a prompt tell them apart before a House or a gladiator does."""
    names = [None if kind is None else BOT_NAMES.get(kind, f"{kind} bot") for kind in kinds]
    shared = {name for name in names if name is not None and names.count(name) > 1}
    seen: dict[str, int] = {}
    out: list[str | None] = []
    for name in names:
        if name in shared:
            seen[name] = seen.get(name, 0) + 1
            name = f"{name} {seen[name]}"
        out.append(name)
    return out


def kinds_by_strength(kinds: list[str]) -> list[str]:
    """A game's bot kinds in the order players pick them: the levels first, weakest first."""
    order = ["easy", "heuristic", "search", "random"]
    return sorted(kinds, key=lambda k: order.index(k) if k in order else len(order))
