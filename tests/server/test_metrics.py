"""`harena serve --metrics` (issue 39, operators can see it): a real server scraped while real
SSH clients come, press keys, are refused and go; each figure moves as it should. No timings are
asserted, only that what was timed was counted."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from harena.core.engine import new_game
from harena.core.notices import Notice
from harena.core.search.bot import SearchBot
from harena.server.commands.cli import build_parser, parse_args
from harena.server.commands.config import render_config
from harena.server.operations.metrics_http import MetricsAddress, metrics_address
from harena.server.transport.hostkey import fingerprint
from tests.server.metrics_scrape import get, scrape, scrape_until
from tests.server.players import new_key, player
from tests.server.test_hostile import REFUSED

ANY_PORT = MetricsAddress("127.0.0.1", 0)
SESSION_STATES = ("lobby", "seated", "watching")


def sessions(figures) -> dict[str, float]:
    return {state: figures("harena_sessions", state=state) for state in SESSION_STATES}


async def test_the_figures_follow_players_who_come_press_keys_are_refused_and_go(make_server):
    server = await make_server(metrics=ANY_PORT, max_per_key=1)
    before = await scrape(server)
    assert sessions(before) == {"lobby": 0, "seated": 0, "watching": 0}
    assert before("harena_connections_total") == 0 and before("harena_sent_bytes_total") == 0

    key = new_key()
    ann = await player(server, "ann", key)
    await ann.wait_for_text("you are ann")
    came = await scrape(server)
    assert sessions(came) == {"lobby": 1, "seated": 0, "watching": 0}
    assert came("harena_connections_total") == 1 and came("harena_connections_open") == 1
    assert came("harena_sent_bytes_total") > 0
    assert came("harena_screen_build_seconds_count") > 0

    keys_timed = came("harena_keypress_to_screen_seconds_count")
    ann.send("c")  # the chat line opens: a key, then a screen
    await ann.wait_for_text("Enter sends")
    pressed = await scrape(server)
    assert pressed("harena_keypress_to_screen_seconds_count") > keys_timed
    assert pressed("harena_sent_bytes_total") > came("harena_sent_bytes_total")

    with pytest.raises(REFUSED):
        await player(server, "ann", key)  # one connection per key here
    refused = await scrape(server)
    assert refused("harena_refusals_total", reason="max_per_key") == 1
    assert refused("harena_refusals_total", reason="max_per_ip") == 0
    assert refused("harena_connections_total") == 2

    server.lobby.create_table(fingerprint(key), "ann", "carthage", 2)
    seated = await scrape(server)
    assert sessions(seated) == {"lobby": 0, "seated": 1, "watching": 0}
    assert seated("harena_tables", game="carthage", state="waiting") == 1

    await ann.close()
    gone = await scrape_until(server, lambda f: sum(sessions(f).values()) == 0, "ann gone")
    assert gone("harena_connections_open") == 0
    assert gone("harena_tables", game="carthage", state="waiting") == 1  # her seat is kept
    await scrape_until(server, lambda f: f("harena_event_loop_lag_seconds_count") > 0, "a lag")


async def test_each_server_has_its_own_registry_and_serves_only_metrics(make_server):
    first = await make_server(data="one", metrics=ANY_PORT)
    second = await make_server(data="two", metrics=ANY_PORT)
    ann = await player(first, "ann", new_key())
    await ann.wait_for_text("you are ann")
    assert (await scrape(first))("harena_connections_total") == 1
    assert (await scrape(second))("harena_connections_total") == 0
    assert second.metrics_endpoint is not None
    port = second.metrics_endpoint.port
    status, _, _ = await get(port, "/")
    assert status == "HTTP/1.1 404 Not Found"
    status, content_type, body = await get(port, accept="application/openmetrics-text")
    assert content_type.startswith("application/openmetrics-text") and body.endswith(b"# EOF\n")
    await ann.close()


async def test_without_the_option_nothing_listens_and_nothing_is_measured(make_server):
    server = await make_server()
    assert server.metrics_endpoint is None
    ann = await player(server, "ann", new_key())
    await ann.wait_for_text("you are ann")
    session = next(iter(server.all_sessions()))
    assert session._driver is not None and session._driver.on_paint is None
    await ann.close()


async def test_a_bot_thought_and_its_fallback_are_counted_by_reason(make_server):
    server = await make_server(metrics=ANY_PORT)
    assert server.bots is not None and server.bots.workers is not None
    workers = server.bots.workers
    game = new_game("carthage", 2, 3)
    workers.grace = -workers.seconds + 0.01  # the cap comes before the thought can
    thought = await workers.decide(game, game.awaited()[0], SearchBot(7))
    assert thought.fell_back == "timeout"
    figures = await scrape(server)
    assert figures("harena_bot_think_seconds_count") == 1
    assert figures("harena_bot_fallbacks_total", reason="timeout") == 1
    assert figures("harena_bot_fallbacks_total", reason="died") == 0


async def test_notices_sent_and_given_up_are_counted_by_channel(make_server):
    server = await make_server(metrics=ANY_PORT)
    runner = server.notices
    runner.config = dataclasses.replace(runner.config, retry_delays=())
    notice = Notice("SHA256:ann", "ann", (), 0.0)

    def unreachable() -> None:
        raise OSError("connection refused")

    await runner._deliver("webhook", notice, lambda: None)
    await runner._deliver("email", notice, unreachable)
    figures = await scrape(server)
    assert figures("harena_notices_sent_total", channel="webhook") == 1
    assert figures("harena_notices_sent_total", channel="email") == 0
    assert figures("harena_notices_failed_total", channel="email") == 1


def test_metrics_is_an_option_and_a_config_key_that_prints_back(tmp_path):
    args = parse_args(["serve", "--metrics", "0.0.0.0:9100"])
    assert args.metrics == MetricsAddress("0.0.0.0", 9100)
    assert parse_args(["serve"]).metrics is None  # off by default
    config = tmp_path / "harena.toml"
    config.write_text('metrics = "[::1]:9101"\n')
    args = parse_args(["serve", "--config", str(config)])
    assert args.metrics == MetricsAddress("::1", 9101)
    assert 'metrics = "[::1]:9101"' in render_config(args, args.serve_parser)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--metrics", "9100"])
    assert metrics_address("127.0.0.1:9100").shifted(2) == MetricsAddress("127.0.0.1", 9102)


async def test_a_short_load_of_players_at_once_is_counted_whole(make_server):
    server = await make_server(metrics=ANY_PORT)
    keys = [new_key() for _ in range(5)]
    names = ["ann", "bob", "cid", "dan", "eve"]
    clients = await asyncio.gather(
        *(player(server, n, k) for n, k in zip(names, keys, strict=True))
    )
    await asyncio.gather(
        *(c.wait_for_text(f"you are {n}") for c, n in zip(clients, names, strict=True))
    )
    table = server.lobby.create_table(fingerprint(keys[0]), "ann", "carthage", 2)
    table.sit(fingerprint(keys[1]), "bob")
    table.watch(fingerprint(keys[2]), "cid")
    figures = await scrape(server)
    assert sessions(figures) == {"lobby": 2, "seated": 2, "watching": 1}
    assert figures("harena_tables", game="carthage", state="playing") == 1
    timed = figures("harena_keypress_to_screen_seconds_count")
    for client in clients[3:]:
        client.send("c")
    await asyncio.gather(*(c.wait_for_text("Enter sends") for c in clients[3:]))
    pressed = await scrape(server)
    assert pressed("harena_keypress_to_screen_seconds_count") >= timed + 2
    await asyncio.gather(*(c.close() for c in clients))
    gone = await scrape_until(server, lambda f: sum(sessions(f).values()) == 0, "all gone")
    assert gone("harena_connections_total") == 5 and gone("harena_connections_open") == 0


def test_a_metrics_port_already_taken_stops_the_start_with_a_clear_message(tmp_path, capsys):
    import socket

    from harena.server.commands.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        argv = ["serve", "--port", "0", "--keys", str(tmp_path / "keys"), "--data", str(tmp_path)]
        status = main([*argv, "--metrics", f"127.0.0.1:{port}", "--bot-workers", "0"])
    assert status == 1
    assert f"harena: cannot serve metrics on 127.0.0.1:{port}" in capsys.readouterr().err
