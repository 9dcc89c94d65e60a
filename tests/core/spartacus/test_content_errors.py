"""Broken data files are refused with a message naming the file, the entry and the field
(core/spartacus/content.py, parse.py, schema.py). Each case copies the shipped data to a
temporary folder and changes one thing."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from harena.core.spartacus.content import FILES, ContentError, load_content


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    shipped = resources.files("harena.core.spartacus") / "data"
    for name in FILES:
        (tmp_path / name).write_text((shipped / name).read_text(encoding="utf-8"), "utf-8")
    return tmp_path


def edit(data_dir: Path, name: str, old: str, new: str) -> None:
    path = data_dir / name
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} not in {name}"
    path.write_text(text.replace(old, new, 1), "utf-8")


def refused(data_dir: Path, *fragments: str) -> str:
    with pytest.raises(ContentError) as caught:
        load_content(data_dir)
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message, message
    return message


def test_an_untouched_copy_loads(data_dir: Path) -> None:
    assert len(load_content(data_dir).intrigue_deck()) == 50


def test_a_missing_file_is_named(data_dir: Path) -> None:
    (data_dir / "houses.toml").unlink()
    refused(data_dir, "houses.toml: missing")


def test_bad_toml_is_reported(data_dir: Path) -> None:
    edit(data_dir, "market.toml", 'id = "crixus"', 'id = "crixus')
    refused(data_dir, "market.toml: not valid TOML")


CRIXUS = 'id = "crixus"\nname = "Crixus"\nkind = "gladiator"\natk = 4'
SLANDER = 'id = "slander"\nname = "Slander"\nkind = "scheme"'


@pytest.mark.parametrize(
    ("file", "old", "new", "fragments"),
    [
        ("market.toml", CRIXUS, CRIXUS.replace("atk = 4", 'atk = "4"'),
         ["card 'crixus'", "field 'atk' must be a whole number"]),
        ("market.toml", CRIXUS, CRIXUS.replace("atk = 4", "atk = 0"),
         ["card 'crixus'", "field 'atk' must be at least 1"]),
        ("market.toml", CRIXUS, CRIXUS.replace('kind = "gladiator"', 'kind = "gladiatr"'),
         ["card 'crixus'", "'gladiatr' is not one of"]),
        ("market.toml", CRIXUS, CRIXUS.replace('kind = "gladiator"', 'kind = "scheme"'),
         ["card 'crixus'", "a Market card is a gladiator, slave or equipment"]),
        ("market.toml", CRIXUS, CRIXUS + "\nspeed = 2", ["card 'crixus'", "unknown field 'speed'"]),
        ("market.toml", 'roll = "attack", count = 1, at_most = 2 }]\n\n[[card]]\nid = "theokeles"',
         'roll = "atack", count = 1, at_most = 2 }]\n\n[[card]]\nid = "theokeles"',
         ["card 'crixus'", "combat 1", "'atack' is not one of"]),
        ("market.toml", '{ kind = "keen_strike", threshold = 2 }]\n\n[[card]]\nid = "varro"',
         '{ kind = "keen_strik", threshold = 2 }]\n\n[[card]]\nid = "varro"',
         ["card 'theokeles'", "unknown effect kind 'keen_strik'", "known here: extra_dice"]),
        ("market.toml", 'slot = "weapon"\ncopies = 3', 'slot = "sword"\ncopies = 3',
         ["card 'gladius'", "field 'slot'", "'sword' is not one of"]),
        ("market.toml", 'id = "doctore"', 'id = "Doctore"', ["card 1", "is not an id"]),
        ("market.toml", 'id = "varro"', 'id = "crixus"', ["duplicate card id 'crixus'"]),
        ("market.toml", "starting = true\ncopies = 3\natk = 2\ndef = 2", "starting = true\ncopies = 4\natk = 2\ndef = 2",
         ["9 starting gladiators", "the game has 8"]),
        ("intrigue.toml", SLANDER, SLANDER.replace('"scheme"', '"sheme"'),
         ["card 'slander'", "'sheme' is not one of"]),
        ("intrigue.toml", 'target = "any"\ntext = "The target loses 1 Influence."',
         'target = "self"\ntext = "The target loses 1 Influence."',
         ["card 'slander'", "'target' must be \"other\" or \"any\""]),
        ("intrigue.toml", '{ kind = "influence", who = "target", amount = -1 }]\n\n[[card]]\nid = "public',
         '{ kind = "influnce", who = "target", amount = -1 }]\n\n[[card]]\nid = "public',
         ["card 'slander', effects 1", "unknown effect kind 'influnce'"]),
        ("intrigue.toml", '{ kind = "influence", who = "target", amount = -1 }]\n\n[[card]]\nid = "public',
         '{ kind = "influence", who = "him", amount = -1 }]\n\n[[card]]\nid = "public',
         ["card 'slander', effects 1", "field 'who': 'him' is not one of"]),
        ("intrigue.toml", 'text = "Cancel a Scheme; draw 1 Intrigue card."\neffects = [{ kind = "draw"',
         'text = "Cancel a Scheme; draw 1 Intrigue card."\neffects = [{ kind = "wound", victim = "slave" }, { kind = "draw"',
         ["card 'jupiters-cock', effects 1", "unknown effect kind 'wound'"]),
        ("intrigue.toml", 'copies = 12\nvalue = 1', 'copies = 12\nvalue = 1\ninfluence = 2',
         ["card 'guard'", "field 'influence' is not used by a guard"]),
        ("intrigue.toml", 'copies = 12\nvalue = 1', 'copies = 2\nvalue = 1',
         ["the houses need 3 starting Guards", "intrigue.toml has 2"]),
        ("intrigue.toml", 'id = "spy"', 'id = "gladius"', ["card id 'gladius' is used in market.toml too"]),
        ("houses.toml", 'per_turn = 1\n  gain = { kind = "gain_denarii", amount = 2 }',
         'per_turn = 1\n  gain = { kind = "gain_denari", amount = 2 }',
         ["house 'batiatus'", "ability 'batiatus-training', gain", "unknown effect kind 'gain_denari'"]),
        ("houses.toml", 'sacrifice = "guard"\n  pay = 5\n  per_turn = 1', 'sacrifice = "guard"\n  pay = 5',
         ["ability 'glaber-example'", "gains Influence needs 'per_turn'"]),
        ("houses.toml", "denarii = 12", "denarii = -1", ["house 'batiatus'", "'denarii' must be at least 0"]),
        ("houses.toml", "slaves = 3", "slaves = 4", ["the houses need 9 starting slaves", "the box has 8"]),
        ("houses.toml", 'id = "tullius"', 'id = "glaber"', ["duplicate house id 'glaber'"]),
        ("rules.toml", "from_influence = 4", "from_influence = 0", ["hand_limit 2", "must go up"]),
        ("rules.toml", "standard = 4", "standard = 12", ["[length]", "'standard' must be at most 11"]),
        ("rules.toml", "start_ii = [0, 2]", "start_ii = [0, 5]", ["[arena]", "outside an arena of radius 3"]),
        ("rules.toml", "start_ii = [0, 2]", "start_ii = [0, -2]", ["hexes I and II must differ"]),
        ("rules.toml", "[game]", "[gmae]", ["rules.toml", "unknown field 'gmae'"]),
    ],
)  # fmt: skip
def test_malformed_data_is_refused_with_a_clear_message(
    data_dir: Path, file: str, old: str, new: str, fragments: list[str]
) -> None:
    edit(data_dir, file, old, new)
    refused(data_dir, file.split(".")[0] if "need" not in fragments[0] else "", *fragments)


MEDICUS = 'effects = [{ kind = "heal" }]'
CLAIM = 'answers = "auction_won"'


@pytest.mark.parametrize(
    ("old", "new", "fragments"),
    [
        # a Reaction's effects must suit the event it answers
        (MEDICUS, 'effects = [{ kind = "wound", victim = "gladiator" }]',
         ("card 'medicus', effects 1", "unknown effect kind 'wound'", "known here: draw, heal, influence")),
        (CLAIM, 'answers = "auction_lost"', ("card 'envy-of-the-forum'", "field 'answers'", "auction_won, wounded")),
        (CLAIM, CLAIM + "\nagainst_you = true", ("card 'envy-of-the-forum'", "'against_you' is for a Reaction that answers a scheme")),
        # a Scheme cannot use an event's effects: it has no lot or wound to act on
        ('effects = [{ kind = "influence", who = "target", amount = -1 }]\n\n[[card]]\nid = "public',
         'effects = [{ kind = "heal" }]\n\n[[card]]\nid = "public',
         ("card 'slander', effects 1", "unknown effect kind 'heal'")),
    ],
)  # fmt: skip
def test_event_reactions_are_checked_against_their_event(
    data_dir: Path, old: str, new: str, fragments: tuple[str, ...]
) -> None:
    edit(data_dir, "intrigue.toml", old, new)
    refused(data_dir, "intrigue.toml", *fragments)
