"""The SSH server, its sessions and the cluster (the only network I/O).

Rooms, each importing only those below it (tests/server/test_layers.py): commands (the `harena`
command), service (HarenaServer and its backend), cluster, operations, notices, transport (one
session's app, driver and screen), runners (bots, clocks), hosting (many Textual apps in one
process), common.
"""

import warnings

# cryptography 51 deprecated DSA, and asyncssh names its DSA classes when imported: a warning on
# every start (stderr, amid the JSON log lines) about a key type harena never offers or accepts.
warnings.filterwarnings("ignore", message="DSA is deprecated", module=r"asyncssh\.")
