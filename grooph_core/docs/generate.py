"""Writes the user reference (issue 32): one page per document kind, its fields from the models (type,
required, allowed words, description), its codes and a shipped example; the page of every `grooph apply`
operation from the operation table, each with a worked example applied to a shipped graph; the index
`docs/reference.md`. `python -m grooph_core.docs.generate` rewrites them; tests/test_docs.py fails on drift.
"""

from __future__ import annotations

import difflib
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from grooph_core.ide import code_docs
from grooph_core.ide.code_docs import anchor
from grooph_core.issues import CODES
from grooph_core.model.compiled import (MISSING, AltType, ArrayType, ConstType, EnumType, ObjectType, RecordType,
                                        StrType, TypeDesc, UnionType, root_type)
from grooph_core.model.episodes import deref, episodes_schema
from grooph_core.ops import apply
from grooph_core.ops.table import EXAMPLE_GRAPH, OPS
from grooph_core.schema.canonical import canonical_text
from grooph_core.source.kinds import NEIGHBOURS

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
INDEX = REPO / "docs" / "reference.md"
OPS_PAGE = HERE / "ops.md"


@dataclass(frozen=True)
class KindPage:
    """One kind's page: its name, file, title, file names and the shipped example it shows."""

    kind: str
    file: str
    title: str
    suffixes: tuple[str, ...]
    example: str
    fence: str
    editor_codes: bool  # the editor-only codes (E_SYNTAX …) are reported for it too
    schema_only: bool  # described by its shipped JSON Schema, not a pydantic model (the episode record)


def _suffixes(kind: str) -> tuple[str, ...]:
    own = {"graph": (".grooph.json",), "map": (".grooph-map.json",)}
    return own.get(kind) or next(n.suffixes for n in NEIGHBOURS if n.name == kind)


PAGES: tuple[KindPage, ...] = tuple(KindPage(k, f, t, _suffixes(k), *rest) for k, f, t, *rest in (
    ("graph", "graphs.md", "Graphs", EXAMPLE_GRAPH, "json", True, False),
    ("map", "maps.md", "Operation maps", "fixtures/maps/valid/tiny-shop.grooph-map.json", "json", True, False),
    ("workflow", "workflows.md", "Board workflows", "fixtures/workflow/valid/spec-example.workflow.yaml", "yaml",
     False, False),
    ("board", "boards.md", "Boards", "fixtures/board/valid/checkout.board.json", "json", False, False),
    ("episodes", "episode-records.md", "Episode records", "fixtures/episodes/valid/busy-store.episodes.json", "json",
     False, True),
))
_SPEC_NOTE = re.compile(r"\s*\((?:see )?(?:spec/)?[\w-]+\.md(?: §[\d.]+)?(?:[,;] [^()]*)?\)")


def _text(s: str) -> str:
    """A description for one table cell: one line, no section numbers of the format specification."""
    s = _SPEC_NOTE.sub("", s or "")
    return " ".join(s.split()).replace("|", "\\|")


def _cell(s: str) -> str:
    return s.replace(" | ", " or ")


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9 -]", "", title.lower()).replace(" ", "-")


# ---- the models' objects ------------------------------------------------------------------------------


class _Objects:
    """The objects a kind's root reaches, in the order they are met, each with a unique heading."""

    def __init__(self) -> None:
        self.order: list[tuple[str, ObjectType]] = []
        self.seen: dict[int, str] = {}

    def heading(self, obj: ObjectType) -> str:
        if id(obj) not in self.seen:
            title = obj.title[:1].upper() + obj.title[1:]
            taken = {t for t, _ in self.order}
            name, n = title, 2
            while name in taken:
                name, n = f"{title} ({n})", n + 1
            self.seen[id(obj)] = name
            self.order.append((name, obj))
        return self.seen[id(obj)]

    def type_text(self, t: TypeDesc) -> str:
        if isinstance(t, ObjectType):
            h = self.heading(t)
            return f"[{h}](#{_slug(h)})"
        if isinstance(t, UnionType):
            return t.title.lower() + ": " + ", ".join(f"[{k}](#{_slug(self.heading(b))})" for k, b in t.branches.items())
        if isinstance(t, ArrayType):
            return "array of " + self.type_text(t.item) + (f" (at least {t.min_items})" if t.min_items else "")
        if isinstance(t, RecordType):
            return f"{t.expected} → " + self.type_text(t.value)
        if isinstance(t, AltType):
            inner = [self.type_text(o) for o in t.options if isinstance(o, (ObjectType, UnionType, ArrayType))]
            return t.expected.replace("|", "or") if not inner else "one of: " + ", ".join(
                [o.expected for o in t.options if not isinstance(o, (ObjectType, UnionType, ArrayType))] + inner)
        return t.expected


def _words(t: TypeDesc) -> str:
    if isinstance(t, EnumType):
        return ", ".join(f"`{v}`" for v in t.values)
    if isinstance(t, ConstType):
        return f"`{t.value}`"
    if isinstance(t, UnionType):
        return ", ".join(f"`{k}`" for k in t.branches)
    if isinstance(t, AltType):
        return ", ".join(_words(o) for o in t.options if _words(o))
    if isinstance(t, ArrayType):
        return _words(t.item)
    if isinstance(t, StrType) and t.examples:
        return "e.g. " + ", ".join(f"`{v}`" for v in t.examples)
    return ""


def _default(f) -> str:
    if f.default is MISSING or f.default in ({}, []) or "default" in f.description.lower():
        return ""
    return f" Default `{json.dumps(f.default)}`."


def _model_tables(kind: str) -> list[str]:
    objs = _Objects()
    objs.heading(root_type(kind))
    out: list[str] = []
    i = 0
    while i < len(objs.order):
        name, obj = objs.order[i]
        i += 1
        rows = []
        for f in obj.fields:
            desc = _text(f.description) + _default(f)
            rows.append(f"| `{f.name}` | {_cell(objs.type_text(f.type))} | {'yes' if f.required else ''} | "
                        f"{_words(f.type)} | {desc} |")
        closed = " Keys it does not declare are refused." if obj.closed else ""
        out += [f"### {name}", "", _text(obj.description) + closed, "",
                "| Field | Type | Required | Allowed words | Description |", "|---|---|---|---|---|", *rows, ""]
    return out


# ---- the episode record's schema ----------------------------------------------------------------------


def _schema_type(p: dict, defs: list[str]) -> str:
    if "$ref" in p:
        name = p["$ref"].rsplit("/", 1)[-1]
        if name not in defs:
            defs.append(name)
        return f"[{name}](#{_slug(name)})"
    if p.get("type") == "array":
        return "array of " + _schema_type(p.get("items", {}), defs)
    if "oneOf" in p:
        return "one of the words"
    return str(p.get("type", "any JSON value"))


def _schema_words(p: dict) -> str:
    p = deref(p) if "$ref" in p else p
    values = [b["const"] for b in p.get("oneOf", ()) if "const" in b] + list(p.get("enum", ()))
    return ", ".join(f"`{v}`" for v in values)


def _schema_tables() -> list[str]:
    schema = episodes_schema()
    defs: list[str] = []
    out: list[str] = []
    todo = [("Episodes", schema)]
    while todo:
        name, s = todo.pop(0)
        if "properties" not in s:
            rows = [f"- `{b['const']}`: {_text(b.get('description', ''))}" for b in s.get("oneOf", ()) if "const" in b]
            out += [f"### {name}", "", _text(s.get("description", "").split("\n\n")[0]), "", *rows, ""]
            continue
        required = set(s.get("required", ()))
        rows = [f"| `{k}` | {_schema_type(p, defs)} | {'yes' if k in required else ''} | {_schema_words(p)} | "
                f"{_text(p.get('description') or deref(p).get('description', ''))} |"
                for k, p in s["properties"].items()]
        out += [f"### {name}", "", _text(s.get("description", "").split("\n\n")[0]), "",
                "| Field | Type | Required | Allowed words | Description |", "|---|---|---|---|---|", *rows, ""]
        for d in defs:
            if d not in [n for n, _ in todo] and f"### {d}" not in out:
                todo.append((d, schema["$defs"][d]))
    return out


# ---- pages ----------------------------------------------------------------------------------------------


def _codes(page: KindPage) -> list[str]:
    wanted = {page.kind, "editor"} if page.editor_codes else {page.kind}
    rows = [f"| [`{c.code}`](codes.md#{anchor(c.code)}) | {c.severity} | {_text(c.title)} |"
            for c in CODES.values() if wanted & set(c.applies_to)]
    return ["## Codes", "", "What `grooph validate` and the editor report for this kind; each links to its meaning "
            "and usual repair in [codes.md](codes.md).", "", "| Code | Severity | Meaning |", "|---|---|---|",
            *rows, ""]


def kind_page(page: KindPage) -> str:
    names = " or ".join(f"`*{s}`" for s in page.suffixes)
    fields = _schema_tables() if page.schema_only else _model_tables(page.kind)
    example = (REPO / page.example).read_text("utf-8")
    return "\n".join([
        f"# {page.title}", "",
        f"Files named {names}. Generated from the models by `python -m grooph_core.docs.generate`; "
        "do not edit by hand. Back to the [reference](../../docs/reference.md).", "",
        "## Fields", "",
        "Each object's fields in their declared order (the order formatting writes them, where a kind is formatted).", "",
        *fields, *_codes(page),
        "## Example", "",
        f"`{page.example}` (shipped with the repository; `grooph validate` finds no issue in it):", "",
        f"```{page.fence}", example.rstrip("\n"), "```", ""])


def _diff(before: str, after: str) -> list[str]:
    lines = list(difflib.unified_diff(before.splitlines(), after.splitlines(), "before", "after", n=1, lineterm=""))
    return lines[2:]


def ops_page() -> str:
    base = json.loads((REPO / EXAMPLE_GRAPH).read_text("utf-8"))
    before = canonical_text(base, "graph")
    out = ["# The operations of `grooph apply`", "",
           "Generated from the operation table (`grooph_core/ops/table.py`) by `python -m grooph_core.docs.generate`; "
           "do not edit by hand. Back to the [reference](../../docs/reference.md).", "",
           "`grooph apply FILE OPS.json` applies a JSON list of operations to a graph, in order and all or nothing: "
           "when one op cannot be applied, none is, and the file is left as it was. Each op is an object "
           '`{"op": "<name>", ...arguments}`; arguments are named, and an unknown one is refused. The result must '
           "still match the graph's fields ([graphs.md](graphs.md)), or nothing is written; rule errors do not "
           "stop a write (a graph may be built in steps). Ops apply to graphs only. The reply's `ids` has one "
           "entry per op: the id of what it created or renamed, else null.", "",
           f"Every example below is applied to `{EXAMPLE_GRAPH}` (shown at the end of [graphs.md](graphs.md)); "
           "the diff is of the canonical text, as `grooph apply --write` would write it.", "",
           "| Op | Arguments | What it does |", "|---|---|---|"]
    out += [f"| [`{o.name}`](#{o.name.lower()}) | {', '.join(o.args)} | {o.summary} |" for o in OPS]
    out.append("")
    for o in OPS:
        result = apply(base, list(o.example))
        if not result.ok:
            raise ValueError(f"the example of {o.name} does not apply: {result.error.line()}")
        after = canonical_text(result.doc, "graph")
        ops_text = json.dumps(list(o.example), ensure_ascii=False)
        out += [f"## {o.name}", "", o.summary[:1].upper() + o.summary[1:] + ".", "",
                "| Argument | What it takes |", "|---|---|",
                *[f"| `{a}` | {h.replace('|', chr(92) + '|')} |" for a, h in zip(o.args, o.arg_help)], "",
                "```sh", f"echo '{ops_text}' | grooph apply {EXAMPLE_GRAPH} --ops -", "```", "",
                f"ids: `{json.dumps(list(result.ids))}`", "", "```diff", *_diff(before, after), "```", ""]
    return "\n".join(out)


def index_page() -> str:
    rel = "../grooph_core/docs/"
    kinds = [f"- [{p.title}]({rel}{p.file}): `*{'`, `*'.join(p.suffixes)}`" for p in PAGES]
    return "\n".join([
        "# Reference", "",
        "What each document kind holds, what every code means, and what `grooph apply` takes. The pages are "
        "generated from the code (the models, the registry of codes, the operation table) by "
        "`python -m grooph_core.docs.generate`, ship inside the installed package (the command line and the "
        "editor link to them there), and a test fails when they differ from a fresh generation.", "",
        "## Document kinds", "", *kinds, "",
        "## Codes", "", f"- [Every code]({rel}codes.md): its severity, meaning and usual repair.", "",
        "## Changing a graph", "",
        f"- [The operations of `grooph apply`]({rel}ops.md): each with its arguments and a worked example "
        "(`grooph help apply` lists them, one line each).", "",
        "## Pictures", "", "- [Pictures](pictures.md): the views `grooph image` and the editor's preview draw.", "",
        "## The command line", "",
        "`grooph help` lists the commands; `grooph help <command>` shows one's page with its flags and examples.",
        ""])


def pages() -> dict[Path, str]:
    """Every generated file and its text."""
    out = {HERE / p.file: kind_page(p) for p in PAGES}
    out[OPS_PAGE] = ops_page()
    out[INDEX] = index_page()
    out[code_docs.PAGE] = code_docs.render()
    return out


def main() -> int:
    for path, text in pages().items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
