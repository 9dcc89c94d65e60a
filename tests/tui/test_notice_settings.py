"""The lobby's notice settings (key `a`, tui/screens/notices.py): a key registers where to be
told while away; bad values are refused in the form; guests and servers without notices say
why."""

from __future__ import annotations

from harena.core.lobby import Lobby
from harena.tui.screens.lobby import LobbyScreen
from harena.tui.screens.notices import NoticeSettingsScreen
from tests.tui.harness import screen_text, session, until


def lobby_with(channels: tuple[str, ...]) -> Lobby:
    lobby = Lobby()
    lobby.notice_channels = channels
    return lobby


async def test_a_player_registers_a_webhook_and_an_email_kept_for_the_key() -> None:
    lobby = lobby_with(("webhook", "email"))
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        await pilot.press("a")
        assert isinstance(app.screen, NoticeSettingsScreen)
        text = screen_text(app)
        assert "Notices while you are away" in text and "E-mail" in text
        assert "After minutes" in text and "At most a day" in text
        await pilot.press(*"https://ntfy.sh/#ann", "tab", *"ann@example.org")
        await pilot.press("tab", "ctrl+u", *"30", "tab", "ctrl+u", "1", "enter")
        await until(lambda: isinstance(app.screen, LobbyScreen))
        # the save says what was saved (issue 36)
        assert "Saved: webhook ntfy.sh, e-mail ann@example.org; after 30 min, at most 1/day" in (
            screen_text(app)
        )
    get = lobby.settings.get
    assert get("id-ann", "notice_webhook") == "https://ntfy.sh/#ann"
    assert get("id-ann", "notice_email") == "ann@example.org"
    assert (get("id-ann", "notice_after"), get("id-ann", "notice_daily")) == (30, 1)


async def test_a_bad_address_is_refused_in_the_form_and_nothing_is_kept() -> None:
    lobby = lobby_with(("webhook",))
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        await pilot.press("a")
        assert "E-mail" not in screen_text(app)  # the server has no mail server
        assert "this server sends no e-mail" in screen_text(app)
        await pilot.press(*"ftp://x", "enter")
        assert isinstance(app.screen, NoticeSettingsScreen)
        assert "Error: a webhook URL starts with https://" in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, LobbyScreen)
    assert lobby.settings.get("id-ann", "notice_webhook") == ""


async def test_guests_and_servers_without_notices_are_told_why() -> None:
    async with session(lobby_with(()), "id-ann", "ann") as (app, pilot):
        await pilot.press("a")
        assert isinstance(app.screen, LobbyScreen)
        assert "this server sends no notices" in screen_text(app)
    async with session(lobby_with(("webhook",)), "guest:1", "ann", guest=True) as (app, pilot):
        await pilot.press("a")
        assert "guests get no notices" in screen_text(app)


async def test_an_emptied_field_shows_what_empty_means_and_saves_the_default() -> None:
    """Issue 36: an emptied "After minutes" showed "15", which looks like a value."""
    lobby = lobby_with(("webhook",))
    lobby.settings.set("id-ann", "notice_after", 45, persist=False)
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        await pilot.press("a")
        await pilot.press("tab", "ctrl+u")  # after minutes, emptied
        assert "(empty: 15)" in screen_text(app)
        assert "(none: paste an https:// URL)" in screen_text(app)
        await pilot.press("enter")
        await until(lambda: isinstance(app.screen, LobbyScreen))
        assert "Saved: no notices while you are away" in screen_text(app)
    assert lobby.settings.get("id-ann", "notice_after") == 15
