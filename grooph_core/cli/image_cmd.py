"""`grooph image`: draw a graph or an operation map as SVG or PNG (cli.md §3.1, pictures.md).

Checks run in the order cli.md §3.1 gives; the first failure prints `grooph: <reason>` and exits 1.
`--events` (live marks, pictures.md §6) is peripheral and not implemented: it is refused with a
message saying so, never silently ignored.
"""

from __future__ import annotations

import math
import os
import shlex
import sys

from grooph_core.cli import usage_error
from grooph_core.cli.args import UsageError, parse_args
from grooph_core.cli.files import write_text
from grooph_core.schema.check import schema_issues
from grooph_core.source.kinds import any_kind_from_name, neighbour_from_name
from grooph_core.source.load import NoSuchFile, read_document

SYNOPSIS = ("grooph image <graph | operation map> [--out <file.svg | file.png>] [--theme light | dark | auto] "
            "[--scale <n>] [--open <group> | all]... [--layout phone | wide] [--view picture | sequence]")
SUMMARY = "draw a graph, an operation map or a board workflow as SVG or PNG"
HELP = """
Draws the picture of a graph (a card per node, loops in the margin) or of an operation map (its phone
picture, its lanes side by side, or its sequence) or of a board workflow (*.workflow.yaml: its statuses
as cards, its transitions as arrows, its run machine in a panel of its own). Without --out the SVG goes to stdout.

Flags:
  --out <file.svg|file.png>   write the picture to a file; a .png is rasterised (cairosvg)
  --theme light|dark|auto     colours; default auto for SVG (follows the viewer's colour scheme),
                              light for PNG (auto is refused for a PNG: it holds one palette)
  --scale <n>                 PNG pixels per picture unit, above 0 and at most 8 (default 3)
  --open <group>|all          graphs: draw the named subgrooph(s) open instead of as one box (repeatable)
  --layout phone|wide         maps: one column 400 units wide (default) or lanes side by side
  --view picture|sequence     maps: the picture (default) or the sequence of handoffs

A document with rule errors is still drawn; one that is not a readable graph or map is refused.
The same document and flags always give the same SVG bytes.

Examples:
  grooph image studio.grooph-map.json --out studio.svg
  grooph image studio.grooph-map.json --layout wide --theme dark --out studio-wide.png
  grooph image studio.grooph-map.json --view sequence > sequence.svg
  grooph image review.grooph.json --out review.png --scale 2
"""

REPEATABLE = ("open", "events")


def _take_repeated(argv: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """Pull the repeatable flags (`--open`, `--events`) out of argv, keeping every value in order."""
    rest: list[str] = []
    found: dict[str, list[str]] = {name: [] for name in REPEATABLE}
    i = 0
    while i < len(argv):
        a = argv[i]
        name, eq, inline = a[2:].partition("=") if a.startswith("--") else ("", "", "")
        if name in REPEATABLE:
            if eq:
                found[name].append(inline)
            elif i + 1 < len(argv):
                i += 1
                found[name].append(argv[i])
            else:
                raise UsageError(f"--{name} needs a value")
        else:
            rest.append(a)
        i += 1
    return rest, found


def _fail(reason: str) -> int:
    sys.stderr.write(f"grooph: {reason}\n")
    return 1


def _write(out, fmt: str, svg: str, scale: float, again: list[str]) -> int:
    """Write the SVG (or its PNG) to `out`, or the SVG to stdout."""
    from grooph_core.picture import PictureError, render_png  # lazy: the picture package costs `grooph --help` ~60 ms (-X importtime)

    if out is None:
        sys.stdout.write(svg)
        return 0
    if fmt == "svg":
        write_text(str(out), svg)
        sys.stdout.write(f"wrote {out}\n")
        return 0
    try:
        data = render_png(svg, scale)
    except PictureError as e:
        reason = e.message.removeprefix("could not make a PNG: ")
        sys.stderr.write(f"grooph: could not make a PNG: {reason}\n"
                         f"The SVG can still be written: {' '.join(shlex.quote(a) for a in again)}\n")
        return 1
    parent = os.path.dirname(str(out))
    if parent:
        os.makedirs(parent, exist_ok=True)
    with open(str(out), "wb") as f:
        f.write(data)
    sys.stdout.write(f"wrote {out}\n")
    return 0


def _workflow(file: str, flags: dict, repeated: dict, out, fmt: str, theme: str, scale: float) -> int:
    """A board workflow (`*.workflow.yaml`): refused when it is not YAML or fails E_WF_SCHEMA, else drawn."""
    for flag in ("layout", "view"):
        if flag in flags:
            return _fail(f"--{flag} is for operation maps; a workflow has one picture")
    for flag in ("open", "events"):
        if repeated[flag]:
            return _fail(f"--{flag} is not for workflows")
    try:
        with open(file, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return _fail(f"no such file: {file}")
    except (OSError, UnicodeDecodeError) as e:
        return _fail(f"cannot read {file}: {e}")
    from grooph_core.ide.neighbours.analysis import analyze_neighbour  # lazy: the YAML reader and ide.grooph.analysis, ~80 ms of `grooph image` on a graph or map

    a = analyze_neighbour(text, neighbour_from_name(file), tolerant=False)
    blocking = [i for i in a.issues if i.code in ("E_SYNTAX", "E_WF_SCHEMA", "E_DOC_LIMIT")]
    if blocking or a.value is None:
        sys.stderr.write(f"grooph: {file} is not a workflow grooph can draw\n")
        for i in blocking:
            (line, col) = a.line_index.position(a.span(i)[0])
            sys.stderr.write(f"{file}:{line + 1}:{col + 1}: {i.code} {i.message}\n")
        return 1
    from grooph_core.picture import PictureError, render_svg  # lazy: the picture package costs `grooph --help` ~60 ms (-X importtime)

    try:
        svg = render_svg(a.value, "workflow", theme=theme)
    except PictureError as e:
        return _fail(f"{file}: {e.message}")
    svg_out = os.path.splitext(str(out))[0] + ".svg" if out else ""
    return _write(out, fmt, svg, scale, ["grooph", "image", file, "--out", svg_out, "--theme", theme])


# The kinds the image command reads by their own reader, by the name the file name says (issue 15 point 6).
_READ_BY_NAME = {"workflow": _workflow}
# What a JSON file that fails its structural check is said not to be (cli.md §3.1), by the kind it was read as.
_NOT_DRAWN = {"map": "not an operation map grooph can read", "graph": "neither a graph document nor an operation map"}


def run(argv: list[str]) -> int:
    try:
        argv, repeated = _take_repeated(argv)
        args = parse_args(argv, valued=("out", "theme", "scale", "layout", "view"))
    except UsageError as e:
        return usage_error("image", str(e))
    if not args.positionals:
        return usage_error("image", "a graph or operation map file is required")
    if len(args.positionals) > 1:
        return usage_error("image", f"image takes one file; also given: {' '.join(args.positionals[1:])}")
    file = args.positionals[0]
    flags = args.flags

    # 1. --out
    out = flags.get("out")
    fmt = "svg"
    if out is not None:
        ext = os.path.splitext(str(out))[1].lower()
        if ext not in (".svg", ".png"):
            return _fail(f"--out must name a .svg or .png file, not {out}")
        fmt = ext[1:]
    # 2. --theme
    theme = flags.get("theme")
    if theme is None:
        theme = "light" if fmt == "png" else "auto"
    elif theme not in ("light", "dark", "auto"):
        return _fail(f'unknown theme "{theme}": use light, dark or auto')
    if fmt == "png" and theme == "auto":
        return _fail("a PNG holds one palette, so --theme auto cannot make one: use --theme light or --theme dark")
    # 3. --scale
    from grooph_core.picture import DEFAULT_PNG_SCALE, MAX_PNG_SCALE  # lazy: the picture package costs `grooph --help` ~60 ms (-X importtime)

    scale = DEFAULT_PNG_SCALE
    if "scale" in flags:
        try:
            scale = float(str(flags["scale"]))
        except ValueError:
            scale = math.nan
        if not (0 < scale <= MAX_PNG_SCALE):
            return usage_error("image", f"--scale must be a number above 0 and at most {MAX_PNG_SCALE:g}, "
                                        f"not {flags['scale']}")
    # 4. the file
    own_reader = _READ_BY_NAME.get(any_kind_from_name(file))  # a board workflow: its YAML, by its own reader
    if own_reader is not None:
        return own_reader(file, flags, repeated, out, fmt, theme, scale)
    try:
        doc = read_document(file)
    except NoSuchFile:
        return _fail(f"no such file: {file}")
    if doc.error is not None:
        detail = doc.error.message.removeprefix("/: not valid JSON: ")
        return _fail(f"{file} is not JSON: {detail}")
    issues = schema_issues(doc.value, doc.kind)
    if issues:
        what = _NOT_DRAWN.get(doc.kind, _NOT_DRAWN["graph"])
        sys.stderr.write(f"grooph: {file} is {what}\n")
        sys.stderr.write("".join(i.line() + "\n" for i in issues))
        return 1
    # 5. --layout and --view
    layout, view = flags.get("layout"), flags.get("view")
    if layout not in (None, "phone", "wide"):
        return _fail(f'unknown layout "{layout}": use phone or wide')
    if view not in (None, "picture", "sequence"):
        return _fail(f'unknown view "{view}": use picture or sequence')
    from grooph_core.picture import DRAWN  # lazy: the picture package costs `grooph --help` ~60 ms (-X importtime)

    drawn = DRAWN[doc.kind]
    if not drawn.wide_and_sequence and layout == "wide":
        return _fail("--layout wide is for operation maps; a graph has one layout")
    if not drawn.wide_and_sequence and view == "sequence":
        return _fail("--view sequence is for operation maps; a graph has no sequence")
    if view == "sequence" and layout == "wide":
        return _fail("--view sequence has only one layout: drop --layout wide")
    if view == "sequence" and repeated["events"]:
        return _fail("--view sequence cannot show --events: the sequence has no session cards to mark")
    # 6. --events (peripheral: live marks are not implemented here)
    if repeated["events"]:
        if not drawn.wide_and_sequence:
            return _fail("--events is only for operation maps")
        return _fail("--events (live marks from event hooks) is not supported by this grooph; "
                     "draw the picture without it")
    # 7. --open
    open_groups = repeated["open"]
    if open_groups and not drawn.subgroophs:
        return _fail("--open is only for graphs: it opens a subgrooph, and a map has none")
    extra = {}
    if open_groups:
        from grooph_core.picture.subgroophs import subgrooph_ids  # lazy: the picture package costs `grooph --help` ~60 ms (-X importtime)

        known = subgrooph_ids(doc.value)
        if "all" in open_groups:
            open_groups = list(known)
        unknown = [g for g in open_groups if g not in known]
        if unknown:
            have = (f"its subgroophs are: {', '.join(known)}" if known else "it has no subgrooph")
            return _fail(f'"{unknown[0]}" is not a subgrooph of {file}; {have}')
        extra["open_groups"] = open_groups

    from grooph_core.picture import PictureError, render_png, render_svg  # lazy: the picture package costs `grooph --help` ~60 ms (-X importtime)

    try:
        svg = render_svg(doc.value, doc.kind, theme=theme, layout=layout if layout == "wide" else None,
                         view=view if view == "sequence" else None, **extra)
    except PictureError as e:
        return _fail(f"{file}: {e.message}")
    if out is None:
        sys.stdout.write(svg)
        return 0
    parent = os.path.dirname(str(out))
    if fmt == "svg":
        write_text(str(out), svg)
        sys.stdout.write(f"wrote {out}\n")
        return 0
    try:
        data = render_png(svg, scale)
    except PictureError as e:
        svg_out = os.path.splitext(str(out))[0] + ".svg"
        again = ["grooph", "image", file, "--out", svg_out, "--theme", theme] + (
            ["--layout", "wide"] if layout == "wide" else []) + (["--view", "sequence"] if view == "sequence" else [])
        reason = e.message.removeprefix("could not make a PNG: ")
        sys.stderr.write(f"grooph: could not make a PNG: {reason}\n"
                         f"The SVG can still be written: {' '.join(shlex.quote(a) for a in again)}\n")
        return 1
    if parent:
        os.makedirs(parent, exist_ok=True)
    with open(str(out), "wb") as f:
        f.write(data)
    sys.stdout.write(f"wrote {out}\n")
    return 0
