"""One place per code (issue 14): each code's registry entry (`issues.CODES`), the one rule that raises
it (its kind's `RULES`, in the spec's order), and its repair builder (`BUILDERS`) agree. A rule added
without its entry or its registration line, or a builder keyed by a code no rule of its kind raises,
fails here, and so does a builder reading facts its code's rule does not make, or a code of any kind
(graph, map, workflow, board, episodes) that states facts on some issues and not others."""

from __future__ import annotations

import dataclasses
import functools
import types
import typing

import pytest

from grooph_core.issues import CODES, Facts, whole_shape_codes
from grooph_core.ops import edit_repairs, graph_repairs, map_repairs
from grooph_core.rules import board, episodes, graph, map, workflow
from grooph_core.rules.map import file_graph_resolver
from grooph_core.rules.registration import rule_of
from grooph_core.rules.validate import validate_value
from grooph_core.source.load import read_document
from tests.conftest import FIXTURES, fixture_files, sidecar

PACKAGES = {"graph": graph, "map": map, "workflow": workflow, "board": board, "episodes": episodes}
# Codes of a kind that no rule of its package raises: the structural check's, the readers' (E_SYNTAX,
# W_DUPLICATE_KEY, W_NUMBER_PRECISION, E_DOC_LIMIT: "editor"), and for graphs and maps the two the
# pipeline appends (graph.md §3.3 rules 24-25, map.md §4.2 codes 10-11, `validate.rule_issues`).
NOT_A_RULE = {"E_SCHEMA", "E_WF_SCHEMA", "E_BOARD_SCHEMA", "E_EPISODES_SCHEMA", "E_SYNTAX", "W_DUPLICATE_KEY",
              "W_NUMBER_PRECISION", "E_DOC_LIMIT"}
PIPELINE = {"W_UNKNOWN_KEY", "W_DOC_TOO_LARGE"}
INVALID = fixture_files("invalid") + fixture_files("maps", "invalid")


@pytest.mark.parametrize("kind", list(PACKAGES))
def test_every_registered_code_has_its_entry_and_one_rule(kind):
    rules = PACKAGES[kind].RULES
    codes = [c for r in rules for c in r.codes]
    assert len(codes) == len(set(codes)), "a code is registered by two rules"
    for c in codes:
        assert c in CODES and kind in CODES[c].applies_to, c


@pytest.mark.parametrize("kind", list(PACKAGES))
def test_every_code_of_the_kind_is_raised_by_a_registered_rule(kind):
    pipeline = PIPELINE if kind in ("graph", "map") else set()
    expected = {c for c, entry in CODES.items() if kind in entry.applies_to} - NOT_A_RULE - pipeline
    assert {c for r in PACKAGES[kind].RULES for c in r.codes} == expected


def test_the_export_rule_raises_exactly_the_export_only_codes():
    """graph.md §3.4: only the export flag adds these five codes."""
    export = {c for r in graph.RULES if r.export for c in r.codes}
    assert export == {c for c, entry in CODES.items() if entry.export_only}


@pytest.mark.parametrize("builders, kind", [(graph_repairs.BUILDERS, "graph"), (map_repairs.BUILDERS, "map")])
def test_every_builder_repairs_a_code_its_kind_raises(builders, kind):
    for code in builders:
        assert rule_of(PACKAGES[kind].RULES, code) is not None, code


def test_the_shared_edit_builders_repair_codes_of_graphs_and_maps():
    for code in edit_repairs.BUILDERS:
        assert {"graph", "map"} <= set(CODES[code].applies_to), code


def test_whole_shape_codes_are_the_registry_flags_of_each_kind():
    """The editor drops these while part of a broken text is left out (analysis.py, neighbours.py)."""
    assert whole_shape_codes("graph") >= {"W_UNREACHABLE_NODE", "W_NO_TERMINAL", "E_CYCLE_NO_STOP", "W_DOC_TOO_LARGE"}
    assert whole_shape_codes("map") == {"W_SESSION_ISLAND", "W_NO_RETURN", "W_DOC_TOO_LARGE"}
    assert whole_shape_codes("workflow") == {"W_WF_UNREACHABLE_STATUS", "W_WF_START_UNHANDLED"}
    for kind, pkg in PACKAGES.items():
        if kind not in ("graph", "map"):
            assert pkg.WHOLE_SHAPE_CODES == whole_shape_codes(kind)


def _facts_type(builder) -> tuple[type, ...]:
    """The facts class(es) a builder's `f` parameter is annotated with (NoneType: it reads none)."""
    hint = typing.get_type_hints(builder)["f"]
    return typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,)


@pytest.mark.parametrize("builders", [graph_repairs.BUILDERS, map_repairs.BUILDERS, edit_repairs.BUILDERS])
def test_every_builder_reads_the_facts_of_its_own_code(builders):
    for code, builder in builders.items():
        for t in _facts_type(builder):
            assert t is type(None) or (issubclass(t, Facts) and t.code == code), (code, t)


@pytest.mark.parametrize("path", INVALID, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_each_fixture_issue_carries_the_facts_its_builder_reads(path):
    """Every issue the invalid fixtures raise carries facts of its own code, of the class the code's
    repair builder is annotated with (for its document kind)."""
    doc = read_document(str(path))
    issues = [doc.error] if doc.error is not None else validate_value(
        doc.value, doc.kind, export=(sidecar(path) or {}).get("export", True),
        resolver=file_graph_resolver(str(path)) if doc.kind == "map" else None)
    kind_builders = graph_repairs.BUILDERS if doc.kind == "graph" else map_repairs.BUILDERS
    for issue in issues:
        assert issue.facts is None or issue.facts.code == issue.code
        builder = kind_builders.get(issue.code) or edit_repairs.BUILDERS.get(issue.code)
        if builder is not None:
            assert isinstance(issue.facts, _facts_type(builder)), (issue.code, type(issue.facts))


def test_an_issue_refuses_the_facts_of_another_code():
    from grooph_core.issues import make
    from grooph_core.rules.graph.leads import PersonLead

    assert make("E_PERSON_LEAD", "m", ["x"], ["/nodes/0/by"], facts=PersonLead("x")).facts == PersonLead("x")
    with pytest.raises(ValueError, match="PersonLead are the facts of E_PERSON_LEAD, not of E_SECOND_LEAD"):
        make("E_SECOND_LEAD", "m", ["x"], ["/nodes/0/role"], facts=PersonLead("x"))


# --- every code's facts are typed (issue 14 item 2) ---------------------------------------------------

NEIGHBOUR_SUFFIX = {"workflow": ".workflow.yaml", "board": ".board.json", "episodes": ".episodes.json"}
NEIGHBOUR_FIXTURES = sorted((kind, p) for kind in NEIGHBOUR_SUFFIX
                            for p in (FIXTURES / kind).rglob(f"*{NEIGHBOUR_SUFFIX[kind]}"))
# Codes whose issues state facts only sometimes: the YAML parser's own complaint carries its marks
# (`YamlSyntax`), the readers' other syntax problems (a second document, a JSON text) have none.
FACTS_SOMETIMES = {"E_SYNTAX"}


@functools.cache
def _facts_classes() -> dict[str, set[type]]:
    """Every concrete `Facts` class of the core (every module but `__main__` imported), by its code."""
    import importlib
    import pkgutil

    import grooph_core

    for m in pkgutil.walk_packages(grooph_core.__path__, "grooph_core."):
        if not m.name.endswith("__main__"):
            importlib.import_module(m.name)
    out: dict[str, set[type]] = {}
    todo = [Facts]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.code:
            out.setdefault(cls.code, set()).add(cls)
    return out


def test_every_facts_class_is_a_frozen_dataclass_of_a_registered_code():
    classes = _facts_classes()
    assert {"E_SCHEMA", "W_UNKNOWN_KEY", "E_WF_SCHEMA", "E_BOARD_SCHEMA", "E_EPISODES_SCHEMA",
            "E_WF_UNKNOWN_STATUS", "W_BOARD_TIMESTAMP", "E_SYNTAX"} <= set(classes)
    for code, found in classes.items():
        assert code in CODES, code
        for cls in found:
            assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, cls


def test_an_issue_has_no_untyped_data():
    """The facts travel typed or not at all: `make` takes no free keys, and `Issue` has no dict for them."""
    from grooph_core.issues import Issue, make

    assert "data" not in {f.name for f in dataclasses.fields(Issue)}
    with pytest.raises(TypeError):
        make("W_UNKNOWN_KEY", "m", ["x"], ["/x"], key="x")


@pytest.mark.parametrize("kind, path", NEIGHBOUR_FIXTURES, ids=lambda x: x if isinstance(x, str) else x.name)
def test_each_neighbour_fixture_issue_carries_the_facts_of_its_code(kind, path):
    """A code that states facts states them on every issue of it, of one of its own classes; the neighbour
    pipeline and repairs (ide/neighbours/analysis.py, ide/neighbours/repairs.py) read only these."""
    from grooph_core.ide.neighbours.analysis import analyze_neighbour
    from grooph_core.source.kinds import NEIGHBOURS

    classes = _facts_classes()
    a = analyze_neighbour(path.read_text("utf-8"), {k.name: k for k in NEIGHBOURS}[kind])
    for issue in a.issues:
        assert issue.facts is None or issue.facts.code == issue.code, (issue.code, issue.facts)
        if issue.code in classes and issue.code not in FACTS_SOMETIMES:
            assert isinstance(issue.facts, tuple(classes[issue.code])), (issue.code, issue.facts)


@pytest.mark.parametrize("path", INVALID, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_each_graph_and_map_fixture_issue_of_a_code_with_facts_carries_them(path):
    doc = read_document(str(path))
    issues = [doc.error] if doc.error is not None else validate_value(
        doc.value, doc.kind, export=(sidecar(path) or {}).get("export", True),
        resolver=file_graph_resolver(str(path)) if doc.kind == "map" else None)
    classes = _facts_classes()
    for issue in issues:
        if issue.code in classes and issue.code not in FACTS_SOMETIMES:
            assert isinstance(issue.facts, tuple(classes[issue.code])), (issue.code, issue.facts)
