"""The face the neighbouring kinds share (workflow.md §0): one pipeline (`neighbour_analysis`), the
neighbour modules of `ide` for hover, completion, outline, names, fixes and the written form. Each kind
(`workflow.py`, `board.py`, `episodes.py`) is one of these with its `source.kinds.NeighbourKind` entry and
what it has of its own."""

from __future__ import annotations

from grooph_core.ide.kinds.face import DocumentKind
from grooph_core.source.kinds import NEIGHBOUR_KINDS, NeighbourKind

# As in grooph.py, each method imports what it delegates to when first asked.


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
        """`neighbour_analysis.analyze_neighbour` (strict: the engine's report; tolerant: the editor's,
        reusing what `previous`, the analysis of an earlier version, holds of what the edit left alone)."""
        from grooph_core.ide.neighbour_analysis import NeighbourAnalysis, analyze_neighbour
        from grooph_core.source.json_reader import MAX_CHARS

        limit = MAX_CHARS if max_chars is None else max_chars
        if not isinstance(previous, NeighbourAnalysis):
            previous = None
        return analyze_neighbour(text, self.format_kind, tolerant=tolerant, max_chars=limit, previous=previous)

    @property
    def rules(self):
        """The rules package its `NeighbourKind` entry names (`neighbour_analysis.rules_of`)."""
        from grooph_core.ide.neighbour_analysis import rules_of

        return rules_of(self.format_kind)

    def key_hover(self, analysis, pointer: str) -> str | None:
        """What a key means: the model field's description, type and allowed words, and whether it may
        be null as the engine reads it (workflow.md §0 "null")."""
        from grooph_core.ide.hover import field_hover
        from grooph_core.model.compiled import root_type
        from grooph_core.rules.serde_shape import field_at, null_reading

        text = field_hover(analysis, pointer)
        f = field_at(root_type(analysis.kind), pointer) if text else None
        return text if f is None else text + "\n\n" + null_reading(f, analysis.neighbour.syntax == "yaml")

    def hover(self, analysis, offset):
        from grooph_core.ide.neighbour_hover import neighbour_hover_at

        return neighbour_hover_at(analysis, offset)

    def complete(self, analysis, offset):
        from grooph_core.ide.neighbour_completion import neighbour_complete_at

        return neighbour_complete_at(analysis, offset)

    def outline(self, analysis):
        from grooph_core.ide.neighbour_outline import neighbour_symbols

        return neighbour_symbols(analysis.value, analysis.kind)

    def definition(self, analysis, offset):
        from grooph_core.ide import neighbour_names

        return neighbour_names.definition_at(analysis, offset)

    def references(self, analysis, offset, *, include_declaration=True):
        from grooph_core.ide import neighbour_names

        return neighbour_names.references_at(analysis, offset, include_declaration=include_declaration)

    def prepare_rename(self, analysis, offset):
        from grooph_core.ide import neighbour_names

        return neighbour_names.prepare_rename_at(analysis, offset)

    def rename(self, analysis, offset, new_name):
        from grooph_core.ide import neighbour_names

        return neighbour_names.rename_at(analysis, offset, new_name)

    def quick_fixes(self, analysis, issues, *, export=False, stop=None):
        """`neighbour_repairs.neighbour_fixes` (each checked by analysing the edited text), as quick fixes."""
        from grooph_core.ide.actions import QuickFix
        from grooph_core.ide.neighbour_repairs import neighbour_fixes

        return [QuickFix(f.title, "preferred" if f.preferred else "offered", f.edits, f.issue)
                for f in neighbour_fixes(analysis, issues)]

    def format(self, analysis):
        from grooph_core.ide.neighbour_format import neighbour_format_edits

        return neighbour_format_edits(analysis)

    def command_refusal(self, command, arg):
        if command in self.commands:
            return None
        kind = self.format_kind
        return (f"grooph: {arg} is {kind.title} ({', '.join('*' + s for s in kind.suffixes)}), a neighbouring "
                f"format; {command} works on grooph graphs and operation maps"
                f"{' (and board workflows)' if command == 'image' else ''} only, so nothing was done."
                f"{self.refusal_reason(command)} `grooph validate {arg}` checks it.")

    def refusal_reason(self, command: str) -> str:
        """What this kind adds to the command line's refusal of `command` (a sentence with its leading
        space), beyond "a neighbouring format"."""
        return ""
