"""The `harena` command line: parsing, `serve` and its options and config file, the host-side
operations commands, and `harena play`/`replay` in a local terminal. The top room: it may import
every room below it."""
