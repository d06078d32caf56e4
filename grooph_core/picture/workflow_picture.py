"""The picture of a board's workflow (`*.workflow.yaml`, workflow.md §2; issue 15 point 6).

pictures.md has no workflow section; these are our layout rules, kept here in one place:

- One column 400 units wide (wider only when the arrows need more margin). From the top: the title
  `Workflow` and the workflow's `description`, then the **statuses panel**, then the **run machine panel**
  when `run` is given.
- **Cards.** A card per status. The first card is `new card` (the workflow's `initial` transitions); then
  the statuses in the order transitions reach them, breadth first from the initial targets (each card's
  rows in their order); statuses no transition reaches come last, in document order, marked `unreachable`.
  A card shows its name (bold), a line of facts (`stored as …`, `runs <role> in <session>`, `run spec …`)
  and one row per outgoing transition: its event, then `→ target` (or `stays` when it has none).
- **Rows of a card**, in this order: the status's own `on` (by event), `always`, `after <expr>`, then every
  verb whose transition lists the status in `from` (an empty `from`: every status), then the workflow's
  global `on` (every status). So a verb or a global event appears once per source status.
- **Arrows.** Each row with a target is an arrow from the row's right end, through the right margin, to
  the target's card (its name line). Arrows are packed onto margin tracks (tracks.py) so they never run
  on top of each other; an arrow to a name that is not a status is drawn in the error colour to a card
  edge of its own row (`no status X`). A `{{…}}` target goes to the dashed **decided at run time** mark
  below the cards, drawn dashed.
- **Run machine panel.** The same cards and arrows for the run states (first `run.initial`, then breadth
  first; `run.on` rows from every state), and below them one line per outcome (`outcome → target`).
- Themes light, dark, auto as every picture (theme.py); text measured and cut by measure.py; primitives
  and attribute order of svg.py; every text escaped; no randomness, no clock: same document, same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

from grooph_core.picture.measure import truncate, wrap
from grooph_core.picture.svg import Pen, esc, fmt, frame, pt
from grooph_core.picture.theme import Theme
from grooph_core.picture.tracks import pack
from grooph_core.rules.workflow.semantics import as_text, read_workflow, status_transitions, transition_list

WIDTH = 400.0
PAD = 16.0
CARD_W = 270.0
HEAD_H = 22.0
FACT_H = 16.0
ROW_H = 17.0
CARD_GAP = 14.0
TRACK_GAP = 7.0
RUN_TIME = "decided at run time"
NEW_CARD = "new card"


@dataclass(frozen=True)
class Row:
    label: str          # the event (`start`, `always`, `after 30`)
    target: str | None  # None: stays


@dataclass(frozen=True)
class Card:
    name: str
    facts: str
    rows: tuple[Row, ...]
    pseudo: bool = False  # the `new card` entry
    unreachable: bool = False


def _is_template(target: str) -> bool:
    return target.startswith("{{")


def _rows(status: object, base: str, extra: list[tuple[str, list]]) -> list[Row]:
    """A status's own transitions (on, always, after), then the shared ones (verbs, global on)."""
    rows = []
    for t in status_transitions(status, base, True):
        tail = t.pointer[len(base) + 1:].split("/")
        if tail[0] == "on":
            label = tail[1].replace("~1", "/").replace("~0", "~")
        elif tail[0] == "always":
            label = "always"
        else:
            after = t.value.get("after")
            label = f"after {as_text(after) if as_text(after) is not None else '?'}"
        rows.append(Row(label, t.target))
    for label, ts in extra:
        rows += [Row(label, t.target) for t in ts]
    return rows


def _order(first: list[str], cards: dict[str, Card], names: list[str]) -> list[str]:
    """Breadth first from `first` along each card's rows; the rest after, in document order."""
    seen: list[str] = []
    queue = [n for n in first if n in cards]
    while queue:
        n = queue.pop(0)
        if n in seen:
            continue
        seen.append(n)
        queue += [r.target for r in cards[n].rows if r.target in cards and r.target not in seen]
    return seen + [n for n in names if n not in seen]


def _facts(status: dict) -> str:
    parts = []
    if as_text(status.get("stored_as")) is not None:
        parts.append(f"stored as {as_text(status['stored_as'])}")
    run = status.get("run")
    if type(run) is dict and as_text(run.get("role")) is not None:
        parts.append(f"runs {as_text(run['role'])} in {as_text(run.get('session')) or '?'}")
    if as_text(status.get("run_role")) is not None:
        parts.append(f"run spec {as_text(status['run_role'])}")
    return " · ".join(parts)


def _machine(states: dict, base: str, shared: list[tuple[str, dict | None, str]], first: list[str],
             entry: Card | None) -> list[Card]:
    """The cards of one machine in picture order. `shared`: (prefix, map of event → transitions, from-rule)."""
    names = list(states)
    cards: dict[str, Card] = {}
    for name in names:
        status = states[name]
        extra = []
        for prefix, events, rule in shared:
            for event, ts in (events or {}).items():
                mine = []
                for t in transition_list(ts, ""):
                    src = t.value.get("from")
                    if rule == "from" and type(src) is list and src and name not in [as_text(s) for s in src]:
                        continue
                    mine.append(t)
                if mine:
                    extra.append((f"{prefix}{event}", mine))
        cards[name] = Card(name, _facts(status) if type(status) is dict else "",
                           tuple(_rows(status, f"{base}/{name}", extra)))
    order = _order(first, cards, names)
    reached = _reach(first, cards)
    out = [entry] if entry is not None else []
    for n in order:
        c = cards[n]
        out.append(Card(c.name, c.facts, c.rows, unreachable=n not in reached))
    return out


def _reach(first: list[str], cards: dict[str, Card]) -> set[str]:
    seen, queue = set(), [n for n in first if n in cards]
    while queue:
        n = queue.pop(0)
        if n not in seen:
            seen.add(n)
            queue += [r.target for r in cards[n].rows if r.target in cards]
    return seen


class _Panel:
    """Lays out and draws one machine's cards with their arrows, from a top y."""

    def __init__(self, pen: Pen, cards: list[Card], title: str, top: float, has_mark: bool):
        self.pen, self.cards, self.title, self.top = pen, cards, title, top
        self.has_mark = has_mark

    def layout(self):
        y = self.top + 30
        self.card_y: dict[str, tuple[float, float]] = {}
        self.row_y: list[tuple[str, int, float]] = []
        for c in self.cards:
            h = HEAD_H + (FACT_H if c.facts else 0) + ROW_H * len(c.rows) + 6
            self.card_y[("\0" if c.pseudo else "") + c.name] = (y, h)
            ry = y + HEAD_H + (FACT_H if c.facts else 0) + 12
            for k in range(len(c.rows)):
                self.row_y.append((c.name, k, ry + k * ROW_H))
            y += h + CARD_GAP
        self.mark_y = y if self.has_mark else None
        self.bottom = y + (30 + CARD_GAP if self.has_mark else 0)

    def arrows(self) -> list[tuple[float, float, str, bool]]:
        """(from y, to y, colour, dashed) for every row with a target, in card and row order."""
        out = []
        rows = iter(self.row_y)
        for c in self.cards:
            for r in c.rows:
                _, _, ry = next(rows)
                if r.target is None:
                    continue
                if _is_template(r.target):
                    out.append((ry, self.mark_y + 15, "ink-3", True))
                elif r.target in self.card_y:
                    y, _ = self.card_y[r.target]
                    out.append((ry, y + 14, "accent", False))
                else:
                    out.append((ry, ry, "error", False))
        return out


def _card_svg(pen: Pen, c: Card, x: float, y: float, h: float, rows_y: list[float]) -> str:
    fill = "surface-2" if c.pseudo else "surface"
    stroke = "line-strong" if not c.unreachable else "warning"
    out = f'<g data-status="{esc(c.name)}">' if not c.pseudo else '<g data-entry="">'
    out += pen.rect(x, y, CARD_W, h, fill=fill, stroke=stroke, rx=6, dash="4 3" if c.unreachable else None, mark="card")
    name = truncate(c.name, CARD_W - 90, 12, "bold")
    out += pen.text(x + 10, y + 15, 12, name, "ink", bold=True)
    if c.unreachable:
        out += pen.text(x + CARD_W - 10, y + 15, 9, "unreachable", "warning", anchor="end")
    if c.facts:
        out += pen.text(x + 10, y + HEAD_H + 9, 9.5, truncate(c.facts, CARD_W - 20, 9.5), "ink-3")
    for r, ry in zip(c.rows, rows_y):
        label = truncate(r.label, 120, 10, "bold")
        out += pen.text(x + 10, ry, 10, label, "ink-2", bold=True)
        if r.target is None:
            tail, ink = "stays", "ink-3"
        elif _is_template(r.target):
            tail, ink = f"→ {r.target}", "ink-3"
        else:
            tail, ink = f"→ {r.target}", "ink"
        out += pen.text(x + CARD_W - 10, ry, 10, truncate(tail, CARD_W - 150, 10), ink, anchor="end")
    return out + "</g>"


def _draw_panel(pen: Pen, panel: _Panel, x: float, track_x0: float, outcomes: list[str]) -> tuple[str, float]:
    out = [pen.text(x, panel.top + 16, 11, panel.title, "ink-2", bold=True)]
    rows = iter(panel.row_y)
    for c in panel.cards:
        y, h = panel.card_y[("\0" if c.pseudo else "") + c.name]
        ys = [next(rows)[2] for _ in c.rows]
        out.append(_card_svg(pen, c, x, y, h, ys))
    if panel.mark_y is not None:
        out.append('<g data-run-time="">' + pen.rect(x, panel.mark_y, CARD_W, 30, stroke="ink-3", rx=6, dash="5 4")
                   + pen.text(x + CARD_W / 2, panel.mark_y + 19, 10.5, RUN_TIME, "ink-3", anchor="middle") + "</g>")
    arrows = panel.arrows()
    tracks, _n = pack([(a, b) for a, b, _, _ in arrows], gap=2)
    edge = x + CARD_W
    for (y1, y2, colour, dashed), t in zip(arrows, tracks):
        tx = track_x0 + t * TRACK_GAP
        if y1 == y2:  # a name that is not a status: a short red stub
            d = f"M{pt(edge, y1 - 3)} H{fmt(tx)}"
        else:
            d = f"M{pt(edge, y1 - 3)} H{fmt(tx)} V{fmt(y2)} H{fmt(edge + 6)}"
        out.append('<g data-arrow="">' + pen.line(d, colour, 1.2, "4 3" if dashed else None)
                   + pen.shape(f"M{pt(edge + 0.5, y2 if y1 != y2 else y1 - 3)} l6.5,-3.6 v7.2 z", colour) + "</g>")
    y = panel.bottom
    for line in outcomes:
        out.append(pen.text(x, y + 4, 10, truncate(line, CARD_W, 10), "ink-2"))
        y += ROW_H
    return "".join(out), y


def render_workflow(value: dict, theme: Theme) -> str:
    """The SVG of a workflow that passed the structural check (E_WF_SCHEMA)."""
    pen = Pen(theme)
    doc = read_workflow(value)
    statuses = doc.statuses or {}
    initial = transition_list(value.get("initial"), "/initial")
    entry = Card(NEW_CARD, "", tuple(Row("initial", t.target) for t in initial), pseudo=True)
    cards = _machine(statuses, "/statuses", [("", doc.verbs, "from"), ("", doc.on, "all")],
                     [t.target for t in initial if t.target], entry)
    templates = any(r.target and _is_template(r.target) for c in cards for r in c.rows)
    desc = as_text(value.get("description"))
    head = wrap(desc, WIDTH - 2 * PAD, 10.5, 3) if desc else []
    top = PAD + 22 + 14 * len(head) + 6
    panels = [(_Panel(pen, cards, "Statuses", top, templates), [])]
    run = doc.run
    if run is not None:
        states = doc.run_states or {}
        init = as_text(run.get("initial"))
        rcards = _machine(states, "/run/states", [("", run.get("on") if type(run.get("on")) is dict else {}, "all")],
                          [init] if init is not None else [], None)
        rtemplates = any(r.target and _is_template(r.target) for c in rcards for r in c.rows)
        outcomes = []
        for name, ts in (run.get("outcomes") if type(run.get("outcomes")) is dict else {}).items():
            for t in transition_list(ts, ""):
                outcomes.append(f"outcome {name} → {t.target if t.target is not None else 'stays'}")
        panels.append((_Panel(pen, rcards, "Run machine" + (f" (starts in {init})" if init else ""), 0, rtemplates),
                       outcomes))
    # Layout: each panel below the one before; the margin is as wide as the most tracks any panel needs.
    y = top
    most = 0
    for panel, outcomes in panels:
        panel.top = y
        panel.layout()
        _, n = pack([(a, b) for a, b, _, _ in panel.arrows()], gap=2)
        most = max(most, n)
        y = panel.bottom + ROW_H * len(outcomes) + 10
    width = max(WIDTH, PAD + CARD_W + 14 + most * TRACK_GAP + PAD)
    body = [pen.text(PAD, PAD + 14, 15, "Workflow", "ink", bold=True)]
    for k, line in enumerate(head):
        body.append(pen.text(PAD, PAD + 32 + 14 * k, 10.5, line, "ink-2"))
    for i, (panel, outcomes) in enumerate(panels):
        if i:
            body.append('<g data-run-machine="">' + pen.rect(PAD / 2, panel.top - 4, width - PAD, panel.bottom
                        + ROW_H * len(outcomes) - panel.top + 8, fill="accent-soft", rx=8))
        svg, _ = _draw_panel(pen, panel, PAD, PAD + CARD_W + 14, outcomes)
        body.append(svg + ("</g>" if i else ""))
    title = "Workflow" + (f": {desc}" if desc else "")
    return frame("workflow", width, y + PAD, title, theme, "".join(body))
