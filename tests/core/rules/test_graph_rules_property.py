"""Property: the graph rules never raise on any schema-valid document (graph.md §3.2 step 3), and what
they report is well-formed: codes of the registry in rule order, non-empty `at`, pointers that resolve.
Ids are drawn from a small pool so that references collide, dangle and repeat."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grooph_core.issues import CODES
from grooph_core.rules.graph import graph_rule_issues
from grooph_core.rules.graph import RULE_ORDER
from grooph_core.schema.check import schema_issues
from grooph_core.source.text import did_you_mean, osa_distance, utf16_len
from tests.core.rules.test_graph_rules import _MISSING, resolve

IDS = st.sampled_from(["a", "b", "c", "w", "t", "end", "l", "g", "e1", "e2", "ga", "gb", "p"])
TEXT = st.sampled_from(["", " ", "Do it.", "Fix {{area}}.", "{{ a }} and {{b}}", "all  tests pass", "All tests pass.", "\u3000"])
WORDS = st.lists(TEXT, max_size=3)
NUM = st.integers(min_value=1, max_value=9)
CAPS = st.lists(st.sampled_from(["read-files", "edit-files", "write-outputs", "run-tests", "web", "custom thing"]), max_size=3)



ROLE = st.one_of(st.sampled_from(["lead", "planner", "builder", "critic", "tester", "researcher", "red-team", "judge", "synthesizer"]),
                 st.fixed_dictionaries({"custom": st.sampled_from(["critic", "lead", "publisher"])}))
MODEL = st.fixed_dictionaries({"tier": st.sampled_from(["frontier", "strong", "fast"])},
                              optional={"pin": st.dictionaries(st.sampled_from(["claude-code", "codex", "x"]),
                                                               st.sampled_from(["m1", "m2"]), max_size=2)})
HEAD = {"id": IDS, "name": TEXT}
HEAD_OPT = {"description": TEXT, "coupled": st.booleans()}
AGENT = st.fixed_dictionaries(
    {**HEAD, "kind": st.just("agent"), "role": ROLE, "brief": TEXT, "outputs": st.lists(TEXT, min_size=1, max_size=2)},
    optional={**HEAD_OPT, "by": st.sampled_from(["agent", "person"]), "model": MODEL, "effort": st.sampled_from(["low", "max"]),
              "inputs": WORDS, "allow": CAPS, "deny": CAPS, "owns": st.lists(st.sampled_from(["src", "docs"]), max_size=2),
              "irreversible": st.lists(st.sampled_from(["publish", "merge"]), max_size=2),
              "skills": st.lists(st.sampled_from(["pdf", "git"]), max_size=2)})
GATE = st.fixed_dictionaries({**HEAD, "kind": st.just("human-gate"), "prompt": TEXT}, optional={**HEAD_OPT, "options": WORDS})
CHECK = st.fixed_dictionaries({**HEAD, "kind": st.just("check"),
                               "check": st.fixed_dictionaries({"kind": st.sampled_from(["tests", "command"]), "pass": TEXT},
                                                              optional={"run": TEXT, "threshold": st.floats(0, 1)})},
                              optional=HEAD_OPT)
MERGE = st.fixed_dictionaries({**HEAD, "kind": st.just("merge"), "merges": st.lists(st.sampled_from(["src", "docs"]), max_size=2)},
                              optional={**HEAD_OPT, "strategy": TEXT})
STOPNODE = st.fixed_dictionaries({**HEAD, "kind": st.just("stop")}, optional={**HEAD_OPT, "outcome": st.sampled_from(["success", "halt"])})
NODE = st.one_of(AGENT, GATE, CHECK, MERGE, STOPNODE)
EDGE = st.fixed_dictionaries(
    {"id": IDS, "from": IDS, "to": IDS},
    optional={"when": st.one_of(st.sampled_from(["always", "pass", "fail"]), st.fixed_dictionaries({"verdict": TEXT})),
              "isolation": st.sampled_from(["fresh", "shared"]), "concurrency": st.fixed_dictionaries({"max": NUM}),
              "evidence": WORDS, "approval": st.booleans(), "label": TEXT})
THEN = {"then": IDS}
STOP = st.one_of(
    st.fixed_dictionaries({"kind": st.just("human")}, optional={"every": NUM, **THEN}),
    st.fixed_dictionaries({"kind": st.just("budget"), "measure": st.sampled_from(["usd", "dispatches"]), "limit": st.integers(0, 20)},
                          optional=THEN),
    st.fixed_dictionaries({"kind": st.just("bar-passed")}, optional=THEN),
    st.fixed_dictionaries({"kind": st.just("max-iterations"), "n": NUM}, optional=THEN),
    st.fixed_dictionaries({"kind": st.just("evidence-invalid"), "rounds": NUM}, optional=THEN),
)
BAR = st.fixed_dictionaries(
    {"name": TEXT, "inspects": st.lists(st.fixed_dictionaries({"kind": st.sampled_from(["file", "answer-key", "metric"]), "ref": TEXT}),
                                        max_size=2),
     "acceptance": TEXT},
    optional={"aspiration": TEXT, "answerKeyFrom": IDS})
LOOP = st.fixed_dictionaries(
    {"id": IDS, "name": TEXT, "members": st.lists(IDS, max_size=4), "back": st.lists(IDS, max_size=2), "stops": st.lists(STOP, max_size=3)},
    optional={"mode": st.sampled_from(["grind", "judgment"]), "bar": BAR})
SCOPE = st.one_of(st.just("graph"), st.builds(lambda k, i: f"{k}:{i}", st.sampled_from(["node", "edge", "loop"]), IDS))
POLICY = st.fixed_dictionaries({"id": IDS, "kind": st.sampled_from(["critic-isolation", "no-self-grading"]), "scope": SCOPE})
GROUP = st.fixed_dictionaries({"id": IDS, "name": TEXT, "members": st.lists(IDS, max_size=4)},
                              optional={"coupled": st.booleans(), "description": st.sampled_from(["", "{{team}}"])})
NOTE = st.fixed_dictionaries({"id": IDS, "run": TEXT, "at": st.just("graph")}, optional={"text": TEXT})
TEMPLATE = st.fixed_dictionaries({"kind": st.sampled_from(["graph", "fragment"]), "title": TEXT, "summary": TEXT, "whenToUse": TEXT,
                                  "profile": st.just({"cost": "low", "speed": "fast", "rigor": "light"})})
DOC = st.fixed_dictionaries(
    {"grooph": st.just(0), "id": IDS, "name": TEXT, "version": st.integers(0, 3), "nodes": st.lists(NODE, max_size=7),
     "edges": st.lists(EDGE, max_size=8), "loops": st.lists(LOOP, max_size=3)},
    optional={"goal": TEXT, "target": st.fixed_dictionaries({"harness": st.sampled_from(["claude-code", "codex", "Codex", " "])}),
              "policies": st.lists(POLICY, max_size=2), "groups": st.lists(GROUP, max_size=3), "notes": st.lists(NOTE, max_size=2),
              "template": TEMPLATE})


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=DOC, export=st.booleans())
def test_graph_rules_never_raise_and_report_well_formed_issues(doc, export):
    assert schema_issues(doc, "graph") == []  # the strategy builds schema-valid documents only
    issues = graph_rule_issues(doc, export=export)
    assert graph_rule_issues(doc, export=export) == issues  # deterministic
    codes = [i.code for i in issues]
    assert all(c in CODES for c in codes)
    assert codes == sorted(codes, key=RULE_ORDER.index)
    if not export:
        assert not {"E_NO_TARGET", "E_NO_GOAL", "E_IS_TEMPLATE", "E_UNFILLED_SLOT", "E_PERSON_STEP_NOT_COMPILED"} & set(codes)
    if "template" in doc:
        assert "E_UNFILLED_SLOT" not in codes and "E_PERSON_STEP_NOT_COMPILED" not in codes
    for i in issues:
        assert i.at and all(isinstance(x, str) for x in i.at), i.code
        assert i.pointers, i.code
        for p in list(i.pointers) + [r for r, _ in i.related]:
            assert resolve(doc, p) is not _MISSING, (i.code, p)
        assert i.message and "\n" not in i.message


@settings(max_examples=300, deadline=None)
@given(word=st.text("abcdeAB-", min_size=1, max_size=10), candidates=st.lists(st.text("abcde-", max_size=10), max_size=20))
def test_banded_suggestion_is_exactly_the_did_you_mean_of_the_spec(word, candidates):
    """graph.md §5.1: the banded search gives the same answer as the spec's plain reading (full
    distance to every candidate, first of the smallest within the limit)."""
    limit = max(1, min(3, utf16_len(word) // 3))
    scored = [(osa_distance(word.lower(), c.lower()), n) for n, c in enumerate(candidates)]
    within = [(d, n) for d, n in scored if d <= limit]
    expected = candidates[min(within)[1]] if within else None
    assert did_you_mean(word, candidates) == expected
