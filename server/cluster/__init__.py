"""harena nodes sharing tables through NATS JetStream (docs/cluster.md).

Nothing here is imported by `harena serve` without cluster settings: the embedded default needs
neither NATS nor nats-py. link.py: the NATS connection on its own thread; table_store.py: table
logs and snapshots in a stream, fenced; lease.py: table leases in a KV bucket; reviews.py:
finished tables' reviews in a KV bucket, weighed once for every node; notices.py: one
node sends the notices to players who are away; natsd.py: a local nats-server for `--workers`
and the tests.
"""
