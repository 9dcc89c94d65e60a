"""The support shortfall over SSH (issue 12): what a seat still to answer reads on its screen
does not change with the answers already given, since those are revealed together."""

from __future__ import annotations

from harena.server.transport.hostkey import fingerprint
from tests.server.players import new_key, player

HOUSES = ("solonius", "glaber", "batiatus", "tullius")


async def test_a_seat_asked_for_support_reads_the_shortfall_before_any_answer(make_server):
    server = await make_server()
    server.lobby._new_seed = lambda: 1
    keys = [new_key() for _ in range(4)]
    ids = [fingerprint(k) for k in keys]
    table = server.lobby.create_table(ids[0], "ann", "spartacus", 4,
                                      {"length": "advanced", "round_limit": "10"})  # fmt: skip
    for seat, name in ((1, "bob"), (2, "cat"), (3, "dan")):
        table.sit(ids[seat], name)
    for seat, house in enumerate(HOUSES):
        table.act(ids[seat], f"house:{house}")
    hand = table.game.state.players[0].hand
    letters = next(c for c in hand if table.game.card(c).name == "Forged Letters")
    for choice in (f"scheme:{letters}", "target:1", "ask:show"):
        table.act(ids[0], choice)
    dan = await player(server, "dan", keys[3])
    await dan.wait_for_text("(3 Infl")  # the prompt bar cuts the rest at 80 columns
    table.act(ids[1], "support")  # 1 of the 3 missing, still secret
    await dan.wait_for_text("bob/Glaber answered")  # on the phase panel
    screen = "\n".join(dan.lines())
    assert "(3 Infl" in screen and "(2 Infl" not in screen
