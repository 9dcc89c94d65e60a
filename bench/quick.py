"""`--quick` for every benchmark: a tiny workload, so CI checks each bench still runs and prints
its figures (`.ci/bench_quick`) without paying for real measurements. The figures of a quick run
mean nothing; only that it completed."""

from __future__ import annotations

import argparse
from typing import Any


def parse_args(
    parser: argparse.ArgumentParser, argv: list[str] | None = None, **tiny: Any
) -> argparse.Namespace:
    """`parser.parse_args(argv)`, with a `--quick` flag that sets the arguments named in `tiny`
    (e.g. games=2) to those values instead of what was given or defaulted."""
    shown = ", ".join(f"--{name.replace('_', '-')} {value}" for name, value in tiny.items())
    parser.add_argument("--quick", action="store_true", help=f"a tiny workload for CI: {shown}")
    args = parser.parse_args(argv)
    if args.quick:
        for name, value in tiny.items():
            setattr(args, name, value)
    return args
