"""Spartacus: A Game of Blood and Treachery - houses of Capua scheming, trading and fighting.

The pieces, one guess each: cards, houses and their effect primitives in `cards`, the data files
in `data/` (read and validated by `content`, entries parsed in `parse`, fields in `schema`), the
Arena's hexes in `board`. The rules: `state` (what changes), `holdings` (denarii, cards and
Influence changing hands), `setup`, `maintenance`, `intrigue`, `schemes` and `scheme_effects`,
`market` and `auction`, `arena`, `bets` and `combat`, `gifts` (denarii at any time), `flow` (the
turn and the end), `view` (what each seat may know), each applying the typed choices of
`choices`, tied to the engine in `rules` (the game `Spartacus`, registered on import); `bots`
holds the HeuristicBot.
"""
