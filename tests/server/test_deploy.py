"""The Dockerfile and the systemd unit (docs/deploy/) say what harena understands: every
option they pass parses, every file they copy exists and is not ignored, the user is not root
and the health check is the command tested in test_operations_cli.py."""

from __future__ import annotations

import fnmatch
import json
import shlex
import tomllib
from pathlib import Path

from harena.server.commands.cli import build_parser, parse_args

ROOT = Path(__file__).resolve().parents[2]


def instructions(path: Path) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    out, pending = [], ""
    for line in path.read_text().splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.lstrip().startswith("#"):
            continue  # a comment inside a continued instruction
        pending += line.rstrip("\\").strip() + " "
        if not line.endswith("\\"):
            word, _, rest = pending.strip().partition(" ")
            out.append((word.upper(), rest))
            pending = ""
    return out


def test_the_dockerfile_runs_harena_serve_as_a_user_with_volumes_a_port_and_a_health_check():
    steps = instructions(ROOT / "Dockerfile")
    final = steps[max(i for i, (word, _) in enumerate(steps) if word == "FROM") :]
    words = dict(final)
    assert words["FROM"].startswith("python:3.") and "slim" in words["FROM"]
    assert words["USER"] not in ("root", "0")
    assert words["EXPOSE"] == "2222"
    volumes = json.loads(words["VOLUME"])
    entry = json.loads(words["ENTRYPOINT"])
    assert entry[:2] == ["harena", "serve"]
    args = parse_args(entry[1:])
    assert (
        str(args.data) in volumes
        and str(args.keys) in volumes
        and args.host == "0.0.0.0"
        and args.port == 2222
    )
    health = words["HEALTHCHECK"]
    command = json.loads(health[health.index("CMD") + 3 :])
    assert command[:2] == ["harena", "health"]
    build_parser().parse_args(command[1:])  # the options exist
    assert "--port" in command and command[command.index("--port") + 1] == "2222"


def test_what_the_dockerfile_copies_exists_and_is_not_dockerignored():
    ignored = [
        p.strip()
        for p in (ROOT / ".dockerignore").read_text().splitlines()
        if p.strip() and not p.startswith("#")
    ]
    for word, rest in instructions(ROOT / "Dockerfile"):
        if word == "COPY" and not rest.startswith("--from"):
            for source in rest.split()[:-1]:
                assert (ROOT / source).exists(), source
                assert not any(fnmatch.fnmatch(source, pattern) for pattern in ignored), source


def test_the_systemd_unit_restarts_on_failure_with_its_own_user_and_state_folder():
    unit = (ROOT / "docs" / "deploy" / "harena.service").read_text()
    settings = dict(
        line.split("=", 1) for line in unit.splitlines() if "=" in line and not line.startswith("#")
    )
    assert settings["Restart"] == "on-failure"
    assert settings["DynamicUser"] == "yes" and settings["StateDirectory"] == "harena"
    argv = shlex.split(settings["ExecStart"])
    assert argv[0].endswith("/harena") and argv[1] == "serve"
    args = parse_args(
        argv[1:2] + [a for a in argv[2:] if a != "--config" and not a.endswith(".toml")]
    )
    assert str(args.data) == "/var/lib/harena" and str(args.keys).startswith("/var/lib/harena/")


def test_the_example_config_is_a_valid_config(tmp_path):
    example = ROOT / "docs" / "deploy" / "harena.toml"
    tomllib.loads(example.read_text())
    args = parse_args(["serve", "--config", str(example)])
    assert args.log_format == "json"
