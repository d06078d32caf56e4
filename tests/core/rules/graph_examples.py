"""The documents of graph.md §7 ("one example per code"), built from the spec's shorthands, with the
exact issue list (code, at) the spec gives for each. Shared by the graph rule tests."""

from __future__ import annotations

import copy

W = {"id": "w", "kind": "agent", "name": "W", "role": "builder", "brief": "Do it.", "outputs": ["out.txt"], "allow": ["edit-files"]}
END = {"id": "end", "kind": "stop", "name": "End"}
T = {"id": "t", "kind": "check", "name": "T", "check": {"kind": "tests", "run": "make test", "pass": "exit 0"}}
C = {"id": "c", "kind": "agent", "name": "C", "role": "critic", "model": {"tier": "frontier"}, "brief": "Judge.",
     "outputs": ["review.md"], "allow": ["write-outputs"]}
HEAD = {"grooph": 0, "id": "g", "name": "G", "version": 1}


def G(**fields) -> dict:
    """HEAD plus the given top-level fields (deep-copied)."""
    d = copy.deepcopy(HEAD)
    d.update(copy.deepcopy(fields))
    return d


def GRIND(stops: list, **loop_fields) -> dict:
    """graph.md §7 GRIND(stops): w -> t -> end with the back edge t -> w on fail, loop l over [w, t]."""
    loop = {"id": "l", "name": "L", "members": ["w", "t"], "back": ["e2"], **loop_fields, "stops": stops}
    return G(nodes=[W, T, END],
             edges=[{"id": "e1", "from": "w", "to": "t"}, {"id": "e2", "from": "t", "to": "w", "when": "fail"},
                    {"id": "e3", "from": "t", "to": "end", "when": "pass"}],
             loops=[loop])


def JUDGE(stops: list, **loop_fields) -> dict:
    """The judgment loop of the E_JUDGMENT_LOOP_NO_BAR example: w -> c, back c -> w."""
    loop = {"id": "l", "name": "L", "members": ["w", "c"], "back": ["e2"], **loop_fields, "stops": stops}
    return G(nodes=[W, C, END],
             edges=[{"id": "e1", "from": "w", "to": "c"}, {"id": "e2", "from": "c", "to": "w", "when": "fail"},
                    {"id": "e3", "from": "c", "to": "end", "when": "pass"}],
             loops=[loop])


E1 = [{"id": "e1", "from": "w", "to": "end"}]
X = {"id": "x", "kind": "agent", "name": "X", "role": "builder", "brief": "b", "outputs": ["o"], "allow": ["edit-files"]}
TEMPLATE = {"kind": "graph", "title": "T", "summary": "S", "whenToUse": "U", "profile": {"cost": "low", "speed": "fast", "rigor": "light"}}

# name -> (document, export flag, [(code, at), ...]) exactly as graph.md §7 states them.
EXAMPLES: dict[str, tuple[dict, bool, list[tuple[str, list[str]]]]] = {
    "E_DUPLICATE_ID": (G(nodes=[W, END], edges=[{"id": "w", "from": "w", "to": "end"}], loops=[]), False,
                       [("E_DUPLICATE_ID", ["w"])]),
    "E_DANGLING_REF": (G(nodes=[W, END], edges=[{"id": "e1", "from": "w", "to": "end"}, {"id": "e2", "from": "w", "to": "ghost"}],
                         loops=[]), False, [("E_DANGLING_REF", ["e2"])]),
    "E_LOOP_BACK_EDGE": (G(nodes=[W, END], edges=E1, loops=[{"id": "l", "name": "L", "members": ["w"], "back": [],
                                                              "stops": [{"kind": "budget", "measure": "dispatches", "limit": 6}]}]),
                         False, [("E_LOOP_BACK_EDGE", ["l"])]),
    "E_GROUP_CYCLE": (G(nodes=[W, END], edges=E1, loops=[], groups=[{"id": "ga", "name": "A", "members": ["gb"]},
                                                                     {"id": "gb", "name": "B", "members": ["ga", "w"]}]),
                      False, [("E_GROUP_CYCLE", ["ga", "gb"])]),
    "E_SECOND_LEAD": (G(nodes=[{"id": "l1", "kind": "agent", "name": "L1", "role": "lead", "brief": "Run.", "outputs": ["log"]},
                               {"id": "l2", "kind": "agent", "name": "L2", "role": "lead", "brief": "Run.", "outputs": ["log"]}, END],
                        edges=[{"id": "e1", "from": "l1", "to": "l2"}, {"id": "e2", "from": "l2", "to": "end"}], loops=[]),
                      False, [("E_SECOND_LEAD", ["l1", "l2"])]),
    "E_PERSON_LEAD": (G(nodes=[{"id": "boss", "kind": "agent", "name": "Boss", "by": "person", "role": "lead", "brief": "Run.",
                                "outputs": ["log"]}, END], edges=[{"id": "e1", "from": "boss", "to": "end"}], loops=[]),
                      False, [("E_PERSON_LEAD", ["boss"])]),
    "E_CYCLE_NO_STOP": (G(nodes=[{"id": "p", "kind": "agent", "name": "P", "role": "planner", "brief": "Plan.", "outputs": ["plan.md"],
                                  "allow": ["write-outputs"]}, W, END],
                          edges=[{"id": "e1", "from": "p", "to": "w"}, {"id": "e2", "from": "w", "to": "w"},
                                 {"id": "e3", "from": "w", "to": "end"}], loops=[]),
                        False, [("E_CYCLE_NO_STOP", ["w"])]),
    "E_JUDGMENT_LOOP_NO_BAR": (JUDGE([{"kind": "max-iterations", "n": 3}, {"kind": "budget", "measure": "dispatches", "limit": 8}]),
                               False, [("E_JUDGMENT_LOOP_NO_BAR", ["l"])]),
    "E_STOP_NOT_INSPECTABLE": (GRIND([{"kind": "bar-passed"}]), False,
                               [("E_STOP_NOT_INSPECTABLE", ["l"]), ("W_LONG_LOOP_NO_BUDGET", ["l"])]),
    "E_NO_TARGET": (G(goal="Write the file.", nodes=[W, END], edges=E1, loops=[]), True, [("E_NO_TARGET", ["g"])]),
    "E_NO_GOAL": (G(goal="   ", target={"harness": "claude-code"}, nodes=[W, END], edges=E1, loops=[]), True,
                  [("E_NO_GOAL", ["g"])]),
    "E_IS_TEMPLATE": (G(goal="Write {{thing}}.", target={"harness": "codex"}, template=TEMPLATE, nodes=[W, END], edges=E1, loops=[]),
                      True, [("E_IS_TEMPLATE", ["g"])]),
    "E_UNFILLED_SLOT": (G(goal="Fix {{area}}.", target={"harness": "codex"},
                          nodes=[{**W, "brief": "Fix {{ area }} only."}, END], edges=E1, loops=[]),
                        True, [("E_UNFILLED_SLOT", ["g", "w"])]),
    "E_PERSON_STEP_NOT_COMPILED": (G(goal="Do it.", target={"harness": "claude-code"},
                                     nodes=[{"id": "w", "kind": "agent", "name": "W", "by": "person", "role": "builder", "brief": "Do it.",
                                             "outputs": ["out.txt"]}, END], edges=E1, loops=[]),
                                   True, [("E_PERSON_STEP_NOT_COMPILED", ["w"])]),
    "E_CRITIC_NOT_ISOLATED": (G(nodes=[W, C, END], edges=[{"id": "e1", "from": "w", "to": "c", "isolation": "shared"},
                                                          {"id": "e2", "from": "c", "to": "end", "when": "pass"}],
                                loops=[], policies=[{"id": "iso", "kind": "critic-isolation", "scope": "graph"}]),
                              False, [("E_CRITIC_NOT_ISOLATED", ["e1", "c"])]),
    "E_OWNERSHIP_CONFLICT": (G(nodes=[{"id": "a", "kind": "agent", "name": "A", "role": "builder", "brief": "b", "outputs": ["x"],
                                       "allow": ["edit-files"], "owns": ["src"]},
                                      {"id": "b", "kind": "agent", "name": "B", "role": "builder", "brief": "b", "outputs": ["y"],
                                       "allow": ["edit-files"], "owns": ["src"]}, END],
                               edges=[{"id": "e1", "from": "a", "to": "b"}, {"id": "e2", "from": "b", "to": "end"}], loops=[]),
                             False, [("E_OWNERSHIP_CONFLICT", ["a", "b"])]),
    "E_IRREVERSIBLE_NO_GATE": (G(nodes=[W, {"id": "pub", "kind": "agent", "name": "Pub", "role": "builder", "brief": "Publish.",
                                            "outputs": ["release"], "allow": ["write-outputs"], "irreversible": ["publish"]}, END],
                                 edges=[{"id": "e1", "from": "w", "to": "pub"}, {"id": "e2", "from": "pub", "to": "end"}], loops=[]),
                               False, [("E_IRREVERSIBLE_NO_GATE", ["pub", "e1"])]),
    "W_HOMOGENEOUS_CRITICS": (G(nodes=[{"id": "w", "kind": "agent", "name": "W", "role": "builder", "model": {"tier": "strong"},
                                        "brief": "b", "outputs": ["o"], "allow": ["edit-files"]},
                                       {"id": "c", "kind": "agent", "name": "C", "role": "critic", "model": {"tier": "strong"},
                                        "brief": "j", "outputs": ["r"], "allow": ["write-outputs"]}, END],
                                edges=[{"id": "e1", "from": "w", "to": "c"}, {"id": "e2", "from": "c", "to": "end", "when": "pass"}],
                                loops=[]),
                              False, [("W_HOMOGENEOUS_CRITICS", ["w", "c"])]),
    "W_FANOUT_ON_COUPLED": (G(nodes=[{"id": "p", "kind": "agent", "name": "P", "role": "planner", "brief": "b", "outputs": ["o"],
                                      "allow": ["write-outputs"]},
                                     {"id": "m", "kind": "agent", "name": "M", "coupled": True, "role": "builder", "brief": "b",
                                      "outputs": ["o"], "allow": ["edit-files"]}, END],
                              edges=[{"id": "e1", "from": "p", "to": "m", "concurrency": {"max": 3}}, {"id": "e2", "from": "m", "to": "end"}],
                              loops=[]),
                            False, [("W_FANOUT_ON_COUPLED", ["e1", "m"])]),
    "W_LONG_LOOP_NO_BUDGET": (GRIND([{"kind": "human"}, {"kind": "max-iterations", "n": 8}]), False, [("W_LONG_LOOP_NO_BUDGET", ["l"])]),
    "W_ASPIRATION_AS_ACCEPTANCE": (GRIND([{"kind": "bar-passed"}, {"kind": "max-iterations", "n": 3}],
                                         bar={"name": "Green", "inspects": [{"kind": "file", "ref": "report.txt"}],
                                              "acceptance": "All tests pass.", "aspiration": "all  TESTS pass. "}),
                                   False, [("W_ASPIRATION_AS_ACCEPTANCE", ["l"])]),
    "W_ONLY_MAX_ITERATIONS": (GRIND([{"kind": "max-iterations", "n": 4}]), False, [("W_ONLY_MAX_ITERATIONS", ["l"])]),
    "W_UNREACHABLE_NODE": (G(nodes=[W, X, END], edges=[{"id": "e1", "from": "w", "to": "end"}, {"id": "e2", "from": "ghost", "to": "x"}],
                             loops=[]),
                           False, [("E_DANGLING_REF", ["e2"]), ("W_UNREACHABLE_NODE", ["x"])]),
    "W_UNREACHABLE_NODE (no entry)": (
        G(nodes=[X, W, T, END],
          edges=[{"id": "e0", "from": "x", "to": "w"}, {"id": "e1", "from": "w", "to": "t"},
                 {"id": "e2", "from": "t", "to": "w", "when": "fail"}, {"id": "e3", "from": "t", "to": "end", "when": "pass"}],
          loops=[{"id": "l", "name": "L", "members": ["w", "t"], "back": ["e2"],
                  "stops": [{"kind": "max-iterations", "n": 3, "then": "x"}, {"kind": "budget", "measure": "dispatches", "limit": 9}]}]),
        False, [("W_UNREACHABLE_NODE", ["x"]), ("W_UNREACHABLE_NODE", ["w"]), ("W_UNREACHABLE_NODE", ["t"]),
                ("W_UNREACHABLE_NODE", ["end"]), ("W_NO_TERMINAL", ["g"])]),
    "W_NO_TERMINAL": (G(nodes=[W], edges=[], loops=[]), False, [("W_NO_TERMINAL", ["g"])]),
    "W_OUTPUT_NOT_WRITABLE": (G(nodes=[{"id": "w", "kind": "agent", "name": "W", "role": "researcher", "brief": "Look.",
                                        "outputs": ["notes.md"]}, END], edges=E1, loops=[]),
                              False, [("W_OUTPUT_NOT_WRITABLE", ["w"])]),
    "W_PERSON_FIELDS_NOT_READ": (G(nodes=[{"id": "w", "kind": "agent", "name": "W", "by": "person", "role": "builder", "effort": "high",
                                           "brief": "b", "outputs": ["o"]}, END], edges=E1, loops=[]),
                                 False, [("W_PERSON_FIELDS_NOT_READ", ["w"])]),
    "W_GROUP_OVERLAP": (G(nodes=[W, END], edges=E1, loops=[], groups=[{"id": "ga", "name": "A", "members": ["w"]},
                                                                       {"id": "gb", "name": "B", "members": ["w"]}]),
                        False, [("W_GROUP_OVERLAP", ["w", "ga", "gb"])]),
}
