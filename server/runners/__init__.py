"""Runners beside the tables: bots moving (on the loop or in worker processes) and clocks closing
windows and turns."""
