"""Search bots: decisions chosen by simulation over the engine, on samples of what a seat may
not know (`world`), played forward by a fast policy and scored (`evaluate`). Pure core: no I/O,
no clocks but the optional wall-clock budget a caller passes in."""
