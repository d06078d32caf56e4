"""Property tests (issue 15 "Done when"): validating a workflow, a board or an episode record never raises,
whatever the value or the bytes, in strict and tolerant mode, and every issue has a span inside the text."""

from __future__ import annotations

import io
import json

from hypothesis import HealthCheck, given, settings, strategies as st
from ruamel.yaml import YAML

from grooph_core.ide.neighbours.analysis import analyze_neighbour, check_file, read_text
from grooph_core.source.kinds import NEIGHBOURS
from tests.conftest import FIXTURES

KEYS = st.sampled_from([
    "initial", "statuses", "dispatch", "on", "run", "target", "from", "by", "guard", "after", "always", "role",
    "session", "run_role", "resume_as", "stored_as", "states", "roles", "params", "capacity", "scope", "counts",
    "where", "for", "reserve", "tasks", "id", "lane", "workspace", "kind", "attempts", "dependencies", "parent",
    "child", "subtask_of", "present", "store", "worktree", "current", "episodes", "standing", "note", "events",
    "session_id", "started_at", "<<", "x",
]) | st.text(max_size=6)
SCALARS = (st.none() | st.booleans() | st.integers(min_value=-(2 ** 70), max_value=2 ** 70)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
           | st.sampled_from(["{{card.x}}", "params.limit", "ready", "done", "2025-01-01T00:00:00Z", ""]))
VALUES = st.recursive(SCALARS, lambda kids: st.lists(kids, max_size=4) | st.dictionaries(KEYS, kids, max_size=5),
                      max_leaves=25)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _yaml_text(value) -> str:
    out = io.StringIO()
    YAML(typ="safe", pure=True).dump(value, out)
    return out.getvalue()


def _check(kind, text: str) -> None:
    for tolerant in (False, True):
        a = analyze_neighbour(text, kind, tolerant=tolerant)
        for issue in a.issues:
            s, e = a.span(issue)
            assert 0 <= s <= e <= len(text), issue.line()
            assert issue.code and issue.message


@SETTINGS
@given(value=VALUES)
def test_any_value_as_each_kind(value):
    for kind in NEIGHBOURS:
        text = _yaml_text(value) if kind.syntax == "yaml" else json.dumps(value)
        _check(kind, text)


def _fixture_values():
    out = []
    for kind in NEIGHBOURS:
        for path in sorted((FIXTURES / kind.name / "valid").iterdir()):
            out.append((kind, read_text(path.read_text("utf-8"), kind).value))
    return out


FIXTURE_VALUES = _fixture_values()


def _pointers(v, base=()):
    yield base
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _pointers(x, base + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _pointers(x, base + (i,))


def _replace(v, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(v, dict):
        return {k: (_replace(x, rest, new) if k == head else x) for k, x in v.items()}
    return [(_replace(x, rest, new) if i == head else x) for i, x in enumerate(v)]


@SETTINGS
@given(data=st.data())
def test_valid_documents_with_any_part_replaced(data):
    """The rules meet odd types deep inside documents that are otherwise right (tolerant mode runs them)."""
    kind, value = data.draw(st.sampled_from(FIXTURE_VALUES))
    path = data.draw(st.sampled_from(list(_pointers(value))))
    mutated = _replace(value, path, data.draw(VALUES))
    text = _yaml_text(mutated) if kind.syntax == "yaml" else json.dumps(mutated)
    _check(kind, text)


@SETTINGS
@given(text=st.text(max_size=300) | st.sampled_from(["", "{", "[", "a: &a [*a]", "? [a]\n: b", "---\n---\n",
                                                     "a: !!binary x", "\ufeff{}", "{\"a\":1,\"a\":2}", "%YAML 1.1\n"]))
def test_any_text_as_each_kind(text):
    for kind in NEIGHBOURS:
        _check(kind, text)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=200))
def test_any_bytes_through_the_command_line_reader(data, tmp_path):
    for kind in NEIGHBOURS:
        path = tmp_path / f"x{kind.suffixes[0]}"
        path.write_bytes(data)
        doc, issues = check_file(str(path), kind)
        assert doc.kind == kind.name
        assert all(i.code for i in issues)
