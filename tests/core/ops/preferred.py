"""Which quick fix operations.md §8.4–8.5 makes the preferred one (issue 21 item 2), per code, on the
fixtures: for each fixture, the titles (their beginnings) of the preferred or safe actions, one per
issue that has one, in issue order. An issue not named has no preferred action: its repairs are
choices (§8.6), no suggestion was found, or the usual repair does not pass §8.2 on that document.

Read from the spec, case by case:
- safe (preferred, in fix-all): E_STOP_NOT_INSPECTABLE's cap, E_IRREVERSIBLE_NO_GATE's approvals on
  open edges, W_FANOUT_ON_COUPLED's one-at-a-time (node and group variants), W_LONG_LOOP_NO_BUDGET's
  budget, W_ONLY_MAX_ITERATIONS's budget in a grind loop;
- preferred: a did-you-mean (E_DANGLING_REF with a suggestion, W_UNKNOWN_KEY's rename, E_NO_TARGET's
  misspelt harness, E_SCHEMA's enum value), E_DUPLICATE_ID on an occurrence nothing refers to (a
  policy, a map's handoff), E_LOOP_BACK_EDGE's members, E_CYCLE_NO_STOP's stops (not when the new loop
  would be a judgment loop: ops/graph_repairs.cycle_no_stop), E_CRITIC_NOT_ISOLATED, W_NO_TERMINAL
  with one sink, W_OUTPUT_NOT_WRITABLE, W_PERSON_FIELDS_NOT_READ, a map handoff from a person;
- never preferred: E_GROUP_CYCLE, E_SECOND_LEAD, E_PERSON_LEAD, E_OWNERSHIP_CONFLICT,
  W_HOMOGENEOUS_CRITICS, W_UNREACHABLE_NODE, W_GROUP_OVERLAP, W_GRAPH_UNRESOLVED, E_NO_GOAL's fill-in,
  E_NO_TARGET without a misspelt harness, a dangling reference with no close id.
"""

from __future__ import annotations

import json

ENUM_TYPO = {"grooph": 0, "id": "g", "name": "G", "version": 1,
             "nodes": [{"id": "w", "kind": "agent", "name": "W", "role": "builder", "brief": "b", "outputs": ["o"],
                        "allow": ["edit-files"], "effort": "hihg"},
                       {"id": "end", "kind": "stop", "name": "End"}],
             "edges": [{"id": "e1", "from": "w", "to": "end"}], "loops": []}

# code -> {fixture path under fixtures/ (or "<enum typo>"): [preferred title beginnings, issue order]}
PREFERRED: dict[str, dict[str, list[str]]] = {
    "E_CRITIC_NOT_ISOLATED": {
        "invalid/E_CRITIC_NOT_ISOLATED/loop-scoped-policy.grooph.json": ["Let critic c read out.txt on edge e1"],
        "invalid/E_CRITIC_NOT_ISOLATED/no-evidence.grooph.json": ["Let critic c read out.txt on edge e1"],
        "invalid/E_CRITIC_NOT_ISOLATED/spec-example.grooph.json": ["Give critic c a fresh context on edge e1, reading"],
    },
    "E_CYCLE_NO_STOP": {
        "invalid/E_CYCLE_NO_STOP/components-in-node-order.grooph.json": [],
        "invalid/E_CYCLE_NO_STOP/loop-without-stops.grooph.json": ["Give loop l a cap of 4 rounds and a budget"],
        "invalid/E_CYCLE_NO_STOP/spec-example.grooph.json": [],
    },
    "E_DANGLING_REF": {
        "invalid/E_DANGLING_REF/every-kind-of-reference.grooph.json": [
            'Make loop l list node t instead of "tt"', 'Scope policy p1 to node c instead of "cc"',
            'Scope policy p2 to loop l instead of "ll"'],
        "invalid/E_DANGLING_REF/misspelled-node.grooph.json": ["Point edge e1 at node reviewer"],
        "invalid/E_DANGLING_REF/spec-example.grooph.json": [],
        "maps/invalid/E_DANGLING_REF/end-names-a-lane.grooph-map.json": [],
        "maps/invalid/E_DANGLING_REF/lane-first-then-both-ends.grooph-map.json": [
            "Put session coder in lane desk", "Start handoff h-task at planner", "Point handoff h-task at coder"],
        "maps/invalid/E_DANGLING_REF/misspelt-end.grooph-map.json": ["Point handoff h-result at planner"],
        "maps/invalid/E_DANGLING_REF/misspelt-person.grooph-map.json": ["Start handoff h-ask at maya"],
        "maps/invalid/E_DANGLING_REF/unknown-lane.grooph-map.json": ["Put session coder in lane desk"],
    },
    "E_DUPLICATE_ID": {
        "invalid/E_DUPLICATE_ID/graph-id-nodes-and-policy.grooph.json": ['Give policy policies[0] the id "e1-2"'],
        "invalid/E_DUPLICATE_ID/spec-example.grooph.json": [],
        "maps/invalid/E_DUPLICATE_ID/handoff-named-like-session.grooph-map.json": ['Give handoff handoffs[1] the id "coder-2"'],
        "maps/invalid/E_DUPLICATE_ID/lane-person-and-handoff-share-an-id.grooph-map.json": [],
        "maps/invalid/E_DUPLICATE_ID/map-id-first-then-two-sessions.grooph-map.json": [
            'Give handoff handoffs[1] the id "tiny-shop-2"'],
    },
    "E_GROUP_CYCLE": {
        "invalid/E_GROUP_CYCLE/spec-example.grooph.json": [],
        "invalid/E_GROUP_CYCLE/two-rings-each-once.grooph.json": [],
    },
    "E_HANDOFF_NO_CARRIER": {
        "maps/invalid/E_HANDOFF_NO_CARRIER/missing-carrier-from-a-person.grooph-map.json": [
            "Carry h-ask by a person: Maya, who starts it"],
        "maps/invalid/E_HANDOFF_NO_CARRIER/missing-carrier.grooph-map.json": [],
        "maps/invalid/E_HANDOFF_NO_CARRIER/unnamed-pull-request.grooph-map.json": [],
    },
    "E_IRREVERSIBLE_NO_GATE": {
        "invalid/E_IRREVERSIBLE_NO_GATE/spec-example.grooph.json": ["Ask a person before pub runs: approval on edge e1"],
        "invalid/E_IRREVERSIBLE_NO_GATE/starts-here.grooph.json": [],
    },
    "E_LOOP_BACK_EDGE": {
        "invalid/E_LOOP_BACK_EDGE/end-outside-members.grooph.json": ["Add t to loop l so that back edge e2"],
        "invalid/E_LOOP_BACK_EDGE/no-cycle-inside-members.grooph.json": ["Add fix to loop l so that back edge e1"],
    },
    "E_NO_GOAL": {"invalid/E_NO_GOAL/no-goal-no-target.grooph.json": []},
    "E_NO_TARGET": {
        "invalid/E_NO_TARGET/blank-harness.grooph.json": [],
        "invalid/E_NO_TARGET/spec-example.grooph.json": [],
        "invalid/E_NO_TARGET/unknown-harness.grooph.json": ["Target the claude-code harness (instead of"],
    },
    "E_OWNERSHIP_CONFLICT": {"invalid/E_OWNERSHIP_CONFLICT/spec-example.grooph.json": []},
    "E_PERSON_LEAD": {"invalid/E_PERSON_LEAD/spec-example.grooph.json": []},
    "E_SCHEMA": {"invalid/E_SCHEMA/spec-example.grooph.json": [], "<enum typo>": ['Change effort "hihg" to "high"']},
    "E_SECOND_LEAD": {"invalid/E_SECOND_LEAD/spec-example.grooph.json": []},
    "E_STOP_NOT_INSPECTABLE": {
        "invalid/E_STOP_NOT_INSPECTABLE/judgment-loop-empty-inspects.grooph.json": ["Add a cap of 4 rounds to loop l"],
        "invalid/E_STOP_NOT_INSPECTABLE/spec-example.grooph.json": ["Add a cap of 4 rounds to loop l"],
    },
    "W_FANOUT_ON_COUPLED": {
        "invalid/W_FANOUT_ON_COUPLED/coupled-node-in-coupled-group.grooph.json": [
            "Run edge e1 one at a time (concurrency max 1)", "Run edge e1 one at a time (concurrency max 1)"],
        "invalid/W_FANOUT_ON_COUPLED/shared-artifact-even-when-merged.grooph.json": [],
        "invalid/W_FANOUT_ON_COUPLED/spec-example.grooph.json": ["Run edge e1 one at a time (concurrency max 1)"],
    },
    "W_GRAPH_UNRESOLVED": {"maps/invalid/W_GRAPH_UNRESOLVED/missing-file.grooph-map.json": []},
    "W_GROUP_OVERLAP": {"invalid/W_GROUP_OVERLAP/spec-example.grooph.json": []},
    "W_HOMOGENEOUS_CRITICS": {"invalid/W_HOMOGENEOUS_CRITICS/spec-example.grooph.json": []},
    "W_LONG_LOOP_NO_BUDGET": {
        "invalid/W_LONG_LOOP_NO_BUDGET/spec-example.grooph.json": ["Add a budget of 12 dispatches to loop l"]},
    "W_NO_TERMINAL": {
        "invalid/W_NO_TERMINAL/spec-example.grooph.json": ['Add a stop node "Done" after w'],
        "invalid/W_NO_TERMINAL/stop-node-unreachable.grooph.json": [],
    },
    "W_ONLY_MAX_ITERATIONS": {
        "invalid/W_ONLY_MAX_ITERATIONS/long-caps-only.grooph.json": ["Add a budget of 12 dispatches to loop l"],
        "invalid/W_ONLY_MAX_ITERATIONS/spec-example.grooph.json": ["Add a budget of 12 dispatches to loop l"],
    },
    "W_OUTPUT_NOT_WRITABLE": {
        "invalid/W_OUTPUT_NOT_WRITABLE/spec-example.grooph.json": ["Let w write its outputs (allow write-outputs)"]},
    "W_PERSON_FIELDS_NOT_READ": {
        "invalid/W_PERSON_FIELDS_NOT_READ/all-five-fields.grooph.json": ["Drop model, effort, skills, deny from person's"],
        "invalid/W_PERSON_FIELDS_NOT_READ/spec-example.grooph.json": ["Drop effort from person's step w"],
    },
    "W_UNKNOWN_KEY": {
        "invalid/W_UNKNOWN_KEY/keys-everywhere.grooph.json": ['Rename "lable" to "label"'],
        "invalid/W_UNKNOWN_KEY/spec-example.grooph.json": ['Rename "lable" to "label"'],
        "maps/invalid/W_UNKNOWN_KEY/keys-everywhere.grooph-map.json": [],
        "maps/invalid/W_UNKNOWN_KEY/misspelt-field.grooph-map.json": ['Rename "lifetme" to "lifetime"'],
    },
    "W_UNREACHABLE_NODE": {"invalid/W_UNREACHABLE_NODE/spec-example.grooph.json": []},
}

CASES = [(code, where, expected) for code, by_doc in PREFERRED.items() for where, expected in by_doc.items()]


def case_text(where: str, fixtures) -> tuple[str, str]:
    """(file name, text) of a case: a fixture, or the handmade enum typo."""
    if where == "<enum typo>":
        return "enum-typo.grooph.json", json.dumps(ENUM_TYPO, indent=2)
    path = fixtures / where
    return path.name, path.read_text("utf-8")
