"""How each editor applies a completion item (issue 29 item 1), modelled from the clients' own code, so a
test can take an item the server gave the way each client would and look at the text it leaves.

Each style is the client capabilities it announces (which decide what the server sends) and the way it
filters and applies an item, given the items as plain JSON (as the client receives them):

- **VS Code** (`insertReplaceSupport`, snippets) and **lsp-mode** 8.0 (`lsp-completion.el`: the same
  capabilities, `lsp-completion-default-behaviour` `:replace`): filter by the text from the edit's
  (insert) range start to the cursor; apply the range, the insert range or the replace range;
- **eglot** 1.9 (`eglot.el`: no `insertReplaceSupport`, snippets only with yasnippet, taken as absent):
  filters by the Emacs symbol at the cursor, applies the `TextEdit`'s range;
- **Neovim** 0.11/0.12 built-in completion (`runtime/lua/vim/lsp/completion.lua`, `vim.lsp.omnifunc`
  and `vim.lsp.completion`; snippets, no `insertReplaceSupport`): the completion starts at the items'
  common `textEdit.range.start` (else the keyword before the cursor), keeps items whose `filterText`
  starts with the text typed from there, and inserts the item's word (`newText` up to its first space;
  a snippet's label) in place of the typed text, keeping everything after the cursor; with
  `vim.lsp.completion.enable` its `CompleteDone` then replaces a snippet's word by the expanded
  snippet and applies `additionalTextEdits`;
- **ALE** 3.3 (`autoload/ale/completion.vim`: no snippets, no `insertReplaceSupport`): the completion
  starts at the word `[a-zA-Z$_][a-zA-Z$_0-9]*` before the cursor, keeps items whose text starts with
  it (case-insensitively), and inserts `textEdit.newText` (else `insertText`, else `label`) up to a
  `(` in its place, keeping everything after the cursor; `additionalTextEdits` are applied after.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from lsprotocol import types as lsp

from grooph_core.ide.text_edits import TextEdit, apply_edits
from grooph_core.source.line_index import LineIndex

_ITEM = lsp.CompletionClientCapabilities


def _caps(*, snippets: bool, insert_replace: bool) -> lsp.ClientCapabilities:
    return lsp.ClientCapabilities(text_document=lsp.TextDocumentClientCapabilities(completion=_ITEM(
        completion_item=lsp.ClientCompletionItemOptions(snippet_support=snippets,
                                                        insert_replace_support=insert_replace or None))))


class Refused(Exception):
    """The client does not offer the item here (its filter drops it)."""


def offset_of(text: str, pos: dict) -> int:
    return LineIndex(text).offset(pos["line"], pos["character"], "utf-16")


def expand_snippet(s: str) -> str:
    """A snippet's text with its tab stops and placeholders resolved (`$1`, `${1:x}`, `\\$`)."""
    out, i, depth = [], 0, 0
    while i < len(s):
        ch = s[i]
        if ch == "\\" and i + 1 < len(s):
            out.append(s[i + 1])
            i += 2
        elif ch == "$" and re.match(r"\$\{\d+:?", s[i:]):
            depth += 1
            i += re.match(r"\$\{\d+:?", s[i:]).end()
        elif ch == "$" and s[i + 1:i + 2].isdigit():
            i += len(re.match(r"\$\d+", s[i:]).group())
        elif ch == "}" and depth:  # the end of a placeholder
            depth -= 1
            i += 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _text(item: dict) -> str:
    edit = item["textEdit"]
    snippet = item.get("insertTextFormat") == lsp.InsertTextFormat.Snippet
    return expand_snippet(edit["newText"]) if snippet else edit["newText"]


def _additional(text: str, item: dict, before: int) -> list[TextEdit]:
    """The item's additional edits; each must end before the main edit starts (so that clients applying
    them before or after it, by their positions in the text as it was, all give the same text)."""
    out = []
    for e in item.get("additionalTextEdits") or ():
        start, end = offset_of(text, e["range"]["start"]), offset_of(text, e["range"]["end"])
        assert end <= before, ("an additional edit after the main edit's start", e)
        out.append(TextEdit(start, end, e["newText"]))
    return out


def _with_additional(text: str, item: dict, main: TextEdit) -> str:
    return apply_edits(text, sorted([*_additional(text, item, main.start), main], key=lambda e: e.start))


def _starts(word: str, typed: str, *, fold: bool = False) -> bool:
    return word.lower().startswith(typed.lower()) if fold else word.startswith(typed)


# ---- range clients -----------------------------------------------------------------------------------


def _range_of(item: dict, part: str) -> dict:
    edit = item["textEdit"]
    return edit.get(part) or edit["range"]


def _by_range(part: str, *, symbol_filter: bool = False) -> Callable[[str, int, list, dict], str]:
    def apply(text: str, cursor: int, items: list, item: dict) -> str:
        rng = _range_of(item, part)
        start, end = offset_of(text, rng["start"]), offset_of(text, rng["end"])
        assert start <= cursor <= end, (part, item)
        filter_text = item.get("filterText") or item["label"]
        typed = _EMACS_SYMBOL.search(text, 0, cursor).group() if symbol_filter else text[start:cursor]
        if not _starts(filter_text, typed, fold=True):
            raise Refused(typed, filter_text)
        return _with_additional(text, item, TextEdit(start, end, _text(item)))
    return apply


# Emacs's symbol at point in js-mode with `-` a symbol character (docs/editors.md's grooph-mode).
_EMACS_SYMBOL = re.compile(r"[\w$-]*\Z")


# ---- clients inserting at the cursor ------------------------------------------------------------------

_VIM_KEYWORD = re.compile(r"[A-Za-z0-9_\u00c0-\u00ff]*\Z")  # 'iskeyword' @,48-57,_,192-255


def _line_start(text: str, cursor: int) -> int:
    return text.rfind("\n", 0, cursor) + 1


def _neovim(enabled: bool) -> Callable[[str, int, list, dict], str]:
    def apply(text: str, cursor: int, items: list, item: dict) -> str:
        line = text.count("\n", 0, cursor)
        starts = {i["textEdit"]["range"]["start"]["character"] for i in items
                  if "range" in i.get("textEdit", {}) and i["textEdit"]["range"]["start"]["line"] == line}
        if len(starts) == 1 and all("range" in i.get("textEdit", {}) for i in items):  # adjust_start_col
            start = offset_of(text, {"line": line, "character": starts.pop()})
        else:
            start = cursor - len(_VIM_KEYWORD.search(text, _line_start(text, cursor), cursor).group())
        prefix = text[start:cursor]
        if re.search(r"[A-Za-z0-9]", prefix):
            if item.get("filterText") is not None:
                if not _starts(item["filterText"], prefix):
                    raise Refused(prefix, item["filterText"])
            elif "textEdit" not in item and not _starts(item["label"], prefix):
                raise Refused(prefix, item["label"])
        snippet = item.get("insertTextFormat") == lsp.InsertTextFormat.Snippet
        if snippet:  # get_completion_word
            text_ = expand_snippet(item["textEdit"]["newText"])
            word = re.match(r"[A-Za-z0-9_]*", text_).group() if len(text_) < len(item["label"]) else item["label"]
            if item.get("filterText") and not (prefix == "" or _starts(word, prefix)):
                word = item["filterText"]
        else:
            word = re.match(r"\S*", item["textEdit"]["newText"]).group()
        if not enabled:
            return text[:start] + word + text[cursor:]
        inserted = text[:start] + (expand_snippet(item["textEdit"]["newText"]) if snippet else word) + text[cursor:]
        for e in sorted(_additional(text, item, start), key=lambda e: -e.start):  # before the word: unmoved
            inserted = inserted[:e.start] + e.text + inserted[e.end:]
        return inserted
    return apply


_ALE_WORD = re.compile(r"[a-zA-Z$_][a-zA-Z$_0-9]*\Z")


def ale_word_before(text: str, cursor: int) -> str:
    m = _ALE_WORD.search(text, _line_start(text, cursor), cursor)
    return m.group() if m else ""


def _ale(text: str, cursor: int, items: list, item: dict) -> str:
    prefix = ale_word_before(text, cursor)
    start = cursor - len(prefix)
    if item.get("insertTextFormat", 1) == lsp.InsertTextFormat.PlainText and isinstance(item.get("textEdit"), dict):
        source = item["textEdit"]["newText"]
    else:
        source = item.get("insertText") or item["label"]
    word = re.match(r"[^(]*", source).group()
    if not _starts(word, prefix, fold=True):
        raise Refused(prefix, word)
    inserted = text[:start] + word + text[cursor:]
    for e in sorted(_additional(text, item, start), key=lambda e: -e.start):
        inserted = inserted[:e.start] + e.text + inserted[e.end:]
    return inserted


@dataclass(frozen=True)
class Style:
    name: str
    capabilities: lsp.ClientCapabilities
    apply: Callable[[str, int, list, dict], str]  # (text, cursor, all items, the item chosen) -> text
    additional: bool = True  # applies additionalTextEdits


_RANGES = _caps(snippets=True, insert_replace=True)
STYLES = (
    Style("vscode-insert", _RANGES, _by_range("insert")),
    Style("vscode-replace", _RANGES, _by_range("replace")),
    Style("lsp-mode", _RANGES, _by_range("replace")),
    Style("eglot", _caps(snippets=False, insert_replace=False), _by_range("range", symbol_filter=True)),
    Style("neovim", _caps(snippets=True, insert_replace=False), _neovim(True)),
    Style("neovim-omnifunc", _caps(snippets=True, insert_replace=False), _neovim(False), additional=False),
    Style("ale", _caps(snippets=False, insert_replace=False), _ale),
)
