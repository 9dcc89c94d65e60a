"""The SSH server, its sessions and the cluster (the only network I/O)."""

import warnings

# cryptography 51 deprecated DSA, and asyncssh names its DSA classes when imported: a warning on
# every start (stderr, amid the JSON log lines) about a key type harena never offers or accepts.
warnings.filterwarnings("ignore", message="DSA is deprecated", module=r"asyncssh\.")
