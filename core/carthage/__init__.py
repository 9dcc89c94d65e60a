"""Carthage: gladiators on a hex arena, fighting with decks of Action cards for the crowd's Favor.

The pieces, one guess each: the board geometry is in `hexgrid`, the effect primitives in
`effects`, cards, theater cards, gladiators and arena tokens in `cards`, the data files in `data/`
(read and validated by `content`, parsed table by table in `schema`), the cost curve of the
reference card set in `balance`. The rules: `state` (what changes), `board` (a step,
damage, knockback, elimination), `resolve` (cards step by step), `flow` (the round), `prompts`
and `view`, tied to the engine in `rules` (the game `Carthage`, registered on import).
The expansions a table turns on: Equipment (`equipment`, `equipment_rules`), Theater Legend
cards (`data/legends.toml`), Arena Beasts (`beasts`, `beast_rules`); the heuristic bot's view
of them is `kit_bots`.
"""
