"""The commands `ssh host COMMAND` accepts: a fixed list, parsed here without any shell.

`ssh -t host table 7` opens table 7, `ssh -t host play carthage` sits the player at a new table
with bots, `ssh host status` prints the tables waiting for them, `ssh host ratings` the
leaderboard, `ssh host rename NAME` changes the name the player's key shows, `ssh host review 7`
prints how finished table 7 went and `ssh host help` lists them all. Anything else is refused with the list of what is accepted, each line as the
player types it: the server passes in how it is reached (`ssh -p 2222 example.org`), since only
it knows the address (core/ looks up no socket). The text an SSH client
sends is untrusted: it is read as words of letters, digits and `-`, never handed to a shell, and
a command with anything else in it (`;`, `|`, `$`, quotes, a second line) is refused whole.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from harena.core.privacy import is_private_id

MAX_COMMAND = 64
"""Characters a command may have (`play spartacus` is 14): more is refused unread."""

_WORD = re.compile(r"[A-Za-z0-9-]+")
_SHELL = set(";|&$`\\\"'<>(){}[]*?!~#%=^")


@dataclass(frozen=True)
class OpenTable:
    """`table N`: open table N, in your seat or watching (needs a terminal)."""

    table_id: str


@dataclass(frozen=True)
class PlayGame:
    """`play GAME [private]`: a new table of GAME with bots in the other seats (needs a
    terminal); `private`: invite-only (core/privacy.py)."""

    game: str
    private: bool = False


@dataclass(frozen=True)
class JoinCode:
    """`join CODE`: a seat at the private table whose share code CODE is (needs a terminal)."""

    code: str


@dataclass(frozen=True)
class Status:
    """`status`: the tables waiting for you, printed; no terminal needed."""


@dataclass(frozen=True)
class ShowRatings:
    """`ratings [GAME]`: the leaderboard (of every game, or of GAME), printed."""

    game: str | None = None


@dataclass(frozen=True)
class Rename:
    """`rename NAME`: the name this key shows from now on (core/players.py), printed."""

    name: str


@dataclass(frozen=True)
class ShowHelp:
    """`help`: every accepted command, printed."""


@dataclass(frozen=True)
class ShowReview:
    """`review N`: how finished table N went, printed: its course, where it turned for you."""

    table_id: str


Command = OpenTable | PlayGame | Status | ShowRatings | Rename | ShowHelp | JoinCode | ShowReview
NEEDS_TERMINAL = (OpenTable, PlayGame, JoinCode)
"""Commands that open the full-screen TUI: they need `ssh -t`."""


class CommandRefused(ValueError):
    """A command that is not on the list; its text says why and what is accepted."""


def accepted(games: Sequence[str]) -> list[tuple[str, str]]:
    """(usage, what it does) of every command accepted, as the refusal, docs and `?` list them."""
    names = "|".join(games) or "GAME"
    return [
        ("table N", "open that table: your seat, or watch it (ssh -t)"),
        (f"play {names}", "a new table with bots, and sit down (ssh -t)"),
        (f"play {names} private", "the same, invite-only (ssh -t)"),
        ("join CODE", "sit at a private table with its share code (ssh -t)"),
        ("status", "print the tables waiting for you"),
        ("ratings [GAME]", "print the leaderboard"),
        ("rename NAME", "the name your key shows, from now on"),
        ("review N", "print how finished table N went, and where it turned for you"),
        ("help", "print this list"),
    ]


def refusal(reason: str, games: Sequence[str], ssh: str) -> CommandRefused:
    """Why a command is refused, then every accepted one after `ssh` (how this server is
    reached: `ssh -p 2222 example.org`), as the player would type it."""
    return CommandRefused(f"harena: {reason}. Accepted commands:\n{command_list(games, ssh)}")


def command_list(games: Sequence[str], ssh: str) -> str:
    """Every accepted command after `ssh`, one a line, as `help` and a refusal print them."""
    lines = [f"  {ssh} {usage:<24} {what}" for usage, what in accepted(games)]
    lines.append(f"  {ssh} {'':<24} the lobby")
    return "\n".join(lines)


NAME_NOTE = (
    "Your name is your key's: the user name it first connected with (the `user@` of "
    "`ssh user@host`; without one, your local user name), whatever user name you connect "
    "as later, until `rename NAME` (letters, digits and -)."
)


def command_text(command: Command) -> str:
    """`command` as the player types it after the address (`table 7`, `play carthage`)."""
    if isinstance(command, OpenTable):
        return f"table {command.table_id}"
    if isinstance(command, PlayGame):
        return f"play {command.game}" + (" private" if command.private else "")
    if isinstance(command, JoinCode):
        return f"join {command.code}"
    if isinstance(command, ShowRatings):
        return "ratings" + (f" {command.game}" if command.game else "")
    if isinstance(command, Rename):
        return f"rename {command.name}"
    if isinstance(command, ShowHelp):
        return "help"
    if isinstance(command, ShowReview):
        return f"review {command.table_id}"
    return "status"


def parse_command(text: str, games: Sequence[str], ssh: str) -> Command:
    """The command in `text` (an SSH exec request), or CommandRefused saying why not.

    Args:
        text: what the client asked to run, as it arrived.
        games: the names of the games this server hosts (what `play` accepts).
        ssh: how a player reaches this server (`ssh -p 2222 example.org`): the refusal lists
            the commands after it.
    """
    if len(text) > MAX_COMMAND:
        raise refusal(f"a command has at most {MAX_COMMAND} characters", games, ssh)
    if any(char in "\r\n" for char in text.strip()):
        raise refusal("a command is one line", games, ssh)
    if any(char in _SHELL or not char.isprintable() for char in text.replace("\t", " ")):
        raise refusal("harena runs no shell: no quotes, pipes, ; $ or other symbols", games, ssh)
    words = text.split()
    if not words:
        raise refusal("an empty command", games, ssh)
    verb, args = words[0].lower(), [word.lower() for word in words[1:]]
    usage: dict[str, str] = {}
    for line, _ in accepted(games):
        usage.setdefault(line.split()[0], line)  # the first line of a verb: its plain use
    if verb not in usage and _WORD.fullmatch(verb):
        raise refusal(
            f"unknown command `{verb if len(verb) <= 16 else verb[:15] + '…'}`", games, ssh
        )
    if not all(_WORD.fullmatch(word) for word in words):
        raise refusal("a command is plain words and numbers", games, ssh)
    if verb == "table" and len(args) == 1 and args[0].isdigit() and len(args[0]) <= 9:
        return OpenTable(str(int(args[0])))
    if verb == "table" and len(args) == 1 and is_private_id(args[0]):
        return OpenTable(args[0])
    if verb == "play" and len(args) == 1 and args[0] in games:
        return PlayGame(args[0])
    if verb == "play" and len(args) == 2 and args[0] in games and args[1] == "private":
        return PlayGame(args[0], private=True)
    if verb == "join" and len(args) == 1:
        return JoinCode(args[0])  # any word: a wrong code is told so after the rate limit
    if verb == "status" and not args:
        return Status()
    if verb == "ratings" and not args:
        return ShowRatings()
    if verb == "ratings" and len(args) == 1 and args[0] in games:
        return ShowRatings(args[0])
    if verb == "rename" and len(args) == 1:
        return Rename(words[1])  # as typed: a name keeps its capitals
    if verb == "help" and not args:
        return ShowHelp()
    if verb == "review" and len(args) == 1 and args[0].isdigit() and len(args[0]) <= 9:
        return ShowReview(str(int(args[0])))
    if verb == "review" and len(args) == 1 and is_private_id(args[0]):
        return ShowReview(args[0])  # a private table's players review it like any other
    raise refusal(f"`{verb}` is used as `{usage[verb]}`", games, ssh)
