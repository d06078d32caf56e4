"""The published JSON Schemas (map.md §2.9): committed files equal a fresh generation, are valid Draft
2020-12 schemas, and accept exactly what the structural check accepts on every fixture."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from grooph_core.schema import FILES, load_schema
from grooph_core.schema.check import schema_issues
from grooph_core.schema.generate import schema_text
from tests.conftest import fixture_files


@pytest.mark.parametrize("kind", list(FILES))
def test_committed_schema_matches_the_models(kind):
    committed = FILES[kind].read_text("utf-8")
    assert committed == schema_text(kind), (
        f"{FILES[kind].name} drifted from the models: run `python -m grooph_core.schema.generate` and commit it")


@pytest.mark.parametrize("kind", list(FILES))
def test_schema_is_a_valid_draft_2020_12_schema(kind):
    schema = load_schema(kind)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


def test_map_schema_has_the_published_shape():
    """map.md §2.9, point by point."""
    s = load_schema("map")
    assert s["$id"] == "https://grooph.dev/schema/grooph-map-0.schema.json"
    assert s["title"] == "grooph operation map v0" and s["description"]
    assert s["type"] == "object" and "additionalProperties" not in s
    assert list(s["properties"]) == ["groophMap", "id", "name", "version", "asOf", "description", "lanes", "people",
                                     "sessions", "handoffs"]
    assert s["required"] == ["groophMap", "id", "name", "version", "lanes", "sessions", "handoffs"]
    assert s["properties"]["groophMap"] == {"const": 0}
    assert s["properties"]["id"] == {"type": "string", "pattern": "^[a-z][a-z0-9-]*$"}
    assert s["properties"]["version"] == {"type": "integer", "minimum": 0}
    assert s["properties"]["asOf"] == {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"}
    assert s["properties"]["lanes"] == {"type": "array", "items": {"$ref": "#/$defs/Lane"}}
    assert list(s["$defs"]) == ["Carrier", "Handoff", "Lane", "Person", "Session"]
    carriers = s["$defs"]["Carrier"]["oneOf"]
    assert [c["properties"]["kind"] for c in carriers] == [{"const": k} for k in (
        "branch", "pull-request", "session-message", "scheduled-message", "review-page", "person", "notification",
        "other")]
    assert all(c["type"] == "object" and c["required"] == ["kind"] for c in carriers)
    session = s["$defs"]["Session"]
    assert session["properties"]["harness"] == {"type": "string", "minLength": 1, "examples": ["claude-code", "codex"]}
    assert session["properties"]["count"] == {"type": "integer", "minimum": 1}
    assert session["properties"]["lifetime"] == {"enum": ["long-lived", "per-task", "scheduled"]}
    assert session["properties"]["role"] == {"type": "string", "minLength": 1}
    assert session["required"] == ["id", "name", "lane", "harness", "role"]
    assert s["$defs"]["Handoff"]["properties"]["carrier"] == {"$ref": "#/$defs/Carrier"}
    assert not any("additionalProperties" in d for d in s["$defs"].values())


def test_graph_schema_follows_the_same_conventions():
    s = load_schema("graph")
    assert s["$id"] == "https://grooph.dev/schema/grooph-0.schema.json"
    assert list(s["properties"])[:4] == ["grooph", "id", "name", "version"] and list(s["properties"])[-1] == "layout"
    assert s["properties"]["grooph"] == {"const": 0}
    assert s["properties"]["layout"]["propertyNames"] == {"pattern": "^[a-z][a-z0-9-]*$"}
    assert list(s["$defs"]) == sorted(s["$defs"])
    agent = s["$defs"]["Node"]["oneOf"][0]
    assert agent["properties"]["kind"] == {"const": "agent"}
    assert agent["properties"]["outputs"] == {"type": "array", "items": {"type": "string"}, "minItems": 1}
    assert "anyOf" in agent["properties"]["role"]


def _documents():
    for path in fixture_files("valid") + fixture_files("invalid") + fixture_files("maps", "valid") + fixture_files(
            "maps", "invalid"):
        try:
            value = json.loads(path.read_text("utf-8"))
        except ValueError:
            continue  # not JSON: nothing for a JSON Schema to say
        yield path, value


@pytest.mark.parametrize("path,value", list(_documents()), ids=lambda x: x.name if isinstance(x, Path) else "")
def test_schema_accepts_exactly_what_the_checker_accepts(path, value):
    """map.md §2.9: on every fixture, "the JSON Schema accepts it" equals "no E_SCHEMA"."""
    kind = "map" if path.name.endswith(".grooph-map.json") else "graph"
    accepted = not list(Draft202012Validator(load_schema(kind)).iter_errors(value))
    assert accepted == (schema_issues(value, kind) == [])
    if "/valid/" in path.as_posix():
        assert accepted
    if path.parent.name == "E_SCHEMA":
        assert not accepted


def test_spec_e_schema_examples_fail_the_schema():
    graph_example = json.loads('{"grooph":0,"id":"Bad Id","name":"X","version":1.5,"edges":[],"loops":[],"nodes":'
                               '[{"id":"a","kind":"agent","name":"A","role":"builder","brief":"b","outputs":[],'
                               '"skills":["two words"]}]}')
    errors = list(Draft202012Validator(load_schema("graph")).iter_errors(graph_example))
    assert errors
    map_example = {"groophMap": 0, "id": "tiny-shop", "name": "Tiny shop", "version": 1,
                   "lanes": [{"id": "desk", "name": "Desk", "machine": "a desktop", "account": "team account"}],
                   "sessions": [{"id": "coder", "name": "Coder", "lane": "desk", "harness": "claude-code"}],
                   "handoffs": []}
    (error,) = Draft202012Validator(load_schema("map")).iter_errors(map_example)
    assert "'role' is a required property" in error.message


@pytest.mark.parametrize("value,ok", [
    ({"grooph": False}, False), ({"grooph": 0.0}, True), ({"version": True}, False), ({"version": 3.0}, True),
    ({"role": {"custom": 5}}, False), ({"role": {"custom": "x", "y": 1}}, True), ({"extra": [1]}, True),
    ({"goal": None}, False),
])
def test_schema_and_checker_agree_on_edge_cases(value, ok):
    doc = {"grooph": 0, "id": "g", "name": "G", "version": 1, "edges": [], "loops": [],
           "nodes": [{"id": "a", "kind": "agent", "name": "A", "role": "builder", "brief": "b", "outputs": ["o"]}]}
    if "role" in value:
        doc["nodes"][0]["role"] = value["role"]
    else:
        doc.update(value)
    accepted = not list(Draft202012Validator(load_schema("graph")).iter_errors(doc))
    assert accepted is ok
    assert (schema_issues(doc, "graph") == []) is ok
