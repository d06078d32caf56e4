"""A fuzzed editing session against the real server over stdio, on every fixture (issue 9, item 1).

One `python -m grooph_lsp` process lives through the whole session. Every document under fixtures/ is
opened (three at a time) and edited the way half-typed text is: characters typed and deleted, whole
lines inserted and deleted, garbage pasted, very long strings, deep nesting, NUL and control
characters, lone surrogates, CRLF and lone CR, a BOM, emoji and CJK, several changes in one
notification, the whole text replaced or emptied, and the server's own edits (formatting, quick fixes,
rename, `grooph.applyOperations` via `workspace/applyEdit`) applied as an editor applies them. Between
edits the client asks what an editor asks (hover, completion, definition, references, symbols, folds,
formatting, code actions, prepareRename, rename, the grooph commands, a method that does not exist)
and sometimes cancels a request in flight (`$/cancelRequest`), or an id that was never sent.

Asserted throughout:
- the process stays up, answers `shutdown`, and exits 0 on `exit`;
- every request gets exactly one answer: a result, or an error with an LSP code and a message
  (RequestFailed for a refusal, RequestCancelled only for a cancelled request, never InternalError);
- every few pauses the client types continuously into one document (a key every 25 ms, issue 13):
  a publish for it comes at least every 300 ms meanwhile (150 ms allowed for a shared machine);
- `publishDiagnostics` comes only for versions the client sent, never for an older version of a
  document after a newer one, and after each pause the newest version's diagnostics arrive (for a
  JSON file the server does not serve, unchanged since it opened, none: it is ignored quietly);
- every range in every answer, diagnostic and server request lies inside the document as the client
  holds it at that version (LSP lines: `\\n`, `\\r\\n`, `\\r` only; UTF-16 columns; never inside a
  surrogate pair), edits do not overlap, versioned edits name the version they were made for;
- no traceback, and nothing at ERROR level, in the server's log or on its stderr;
- every quick fix the server lists (with its edit) removes the issue it was listed for and raises no new error
  (issue 21), judged by analysing the text before and after it in the test's own process.

Seeded and reproducible: `--fuzz-seed S` replays a session, `--fuzz-edits N` sets its length (2,000
by default, the CI run; `--fuzz-edits 20000` is the long run). The client's choices depend only on
the seed and on the server's answers, never on timing.
"""

from __future__ import annotations

import json
import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.conftest import FIXTURES
from tests.lsp.lsp_text import LspText
from tests.lsp.stdio_client import Pending, StdioServer, editor_capabilities

DEFAULT_EDITS = 2000
OPEN_AT_ONCE = 3
SYNC_EVERY = 40          # edits between pauses where every answer and the newest diagnostics are awaited
MAX_DOC_CHARS = 250_000  # the session's grooph.maxDocumentSize: long pastes cross it now and then
DEBOUNCE_MS = 10
GROW_LIMIT = 400_000     # past this the client deletes rather than pastes
ANSWER_WITHIN = 60       # seconds; an answer later than this is "silence"
SLOW = 5                 # seconds; a slower answer's request and text are kept in the test's folder

SETTINGS = {"debounceMs": DEBOUNCE_MS, "maxDocumentSize": MAX_DOC_CHARS}

# Continuous typing (issue 13): every TYPING_EVERY pauses, a key every TYPING_GAP_S for TYPING_KEYS
# keys into one document; diagnostics must come at least every MAX_SILENCE_MS meanwhile (plus what a
# shared machine's scheduling may add, SCHEDULING_GRACE_MS; the bench measures it without).
TYPING_EVERY = 5
TYPING_KEYS = 40
TYPING_GAP_S = 0.025
TYPED = list("abcxyz0123 ") + ['"', ",", ":", "{", "}"]
MAX_SILENCE_MS = 300
SCHEDULING_GRACE_MS = 150

# LSP error codes a request may be answered with (LSP 3.17 "ErrorCodes" / "LSPErrorCodes").
REQUEST_CANCELLED = -32800
CONTENT_MODIFIED = -32801
REQUEST_FAILED = -32803
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603


def fixture_documents() -> list[Path]:
    """Every document under fixtures/ (the sidecars `*.expect.json` describe them; they are not documents)."""
    return sorted(p for p in FIXTURES.rglob("*.json") if p.is_file() and not p.name.endswith(".expect.json"))


# --- what gets typed ---------------------------------------------------------------------------

JSON_BITS = ['{', '}', '[', ']', ',', ':', '"', '\\', '\\u', '\\ud83d', '\\x', 'null', 'true', 'fals', 'nul', 'NaN',
             'Infinity', '-', '+', '.', '0', '007', '1e400', '1e-400', '12345678901234567890', '9007199254740993',
             '0.1', '-0', '2.50', '"id"', '"nodes"', '"edges"', '"from": ', '"to": "', '"kind": "agent"',
             '"kind": "stop"', '"lanes"', '"sessions"', '"handoffs"', '"groophMap": 0', '"grooph": 0', "'x'",
             '//', '/*', '*/', '# ', ' ', '  ', '\t', 'a', 'Z', 'x-y', '__proto__']
ODD_CHARS = ['\x00', '\x01', '\x08', '\x1b', '\x1f', '\x7f', '\x0b', '\x0c', '\x85', '\u2028', '\u2029', '\ufeff',
             '\u200b', '\u00a0', '\ufffd', '\uffff']
UNICODE = ['é', 'ß', 'Ω', '中文', 'דף', 'ا', 'e\u0301', '😀', '👩\u200d💻', '𝄞', '🇯🇵', '\U0010ffff', '\U00020000']
LINE_BREAKS = ['\n', '\r\n', '\r']
LONE_SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff', '\ud83d']
SNIPPETS = [
    '"zzUnknown": {"b": [1, 2.5, "x"], "a": null},',
    '"note": "caf\u00e9 \\u00e9 \\n \\" \\\\ \\/ \ud83d\ude00",',
    '{"id": "fz", "kind": "agent", "name": "Fz", "role": "builder", "brief": "b", "outputs": ["o"], "allow": ["edit-files"]},',
    '{"id": "fz-stop", "kind": "stop", "name": "Stop"},',
    '{"id": "e-fz", "from": "fz", "to": "end"},',
    '{"id": "fz", "from": "ghost", "to": "nowhere"},',
    '{"id": "lane-fz", "name": "Fz", "machine": "m", "account": "a"},',
    '{"id": "h-fz", "from": "planner", "to": "planner"},',
    '"big": 123456789012345678901234567890,',
    '"tiny": 1e-400,',
    '"dup": 1, "dup": 2,',
]
ID_FIELDS = re.compile(r'"(?:id|from|to|members|back|then|lane|session|node|answerKeyFrom|merges|by)"\s*:\s*\[?\s*"')
NEW_NAMES = ["renamed", "x", "a-b-c", "Bad Name", "", "9lives", "z" * 300, "caf\u00e9", "end", "w"]


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def _surrogate_kind(ch: str) -> int:
    return 1 if "\ud800" <= ch <= "\udbff" else 2 if "\udc00" <= ch <= "\udfff" else 0


@dataclass
class ClientDoc:
    """A document as the client holds it, and the versions the server may still publish for."""

    uri: str
    path: Path
    original: str
    text: str
    version: int
    quota: int
    texts: dict[int, str] = field(default_factory=dict)
    published: int | None = None
    last_good: str = ""         # the newest text that was valid JSON
    closed: bool = False        # the client closed it
    language: str = ""          # the languageId it was opened with
    opened_as: int = 0          # the version it was opened with
    cleared: bool = False       # ... and the server's empty publish for the close has arrived


class SessionFailure(AssertionError):
    pass


class FuzzSession:
    """Drives one server through the seeded session; `fail` stops it with enough to replay it."""

    def __init__(self, server: StdioServer, rng: random.Random, seed: str, total_edits: int,
                 dump_dir: Path | None = None) -> None:
        self.server = server
        self.dump_dir = dump_dir
        self.judging: Pending | None = None
        self.rng = rng
        self.seed = seed
        self.total_edits = total_edits
        self.edits = 0
        self.requests = 0
        self.cancels = 0
        self.errors: dict[int, int] = {}
        self.recent: list[str] = []
        self.docs: dict[str, ClientDoc] = {}  # open now
        self.every_doc: dict[str, ClientDoc] = {}  # ever opened (one open per fixture)
        self.to_judge: list[Pending] = []
        self.seen_notifications = 0
        self.next_version = 1
        self.publishes = 0
        self.limit_hits = 0
        self.applied_server_edits = 0
        self.judged_fixes = 0           # listed quick fixes checked to remove their issue and raise no new error
        self.models: dict[tuple[str, int], LspText] = {}
        self.current: ClientDoc | None = None
        self.kinds: dict[str, int] = {}
        self.slowest: list[tuple] = []  # (seconds, method, command, characters) of the slowest answers
        self.publish_times: list[tuple[float, str]] = []  # (arrival, uri) of publishes, while a typing run lasts
        self.typing_runs: list[float] = []  # the longest silence of each typing run, ms

    # -- failing with context -----------------------------------------------------------------

    def note(self, what: str) -> None:
        self.recent.append(f"#{self.edits} {what}")
        del self.recent[:-25]

    def dump(self, p: Pending, name: str) -> Path:
        """The request and the text it was about, in a file, to replay by hand."""
        path = self.dump_dir / f"{name}.json"
        path.write_text(json.dumps({"method": p.method, "params": p.params, "version": p.context.get("version"),
                                    "text": p.context.get("text")}, ensure_ascii=True), encoding="ascii")
        return path

    def fail(self, message: str, p: Pending | None = None) -> None:
        p = p or self.judging
        if p is not None and self.dump_dir is not None:
            message += f"\n  the request and its text: {self.dump(p, f'request-{p.id}')}"
        raise SessionFailure(
            f"{message}\n  replay: pytest tests/lsp/test_fuzz_session.py --fuzz-seed {self.seed!r} "
            f"--fuzz-edits {self.total_edits}\n  after {self.edits} edits; last actions:\n    "
            + "\n    ".join(self.recent))

    # -- documents ----------------------------------------------------------------------------

    def open(self, path: Path, quota: int) -> ClientDoc:
        text = path.read_text(encoding="utf-8")
        doc = ClientDoc(path.as_uri(), path, text, text, self._version(), quota, last_good=text)
        doc.texts[doc.version] = text
        self.docs[doc.uri] = doc
        self.every_doc[doc.uri] = doc
        language = "grooph-map" if path.name.endswith(".grooph-map.json") else "grooph" if path.name.endswith(".grooph.json") else "json"
        doc.language, doc.opened_as = language, doc.version
        self.server.notify("textDocument/didOpen", {"textDocument": {
            "uri": doc.uri, "languageId": language, "version": doc.version, "text": text}})
        self.note(f"open {path.relative_to(FIXTURES)} v{doc.version}")
        return doc

    def close(self, doc: ClientDoc) -> None:
        self.server.notify("textDocument/didClose", {"textDocument": {"uri": doc.uri}})
        self.note(f"close {doc.path.name}")
        self.docs.pop(doc.uri, None)
        doc.closed = True

    def model(self, doc: ClientDoc, version: int | None = None, text: str | None = None) -> LspText:
        """The LSP line model of a version of a document's text (cached until the next pause)."""
        v = doc.version if version is None else version
        m = self.models.get((doc.uri, v))
        if m is None:
            t = text if text is not None else doc.text if v == doc.version else doc.texts[v]
            m = self.models[(doc.uri, v)] = LspText(t)
        return m

    @staticmethod
    def served(doc: ClientDoc) -> bool:
        """Whether the server takes the document as its own (by name, or the JSON's claim):
        asked of the server's own rule. One it does not serve gets no diagnostics when it opens (a
        package.json is ignored quietly); a change to it publishes (empty) ones, so a document that
        stopped being a grooph one is cleared."""
        from grooph_lsp.documents import OpenDocument

        return OpenDocument(doc.uri, doc.text, doc.version, doc.language).served()

    def _version(self) -> int:
        self.next_version += 1
        return self.next_version

    def send_changes(self, doc: ClientDoc, changes: list[tuple], what: str) -> None:
        """One didChange: each change is ("whole", text) or (start, end, new) in str offsets of the text
        as the previous changes left it. The client's text follows; the edit is counted."""
        wire = []
        text = doc.text
        for ch in changes:
            if ch[0] == "whole":
                text = ch[1]
                wire.append({"text": text})
                continue
            start, end, new = ch
            model = LspText(text)
            wire.append({"range": {"start": model.position(start), "end": model.position(end)}, "text": new})
            text = text[:start] + new + text[end:]
        doc.text = text
        if _is_json(text):
            doc.last_good = text
        doc.version = self._version()
        doc.texts[doc.version] = text
        self.server.notify("textDocument/didChange", {
            "textDocument": {"uri": doc.uri, "version": doc.version}, "contentChanges": wire})
        self.edits += 1
        self.kinds[what.split(" ")[0]] = self.kinds.get(what.split(" ")[0], 0) + 1
        doc.quota -= 1
        self.note(f"{what} -> v{doc.version} ({len(text):,} chars) in {doc.path.name}")

    # -- choosing places ----------------------------------------------------------------------

    def offset(self, text: str, near: str | None = None) -> int:
        """A random offset that has an LSP position; half the time next to a JSON token."""
        if not text:
            return 0
        rng = self.rng
        if near is None and rng.random() < 0.5:
            near = '"{}[],:'
        at = rng.randint(0, len(text))
        if near:
            for _ in range(3):
                j = text.find(rng.choice(near), at)
                if j >= 0:
                    at = j + rng.choice((0, 1))
                    break
                at = rng.randint(0, len(text))
        at = min(at, len(text))
        if 0 < at < len(text) and text[at - 1] == "\r" and text[at] == "\n":
            at -= 1
        return at

    def span(self, text: str, longest: int) -> tuple[int, int]:
        start = self.offset(text)
        end = min(len(text), start + self.rng.randint(1, max(1, longest)))
        if 0 < end < len(text) and text[end - 1] == "\r" and text[end] == "\n":
            end += 1
        return start, end

    def guarded(self, text: str, start: int, end: int, new: str) -> tuple[int, int, str]:
        """Keep a lone high surrogate from touching a lone low one: on the wire (UTF-16 in JSON) the two
        would read as one character, and the client's text would no longer be the server's."""
        before = text[start - 1] if start > 0 else ""
        after = text[end] if end < len(text) else ""
        out = []
        prev = _surrogate_kind(before) if before else 0
        for ch in new:
            k = _surrogate_kind(ch)
            if prev == 1 and k == 2:
                out.append(" ")
            out.append(ch)
            prev = k
        if prev == 1 and after and _surrogate_kind(after) == 2:
            out.append(" ")
        return start, end, "".join(out)

    # -- edits --------------------------------------------------------------------------------

    SERVER_EDITS = ("format", "code_action", "rename", "apply_ops")
    EDIT_WEIGHTS = {
        "type": 20, "delete": 14, "insert_line": 6, "delete_line": 6, "garbage": 8, "long_string": 2,
        "deep_nesting": 2, "line_breaks": 3, "bom": 2, "unicode": 6, "control": 4, "surrogate": 3,
        "multi": 4, "reset": 4, "empty": 1, "snippet": 5, "format": 4, "code_action": 6, "rename": 3,
        "apply_ops": 2, "mutate": 14, "revert": 4,
    }

    def edit(self, doc: ClientDoc) -> None:
        self.current = doc
        kinds = list(self.EDIT_WEIGHTS)
        # On text that is JSON, the server's own edits (which need it) are asked for more often.
        boost = 4 if doc.text is doc.last_good else 1
        weights = [self.EDIT_WEIGHTS[k] * (boost if k in self.SERVER_EDITS else 1) for k in kinds]
        kind = self.rng.choices(kinds, weights=weights)[0]
        if kind in self.SERVER_EDITS:
            if getattr(self, "_server_" + kind)(doc):
                return
            kind = "type"  # the server offered no edit here: type instead, so every step is one edit
        change = getattr(self, "_" + kind)(doc.text)
        if change[0] == "whole":
            self.send_changes(doc, [change], kind)
        elif change[0] == "multi":
            self.send_changes(doc, change[1], f"multi x{len(change[1])}")
        else:
            self.send_changes(doc, [self.guarded(doc.text, *change)], kind)

    def _type(self, text):
        rng = self.rng
        pool = rng.choice([JSON_BITS, JSON_BITS, ODD_CHARS, UNICODE, LINE_BREAKS])
        at = self.offset(text)
        return at, at, rng.choice(pool)

    def _delete(self, text):
        start, end = self.span(text, self.rng.choice((1, 1, 2, 5, 40)))
        return start, end, ""

    def _insert_line(self, text):
        model = LspText(text)
        n = self.rng.randrange(model.line_count)
        at = model.starts[n]
        other = self.rng.randrange(model.line_count)
        line = self.rng.choice([model.line(other), model.line(other), self.rng.choice(SNIPPETS)])
        return at, at, line + self.rng.choice(["\n", "\n", "\r\n", "\r"])

    def _delete_line(self, text):
        model = LspText(text)
        n = self.rng.randrange(model.line_count)
        end = model.starts[n + 1] if n + 1 < model.line_count else len(text)
        return model.starts[n], end, ""

    def _garbage(self, text):
        rng = self.rng
        pools = JSON_BITS * 3 + ODD_CHARS + UNICODE + LINE_BREAKS
        new = "".join(rng.choice(pools) for _ in range(rng.randint(2, 60)))
        start, end = self.span(text, rng.choice((0, 0, 3, 30)))
        if rng.random() < 0.6:
            end = start
        return start, end, new

    def _long_string(self, text):
        rng = self.rng
        if len(text) > GROW_LIMIT:
            start = self.offset(text)
            return start, min(len(text), start + 100_000), ""
        n = rng.choice((1_000, 5_000, 20_000, 60_000, 120_000))
        unit = rng.choice(["x", "é", "😀", "ab\\n", "\\u00e9", "中"])
        body = (unit * (n // len(unit) + 1))[:n]
        if body.endswith("\\"):
            body = body[:-1]
        m = re.compile(r'"[^"\\\r\n]{0,80}"').search(text, self.offset(text))
        if m and rng.random() < 0.7:
            return m.start(), m.end(), '"' + body + '"'  # a value or key becomes very long
        at = self.offset(text)
        return at, at, '"' + body + ('"' if rng.random() < 0.8 else "")

    def _deep_nesting(self, text):
        rng = self.rng
        k = rng.choice((10, 63, 64, 65, 100, 500, 3000))
        opener = rng.choice(["[", "{\"a\":", "[{\"b\":["])
        closer = {"[": "]", "{\"a\":": "}", "[{\"b\":[": "]}]"}[opener]
        inner = opener * k + "1" + (closer * k if rng.random() < 0.7 else "")
        at = self.offset(text, near=":[,")
        return at, at, inner

    def _line_breaks(self, text):
        rng = self.rng
        target = rng.choice(LINE_BREAKS)
        if rng.random() < 0.4:
            return ("whole", re.sub(r"\r\n|\r|\n", target, text))
        model = LspText(text)
        if model.line_count < 2:
            at = self.offset(text)
            return at, at, target
        n = rng.randrange(model.line_count - 1)
        return model.ends[n], model.starts[n + 1], target

    def _bom(self, text):
        if text.startswith("\ufeff"):
            return 0, 1, ""
        return 0, 0, "\ufeff"

    def _unicode(self, text):
        at = self.offset(text, near='"')
        return at, at, "".join(self.rng.choice(UNICODE) for _ in range(self.rng.randint(1, 6)))

    def _control(self, text):
        at = self.offset(text)
        return at, at, "".join(self.rng.choice(ODD_CHARS) for _ in range(self.rng.randint(1, 4)))

    def _surrogate(self, text):
        rng = self.rng
        at = self.offset(text, near='"')
        return at, at, rng.choice(["", "a", "\\u"]) + rng.choice(LONE_SURROGATES) + rng.choice(["", "b", '"'])

    def _multi(self, text):
        changes = []
        for _ in range(self.rng.randint(2, 4)):
            kind = self.rng.choice(["_type", "_delete", "_garbage", "_unicode", "_surrogate"])
            change = self.guarded(text, *getattr(self, kind)(text))
            changes.append(change)
            s, e, new = change
            text = text[:s] + new + text[e:]
        return ("multi", changes)

    def _reset(self, text):
        return ("whole", self.current.original)

    def _empty(self, text):
        return ("whole", self.rng.choice(["", " ", "\n", "{", "[]", "null", "\ufeff", "{}"]))

    def _revert(self, text):
        """Back to the newest text that was valid JSON (an editor's undo, many steps at once)."""
        return ("whole", self.current.last_good)

    def _mutate(self, text):
        """A change that keeps the text JSON but changes what it says: a member or item removed or
        duplicated, a reference pointed elsewhere, an unknown key, a wrong type, a number a double
        cannot hold. The new text replaces the old through one ranged change."""
        rng = self.rng
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            return self._revert(text)
        places = []  # (container, key) of every member and item, at most a few thousand
        stack = [value]
        while stack and len(places) < 5000:
            c = stack.pop()
            for k in (list(c) if isinstance(c, dict) else range(len(c)) if isinstance(c, list) else ()):
                places.append((c, k))
                if isinstance(c[k], (dict, list)):
                    stack.append(c[k])
        if places:
            c, k = rng.choice(places)
            how = rng.choice(["remove", "duplicate", "retarget", "unknown", "wrong_type", "big_number", "swap"])
            if how == "remove":
                del c[k]
            elif how == "duplicate" and isinstance(c, list):
                c.insert(k, json.loads(json.dumps(c[k])))
            elif how == "retarget":
                ids = [p[0][p[1]] for p in places if isinstance(p[0], dict) and p[1] == "id" and isinstance(p[0][p[1]], str)]
                c[k] = rng.choice(ids + ["ghost", "End", ""]) if ids else "ghost"
            elif how == "unknown" and isinstance(c[k], dict):
                c[k][rng.choice(["zz", "Name", "__proto__", "0", "007", "caf\u00e9", "😀"])] = rng.choice(
                    [1, 2.5, -0.0, "x", None, True, {"b": [1, {"a": "\u2028"}]}, [], "\ud800 lone"])
            elif how == "wrong_type":
                c[k] = rng.choice([None, 0, "0", [], {}, True, 1.5])
            elif how == "big_number":
                c[k] = rng.choice([2**53 + 1, -(2**60) - 1, 12345678901234567890, 1e300, 5e-324])
            elif how == "swap" and isinstance(c, list) and len(c) > 1:
                j = rng.randrange(len(c))
                c[k], c[j] = c[j], c[k]
        indent = rng.choice([2, 2, None, 4, "\t"])
        new = json.dumps(value, indent=indent, ensure_ascii=rng.random() < 0.3) + rng.choice(["\n", "", "\r\n"])
        return 0, len(text), new

    def _snippet(self, text):
        at = self.offset(text, near="[{")
        return at, at, self.rng.choice(SNIPPETS)

    # -- edits the server makes ------------------------------------------------------------------

    def _apply_server_edits(self, doc: ClientDoc, edits: list, version: int, what: str) -> bool:
        """Apply a list of LSP TextEdits made for `version` as one didChange (reverse order)."""
        if version != doc.version or not edits:
            return False
        model = self.model(doc)
        spans = []
        for e in edits:
            problem = model.range_problem(e.get("range"), edit=True)
            if problem:
                self.fail(f"{what}: edit range outside the document: {problem}")
            spans.append((model.offset(e["range"]["start"]), model.offset(e["range"]["end"]), e.get("newText")))
            if not isinstance(spans[-1][2], str):
                self.fail(f"{what}: an edit without newText: {e!r}")
        spans.sort(key=lambda s: (s[0], s[1]))
        for a, b in zip(spans, spans[1:]):
            if b[0] < a[1]:
                self.fail(f"{what}: overlapping edits {a[:2]} and {b[:2]}")
        changes = [self.guarded(doc.text, s, e, t) for s, e, t in reversed(spans)]
        self.send_changes(doc, changes, what)
        self.applied_server_edits += 1
        return True

    def _server_format(self, doc: ClientDoc) -> bool:
        answer = self.ask(doc, "textDocument/formatting", {
            "textDocument": {"uri": doc.uri}, "options": {"tabSize": 2, "insertSpaces": True}}, wait=True)
        return isinstance(answer, list) and self._apply_server_edits(doc, answer, doc.version, "format")

    def _server_code_action(self, doc: ClientDoc) -> bool:
        actions = self.ask(doc, "textDocument/codeAction", self._code_action_params(doc), wait=True)
        with_edits = [a for a in actions or [] if isinstance(a, dict) and a.get("edit")]
        if not with_edits:
            return False
        action = self.rng.choice(with_edits)
        changes = action["edit"].get("documentChanges") or []
        if len(changes) != 1 or changes[0]["textDocument"]["uri"] != doc.uri:
            self.fail(f"code action {action.get('title')!r}: expected one edit of this document, got {action['edit']!r}")
        for listed in with_edits:  # every quick fix listed for this version, not only the one applied
            listed_changes = listed["edit"].get("documentChanges") or []
            if (listed.get("kind") == "quickfix" and len(listed_changes) == 1
                    and listed_changes[0]["textDocument"]["version"] == doc.version):
                self.judge_fix(doc, listed["title"], listed_changes[0]["edits"])
        return self._apply_server_edits(doc, changes[0]["edits"], changes[0]["textDocument"]["version"],
                                        f"code_action {action.get('title', '')[:50]!r}")

    def judge_fix(self, doc: ClientDoc, title: str, edits: list) -> None:
        """Issue 21, offered => applies: the quick fix removes the issue it was listed for and raises no
        new error, judged by analysing the text before and after it in this process."""
        from grooph_core.ide.grooph import actions as core
        from grooph_core.ide.neighbours.analysis import NeighbourAnalysis
        from grooph_core.ide.neighbours.repairs import neighbour_fixes
        from grooph_core.ide.text_edits import TextEdit, apply_edits
        from grooph_lsp.documents import analyse_text
        from tests.core.ops.helpers import applies_cleanly

        before = analyse_text(doc.uri, doc.path.name, doc.text, export=False, max_chars=MAX_DOC_CHARS)
        issue = fill = None
        if isinstance(before, NeighbourAnalysis):
            issue = next((f.issue for f in neighbour_fixes(before, before.issues) if f.title == title), None)
        else:
            for candidate in before.issues:
                core.check_issue(before, candidate)
                offer = next((o for o in core.checked_offers(before, [candidate]) if o.title == title), None)
                if offer is not None:
                    issue, fill = candidate, offer.fill
                    break
        if issue is None:
            self.fail(f"code action {title!r}: no issue of this text has it among the fixes that pass §8.2")
        model = self.model(doc)
        after_text = apply_edits(doc.text, [TextEdit(model.offset(e["range"]["start"]), model.offset(e["range"]["end"]),
                                                     e["newText"]) for e in edits])
        after = analyse_text(doc.uri, doc.path.name, after_text, export=False, max_chars=MAX_DOC_CHARS)
        verdict = None if fill is not None else applies_cleanly(before, issue, after)
        if verdict is not None:
            self.fail(f"code action {title!r} on {issue.code}: {verdict}")
        self.judged_fixes += 1

    def _server_rename(self, doc: ClientDoc) -> bool:
        pos = self.id_position(doc)
        answer = self.ask(doc, "textDocument/rename", {"textDocument": {"uri": doc.uri}, "position": pos,
                                                        "newName": self.rng.choice(NEW_NAMES)}, wait=True)
        if not isinstance(answer, dict) or not answer.get("changes"):
            return False
        return self._apply_server_edits(doc, answer["changes"].get(doc.uri, []), doc.version, "rename")

    def _server_apply_ops(self, doc: ClientDoc) -> bool:
        before = self.edits
        self.ask(doc, "workspace/executeCommand", {"command": "grooph.applyOperations",
                                                   "arguments": [doc.uri, self.random_ops()]}, wait=True)
        return self.edits > before  # the edit came as workspace/applyEdit and was applied meanwhile

    def random_ops(self) -> object:
        rng = self.rng
        ops = [
            {"op": "addNode", "kind": "agent", "name": "Fuzz " + rng.choice(UNICODE)},
            {"op": "addNode", "kind": "stop", "name": "Fuzz end", "set": {"outcome": "success"}},
            {"op": "setGraphName", "name": rng.choice(["G", "中文 名", "x" * 50])},
            {"op": "setGraphField", "key": "goal", "value": "Ship it"},
            {"op": "connect", "from": "w", "to": "end"},
            {"op": "renameId", "from": "w", "to": "writer"},
            {"op": "removeNode", "id": "end"},
            {"op": "addPolicy", "kind": "no-self-grading", "scope": "graph"},
            {"op": "setPositions", "positions": {"w": {"x": 1.5, "y": -0.0}}},
            {"op": "nope"}, {"op": "addNode", "kind": "robot"}, {"op": "addNode", "kind": "agent", "__proto__": 1},
            "not an op", None, [],
        ]
        shape = rng.random()
        if shape < 0.1:
            return rng.choice([None, "ops", 7, {"op": "addNode"}])
        return [rng.choice(ops) for _ in range(rng.randint(0, 4))]

    def serve_server_requests(self) -> None:
        """Answer `workspace/applyEdit` as an editor does: apply it when it names the current version."""
        while True:
            try:
                arrived = self.server.server_requests.get_nowait()
            except Exception:
                return
            msg = arrived.message
            params = msg.get("params") or {}
            changes = (params.get("edit") or {}).get("documentChanges") or []
            applied = False
            for ch in changes:
                doc = self.docs.get(ch.get("textDocument", {}).get("uri"))
                if doc is None:
                    continue
                applied = self._apply_server_edits(doc, ch.get("edits") or [], ch["textDocument"].get("version"),
                                                   "workspace/applyEdit") or applied
            self.server.respond(msg["id"], {"applied": applied} if applied else
                                {"applied": False, "failureReason": "the document changed since"})

    # -- requests -----------------------------------------------------------------------------

    def id_position(self, doc: ClientDoc) -> dict:
        """A position inside an id or a reference to one (or anywhere, now and then)."""
        text = doc.text
        found = list(ID_FIELDS.finditer(text, 0, min(len(text), 200_000)))
        if found and self.rng.random() < 0.85:
            at = self.rng.choice(found).end() + self.rng.randint(0, 2)
        else:
            at = self.offset(text)
        at = min(at, len(text))
        if self.model(doc).between_cr_lf(at):
            at -= 1
        return self.model(doc).position(at)

    def random_position(self, doc: ClientDoc) -> dict:
        pos = self.model(doc).position(self.offset(doc.text))
        if self.rng.random() < 0.05:  # past the line's end: LSP says the line's end is meant
            pos = {"line": pos["line"], "character": pos["character"] + self.rng.randint(1, 500)}
        return pos

    def _code_action_params(self, doc: ClientDoc) -> dict:
        model = self.model(doc)
        a, b = sorted((self.offset(doc.text), self.offset(doc.text)))
        if self.rng.random() < 0.5:
            a, b = 0, len(doc.text)
        only = self.rng.choice([None, None, ["quickfix"], ["source.fixAll"], ["source.fixAll.grooph"], ["refactor"]])
        context: dict = {"diagnostics": []}
        if only is not None:
            context["only"] = only
        return {"textDocument": {"uri": doc.uri}, "range": {"start": model.position(a), "end": model.position(b)},
                "context": context}

    REQUEST_WEIGHTS = {
        "hover": 10, "completion": 8, "definition": 5, "references": 5, "symbols": 5, "folding": 3,
        "formatting": 4, "code_action": 8, "prepare_rename": 4, "rename": 2, "preview": 1, "apply_ops": 2,
        "reveal_fill": 1, "unknown": 1,
    }

    def random_request(self, doc: ClientDoc) -> None:
        kinds = list(self.REQUEST_WEIGHTS)
        kind = self.rng.choices(kinds, weights=[self.REQUEST_WEIGHTS[k] for k in kinds])[0]
        uri = {"uri": doc.uri}
        if kind == "hover":
            method, params = "textDocument/hover", {"textDocument": uri, "position": self.random_position(doc)}
        elif kind == "completion":
            method, params = "textDocument/completion", {"textDocument": uri, "position": self.random_position(doc)}
        elif kind == "definition":
            method, params = "textDocument/definition", {"textDocument": uri, "position": self.id_position(doc)}
        elif kind == "references":
            method, params = "textDocument/references", {"textDocument": uri, "position": self.id_position(doc),
                                                         "context": {"includeDeclaration": self.rng.random() < 0.5}}
        elif kind == "symbols":
            method, params = "textDocument/documentSymbol", {"textDocument": uri}
        elif kind == "folding":
            method, params = "textDocument/foldingRange", {"textDocument": uri}
        elif kind == "formatting":
            method, params = "textDocument/formatting", {"textDocument": uri, "options": {"tabSize": 2, "insertSpaces": True}}
        elif kind == "code_action":
            method, params = "textDocument/codeAction", self._code_action_params(doc)
        elif kind == "prepare_rename":
            method, params = "textDocument/prepareRename", {"textDocument": uri, "position": self.id_position(doc)}
        elif kind == "rename":
            method, params = "textDocument/rename", {"textDocument": uri, "position": self.id_position(doc),
                                                     "newName": self.rng.choice(NEW_NAMES)}
        elif kind == "preview":
            if len(doc.text) > 30_000:
                return
            method, params = "workspace/executeCommand", {"command": "grooph.preview", "arguments": [
                doc.uri, self.rng.choice([None, "wide", "sequence", "sideways"]), self.rng.choice(["light", "dark", "auto", "neon"])]}
        elif kind == "apply_ops":
            # Waited for, so its workspace/applyEdit is answered at a point that does not depend on timing.
            self._server_apply_ops(doc)
            return
        elif kind == "reveal_fill":
            # Alone in flight, so the window/showDocument between its sending and its answer is its own.
            self.drain()
            self.ask(doc, "workspace/executeCommand", {"command": "grooph.revealFill", "arguments": [
                doc.uri, self.rng.choice(["", "/nodes/0/brief", "/edges/0", "/nope/~1x", "/nodes/999"])]},
                wait=True, cancel=self.rng.random() < 0.15)
            return
        else:
            method, params = "grooph/noSuchMethod", {"textDocument": uri}
        self.ask(doc, method, params, wait=False, cancel=self.rng.random() < 0.15)

    def ask(self, doc: ClientDoc, method: str, params: dict, *, wait: bool, cancel: bool = False):
        """Send a request about `doc` at its current version; judged when its answer arrives."""
        p = self.server.send(method, params, uri=doc.uri, version=doc.version, doc=doc, text=doc.text,
                             command=(params.get("command") if method == "workspace/executeCommand" else None),
                             seq_before=self.server.last_seq)
        self.requests += 1
        self.note(f"{method}{' ' + params['command'] if 'command' in params else ''} id {p.id} (v{doc.version})"
                  + (" +cancel" if cancel else ""))
        if cancel:
            self.server.cancel(p)
            self.cancels += 1
        self.to_judge.append(p)
        if not wait:
            return None
        deadline = time.monotonic() + ANSWER_WITHIN
        while not p.answers:
            self.serve_server_requests()
            if not self.server.alive():
                self.fail(f"the server died while answering {method} (id {p.id})")
            try:
                self.server.wait_until(lambda: p.answers or not self.server.server_requests.empty(),
                                       max(0.1, deadline - time.monotonic()), method)
            except AssertionError:
                self.fail(f"silence: no answer to {method} (id {p.id}) within {ANSWER_WITHIN} s; still unanswered: "
                          + ", ".join(f"{q.method} (id {q.id})" for q in self.to_judge if not q.answers))
        answer = p.answers[0].message
        self.judge_answers()
        return answer.get("result")

    # -- judging ------------------------------------------------------------------------------

    def judge_answers(self) -> None:
        keep = []
        for p in self.to_judge:
            if p.answers:
                self.judging = p
                took = p.answers[0].at - p.sent
                if took > SLOW and self.dump_dir is not None:  # kept to look into; timing is the benchmark's to judge
                    self.dump(p, f"slow-{p.id}")
                self.slowest = sorted(self.slowest + [(took, p.method, p.context.get("command") or "", len(p.context["text"]))],
                                      reverse=True)[:5]
                self.judge(p)
                self.judging = None
                p.context.clear()  # the text snapshot and the answer are not needed any more
                p.params = None
                p.answers[0].message = {"judged": True}
            else:
                keep.append(p)
        self.to_judge = keep

    def judge(self, p: Pending) -> None:
        if len(p.answers) != 1:
            self.fail(f"{p.method} (id {p.id}) was answered {len(p.answers)} times")
        msg = p.answers[0].message
        what = f"{p.method} (id {p.id}, v{p.context['version']})"
        if ("result" in msg) == ("error" in msg):
            self.fail(f"{what}: an answer must carry a result or an error: {json.dumps(msg)[:300]}")
        if "error" in msg:
            err = msg["error"]
            if not (isinstance(err, dict) and isinstance(err.get("code"), int) and isinstance(err.get("message"), str) and err["message"]):
                self.fail(f"{what}: not an LSP error: {err!r}")
            code = err["code"]
            self.errors[code] = self.errors.get(code, 0) + 1
            allowed = {REQUEST_FAILED, CONTENT_MODIFIED}
            if p.cancelled:
                allowed.add(REQUEST_CANCELLED)
            if p.method == "grooph/noSuchMethod":
                allowed.add(METHOD_NOT_FOUND)
            if code not in allowed:
                self.fail(f"{what}: error {code} {err['message'][:300]!r}")
            if code == REQUEST_FAILED and p.method not in ("textDocument/prepareRename", "textDocument/rename", "workspace/executeCommand"):
                self.fail(f"{what}: refused ({err['message'][:200]!r}); this request should always have an answer")
            return
        if p.method == "grooph/noSuchMethod":
            self.fail(f"{what}: a method that does not exist was answered with a result")
        doc: ClientDoc = p.context["doc"]
        version = p.context["version"]
        model = self.model(doc, version, p.context["text"])
        self.judge_result(p, msg["result"], doc, model, what)

    def judge_result(self, p: Pending, result, doc: ClientDoc, model: LspText, what: str) -> None:
        method = p.method
        if method == "textDocument/foldingRange":
            for f in result or []:
                if not (0 <= f["startLine"] <= f["endLine"] < model.line_count):
                    self.fail(f"{what}: folding range {f} outside lines 0..{model.line_count - 1}")
        if method == "textDocument/documentSymbol":
            self.judge_symbols(result or [], model, what)
        if method == "workspace/executeCommand":
            command = p.context.get("command")
            if command == "grooph.applyOperations":
                if not (isinstance(result, dict) and isinstance(result.get("ok"), bool) and isinstance(result.get("ids"), list)):
                    self.fail(f"{what}: grooph.applyOperations answered {result!r}")
                if not result["ok"] and not (isinstance(result.get("error"), dict) and result["error"].get("message")):
                    self.fail(f"{what}: a failed grooph.applyOperations without a message: {result!r}")
            elif command == "grooph.preview":
                if not (isinstance(result, dict) and str(result.get("svg", "")).startswith("<svg")):
                    self.fail(f"{what}: grooph.preview answered {str(result)[:200]!r}")
                return  # the SVG's text is not the document's; security tests look inside it
            elif command == "grooph.revealFill":
                self.judge_show_document(p, result, doc, model, what)
        self.judge_ranges(result, doc, model, what, p.context["version"])

    def judge_ranges(self, value, doc: ClientDoc, model: LspText, what: str, version: int) -> None:
        """Every Range in an answer lies inside the text; Locations name this document; versioned
        document edits name the version the request was made at; edits of one document do not overlap."""
        stack = [value]
        while stack:
            v = stack.pop()
            if isinstance(v, list):
                stack.extend(v)
                continue
            if not isinstance(v, dict):
                continue
            if isinstance(v.get("newText"), str) and isinstance(v.get("range"), dict):  # a TextEdit
                problem = model.range_problem(v["range"], edit=True)
                if problem:
                    self.fail(f"{what}: edit range {v['range']} outside the document: {problem}")
                continue
            if isinstance(v.get("start"), dict) and isinstance(v.get("end"), dict):
                problem = model.range_problem(v)
                if problem:
                    self.fail(f"{what}: range {v} outside the document: {problem}")
                continue
            if "uri" in v and "range" in v and v["uri"] != doc.uri:
                self.fail(f"{what}: a location in another document: {v['uri']}")
            td = v.get("textDocument")
            if isinstance(td, dict) and "version" in td and isinstance(v.get("edits"), list):
                if td.get("uri") != doc.uri or td.get("version") != version:
                    self.fail(f"{what}: a document edit for {td} made at v{version} of {doc.uri}")
                self.judge_no_overlap(v["edits"], model, what)
            if isinstance(v.get("changes"), dict):
                for edits in v["changes"].values():
                    self.judge_no_overlap(edits, model, what)
            stack.extend(v.values())

    def judge_no_overlap(self, edits: list, model: LspText, what: str) -> None:
        spans = []
        for e in edits:
            if model.range_problem(e.get("range"), edit=True):
                continue  # reported by judge_ranges
            spans.append((model.offset(e["range"]["start"]), model.offset(e["range"]["end"])))
        spans.sort()
        for a, b in zip(spans, spans[1:]):
            if b[0] < a[1]:
                self.fail(f"{what}: overlapping edits at offsets {a} and {b}")

    def judge_symbols(self, symbols: list, model: LspText, what: str) -> None:
        stack = list(symbols)
        while stack:
            s = stack.pop()
            if "selectionRange" in s:
                rng, sel = s["range"], s["selectionRange"]
                for r in (rng, sel):
                    problem = model.range_problem(r)
                    if problem:
                        self.fail(f"{what}: symbol {s.get('name')!r}: {problem}")
                key = lambda p: (p["line"], p["character"])  # noqa: E731
                if not (key(rng["start"]) <= key(sel["start"]) and key(sel["end"]) <= key(rng["end"])):
                    self.fail(f"{what}: symbol {s.get('name')!r}: selectionRange {sel} not inside range {rng}")
                if not isinstance(s.get("name"), str) or not s["name"]:
                    self.fail(f"{what}: a symbol needs a non-empty name: {s!r}"[:300])
            stack.extend(s.get("children") or [])

    def judge_show_document(self, p: Pending, result, doc: ClientDoc, model: LspText, what: str) -> None:
        shown = [a for a in self.server.answered_server_requests
                 if p.context["seq_before"] < a.seq < p.answers[0].seq and a.message["method"] == "window/showDocument"
                 and a.message["params"].get("uri") == doc.uri]
        for a in shown:
            sel = a.message["params"].get("selection")
            if sel is not None:
                problem = model.range_problem(sel)
                if problem:
                    self.fail(f"{what}: window/showDocument selection {sel}: {problem}")

    def judge_notifications(self) -> None:
        notes = self.server.notifications
        while self.seen_notifications < len(notes):
            arrived = notes[self.seen_notifications]
            notes[self.seen_notifications] = None  # judged once; the list would hold every message of the session
            self.seen_notifications += 1
            msg = arrived.message
            method = msg.get("method")
            if method == "window/showMessage" and msg["params"].get("type") == 1:
                self.fail(f"the server showed an error: {msg['params'].get('message')!r}")
            if method != "textDocument/publishDiagnostics":
                continue
            self.publishes += 1
            params = msg["params"]
            self.publish_times.append((arrived.at, params["uri"]))
            doc = self.every_doc.get(params["uri"])
            version = params.get("version")
            if doc is None:
                self.fail(f"diagnostics for a document the client never opened: {params['uri']}")
            if doc.cleared and params.get("diagnostics"):
                self.fail(f"diagnostics for {doc.path.name} after it was closed and cleared")
            if doc.closed and version is None and not params.get("diagnostics"):
                doc.cleared = True
                continue
            if version is None:
                self.fail(f"diagnostics without a version for an open document ({doc.path.name})")
            if doc.published is not None and version < doc.published:
                self.fail(f"diagnostics for v{version} of {doc.path.name} after v{doc.published}")
            if version not in doc.texts:
                self.fail(f"diagnostics for v{version} of {doc.path.name}, a version the client never sent "
                          f"(or older than one already published)")
            doc.published = version
            for v in [v for v in doc.texts if v < version]:
                del doc.texts[v]
            model = self.model(doc, version)
            for d in params["diagnostics"]:
                problem = model.range_problem(d.get("range"))
                if problem:
                    self.fail(f"diagnostic {d.get('code')} {d.get('message', '')[:120]!r} at v{version}: {problem}")
                if d.get("severity") not in (1, 2, 3, 4) or not isinstance(d.get("message"), str) or not d["message"]:
                    self.fail(f"a diagnostic needs a severity and a message: {json.dumps(d)[:300]}")
                if d.get("code") == "E_DOC_LIMIT":
                    self.limit_hits += 1
                for rel in d.get("relatedInformation") or []:
                    loc = rel.get("location", {})
                    problem = model.range_problem(loc.get("range"))
                    if loc.get("uri") != doc.uri or problem:
                        self.fail(f"related information of {d.get('code')} at v{version}: {loc.get('uri')} {problem}")

    def step_checks(self) -> None:
        self.serve_server_requests()
        self.judge_answers()
        self.judge_notifications()
        if not self.server.alive():
            self.fail(f"the server exited (code {self.server.proc.poll()})")

    def sync(self) -> None:
        """A pause: every request answered, and each open document's newest version published."""
        self.drain()
        twice = [p for p in self.server.pending.values() if len(p.answers) > 1]
        if twice:
            self.fail(f"answered twice: {', '.join(f'{p.method} (id {p.id})' for p in twice[:5])}")
        for doc in list(self.docs.values()):
            if doc.published is None and doc.version == doc.opened_as and not self.served(doc):
                continue  # another JSON file, unchanged since it opened: ignored quietly (nothing published)
            def newest_published(doc=doc):
                self.judge_notifications()
                return doc.published == doc.version
            try:
                self.server.wait_until(newest_published, ANSWER_WITHIN, f"diagnostics for v{doc.version} of {doc.path.name}")
            except AssertionError as e:
                self.fail(f"{e} (last published: v{doc.published})")
        self.step_checks()
        self.models = {k: m for k, m in self.models.items() if k[0] in self.docs and k[1] == self.docs[k[0]].version}

    def drain(self) -> None:
        """Wait until every request sent so far is answered (and judged)."""
        deadline = time.monotonic() + 2 * ANSWER_WITHIN
        while self.to_judge:
            self.step_checks()
            if not self.to_judge:
                break
            if time.monotonic() > deadline:
                p = self.to_judge[0]
                self.fail(f"silence: {len(self.to_judge)} requests unanswered, e.g. {p.method} (id {p.id})")
            if not self.server.alive():
                self.fail("the server exited while requests were open")
            try:
                self.server.wait_until(lambda: self.to_judge[0].answers or not self.server.server_requests.empty(),
                                       max(0.1, deadline - time.monotonic()), "answers")
            except AssertionError:
                pass  # the deadline check above reports it with the session's context

    def typing_run(self, doc: ClientDoc) -> None:
        """Type continuously into `doc` (a key every TYPING_GAP_S): a publish for it must come at
        least every MAX_SILENCE_MS (+ grace) while the keys come, and the newest version after."""
        self.sync()
        self.publish_times = []
        started = time.monotonic()
        for _ in range(TYPING_KEYS):
            at = self.offset(doc.text)
            self.send_changes(doc, [self.guarded(doc.text, at, at, self.rng.choice(TYPED))], "typing")
            self.step_checks()
            time.sleep(TYPING_GAP_S)
        stopped = time.monotonic()
        self.step_checks()
        during = [t for t, uri in self.publish_times if uri == doc.uri and started < t <= stopped]
        marks = [started, *during, stopped]
        silence = max(b - a for a, b in zip(marks, marks[1:])) * 1000
        self.typing_runs.append(silence)
        self.note(f"typing run in {doc.path.name}: {len(during)} publishes, longest silence {silence:.0f} ms")
        if silence > MAX_SILENCE_MS + SCHEDULING_GRACE_MS:
            self.fail(f"{silence:.0f} ms without diagnostics for {doc.path.name} ({len(doc.text):,} chars) while "
                      f"typing a key every {TYPING_GAP_S * 1000:.0f} ms ({len(during)} publishes in "
                      f"{(stopped - started) * 1000:.0f} ms)")
        self.sync()

    # -- the session --------------------------------------------------------------------------

    def run(self, documents: list[Path]) -> None:
        rng = self.rng
        order = list(documents)
        rng.shuffle(order)
        share, extra = divmod(self.total_edits, len(order))
        quotas = {p: share + (1 if i < extra else 0) for i, p in enumerate(order)}
        since_sync = 0
        syncs = 0
        for g in range(0, len(order), OPEN_AT_ONCE):
            group = [self.open(p, quotas[p]) for p in order[g:g + OPEN_AT_ONCE]]
            while any(d.quota > 0 for d in group):
                doc = rng.choice([d for d in group if d.quota > 0])
                self.edit(doc)
                since_sync += 1
                while rng.random() < 0.4:
                    self.random_request(rng.choice(group))
                if rng.random() < 0.03:
                    self.server.cancel(rng.randint(1, self.requests + 50))  # an id answered long ago, or never sent
                    self.cancels += 1
                if rng.random() < 0.03:
                    save = {"textDocument": {"uri": doc.uri}}
                    if rng.random() < 0.5:
                        save["text"] = doc.text
                    self.server.notify("textDocument/didSave", save)
                    self.note(f"didSave {doc.path.name}")
                if rng.random() < 0.08:
                    time.sleep(rng.choice((0.005, 0.015, 0.03)))  # let a debounced validation run mid-burst
                self.step_checks()
                if since_sync >= SYNC_EVERY:
                    self.sync()
                    since_sync = 0
                    syncs += 1
                    if syncs % TYPING_EVERY == 0:
                        self.typing_run(doc)
            self.sync()
            for d in group:
                self.close(d)
        self.sync()


def test_fuzzed_editing_session(request, tmp_path):
    """≥ 2,000 seeded edits over every fixture with interleaved requests and cancels; see the module docstring."""
    edits = request.config.getoption("--fuzz-edits") or DEFAULT_EDITS
    seed = str(request.config.getoption("--fuzz-seed"))
    documents = fixture_documents()
    assert len(documents) >= 100, "the fixtures moved?"
    log, err = tmp_path / "server.log", tmp_path / "server.stderr"
    server = StdioServer(FIXTURES, log_file=log, stderr_file=err, env={"XDG_CACHE_HOME": str(tmp_path / "cache")},
                         configuration={"grooph": SETTINGS})
    session = FuzzSession(server, random.Random(seed), seed, edits, dump_dir=tmp_path)
    started = time.monotonic()
    try:
        init = server.initialize(editor_capabilities(), {"grooph": SETTINGS})
        assert "result" in init, init
        session.run(documents)
        peak = server.peak_memory_kb()
        code = server.shutdown()
        assert code == 0, f"the server exited with {code} after shutdown/exit"
        assert not server.stray, f"answers to requests never sent, or unreadable frames: {server.stray[:3]}"
    finally:
        if server.alive():
            server.proc.kill()
    elapsed = time.monotonic() - started
    for name, path in (("log", log), ("stderr", err)):
        text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
        bad = [line for line in text.splitlines() if "Traceback" in line or " ERROR " in line or "CRITICAL" in line]
        assert not bad, f"the server's {name} has errors:\n" + text[-4000:]
    assert session.edits >= edits
    assert session.typing_runs, "the session typed continuously at least once"
    assert session.judged_fixes, "the session was offered at least one quick fix (and judged it)"
    print(f"\nfuzz session: seed {seed!r}, {session.edits} edits ({session.applied_server_edits} made by the server, "
          f"{session.judged_fixes} quick fixes judged), "
          f"{session.requests} requests, {session.cancels} cancels, {session.publishes} diagnostics published, "
          f"{session.limit_hits} E_DOC_LIMIT, errors {session.errors}, {len(documents)} documents, "
          f"{elapsed:.0f} s, server peak memory {peak and peak // 1024} MB\n"
          f"typing runs: {len(session.typing_runs)}, longest silence while typing "
          f"{max(session.typing_runs, default=0):.0f} ms\nedits by kind: {dict(sorted(session.kinds.items()))}"
          f"\nslowest answers: " + "; ".join(f"{t:.2f} s {m} {c or ''} ({n:,} chars)" for t, m, c, n in session.slowest))
