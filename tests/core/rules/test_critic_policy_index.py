"""The scope index of E_CRITIC_NOT_ISOLATED (issue 8) picks the same policy as graph.md §2.9 read
literally: the first critic-isolation policy, in document order, whose scope covers the edge."""

from __future__ import annotations

import random

from grooph_core.rules.graph.critics import _coverage
from grooph_core.semantics.graph_index import build_index, policy_covers_edge

IDS = ["a", "b", "c", "d", "e"]
SCOPES = ["graph", "edge:e1", "edge:e2", "node:a", "node:b", "loop:l1", "loop:l2", "loop:l9", "graph:x", "other:a", "edge:", None]


def test_first_covering_policy_matches_the_definition_on_random_graphs():
    rng = random.Random(29)
    for _ in range(1500):
        edges = [{"id": f"e{k}", "from": rng.choice(IDS), "to": rng.choice(IDS)} for k in range(rng.randint(0, 6))]
        loops = [{"id": rng.choice(["l1", "l2", "l3"]), "members": rng.sample(IDS, rng.randint(0, 4)), "back": [], "stops": []}
                 for _ in range(rng.randint(0, 3))]
        policies = [{"id": f"p{k}", "kind": "critic-isolation", "scope": rng.choice(SCOPES)} for k in range(rng.randint(0, 6))]
        doc = {"nodes": [{"id": i, "kind": "agent"} for i in IDS], "edges": edges, "loops": loops, "policies": policies}
        index = build_index(doc)
        first_covering = _coverage(policies, index)
        for e in edges:
            expected = next((p for p in policies if policy_covers_edge(p, e, index)), None)
            assert first_covering(e) is expected, (doc, e)


def test_a_loop_policy_covers_edges_into_the_first_loop_with_that_id_only():
    doc = {"nodes": [{"id": i, "kind": "agent"} for i in IDS],
           "edges": [{"id": "e1", "from": "a", "to": "b"}, {"id": "e2", "from": "a", "to": "c"}],
           "loops": [{"id": "l1", "members": ["b"], "back": [], "stops": []},
                     {"id": "l1", "members": ["c"], "back": [], "stops": []}],
           "policies": [{"id": "p", "kind": "critic-isolation", "scope": "loop:l1"}]}
    first_covering = _coverage(doc["policies"], build_index(doc))
    assert first_covering(doc["edges"][0]) is doc["policies"][0]
    assert first_covering(doc["edges"][1]) is None
