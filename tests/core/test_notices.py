"""Who is due a notice while away (core/notices.py): only when not connected, once per wait
past the player's threshold, tables due together in one digest, at most the daily cap in any
24 hours; the text tells the table, the game and the wait, nothing else."""

from __future__ import annotations

import pytest

from harena.core.notices import (
    DAY,
    NoticeLedger,
    NoticePrefs,
    WaitingTable,
    due_notice,
    email_problem,
    webhook_problem,
)

HOOK = NoticePrefs(webhook="https://hooks.example.org/abc")
MIN = 60.0


def due(waiting, now, *, ledger, prefs=HOOK, online=False):
    return due_notice(
        identity="ann-key",
        name="ann",
        prefs=prefs,
        waiting=waiting,
        online=online,
        ledger=ledger,
        now=now,
    )


def send(waiting, now, ledger, **kw):
    notice = due(waiting, now, ledger=ledger, **kw)
    if notice is not None:
        ledger.record(notice)
    return notice


def test_a_table_is_told_once_it_waited_past_the_threshold_and_only_while_away():
    ledger = NoticeLedger()
    table = [WaitingTable("3", "Carthage", 1000.0)]
    assert send(table, 1000 + 14 * MIN, ledger) is None  # 15 minutes by default
    assert send(table, 1000 + 16 * MIN, ledger, online=True) is None  # connected: the bell
    notice = send(table, 1000 + 16 * MIN, ledger)
    assert notice is not None and [t.table_id for t in notice.tables] == ["3"]
    assert notice.lines() == ["Table #3 (Carthage) has waited 16 min for your decision."]


def test_a_wait_on_another_node_s_clock_is_judged_and_told_on_the_sender_s():
    """In a cluster the table's instant is its owner's clock (`since`), ten minutes ahead of
    the sender's here: the wait is judged and told on the sender's clock, and the ledger still
    names it by the owner's instant, as every node does (docs/cluster.md)."""
    ledger = NoticeLedger()
    table = [WaitingTable("3", "Carthage", 1000.0 + 10 * MIN, shift=10 * MIN)]
    assert send(table, 1000 + 14 * MIN, ledger) is None  # 14 minutes, not 4 (nor 24)
    notice = send(table, 1000 + 16 * MIN, ledger)
    assert notice is not None
    assert notice.lines() == ["Table #3 (Carthage) has waited 16 min for your decision."]
    (told,) = notice.payload("harena")["tables"]
    assert told["waiting_since"] == 1000 and told["waited_seconds"] == 16 * MIN
    assert ledger.told["ann-key"] == {"3": 1000.0 + 10 * MIN}
    assert send(table, 1000 + 30 * MIN, ledger) is None  # the same wait: told once


def test_one_notice_per_wait_and_a_new_wait_is_told_anew():
    ledger = NoticeLedger()
    first = [WaitingTable("3", "Carthage", 0.0)]
    assert send(first, 20 * MIN, ledger) is not None
    assert send(first, 3 * 3600, ledger) is None  # still the same wait
    assert send([], 4 * 3600, ledger) is None  # the player moved: it waits no more
    again = [WaitingTable("3", "Carthage", 5 * 3600.0)]
    assert send(again, 5 * 3600 + 20 * MIN, ledger) is not None


def test_tables_due_together_go_out_as_one_digest():
    ledger = NoticeLedger()
    waiting = [WaitingTable("5", "Spartacus", 600.0), WaitingTable("3", "Carthage", 0.0)]
    notice = send(waiting, 600 + 20 * MIN, ledger)
    assert [t.table_id for t in notice.tables] == ["3", "5"]  # longest wait first
    assert notice.subject() == "harena: 2 tables are waiting for you"
    assert ledger.sent == {"ann-key": [600 + 20 * MIN]}


def test_never_more_than_the_daily_cap_in_any_24_hours():
    ledger = NoticeLedger()
    now = 0.0
    for n in range(2):  # default cap: 2
        now = n * 3600.0
        assert send([WaitingTable(str(n), "Carthage", now - 20 * MIN)], now, ledger) is not None
    late = WaitingTable("9", "Carthage", 2 * 3600.0)
    assert send([late], 3 * 3600.0, ledger) is None  # the cap: 2 already today
    assert send([late], DAY - 1, ledger) is None
    # 24 hours after the first one, one more may go: the table still waits, so it is told.
    notice = send([late], DAY + 1, ledger)
    assert notice is not None and notice.tables == (late,)
    assert send([late], DAY + 2, ledger) is None


def test_the_player_chooses_threshold_and_cap():
    prefs = NoticePrefs(webhook="https://x.example/h", after=60 * MIN, daily=1)
    ledger = NoticeLedger()
    waiting = [WaitingTable("1", "Carthage", 0.0)]
    assert send(waiting, 30 * MIN, ledger, prefs=prefs) is None
    assert send(waiting, 61 * MIN, ledger, prefs=prefs) is not None
    other = [*waiting, WaitingTable("2", "Carthage", 0.0)]
    assert send(other, 2 * 3600, ledger, prefs=prefs) is None  # cap 1


def test_nothing_is_sent_to_a_player_who_asked_for_nothing():
    assert (
        send([WaitingTable("1", "Carthage", 0.0)], DAY, NoticeLedger(), prefs=NoticePrefs()) is None
    )


def test_the_ledger_survives_a_restart():
    ledger = NoticeLedger()
    waiting = [WaitingTable("1", "Carthage", 0.0)]
    send(waiting, 20 * MIN, ledger)
    again = NoticeLedger.from_data(ledger.to_data())
    assert send(waiting, 30 * MIN, again) is None
    assert NoticeLedger.from_data("garbage") == NoticeLedger()


def test_a_single_server_s_ledger_merged_into_a_cluster_s_tells_no_wait_again():
    """Its tables renumbered on the way in keep their record; the cluster's own stands."""
    single, cluster = NoticeLedger(), NoticeLedger()
    send(
        [WaitingTable("1", "Carthage", 0.0), WaitingTable("3", "Spartacus", 60.0)], 30 * MIN, single
    )
    send([WaitingTable("3", "Carthage", 120.0)], 40 * MIN, cluster)
    cluster.merge(single, {"1": "1", "3": "7"})  # single's table 3 is the cluster's 7
    assert cluster.told == {"ann-key": {"1": 0.0, "7": 60.0, "3": 120.0}}
    assert cluster.sent == {"ann-key": [30 * MIN, 40 * MIN]}  # the daily cap counts both
    moved = [WaitingTable("7", "Spartacus", 60.0), WaitingTable("3", "Carthage", 120.0)]
    assert send(moved, 50 * MIN, cluster, prefs=NoticePrefs(HOOK.webhook, daily=10)) is None


def test_the_payload_carries_the_text_under_the_names_each_service_reads():
    ledger = NoticeLedger()
    notice = send([WaitingTable("3", "Carthage", 0.0)], 2 * 3600 + 5, ledger)
    body = notice.payload("harena", "ssh -t -p 2222 games.example.org")
    text = "Table #3 (Carthage) has waited 2 h for your decision.\nPlay: ssh -t -p 2222 games.example.org table 3"
    assert body["text"] == body["message"] == text
    assert body["content"].endswith(text) and body["title"] in body["content"]
    assert body["tables"] == [
        {
            "id": "3",
            "game": "Carthage",
            "waiting_since": 0,
            "waited_seconds": 7205,
            "connect": "ssh -t -p 2222 games.example.org table 3",
        }
    ]
    assert body["player"] == "ann" and body["event"] == "your-move"


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("", True),
        ("https://discord.com/api/webhooks/1/abc", True),
        ("https://ntfy.sh/#ann-harena", True),
        ("http://10.0.0.2:8080/hook", True),  # refused at delivery unless the operator allows
        ("ftp://x.org/a", False),
        ("https://", False),
        ("https://user:pw@x.org/", False),
        ("https://x.org/a b", False),
        ("https://x.org/" + "a" * 400, False),
    ],
)
def test_webhook_urls_are_checked(url, ok):
    assert (webhook_problem(url) == "") is ok


@pytest.mark.parametrize(
    ("address", "ok"),
    [
        ("", True),
        ("ann@example.org", True),
        ("ann", False),
        ("ann@localhost", False),
        ("ann@example.org\r\nBcc: x@y.org", False),
        ("a,b@example.org", False),
    ],
)
def test_email_addresses_are_checked(address, ok):
    assert (email_problem(address) == "") is ok
