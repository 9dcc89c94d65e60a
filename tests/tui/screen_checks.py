"""The screen audit's rules, as pure checks of a screen's text (issue 36).

Each check takes what a person sees (the rendered character grid, as lines) and what the view
says should be there, and returns the problems it finds. They know nothing of Textual, so a
planted bad screen (tests/tui/test_screen_audit.py) proves that each one can fail; the live
audit (tests/tui/screen_audit.py) feeds them the real screens of whole games.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

HIDDEN = "hidden choice"
COVERED = "panel covers"
IDS = "seat number or id"
CUT = "word cut"
DEAD_KEY = "dead key"
RULES = (HIDDEN, COVERED, IDS, CUT, DEAD_KEY)
"""The audit's rules, in the order the report lists them."""

ELLIPSIS = "…"
PAGE_MARKER = re.compile(r"\bpage \d+/\d+|\bmore\b", re.IGNORECASE)
"""A visible sign that there are more choices than shown, and how to reach them."""


@dataclass(frozen=True)
class Problem:
    rule: str
    kind: str
    """What of the rule it breaks, to count alike problems together (`hex coordinates`)."""
    line: str
    """The screen line that shows it (stripped), or the nearest one."""
    detail: str


# -- every choice of the open prompt is visible, or a marker says how to reach it --------------


def label_shown(line: str, key: str, label: str) -> bool:
    """True if `line` shows choice `label` after its key: whole, or cut with an ellipsis."""
    start = 0
    while (at := line.find(f"{key} ", start)) >= 0:
        start = at + 1
        if at > 0 and not line[at - 1].isspace():
            continue
        rest = line[at + len(key) :].lstrip()
        if rest.startswith(label):
            return True
        head = rest.split(ELLIPSIS, 1)[0]
        if ELLIPSIS in rest and head and label.startswith(head.rstrip()):
            return True
    return False


def hidden_choices(
    lines: Sequence[str], shown: Sequence[tuple[str, str]], elsewhere: int
) -> list[Problem]:
    """`shown`: (key, label) of the choices the prompt bar's page offers; `elsewhere`: how many
    more the prompt has on other pages. Each shown one must be on screen under its key; others
    need a visible marker ("page 1/2  [ ]", "more")."""
    problems = [
        Problem(HIDDEN, "a choice not on screen", _nearest(lines, label), f"{key} {label!r}")
        for key, label in shown
        if not any(label_shown(line, key, label) for line in lines)
    ]
    if elsewhere and not any(PAGE_MARKER.search(line) for line in lines):
        problems.append(
            Problem(
                HIDDEN,
                "no marker for more",
                "",
                f"{elsewhere} more, no marker says how to see them",
            )
        )
    return problems


def missing_choices(offered: Iterable[str], listed: Iterable[str]) -> list[Problem]:
    """Choice ids the view offers that the prompt bar does not list at all."""
    have = set(listed)
    return [
        Problem(HIDDEN, "a choice not in the bar", "", f"the bar does not list {cid!r}")
        for cid in offered
        if cid not in have
    ]


# -- no panel covers the prompt or the region it highlights ------------------------------------

Box = tuple[int, int, int, int]
"""x, y, width, height on the screen."""


def overlap(a: Box, b: Box) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def covered(
    lines: Sequence[str], panel: Box | None, regions: dict[str, Box], frame_over: str | None
) -> list[Problem]:
    """`panel`: where a guide panel is drawn (None: none shown); `regions`: what it must leave
    visible (the prompt bar, the region it highlights), by name; `frame_over`: the name of a
    highlighted region whose frame is drawn over its own edge rows, hiding them."""
    problems = []
    if panel is not None:
        for name, box in regions.items():
            if overlap(panel, box):
                row = lines[max(box[1], panel[1])] if lines else ""
                problems.append(Problem(COVERED, f"the panel covers {name}", row.strip(), ""))
    if frame_over is not None:
        box = regions.get(frame_over)
        row = lines[box[1]].strip() if box is not None and lines else ""
        problems.append(Problem(COVERED, f"the frame is drawn over {frame_over}", row, ""))
    return problems


# -- no seat number and no internal id ----------------------------------------------------------

ID_PATTERNS = (
    ("a seat number", re.compile(r"\bseat \d\b", re.IGNORECASE)),
    ("a player number", re.compile(r"\b[pP]\d\b")),
    ("a choice id", re.compile(r"\b[a-z][a-z_]*:[a-z0-9_]+[a-z0-9_:,.-]*")),
    ("hex coordinates", re.compile(r"(?<![\w.,/-])-?\d{1,2},-?\d{1,2}(?![\w,])")),
    ("None", re.compile(r"\bNone\b")),
    ("a Python repr", re.compile(r"\{'|\['|<[\w.]+ object|\b[A-Z]\w+\(\w+=|\bTrue\b|\bFalse\b")),
)


def ids_shown(lines: Sequence[str], choice_ids: Iterable[str] = ()) -> list[Problem]:
    """Seat numbers, player numbers, raw choice ids (and any id the view's choices carry that
    has a colon in it), hex coordinates and Python reprs on screen."""
    problems = []
    literal = [cid for cid in choice_ids if ":" in cid]
    for line in lines:
        for what, pattern in ID_PATTERNS:
            found = pattern.search(line)
            if found:
                problems.append(Problem(IDS, what, line.strip(), repr(found.group(0))))
        for cid in literal:
            if cid in line:
                problems.append(Problem(IDS, "a choice id", line.strip(), repr(cid)))
    return problems


# -- no word cut without an ellipsis -----------------------------------------------------------

MIN_PREFIX = 8
"""A screen text must show this many characters of a full text to count as that text."""
COLUMNS_OF = {"game title", "asset name"}
"""Sources of texts drawn in a column of fixed width, where the next column follows a cut
word after one space ("Spartacus: A G playing"); in running text ("bot/Glaber a trade" beside
the log's "bot/Glaber asks ...") that is only another text starting alike."""
MIN_CUT = 16
"""... and this many to count as that text cut between words (shorter: a name, say)."""
FRAME = set("│┃║|▏▕┆┊")


def cut_words(lines: Sequence[str], texts: Iterable[tuple[str, str]]) -> list[Problem]:
    """Wherever a screen line shows the start of one of `texts` ((where it comes from, the
    full text): choice labels, the prompt, log lines, ...), it must show it whole, or wrap it
    onto the next line, or end with an ellipsis where it stops."""
    problems: dict[tuple[str, str], Problem] = {}
    heads: dict[str, dict[str, str]] = {}
    for source, text in texts:
        text = text.strip()
        if len(text) > MIN_PREFIX and "\n" not in text:
            heads.setdefault(text[:MIN_PREFIX], {}).setdefault(text, source)
    for row, line in enumerate(lines):
        below = lines[row + 1] if row + 1 < len(lines) else ""
        for head, full_texts in heads.items():
            start = 0
            while (at := line.find(head, start)) >= 0:
                start = at + 1
                if at > 0 and line[at - 1].isalnum():
                    continue
                rest = line[at:]
                lead = line[:at]
                # (a text that starts mid-sentence may be another text's tail, running on)
                alone = not lead.strip() or lead.endswith("  ") or lead.rstrip()[-1] in FRAME
                cuts = [
                    text
                    for text, source in full_texts.items()
                    if _cut(rest, below, text, source in COLUMNS_OF, alone)
                ]
                # (one whole or fairly wrapped: the screen shows that one, not the others cut)
                if cuts and len(cuts) == len(full_texts):
                    full = cuts[0]
                    shown = rest[: _common(rest, full)]
                    problems[(line, full)] = Problem(
                        CUT, f"a cut {full_texts[full]}", line.strip(), f"{shown!r} of {full!r}"
                    )
    return list(problems.values())


def _cut(rest: str, below: str, text: str, in_column: bool, alone: bool) -> bool:
    """True if the screen, from where `text` starts (`rest`), shows it cut: it stops mid-word
    at its region's edge (or, `in_column`, with a space where the word goes on: the next
    column), or, starting a line of its own (`alone`), stops between words at the edge
    without going on on the next line (`below`). An ellipsis where it stops, or a different
    text that merely starts alike, is no cut."""
    common = _common(rest, text)
    if common == len(text):
        return False
    here = rest[common] if common < len(rest) else None  # None: the end of the line
    if here == ELLIPSIS:
        return False
    mid_word = text[common - 1].isalnum() and text[common].isalnum()
    if here is not None and here not in FRAME:
        return in_column and mid_word and here == " "  # else another text that starts alike
    if mid_word:
        return True
    if not alone or common < MIN_CUT or (text[common - 1] != " " and not text[common].isspace()):
        return False  # too short to tell from a name, or not between words
    return _word(text[common:].split()[0]) not in {_word(w) for w in below.split()}


def _word(word: str) -> str:
    return word.strip(".,:;!?()[]\"'")


def _common(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


# -- the key bar lists only keys that do something for this person -----------------------------


@dataclass(frozen=True)
class BarKey:
    keys: str
    label: str
    action: str
    """The action it runs (`prompt_choose`, `give`, `board('next')`, ...); '' when no binding
    of the screen runs it."""


SEATED_ONLY = re.compile(
    r"^(prompt_choose|prompt_page|give|ask|leave|take_back|your_move|board\('(step|naked))"
)
"""Actions that do something only for a person holding a seat (a spectator is refused)."""


def dead_keys(bar: str, keys: Sequence[BarKey], spectator: bool) -> list[Problem]:
    """`keys`: the entries the key bar (`bar`, its text) may list, with their actions. Each one
    listed must run an action, and one a spectator can use when this person watches."""
    problems = []
    for key in keys:
        if not _listed(bar, key):
            continue
        if not key.action:
            problems.append(
                Problem(DEAD_KEY, f"{key.keys} {key.label}: no action", bar.strip(), "")
            )
        elif spectator and SEATED_ONLY.match(key.action):
            problems.append(
                Problem(
                    DEAD_KEY,
                    f"{key.keys} {key.label}: a spectator cannot use it",
                    bar.strip(),
                    key.action,
                )
            )
    return problems


def _listed(bar: str, key: BarKey) -> bool:
    return (
        re.search(rf"(?<!\S){re.escape(key.keys)}\s{{1,2}}{re.escape(key.label)}\b", bar)
        is not None
    )


def _nearest(lines: Sequence[str], text: str) -> str:
    """The screen line most like `text` (where a hidden choice would have been)."""
    words = set(text.split())
    best = max(lines, key=lambda line: len(words & set(line.split())), default="")
    return best.strip()
