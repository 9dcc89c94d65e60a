"""Choosing the Modular Rulesets at a table's creation: the multi-select option, its checks, its
warning above the rulebook's 4, `harena games` and `harena simulate --option rulesets=...`, and
the validated data file."""

from __future__ import annotations

from pathlib import Path

import pytest

from harena.core.carthage.rulesets.catalog import (
    OPTION_NAMES,
    RULESET_IDS,
    ContentError,
    load_rulesets,
)
from harena.core.engine import GameConfigError, make_config, option_warnings
from harena.server.commands.cli import main


def test_the_rulebook_names_17_rulesets_and_the_option_offers_every_one() -> None:
    # rulebook: Modular Rulesets - 11 Favor Actions and 6 Active Conditions (the box says 16)
    assert len(RULESET_IDS) == 17 and len(OPTION_NAMES) == 17
    assert len(load_rulesets()) == 17


def test_the_option_takes_any_set_in_a_canonical_order() -> None:
    config = make_config("carthage", 2, 1, {"rulesets": "retain, actuate,retain"})
    assert config.options["rulesets"] == "actuate,retain"
    assert make_config("carthage", 2, 1).options["rulesets"] == ""


def test_an_unknown_ruleset_is_refused_by_name() -> None:
    with pytest.raises(GameConfigError, match=r"unknown 'bogus'.*known: actuate"):
        make_config("carthage", 2, 1, {"rulesets": "actuate,bogus"})


def test_more_than_4_is_warned_about_not_refused() -> None:
    # rulebook: "It is recommended to not play with more than a total of 4 Modular Rulesets"
    four = make_config("carthage", 2, 1, {"rulesets": "actuate,retain,taunt,ordinance"})
    assert option_warnings(four) == []
    five = make_config("carthage", 2, 1, {"rulesets": "actuate,retain,taunt,ordinance,repair"})
    assert option_warnings(five) == ["5 rulesets chosen: more than 4 is not recommended"]


def test_harena_games_names_every_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in OPTION_NAMES)


def test_harena_simulate_plays_the_rulesets(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "carthage", "--games", "4", "--players", "3", "--seed", "2",
            "--option", "rulesets=actuate,retain"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "rulesets=actuate,retain" in out and "errors: 0" in out and "warning" not in out
    argv[-1] = "rulesets=" + ",".join(OPTION_NAMES)
    assert main(argv) == 0
    assert "warning: 17 rulesets chosen" in capsys.readouterr().out


def write(tmp_path: Path, old: str, new: str) -> Path:
    text = (Path(__file__).parents[3] / "core/carthage/data/rulesets.toml").read_text()
    assert old in text
    (tmp_path / "rulesets.toml").write_text(text.replace(old, new, 1))
    return tmp_path


def test_a_broken_rulesets_file_names_the_file_the_entry_and_the_field(tmp_path: Path) -> None:
    with pytest.raises(
        ContentError, match=r"rulesets.toml: ruleset 'actuate': field 'cost' must be at least 0"
    ):
        load_rulesets(write(tmp_path, 'cost = 1\ntext = "If', 'cost = -1\ntext = "If'))
    with pytest.raises(
        ContentError, match=r"ruleset 'outbreak': field 'kind': outbreak is a favor_action"
    ):
        load_rulesets(
            write(
                tmp_path,
                'kind = "favor_action"\ncost = 3\nvalue = 1\ntext = "Immediately gain 1 M',
                'kind = "active_condition"\ncost = 3\nvalue = 1\ntext = "Immediately gain 1 M',
            )
        )
    with pytest.raises(ContentError, match=r"ruleset 'gladiator-rage': no rule for this ruleset"):
        load_rulesets(write(tmp_path, 'id = "taunt"', 'id = "gladiator-rage"'))
