"""Hosting many Textual apps in one process: the workarounds for Textual's one-app-per-process
assumptions (fixes, shared loop, partial rendering, taking apart closed apps, the GC policy) and
the private attributes they rely on, pinned in textual_pins.py. One room, to be read, measured
and, once Textual allows it, deleted; nothing here imports the rooms above."""
