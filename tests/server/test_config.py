"""`harena serve --config FILE` (server/commands/config.py): every serve option is a key, the command
line wins, bad values name their key, and --print-config shows what is in force."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import asyncssh
import pytest

from harena.server.commands.cli import build_parser, main, parse_args
from harena.server.commands.config import ConfigError, config_actions, load_config
from harena.server.common.logs import JsonFormatter


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "harena.toml"
    path.write_text(text)
    return path


def serve_args(*argv: str):
    return parse_args(["serve", *argv])


def test_the_file_sets_options_and_the_command_line_wins(tmp_path):
    config = write(
        tmp_path,
        'port = 2300\nmax-per-ip = 3\nidle_timeout = 60\ndata = "/srv/harena"\nlog-format = "json"\n',
    )
    args = serve_args("--config", str(config), "--port", "2400")
    assert args.port == 2400  # the command line wins
    assert args.max_per_ip == 3 and args.idle_timeout == 60.0 and args.data == Path("/srv/harena")
    assert args.log_format == "json"
    assert serve_args().port == 2222  # and without the file, the defaults


def test_every_serve_option_is_a_config_key_without_a_second_list(tmp_path):
    keys = set(config_actions(serve_args().serve_parser))
    assert {
        "host",
        "port",
        "keys",
        "data",
        "allow",
        "login-timeout",
        "max-per-ip",
        "input-rate",
        "input-burst",
        "idle-timeout",
        "bot-delay",
        "operators",
        "log-format",
        "archive-after",
    } <= keys
    assert "config" not in keys and "print-config" not in keys
    # An option added to serve later is a key at once, with its own type check.
    parser = build_parser()
    serve = parser.parse_args(["serve"]).serve_parser
    serve.add_argument("--max-global", type=int, default=100)
    assert load_config(write(tmp_path, "max-global = 7\n"), serve) == {"max_global": 7}
    with pytest.raises(ConfigError, match="key 'max-global': expected an integer, got 'many'"):
        load_config(write(tmp_path, 'max-global = "many"\n'), serve)


@pytest.mark.parametrize(
    "text, message",
    [
        ("port = 'high'\n", "key 'port': expected a port number, got 'high'"),
        ("port = 22.5\n", "key 'port': expected a port number, got '22.5'"),
        ("port = 70000\n", "key 'port': a port is 0 to 65535, not 70000"),
        ("max-per-ip = 2.5\n", "key 'max-per-ip': expected an integer, got 2.5"),
        ("keys = true\n", "key 'keys': expected a string, got True"),
        ("archive-after = -1\n", "key 'archive-after': expected 0 or more, got -1"),
        ("bot-delay = true\n", "key 'bot-delay': expected a number, got True"),
        ("data = 3\n", "key 'data': expected a string, got 3"),
        ("log-format = 'xml'\n", "key 'log-format': 'xml' is not one of text, json"),
        ("max-per-ip = [1]\n", "key 'max-per-ip': expected one value"),
        ("max-per-pi = 3\n", "unknown key 'max-per-pi' (did you mean 'max-per-ip'?)"),
        ("operator-keys = 'ssh-ed25519 AAAA'\n", "key 'operator-keys': expected a list"),
        ("port = \n", "not valid TOML"),
        ("public-address = 'a b'\n", "key 'public-address': expected a host name or address"),
        ("public-address = 'example.org:0'\n", "key 'public-address': a port is 1 to 65535"),
    ],
)
def test_bad_values_get_a_clear_error_naming_the_key(tmp_path, capsys, text, message):
    config = write(tmp_path, text)
    with pytest.raises(ConfigError, match=re.escape(message)):
        serve_args("--config", str(config))
    assert main(["serve", "--config", str(config)]) == 2
    assert message in capsys.readouterr().err


def test_a_missing_config_file_is_named(tmp_path, capsys):
    assert main(["serve", "--config", str(tmp_path / "nope.toml")]) == 2
    err = capsys.readouterr().err
    assert "cannot read config" in err and "nope.toml" in err


def test_print_config_shows_the_effective_settings_as_a_file_that_reads_back(tmp_path, capsys):
    key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode().strip()
    config = write(tmp_path, f'max-per-ip = 3\ndata = "{tmp_path}"\noperator-keys = ["{key}"]\n')
    assert main(["serve", "--config", str(config), "--port", "2500", "--print-config"]) == 0
    printed = capsys.readouterr().out
    assert (
        "port = 2500\n" in printed
        and "max-per-ip = 3\n" in printed
        and f'data = "{tmp_path}"' in printed
    )
    assert "# allow = (not set)" in printed and key in printed
    again = write(tmp_path, printed)
    args = serve_args("--config", str(again))
    assert args.port == 2500 and args.max_per_ip == 3 and args.operator_keys == [key]


def test_json_logs_carry_the_key_and_the_address_as_fields():
    record = logging.LogRecord(
        "harena.server.service.ssh_server",
        logging.INFO,
        __file__,
        1,
        "%s authenticated as %s",
        ("10.0.0.5", "SHA256:abc"),
        None,
    )
    record.event, record.address, record.key = "login", "10.0.0.5", "SHA256:abc"
    import json

    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "10.0.0.5 authenticated as SHA256:abc"
    assert (
        line["event"] == "login" and line["address"] == "10.0.0.5" and line["key"] == "SHA256:abc"
    )
    assert line["level"] == "info" and line["time"].endswith("+00:00")


def test_whether_games_with_bots_are_rated_is_an_option_and_a_config_key(tmp_path):
    assert serve_args().rate_bot_games is False
    assert serve_args("--rate-bot-games").rate_bot_games is True
    config = write(tmp_path, "rate-bot-games = true\n")
    assert serve_args("--config", str(config)).rate_bot_games is True


def test_the_address_players_type_is_an_option_and_a_config_key(tmp_path):
    assert serve_args().public_address is None  # unset: each connection's own address
    given = serve_args("--public-address", "play.example.org:2022").public_address
    assert given.command("status") == "ssh -p 2022 play.example.org status"
    config = write(tmp_path, 'public-address = "[2001:db8::1]:2200"\n')
    assert serve_args("--config", str(config)).public_address.port == 2200
