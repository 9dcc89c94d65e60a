"""`harena export` / `import` of whole games: file size and time, as an operator would meet them.

    python bench/table_transfer.py [--game carthage] [--players 4] [--games 5] [--seed 1]

Plays complete bot games at saved tables (Carthage with its simulation options, so games end),
then exports each and imports it into a second data folder. Prints records, export file bytes
and the median export and import ms (import rebuilds the game from its log twice: once to check
the snapshot, once to load it). Figures, not pass/fail: the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.quick import parse_args
from harena.core.engine import game_class
from harena.core.lobby import Lobby
from harena.core.store import Store
from harena.core.transfer import export_table, import_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="carthage")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parse_args(parser, games=1)
    options = dict(game_class(args.game).simulation_options)
    seeds = iter(range(args.seed, args.seed + 10_000))
    with tempfile.TemporaryDirectory() as tmp:
        source = Lobby(Store(Path(tmp) / "a"), new_seed=lambda: next(seeds))
        target = Store(Path(tmp) / "b")
        records, sizes, export_ms, import_ms = [], [], [], []
        for _ in range(args.games):
            table = source.create_table(
                "bench", "bench", args.game, args.players, options, bots=args.players, sit=False
            )
            while table.game.result() is None and table.bots_to_move():
                table.play_bot(table.bots_to_move()[0])
            start = time.perf_counter()
            blob = export_table(source.store, table.id)
            export_ms.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            imported = import_table(target, blob)
            import_ms.append((time.perf_counter() - start) * 1000)
            assert imported.game.snapshot() == table.game.snapshot()
            imported.close()
            records.append(len(source.store.read_records(table.id)))
            sizes.append(len(blob))
        source.close()
    print(
        f"{args.game}, {args.players} bots, {args.games} complete games (options {options or 'none'})"
    )
    print(f"  records per game: median {statistics.median(records):.0f}, max {max(records)}")
    print(
        f"  export file: median {statistics.median(sizes) / 1024:.0f} KiB, max {max(sizes) / 1024:.0f} KiB"
    )
    print(
        f"  export: median {statistics.median(export_ms):.0f} ms; import: median {statistics.median(import_ms):.0f} ms"
    )


if __name__ == "__main__":
    main()
