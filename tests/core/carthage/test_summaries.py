"""The rules summaries of Carthage (core/carthage/summaries.py, data/summaries.toml): which page
each moment of a real game shows, and every way a broken summaries file is refused."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from harena.core.bots import RandomBot
from harena.core.carthage.hexgrid import Hex
from harena.core.carthage.schema import ContentError
from harena.core.carthage.state import Phase
from harena.core.carthage.summaries import KEYS, PHASE_KEYS, key_for, summaries
from harena.core.summaries import MAX_LINES, MAX_WIDTH, summaries_for
from tests.core.carthage.table_helpers import arena, new_carthage, play

O, E1 = Hex(0, 0), Hex(1, 0)


def board(game) -> dict:
    return game.view(0)["board"]


def test_every_phase_of_the_game_has_a_summary_in_the_order_of_play() -> None:
    # rulebook: Setup, Round Order (Theater, Action, Favor), How to Win
    assert set(PHASE_KEYS) == {phase.value for phase in Phase}
    assert [page.key for page in summaries().pages] == list(KEYS)
    assert summaries_for("carthage") is summaries()


def test_a_new_game_shows_the_setup_and_the_players_own_tokens_their_own_page() -> None:
    # rulebook: Setup 2 (choose your gladiator), Arena Tokens (the rule for later games)
    game = new_carthage(2, gladiators="choose")
    assert game.prompts()[0].kind == "choose_gladiator"
    assert key_for(board(game)) == "setup"
    game = new_carthage(2, tokens="players_choose")
    assert game.prompts()[0].kind == "pick_tokens"
    assert key_for(board(game)) == "tokens"


def test_an_attack_waiting_for_its_target_shows_the_combat_page() -> None:
    # rulebook: Action Cards, Damage; ruling: the player chooses whom to damage
    game = arena([O, E1, Hex(-1, 0)])
    assert key_for(board(game)) == "action"
    play(game, 0, "jab")
    assert game.prompts()[0].kind == "choose_target"
    assert key_for(board(game)) == "combat"
    game.act(0, "target:1")
    assert key_for(board(game)) == "action"


def test_a_played_game_passes_through_the_round_and_ends_on_the_last_page() -> None:
    # rulebook: Round Order; How to Win
    game = new_carthage(2, seed=4, sudden_death="10")
    bots = [RandomBot(1), RandomBot(2)]
    seen = [key_for(board(game))]
    while game.result() is None:
        seat = game.awaited()[0]
        game.act(seat, bots[seat].choose(game.view(seat)))
        key = key_for(board(game))
        if key != seen[-1]:
            seen.append(key)
    assert {"setup", "action", "favor", "end"} <= set(seen)
    assert seen[-1] == "end"
    assert seen.index("action") < seen.index("favor")


def test_solo_and_coop_show_the_essedari_page_as_gladiators_enter_and_at_the_end() -> None:
    game = new_carthage(1, 3, essedari="solo")
    assert key_for(board(game)) == "essedari"
    game.act(0, game.prompts()[0].choices[0].id)  # in the arena: the Action phase's own page
    assert key_for(board(game)) == "action"
    assert "Essedari Maximo" in summaries().page("essedari").title


def test_the_shipped_summaries_say_the_keys_of_their_phase() -> None:
    # The issue: "a newcomer can play without the rulebook open" - each page names its keys.
    for page in summaries().pages:
        assert any(line.startswith("Keys:") for line in page.lines), page.key
        assert len(page.lines) <= MAX_LINES and all(len(line) <= MAX_WIDTH for line in page.lines)
    assert "w e a d z x" in "\n".join(summaries().page("action").lines)


# --- a broken summaries.toml ----------------------------------------------------------------------


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    shipped = resources.files("harena.core.carthage") / "data" / "summaries.toml"
    (tmp_path / "summaries.toml").write_text(shipped.read_text(encoding="utf-8"), "utf-8")
    return tmp_path


def edit(data_dir: Path, old: str, new: str) -> None:
    path = data_dir / "summaries.toml"
    text = path.read_text("utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), "utf-8")


def refused(data_dir: Path, *fragments: str) -> str:
    with pytest.raises(ContentError) as caught:
        summaries(data_dir)
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message, message
    return message


def test_an_untouched_copy_loads(data_dir: Path) -> None:
    assert [p.key for p in summaries(data_dir).pages] == list(KEYS)


def test_an_unknown_phase_key_is_refused(data_dir: Path) -> None:
    edit(data_dir, "[favor]", "[favour]")
    refused(data_dir, "summaries.toml", "unknown summary 'favour'", "setup, tokens, theater")


def test_a_missing_phase_is_refused(data_dir: Path) -> None:
    path = data_dir / "summaries.toml"
    text = path.read_text("utf-8")
    path.write_text(text[: text.index("[end]")], "utf-8")
    refused(data_dir, "summaries.toml", "missing summary 'end'")


def test_a_line_too_long_for_80x24_is_refused(data_dir: Path) -> None:
    edit(data_dir, "Everyone draws 5 cards", "Everyone draws 5 cards" + " and more" * 8)
    refused(data_dir, "summary 'action', line 1", f"at most {MAX_WIDTH} fit an 80x24 screen")


def test_too_many_lines_for_80x24_are_refused(data_dir: Path) -> None:
    edit(data_dir, "Favor is at most 15 a round.", "Favor is at most 15 a round.\n\n\n\n")
    refused(data_dir, "summary 'favor'", f"at most {MAX_LINES} fit an 80x24 screen")


def test_text_that_is_not_plain_ascii_is_refused(data_dir: Path) -> None:
    edit(data_dir, "Knockback X pushes", "Knockback X pushes \u2192")
    refused(data_dir, "summary 'combat', line 7", "is not plain ASCII")


def test_a_title_too_long_an_unknown_field_and_an_empty_text_are_refused(data_dir: Path) -> None:
    edit(data_dir, 'title = "Carthage: the Favor phase"', f'title = "{"x" * 61}"')
    refused(data_dir, "summary 'favor'", "the title has 61 characters")
    edit(data_dir, f'title = "{"x" * 61}"', 'title = "Favor"\nlines = 3')
    refused(data_dir, "summary 'favor'", "unknown field 'lines'")
    path = data_dir / "summaries.toml"
    text = path.read_text("utf-8")
    path.write_text(text[: text.index("[favor]")] + '[favor]\ntitle = "Favor"\ntext = """\n  \n"""\n'
                    + text[text.index("[end]"):], "utf-8")  # fmt: skip
    refused(data_dir, "summary 'favor'", "field 'text' must be a non-empty string")


def test_a_missing_or_broken_file_is_refused(tmp_path: Path) -> None:
    refused(tmp_path, "summaries.toml: missing")
    (tmp_path / "summaries.toml").write_text("[setup\n", "utf-8")
    refused(tmp_path, "summaries.toml: not valid TOML")
