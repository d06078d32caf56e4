"""`DocumentKind`: the one face a document kind shows the editor and the command line (DESIGN.md "Kinds").

Every request the server or a command makes of a document goes through its kind: read it (strict for the
command line, tolerant for the editor), place a JSON pointer, hover, completion, outline, folds, names
(definition, references, rename), quick fixes and fix-all, operations, formatting, picture, and which
commands take it. What a kind does not have answers "not offered" here (`None`, or a `Refused` saying
why), so a kind overrides only what it has. The kinds are registered once, in `kinds.KINDS`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

from grooph_core.ide.refused import Refused

if TYPE_CHECKING:
    from grooph_core.ide.document import DocumentAnalysis

# Every face made, by its kind's name: `DocumentAnalysis.document_kind` finds its face here, so that the
# analysis never imports the faces (which import the analysis to read) nor the registration (`ide.kinds`).
FACES: dict[str, "DocumentKind"] = {}


def made(kind: "DocumentKind") -> "DocumentKind":
    """The face, now findable by its name (`face_of`); each face module makes its faces through this."""
    FACES[kind.name] = kind
    return kind


def face_of(name: str) -> "DocumentKind":
    """The face of the kind of that name (made when the package `ide` is imported: `ide/__init__`)."""
    try:
        return FACES[name]
    except KeyError:
        raise LookupError(f"no face of the kind {name!r}: it is not registered in grooph_core.ide.kinds") from None


class DocumentKind(ABC):
    """What a kind of document answers; each method's default is "not offered" (but `read`: every kind
    has a reader)."""

    name: str = ""
    # what a message calls one ("a graph document", "a board workflow")
    title: str = ""
    # the file names that say a file is of this kind (`source.kinds`)
    suffixes: tuple[str, ...] = ()
    # hover and completion are cheap enough to answer on the event loop (never queued behind a quick-fix
    # check in the request worker, DESIGN.md "As you type"); else they go to the request worker.
    answers_on_loop: bool = False
    # a client that resolves code actions gets their titles first and each edit on `codeAction/resolve`
    # (issue 13); a kind whose fixes are cheap gives them with their edits at once.
    resolves_fixes_later: bool = False
    # a diagnostic placed by pointer keeps its range, moved, across an edit that keeps the JSON structure
    # (`source.text.keeps_json_structure`): the pointer still names the same place (issue 33)
    ranges_follow_json_edits: bool = False
    # what rename says on a place that holds nothing this kind renames
    nothing_to_rename: str = "There is nothing at the cursor to rename."
    # its sessions name graph files (map.md §4.2, §6.8): its rules read them, the workspace links them
    names_graphs: bool = False
    # a map's session `graph` pointer names documents of this kind (map.md §4.2, §6.8)
    named_by_maps: bool = False
    # its top level has a `slug` and a `name` that identify it (board.md §2)
    identified_by_slug: bool = False
    # a `layout` key names an object by id (graph.md §1.12)
    layout_keys_are_ids: bool = False

    @property
    def takes_operations(self) -> bool:
        """Operations apply to this kind (operations.md §1; the ops layer's `OPERATED_KINDS`)."""
        from grooph_core.ops.repair_types import OPERATED_KINDS

        return self.name in OPERATED_KINDS

    # ---- reading ------------------------------------------------------------------------------------
    @abstractmethod
    def read(self, text: str, *, name: str | None = None, tolerant: bool = True, export: bool = False,
             resolver=None, max_chars: int | None = None, previous: "DocumentAnalysis | None" = None) -> "DocumentAnalysis":
        """The analysis of one text of this kind (tolerant for the editor, strict for the command line).
        `previous`, the editor's analysis of an earlier version of the same document with the same
        settings, may be reused where the edit left the text alone (a kind that cannot ignores it)."""

    @property
    def rules(self):
        """The kind's rules package (`grooph_core.rules.<kind>`: its `RULES` in the spec's order), which
        `read` runs."""
        import importlib

        return importlib.import_module(f"grooph_core.rules.{self.name}")

    def pointer_span(self, analysis: "DocumentAnalysis", pointer: str, *, key: bool = False) -> tuple[int, int]:
        """Where a JSON pointer (its key, with `key`) is shown, by this kind's rule."""
        return analysis.pointer_span(pointer, key=key)

    # ---- the editor's requests ----------------------------------------------------------------------
    def hover(self, analysis, offset: int):
        """`hover.HoverText` at the offset, or None."""
        return None

    def complete(self, analysis, offset: int):
        """`completion.Completion`s at the offset, best first; None when not offered."""
        return None

    def outline(self, analysis):
        """The outline (`navigation.Symbol`s); None when not offered."""
        return None

    def folds(self, analysis):
        """(first line, last line) folds; None when not offered."""
        return None

    def definition(self, analysis, offset: int):
        """Spans of the definition of the name at the offset; None when not offered."""
        return None

    def references(self, analysis, offset: int, *, include_declaration: bool = True):
        """Spans of every use of the name at the offset; None when not offered."""
        return None

    def prepare_rename(self, analysis, offset: int):
        """(span, text) of the name at the offset, a `Refused`, or None (nothing to rename there)."""
        return None

    def rename(self, analysis, offset: int, new_name: str):
        """Text edits renaming the name at the offset, or a `Refused`."""
        return Refused(self.nothing_to_rename)

    def quick_fixes(self, analysis, issues, *, export: bool = False, stop=None) -> list:
        """Checked quick fixes (`actions.QuickFix`, edits made) of these issues, best first per issue."""
        return []

    def fix_offers(self, analysis, issues, *, export: bool = False) -> list:
        """Quick fixes by title (`actions.FixOffer`) that passed the §8.2 checks already run, their
        edits made by `resolve_offer` (issue 21: every one offered applies)."""
        return []

    def unchecked_fixes(self, analysis, issues, *, export: bool = False) -> list:
        """The issues among these whose fix candidates have no §8.2 verdict yet (the server waits
        for their background checks, grooph_lsp/fix_checks.py, within its budget)."""
        return []

    def resolve_offer(self, analysis, issue, title: str, *, export: bool = False):
        """The checked `QuickFix` of an offer, or a `Refused`."""
        return Refused(f'"{title}" was not applied: {self.title} has no such repair. Nothing was changed.')

    def fix_all(self, analysis, *, export: bool = False):
        """Every safe repair as one `QuickFix`, or None."""
        return None

    def operations(self, analysis, ops):
        """`actions.OpsOutcome` of an op list; None when operations are not offered."""
        return None

    def format(self, analysis):
        """Text edits to this kind's written form, or a `Refused` saying why not."""
        return Refused(f"{self.title[:1].upper()}{self.title[1:]} is not formatted. Nothing was changed.", standing=True)

    def picture(self, analysis, *, view: str | None = None, theme: str = "light"):
        """The SVG picture, a `Refused` saying which fault keeps it from being drawn, or None (no picture)."""
        return None

    def picture_target(self, analysis, mark: str, ident: str) -> tuple[int, int] | None:
        """Where the object a picture marks `data-<mark>="<ident>"` is defined (its id's span), or None
        (`picture.marks`: a click on the live picture reveals it)."""
        return None

    def command_refusal(self, command: str, arg: str) -> str | None:
        """Why the command line's `command` does not take the file `arg` of this kind, or None when it
        does (every command takes a graph or a map)."""
        return None

    # ---- what the editor draws into the text (issue 31 items 3, 5, 6; ide.text_marks) -----------------
    def inlay_hints(self, analysis, start: int, end: int):
        """`text_marks.InlayHint`s of the range [start, end] (computed from that range alone); None when
        not offered."""
        return None

    def document_links(self, analysis, path: str | None):
        """`text_marks.DocumentLink`s of the text (`path`: the document's file, which relative links are
        read against); None when not offered."""
        return None

    def semantic_tokens(self, analysis, start: int = 0, end: int | None = None):
        """`text_marks.Token`s of the range (the whole text when `end` is None), in text order; None
        when not offered."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"

    # ---- the flow in the text (issue 31 items 1, 2, 4) --------------------------------------------------
    def highlights(self, analysis, offset: int):
        """`flow.Highlight`s of the name at the offset (its definition written, each use read); None when
        not offered."""
        return None

    def call_items(self, analysis, offset: int):
        """The `flow.FlowItem`s of the call hierarchy at the offset (none there: []); None when not offered."""
        return None

    def incoming_calls(self, analysis, kind: str, ident: str):
        """`flow.FlowCall`s leading to the item (`FlowItem.kind`, `.id`) in this version ([] when it is
        gone); None when not offered."""
        return None

    def outgoing_calls(self, analysis, kind: str, ident: str):
        """`flow.FlowCall`s leading from the item in this version ([] when it is gone); None when not offered."""
        return None

    def selection_ranges(self, analysis, offsets: list[int]):
        """For each offset, the spans around it that follow the structure, innermost first
        (`selection.selection_chain`); None when not offered."""
        return None
