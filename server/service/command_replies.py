"""What the server does with each accepted `ssh host COMMAND` (core/commands.py parses them).

`status`, `ratings` and `help` print text and exit: no terminal, no app; so do `rename` and
`review` (a finished table's review: the search bot's part is awaited, off the loop), or say on
stderr why not. `table N` and `play GAME` start
the usual app on a table: `check_start` says beforehand why one cannot (so the player reads it
on stderr, not in a TUI), and `start_table` gives the table the app opens. A line that tells the
player a command to type names this server as they reach it (`server/transport/ssh_address.py`).
"""

from __future__ import annotations

from collections.abc import Callable

from harena.core.clocks import waited
from harena.core.commands import (
    NAME_NOTE,
    Command,
    JoinCode,
    OpenTable,
    PlayGame,
    ShowHelp,
    ShowRatings,
    ShowReview,
    Status,
    command_list,
)
from harena.core.engine import IllegalAction, available_games, default_players, game_class
from harena.core.lobby import Lobby
from harena.core.players import NameRefused
from harena.core.privacy import Privacy
from harena.core.table_like import TableLike
from harena.server.common.limits import CodeGuard
from harena.server.transport.ssh_address import SshAddress
from harena.tui.review_text import reviewable, seats_reviewed, table_review_text

PLAY_TABLES_PER_KEY = 3
"""Tables in play a key may have created (through `play` or the lobby) before `play` refuses to
make another: one command per table would otherwise fill the server with bot tables."""
RATINGS_SHOWN = 20


def game_names() -> list[str]:
    return [game.name for game in available_games()]


def reply(
    lobby: Lobby, identity: str, command: Command, now: float, address: SshAddress
) -> str | None:
    """The text a command that needs no terminal prints; None for those that open the app."""
    if isinstance(command, Status):
        return status_text(lobby, identity, now, address)
    if isinstance(command, ShowRatings):
        return ratings_text(lobby, identity, command.game)
    if isinstance(command, ShowHelp):
        listed = command_list(game_names(), address.command())
        return f"harena: accepted commands:\n{listed}\n{NAME_NOTE}"
    return None


async def review(
    lobby: Lobby,
    identity: str,
    command: ShowReview,
    address: SshAddress,
    *,
    unicode: bool = True,
    on_progress: Callable[[float], None] | None = None,
) -> tuple[bool, str]:
    """`review N`: (True, the review printed) for a finished table, or (False, why not).

    A player sees their own seat's turning points, and every seat's at a table whose creator
    allowed the bot's advice; anyone else, the course only (a finished game hides nothing)."""
    table = lobby.tables.get(command.table_id)
    if table is None or not lobby.knows(identity, table):  # a private table: as if none
        status = address.command("status")
        return False, f"harena: there is no table {command.table_id} ({status} lists yours)"
    why = reviewable(table)
    if why is not None:
        watch = address.command("table", table.id, terminal=True)
        return False, f"harena: table {table.id}: {why} ({watch} opens it)"
    seat = table.seat_of(identity)
    seats = seats_reviewed(table.game.players, seat, bool(table.summary().get("hints")))
    dot = "·" if unicode else "-"
    head = f"Table {table.id} {dot} {table.game.title} {dot} how it went"
    text = await table_review_text(
        table, seats, seat, lobby.reviewer, unicode=unicode, on_progress=on_progress
    )
    return True, head + "\n\n" + text


def rename(lobby: Lobby, identity: str, name: str, *, guest: bool) -> tuple[bool, str]:
    """`rename NAME`: (True, what is printed) once the key holds NAME, or (False, why not).

    Refused while the key has a session open (its screens show the old name) or holds a seat
    at a game not over (the seat keeps the name it was taken with): a name changes between
    games, so one key never shows two names at once."""
    if guest:
        return (
            False,
            "harena: a guest's name lasts one session: connect with an SSH key to keep one",
        )
    if identity in lobby.online_names():
        return False, "harena: close your harena sessions first: they show your name"
    seated = sorted(
        (t.id for t in lobby.tables.values()
         if t.seat_of(identity) is not None and t.status in ("waiting", "playing")),
        key=_number,
    )  # fmt: skip
    if seated:
        tables = ", ".join(f"#{t}" for t in seated)
        return False, f"harena: your seat at {tables} has your name: finish or leave first"
    before = lobby.settings.get(identity, "name")
    others = set(lobby.online_names().values())
    try:
        after = lobby.settings.rename(identity, name, others=others)
    except NameRefused as refused:
        return False, f"harena: {refused}"
    return True, f"Your name is now {after}" + (f" (it was {before})." if before else ".")


def status_text(lobby: Lobby, identity: str, now: float, address: SshAddress) -> str:
    """The tables waiting for this key's decision, longest first, then its other tables (and
    the command that opens the first, through `address`)."""
    waiting = lobby.awaiting(identity, here=True)
    lines = []
    if waiting:
        count = "1 table waits" if len(waiting) == 1 else f"{len(waiting)} tables wait"
        lines.append(f"{count} for your decision:")
        for table_id, since in waiting:
            table = lobby.tables[table_id]
            lines.append(
                f"  #{table_id:<4} {_described(table, identity)} · waited {waited(now - since)}"
            )
        first = address.command("table", waiting[0][0], terminal=True)
        lines.append(f"Open the first: {first}")
    else:
        lines.append("No table is waiting for your decision.")
    waits = {table_id for table_id, _ in waiting}
    others = [
        t
        for t in lobby.tables.values()
        if t.id not in waits
        and t.seat_of(identity) is not None
        and t.status in ("waiting", "playing")
    ]
    if others:
        lines.append("Your other tables:")
        lines += [f"  #{t.id:<4} {_described(t, identity)} · {t.status}" for t in others]
    invited = lobby.invitations(identity)  # private tables (core/privacy.py): only yours
    if invited:
        lines.append("You are invited to:")
        lines += [
            f"  #{t.id:<4} {_described(t, identity)} · {address.command('table', t.id, terminal=True)}"
            for t in invited
        ]
    return "\n".join(lines)


def _described(table: TableLike, identity: str) -> str:
    """`Carthage with ann, normal bot`: the game and the others at the table, by name (a
    bot by its level)."""
    others = [
        name
        for seat, name in zip(table.seats, table.seat_names(), strict=True)
        if not seat.free and seat.identity != identity
    ]
    return table.game.title + (f" with {', '.join(others)}" if others else "")


def ratings_text(lobby: Lobby, identity: str, game: str | None) -> str:
    """Each game's leaderboard, best first (RATINGS_SHOWN places, and yours if lower)."""
    games = [g for g in available_games() if game is None or g.name == game]
    blocks = []
    for info in games:
        board = lobby.ratings.board(info.name)
        lines = [f"{info.title}: rank, rating, games, player"]
        for rank, (who, rating) in enumerate(board, start=1):
            if rank <= RATINGS_SHOWN or who == identity:
                you = " (you)" if who == identity else ""
                lines.append(
                    f"  {rank:>4}  {rating.value:>6.0f}  {rating.games:>5}  {rating.name}{you}"
                )
        if not board:
            lines.append("  nobody is rated at this game yet")
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


def check_start(lobby: Lobby, identity: str, command: Command, address: SshAddress) -> str | None:
    """Why `command` cannot open its table for `identity`, or None."""
    if isinstance(command, OpenTable) and not _known(lobby, identity, command.table_id):
        # (a private table this key may not know of: word for word what a missing one gets)
        status = address.command("status")
        return f"harena: there is no table {command.table_id} ({status} lists yours)"
    if isinstance(command, PlayGame):
        mine = [
            t.id
            for t in lobby.tables.values()
            if t.creator == identity and t.status in ("waiting", "playing")
        ]
        if len(mine) >= PLAY_TABLES_PER_KEY:
            listed = " ".join(f"#{t}" for t in sorted(mine, key=_number))
            return (
                f"harena: you have {len(mine)} tables in play already ({listed}): "
                f"finish one, or open one with {address.command('table', 'N', terminal=True)}"
            )
    return None


def _known(lobby: Lobby, identity: str, table_id: str) -> bool:
    table = lobby.tables.get(table_id)
    return table is not None and lobby.knows(identity, table)


WRONG_CODE = "harena: that code opens no table: check it with whoever sent it"
"""What a wrong, revoked or expired code gets, alike: which one it was is nobody's business."""
TOO_MANY_CODES = "harena: too many codes tried: wait {seconds} s and try again"


def check_join(
    lobby: Lobby, identity: str, command: JoinCode, guard: CodeGuard, address: str
) -> str | None:
    """Why `join CODE` cannot seat `identity` (connected from `address`), or None: the try is
    counted first (per key and per address), and a try refused there is not looked up."""
    if not guard.admit(identity, address):
        return TOO_MANY_CODES.format(seconds=max(1, round(guard.wait(identity, address))))
    if lobby.table_with_code(command.code) is None:
        return WRONG_CODE
    return None


def start_table(lobby: Lobby, identity: str, name: str, command: Command) -> str | None:
    """The table the app opens for `command`: table N, a new one with bots for `play`, or
    the one a code seats the player at (None: the code stopped working meanwhile: the lobby)."""
    if isinstance(command, OpenTable):
        return command.table_id
    if isinstance(command, JoinCode):
        table = lobby.table_with_code(command.code)
        if table is None:
            return None
        try:
            table.join_by_code(identity, name, command.code)
        except IllegalAction:
            return None
        return table.id
    assert isinstance(command, PlayGame)
    bots = game_class(command.game).bots
    players = max(default_players(command.game), 2)
    table = lobby.create_table(
        identity,
        name,
        command.game,
        players,
        bots=players - 1,
        bot_kind="heuristic" if "heuristic" in bots else "random",
        privacy=Privacy() if command.private else None,
    )
    return table.id


def _number(table_id: str) -> tuple[int, str]:
    return (int(table_id), table_id) if table_id.isdigit() else (0, table_id)
