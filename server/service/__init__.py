"""The running server: `HarenaServer` and its SSH sessions, the backend it runs on (one process
or a cluster node), and the replies to `ssh host COMMAND`. It wires the rooms below together."""
