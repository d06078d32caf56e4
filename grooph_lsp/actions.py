"""Code actions (quick fixes, `source.fixAll.grooph`) and the commands `grooph.preview`,
`grooph.applyOperations` and `grooph.revealFill`: translate, call the document's kind
(`analysis.document_kind`: its fixes, fix-all, operations, picture), convert (`convert`). Registered in `server.FEATURES` and `server.COMMANDS`."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from grooph_core.ide.grooph.actions import FIX_ALL_TITLE
from grooph_core.ide.refused import Refused
from grooph_core.ops.repairs import Stopped
from grooph_lsp import convert
from grooph_lsp.convert import FIX_ALL, to_lsp_range, to_offset
from grooph_lsp.errors import ContentModified, RequestRefused

if TYPE_CHECKING:
    from grooph_lsp.server import GroophServer

log = logging.getLogger("grooph_lsp")

PREVIEW = "grooph.preview"
APPLY_OPS = "grooph.applyOperations"
REVEAL_FILL = "grooph.revealFill"


def cache_dir() -> Path:
    """Where previews are written: the user's cache folder, never beside their documents."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "grooph-lsp" / "previews"


_UNSAFE_IN_FILE_NAME = re.compile(r"[^\w.-]|^\.+")


def preview_file_name(uri: str, name: str, view: str | None, theme: str) -> str:
    """The preview's file name in the cache folder: the document's name made safe (letters, digits,
    `.` `_` `-` only, so no separator, NUL, drive letter or direction override can take it out of
    the folder or fail the write; at most 60 characters) and a digest of the URI that keeps two
    documents with the same name apart."""
    stem = name.replace(".grooph-map.json", "").replace(".grooph.json", "").replace(".json", "")
    stem = _UNSAFE_IN_FILE_NAME.sub("_", stem)[:60] or "document"
    digest = hashlib.sha1(uri.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{stem}-{digest}-{view or 'picture'}-{theme}.svg"


def _workspace_edit(ls: "GroophServer", uri: str, version: int, lines, edits) -> lsp.WorkspaceEdit:
    """Edits of one version of a document, placed with that version's line index."""
    return convert.versioned_edit(uri, version, lines, edits, ls.encoding)


def resolves_edits(ls: "GroophServer") -> bool:
    """The client resolves a code action's edit later (`codeAction/resolve`) and keeps its `data`."""
    td = ls.client_capabilities.text_document
    ca = td.code_action if td else None
    return bool(ca and ca.data_support and ca.resolve_support and "edit" in (ca.resolve_support.properties or []))


def _chosen_issues(analysis, params: lsp.CodeActionParams, encoding: str) -> tuple[list, dict]:
    """The issues the request is about: the diagnostics it names (when they are of this version),
    else every issue overlapping its range; and the client's diagnostics by issue index."""
    diag_by_index = {}
    for d in params.context.diagnostics or []:
        if isinstance(d.data, dict) and isinstance(d.data.get("index"), int):
            diag_by_index[d.data["index"]] = d
    chosen = [analysis.issues[i] for i in sorted(diag_by_index)
              if i < len(analysis.issues) and analysis.issues[i].code == diag_by_index[i].code]
    if not chosen:
        lines = analysis.line_index
        start = to_offset(lines, params.range.start, encoding)
        end = to_offset(lines, params.range.end, encoding)
        chosen = [i for i in analysis.issues if _overlaps(analysis.span(i), start, end)]
    return chosen, diag_by_index


async def code_action(ls, params: lsp.CodeActionParams) -> list[lsp.CodeAction] | None:
    """Quick fixes and fix-all, only those that passed the §8.2 checks (issue 21). A client that
    resolves edits gets the titles of the candidates the background checks passed (fix_checks.py;
    the edit waits for `codeAction/resolve`); another gets every action with its edit, checked and
    made in the request worker so the event loop keeps answering."""
    doc = ls.served(params.text_document.uri)
    if doc is None:
        return None
    result = await ls.scheduler.result(doc)
    analysis, version = result.analysis, result.snapshot.version
    kind = analysis.document_kind
    only = params.context.only
    asked_fix_all = only is not None and any(_kind_matches(FIX_ALL, k) for k in only)
    want_quick = only is None or any(_kind_matches(lsp.CodeActionKind.QuickFix, k) for k in only)
    lazy = resolves_edits(ls) and kind.resolves_fixes_later
    export = ls.settings.complete
    chosen, diag_by_index = _chosen_issues(analysis, params, ls.encoding) if want_quick else ([], {})
    index_of = {id(issue): n for n, issue in enumerate(analysis.issues)}
    out: list[lsp.CodeAction] = []
    fixes: list = []
    if want_quick and chosen:
        # a client that wants every edit now gets them checked in the request worker; a newer
        # version or a $/cancelRequest stops that work between candidates (they queue otherwise)
        cancelled = threading.Event()

        def stop() -> bool:
            return cancelled.is_set() or ls.store.get(doc.uri) is not doc or doc.version != version

        if lazy and kind.unchecked_fixes(analysis, chosen, export=export):
            await ls.fix_checks.settle(doc, result, chosen, export)
        try:
            fixes = await ls.off_loop(lambda: kind.fix_offers(analysis, chosen, export=export) if lazy
                                      else kind.quick_fixes(analysis, chosen, export=export, stop=stop))
        except asyncio.CancelledError:
            cancelled.set()
            raise
        except Stopped:
            raise ContentModified("The document changed while its quick fixes were checked; ask again.") from None
        seen: set = set()
        for fix, preferred in _preferred_once(fixes):
            n = index_of.get(id(fix.issue))
            key = (fix.title, n) if lazy else (fix.title, fix.edits)
            if key in seen:  # two issues with the same repair (one edge, two findings) give one action
                continue
            seen.add(key)
            diag = diag_by_index.get(n)
            out.append(convert.code_action(
                fix.title, lsp.CodeActionKind.QuickFix, diagnostic=diag, preferred=preferred,
                data={"uri": doc.uri, "version": version, "issue": n, "code": fix.issue.code, "title": fix.title} if lazy else None,
                edit=None if lazy else _workspace_edit(ls, doc.uri, version, analysis.line_index, fix.edits),
                run=convert.command("Go to the value to fill in", REVEAL_FILL, [doc.uri, fix.fill]) if fix.fill else None,
            ))
    if asked_fix_all or (only is None and not lazy):
        fix = await ls.off_loop(lambda: kind.fix_all(analysis, export=export))
        if fix is not None:
            out.append(convert.code_action(fix.title, FIX_ALL,
                                           edit=_workspace_edit(ls, doc.uri, version, analysis.line_index, fix.edits)))
    elif only is None and lazy and any(f.repair_class == "safe" for f in fixes):
        # the menu under the cursor offers fix-all when a safe repair is among its quick fixes
        out.append(convert.code_action(FIX_ALL_TITLE, FIX_ALL,
                                       data={"uri": doc.uri, "version": version, "fixAll": True}))
    return out


async def resolve_code_action(ls, action: lsp.CodeAction) -> lsp.CodeAction:
    """The edit of an action offered with its title only, made and checked (§8.2) now, off the
    event loop; withheld, with a message saying why, when the checks refuse it."""
    data = action.data if isinstance(action.data, dict) else None
    if data is None or action.edit is not None or not isinstance(data.get("uri"), str):
        return action
    doc = ls.served(data["uri"])
    if doc is None or doc.version != data.get("version"):
        raise ContentModified("The document changed since this action was offered; ask for the actions again.")
    result = await ls.scheduler.result(doc)
    analysis, version = result.analysis, result.snapshot.version
    export = ls.settings.complete
    kind = analysis.document_kind
    if data.get("fixAll"):
        fix = await ls.off_loop(lambda: kind.fix_all(analysis, export=export))
        outcome = fix if fix is not None else Refused("No safe repair applies to this version of the document. Nothing was changed.")
    else:
        n = data.get("issue")
        if not (isinstance(n, int) and 0 <= n < len(analysis.issues) and analysis.issues[n].code == data.get("code")
                and isinstance(data.get("title"), str)):
            raise ContentModified("This action no longer matches the document's diagnostics; ask for the actions again.")
        issue = analysis.issues[n]
        outcome = await ls.off_loop(lambda: kind.resolve_offer(analysis, issue, data["title"], export=export))
    if isinstance(outcome, Refused):
        ls.window_show_message(convert.warning(outcome.message))
        return action
    if data.get("fixAll"):
        action.title = outcome.title
    action.edit = _workspace_edit(ls, doc.uri, version, analysis.line_index, outcome.edits)
    return action


async def preview(ls, *args):
    """The document's picture: written to the cache folder (the answer holds it and the file's path) and
    served live on the loopback (live_picture.py), whose page the client is asked to open in a browser
    (`window/showDocument` external; else the address in a message). The answer's `url` is that page."""
    uri, view, theme = (list(args) + [None, None, None])[:3]
    if uri is None:  # a client that runs a command without arguments (Helix): the document last typed in
        uri = next((u for u in reversed(ls.store.touched) if _has_picture(ls, u)), None)
        if uri is None:
            raise _refuse("grooph.preview: no open document has a picture; open a graph, a map or a workflow.")
    if not isinstance(uri, str):
        raise _refuse("grooph.preview needs the document's URI as its first argument: [uri, view?, theme?].")
    doc = ls.served(uri)
    if doc is None:
        raise _refuse(f"{uri} is not an open grooph document.")
    if theme not in (None, "light", "dark", "auto"):
        raise _refuse(f'Unknown theme {theme!r}: use "light", "dark" or "auto".')
    theme = theme or ls.settings.preview_theme
    if view not in (None, "wide", "sequence"):
        raise _refuse(f'Unknown view {view!r}: use null, "wide" or "sequence".')
    analysis = await ls.analysed(doc)
    svg = await ls.off_loop(lambda: analysis.document_kind.picture(analysis, view=view, theme=theme))
    if svg is None:  # a kind without a picture (a board, an episode record)
        raise _refuse(f"{doc.name} is {analysis.document_kind.title}, which has no picture "
                      "(graphs, operation maps and board workflows have one).")
    if isinstance(svg, Refused):
        raise _refuse(svg.message)
    folder = cache_dir()
    path = folder / preview_file_name(uri, doc.name, view, theme)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(svg, encoding="utf-8")
    except OSError as e:
        raise _refuse(f"Cannot write the picture to {folder}: {e.strerror or e}.")
    url = await ls.live.url(uri, view)
    if ls.shows_documents:
        ls.window_show_document(convert.show_document(url, external=True, take_focus=False))
    else:
        ls.window_show_message(convert.info(f"The live picture of {doc.name} is at {url}"))
    return {"svg": svg, "path": str(path), "url": url}


async def apply_operations(ls, *args):
    uri, ops = (list(args) + [None, None])[:2]
    doc = ls.served(uri) if isinstance(uri, str) else None
    if doc is None:
        raise _refuse(f"{uri!r} is not an open grooph document.")
    done = await ls.scheduler.result(doc)
    analysis = done.analysis
    outcome = await ls.off_loop(analysis.document_kind.operations, analysis, ops)
    if outcome is None:  # a kind without operations (a workflow, a board, an episode record)
        raise _refuse(f"{uri!r} is not an open grooph document.")
    if not outcome.ok:
        return {"ok": False, "ids": [], "error": outcome.error}
    if outcome.edits:
        result = await ls.workspace_apply_edit_async(convert.apply_edit(
            _workspace_edit(ls, doc.uri, done.snapshot.version, analysis.line_index, outcome.edits),
            "grooph: apply operations"))
        if not result.applied:
            return {"ok": False, "ids": list(outcome.ids), "error": {"index": -1, "op": "", "message": result.failure_reason or "the editor did not apply the edit"}}
    return {"ok": True, "ids": list(outcome.ids), "error": None}


async def reveal_fill(ls, *args):
    """After a fix inserted an empty field, put the cursor inside it (window/showDocument), placed
    with the analysis of the document's current version (the one the fix made)."""
    uri, pointer = (list(args) + [None, ""])[:2]
    doc = ls.served(uri) if isinstance(uri, str) else None
    caps = ls.client_capabilities.window
    if doc is None or not isinstance(pointer, str) or not (caps and caps.show_document and caps.show_document.support):
        return False
    analysis = await ls.analysed(doc)
    s, e = analysis.pointer_span(pointer)
    if e - s >= 2 and analysis.text[s] == '"':
        s = e = s + 1  # inside the empty string's quotes
    rng = to_lsp_range(analysis.line_index, (s, e), ls.encoding)
    ls.window_show_document(convert.show_document(uri, take_focus=True, selection=rng))
    return True


def _preferred_once(fixes):
    """Each fix with whether it is marked preferred: the first safe or preferred fix of each issue
    (operations.md §8.2's classes; one per diagnostic, so "auto fix" has one usual repair to apply)."""
    marked: set[int] = set()
    for fix in fixes:
        preferred = fix.preferred and id(fix.issue) not in marked
        if preferred:
            marked.add(id(fix.issue))
        yield fix, preferred


def _overlaps(span: tuple[int, int], start: int, end: int) -> bool:
    return span[0] <= end and start <= span[1]


def _kind_matches(ours: str, requested: str) -> bool:
    """LSP kinds are hierarchical: `source.fixAll` asks for `source.fixAll.grooph` too."""
    return ours == requested or ours.startswith(requested + ".")


def _has_picture(ls, uri: str) -> bool:
    """An open document of a kind that has a picture (`picture.DRAWN`)."""
    from grooph_core.picture import DRAWN

    doc = ls.served(uri)
    if doc is None:
        return False
    done = ls.scheduler.current(doc)  # not analysed yet: the command says what it finds
    return done is None or done.analysis is None or done.analysis.kind in DRAWN


def _refuse(message: str) -> Exception:
    return RequestRefused(message)
