"""The canonical form (graph.md §6, §0.4, §9; map.md §9): worked examples byte for byte, key order,
numbers, escapes, free JSON, idempotence and "nothing is lost"."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grooph_core.schema.canonical import canonical_text, is_canonical

SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec"

GRAPH_6_3_INPUT = """{"version":1,"name":"G","id":"g","grooph":0,"loops":[],"edges":[],
 "nodes":[{"name":"End","kind":"stop","id":"end","zeta":1,"alpha":{"b":1,"a":[2,1]}}],
 "extra":true,"layout":{"end":{"y":2,"x":1.0}}}"""

GRAPH_6_3_OUTPUT = """{
  "grooph": 0,
  "id": "g",
  "name": "G",
  "version": 1,
  "nodes": [
    {
      "id": "end",
      "kind": "stop",
      "name": "End",
      "alpha": {
        "a": [
          2,
          1
        ],
        "b": 1
      },
      "zeta": 1
    }
  ],
  "edges": [],
  "loops": [],
  "layout": {
    "end": {
      "x": 1,
      "y": 2
    }
  },
  "extra": true
}
"""

MAP_9_INPUT = (
    '{"version":1,"groophMap":0,"name":"Pair","id":"pair","handoffs":[{"to":"b","carrier":{"kind":"branch",'
    '"ref":"main","repo":"x/y"},"from":"a","id":"h1"},{"id":"h2","from":"b","to":"a","carrier":{"kind":'
    '"session-message"}}],"sessions":[{"role":"A","harness":"codex","lane":"l","name":"A","id":"a"},{"id":"b",'
    '"name":"B","lane":"l","harness":"codex","role":"B","count":2.0}],"lanes":[{"zone":{"b":1,"a":2},'
    '"account":"me","machine":"pc","name":"L","id":"l"}]}'
)

MAP_9_OUTPUT = """{
  "groophMap": 0,
  "id": "pair",
  "name": "Pair",
  "version": 1,
  "lanes": [
    {
      "id": "l",
      "name": "L",
      "machine": "pc",
      "account": "me",
      "zone": {
        "a": 2,
        "b": 1
      }
    }
  ],
  "sessions": [
    {
      "id": "a",
      "name": "A",
      "lane": "l",
      "harness": "codex",
      "role": "A"
    },
    {
      "id": "b",
      "name": "B",
      "lane": "l",
      "harness": "codex",
      "role": "B",
      "count": 2
    }
  ],
  "handoffs": [
    {
      "id": "h1",
      "from": "a",
      "to": "b",
      "carrier": {
        "kind": "branch",
        "repo": "x/y",
        "ref": "main"
      }
    },
    {
      "id": "h2",
      "from": "b",
      "to": "a",
      "carrier": {
        "kind": "session-message"
      }
    }
  ]
}
"""

HEAD = {"grooph": 0, "id": "g", "name": "G", "version": 1}


def canon(value, kind="graph"):
    return canonical_text(value, kind)


def shuffled(value, rnd: random.Random):
    """The same JSON value with every object's keys in a random order."""
    if isinstance(value, dict):
        items = list(value.items())
        rnd.shuffle(items)
        return {k: shuffled(v, rnd) for k, v in items}
    if isinstance(value, list):
        return [shuffled(v, rnd) for v in value]
    return value


class TestWorkedExamples:
    def test_graph_md_6_3(self):
        assert canon(json.loads(GRAPH_6_3_INPUT)) == GRAPH_6_3_OUTPUT

    def test_map_md_9(self):
        assert canon(json.loads(MAP_9_INPUT), "map") == MAP_9_OUTPUT

    def test_operations_md_7_4_resulting_document(self):
        """The canonical document of operations.md §7.4, byte for byte, from any key order."""
        spec = SPEC / "operations.md"
        if not spec.exists():
            pytest.skip("spec not beside the repository")
        section = spec.read_text("utf-8").split("### 7.4", 1)[1]
        expected = re.search(r"```json\n(.*?)\n```", section, re.S).group(1) + "\n"
        value = json.loads(expected)
        assert canon(value) == expected
        for seed in range(5):
            assert canon(shuffled(value, random.Random(seed))) == expected

    def test_map_md_10_tiny_shop_is_859_characters(self):
        tiny = {"handoffs": [{"carrier": {"kind": "session-message"}, "to": "coder", "from": "planner", "id": "h-task"},
                             {"id": "h-result", "from": "coder", "to": "planner",
                              "carrier": {"repo": "acme/shop", "kind": "pull-request"}}],
                "groophMap": 0, "id": "tiny-shop", "name": "Tiny shop", "version": 1,
                "lanes": [{"id": "desk", "name": "Desk", "machine": "a desktop", "account": "team account"}],
                "sessions": [{"id": "planner", "name": "Planner", "lane": "desk", "harness": "claude-code",
                              "role": "Splits the work"},
                             {"id": "coder", "name": "Coder", "lane": "desk", "harness": "claude-code",
                              "role": "Writes the change"}]}
        assert len(canon(tiny, "map")) == 859


class TestKeyOrder:
    def test_agent_fields_in_declared_order_skills_last(self):
        node = {"skills": ["s"], "irreversible": ["publish"], "owns": ["o"], "deny": ["web"], "allow": ["edit-files"],
                "outputs": ["o"], "inputs": ["i"], "brief": "b", "effort": "high", "model": {"pin": {"b": "x", "a": "y"},
                                                                                      "tier": "fast"},
                "role": "builder", "by": "agent", "coupled": True, "description": "d", "name": "N", "kind": "agent",
                "id": "n"}
        doc = dict(HEAD, nodes=[node], edges=[], loops=[])
        keys = list(json.loads(canon(doc))["nodes"][0])
        assert keys == ["id", "kind", "name", "description", "coupled", "by", "role", "model", "effort", "brief",
                        "inputs", "outputs", "allow", "deny", "owns", "irreversible", "skills"]
        assert '"model": {\n        "tier": "fast",\n        "pin": {\n          "a": "y",\n          "b": "x"\n        }' in canon(doc)

    def test_unknown_top_level_keys_come_after_layout(self):
        doc = {"zz": 1, "layout": {}, "aa": 2, **HEAD, "nodes": [], "edges": [], "loops": []}
        assert list(json.loads(canon(doc))) == ["grooph", "id", "name", "version", "nodes", "edges", "loops", "layout",
                                                "aa", "zz"]

    def test_integer_like_keys_first_ascending_everywhere(self):
        """graph.md §0.4: "0", "9", "10" first (numerically); "007", "-1", "1.0", "1\\n" are ordinary keys."""
        doc = {**HEAD, "nodes": [], "edges": [], "loops": [], "10": 1, "9": 2, "007": 3, "-1": 4, "1.0": 5,
               "1\n": 6, "4294967295": 7, "4294967294": 8,
               "layout": {"b": {"x": 0, "y": 0}, "3": {"x": 0, "y": 0}},
               "extra": {"b": 1, "2": 2, "a": {"11": 0, "x": 1, "0": 2}}}
        text = canon(doc)
        top = re.findall(r'^  "([^"\\]*(?:\\.[^"\\]*)*)":', text, re.M)
        assert top == ["9", "10", "4294967294", "grooph", "id", "name", "version", "nodes", "edges", "loops",
                       "layout", "-1", "007", "1\\n", "1.0", "4294967295", "extra"]
        assert list(json.loads(text)["layout"]) == ["3", "b"]
        assert list(json.loads(text)["extra"]) == ["2", "a", "b"]
        assert list(json.loads(text)["extra"]["a"]) == ["0", "11", "x"]

    def test_unknown_keys_sorted_by_utf16_code_units(self):
        """graph.md §0.3: U+1F600 (D83D DE00) sorts before U+E000 in UTF-16, after it by code point."""
        doc = {**HEAD, "nodes": [], "edges": [], "loops": [], "\ue000": 1, "\U0001f600": 2, "b": 3, "B": 4}
        keys = list(json.loads(canon(doc)))[7:]
        assert keys == ["B", "b", "\U0001f600", "\ue000"]

    def test_unknown_values_are_free_json_sorted_recursively(self):
        node = {"id": "end", "kind": "stop", "name": "End", "x": [{"b": 1, "a": {"d": 1, "c": 2}}]}
        text = canon(dict(HEAD, nodes=[node], edges=[], loops=[]))
        assert json.dumps(json.loads(text)["nodes"][0]["x"]) == '[{"a": {"c": 2, "d": 1}, "b": 1}]'

    def test_proto_is_kept_and_sorted(self):
        doc = json.loads('{"grooph":0,"id":"g","name":"G","version":1,"nodes":[],"edges":[],"loops":[],'
                         '"__proto__":{"b":1,"a":2},"_":1}')
        text = canon(doc)
        assert '"_": 1,\n  "__proto__": {\n    "a": 2,\n    "b": 1\n  }' in text


class TestFreeJsonFallbacks:
    """graph.md §6.2 unions and §9: wrong types and unknown branches are written as free JSON."""

    def test_unknown_node_kind_is_free_json(self):
        node = {"name": "X", "kind": "worker", "id": "x", "brief": "b"}
        text = canon(dict(HEAD, nodes=[node], edges=[], loops=[]))
        assert list(json.loads(text)["nodes"][0]) == ["brief", "id", "kind", "name"]

    def test_declared_object_with_missing_and_ill_typed_fields_keeps_declared_order(self):
        edge = {"when": 5, "to": ["x"], "id": "e", "zz": 1}
        assert list(json.loads(canon(dict(HEAD, nodes=[], edges=[edge], loops=[])))["edges"][0]) == [
            "id", "to", "when", "zz"]

    def test_wrong_json_type_in_a_declared_place(self):
        doc = dict(HEAD, nodes=[], edges=[], loops=[], target=[{"z": 1, "harness": "codex"}], constraints="x")
        assert '"target": [\n    {\n      "harness": "codex",\n      "z": 1\n    }\n  ]' in canon(doc)

    def test_role_alternatives(self):
        def keys(role):
            node = {"id": "a", "kind": "agent", "name": "A", "role": role, "brief": "b", "outputs": ["o"]}
            return list(json.loads(canon(dict(HEAD, nodes=[node], edges=[], loops=[])))["nodes"][0]["role"])

        assert keys({"z": 1, "custom": "publisher"}) == ["custom", "z"]
        assert keys({"z": 1, "custom": 5}) == ["custom", "z"]  # rejected: free JSON, sorted anyway
        assert keys({"custom": 5, "a": 1}) == ["a", "custom"]

    def test_when_verdict_and_policy_kind(self):
        doc = dict(HEAD, nodes=[], loops=[], edges=[{"id": "e", "from": "a", "to": "b",
                                                      "when": {"why": 1, "verdict": "ok"}}],
                   policies=[{"scope": "graph", "kind": {"b": 1, "custom": "c"}, "id": "p",
                              "params": {"z": True, "a": 1.5}}])
        out = json.loads(canon(doc))
        assert list(out["edges"][0]["when"]) == ["verdict", "why"]
        assert list(out["policies"][0]) == ["id", "kind", "scope", "params"]
        assert list(out["policies"][0]["kind"]) == ["custom", "b"]
        assert list(out["policies"][0]["params"]) == ["a", "z"]

    def test_stops_by_kind_and_patch_is_free(self):
        loop = {"stops": [{"then": "x", "limit": 3, "measure": "usd", "kind": "budget"}, {"n": 2, "zz": 0}],
                "id": "l", "name": "L", "back": [], "members": []}
        note = {"id": "n", "run": "r", "at": "graph",
                "amendment": {"patch": {"b": {"d": 1, "c": 2}, "a": 1}, "reason": "r", "summary": "s"}}
        out = json.loads(canon(dict(HEAD, nodes=[], edges=[], loops=[loop], notes=[note])))
        assert list(out["loops"][0]) == ["id", "name", "members", "back", "stops"]
        assert list(out["loops"][0]["stops"][0]) == ["kind", "measure", "limit", "then"]
        assert list(out["loops"][0]["stops"][1]) == ["n", "zz"]
        assert list(out["notes"][0]["amendment"]) == ["summary", "reason", "patch"]
        assert list(out["notes"][0]["amendment"]["patch"]) == ["a", "b"]
        assert list(out["notes"][0]["amendment"]["patch"]["b"]) == ["c", "d"]

    def test_carrier_fields_of_other_kinds_go_after_kind_sorted(self):
        doc = {"groophMap": 0, "id": "m", "name": "M", "version": 1, "lanes": [], "sessions": [],
               "handoffs": [{"id": "h", "from": "a", "to": "b", "carrier": {"where": 1, "repo": "r", "kind": "session-message"}},
                            {"id": "i", "from": "a", "to": "b", "carrier": {"zone": 1, "kind": "teleport", "a": 2}}]}
        out = json.loads(canon(doc, "map"))
        assert list(out["handoffs"][0]["carrier"]) == ["kind", "repo", "where"]
        assert list(out["handoffs"][1]["carrier"]) == ["a", "kind", "zone"]

    def test_root_that_is_not_an_object(self):
        assert canon([{"b": 1, "a": 2}, 1.0]) == '[\n  {\n    "a": 2,\n    "b": 1\n  },\n  1\n]\n'
        assert canon(None) == "null\n"
        assert canon({}) == "{}\n"


class TestNumbers:
    """graph.md §6.4 and §0.5."""

    @pytest.mark.parametrize("literal,written", [
        ("1.0", "1"), ("-0", "0"), ("-0.0", "0"), ("100", "100"), ("1.5", "1.5"), ("123.25", "123.25"),
        ("0.001", "0.001"), ("0.000001", "0.000001"), ("0.0000001", "1e-7"), ("1e16", "10000000000000000"),
        ("1e21", "1e+21"), ("1.5e22", "1.5e+22"), ("100000000000000000000", "100000000000000000000"),
        ("12345678901234567890", "12345678901234567000"), ("-2.5e-8", "-2.5e-8"), ("5e-324", "5e-324"),
        ("9007199254740993", "9007199254740992"), ("0.1", "0.1"), ("1.7976931348623157e308", "1.7976931348623157e+308"),
    ])
    def test_number_writing(self, literal, written):
        doc = json.loads('{"grooph":0,"id":"g","name":"G","version":1,"nodes":[],"edges":[],"loops":[],"x":' + literal + "}")
        assert canon(doc).endswith(f'"x": {written}\n}}\n')


class TestStrings:
    """graph.md §6.1 escaping and §9 surrogates."""

    def test_escapes(self):
        s = '"\\/\b\t\n\f\r\x00\x1f\x7f\u2028\u2029é\U0001f600'
        text = canon({**HEAD, "nodes": [], "edges": [], "loops": [], "name": s})
        assert '"name": "\\"\\\\/\\b\\t\\n\\f\\r\\u0000\\u001f\x7f\u2028\u2029é\U0001f600",' in text

    def test_lone_surrogates_are_escaped_lower_case(self):
        value = json.loads('{"grooph":0,"id":"g","name":"a\\uD800b\\uDFFF","version":1,"nodes":[],"edges":[],"loops":[]}')
        text = canon(value)
        assert '"name": "a\\ud800b\\udfff",' in text
        assert json.loads(text) == value

    def test_surrogate_pairs_built_in_code_are_written_as_one_character(self):
        text = canon({**HEAD, "nodes": [], "edges": [], "loops": [], "name": "\ud83d\ude00"})
        assert '"name": "\U0001f600",' in text
        assert text.encode("utf-8")

    def test_escaped_pair_in_the_source_is_written_literally(self):
        value = json.loads('{"grooph":0,"id":"g","name":"\\ud83d\\ude00","version":1,"nodes":[],"edges":[],"loops":[]}')
        assert '"name": "\U0001f600",' in canon(value)


class TestNothingIsLostAndIdempotent:
    def test_unknown_keys_kept_everywhere(self):
        doc = json.loads(GRAPH_6_3_INPUT)
        assert json.loads(canon(doc)) == doc

    def test_is_canonical(self):
        value = json.loads(GRAPH_6_3_INPUT)
        assert is_canonical(GRAPH_6_3_OUTPUT, value, "graph")
        assert not is_canonical(GRAPH_6_3_INPUT, value, "graph")
        assert not is_canonical(GRAPH_6_3_OUTPUT.replace("\n", "\r\n"), value, "graph")


# ---- properties --------------------------------------------------------------------------------------

_scalars = (st.none() | st.booleans() | st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1)
            | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8))
_keys = st.sampled_from(["id", "kind", "name", "x", "0", "10", "7", "b", "a", "\ue000", "\U0001f600", "__proto__",
                         "from", "when", "custom", "verdict", "patch", "pin", "tier"]) | st.text(max_size=5)
_json = st.recursive(_scalars, lambda kids: st.lists(kids, max_size=4) | st.dictionaries(_keys, kids, max_size=5),
                     max_leaves=25)

_node = st.fixed_dictionaries(
    {"id": st.sampled_from(["a", "b", "Bad"]), "kind": st.sampled_from(["agent", "check", "stop", "worker", "merge"]),
     "name": st.text(max_size=4)},
    optional={"role": st.sampled_from(["builder", "critic"]) | st.fixed_dictionaries({"custom": _scalars}, optional={"z": _json}),
              "model": st.fixed_dictionaries({"tier": st.just("fast")}, optional={"pin": st.dictionaries(_keys, st.text(max_size=3))}),
              "check": _json, "outputs": st.lists(st.text(max_size=3)), "zz": _json, "7": _json, "skills": _json})
_edge = st.fixed_dictionaries({"id": st.text(max_size=3)}, optional={
    "from": _scalars, "to": _scalars, "when": st.sampled_from(["pass", "fail"]) | st.fixed_dictionaries({"verdict": _scalars}, optional={"q": _json}) | _json,
    "concurrency": st.fixed_dictionaries({"max": st.integers()}, optional={"m": _json}), "extra": _json})
_loop = st.fixed_dictionaries({"id": st.text(max_size=3), "stops": st.lists(
    st.fixed_dictionaries({"kind": st.sampled_from(["budget", "human", "nope"])}, optional={"limit": _scalars, "then": _scalars, "w": _json}), max_size=3)},
    optional={"bar": st.fixed_dictionaries({"name": _scalars}, optional={"inspects": st.lists(_json, max_size=2)})})
_graph = st.fixed_dictionaries(
    {"grooph": st.just(0), "id": st.text(max_size=4), "name": st.text(max_size=4), "version": st.integers(0, 9),
     "nodes": st.lists(_node, max_size=3), "edges": st.lists(_edge, max_size=3), "loops": st.lists(_loop, max_size=2)},
    optional={"layout": st.dictionaries(_keys, st.fixed_dictionaries({"x": _scalars}, optional={"y": _scalars, "k": _json}), max_size=3),
              "notes": st.lists(st.fixed_dictionaries({"id": st.just("n")}, optional={"proposal": st.fixed_dictionaries({"summary": _scalars}, optional={"patch": _json})}), max_size=2),
              "policies": st.lists(st.fixed_dictionaries({"id": st.just("p"), "kind": _json, "params": _json}), max_size=2),
              "zeta": _json, "3": _json})
_map = st.fixed_dictionaries(
    {"groophMap": st.just(0), "id": st.text(max_size=4), "lanes": st.lists(_json, max_size=2),
     "handoffs": st.lists(st.fixed_dictionaries({"id": _scalars}, optional={"carrier": st.fixed_dictionaries({"kind": st.sampled_from(["branch", "person", "email"])}, optional={"repo": _scalars, "who": _scalars, "z": _json}) | _json, "w": _json}), max_size=3)},
    optional={"sessions": st.lists(_json, max_size=2), "extra": _json})


def _as_doubles(v):
    """The value with every number as the IEEE double it denotes (graph.md §0.5)."""
    if isinstance(v, dict):
        return {k: _as_doubles(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_as_doubles(x) for x in v]
    if isinstance(v, int) and not isinstance(v, bool):
        return float(v)
    return v


def _roundtrip(value, kind):
    text = canon(value, kind)
    again = json.loads(text)
    assert _as_doubles(again) == _as_doubles(value)  # nothing dropped or added, values unchanged
    assert canon(again, kind) == text  # idempotent, byte for byte
    assert text.endswith("\n") and not text.endswith("\n\n") and "\r" not in text
    assert all(line == line.rstrip() for line in text.split("\n"))


@settings(max_examples=300, deadline=None)
@given(_graph)
def test_property_graph_documents(value):
    _roundtrip(value, "graph")


@settings(max_examples=200, deadline=None)
@given(_map)
def test_property_map_documents(value):
    _roundtrip(value, "map")


@settings(max_examples=200, deadline=None)
@given(_json)
def test_property_any_json_value(value):
    _roundtrip(value, "graph")
    _roundtrip(value, "map")


def test_deeply_nested_free_json():
    """json.loads accepts nesting close to the interpreter's limit; canonical text must too."""
    value = json.loads('{"grooph":0,"id":"g","name":"G","version":1,"nodes":[],"edges":[],"loops":[],"x":'
                       + "[" * 900 + "{}" + "]" * 900 + "}")
    text = canon(value)
    assert json.loads(text) == value
    assert canon(json.loads(text)) == text
