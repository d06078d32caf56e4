"""The libyaml fast path of the YAML reader gives exactly what ruamel.yaml (the reference, spec/workflow.md
§0) gives: values, source-map spans, E_SYNTAX marks and messages, duplicate keys, limits, recovery."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grooph_core import yaml_libyaml, yaml_source
from grooph_core.yaml_source import parse_yaml

pytestmark = pytest.mark.skipif(not yaml_libyaml.available(), reason="PyYAML without libyaml")
ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "fixtures").glob("**/*.yaml"))


def _norm(v):
    if isinstance(v, float) and math.isnan(v):
        return "NaN"
    if isinstance(v, dict):
        return {k: _norm(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_norm(x) for x in v]
    return v


def _tree(y):
    if y is None:
        return None
    return (y.is_obj, y.start, y.end, y.names, y.kspans, y.vspans, [_tree(k) for k in y.kids])


def _picture(parsed):
    sm = parsed.source_map
    return (_norm(parsed.value), type(parsed.value).__name__, parsed.ok, parsed.broken, parsed.text,
            [(p.code, p.message, p.data) for p in parsed.problems], sm._root_span, _tree(sm._root))


def _reference(text, **kw):
    real = yaml_libyaml.compose
    yaml_libyaml.compose = lambda *a: None
    try:
        return parse_yaml(text, **kw)
    finally:
        yaml_libyaml.compose = real


def assert_same(text, **kw):
    for recover in (False, True):
        assert _picture(parse_yaml(text, recover=recover, **kw)) == _picture(_reference(text, recover=recover, **kw)), text


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: str(p.relative_to(ROOT)))
def test_fixtures_read_the_same(path):
    assert_same(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", FIXTURES[:40], ids=lambda p: str(p.relative_to(ROOT)))
def test_fixtures_cut_short_read_the_same(path):
    text = path.read_text(encoding="utf-8")
    for n in range(0, len(text), max(1, len(text) // 25)):
        assert_same(text[:n])


CASES = [
    "a: 1\na: 2\n", "a: &x [1, *x]\n", "a: *nope\n", "a: &x 1\nb: &x 2\nc: *x\n", "---\na: 1\n---\nb: 2\n",
    "? [1]\n: 2\n", "a: !!int '3'\nb: ! 4\nc: !!str 5\nd: !custom x\n", "a:\tb\n", "a: b: c\n", "- a\nb: 1\n",
    "a: [1, 2\n", "a: {b: 1\n", "a: 'x\n", "a: |\n  x\n\n  y\n\n\nb: >-\n  z\n", "%YAML 1.2\n---\na: 1\n",
    "\ufeffa: 1\n", "a: é🚀\r\nb: ~\r\n", "on: yes\noff: no\n1: 0x1F\n.inf: -.inf\nn: .NaN\n", "", "  \n", "# c\n",
    "a: \x07\n", "[1, 2]", "x", "a:\n  - b: 1\n    c: 2\n  - [3]\n", "a: \ud800\n", "<<: *a\n", "a: &a {b: *a}\n",
]


@pytest.mark.parametrize("text", CASES)
def test_corner_cases_read_the_same(text):
    assert_same(text)


def test_limits_are_the_same():
    deep = "a:\n" + "".join("  " * i + "- \n" for i in range(1, 40)) + "  " * 40 + "x\n"
    assert_same(deep, max_depth=10)
    assert_same("[" * 30 + "]" * 30, max_depth=30)
    assert_same("[" * 30 + "]" * 30, max_depth=31)
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [{', '.join(['*' + p] * 10)}]\n" for p, c in zip("abcdef", "bcdefg"))
    assert_same(bomb)
    assert_same(bomb, max_values=50_000_000)


_WORD = st.sampled_from(["a", "b", "on", "1", "0x1F", "~", "null", "true", "'q'", '"d"', "x y", "-.inf", "é", "🚀",
                         "*x", "&x", "!!str", "[", "]", "{", "}", ",", ":", "- ", "? ", "#", "|", ">", "\t", "\r\n"])
_LINE = st.tuples(st.integers(0, 6), st.lists(_WORD, max_size=5)).map(lambda t: " " * t[0] + " ".join(t[1]))
_TEXT = st.lists(_LINE, max_size=12).map("\n".join)


def _value():
    scalar = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.sampled_from(["on", "x y", "1.5", ""]),
                       st.text(max_size=6))
    return st.recursive(scalar, lambda kids: st.one_of(st.lists(kids, max_size=4),
                                                       st.dictionaries(st.text(max_size=5), kids, max_size=4)),
                        max_leaves=15)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(_TEXT)
def test_generated_texts_read_the_same(text):
    assert_same(text)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(_value(), st.booleans(), st.integers(0, 400), st.sampled_from(["", "x", ":", "\n", "[", "'", " - "]))
def test_dumped_values_and_their_edits_read_the_same(value, flow, at, insert):
    from ruamel.yaml import YAML
    import io
    y = YAML(typ="safe", pure=True)
    y.default_flow_style = flow
    buf = io.StringIO()
    y.dump({"doc": value}, buf)
    text = buf.getvalue()
    assert_same(text)
    at = min(at, len(text))
    assert_same(text[:at] + insert + text[at:])
