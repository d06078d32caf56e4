"""Every editor feature of the core answers on any JSON value a half-typed document can hold (issue 9).

While a person types, an `id` can be an object, `lanes` a number, a session's `lane` a list. The
server asks the core for symbols, folds, hover, completion, definition, references, rename, format,
quick fixes, fix-all and the preview on every such version; none of them may raise (an exception is
an InternalError for the editor and a traceback in the log). Values are drawn by hypothesis in the
shape of a graph or a map (declared field names, wrong types anywhere), then written as JSON text and
analysed as the server analyses it.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grooph_core.ide.grooph import actions, completion, hover
from grooph_core.ide.grooph.analysis import analyze
from grooph_core.ide.grooph.formatting import format_edits
from grooph_core.ide.grooph.navigation import document_symbols, occurrences
from grooph_core.ide.grooph.refactor import definition_at, prepare_rename_at, references_at, rename_at

# Declared field names of both schemas (grooph_core/schema/*.json), so generated objects look like
# graph and map objects with wrong values in them.
FIELDS = ['acceptance', 'account', 'allow', 'answerKeyFrom', 'at', 'back', 'bar', 'brief', 'by', 'carrier',
          'check', 'count', 'coupled', 'custom', 'edges', 'evidence', 'from', 'graph', 'grooph', 'groophMap',
          'groups', 'handoffs', 'harness', 'id', 'inputs', 'inspects', 'irreversible', 'kind', 'lane', 'lanes',
          'layout', 'limit', 'loops', 'machine', 'measure', 'members', 'merges', 'mode', 'model', 'n', 'name',
          'nodes', 'notes', 'outcome', 'outputs', 'owns', 'params', 'patch', 'people', 'pin', 'policies', 'role',
          'run', 'scope', 'session', 'sessions', 'stop', 'stops', 'target', 'template', 'then', 'to', 'verdict',
          'version', 'when', 'with', 'x', 'y']
WORDS = ["w", "end", "e1", "agent", "stop", "check", "human-gate", "merge", "person", "builder", "critic",
         "laptop", "planner", "node:w", "loop:l", "graph", "session-message", "fail", "pass", "Bad Id", ""]

scalars = (st.none() | st.booleans() | st.integers(-3, 2**60) | st.floats(allow_nan=False, allow_infinity=False)
           | st.sampled_from(WORDS) | st.text(max_size=4))
values = st.recursive(
    scalars,
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=3), kids, max_size=4),
    max_leaves=12,
)
items = st.dictionaries(st.sampled_from(FIELDS), values, max_size=6) | values


def _document(kind: str):
    lists = ("nodes", "edges", "loops", "policies", "groups", "notes") if kind == "graph" else ("lanes", "people", "sessions", "handoffs")
    head = {"grooph": st.sampled_from([0, "0", None, 1])} if kind == "graph" else {"groophMap": st.sampled_from([0, False, 2])}
    head.update({"id": values, "name": values, "version": values})
    body = {k: st.lists(items, max_size=4) | values for k in lists}
    return st.fixed_dictionaries(head, optional={**body, "layout": values, "zz": values})


documents = st.sampled_from(["graph", "map"]).flatmap(lambda k: st.tuples(st.just(k), _document(k)))


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents, st.data())
def test_editor_features_never_raise_on_any_value(doc, data):
    kind, value = doc
    text = json.dumps(value, indent=data.draw(st.sampled_from([None, 2])), ensure_ascii=False)
    name = "doc.grooph.json" if kind == "graph" else "doc.grooph-map.json"
    analysis = analyze(text, name=name)
    document_symbols(analysis.value, analysis.kind)
    occurrences(analysis.value, analysis.kind)
    format_edits(analysis)
    for fix in actions.quick_fixes(analysis, list(analysis.issues)):
        assert fix.edits, fix.title  # an offered fix changes the text
    actions.fix_all(analysis)
    actions.operations_edits(analysis, [{"op": "addNode", "kind": "agent", "name": "N"}])
    for offset in data.draw(st.lists(st.integers(0, len(text)), min_size=1, max_size=6)):
        hover.hover_at(analysis, offset)
        completion.complete_at(analysis, offset)
        definition_at(analysis, offset)
        references_at(analysis, offset)
        prepare_rename_at(analysis, offset)
        rename_at(analysis, offset, data.draw(st.sampled_from(["renamed", "Bad Name", "w"])))


def test_map_outline_with_an_object_for_a_lane_id():
    """Found by the fuzzed session: a lane whose `id` was mid-edit an object broke the outline."""
    value = {"groophMap": 0, "id": "m", "name": "M", "version": 1,
             "lanes": [{"id": {"edges": 1}, "name": "Desk"}, {"id": "desk", "name": "Desk 2"}],
             "sessions": [{"id": "s", "lane": "desk"}, {"id": "t", "lane": ["desk"]}], "handoffs": []}
    [root] = document_symbols(value, "map")
    lanes = root.children[0]
    assert [c.name for c in lanes.children[1].children] == ["s"]  # the session sits under its lane
    assert any(c.name == "sessions (no lane)" for c in root.children)  # the list-valued lane: no lane
