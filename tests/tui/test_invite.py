"""Private tables on screen: the create form's "Who may join", the invite dialog (lobby key
`i`), and the marks an invited person sees."""

from __future__ import annotations

from harena.core.lobby import Lobby
from harena.core.privacy import Privacy
from harena.tui.screens.create_table import CreateTableScreen
from harena.tui.screens.invite import InviteScreen
from harena.tui.screens.lobby import LobbyScreen
from harena.tui.screens.table import TableScreen, idle_text
from tests.tui.harness import screen_text, session, until


async def test_the_create_form_makes_a_table_invite_only() -> None:
    lobby = Lobby()
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        await pilot.press("n")
        assert isinstance(app.screen, CreateTableScreen)
        await pilot.press("right", "up", "up")  # High Card; above the last field: who may join
        assert "Who may join" in screen_text(app) and "< anyone >" in screen_text(app)
        await pilot.press("right", "right")
        assert "invited only, nobody watches" in screen_text(app)
        await pilot.press("enter")
        assert isinstance(app.screen, TableScreen)
        (table,) = lobby.tables.values()
        assert table.privacy == Privacy("nobody")
        assert lobby.view("id-cat")["tables"] == []


async def test_the_creator_invites_by_the_online_list_and_by_typed_name_and_makes_a_code() -> None:
    lobby = Lobby()
    lobby.connect("id-bob", "bob")
    lobby.settings.set("id-dan", "name", "dan")  # known here, not online
    table = lobby.create_table("id-ann", "ann", "highcard", 3, privacy=Privacy(), sit=False)
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        assert isinstance(app.screen, LobbyScreen)
        assert "Private table" in screen_text(app)
        await pilot.press("i")
        assert isinstance(app.screen, InviteScreen)
        assert " 1  bob" in screen_text(app) and "Invited: nobody yet" in screen_text(app)
        await pilot.press("1")
        assert "bob is invited" in screen_text(app)
        await pilot.press("t", *"dan", "enter")
        assert "dan is invited" in screen_text(app)
        await pilot.press("t", *"zed", "enter")
        assert "nobody called zed" in screen_text(app)
        await pilot.press("c")
        assert table.privacy is not None
        (code,) = table.privacy.live_codes
        assert f"join {code}" in screen_text(app)
        await pilot.press("r")
        assert "1 code revoked" in screen_text(app) and code not in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, LobbyScreen)
    assert table.privacy.invited == {"id-bob": "bob", "id-dan": "dan"}


async def test_the_invited_see_the_table_marked_and_strangers_see_nothing() -> None:
    lobby = Lobby()
    table = lobby.create_table("id-ann", "ann", "highcard", 3, privacy=Privacy())
    async with session(lobby, "id-bob", "bob") as (app, pilot):
        assert table.id not in screen_text(app)
        table.invite("id-ann", "id-bob", "bob")
        await until(lambda: "invited" in screen_text(app))
        assert "you are invited (Enter sits)" in screen_text(app)
        await pilot.press("enter")
        assert isinstance(app.screen, TableScreen) and table.seat_of("id-bob") == 1
    async with session(lobby, "id-cat", "cat") as (app, pilot):
        assert table.id not in screen_text(app) and "No tables yet" in screen_text(app)
        await pilot.press("i")
        assert "there is no table yet" in screen_text(app)


async def test_an_operator_sees_a_private_table_but_sits_or_watches_only_when_invited() -> None:
    lobby = Lobby()
    lobby.private.is_operator = lambda identity: identity == "id-op"
    table = lobby.create_table("id-ann", "ann", "highcard", 3, privacy=Privacy())
    async with session(lobby, "id-op", "olga") as (app, pilot):
        assert f"#{table.id}" in screen_text(app)
        for key in ("enter", "w"):
            await pilot.press(key)
            assert "operators see it, only the invited sit or watch" in screen_text(app)
        assert table.seat_of("id-op") is None and "id-op" not in table.spectators


async def test_the_creator_is_reminded_that_i_invites() -> None:
    lobby = Lobby()
    lobby.create_table("id-ann", "ann", "highcard", 3, privacy=Privacy(), sit=False)
    async with session(lobby, "id-ann", "ann") as (app, _pilot):
        assert "yours (i invites)" in screen_text(app)


async def test_the_creator_invites_from_the_private_tables_own_screen() -> None:
    """A private table's creator lands on its screen: the key bar says `i` invites, and `i`
    opens the invite dialog there (no trip back to the lobby)."""
    lobby = Lobby()
    lobby.connect("id-bob", "bob")
    table = lobby.create_table("id-ann", "ann", "carthage", 2, privacy=Privacy())
    async with session(lobby, "id-ann", "ann", start_table=table.id) as (app, pilot):
        await until(lambda: isinstance(app.screen, TableScreen) and "i invite" in screen_text(app))
        bar = " ".join(screen_text(app).splitlines()[-1].split())
        assert bar.endswith("Esc lobby i invite ? help")  # all of it in 80 columns
        await pilot.press("i")
        assert isinstance(app.screen, InviteScreen)
        await pilot.press("1")  # bob, online
        assert "bob is invited" in screen_text(app)
    assert "id-bob" in (table.privacy.invited if table.privacy else {})


def test_the_waiting_line_tells_the_creator_to_invite() -> None:
    view = {"table": {"status": "waiting", "seats": [{"free": False}, {"free": True}]}, "game": {}}
    assert idle_text(view, inviting=True) == (
        "Waiting for players: 1 free seat. Invite people: i (your private table)."
    )
    assert "Invite" not in idle_text(view)


async def test_an_open_tables_screen_offers_no_invitation() -> None:
    lobby = Lobby()
    table = lobby.create_table("id-ann", "ann", "highcard", 2)
    async with session(lobby, "id-ann", "ann", start_table=table.id) as (app, pilot):
        await until(lambda: isinstance(app.screen, TableScreen))
        assert "i invite" not in screen_text(app) and "Invite people" not in screen_text(app)
        await pilot.press("i")
        assert isinstance(app.screen, TableScreen)  # the review's key: the game is not over
