"""Pictures of grooph documents as SVG (spec/pictures.md): the graph picture, a board workflow's picture
(workflow_picture.py), and a map's phone
picture, its lanes side by side (`layout="wide"`) and its sequence (`view="sequence"`), in the
`light`, `dark` or `auto` theme; and PNG from a `light`/`dark` picture.

Pictures are made from the document alone and are deterministic (same document and options, same
bytes). All document text is escaped; a picture has no script and no external reference.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from grooph_core.picture.theme import THEMES, Theme

__all__ = ["PictureError", "Drawn", "DRAWN", "render_svg", "render_png", "LAYOUTS", "VIEWS", "THEMES", "DEFAULT_PNG_SCALE"]

LAYOUTS = ("phone", "wide")
VIEWS = ("picture", "sequence")
DEFAULT_PNG_SCALE = 3.0  # pictures.md §11: 3 pixels per unit (1,200 px for a phone picture)
MAX_PNG_SCALE = 8.0      # cli.md §3.1 --scale: above 0 and at most 8
MIN_WIDTH = 200.0        # our floor for the `width` option: narrower leaves no room for a card


class PictureError(Exception):
    """A document or an option that cannot be drawn; `message` says which fault blocks it.

    `issues` holds the document's structural (`E_SCHEMA`) issues when that is the fault.
    """

    def __init__(self, message: str, issues=()):
        super().__init__(message)
        self.message = message
        self.issues = tuple(issues)


@dataclass(frozen=True)
class Drawn:
    """What a kind's picture is (pictures.md): what a message calls one, whether it has one picture only
    (no layout, no view), the map's wide layout and sequence view, a graph's subgroophs (§7.7), how its
    structure is checked and how it is drawn."""

    what: str
    structure: Callable[[dict, str], list]
    render: Callable[..., str]
    one_picture: bool = False
    wide_and_sequence: bool = False
    subgroophs: bool = False


def _check_options(kind: str, theme: str, layout: str | None, view: str | None, width: float | None) -> Drawn:
    drawn = DRAWN.get(kind)
    if drawn is None:
        raise PictureError(f'unknown document kind "{kind}": pictures are drawn of a "graph", a "map" or a "workflow"')
    if drawn.one_picture and (layout, view) != (None, None):
        raise PictureError("a workflow has one picture: it takes no layout and no view")
    if theme not in THEMES:
        raise PictureError(f'unknown theme "{theme}": use light, dark or auto')
    if layout not in (None,) + LAYOUTS:
        raise PictureError(f'unknown layout "{layout}": use phone or wide')
    if view not in (None,) + VIEWS:
        raise PictureError(f'unknown view "{view}": use picture or sequence')
    if not drawn.wide_and_sequence and layout == "wide":
        raise PictureError("the wide layout (lanes side by side) is drawn only for operation maps, not for a graph")
    if not drawn.wide_and_sequence and view == "sequence":
        raise PictureError("the sequence view is drawn only for operation maps, not for a graph")
    if view == "sequence" and layout == "wide":
        raise PictureError("the sequence view has only one layout: drop the wide layout")
    if width is not None:
        if isinstance(width, bool) or not isinstance(width, (int, float)) or not math.isfinite(width):
            raise PictureError("the width must be a finite number of units")
        if width < MIN_WIDTH:
            raise PictureError(f"a width of {width:g} units is too narrow to draw: use at least {MIN_WIDTH:g}")
    return drawn


def _structural_faults(value: object, kind: str, drawn: Drawn) -> None:
    """Refuse a document that does not have the shape of its kind (graph.md §4, map.md §5, workflow.md §2)."""
    what = drawn.what
    if not isinstance(value, dict):
        raise PictureError(f"cannot draw it: the document is not a JSON object, so it is not {what}")
    issues = drawn.structure(value, kind)
    if issues:
        more = f" (and {len(issues) - 1} more structural issue{'s' if len(issues) > 2 else ''})" if len(issues) > 1 else ""
        raise PictureError(f"cannot draw it: it is not {what} grooph can read: {issues[0].message}{more}", issues)


def _grooph_structure(value: dict, kind: str) -> list:
    from grooph_core.schema.check import schema_issues  # lazy: the picture package loads without it (~125 ms)

    return schema_issues(value, kind)


def _workflow_structure(value: dict, kind: str) -> list:
    from grooph_core.rules.workflow import structure_issues  # lazy: ~30 ms, for workflows only

    return structure_issues(value)


def render_svg(value: dict, kind: str, *, theme: str = "light", layout: str | None = None,
               view: str | None = None, width: float | None = None, open_groups=()) -> str:
    """The picture of a parsed document as SVG text (ending with one newline).

    `kind` is "graph" or "map". Maps: `layout` "phone" (default) or "wide"; `view` "picture" (default)
    or "sequence". `width` is the reference's width option (pictures.md §3.2, §4.5, §5.1, §7), in units.
    Graphs: `open_groups` names subgroophs to draw open (§7.7; cli.md `--open`); the rest are closed.
    A document with rule errors is still drawn; one that fails the structural check raises
    `PictureError` naming the first fault.
    """
    drawn = _check_options(kind, theme, layout, view, width)
    _structural_faults(value, kind, drawn)
    open_groups = tuple(open_groups or ())
    if open_groups:
        if not drawn.subgroophs:
            raise PictureError("only a graph has subgroophs to open")
        from grooph_core.picture.subgroophs import subgrooph_ids

        known = subgrooph_ids(value)
        unknown = [g for g in open_groups if g not in known]
        if unknown:
            have = f"its subgroophs are: {', '.join(known)}" if known else "it has no subgrooph"
            raise PictureError(f'"{unknown[0]}" is not a subgrooph of this graph; {have}')
    return drawn.render(value, Theme(theme), layout=layout, view=view, width=width, open_groups=open_groups)


def _render_workflow(value: dict, th: Theme, **_options) -> str:
    from grooph_core.picture.workflow_picture import render_workflow  # lazy, as each renderer: 27-54 ms each

    return render_workflow(value, th)


def _render_graph(value: dict, th: Theme, *, width: float | None, open_groups: tuple, **_options) -> str:
    from grooph_core.picture.graph_picture import render_graph

    return render_graph(value, th, 400 if width is None else width, open_groups)


def _render_map(value: dict, th: Theme, *, layout: str | None, view: str | None, width: float | None,
                **_options) -> str:
    from grooph_core.picture.map_parts import map_model

    model = map_model(value)
    if view == "sequence":
        from grooph_core.picture.map_sequence import render_sequence

        return render_sequence(model, th, width)
    if layout == "wide":
        from grooph_core.picture.map_wide import render_wide

        return render_wide(model, th, width)
    from grooph_core.picture.map_phone import render_phone

    return render_phone(model, th, 400 if width is None else width)


# The kinds with a picture, by name (pictures.md; a workflow's: issue 15 point 6).
DRAWN: dict[str, Drawn] = {
    "graph": Drawn("a graph document", _grooph_structure, _render_graph, subgroophs=True),
    "map": Drawn("an operation map", _grooph_structure, _render_map, wide_and_sequence=True),
    "workflow": Drawn("a board workflow", _workflow_structure, _render_workflow, one_picture=True),
}


def render_png(svg: str, scale: float = DEFAULT_PNG_SCALE) -> bytes:
    """A PNG of a `light` or `dark` picture at `scale` pixels per unit (pictures.md §11), via cairosvg.

    The machine's own fonts are used, so pixels may differ between machines; the SVG is the artefact
    that is reproducible. Nothing outside the SVG is ever read.
    """
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not (0 < scale <= MAX_PNG_SCALE):
        raise PictureError(f"the PNG scale must be a number above 0 and at most {MAX_PNG_SCALE:g}")
    if "var(--gp-" in svg:
        raise PictureError("a PNG holds one palette: draw the picture with the light or dark theme, not auto")
    try:
        import cairosvg
    except ImportError as e:  # pragma: no cover - cairosvg is a declared dependency
        raise PictureError(f"could not make a PNG: the cairosvg package is not available ({e})") from e
    try:
        # unsafe=False: cairosvg then reads no file and fetches no URL (only data: URLs are resolved).
        return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=float(scale), unsafe=False)
    except PictureError:
        raise
    except Exception as e:  # cairo or its XML parser refusing the text
        raise PictureError(f"could not make a PNG: {type(e).__name__}: {e}") from e
