"""Finished tables for the review's tests: ann in seat 0 (her moves the heuristic bot's), bots
in the others, and reviews of her decisions built from the table's own records."""

from __future__ import annotations

from harena.core.bots import bot_seed, decide
from harena.core.engine import game_class
from harena.core.lobby import Lobby
from harena.core.review.verdict import DecisionReview, Estimate, TableReview
from harena.core.table import Table


def finished_table(
    lobby: Lobby, game: str = "carthage", players: int = 3, identity: str = "id-ann"
) -> Table:
    options = dict(game_class(game).simulation_options)
    table = lobby.create_table(
        identity, "ann", game, players, options, bots=players - 1, bot_kind="heuristic"
    )
    mine = game_class(game).bots["heuristic"](bot_seed(7, 0))
    for _ in range(20_000):
        if table.game.result() is not None:
            return table
        if table.bots_to_move():
            table.play_bot(table.bots_to_move()[0])
        else:
            assert 0 in table.game.awaited(), "nobody to move"
            table.act(identity, decide(table.game, 0, mine))
    raise AssertionError("the game did not end")


def review_of(table: Table, drops: list[float], seat: int = 0) -> TableReview:
    """A review whose first len(drops) decisions of `seat` lost those chances (the rest none),
    each at the position and round the table's records hold."""
    from harena.core.replays import Replay

    replay = Replay(table.game.config, table.game.actions, reveal=True)
    decisions = []
    own = [i for i, a in enumerate(table.game.actions) if a.seat == seat]
    for index, position in enumerate(own):
        drop = drops[index] if index < len(drops) else 0.0
        choice = table.game.actions[position].choice
        decisions.append(
            DecisionReview(
                position=position,
                seat=seat,
                round=replay.round_at(position),
                chosen=Estimate(choice, f"chosen {index + 1}", 0.5 - drop),
                best=Estimate("best", f"best {index + 1}", 0.5),
            )
        )
    return TableReview(table.id, table.game.name, tuple(decisions))
