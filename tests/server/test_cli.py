"""The `harena` command line (server/commands/cli.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from harena.server.commands.cli import main


def harena(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("harena")
    cmd = [exe, *args] if exe else [sys.executable, "-m", "harena.server.commands.cli", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(
    "command",
    [
        [],
        ["serve"],
        ["play"],
        ["simulate"],
        ["games"],
        ["health"],
        ["admin"],
        ["export"],
        ["import"],
    ],
)
def test_every_subcommand_has_help(command):
    proc = harena(*command, "--help")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("usage: harena")


def test_games_lists_the_registered_games(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "highcard" in out and "High Card" in out and "2-4" in out and "rounds=1|2|3" in out
    assert "carthage" in out and "1-5" in out and "heuristic" in out
    assert "essedari=off|solo|coop (default off)" in out  # 1 player only in solo


def test_simulate_plays_essedari_solo_with_one_player(capsys):
    assert (
        main(
            [
                "simulate",
                "carthage",
                "--option",
                "essedari=solo",
                "--games",
                "4",
                "--bots",
                "heuristic",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "4 games, 1 players" in out and "essedari=solo" in out and "errors: 0" in out


def test_simulate_prints_speed_length_and_winners(capsys):
    assert main(["simulate", "highcard", "--games", "20", "--players", "3", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert (
        "20 games, 3 players, seed 4" in out and "games/s" in out and "wins: seat 0 (random)" in out
    )
    assert "errors: 0" in out


def test_simulate_json_is_one_object_and_the_same_seed_plays_the_same_games(capsys):
    argv = [
        "simulate",
        "highcard",
        "--games",
        "30",
        "--players",
        "2",
        "--seed",
        "9",
        "--bots",
        "random,random",
        "--json",
    ]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(argv) == 0
    second = json.loads(capsys.readouterr().out)
    keys = {
        "game",
        "games",
        "players",
        "seed",
        "bots",
        "games_per_s",
        "median_ms_per_game",
        "mean_rounds",
        "wins_by_seat",
        "errors",
    }
    assert keys <= set(first)
    assert first["bots"] == ["random", "random"] and first["errors"] == []
    assert sum(first["wins_by_seat"]) >= 30  # ties give every tied seat a win
    assert first["wins_by_seat"] == second["wins_by_seat"] and first["mean_rounds"] == 3
    main(argv[:7] + ["10"] + argv[8:])
    assert json.loads(capsys.readouterr().out)["wins_by_seat"] != first["wins_by_seat"]


def test_simulate_carthage_compares_bots_seat_against_seat(capsys):
    argv = [
        "simulate",
        "carthage",
        "--games",
        "12",
        "--players",
        "2",
        "--seed",
        "5",
        "--bots",
        "heuristic,random",
        "--json",
    ]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["wins_by_seat"] == first["wins_by_seat"]
    assert first["game"] == "carthage" and first["bots"] == ["heuristic", "random"]
    assert sum(first["wins_by_seat"]) == 12 and first["errors"] == []  # one winner per game
    assert first["options"]["sudden_death"] == "10"  # Carthage's simulation default, reported
    assert first["label_kind"] == "gladiator" and sum(first["wins_by_label"].values()) == 12


def test_simulate_carthage_prints_the_options_it_played(capsys):
    argv = [
        "simulate",
        "carthage",
        "--games",
        "3",
        "--players",
        "3",
        "--bots",
        "heuristic",
        "--option",
        "sudden_death=off",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert (
        "options: beasts=off, equipment=off, essedari=off, gladiators=choose, legends=off, sudden_death=off, teams=off, tokens=first_match"
        in out
    )
    assert "errors: 0" in out


def test_simulate_carthage_plays_a_team_mode_with_its_player_count(capsys):
    # rulebook: Player Modes, 2 VS 2 "In this 4 player game"
    assert (
        main(
            ["simulate", "carthage", "--games", "2", "--option", "teams=2v2", "--bots", "heuristic"]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "2 games, 4 players" in out and "teams=2v2" in out and "errors: 0" in out
    argv = ["simulate", "carthage", "--games", "2", "--players", "4", "--option", "teams=2v3"]
    assert main(argv) == 2
    assert "Carthage 2 vs 3 (teams=2v3) needs 5 players, not 4" in capsys.readouterr().err


def test_simulate_spartacus_prints_winners_by_house(capsys):
    argv = [
        "simulate",
        "spartacus",
        "--games",
        "3",
        "--players",
        "3",
        "--seed",
        "2",
        "--bots",
        "heuristic",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "3 games, 3 players, seed 2" in out and "errors: 0" in out
    line = next(line for line in out.splitlines() if "wins by house:" in line)
    assert sum(int(part.split()[-1]) for part in line.split(":", 1)[1].split(",")) >= 3
    assert any(house in line for house in ("Batiatus", "Glaber", "Solonius", "Tullius"))


def test_simulate_spartacus_json_counts_offers_trades_and_bank_sales_per_bot_kind(capsys):
    """issue 16: offers sent, trades done (each side), Bank sales, bribes paid (gifts and asks
    paid) and asks made, per bot kind."""
    argv = [
        "simulate",
        "spartacus",
        "--games",
        "4",
        "--players",
        "4",
        "--seed",
        "3",
        "--bots",
        "heuristic,random,heuristic,random",
        "--json",
    ]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    stats = report["stats_by_bot"]
    assert set(stats) == {"heuristic", "random"}
    assert all(
        set(counts) == {"offers", "trades", "bank_sales", "bribes", "asks"}
        for counts in stats.values()
    )
    assert stats["heuristic"]["offers"] > 0 and stats["random"]["bank_sales"] > 0
    assert (
        stats["heuristic"]["bribes"] > 0 and stats["heuristic"]["asks"] > 0
    )  # bribes paid, asks made
    assert sum(c["trades"] for c in stats.values()) % 2 == 0  # each trade has two sides
    assert main(argv[:-1]) == 0
    assert "heuristic bots: offers " in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["simulate", "chess"], "unknown game 'chess'"),
        (["simulate", "highcard", "--players", "9"], "2 to 4 players"),
        (["simulate", "highcard", "--bots", "genius"], "no bot genius"),
        (
            ["simulate", "highcard", "--players", "3", "--bots", "random,random"],
            "2 kinds for 3 players",
        ),
        (["simulate", "highcard", "--option", "rounds"], "NAME=VALUE"),
        (["simulate", "highcard", "--games", "0"], "at least 1"),
    ],
)
def test_bad_simulate_arguments_get_a_clear_message(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "No such file or directory"),
        ("", "no keys in it"),
        ("not a key\n", "not an authorized_keys file"),
    ],
)
def test_a_bad_allow_file_is_named_in_one_line_before_serving(content, message, tmp_path, capsys):
    path = tmp_path / "allowed"
    if content is not None:
        path.write_text(content)
    assert (
        main(["serve", "--port", "0", "--keys", str(tmp_path / "keys"), "--allow", str(path)]) == 2
    )
    err = capsys.readouterr().err
    assert err.startswith(f"harena: --allow {path}: ") and err.count("\n") == 1
    assert message in err and "Traceback" not in err and "listen" not in err


def test_a_reader_that_leaves_early_ends_the_listing_quietly() -> None:
    """`harena games | head`: the pipe closes while harena still writes; no traceback, and the
    status a shell gives a command ended by SIGPIPE (what `.ci/wheel_check` once tripped on)."""
    # Listed far more often than a pipe holds, so a write after the reader left must fail.
    code = (
        "from harena.server.commands.cli import main\n"
        "raise SystemExit(max(main(['games']) for _ in range(2000)))"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(5) == b"NAME "
    proc.stdout.close()
    errors = proc.stderr.read()
    assert proc.wait(timeout=60) == 141
    assert b"Traceback" not in errors and b"BrokenPipe" not in errors
