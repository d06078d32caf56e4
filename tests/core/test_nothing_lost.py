"""Nothing the user wrote is lost (issue 9, item 2), through the editor's own paths.

Property tests (hypothesis) over the fixtures' graphs and maps with hostile content injected (unknown
keys at every level with nested free JSON, integer-like and `__proto__` keys, any unicode: astral
characters, controls, U+2028, lone surrogates, escapes; doubles of every size) and written in any
layout:

- formatting (`format_edits`, what the server answers to textDocument/formatting) keeps the value as
  the spec defines it (graph.md §0.5: numbers are doubles, so `1.0` is `1`; strings are UTF-16, so a
  surrogate pair written as two escapes is one character), writes numbers exactly as graph.md §6.4
  says (checked against an independent implementation of §6.4), and is idempotent;
- every quick fix and fix-all (operations.md §8.2) gives text whose value is exactly the repaired
  document, and computing them changes nothing; refused documents get no edit at all;
- every op list (operations.md §1.2) applies fully, as the ops one after another would, or fails at
  one index leaving the document untouched; through the editor (`operations_edits`) the same;
- an integer beyond 2^53 that a double cannot hold (graph.md §0.5) is warned about
  (W_NUMBER_PRECISION) and formatting, quick fixes and ops refuse to rewrite it.
"""

from __future__ import annotations

import copy
import json
import re
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from grooph_core.ide.grooph.actions import fix_all, operations_edits, quick_fixes
from grooph_core.ide.grooph.analysis import analyze
from grooph_core.ide.grooph.formatting import format_edits
from grooph_core.ide.refused import Refused
from grooph_core.ide.text_edits import apply_edits
from grooph_core.ops import apply
from grooph_core.ops.repairs import fix_all as repair_all
from grooph_core.ops.repairs import repairs_for, result_of
from grooph_core.source.json_reader import parse
from tests.conftest import fixture_files

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# --- the value as the spec defines it ------------------------------------------------------------

def js_equal(a: object, b: object) -> bool:
    """Equality of JSON values as JavaScript sees them (graph.md §0.5): numbers are doubles (`1` is
    `1.0`, `-0` is `0`), `true` is not `1`, strings are compared as UTF-16, objects by their members."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    if isinstance(a, str) and isinstance(b, str):
        return a.encode("utf-16-le", "surrogatepass") == b.encode("utf-16-le", "surrogatepass")
    if isinstance(a, dict) and isinstance(b, dict):
        a, b = _utf16_keys(a), _utf16_keys(b)
        return a.keys() == b.keys() and all(js_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(js_equal(x, y) for x, y in zip(a, b))
    return a is None and b is None


def _utf16(s: str) -> str:
    """The string as UTF-16 holds it: surrogate code points that form a pair become one character."""
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _utf16_keys(d: dict) -> dict:
    return {_utf16(k): v for k, v in d.items()}


def spec_number(x: float) -> str:
    """graph.md §6.4 written out from the spec (independently of `text.js_number`): the shortest
    round-trip digits d1..dk and n with value = 0.d1..dk × 10^n, then the four cases."""
    if x == 0:
        return "0"
    if x < 0:
        return "-" + spec_number(-x)
    m = re.fullmatch(r"(\d+)(?:\.(\d+))?(?:e([+-]\d+))?", repr(float(x)))
    whole, frac, exp = m.group(1), m.group(2) or "", int(m.group(3) or 0)
    all_digits = whole + frac
    lead = len(all_digits) - len(all_digits.lstrip("0"))
    n = len(whole) + exp - lead
    d = all_digits.strip("0")
    k = len(d)
    if k <= n <= 21:
        return d + "0" * (n - k)
    if 0 < n <= 21:
        return d[:n] + "." + d[n:]
    if -6 < n <= 0:
        return "0." + "0" * -n + d
    e = n - 1
    return d[0] + ("." + d[1:] if k > 1 else "") + "e" + ("+" if e >= 0 else "-") + str(abs(e))


@pytest.mark.parametrize("x, written", [
    (100, "100"), (1.5, "1.5"), (123.25, "123.25"), (0.001, "0.001"), (0.000001, "0.000001"), (1e-7, "1e-7"),
    (1e21, "1e+21"), (1.5e22, "1.5e+22"), (1e16, "10000000000000000"), (12345678901234567890, "12345678901234567000"),
    (-0.0, "0"), (-2.5, "-2.5"), (5e-324, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"),
])
def test_spec_number_matches_the_examples_of_graph_md_6_4(x, written):
    assert spec_number(x) == written


# --- documents with hostile content --------------------------------------------------------------

def _values(kind: str) -> list[dict]:
    base = ("valid",) if kind == "graph" else ("maps", "valid")
    out = []
    for p in fixture_files(*base):
        if p.name.endswith(".grooph.json" if kind == "graph" else ".grooph-map.json"):
            out.append(json.loads(p.read_text("utf-8")))
    return out


GRAPHS = _values("graph")
MAPS = _values("map")

LONE = ["\ud800", "\udbff", "\udc00", "\udfff"]
characters = (st.characters(max_codepoint=0x10FFFF) | st.sampled_from(LONE + ["\u2028", "\u2029", "\x00", "\x1f", "\x7f",
                                                                                "\ufeff", "\\", '"', "/", "😀", "\U0010ffff"]))
strings = st.text(characters, max_size=12) | st.sampled_from(["\ud83d\ude00", "\ud83d", "a\udc00b", "</text><script>"])
doubles = (st.integers(-(2**53) + 1, 2**53 - 1) | st.floats(allow_nan=False, allow_infinity=False)
           | st.sampled_from([1e21, 1e-7, 1.5e22, 0.1, 1e16, -0.0, 5e-324, 123.25, 2.0, 1e300]))
keys = strings | st.sampled_from(["0", "7", "10", "007", "-1", "4294967294", "4294967295", "__proto__", "constructor",
                                  "id", "kind", "name", "\ue000", "\U0001f600"])
free_json = st.recursive(st.none() | st.booleans() | doubles | strings,
                         lambda kids: st.lists(kids, max_size=3) | st.dictionaries(keys, kids, max_size=4), max_leaves=10)


def _containers(value) -> list[dict]:
    """Every object inside a value (where an unknown key can go)."""
    out, stack = [], [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            out.append(v)
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out


@st.composite
def hostile_documents(draw, kinds=("graph", "map")):
    """(kind, value): a fixture's document with unknown keys and values injected anywhere."""
    kind = draw(st.sampled_from(kinds))
    value = copy.deepcopy(draw(st.sampled_from(GRAPHS if kind == "graph" else MAPS)))
    objects = _containers(value)
    for _ in range(draw(st.integers(1, 6))):
        target = draw(st.sampled_from(objects))
        target[draw(keys)] = draw(free_json)
    return kind, value


def _shuffled(value, rnd):
    """The same value with every object's keys in another order (the text a person wrote)."""
    if isinstance(value, dict):
        items = list(value.items())
        rnd.shuffle(items)
        return {k: _shuffled(v, rnd) for k, v in items}
    if isinstance(value, list):
        return [_shuffled(v, rnd) for v in value]
    return value


@st.composite
def written(draw, doc):
    """A document as some person or tool wrote it: key order, indentation, escapes, line ends."""
    kind, value = doc
    rnd = draw(st.randoms(use_true_random=False))
    text = json.dumps(_shuffled(value, rnd), indent=draw(st.sampled_from([None, 1, 2, 4, "\t"])),
                      ensure_ascii=draw(st.booleans()))
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    return text + draw(st.sampled_from(["", "\n", "\n\n", "  "]))


def _name(kind: str) -> str:
    return "doc.grooph.json" if kind == "graph" else "doc.grooph-map.json"


# --- formatting ----------------------------------------------------------------------------------

@SETTINGS
@given(st.data())
def test_formatting_keeps_the_value_and_is_idempotent(data):
    kind, value = data.draw(hostile_documents())
    assume(all(len(_utf16_keys(o)) == len(o) for o in _containers(value)))  # else two keys are one in JSON
    text = data.draw(written((kind, value)))
    analysis = analyze(text, name=_name(kind))
    assert analysis.kind == kind
    edits = format_edits(analysis)
    assert not isinstance(edits, Refused), edits.message
    formatted = apply_edits(text, edits)
    assert js_equal(json.loads(formatted), value)  # unknown keys, unicode, escapes, numbers: all there
    again = format_edits(analyze(formatted, name=_name(kind)))
    assert again == []  # idempotent: a second format changes nothing
    if "\r\n" not in text:
        assert formatted.endswith("\n") and not formatted.endswith("\n\n") and "\r" not in formatted


@SETTINGS
@given(st.lists(doubles, min_size=1, max_size=8), st.sampled_from(["graph", "map"]))
def test_formatting_writes_numbers_as_graph_md_6_4_says(numbers, kind):
    value = copy.deepcopy((GRAPHS if kind == "graph" else MAPS)[0])
    value["zzNumbers"] = numbers
    text = json.dumps(value)
    formatted = apply_edits(text, format_edits(analyze(text, name=_name(kind))))
    literals: list[str] = []
    keep = lambda s: literals.append(s) or float(s)  # noqa: E731
    after = json.loads(formatted, parse_int=keep, parse_float=keep)
    written_numbers = literals[-len(numbers):]  # zzNumbers is the last key (unknown keys come last)
    assert written_numbers == [spec_number(x) for x in numbers]
    assert js_equal(after["zzNumbers"], numbers)


def test_an_escaped_surrogate_pair_is_one_character_and_lone_ones_stay_escaped():
    """graph.md §6.1: a pair written as two escapes is written as the character; a lone one as an
    escape (the value, UTF-16, is the same either way)."""
    value = copy.deepcopy(GRAPHS[0])
    text = json.dumps(value)[:-1] + ', "zz": "\\ud83d\\ude00 \\ud800 \\udfff x\\u2028"}'
    formatted = apply_edits(text, format_edits(analyze(text, name="g.grooph.json")))
    assert '"zz": "😀 \\ud800 \\udfff x\u2028"' in formatted
    assert js_equal(json.loads(formatted), json.loads(text))


# --- code actions ----------------------------------------------------------------------------------

INVALID = [p for p in fixture_files("invalid") + fixture_files("maps", "invalid")]


def _check_actions(text: str, name: str) -> int:
    """Every quick fix and fix-all on `text`: the edited text's value is exactly the repaired
    document, and computing them changes nothing. Returns how many fixes were checked."""
    analysis = analyze(text, name=name)
    value, kind = analysis.value, analysis.kind
    before = json.dumps(value, ensure_ascii=True)
    issues = list(analysis.issues)
    expected = [doc for issue in issues for r in repairs_for(issue, value, kind)
                if (doc := result_of(r, value, kind)) is not None]
    fixes = quick_fixes(analysis, issues)
    assert len(fixes) == len(expected)
    for fix, doc in zip(fixes, expected):
        assert fix.edits, fix.title
        assert js_equal(json.loads(apply_edits(text, list(fix.edits))), doc), fix.title  # fully applied
    everything = fix_all(analysis)
    if everything is not None:
        assert js_equal(json.loads(apply_edits(text, list(everything.edits))), repair_all(value, kind)[0])
    assert json.dumps(value, ensure_ascii=True) == before  # the analysed value is untouched
    return len(fixes) + (everything is not None)


@pytest.mark.parametrize("path", INVALID, ids=lambda p: str(p.relative_to(p.parents[2])))
def test_every_fix_of_every_invalid_fixture_applies_fully(path):
    text = path.read_text("utf-8")
    _check_actions(text, path.name)
    _check_actions(text.replace("\n", "\r\n"), path.name)  # and in a CRLF document


@st.composite
def damaged_documents(draw):
    """A valid fixture with a few faults a person makes: a reference to nothing, a copied item (a
    duplicate id), a removed member, an unknown key."""
    kind, value = draw(hostile_documents())
    lists = [v for o in _containers(value) for v in o.values() if isinstance(v, list) and v]
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["dangling", "duplicate", "remove", "wrong"]))
        objects = [o for o in _containers(value) if o is not value] or [value]
        target = draw(st.sampled_from(objects))
        if how == "dangling":
            refs = [k for k in ("to", "from", "lane", "then", "answerKeyFrom") if isinstance(target.get(k), str)]
            if refs:
                target[draw(st.sampled_from(refs))] = draw(st.sampled_from(["ghost", "Revew", "end2"]))
        elif how == "duplicate" and lists:
            lst = draw(st.sampled_from(lists))
            lst.append(copy.deepcopy(draw(st.sampled_from(lst))))
        elif how == "remove" and target:
            del target[draw(st.sampled_from(sorted(target)))]
        else:
            target[draw(st.sampled_from(["name", "kind", "id", "zz"]))] = draw(free_json)
    return kind, value


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_fixes_on_damaged_documents_apply_fully(data):
    kind, value = data.draw(damaged_documents())
    text = data.draw(written((kind, value)))
    parsed = parse(text)
    # a key written twice (an emoji and its escapes) or a lossy number: every fix is refused, which
    # test_a_document_that_cannot_be_kept_exactly_gets_no_edit covers
    assume(parsed.ok and not any(p.code in ("W_DUPLICATE_KEY", "W_NUMBER_PRECISION") for p in parsed.problems))
    _check_actions(text, _name(kind))


REFUSED_TEXTS = {
    "duplicate key": '{"grooph": 0, "id": "g", "id": "h", "name": "G", "version": 1, "nodes": [], "edges": [], "loops": []}',
    "lossy number": '{"grooph": 0, "id": "g", "name": "G", "version": 9007199254740993, "nodes": [], "edges": [], "loops": []}',
    "not JSON": '{"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": [,], "edges": [], "loops": []}',
}


@pytest.mark.parametrize("what", list(REFUSED_TEXTS))
def test_a_document_that_cannot_be_kept_exactly_gets_no_edit(what):
    """"Or changes nothing": where rewriting would lose what was written (or the text is not JSON),
    no quick fix, no fix-all, no op edit and no formatting is offered."""
    text = REFUSED_TEXTS[what]
    analysis = analyze(text, name="g.grooph.json")
    assert quick_fixes(analysis, list(analysis.issues)) == []
    assert fix_all(analysis) is None
    outcome = operations_edits(analysis, [{"op": "setGraphName", "name": "H"}])
    assert not outcome.ok and outcome.edits == () and outcome.error["message"]
    refused = format_edits(analysis)
    assert isinstance(refused, Refused) and refused.message.startswith("Not formatted: ")
    says = {"duplicate key": '. Formatting would drop one of the two values; remove one copy first.',
            "lossy number": "it reads as 9007199254740992; the canonical form would write that, not what you wrote.",
            "not JSON": "the text is not valid JSON (line 1, column 63: missing array item before this comma)"}[what]
    assert says in refused.message


# --- op lists: all or nothing --------------------------------------------------------------------

def _op_pool(doc: dict) -> st.SearchStrategy:
    node_ids = [n["id"] for n in doc.get("nodes", []) if isinstance(n, dict) and isinstance(n.get("id"), str)] or ["w"]
    edge_ids = [e["id"] for e in doc.get("edges", []) if isinstance(e, dict) and isinstance(e.get("id"), str)] or ["e"]
    loop_ids = [lp["id"] for lp in doc.get("loops", []) if isinstance(lp, dict) and isinstance(lp.get("id"), str)] or ["l"]
    node, edge, loop = st.sampled_from(node_ids + ["ghost"]), st.sampled_from(edge_ids + ["ghost"]), st.sampled_from(loop_ids + ["ghost"])
    name = strings | st.sampled_from(["Review", "Done", ""])
    return st.one_of(
        st.builds(lambda n: {"op": "setGraphName", "name": n}, name),
        st.builds(lambda k, v: {"op": "setGraphField", "key": k, "value": v}, st.sampled_from(["goal", "adaptation", "nope"]), free_json),
        st.builds(lambda k, n: {"op": "addNode", "kind": k, "name": n}, st.sampled_from(["agent", "stop", "check", "human-gate", "robot"]), name),
        st.builds(lambda i, n: {"op": "setNodeName", "id": i, "name": n}, node, name),
        st.builds(lambda i, s: {"op": "updateNode", "id": i, "set": s}, node, st.dictionaries(st.sampled_from(["brief", "name", "id", "zz"]), free_json, max_size=2)),
        st.builds(lambda i: {"op": "removeNode", "id": i}, node),
        st.builds(lambda a, b: {"op": "connect", "from": a, "to": b}, node, node),
        st.builds(lambda i: {"op": "removeEdge", "id": i}, edge),
        st.builds(lambda m, n: {"op": "addLoop", "members": m, "name": n}, st.lists(node, max_size=3), name),
        st.builds(lambda lp, k: {"op": "addStop", "loop": lp, "kind": k}, loop, st.sampled_from(["budget", "max-iterations", "human", "nope"])),
        st.builds(lambda lp, i: {"op": "removeStop", "loop": lp, "index": i}, loop, st.integers(-1, 3)),
        st.builds(lambda a, b: {"op": "renameId", "from": a, "to": b}, node | edge, st.sampled_from(["renamed", "Bad", "end"])),
        st.builds(lambda p: {"op": "setPositions", "positions": p}, st.dictionaries(node, st.fixed_dictionaries({"x": doubles, "y": doubles}), max_size=2)),
        st.builds(lambda k, s: {"op": "addPolicy", "kind": k, "scope": s}, st.sampled_from(["no-self-grading", ""]), st.sampled_from(["graph", "node:w", "bad"])),
        st.sampled_from([{"op": "nope"}, {"op": "addNode", "kind": "agent", "__proto__": 1}, "not an op", None, []]),
    )


@SETTINGS
@given(st.data())
def test_an_op_list_applies_fully_or_changes_nothing(data):
    doc = copy.deepcopy(data.draw(st.sampled_from(GRAPHS)))
    ops = data.draw(st.lists(_op_pool(doc), max_size=6))
    before = json.dumps(doc, ensure_ascii=True)
    result = apply(doc, ops)
    assert json.dumps(doc, ensure_ascii=True) == before  # the input is never changed
    if result.ok:
        assert len(result.ids) == len(ops)
        step = doc
        for op in ops:  # all of it: the same as the ops one after another
            r = apply(step, [op])
            assert r.ok
            step = r.doc
        assert js_equal(step, result.doc)
    else:
        assert result.doc is None and result.ids == ()
        index = result.error.index
        assert 0 <= index < len(ops)
        assert apply(doc, ops[:index]).ok  # everything before the failing op was fine ...
        assert apply(doc, ops[: index + 1]).error.message == result.error.message  # ... and it fails there

    text = data.draw(written(("graph", doc)))
    outcome = operations_edits(analyze(text, name="g.grooph.json"), ops)
    if outcome.ok:
        assert result.ok and js_equal(json.loads(apply_edits(text, list(outcome.edits))), result.doc)
    else:
        assert outcome.edits == ()


# --- numbers beyond 2^53 ---------------------------------------------------------------------------

def _written_value(n: int) -> int:
    """The integer that `n`, read as a double and written per §6.4, stands for."""
    s = spec_number(float(n))
    if "e" in s:
        mantissa, exp = s.split("e")
        digits = mantissa.replace(".", "")
        frac = len(mantissa.split(".")[1]) if "." in mantissa else 0
        return int(digits) * 10 ** (int(exp) - frac)
    return int(s)


@SETTINGS
@given(st.integers(2**53 + 1, 10**30) | st.integers(-(10**30), -(2**53) - 1) | st.sampled_from([2**53 + 1, 2**60, 10**21, 12345678901234567890]))
def test_integers_beyond_2_53_are_warned_and_never_rewritten(n):
    text = ('{"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": [], "edges": [], "loops": [], "zz": '
            + str(n) + "}")
    analysis = analyze(text, name="g.grooph.json")
    warned = [i for i in analysis.issues if i.code == "W_NUMBER_PRECISION"]
    lossy = _written_value(n) != n
    assert bool(warned) == lossy
    result = format_edits(analysis)
    if lossy:
        assert str(n) in warned[0].message and warned[0].severity == "warning"
        assert analysis.span(warned[0]) == (text.index(str(n)), text.index(str(n)) + len(str(n)))
        assert isinstance(result, Refused) and str(n) in result.message
        assert quick_fixes(analysis, list(analysis.issues)) == [] and fix_all(analysis) is None
    else:  # e.g. 10^21: written as §6.4 says (1e+21), the same number the user wrote
        formatted = apply_edits(text, result)
        literal = re.search(r'"zz": (\S+)\n', formatted).group(1)
        assert literal == spec_number(float(n)) and Decimal(literal) == n


@pytest.mark.parametrize("literal, warned", [
    ("1e-4009007199254740993", True),    # an exponent past Decimal's range, read as 0
    ("-1e-99999999999999999999", True),
    ("0e-99999999999999999999", False),  # zero, exactly
    ("0.000e-99999999999999999999", False),
    ("1.5e99999999999999999999", True),  # Infinity
    ("1e-400", True),
])
def test_extreme_exponents_are_warned_never_an_exception(literal, warned):
    """graph.md §0.5: a literal too small or too large for a double is read as 0 or Infinity; the
    editor says so (W_NUMBER_PRECISION), whatever the exponent's size."""
    text = '{"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": [], "edges": [], "loops": [], "x": ' + literal + "}"
    codes = [p.code for p in parse(text).problems]
    assert codes == (["W_NUMBER_PRECISION"] if warned else [])
    analysis = analyze(text, name="g.grooph.json")  # the whole editor pipeline, not only the reader
    assert ("W_NUMBER_PRECISION" in [i.code for i in analysis.issues]) == warned
