"""Broken data files are refused with a message naming the file, the entry and the field
(core/carthage/content.py, schema.py). Each case copies the shipped data to a temporary folder
and changes one thing."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from harena.core.carthage.content import FILES, ContentError, load_content


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    shipped = resources.files("harena.core.carthage") / "data"
    for name in FILES:
        (tmp_path / name).write_text((shipped / name).read_text(encoding="utf-8"), "utf-8")
    return tmp_path


def edit(data_dir: Path, name: str, old: str, new: str, count: int = 1) -> None:
    path = data_dir / name
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} not in {name}"
    path.write_text(text.replace(old, new, count), "utf-8")


def refused(data_dir: Path, *fragments: str) -> str:
    with pytest.raises(ContentError) as caught:
        load_content(data_dir)
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message
    return message


SLASH = '[[card]]\nid = "slash"'
SLASH_EFFECTS = """effects = [
    { kind = "damage", amount = 2 },
    { kind = "strike_bonus", effects = [{ kind = "favor", amount = 3 }] },
]"""


def test_an_untouched_copy_loads(data_dir: Path) -> None:
    assert len(load_content(data_dir).action_deck()) == 75


# --- effects --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("new", "fragments"),
    [
        ('{ kind = "teleport", amount = 2 }',
         ["card 'slash', effect 1", "unknown effect kind 'teleport'", "known: armor"]),
        ('{ kind = "damage", ammount = 2 }',
         ["card 'slash', effect 1", "unknown field 'ammount'"]),
        ('{ kind = "damage", amount = "2" }',
         ["card 'slash', effect 1", "'amount' must be a whole number"]),
        ('{ kind = "damage", amount = true }',
         ["'amount' must be a whole number"]),
        ('{ kind = "damage", amount = 0 }',
         ["card 'slash', effect 1", "'amount' must be at least 1, not 0"]),
        ('{ kind = "damage", amount = 2 }, { kind = "strike_bonus", effects = [{ kind = "favor", amount = 0 }] }',
         ["card 'slash', effect 2, strike bonus, effect 1", "'amount' of 'favor' must not be 0"]),
        ('{ kind = "favor", amount = 1 }, { kind = "strike_bonus", effects = [{ kind = "favor", amount = 3 }] }',
         ["card 'slash'", "strike_bonus must come right after a damage"]),
        ('{ kind = "knockback", spaces = 1 }, { kind = "damage", amount = 2 }',
         ["card 'slash'", "knockback needs a damage before it"]),
        ('{ kind = "damage", amount = 2 }, { kind = "knockback", spaces = 1, along_move = true }',
         ["card 'slash'", "along_move needs a straight move"]),
        ('{ kind = "opponent_loses_favor", amount = 2 }',
         ["card 'slash'", 'target "damaged" needs a damage']),
        ('{ kind = "favor", amount = 2 }, { kind = "pass_card" }',
         ["card 'slash'", "pass_card needs an opponent"]),
        ('{ kind = "focus_this_card" }, { kind = "damage", amount = 2 }',
         ["card 'slash'", "focus_this_card", "must be the last effect"]),
        ('{ kind = "damage", amount = 2 }, { kind = "strike_bonus", effects = [{ kind = "focus_this_card" }] }',
         ["card 'slash', effect 2, strike bonus", "belongs at the top level"]),
        ('{ kind = "damage", amount = 2 }, { kind = "strike_bonus", effects = [] }',
         ["card 'slash', effect 2, strike bonus", "non-empty list"]),
        ('{ kind = "conditional", when = "on_tuesdays", effects = [{ kind = "favor", amount = 3 }] }',
         ["card 'slash', effect 1", "'when'", "'on_tuesdays' is not one of"]),
        ('{ kind = "pass_starting_player" }',
         ["card 'slash', effect 1", "'pass_starting_player' is not allowed here"]),
        ('{ kind = "rule_hook", hook = "win_instantly" }',
         ["card 'slash', effect 1", "'win_instantly' is not one of"]),
        ('{ amount = 2 }',
         ["card 'slash', effect 1", "an effect is a table with a kind"]),
    ],
)  # fmt: skip
def test_a_bad_effect_is_refused_naming_the_card_and_field(
    data_dir: Path, new: str, fragments: list[str]
) -> None:
    edit(data_dir, "actions.toml", SLASH_EFFECTS, f"effects = [{new}]")
    refused(data_dir, "actions.toml", *fragments)


# --- Action cards ---------------------------------------------------------------------------------


def test_a_negative_cost_is_refused(data_dir: Path) -> None:
    edit(
        data_dir,
        "actions.toml",
        SLASH + '\nname = "Slash"\ncost = 3',
        SLASH + '\nname = "Slash"\ncost = -3',
    )
    refused(data_dir, "actions.toml: card 'slash'", "'cost' must be at least 0, not -3")


def test_a_missing_cost_is_refused(data_dir: Path) -> None:
    edit(
        data_dir,
        "actions.toml",
        SLASH + '\nname = "Slash"\ncost = 3\n',
        SLASH + '\nname = "Slash"\n',
    )
    refused(data_dir, "actions.toml: card 'slash'", "missing field 'cost'")


def test_an_unknown_card_field_is_refused(data_dir: Path) -> None:
    edit(data_dir, "actions.toml", SLASH, SLASH + '\nrarity = "rare"')
    refused(data_dir, "actions.toml: card 'slash'", "unknown field 'rarity'")


def test_a_duplicate_card_id_is_refused(data_dir: Path) -> None:
    edit(data_dir, "actions.toml", 'id = "sprint"', 'id = "slash"')
    refused(data_dir, "actions.toml", "duplicate card id 'slash'")


def test_a_bad_id_is_refused(data_dir: Path) -> None:
    edit(data_dir, "actions.toml", 'id = "sprint"', 'id = "Sprint Card"')
    refused(data_dir, "actions.toml: card 12", "'Sprint Card' is not an id")


def test_a_slash_card_has_exactly_two_sides(data_dir: Path) -> None:
    edit(data_dir, "actions.toml", '  [[card.side]]\n  effects = [{ kind = "armor", amount = 2 }]',
         '  [[card.side]]\n  effects = [{ kind = "armor", amount = 2 }]\n'
         '  [[card.side]]\n  effects = [{ kind = "armor", amount = 1 }]')  # fmt: skip
    refused(data_dir, "actions.toml: card 'tumble'", "exactly 2 sides, not 3")


def test_the_action_deck_must_hold_75_cards(data_dir: Path) -> None:
    """rulebook: Components - 75 Basic Action Deck Cards."""
    edit(data_dir, "actions.toml", SLASH + '\nname = "Slash"\ncost = 3\ncopies = 3',
         SLASH + '\nname = "Slash"\ncost = 3\ncopies = 4')  # fmt: skip
    refused(data_dir, "actions.toml", "76 Action Deck cards in all", "75")


# --- gladiators -----------------------------------------------------------------------------------


def test_a_starting_deck_naming_a_missing_card_is_refused(data_dir: Path) -> None:
    edit(data_dir, "gladiators.toml", '"guard", "trident-thrust"', '"fireball", "trident-thrust"')
    refused(data_dir, "gladiators.toml: gladiator 'blue'", "no starting card 'fireball'")


def test_a_starting_deck_naming_an_action_deck_card_is_refused(data_dir: Path) -> None:
    edit(data_dir, "gladiators.toml", '"guard", "trident-thrust"', '"slash", "trident-thrust"')
    refused(data_dir, "gladiator 'blue'", "'slash' is an Action Deck card")


def test_a_starting_deck_must_have_10_cards(data_dir: Path) -> None:
    """rulebook: Components - 10 per player."""
    edit(
        data_dir,
        "gladiators.toml",
        '"guard", "trident-thrust", "trident-thrust"',
        '"guard", "trident-thrust"',
    )
    refused(data_dir, "gladiator 'blue'", "10 cards, not 9")


def test_a_starting_card_may_not_reuse_an_action_card_id(data_dir: Path) -> None:
    edit(data_dir, "gladiators.toml", 'id = "guard"', 'id = "slash"')
    refused(data_dir, "gladiators.toml", "duplicate card id 'slash'")


def test_there_must_be_one_gladiator_per_colour(data_dir: Path) -> None:
    edit(data_dir, "gladiators.toml", 'id = "red"\ncolour = "red"', 'id = "blue"\ncolour = "blue"')
    refused(data_dir, "gladiators.toml", "duplicate gladiator id 'blue'")


def test_there_must_be_one_gladiator_per_class(data_dir: Path) -> None:
    edit(data_dir, "gladiators.toml", 'class = "Gaul"', 'class = "Murmillo"')
    refused(data_dir, "gladiators.toml", "one per colour and one per class")


def test_an_unknown_class_is_refused(data_dir: Path) -> None:
    edit(data_dir, "gladiators.toml", 'class = "Gaul"', 'class = "Samnite"')
    refused(data_dir, "gladiator 'purple'", "'Samnite' is not one of")


def test_a_gladiators_id_is_its_colour(data_dir: Path) -> None:
    edit(data_dir, "gladiators.toml", 'id = "red"', 'id = "crimson"')
    refused(data_dir, "gladiator 'crimson'", "id is its colour")


# --- Theater cards --------------------------------------------------------------------------------


def test_the_theater_deck_must_hold_20_cards(data_dir: Path) -> None:
    """rulebook: Components - 20 Theater Cards."""
    edit(data_dir, "theater.toml", 'id = "drums-of-war"', 'id = "drums-of-war"\ncopies = 2')
    refused(data_dir, "theater.toml", "21 Theater cards in all", "20")


def test_a_theater_card_cannot_deal_damage(data_dir: Path) -> None:
    edit(
        data_dir, "theater.toml", '{ kind = "move", steps = 1 }', '{ kind = "damage", amount = 1 }'
    )
    refused(
        data_dir,
        "theater.toml: theater card 'shifting-sands', effect 1",
        "'damage' is not allowed here",
    )


def test_a_theater_card_needs_recipients_unless_it_only_hooks(data_dir: Path) -> None:
    edit(data_dir, "theater.toml", 'recipients = "all"\neffects = [{ kind = "move", steps = 1 }]',
         'effects = [{ kind = "move", steps = 1 }]')  # fmt: skip
    refused(data_dir, "theater card 'shifting-sands'", "missing field 'recipients'")


def test_most_favor_only_makes_sense_after_the_action_phase(data_dir: Path) -> None:
    edit(data_dir, "theater.toml", 'timing = "after_actions"\nrecipients = "most_favor"',
         'timing = "now"\nrecipients = "most_favor"')  # fmt: skip
    refused(
        data_dir, "theater card 'envy-of-the-crowd'", '"most_favor" needs timing "after_actions"'
    )


def test_an_unknown_timing_is_refused(data_dir: Path) -> None:
    edit(data_dir, "theater.toml", 'id = "drums-of-war"\nname = "Drums of War"\ntiming = "now"',
         'id = "drums-of-war"\nname = "Drums of War"\ntiming = "later"')  # fmt: skip
    refused(data_dir, "theater card 'drums-of-war'", "'timing'", "'later' is not one of")


# --- tokens ---------------------------------------------------------------------------------------


def test_the_tokens_must_add_up_to_35(data_dir: Path) -> None:
    """rulebook: Components - 35 Arena Tokens."""
    edit(data_dir, "tokens.toml", 'kind = "pillar"\ncount = 5', 'kind = "pillar"\ncount = 4')
    refused(data_dir, "tokens.toml", "34 Arena tokens in all", "35")


def test_king_of_the_hill_is_worth_3_or_4(data_dir: Path) -> None:
    """rulebook: Arena Token Definitions - "+3 AT END/+4 AT END"."""
    edit(
        data_dir,
        "tokens.toml",
        'kind = "king_of_the_hill"\nvalue = 4',
        'kind = "king_of_the_hill"\nvalue = 5',
    )
    refused(data_dir, "tokens.toml: token 'king-of-the-hill-4'", "+3 or +4, not 5")


def test_a_crocodile_always_bites_for_1(data_dir: Path) -> None:
    """rulebook: Arena Token Definitions - Crocodile Token (-1 Armor)."""
    edit(data_dir, "tokens.toml", 'kind = "crocodile"', 'kind = "crocodile"\nvalue = 2')
    refused(data_dir, "token 'crocodile'", "value is always 1")


def test_an_unknown_token_kind_is_refused(data_dir: Path) -> None:
    edit(data_dir, "tokens.toml", 'kind = "crocodile"', 'kind = "lion"')
    refused(data_dir, "token 'crocodile'", "'lion' is not one of")


# --- the arena and layouts ------------------------------------------------------------------------


def test_a_token_outside_the_arena_is_refused(data_dir: Path) -> None:
    edit(
        data_dir,
        "arena.toml",
        '{ token = "damage-1", at = [-2, 0] }',
        '{ token = "damage-1", at = [-5, 0] }',
    )
    refused(
        data_dir, "arena.toml: layout 'first-match', token 4", "hex [-5, 0] is outside the arena"
    )


def test_only_pillars_may_stand_outside_the_inner_circle(data_dir: Path) -> None:
    """rulebook: Token Rules."""
    edit(
        data_dir,
        "arena.toml",
        '{ token = "damage-1", at = [-2, 0] }',
        '{ token = "damage-1", at = [-3, 0] }',
    )
    refused(data_dir, "layout 'first-match', token 4", "outside the Inner Circle")


def test_a_layout_needs_a_token_on_the_centre(data_dir: Path) -> None:
    """rulebook: Token Rules - "One Arena Token must be on the center hexagon"."""
    edit(
        data_dir,
        "arena.toml",
        '{ token = "favor-2", at = [0, 0] }',
        '{ token = "favor-2", at = [1, 0] }',
    )
    refused(data_dir, "layout 'first-match'", "no token is on the centre hex")


def test_a_layout_needs_players_plus_one_tokens(data_dir: Path) -> None:
    """rulebook: Arena Tokens - players plus one, minimum 4."""
    edit(data_dir, "arena.toml", '{ token = "favor-1", at = [-2, 2], min_players = 5 },\n', "")
    refused(data_dir, "layout 'first-match'", "with 5 players it places 5 tokens", "asks for 6")


def test_a_layout_cannot_use_more_tokens_than_the_box_holds(data_dir: Path) -> None:
    edit(
        data_dir,
        "arena.toml",
        '{ token = "armor-1", at = [2, -2] }',
        '{ token = "king-of-the-hill-3", at = [2, -2] },\n    { token = "king-of-the-hill-3", at = [2, -1] }',
    )
    refused(data_dir, "layout 'first-match'", "uses 2 'king-of-the-hill-3' tokens; the box has 1")


def test_a_layout_naming_a_missing_token_is_refused(data_dir: Path) -> None:
    edit(
        data_dir,
        "arena.toml",
        '{ token = "armor-1", at = [2, -2] }',
        '{ token = "lava", at = [2, -2] }',
    )
    refused(data_dir, "layout 'first-match', token 2", "no token 'lava' in tokens.toml")


def test_two_tokens_on_one_hex_are_refused(data_dir: Path) -> None:
    edit(
        data_dir,
        "arena.toml",
        '{ token = "armor-1", at = [2, -2] }',
        '{ token = "armor-1", at = [0, 0] }',
    )
    refused(data_dir, "layout 'first-match'", "two tokens on hex [0, 0]")


def test_the_first_match_layout_is_required(data_dir: Path) -> None:
    edit(data_dir, "arena.toml", 'id = "first-match"', 'id = "first-game"')
    refused(data_dir, "arena.toml", "missing the 'first-match' layout")


def test_an_inner_circle_hex_outside_the_arena_is_refused(data_dir: Path) -> None:
    edit(data_dir, "arena.toml", "inner_radius = 2", "inner_circle = [[0, 0], [1, 0], [9, 9]]")
    refused(data_dir, "arena.toml: [arena]", "Inner Circle hex [9, 9] is outside the arena")


def test_the_arena_may_be_listed_hex_by_hex(data_dir: Path) -> None:
    cells = ", ".join(f"[{q}, {r}]" for q in range(-4, 5) for r in range(-4, 5) if abs(q + r) <= 4)
    edit(data_dir, "arena.toml", "radius = 4", f"hexes = [{cells}]")
    assert len(load_content(data_dir).arena) == 61


def test_the_arena_needs_a_radius_or_a_hex_list_not_both(data_dir: Path) -> None:
    edit(data_dir, "arena.toml", "radius = 4", "radius = 4\nhexes = [[0, 0]]")
    refused(data_dir, "[arena]", "exactly one of 'radius' and 'hexes'")


def test_a_malformed_hex_is_refused(data_dir: Path) -> None:
    edit(data_dir, "arena.toml", "centre = [0, 0]", "centre = [0, 0, 0]")
    refused(data_dir, "[arena], centre", "a hex is written [q, r]")


# --- files ----------------------------------------------------------------------------------------


def test_invalid_toml_is_refused_naming_the_file(data_dir: Path) -> None:
    edit(data_dir, "tokens.toml", 'id = "favor-1"', 'id = "favor-1')
    refused(data_dir, "tokens.toml: not valid TOML")


def test_a_missing_file_is_refused_naming_it(data_dir: Path) -> None:
    (data_dir / "theater.toml").unlink()
    refused(data_dir, "theater.toml: missing from")


def test_content_error_is_a_value_error() -> None:
    assert issubclass(ContentError, ValueError)


# --- Equipment, Legend cards, Arena Beasts (issue 13) ---------------------------------------------


def test_a_gladiator_with_2_equipment_cards_is_refused(data_dir: Path) -> None:
    edit(
        data_dir, "equipment.toml", 'gladiator = "blue"\nready = 3', 'gladiator = "red"\nready = 3'
    )
    refused(data_dir, "equipment.toml", "'blue' has 2 Equipment cards")


def test_an_unknown_gear_rule_names_the_card_and_field(data_dir: Path) -> None:
    edit(data_dir, "equipment.toml", 'rule = "swap"', 'rule = "swop"')
    refused(data_dir, "equipment.toml", "equipment 'curved-sica'", "field 'rule'", "'swop'")


def test_a_swap_needs_a_damage_before_it(data_dir: Path) -> None:
    edit(
        data_dir,
        "equipment.toml",
        """effects = [
    { kind = "damage", amount = 3 },
    { kind = "strike_bonus", effects = [{ kind = "gear", rule = "swap" }] },
]""",
        'effects = [{ kind = "gear", rule = "swap" }]',
    )
    refused(data_dir, "equipment.toml", "curved-sica", "needs a damage before it")


def test_legend_cards_must_add_up_to_15(data_dir: Path) -> None:
    edit(
        data_dir,
        "legends.toml",
        'id = "missio"\nname = "Missio"\ncost = 4',
        'id = "missio"\nname = "Missio"\ncost = 4\ncopies = 2',
    )
    refused(data_dir, "legends.toml", "16 Theater Legend cards")


def test_a_beast_without_armor_is_refused(data_dir: Path) -> None:
    edit(data_dir, "beasts.toml", "armor = 8\n", "")
    refused(data_dir, "beasts.toml", "beast 'lion'", "armor")


def test_a_beast_may_not_gain_favor(data_dir: Path) -> None:
    edit(
        data_dir, "beasts.toml", '{ kind = "armor", amount = 1 }', '{ kind = "favor", amount = 1 }'
    )
    refused(data_dir, "beasts.toml", "beast 'boar'", "'favor' is not allowed here")
