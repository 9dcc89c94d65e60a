"""`harena serve` without cluster settings stays what it was: it needs neither NATS nor nats-py
(the cluster code is imported only by a node, `--workers` and the cluster commands)."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import sys
from harena.server.commands.cli import build_parser, parse_args
from harena.server.service.ssh_server import HarenaServer, ServerConfig
args = parse_args(["serve", "--port", "0"])
assert args.cluster is None and args.workers == 1
loaded = sorted(m for m in sys.modules if m == "nats" or m.startswith("nats."))
print(loaded)
"""


def test_serve_without_cluster_settings_never_imports_nats():
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
