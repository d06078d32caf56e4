"""The document models (graph.md §1, §6.2; map.md §2, §9) and the editor introspection API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grooph_core.model import field_info, object_shape
from grooph_core.model.compiled import ArrayType, ObjectType, RecordType, UnionType, root_type
from grooph_core.model.graph import Graph
from grooph_core.model.map import OperationMap
from grooph_core.schema.check import schema_issues
from tests.conftest import fixture_files

# graph.md §6.2 "Declared orders" and map.md §9 "Key order", copied from the spec tables.
GRAPH_ORDERS = {
    "": "grooph id name version goal target constraints adaptation lineage template description nodes edges loops policies groups notes layout",
    "target": "harness",
    "constraints": "budget time other",
    "lineage": "pattern from",
    "template": "kind title summary whenToUse notFor profile slots tags demo credits",
    "template.profile": "cost speed rigor",
    "template.slots[]": "key ask example",
    "template.credits[]": "name url note",
    "nodes[agent]": "id kind name description coupled by role model effort brief inputs outputs allow deny owns irreversible skills",
    "nodes[agent].model": "tier pin",
    "nodes[human-gate]": "id kind name description coupled prompt options",
    "nodes[check]": "id kind name description coupled check",
    "nodes[check].check": "kind run pass threshold",
    "nodes[merge]": "id kind name description coupled merges strategy",
    "nodes[stop]": "id kind name description coupled outcome",
    "edges[]": "id from to when isolation concurrency retry evidence approval label",
    "edges[].concurrency": "max",
    "edges[].retry": "max",
    "loops[]": "id name members back mode bar stops",
    "loops[].bar": "name inspects acceptance aspiration answerKeyFrom",
    "loops[].bar.inspects[]": "kind ref note",
    "loops[].stops[human]": "kind every then",
    "loops[].stops[budget]": "kind measure limit then",
    "loops[].stops[bar-passed]": "kind then",
    "loops[].stops[diminishing-returns]": "kind rounds metric threshold then",
    "loops[].stops[evidence-invalid]": "kind rounds then",
    "loops[].stops[max-iterations]": "kind n then",
    "policies[]": "id kind scope params",
    "groups[]": "id name members coupled description from with",
    "notes[]": "id run at started ended outcome verdict round stop evidence cost gaps proposal amendment text",
    "notes[].cost": "measure amount",
    "notes[].proposal": "summary patch",
    "notes[].amendment": "summary reason patch",
    "layout{}": "x y w h",
}
MAP_ORDERS = {
    "": "groophMap id name version asOf description lanes people sessions handoffs",
    "lanes[]": "id name machine place account description",
    "people[]": "id name role description",
    "sessions[]": "id name lane harness model role lifetime count graph repo description",
    "handoffs[]": "id from to carrier what label",
    "handoffs[].carrier[branch]": "kind repo ref",
    "handoffs[].carrier[pull-request]": "kind repo",
    "handoffs[].carrier[session-message]": "kind",
    "handoffs[].carrier[scheduled-message]": "kind schedule",
    "handoffs[].carrier[review-page]": "kind where",
    "handoffs[].carrier[person]": "kind who",
    "handoffs[].carrier[notification]": "kind where",
    "handoffs[].carrier[other]": "kind name",
}


def _find(kind: str, path: str) -> ObjectType:
    """Follow a path like `loops[].stops[budget]` or `layout{}` through the descriptors."""
    t = root_type(kind)
    for part in [p for p in path.split(".") if p]:
        record = part.endswith("{}")
        name, _, rest = part.removesuffix("{}").partition("[")
        t = t.by_name[name].type
        if record:
            assert isinstance(t, RecordType)
            t = t.value
        if rest:
            assert isinstance(t, ArrayType) or isinstance(t, UnionType)
            if isinstance(t, ArrayType):
                t = t.item
            if rest != "]":
                assert isinstance(t, UnionType)
                t = t.branches[rest[:-1]]
    assert isinstance(t, ObjectType), path
    return t


@pytest.mark.parametrize("kind,path,order", [("graph", p, o) for p, o in GRAPH_ORDERS.items()]
                         + [("map", p, o) for p, o in MAP_ORDERS.items()])
def test_declared_field_order_is_the_specs(kind, path, order):
    assert list(_find(kind, path).names) == order.split()


def test_every_field_has_a_one_line_description():
    seen = set()

    def walk(t):
        if id(t) in seen:
            return
        seen.add(id(t))
        if isinstance(t, ObjectType):
            for f in t.fields:
                assert f.description and "\n" not in f.description, f.name
                walk(f.type)
        elif isinstance(t, UnionType):
            for b in t.branches.values():
                walk(b)
        elif isinstance(t, ArrayType):
            walk(t.item)
        elif isinstance(t, RecordType):
            walk(t.value)

    walk(root_type("graph"))
    walk(root_type("map"))
    assert len(seen) > 40


def test_required_fields_and_defaults():
    edge = _find("graph", "edges[]")
    assert edge.required == ("id", "from", "to")
    assert edge.by_name["when"].default == "always" and edge.by_name["isolation"].default == "fresh"
    assert _find("graph", "nodes[agent]").by_name["by"].default == "agent"
    assert root_type("graph").by_name["adaptation"].default == "adaptive"
    assert root_type("map").required == ("groophMap", "id", "name", "version", "lanes", "sessions", "handoffs")
    assert _find("map", "handoffs[]").required == ("id", "from", "to")  # carrier optional on purpose (map.md §2.6)


@pytest.mark.parametrize("path", fixture_files("valid") + fixture_files("maps", "valid"), ids=lambda p: p.name)
def test_pydantic_models_accept_valid_fixtures(path: Path):
    """The models describe what the checker accepts: every valid fixture validates with pydantic too."""
    value = json.loads(path.read_text("utf-8"))
    kind = "map" if path.name.endswith(".grooph-map.json") else "graph"
    assert schema_issues(value, kind) == []
    (OperationMap if kind == "map" else Graph).model_validate(value)


DOC = {
    "grooph": 0, "id": "g", "name": "G", "version": 1,
    "nodes": [{"id": "w", "kind": "agent", "name": "W", "role": {"custom": "maker"}, "brief": "b", "outputs": ["o"]},
              {"id": "t", "kind": "check", "name": "T"}, {"name": "new"}],
    "edges": [{"id": "e1", "from": "w", "to": "t", "lable": 1}],
    "loops": [{"id": "l", "name": "L", "members": ["w", "t"], "back": ["e1"], "stops": [{"kind": "budget"}]}],
    "groups": [{"id": "gr", "name": "G", "members": ["w"], "with": {"k": "v"}}],
    "policies": [{"id": "p", "kind": "critic-isolation", "scope": "graph"}],
    "layout": {"w": {"x": 1, "y": 2}},
}


class TestObjectShape:
    def test_node_resolved_by_kind(self):
        s = object_shape("graph", DOC, "/nodes/0")
        assert s.title == "AgentNode" and s.branch == "agent"
        assert [f.name for f in s.fields][:7] == ["id", "kind", "name", "description", "coupled", "by", "role"]
        assert s.present == ("id", "kind", "name", "role", "brief", "outputs") and s.missing_required == ()
        assert s.field("kind").values == ("agent", "human-gate", "check", "merge", "stop")

    def test_missing_required_fields(self):
        s = object_shape("graph", DOC, "/nodes/1")
        assert s.branch == "check" and s.missing_required == ("check",)

    def test_union_member_without_a_kind_offers_the_shared_head(self):
        s = object_shape("graph", DOC, "/nodes/2")
        assert s.branch is None
        assert [f.name for f in s.fields] == ["id", "kind", "name", "description", "coupled"]
        assert s.missing_required == ("id", "kind")

    def test_object_that_does_not_exist_yet(self):
        s = object_shape("graph", DOC, "/nodes/9")
        assert s is not None and s.branch is None
        assert object_shape("graph", DOC, "/loops/0/bar").title == "Bar"
        assert object_shape("graph", DOC, "/target").field("harness").examples == ("claude-code", "codex")

    def test_unknown_keys_are_listed(self):
        assert object_shape("graph", DOC, "/edges/0").unknown == ("lable",)

    def test_alternative_object(self):
        s = object_shape("graph", DOC, "/nodes/0/role")
        assert [f.name for f in s.fields] == ["custom"]

    def test_not_declared_objects(self):
        assert object_shape("graph", DOC, "/layout") is None
        assert object_shape("graph", DOC, "/groups/0/with") is None
        assert object_shape("graph", DOC, "/nodes/0/brief") is None
        assert object_shape("graph", DOC, "/edges/0/lable") is None
        assert object_shape("graph", DOC, "/edges/0/lable/x") is None

    def test_layout_box_and_stop_and_root(self):
        assert object_shape("graph", DOC, "/layout/w").title == "LayoutBox"
        assert object_shape("graph", DOC, "/loops/0/stops/0").branch == "budget"
        assert object_shape("graph", DOC, "").title == "graph document"

    def test_map_carrier(self):
        m = {"groophMap": 0, "handoffs": [{"id": "h", "carrier": {"kind": "person"}}]}
        s = object_shape("map", m, "/handoffs/0/carrier")
        assert s.branch == "person" and [f.name for f in s.fields] == ["kind", "who"]
        assert len(s.field("kind").values) == 8


class TestFieldInfo:
    def test_references_name_the_kind_of_object(self):
        assert field_info("graph", DOC, "/edges/0/from").ref == "node"
        assert field_info("graph", DOC, "/loops/0/back").ref == "edge"
        assert field_info("graph", DOC, "/loops/0/back/0").item is True
        assert field_info("graph", DOC, "/loops/0/members/1").ref == "node"
        assert field_info("graph", DOC, "/groups/0/members/0").ref == "node-or-group"
        assert field_info("graph", DOC, "/loops/0/stops/0/then").ref == "node"
        assert field_info("graph", DOC, "/loops/0/bar/answerKeyFrom").ref == "node"
        assert field_info("graph", DOC, "/policies/0/scope").ref == "scope"
        assert field_info("graph", DOC, "/layout").key_ref == "node"
        m = {"groophMap": 0, "sessions": [{}], "handoffs": [{}]}
        assert field_info("map", m, "/sessions/0/lane").ref == "lane"
        assert field_info("map", m, "/handoffs/0/to").ref == "session-or-person"

    def test_ids_define_their_object(self):
        assert field_info("graph", DOC, "/nodes/0/id").defines == "node"
        assert field_info("graph", DOC, "/edges/0/id").defines == "edge"
        assert field_info("map", {"lanes": [{}]}, "/lanes/0/id").defines == "lane"

    def test_allowed_values_and_defaults(self):
        f = field_info("graph", DOC, "/edges/0/isolation")
        assert f.values == ("fresh", "shared") and f.default == "fresh" and not f.required
        assert field_info("graph", DOC, "/edges/0/when").values == ("always", "pass", "fail")
        assert field_info("graph", DOC, "/nodes/0/role").values[:2] == ("lead", "planner")
        assert field_info("graph", DOC, "/loops/0/stops/0/measure").values == (
            "dispatches", "minutes", "usd", "turns", "tokens")
        assert field_info("graph", DOC, "/loops/0/stops/0/kind").values[0] == "human"
        assert field_info("graph", DOC, "/grooph").values == (0,)
        assert "read-files" in field_info("graph", DOC, "/nodes/0/allow").examples

    def test_descriptions_for_hover(self):
        f = field_info("graph", DOC, "/nodes/0/brief")
        assert f.required and f.description == "The agent's instructions."
        f = field_info("map", {"sessions": [{}]}, "/sessions/0/count")
        assert f.expected == "integer" and "family" in f.description

    def test_record_entries_and_unknown_places(self):
        f = field_info("graph", DOC, "/layout/w")
        assert f.key_ref == "node" and f.expected == "LayoutBox"
        assert field_info("graph", DOC, "/groups/0/with/k").expected == "string"
        assert field_info("graph", DOC, "") is None
        assert field_info("graph", DOC, "/edges/0/lable") is None
        assert field_info("graph", DOC, "/nodes/0/nothing/deeper") is None
