"""Invitations to a private table (lobby key `i`, for its creator): people by name, and codes.

The creator invites someone online by the key beside their name (1-9), or types a name (`t`);
`c` makes a share code to send by other means (`ssh -t host join CODE` seats its holder) and `r`
revokes every code. The screen only calls the `Guests` it was given and shows what they
answer; `guests_of` makes them over the table and the lobby.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Static

from harena.core.plural import counted
from harena.tui.screens.dialog import DialogScreen
from harena.tui.widgets.key_bar import KEY_STYLE

if TYPE_CHECKING:
    from harena.core.table_like import TableLike
    from harena.tui.app import HarenaApp

LISTED = 9  # people online offered by a key (1-9); others are typed


@dataclass
class Guests:
    """What the screen may ask and do: each action answers the line to show (or raises
    ValueError / IllegalAction, shown as an error)."""

    title: str  # `table pk3m9x2q (High Card)`
    invited: Callable[[], list[str]]  # names invited so far
    codes: Callable[[], list[str]]  # the codes that work now
    online: Callable[[], list[str]]  # names online who could be invited
    invite: Callable[[str], str]  # a name -> what happened
    new_code: Callable[[], str]
    revoke: Callable[[], str]
    join_command: Callable[[str], str]  # a code -> the command its holder types


class InviteScreen(DialogScreen[None]):
    DEFAULT_CSS = """
    InviteScreen > Vertical {
        width: 76;
    }
    InviteScreen #name {
        display: none;
    }
    """

    BINDINGS = [
        Binding("t", "type_name", "type a name", show=False),
        Binding("c", "new_code", "new code", show=False),
        Binding("r", "revoke", "revoke codes", show=False),
        Binding("escape", "close", "close", show=False),
    ]

    def __init__(self, guests: Guests) -> None:
        super().__init__()
        self.guests = guests
        self._said: Content = Content("")
        self._listed: list[str] = []

    def compose(self) -> ComposeResult:
        with Vertical() as frame:
            frame.border_title = "Invite"
            yield Static(id="guests")
            name = Input(placeholder="a name, then Enter", compact=True, id="name")
            name.cursor_blink = False
            yield name

    def on_mount(self) -> None:
        self._draw()

    def _draw(self) -> None:
        guests = self.guests
        invited = ", ".join(guests.invited()) or "nobody yet"
        codes = guests.codes()
        self._listed = guests.online()[:LISTED]
        lines = [
            Content.styled(f"Invite people to {guests.title}", "bold"),
            Content(f"Invited: {invited}"),
        ]
        if codes:
            lines += [Content("Share code (send it; it seats whoever holds it):")]
            lines += [Content(f"  {guests.join_command(code)}") for code in codes]
        else:
            lines.append(Content("No share code works now (c makes one)."))
        lines.append(Content(""))
        if self._listed:
            lines.append(Content("Online:"))
            lines += [
                Content.assemble((f" {k} ", KEY_STYLE), f" {name}")
                for k, name in enumerate(self._listed, start=1)
            ]
        else:
            lines.append(Content("Nobody else is online: type a name (t)."))
        lines += [
            Content(""),
            Content.assemble(
                ("1-9", KEY_STYLE),
                " invite  ",
                ("t", KEY_STYLE),
                " type a name  ",
                ("c", KEY_STYLE),
                " new code  ",
                ("r", KEY_STYLE),
                " revoke codes  ",
                ("Esc", KEY_STYLE),
                " close",
            ),
            self._said,
        ]
        self.query_one("#guests", Static).update(Content("\n").join(lines))

    def _do(self, action: Callable[[], str]) -> None:
        try:
            said = Content(action())
        except Exception as error:  # IllegalAction, ValueError: the reason is for the player
            said = Content.assemble(("Error:", "bold reverse"), f" {error}")
        self._said = said
        self._draw()

    def on_key(self, event: events.Key) -> None:
        character = event.character
        if isinstance(self.focused, Input):
            return
        if character and character.isdigit() and 1 <= int(character) <= len(self._listed):
            event.stop()
            name = self._listed[int(character) - 1]
            self._do(lambda: self.guests.invite(name))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        name = event.value.strip()
        event.input.clear()
        event.input.display = False  # one name a time: `t` again types the next
        self.set_focus(None)
        if name:
            self._do(lambda: self.guests.invite(name))

    def action_type_name(self) -> None:
        name = self.query_one("#name", Input)
        name.display = True
        name.focus()

    def action_new_code(self) -> None:
        self._do(self.guests.new_code)

    def action_revoke(self) -> None:
        self._do(self.guests.revoke)

    def action_close(self) -> None:
        name = self.query_one("#name", Input)
        if name.has_focus:
            name.display = False
            self.set_focus(None)
            return
        self.dismiss(None)


def guests_of(table: TableLike, app: HarenaApp) -> Guests:
    """The `Guests` of `table` as its creator in `app` changes them. A table another node
    runs hears of its own changes a moment later (the cluster's registry): what this dialog
    did shows at once all the same."""
    lobby, me = app.lobby, app.identity
    # made (or revoked) here, maybe not heard back yet
    done: dict[str, list[str]] = {"invited": [], "codes": [], "revoked": []}

    def invited() -> list[str]:
        names = list(table.privacy.invited.values()) if table.privacy is not None else []
        return names + [name for name in done["invited"] if name not in names]

    def codes() -> list[str]:
        known = table.privacy.codes if table.privacy is not None else {}
        live = [code for code, valid in known.items() if valid and code not in done["revoked"]]
        return live + [code for code in done["codes"] if code not in known]

    def online() -> list[str]:
        guests = table.privacy.invited if table.privacy is not None else {}
        return sorted(
            name
            for identity, name in lobby.online_names().items()
            if identity != me and identity not in guests and table.seat_of(identity) is None
        )

    def invite(name: str) -> str:
        identity = lobby.identity_named(name)
        if identity is None:
            raise ValueError(f"nobody called {name} is known on this server")
        if identity == me:
            raise ValueError("that is you")
        shown = lobby.online_names().get(identity) or lobby.settings.get(identity, "name") or name
        table.invite(me, identity, shown)
        done["invited"].append(shown)
        return f"{shown} is invited: table {table.id} is in their lobby now"

    def new_code() -> str:
        done["codes"].append(table.add_code(me))
        return "A new code: send it by mail or chat; it works until you revoke it"

    def revoke() -> str:
        count = table.revoke_codes(me)
        done["revoked"] += [*done["codes"], *(table.privacy.codes if table.privacy else {})]
        done["codes"].clear()
        return f"{counted(count, 'code')} revoked" if count else "no code was working"

    def join_command(code: str) -> str:
        ssh, _, target = app.ssh.partition(" ")
        return f"{ssh} -t {target} join {code}" if ssh else f"join {code}"

    title = f"table {table.id} ({table.game.title.split(':')[0]})"
    return Guests(title, invited, codes, online, invite, new_code, revoke, join_command)
