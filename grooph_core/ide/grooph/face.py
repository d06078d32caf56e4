"""The grooph kinds' faces (graph.md, map.md): `GroophKind`, what the two share (one JSON reader, the
model's hover and completion, ids and their references, the repairs of operations.md §8, the canonical
form, the picture), and `GRAPH`, `MAP`, what differs."""

from __future__ import annotations

from grooph_core.ide.face import DocumentKind, made
from grooph_core.ide.flow import FlowFace
from grooph_core.ide.grooph.analysis import analyze
from grooph_core.source.json_reader import MAX_CHARS
from grooph_core.source.kinds import GRAPH_SUFFIX, MAP_SUFFIX

# What reading needs is imported here; each editor request imports its module when first asked: the
# command line reads files and asks a kind which commands take it, and should not pay for the editor's
# modules (the picture, the repairs, completion) to do that. No import here is needed to break a cycle
# (tests/structure/test_import_cycles.py counts these too).


class GroophKind(FlowFace, DocumentKind):
    """A graph or an operation map: read by `analysis.analyze`, served by the graph/map modules of `ide`
    (the flow: `flow.py`)."""

    flow_module = "grooph_core.ide.grooph.flow"
    answers_on_loop = True
    resolves_fixes_later = True
    ranges_follow_json_edits = True
    nothing_to_rename = "There is no id at the cursor to rename."

    def read(self, text, *, name=None, tolerant=True, export=False, resolver=None, max_chars=None, previous=None):
        """`analysis.analyze`: the file name, else the content, says graph or map (map.md §1)."""
        return analyze(text, name=name, export=export, resolver=resolver, tolerant=tolerant,
                       max_chars=MAX_CHARS if max_chars is None else max_chars, previous=previous)

    def hover(self, analysis, offset):
        from grooph_core.ide.grooph import hover

        return hover.hover_at(analysis, offset)

    def complete(self, analysis, offset):
        from grooph_core.ide.grooph import completion

        return completion.complete_at(analysis, offset)

    def outline(self, analysis):
        from grooph_core.ide.grooph import navigation

        return navigation.document_symbols(analysis.value, analysis.kind)

    def folds(self, analysis):
        from grooph_core.ide.grooph import navigation

        return navigation.folding_lines(analysis)

    def definition(self, analysis, offset):
        from grooph_core.ide.grooph import refactor

        return refactor.definition_at(analysis, offset)

    def references(self, analysis, offset, *, include_declaration=True):
        from grooph_core.ide.grooph import refactor

        return refactor.references_at(analysis, offset, include_declaration=include_declaration)

    def prepare_rename(self, analysis, offset):
        from grooph_core.ide.grooph import refactor

        return refactor.prepare_rename_at(analysis, offset)

    def rename(self, analysis, offset, new_name):
        from grooph_core.ide.grooph import refactor

        return refactor.rename_at(analysis, offset, new_name)

    def quick_fixes(self, analysis, issues, *, export=False, stop=None):
        from grooph_core.ide.grooph import actions

        return actions.quick_fixes(analysis, issues, export=export, stop=stop)

    def fix_offers(self, analysis, issues, *, export=False):
        from grooph_core.ide.grooph import actions

        return actions.checked_offers(analysis, issues, export=export)

    def unchecked_fixes(self, analysis, issues, *, export=False):
        from grooph_core.ide.grooph import actions

        return actions.unchecked(analysis, issues, export=export)

    def resolve_offer(self, analysis, issue, title, *, export=False):
        from grooph_core.ide.grooph import actions

        return actions.resolve_offer(analysis, issue, title, export=export)

    def fix_all(self, analysis, *, export=False):
        from grooph_core.ide.grooph import actions

        return actions.fix_all(analysis, export=export)

    def operations(self, analysis, ops):
        from grooph_core.ide.grooph import actions

        return actions.operations_edits(analysis, ops)

    def format(self, analysis):
        from grooph_core.ide.grooph.formatting import canonical_format_edits

        return canonical_format_edits(analysis)

    def picture(self, analysis, *, view=None, theme="light"):
        from grooph_core.ide.grooph import actions

        return actions.grooph_preview(analysis, view=view, theme=theme)

    def selection_ranges(self, analysis, offsets):
        from grooph_core.ide.selection import selection_ranges

        return selection_ranges(analysis, offsets)

    def picture_target(self, analysis, mark, ident):
        from grooph_core.ide.grooph import refactor

        return refactor.marked_definition(analysis, mark, ident)

    # ---- what the editor draws into the text (issue 31 items 3, 5, 6) ----------------------------------
    def inlay_hints(self, analysis, start, end):
        from grooph_core.ide.grooph import text_marks

        return text_marks.inlay_hints(analysis, start, end)

    def document_links(self, analysis, path):
        from grooph_core.ide.grooph import text_marks

        return text_marks.document_links(analysis, path)

    def semantic_tokens(self, analysis, start=0, end=None):
        from grooph_core.ide.grooph import text_marks

        return text_marks.semantic_tokens(analysis, start, end)


class GraphKind(GroophKind):
    name = "graph"
    title = "a graph document"
    suffixes = (GRAPH_SUFFIX,)
    layout_keys_are_ids = True  # graph.md §1.12
    named_by_maps = True  # map.md §4.2: a session's `graph` pointer


GRAPH = made(GraphKind())


class MapKind(GroophKind):
    name = "map"
    title = "an operation map"
    suffixes = (MAP_SUFFIX,)
    names_graphs = True  # map.md §4.2: a session's `graph` pointer


MAP = made(MapKind())
