"""Every completion leaves valid text in every client (issue 29 item 1).

From each valid fixture of every kind, the test makes the places a person completes: a value or an id
cut to its first characters (between closed quotes, in an unclosed string, with no quote yet, with
nothing typed: `"to": "|"`), a key cut inside its quotes before its colon, a member taken out and its
key typed again (in closed quotes, in an open string, bare, with nothing typed), and in a workflow the
same for plain, quoted and flow values and keys, and a value right after `key:`. At each, the server's
items (`convert.to_lsp_completions`, for the capabilities each client announces) are applied the way
each client applies them (`client_styles`: VS Code's insert and replace, lsp-mode, eglot, Neovim's
built-in completion with and without `vim.lsp.completion.enable`, ALE), and the text left must read
(JSON; YAML) and hold what was chosen. Where a client cannot do better, the test says what it gets:
inside closed quotes with no colon after, a client inserting at the cursor (and eglot, which cannot be
told from one) completes a member whose value is not a string to the key's name alone; ALE starts its
word at a letter, so a name typed past a `-` is not its word, and it drops an item whose text does not
start with a bare word typed before its quote; Neovim without `vim.lsp.completion.enable` inserts a
snippet's label only. The Neovim model was checked against a headless Neovim 0.12 on the cases the
server test below takes (the same texts, both with and without `vim.lsp.completion.enable`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from lsprotocol import converters
from lsprotocol import types as lsp

from grooph_core.ide.kinds import analyse
from grooph_core.ide.text_edits import TextEdit, apply_edits
from grooph_core.source.line_index import LineIndex
from grooph_core.source.yaml_reader import parse_yaml
from grooph_lsp import convert
from tests.conftest import FIXTURES
from tests.lsp.conftest import open_text, start
from tests.lsp.client_styles import STYLES, Refused, Style, offset_of

_CONVERTER = converters.get_converter()


@dataclass(frozen=True)
class Place:
    """A text with the cursor at `cursor`, the label to choose, and what the text must read as
    afterwards (`whole`: the fixture's value; with `key`, that value but for that key's own value)."""

    name: str
    text: str
    cursor: int
    label: str
    whole: object
    syntax: str
    key: bool = False


def _read(text: str, syntax: str):
    if syntax == "json":
        return json.loads(text)
    parsed = parse_yaml(text)
    if not parsed.ok:
        raise ValueError(parsed.problems[0].message)
    return parsed.value


def _diff(a, b, path=()) -> list[tuple]:
    """The paths where two values differ."""
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        return [p for k in a for p in _diff(a[k], b[k], (*path, k))]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [p for i, (x, y) in enumerate(zip(a, b)) for p in _diff(x, y, (*path, i))]
    return [] if a == b else [path]


def _holds(place: Place, out: str) -> bool:
    """The text left reads and holds the completion: the fixture's value again (a key: with that key
    back, its value the one the completion put there)."""
    try:
        value = _read(out, place.syntax)
    except ValueError:
        return False
    diff = _diff(place.whole, value)
    if place.key:
        return len(diff) <= 1 and all(p and p[-1] == place.label for p in diff)
    return not diff


# ---- the places, from the fixtures -----------------------------------------------------------------------

_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_LITERAL = re.compile(r"(?<=: )(true|false)\b")
_OWNER = re.compile(r'"([^"\\]+)"\s*:\s*\[?(?:\s*"[^"\\]*"\s*,)*\s*\Z')


def _cut(s: str) -> str:
    return s[:max(1, min(2, len(s) - 1))] if s else s


def _placed(name, marked: str, label: str, whole, syntax: str, *, key: bool = False) -> Place:
    cursor = marked.index("\x00")
    return Place(name, marked.replace("\x00", "", 1), cursor, label, whole, syntax, key)


def _collector(path: Path, whole, syntax: str, seen: set, out: list):
    """`add(variant, owner, marked text, label)`: a place, one of each variant and owner (`seen`: those
    of its kind so far)."""
    def add(variant: str, owner: str, marked: str, label: str, *, key: bool = False):
        if (variant, owner) not in seen:
            seen.add((variant, owner))
            out.append(_placed(f"{path.name}:{variant}:{owner}", marked, label, whole, syntax, key=key))
    return add


def json_places(path: Path, seen: set) -> list[Place]:
    text = path.read_text("utf-8")
    out: list[Place] = []
    add = _collector(path, json.loads(text), "json", seen, out)
    for m in _STRING.finditer(text):
        a, b = m.span()
        content = json.loads(m.group())
        if not re.fullmatch(r"[\w.:-]+", content):
            continue  # free text (a name, a description) is not completed
        line_end = text.find("\n", b)
        colon = re.match(r"\s*:\s*", text[b:])
        if colon:  # a key
            add("key-before-its-colon", content, text[:a + 1] + _cut(content) + "\x00" + text[b - 1:], content, key=True)
            v_start = b + colon.end()
            v_end = json.JSONDecoder().raw_decode(text, v_start)[1]
            rest = re.match(r"\s*,", text[v_end:])
            if rest:
                taken = text[:a], text[v_end + rest.end():]
            else:
                before = text[:a].rstrip()
                taken = (text[:len(before) - 1] + text[len(before):a] if before.endswith(",") else text[:a]), text[v_end:]
            head, tail = taken
            alone = tail.split("\n", 1)[0].strip() == ""
            add("key-in-closed-quotes", content, head + '"' + _cut(content) + '\x00"' + tail, content, key=True)
            if alone:
                add("key-in-an-open-string", content, head + '"' + _cut(content) + "\x00" + tail, content, key=True)
            add("key-with-nothing-typed", content, head + "\x00" + tail, content, key=True)
            add("key-typed-bare", content, head + _cut(content) + "\x00" + tail, content, key=True)
            continue
        owner = _OWNER.search(text, 0, a)
        owner = owner.group(1) if owner else "?"
        add("value-between-quotes", owner, text[:a + 1] + _cut(content) + '\x00"' + text[b:], content)
        add("value-nothing-between-quotes", owner, text[:a + 1] + '\x00"' + text[b:], content)
        add("value-no-quote-yet", owner, text[:a] + "\x00" + text[b:], content)
        add("value-typed-bare", owner, text[:a] + _cut(content) + "\x00" + text[b:], content)
        if text[b:line_end].strip() == "":
            add("value-in-an-open-string", owner, text[:a + 1] + _cut(content) + "\x00" + text[b:], content)
    for m in _LITERAL.finditer(text):
        owner = _OWNER.search(text, 0, m.start()) or re.search(r'"([^"]+)"\s*:\s*\Z', text[:m.start()])
        add("literal-typed-bare", owner.group(1), text[:m.start()] + m.group()[:2] + "\x00" + text[m.end():], m.group())
    return out


_YAML_PAIR = re.compile(r"(?P<pre>^[ \t-]*|[{,] ?)(?P<key>[A-Za-z_][\w]*):(?P<sp> )(?P<value>[A-Za-z_][\w.-]*)(?=[,}\s]|$)",
                        re.M)


def yaml_places(path: Path, seen: set) -> list[Place]:
    text = path.read_text("utf-8")
    out: list[Place] = []
    add = _collector(path, parse_yaml(text).value, "yaml", seen, out)
    for m in _YAML_PAIR.finditer(text):
        k, v = m.group("key"), m.group("value")
        ks, ke, vs, ve = m.start("key"), m.end("key"), m.start("value"), m.end("value")
        flow = m.group("pre").startswith(("{", ","))
        where = "flow" if flow else "block"
        add(f"{where}-value-typed", k, text[:vs] + _cut(v) + "\x00" + text[ve:], v)
        add(f"{where}-value-nothing-typed", k, text[:vs] + "\x00" + text[ve:], v)
        add(f"{where}-value-in-double-quotes", k, text[:vs] + '"' + _cut(v) + '\x00"' + text[ve:], v)
        add(f"{where}-value-in-single-quotes", k, text[:vs] + "'" + _cut(v) + "\x00'" + text[ve:], v)
        if not flow:
            add("block-value-right-after-the-colon", k, text[:ke + 1] + "\x00" + text[ve:], v)
            if text[ve:].split("\n", 1)[0] == "":
                add("block-value-in-an-open-string", k, text[:vs] + '"' + _cut(v) + "\x00" + text[ve:], v)
        add(f"{where}-key-before-its-colon", k, text[:ks] + _cut(k) + "\x00" + text[ke:], k, key=True)
        if not flow and text[ve:].split("\n", 1)[0] == "":
            add("block-key-typed", k, text[:ks] + _cut(k) + "\x00" + text[ve:], k, key=True)
    return out


def _fixtures(kind_dir: str, pattern: str) -> list[Path]:
    return sorted((FIXTURES / kind_dir).glob(pattern))


def _of_kind(places, files: list[Path]) -> list[Place]:
    seen: set = set()
    return [p for f in files if not f.name.endswith(".expect.json") for p in places(f, seen)]


PLACES = (_of_kind(json_places, _fixtures("valid", "*.grooph.json")) + _of_kind(json_places, _fixtures("maps/valid", "*.grooph-map.json"))
          + _of_kind(json_places, _fixtures("board/valid", "*.board.json"))
          + _of_kind(json_places, _fixtures("episodes/valid", "*.episodes.json"))
          + _of_kind(yaml_places, _fixtures("workflow/valid", "*.workflow.yaml")))


# ---- applying -------------------------------------------------------------------------------------------


_FOUND: dict[tuple[str, int], list] = {}


def items_for(style: Style, text: str, cursor: int, name: str) -> list[dict]:
    """The items the server gives that client at the cursor, as the client receives them (JSON)."""
    found = _FOUND.get((text, cursor))
    if found is None:  # the core's completions, once for every style
        analysis = analyse(text, name=name)
        found = _FOUND[text, cursor] = analysis.document_kind.complete(analysis, cursor) or []
    listed = convert.to_lsp_completions(found, cursor, LineIndex(text), "utf-16", style.capabilities)
    return _CONVERTER.unstructure(listed)["items"]


def _take(style: Style, place: Place) -> tuple[str | None, dict | None]:
    items = items_for(style, place.text, place.cursor, place.name.split(":", 1)[0])
    item = next((i for i in items if i["label"] == place.label), None)
    if item is None:
        return None, None
    try:
        return style.apply(place.text, place.cursor, items, item), item
    except Refused:
        return None, item


def _name_alone(style: Style, place: Place, item: dict) -> str:
    """The text with the typed word completed to the key's name alone (and the item's comma before it)."""
    typed = place.cursor - len(re.search(r"[^\s\"'{\[:,]*\Z", place.text[:place.cursor]).group())
    edits = [TextEdit(typed, place.cursor, place.label)]
    edits += [TextEdit(offset_of(place.text, e["range"]["start"]), offset_of(place.text, e["range"]["end"]), e["newText"])
              for e in (item.get("additionalTextEdits") or ()) if style.additional]
    return apply_edits(place.text, sorted(edits, key=lambda e: e.start))


def _check(style: Style, place: Place) -> str:
    """What the client does there: "exact" (the text reads and holds the completion), "name" (a key's
    name alone, where the client can do no better), "label" and "ale word" (what Neovim without
    `vim.lsp.completion.enable`, and ALE past a `-`, do), "not offered" (the server offers nothing
    there), "dropped" (the client's filter drops the item). Fails on any other text."""
    out, item = _take(style, place)
    if item is None:
        return "not offered"
    if out is None:
        return "dropped"
    if _holds(place, out):
        return "exact"
    if place.key and out == _name_alone(style, place, item) and item["textEdit"].get("newText") == place.label:
        return "name"  # inside closed quotes with no colon after: a client without insertReplaceSupport
    if style.name == "neovim-omnifunc" and item.get("insertTextFormat") == lsp.InsertTextFormat.Snippet:
        return "label"  # without vim.lsp.completion.enable Neovim inserts a snippet's label, expands nothing
    typed = re.search(r"[\w$-]*\Z", place.text[:place.cursor]).group()
    if style.name == "ale" and "-" in typed and out.startswith(place.text[:place.cursor]):
        return "ale word"  # ALE's word starts at a letter: past a `-` it inserts at the cursor
    around = out[max(0, place.cursor - 60):place.cursor + 60]
    raise AssertionError(f"{style.name} at {place.name}: {item['textEdit']} gives\n{around}")


# what each client may do besides "exact" and "not offered"
_ALSO = {"vscode-insert": set(), "vscode-replace": set(), "lsp-mode": set(), "eglot": {"name"}, "neovim": {"name"},
         "neovim-omnifunc": {"name", "label"}, "ale": {"name", "dropped", "ale word"}}


@pytest.mark.parametrize("style", STYLES, ids=lambda s: s.name)
def test_every_completion_place_of_the_fixtures_leaves_valid_text(style):
    outcomes: dict[str, list[str]] = {}
    for place in PLACES:
        outcomes.setdefault(_check(style, place), []).append(place.name)
    counts = {k: len(v) for k, v in outcomes.items()}
    assert counts.get("exact", 0) >= (300 if style.name == "neovim-omnifunc" else 700), counts
    assert set(outcomes) <= {"exact", "not offered"} | _ALSO[style.name], counts
    assert all(":key-in-closed-quotes:" in n for n in outcomes.get("name", ())), outcomes["name"]
    assert all(":key-typed-bare:" in n or ":value-typed-bare:" in n for n in outcomes.get("dropped", ())), outcomes["dropped"]


@pytest.mark.parametrize("style", STYLES, ids=lambda s: s.name)
def test_every_completion_place_of_the_fixtures_leaves_valid_text(style):
    outcomes: dict[str, list[str]] = {}
    for place in PLACES:
        outcomes.setdefault(_check(style, place), []).append(place.name)
    assert len(outcomes.get("exact", ())) >= 100, {k: len(v) for k, v in outcomes.items()}
    if style.name in ("vscode-insert", "vscode-replace", "lsp-mode", "neovim"):
        assert "name" not in outcomes or style.name == "neovim", outcomes.get("name")


# ---- through the server, as each client asks ----------------------------------------------------------

GRAPH = (FIXTURES / "valid" / "review-loop.grooph.json").read_text("utf-8")
WORKFLOW = (FIXTURES / "workflow" / "valid" / "spec-example.workflow.yaml").read_text("utf-8")
# (file, the text replaced, what is typed with the cursor at `|`, the label chosen, the text it must give)
SERVED = {
    "id-between-empty-quotes": ("g.grooph.json", GRAPH, '"to": "tests"', '"to": "|"', "tests", '"to": "tests"'),
    "id-between-quotes": ("g.grooph.json", GRAPH, '"to": "tests"', '"to": "te|"', "tests", '"to": "tests"'),
    "enum-between-quotes": ("g.grooph.json", GRAPH, '"kind": "agent"', '"kind": "ag|"', "agent", '"kind": "agent"'),
    "key-between-quotes": ("g.grooph.json", GRAPH, '"role": "planner"', '"role": "planner",\n      "de|"',
                           "description", None),
    "key-in-an-open-string-before-a-comma": ("g.grooph.json", GRAPH, '"role": "planner"',
                                             '"role": "planner",\n      "de|', "description", None),
    "yaml-quoted-status": ("w.workflow.yaml", WORKFLOW, "  - target: ready\n", '  - target: "re|"\n', "ready",
                           '  - target: "ready"\n'),
    "yaml-right-after-the-colon": ("w.workflow.yaml", WORKFLOW, "  - target: ready\n", "  - target:|\n", "ready",
                                   "  - target: ready\n"),
}


@pytest.mark.parametrize("style", [s for s in STYLES if s.name != "vscode-replace"], ids=lambda s: s.name)
async def test_the_server_gives_each_client_items_it_applies_well(raw_client, tmp_path, style):
    """The issue's case first: in `"to": ""`, choosing an id gives `"to": "tests"` in every client
    (Neovim and ALE used to give `"to": "tests""`)."""
    await start(raw_client, capabilities=style.capabilities)
    for case, (name, text, old, typed, label, completed) in SERVED.items():
        marked = text.replace(old, typed, 1)
        cursor = marked.index("|")
        edited = marked.replace("|", "", 1)
        uri = (tmp_path / f"{case}-{name}").as_uri()
        open_text(raw_client, uri, edited, language_id="yaml" if name.endswith(".yaml") else "json")
        listed = await raw_client.text_document_completion_async(lsp.CompletionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=_position(edited, cursor)))
        items = _CONVERTER.unstructure(listed)["items"]
        item = next(i for i in items if i["label"] == label)
        out = style.apply(edited, cursor, items, item)
        if style.name == "neovim-omnifunc" and item.get("insertTextFormat") == lsp.InsertTextFormat.Snippet:
            word_start = offset_of(edited, item["textEdit"]["range"]["start"])  # without vim.lsp.completion.enable:
            assert out == edited[:word_start] + label + edited[cursor:], case  # a snippet's label alone
        elif completed is not None:
            assert out == text.replace(old, completed, 1), (case, out[cursor - 40:cursor + 40])
        else:  # a member with a string value, typed inside closed quotes: the quote there closes its value
            assert _read(out, "json")["nodes"][0]["description"] == "", case


def _position(text: str, offset: int) -> lsp.Position:
    return lsp.Position(line=text.count("\n", 0, offset), character=offset - (text.rfind("\n", 0, offset) + 1))
