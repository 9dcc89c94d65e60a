"""Notices delivered to players who are away (server/notices/delivery.py), against a real local HTTP
server and a real local SMTP server (tests/server/local_services.py)."""

from __future__ import annotations

import asyncio
import logging

from harena.core.lobby import Lobby
from harena.core.store import Store
from harena.server.notices.delivery import NoticeConfig, NoticeRunner
from tests.server.local_services import smtp_server, webhook_server

MIN = 60.0


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def config(**kw) -> NoticeConfig:
    defaults = {
        "private_addresses": True,  # the test servers listen on 127.0.0.1
        "retry_delays": (0.05, 0.1),
        "timeout": 2.0,
        "connect": "ssh -t -p 2222 games.example.org",
    }
    return NoticeConfig(**(defaults | kw))


def lobby_waiting_for_ann(clock: Clock, store: Store | None = None, seed: int = 7) -> Lobby:
    """ann sits at a High Card table with a bot; every round waits for her card."""
    lobby = Lobby(store, clock=clock, new_seed=lambda: seed)
    lobby.create_table("ann-key", "ann", "highcard", 2, bots=1)
    assert lobby.awaiting("ann-key")
    return lobby


async def test_a_player_away_gets_one_webhook_post_per_wait_with_the_documented_payload():
    clock = Clock()
    lobby = lobby_waiting_for_ann(clock)
    with webhook_server() as hook:
        lobby.settings.set("ann-key", "notice_webhook", hook.url + "#ann-topic")
        runner = NoticeRunner(lobby, config(), clock=clock)
        clock.now += 10 * MIN
        assert runner.check() == []  # not 15 minutes yet
        clock.now += 10 * MIN
        assert len(runner.check()) == 1
        await runner.drain()
        assert runner.check() == []  # the same wait: told already
        await runner.drain()
    assert hook.paths == ["/hook/secret"]  # the fragment is not sent: it is ntfy's topic
    (body,) = hook.posts
    assert body["topic"] == "ann-topic"
    assert body["text"] == (
        "Table #1 (High Card) has waited 20 min for your decision.\n"
        "Play: ssh -t -p 2222 games.example.org table 1"
    )
    assert body["tables"][0]["id"] == "1" and body["tables"][0]["waited_seconds"] == 1200
    assert body["player"] == "ann"
    assert runner.delivered and not runner.failed


async def test_no_notice_while_the_player_is_connected():
    clock = Clock()
    lobby = lobby_waiting_for_ann(clock)
    with webhook_server() as hook:
        lobby.settings.set("ann-key", "notice_webhook", hook.url)
        runner = NoticeRunner(lobby, config(), clock=clock)
        lobby.connect("ann-key", "ann")
        clock.now += 30 * MIN
        assert runner.check() == []
        lobby.disconnect("ann-key")
        assert len(runner.check()) == 1
        await runner.drain()
    assert len(hook.posts) == 1


async def test_the_daily_cap_holds_across_tables_and_moves():
    clock = Clock()
    lobby = lobby_waiting_for_ann(clock)
    with webhook_server() as hook:
        lobby.settings.set("ann-key", "notice_webhook", hook.url)
        runner = NoticeRunner(lobby, config(), clock=clock)
        for move in range(3):  # three waits, an hour apart (High Card: three rounds)
            clock.now += 3600
            runner.check()
            await runner.drain()
            if move < 2:
                clock.now += MIN
                table = lobby.table("1")
                table.act("ann-key", table.game.prompts_for(0)[0].choices[0].id)
                clock.now += MIN
                table.play_bot(1)  # the round ends: a new wait for ann
        assert len(hook.posts) == 2  # the default cap: 2 a day
        clock.now += 86400
        runner.check()
        await runner.drain()
        assert len(hook.posts) == 3


async def test_a_failing_webhook_is_retried_with_back_off_and_logged(caplog):
    clock = Clock()
    lobby = lobby_waiting_for_ann(clock)
    caplog.set_level(logging.WARNING, "harena.server.notices.delivery")
    with webhook_server() as hook:
        hook.statuses = [500, 503]
        lobby.settings.set("ann-key", "notice_webhook", hook.url)
        runner = NoticeRunner(lobby, config(), clock=clock)
        clock.now += 20 * MIN
        runner.check()
        await runner.drain()
    assert hook.attempts == 3 and len(hook.posts) == 1
    records = [r for r in caplog.records if r.name == "harena.server.notices.delivery"]
    assert [r.getMessage().split(":")[0] for r in records if r.levelname == "WARNING"] == [
        "notice to ann-key by webhook failed (attempt 1)",
        "notice to ann-key by webhook failed (attempt 2)",
    ]


async def test_a_dead_webhook_is_given_up_and_never_holds_up_the_game(caplog):
    clock = Clock()
    lobby = lobby_waiting_for_ann(clock)
    with webhook_server() as hook:
        hook.hold.clear()  # the server takes the POST and does not answer
        lobby.settings.set("ann-key", "notice_webhook", hook.url)
        runner = NoticeRunner(lobby, config(timeout=0.3), clock=clock)
        clock.now += 20 * MIN
        assert len(runner.check()) == 1  # returns at once: delivery runs in its own task
        await asyncio.sleep(0.05)
        assert hook.attempts == 1 and not runner.delivered
        table = lobby.table("1")  # meanwhile the game goes on
        table.act("ann-key", table.game.prompts_for(0)[0].choices[0].id)
        assert lobby.awaiting("ann-key") == [] and not runner.failed  # still trying
        await runner.drain()
    assert hook.attempts == 3
    assert len(runner.failed) == 1 and not runner.delivered
    assert "failed 3 times, given up" in caplog.text


async def test_a_webhook_into_a_private_network_is_refused_unless_the_operator_allows_it():
    clock = Clock()
    lobby = lobby_waiting_for_ann(clock)
    with webhook_server() as hook:
        lobby.settings.set("ann-key", "notice_webhook", hook.url)
        runner = NoticeRunner(lobby, NoticeConfig(retry_delays=(0.01,), timeout=1.0), clock=clock)
        clock.now += 20 * MIN
        runner.check()
        await runner.drain()
    assert hook.attempts == 0 and len(runner.failed) == 1


async def test_an_email_goes_through_the_operators_smtp_server():
    clock = Clock()
    lobby = lobby_waiting_for_ann(clock)
    with smtp_server() as (port, mailbox):
        lobby.settings.set("ann-key", "notice_email", "ann@example.org")
        runner = NoticeRunner(lobby, config(smtp_host="127.0.0.1", smtp_port=port), clock=clock)
        clock.now += 2 * 3600
        runner.check()
        await runner.drain()
    ((recipients, message),) = mailbox.messages
    assert recipients == ["ann@example.org"]
    assert message["Subject"] == "harena: table #1 is waiting for you"
    assert message["From"] == "harena@localhost"
    body = message.get_payload()
    assert "Table #1 (High Card) has waited 2 h for your decision." in body


async def test_no_email_without_smtp_and_nothing_when_the_operator_turns_notices_off():
    clock = Clock()
    lobby = lobby_waiting_for_ann(clock)
    lobby.settings.set("ann-key", "notice_email", "ann@example.org")
    clock.now += 3600
    assert NoticeRunner(lobby, config(), clock=clock).check() == []  # no SMTP server set
    with webhook_server() as hook:
        lobby.settings.set("ann-key", "notice_webhook", hook.url)
        off = NoticeRunner(lobby, config(enabled=False), clock=clock)
        assert off.config.channels == () and off.check() == []
    assert config().channels == ("webhook",)
    assert config(smtp_host="mail").channels == ("webhook", "email")


async def test_a_restart_sends_nothing_twice(tmp_path):
    clock = Clock()
    store = Store(tmp_path)
    lobby = lobby_waiting_for_ann(clock, store)
    with webhook_server() as hook:
        lobby.settings.set("ann-key", "notice_webhook", hook.url)
        clock.now += 20 * MIN
        first = NoticeRunner(lobby, config(), clock=clock)
        first.check()
        await first.drain()
        lobby.close()
        again = Lobby.open(Store(tmp_path), clock=clock)
        assert NoticeRunner(again, config(), clock=clock).check() == []
    assert len(hook.posts) == 1


async def test_the_text_tells_nothing_hidden():
    """Two tables alike in everything public, their hidden hands dealt from other seeds, give
    the same notice, byte for byte."""
    bodies = []
    for seed in (1, 2):
        clock = Clock()
        lobby = lobby_waiting_for_ann(clock, seed=seed)
        with webhook_server() as hook:
            lobby.settings.set("ann-key", "notice_webhook", hook.url)
            runner = NoticeRunner(lobby, config(), clock=clock)
            clock.now += 20 * MIN
            runner.check()
            await runner.drain()
        hands = lobby.table("1").game.state.hands
        bodies.append((hook.posts[0], hands))
    (first, hands1), (second, hands2) = bodies
    assert hands1 != hands2
    assert first == second


def test_serve_options_make_the_notice_config(tmp_path):
    from harena.server.commands.cli import parse_args
    from harena.server.commands.notices_cli import notice_config

    secret = tmp_path / "smtp-password"
    secret.write_text("s3cret\n")
    args = parse_args(
        ["serve", "--smtp-host", "mail.example.org", "--smtp-port", "587", "--smtp-starttls",
         "--smtp-user", "harena", "--smtp-password-file", str(secret),
         "--notice-connect", "ssh -t -p 2222 games.example.org"]
    )  # fmt: skip
    got = notice_config(args)
    assert (got.smtp_host, got.smtp_port, got.smtp_starttls) == ("mail.example.org", 587, True)
    assert (got.smtp_user, got.smtp_password) == ("harena", "s3cret")
    assert got.channels == ("webhook", "email") and got.connect.endswith("example.org")
    assert notice_config(parse_args(["serve", "--no-notices"])).channels == ()


def test_notices_say_the_public_address_unless_told_otherwise():
    """One address for players, given once: `--public-address` is what notices say too, and
    `--notice-connect` still overrides it (docs/server.md)."""
    from harena.server.commands.cli import parse_args
    from harena.server.commands.notices_cli import notice_config

    public = ["serve", "--public-address", "games.example.org:2222"]
    assert notice_config(parse_args(public)).connect == "ssh -t -p 2222 games.example.org"
    told = notice_config(parse_args([*public, "--notice-connect", "see example.org/play"]))
    assert told.connect == "see example.org/play"
    assert notice_config(parse_args(["serve"])).connect == ""


async def test_an_invitation_to_a_private_table_is_told_to_the_invited_while_away_only():
    """Issue 41: an invited person who is away hears of the invitation in their notice; nobody
    else's notice names the private table."""
    from harena.core.privacy import Privacy

    clock = Clock()
    lobby = lobby_waiting_for_ann(clock)
    table = lobby.create_table("cat-key", "cat", "carthage", 2, privacy=Privacy())
    with webhook_server() as hook:
        lobby.settings.set("bob-key", "notice_webhook", hook.url)
        lobby.settings.set("ann-key", "notice_webhook", hook.url)
        runner = NoticeRunner(lobby, config(), clock=clock)
        lobby.connect("bob-key", "bob")
        table.invite("cat-key", "bob-key", "bob")
        clock.now += 20 * MIN
        sent = runner.check()
        assert [n.identity for n in sent] == ["ann-key"]  # bob is here: his lobby shows it
        lobby.disconnect("bob-key")
        (told,) = runner.check()
        await runner.drain()
        assert runner.check() == []  # told once
        await runner.drain()
    assert told.identity == "bob-key" and told.name == "bob"
    ann, bob = sorted(hook.posts, key=lambda body: body["player"])
    assert table.id not in str(ann)
    assert bob["title"] == f"harena: you are invited to table #{table.id}"
    assert bob["text"] == (
        f"You are invited to table #{table.id} (Carthage), a private table.\n"
        f"Play: ssh -t -p 2222 games.example.org table {table.id}"
    )
    assert bob["tables"][0]["invited"] is True
