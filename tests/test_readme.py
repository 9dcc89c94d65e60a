"""The README's quick start tells the truth: how friends on other machines reach a server that
listens on 127.0.0.1 by default, and that notices to a LAN webhook need their option; and every
`--option` it names is one the `harena` command really takes."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from harena.server.commands.cli import build_parser

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _options(parser: argparse.ArgumentParser) -> set[str]:
    found = {flag for action in parser._actions for flag in action.option_strings}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found |= _options(sub)
    return found


def test_the_quick_start_says_how_friends_on_other_machines_connect() -> None:
    quick_start = README.split("## Status")[0]
    assert "listens on 127.0.0.1" in quick_start
    assert "harena serve --host 0.0.0.0" in quick_start
    assert 'host = "0.0.0.0"' in quick_start  # or the config file
    assert "--notice-private-addresses" in quick_start


def test_every_option_the_readme_names_is_one_harena_takes() -> None:
    """In `harena ...` commands and in an option named alone (`--notice-private-addresses`),
    not in other tools' (`ruff format --check`)."""
    spans = re.findall(r"`([^`\n]+)`", README) + re.findall(r"^harena .*$", README, re.M)
    ours = [span for span in spans if span.startswith(("harena ", "--"))]
    named = {flag for span in ours for flag in re.findall(r"(?<![\w-])--[a-z][a-z-]+", span)}
    assert "--notice-private-addresses" in named and "--host" in named
    assert named - _options(build_parser()) == set()
