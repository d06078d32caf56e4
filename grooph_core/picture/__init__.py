"""Pictures of grooph documents as SVG (spec/pictures.md): the graph picture, a board workflow's picture
(workflow_picture.py), and a map's phone
picture, its lanes side by side (`layout="wide"`) and its sequence (`view="sequence"`), in the
`light`, `dark` or `auto` theme; and PNG from a `light`/`dark` picture.

Pictures are made from the document alone and are deterministic (same document and options, same
bytes). All document text is escaped; a picture has no script and no external reference.
"""

from __future__ import annotations

import math

from grooph_core.picture.theme import THEMES, Theme

__all__ = ["PictureError", "render_svg", "render_png", "LAYOUTS", "VIEWS", "THEMES", "DEFAULT_PNG_SCALE"]

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


def _check_options(kind: str, theme: str, layout: str | None, view: str | None, width: float | None) -> None:
    if kind not in ("graph", "map", "workflow"):
        raise PictureError(f'unknown document kind "{kind}": pictures are drawn of a "graph", a "map" or a "workflow"')
    if kind == "workflow" and (layout, view) != (None, None):
        raise PictureError("a workflow has one picture: it takes no layout and no view")
    if theme not in THEMES:
        raise PictureError(f'unknown theme "{theme}": use light, dark or auto')
    if layout not in (None,) + LAYOUTS:
        raise PictureError(f'unknown layout "{layout}": use phone or wide')
    if view not in (None,) + VIEWS:
        raise PictureError(f'unknown view "{view}": use picture or sequence')
    if kind == "graph" and layout == "wide":
        raise PictureError("the wide layout (lanes side by side) is drawn only for operation maps, not for a graph")
    if kind == "graph" and view == "sequence":
        raise PictureError("the sequence view is drawn only for operation maps, not for a graph")
    if view == "sequence" and layout == "wide":
        raise PictureError("the sequence view has only one layout: drop the wide layout")
    if width is not None:
        if isinstance(width, bool) or not isinstance(width, (int, float)) or not math.isfinite(width):
            raise PictureError("the width must be a finite number of units")
        if width < MIN_WIDTH:
            raise PictureError(f"a width of {width:g} units is too narrow to draw: use at least {MIN_WIDTH:g}")


def _structural_faults(value: object, kind: str) -> None:
    """Refuse a document that does not have the shape of its kind (graph.md §4, map.md §5)."""
    what = {"map": "an operation map", "workflow": "a board workflow"}.get(kind, "a graph document")
    if not isinstance(value, dict):
        raise PictureError(f"cannot draw it: the document is not a JSON object, so it is not {what}")
    from grooph_core.schema.check import schema_issues  # lazy: the picture package loads without it (~125 ms)

    if kind == "workflow":
        from grooph_core.rules.workflow import structure_issues  # lazy: ~30 ms, for workflows only

        issues = structure_issues(value)
    else:
        issues = schema_issues(value, kind)
    if issues:
        more = f" (and {len(issues) - 1} more structural issue{'s' if len(issues) > 2 else ''})" if len(issues) > 1 else ""
        raise PictureError(f"cannot draw it: it is not {what} grooph can read: {issues[0].message}{more}", issues)


def render_svg(value: dict, kind: str, *, theme: str = "light", layout: str | None = None,
               view: str | None = None, width: float | None = None, open_groups=()) -> str:
    """The picture of a parsed document as SVG text (ending with one newline).

    `kind` is "graph" or "map". Maps: `layout` "phone" (default) or "wide"; `view` "picture" (default)
    or "sequence". `width` is the reference's width option (pictures.md §3.2, §4.5, §5.1, §7), in units.
    Graphs: `open_groups` names subgroophs to draw open (§7.7; cli.md `--open`); the rest are closed.
    A document with rule errors is still drawn; one that fails the structural check raises
    `PictureError` naming the first fault.
    """
    _check_options(kind, theme, layout, view, width)
    _structural_faults(value, kind)
    open_groups = tuple(open_groups or ())
    if open_groups:
        if kind != "graph":
            raise PictureError("only a graph has subgroophs to open")
        from grooph_core.picture.subgroophs import subgrooph_ids

        known = subgrooph_ids(value)
        unknown = [g for g in open_groups if g not in known]
        if unknown:
            have = f"its subgroophs are: {', '.join(known)}" if known else "it has no subgrooph"
            raise PictureError(f'"{unknown[0]}" is not a subgrooph of this graph; {have}')
    th = Theme(theme)
    if kind == "workflow":
        from grooph_core.picture.workflow_picture import render_workflow  # lazy, as each renderer: 27-54 ms each

        return render_workflow(value, th)
    if kind == "graph":
        from grooph_core.picture.graph_picture import render_graph

        return render_graph(value, th, 400 if width is None else width, open_groups)
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
