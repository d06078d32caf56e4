"""The neighbouring kinds' faces (workflow.md §0, board.md, episodes.md): `NeighbourFace`, what they share (one pipeline,
`analysis`; this package's modules for hover, completion, outline, names, fixes and the written form),
and `WORKFLOW`, `BOARD`, `EPISODES`: each one of these with its `source.kinds.NeighbourKind` entry and
what it has of its own."""

from __future__ import annotations

from grooph_core.ide.face import DocumentKind, made
from grooph_core.ide.flow import FlowFace
from grooph_core.ide.neighbours.analysis import NeighbourAnalysis, analyze_neighbour, rules_of
from grooph_core.ide.neighbours.names import definition_at, prepare_rename_at, references_at, rename_at
from grooph_core.ide.refused import Refused
from grooph_core.source.json_reader import MAX_CHARS
from grooph_core.source.kinds import NEIGHBOUR_KINDS, NeighbourKind
from grooph_core.source.text import pointer_split

# As in grooph/face.py: what reading (and the names, which reading runs) needs is imported here, each
# other editor request's module when first asked, so that the command line does not pay for it.


class NeighbourFace(DocumentKind):
    """A neighbouring format: its `NeighbourKind` (file names, syntax, content keys, rules package) and
    the editor features every neighbour has."""

    nothing_to_rename = "There is no name at the cursor to rename."
    # The command line's commands that take a file of this kind; cli.md §0.4: only `validate` (and the
    # language server) handle the neighbouring formats.
    commands = frozenset({"validate"})
    # a repair writes the status a transition names but the document lacks ("Add status …", workflow.md §3)
    adds_missing_statuses = False
    # its fields are described by a JSON Schema (episodes.md), not by a pydantic model
    described_by_schema = False
    # a `stored_as` names one of kanban.db's nine statuses (workflow.md §3.2)
    names_kanban_statuses = False

    def __init__(self, name: str) -> None:
        self.format_kind: NeighbourKind = NEIGHBOUR_KINDS[name]
        self.name = name
        self.title = self.format_kind.title
        self.suffixes = self.format_kind.suffixes

    def read(self, text, *, name=None, tolerant=True, export=False, resolver=None, max_chars=None, previous=None):
        """`analysis.analyze_neighbour` (strict: the engine's report; tolerant: the editor's,
        reusing what `previous`, the analysis of an earlier version, holds of what the edit left alone)."""
        limit = MAX_CHARS if max_chars is None else max_chars
        if not isinstance(previous, NeighbourAnalysis):
            previous = None
        return analyze_neighbour(text, self.format_kind, tolerant=tolerant, max_chars=limit, previous=previous)

    @property
    def rules(self):
        """The rules package its `NeighbourKind` entry names (`analysis.rules_of`)."""
        return rules_of(self.format_kind)

    def key_hover(self, analysis, pointer: str) -> str | None:
        """What a key means: the model field's description, type and allowed words, and whether it may
        be null as the engine reads it (workflow.md §0 "null")."""
        from grooph_core.ide.grooph.hover import field_hover
        from grooph_core.model.compiled import root_type
        from grooph_core.rules.serde_shape import field_at, null_reading

        text = field_hover(analysis, pointer)
        f = field_at(root_type(analysis.kind), pointer) if text else None
        return text if f is None else text + "\n\n" + null_reading(f, analysis.neighbour.syntax == "yaml")

    def hover(self, analysis, offset):
        from grooph_core.ide.neighbours.hover import neighbour_hover_at

        return neighbour_hover_at(analysis, offset)

    def complete(self, analysis, offset):
        from grooph_core.ide.neighbours.completion import neighbour_complete_at

        return neighbour_complete_at(analysis, offset)

    def outline(self, analysis):
        from grooph_core.ide.neighbours.outline import neighbour_symbols

        return neighbour_symbols(analysis.value, analysis.kind)

    def definition(self, analysis, offset):
        return definition_at(analysis, offset)

    def references(self, analysis, offset, *, include_declaration=True):
        return references_at(analysis, offset, include_declaration=include_declaration)

    def prepare_rename(self, analysis, offset):
        return prepare_rename_at(analysis, offset)

    def rename(self, analysis, offset, new_name):
        return rename_at(analysis, offset, new_name)

    def quick_fixes(self, analysis, issues, *, export=False, stop=None):
        """`repairs.neighbour_fixes` (each checked by analysing the edited text), as quick fixes."""
        from grooph_core.ide.grooph.actions import QuickFix
        from grooph_core.ide.neighbours.repairs import neighbour_fixes

        return [QuickFix(f.title, "preferred" if f.preferred else "offered", f.edits, f.issue)
                for f in neighbour_fixes(analysis, issues)]

    def format(self, analysis):
        from grooph_core.ide.neighbours.format import neighbour_format_edits

        return neighbour_format_edits(analysis)

    def command_refusal(self, command, arg):
        if command in self.commands:
            return None
        kind = self.format_kind
        return (f"grooph: {arg} is {kind.title} ({', '.join('*' + s for s in kind.suffixes)}), a neighbouring "
                f"format; {command} works on grooph graphs and operation maps"
                f"{' (and board workflows)' if command == 'image' else ''} only, so nothing was done."
                f"{self.refusal_reason(command)} `grooph validate {arg}` checks it.")

    # ---- what the editor draws into the text (issue 31 items 3, 5, 6) ----------------------------------
    def document_links(self, analysis, path):
        from grooph_core.ide.neighbours import text_marks

        return text_marks.document_links(analysis, path)

    def refusal_reason(self, command: str) -> str:
        """What this kind adds to the command line's refusal of `command` (a sentence with its leading
        space), beyond "a neighbouring format"."""
        return ""

    def highlights(self, analysis, offset):
        """The names model's (`names.SITES`); not offered by a kind without names (episode records)."""
        from grooph_core.ide.neighbours import flow
        from grooph_core.ide.neighbours.names import SITES

        return flow.highlights_at(analysis, offset) if analysis.kind in SITES else None

    def selection_ranges(self, analysis, offsets):
        from grooph_core.ide.selection import selection_ranges

        return selection_ranges(analysis, offsets)


class NamedFace(NeighbourFace):
    """A neighbour with names (workflow.md §4, board.md §4: `names.SITES`): they are hinted and coloured."""

    def inlay_hints(self, analysis, start, end):
        from grooph_core.ide.neighbours import text_marks

        return text_marks.inlay_hints(analysis, start, end)

    def semantic_tokens(self, analysis, start=0, end=None):
        from grooph_core.ide.neighbours import text_marks

        return text_marks.semantic_tokens(analysis, start, end)


# Why a workflow is never formatted (issue 15 point 5), by the editor or by `grooph fmt`.
NOT_FORMATTED_BECAUSE = ("YAML has no canonical form here, and rewriting the file would move its comments, quoting "
                         "and layout, which are yours")
WORKFLOW_NOT_FORMATTED = f"Workflows are not formatted: {NOT_FORMATTED_BECAUSE}. Nothing was changed."


class WorkflowKind(FlowFace, NamedFace):
    flow_module = "grooph_core.ide.neighbours.flow"  # statuses linked by transitions (workflow.md §2)
    commands = frozenset({"validate", "image"})  # issue 15 point 6: a workflow has a picture
    adds_missing_statuses = True
    names_kanban_statuses = True

    def format(self, analysis):
        """Never (`NOT_FORMATTED_BECAUSE`)."""
        return Refused(WORKFLOW_NOT_FORMATTED, standing=True)

    def refusal_reason(self, command):
        return f" Workflows are not formatted: {NOT_FORMATTED_BECAUSE}." if command == "fmt" else ""

    def picture(self, analysis, *, view=None, theme="light"):
        from grooph_core.ide.grooph.actions import workflow_preview

        return workflow_preview(analysis, view, theme)

    def picture_target(self, analysis, mark, ident):
        from grooph_core.ide.neighbours import names

        return names.marked_definition(analysis, mark, ident)


WORKFLOW = made(WorkflowKind("workflow"))


class BoardKind(NamedFace):
    identified_by_slug = True  # board.md §2


BOARD = made(BoardKind("board"))


class EpisodesKind(NeighbourFace):
    described_by_schema = True

    def key_hover(self, analysis, pointer):
        """episodes.md §2: the schema's description of the key."""
        from grooph_core.model import episodes as episodes_model

        desc = episodes_model.description(pointer_split(pointer))
        return f"**{pointer_split(pointer)[-1]}** — {desc}" if desc else None


EPISODES = made(EpisodesKind("episodes"))
