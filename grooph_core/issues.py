"""The issue object, the typed facts a rule hands to its repair, and the registry of codes
(spec/graph.md §3.1, §5; spec/map.md §4).

An `Issue` names the objects involved by id in `at`, exactly as the spec says, and also carries the
JSON pointers of the exact values involved, so that the source map (and only the source map) can
turn them into text ranges.

Where a code's pieces live (one name finds each): its entry here in `CODES`; its rule's registration
line in `rules/<kind>/__init__.py` `RULES` (whose order is the spec's rule order); its facts, a frozen
`Facts` subclass beside the rule that makes them, whose `code` names it; its repair builder in the
`BUILDERS` table of `ops/graph_repairs.py`, `ops/map_repairs.py` or `ops/edit_repairs.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Facts:
    """What a rule found out about one issue that its repair needs (operations.md §8.3: a repair reads
    facts, never the English message). One frozen subclass per code (per document kind where graphs
    and maps raise the same code with different facts); `code` says which, and `make` refuses facts
    of another code."""

    code: ClassVar[str] = ""


@dataclass(frozen=True)
class Named(Facts):
    """The facts of a code about one name the text spells (a status, a role, a run state, a lane, a
    task): `name`, as written, whose characters a rename replaces and that the editor looks for in a
    cut region. Each such code has its own subclass beside its rule."""

    name: str


@dataclass(frozen=True)
class SchemaProblem(Facts):
    """E_SCHEMA (graph.md §4, map.md §5): what kind of structural problem (`problem`: "type", "empty",
    "min_length", "pattern", "integer", "minimum", "const", "enum", "min_items", "record_key",
    "missing", "discriminator", "alternatives"; the reader's "not_json", §3.2 step 1) at the message
    path `path`, with what the schema expected: the `expected` type's name, the `pattern`, the
    `minimum`, the `allowed` values (document order), the missing or discriminating `field`. `fields`
    is the editor's grouping of every field an object lacks (`ide.grooph.analysis.one_per_object`). Here, not
    beside a rule, because two layers raise the code: the reader (source/) and the check (schema/)."""

    code = "E_SCHEMA"
    problem: str
    path: str = ""
    expected: str | None = None
    pattern: str | None = None
    minimum: int | float | None = None
    allowed: tuple = ()
    field: str | None = None
    fields: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Issue:
    """One finding. `pointers[0]` is the primary place; the rest and `related` are other places.

    `on_key` says the primary pointer names an object member whose *key* is the target (an unknown
    key, the object missing a required field); otherwise the target is the value at the pointer.
    `related` holds (pointer, note) pairs for places that explain the issue (the first copy of a
    duplicate id, the loop that owns a back edge). `facts` is the code's typed `Facts` (for the codes
    whose rule states any). `span` is where a reader's problem stands in the text (character offsets;
    E_SYNTAX, W_DUPLICATE_KEY, W_NUMBER_PRECISION, E_DOC_LIMIT), a place like `pointers` and so a field
    of every issue rather than a fact of one code: a text that cannot be read has no pointer to place.
    `related_spans` holds (start, end, note) for the other places in the text (the other copies of a
    duplicated key, which share one pointer).
    """

    code: str
    severity: Severity
    message: str
    at: tuple[str, ...] = ()
    pointers: tuple[str, ...] = ()
    on_key: bool = False
    related: tuple[tuple[str, str], ...] = ()
    facts: Facts | None = field(default=None, compare=False, hash=False)
    span: tuple[int, int] | None = field(default=None, compare=False, hash=False)
    related_spans: tuple[tuple[int, int, str], ...] = field(default=(), compare=False, hash=False)

    def to_json(self) -> dict:
        """The issue object of graph.md §3.1, keys in order."""
        return {"code": self.code, "severity": self.severity, "message": self.message, "at": list(self.at)}

    def line(self) -> str:
        """The one-line text form (graph.md §3.1, cli.md §0.5)."""
        s = f"{self.severity}  {self.code}  {self.message}"
        if self.at:
            s += "  [at: " + ", ".join(self.at) + "]"
        return s


def make(code: str, message: str, at=(), pointers=(), *, on_key: bool = False, related=(), facts: Facts | None = None,
         span: tuple[int, int] | None = None, related_spans=()) -> Issue:
    """Build an issue with the severity the registry gives its code (and its typed facts, if any)."""
    if facts is not None and facts.code != code:
        raise ValueError(f"{type(facts).__name__} are the facts of {facts.code}, not of {code}")
    return Issue(code, CODES[code].severity, message, tuple(at), tuple(pointers), on_key, tuple(related), facts,
                 None if span is None else tuple(span), tuple(related_spans))


@dataclass(frozen=True)
class Code:
    """What the registry knows of a code: severity, a title, the usual repair, and where it applies.

    `whole_shape`: the code's findings are about the whole document's shape, so while the editor has
    left part of a broken text out they would be echoes of the omission, not faults of the text (a
    node whose only way in was cut looks unreachable); the editor does not say them then."""

    code: str
    title: str
    repair: str
    applies_to: tuple[str, ...]  # "graph", "map", "editor", "workflow", "board", "episodes"
    export_only: bool = False
    spec: str = ""
    whole_shape: bool = False

    @property
    def severity(self) -> Severity:
        return "error" if self.code.startswith("E_") else "warning"


def _c(code, title, repair, applies_to=("graph",), export_only=False, spec="", whole_shape=False):
    return Code(code, title, repair, tuple(applies_to), export_only, spec, whole_shape)


_REGISTRY = [
    _c("E_SCHEMA", "The document does not have the shape the format requires",
       "Set the field to a value the schema accepts (updateNode/updateEdge/updateLoop with a set patch, setStop, setBar, setGraphField, setTarget).",
       ("graph", "map"), spec="graph.md §4, map.md §5"),
    _c("E_DUPLICATE_ID", "An id is used by more than one object",
       "Give one of the objects a new id.", ("graph", "map"), spec="graph.md §5, map.md §6.1"),
    _c("E_DANGLING_REF", "A reference names no object of the required kind",
       "Point the reference at an object that exists, or add the missing object.", ("graph", "map"),
       spec="graph.md §5, map.md §6.2"),
    _c("E_LOOP_BACK_EDGE", "A loop's back edges are missing or do not close a cycle inside its members",
       "Make the cycle's nodes members, then mark the returning edge with toggleLoopBack.", spec="graph.md §5"),
    _c("E_GROUP_CYCLE", "Groups contain each other in a ring",
       "Remove the inner group's id from one group's members.", spec="graph.md §5"),
    _c("E_SECOND_LEAD", "More than one lead node",
       "Keep one lead; give the others the role that says what they do.", spec="graph.md §5", whole_shape=True),
    _c("E_PERSON_LEAD", "The lead is marked as a person's step",
       "Remove the person mark (by: null) or give the node a non-lead role.", spec="graph.md §5"),
    _c("E_CYCLE_NO_STOP", "A cycle that no loop with a stop covers",
       "Wrap the cycle in a loop with a back edge, a max-iterations stop and a budget.", spec="graph.md §5", whole_shape=True),
    _c("E_JUDGMENT_LOOP_NO_BAR", "A judgment loop without an inspectable bar",
       "Give the loop a bar with something a critic can examine (setBar).", spec="graph.md §5"),
    _c("E_STOP_NOT_INSPECTABLE", "A loop that stops only when a bar nobody can inspect passes",
       "Give the bar an inspectable entry and add a max-iterations stop.", spec="graph.md §5"),
    _c("E_NO_TARGET", "No known target harness (export)", "setTarget {harness: \"claude-code\"} (or codex).",
       export_only=True, spec="graph.md §5"),
    _c("E_NO_GOAL", "No goal (export)", "setGraphField goal with the goal in the person's words.",
       export_only=True, spec="graph.md §5"),
    _c("E_IS_TEMPLATE", "The document is a template (export)", "Instantiate the template first.",
       export_only=True, spec="graph.md §5"),
    _c("E_UNFILLED_SLOT", "A {{slot}} is still in the text (export)", "Ask the person for the value and set the field.",
       export_only=True, spec="graph.md §5", whole_shape=True),
    _c("E_PERSON_STEP_NOT_COMPILED", "Person steps cannot go into a harness package (export)",
       "Export as a plan; only if the person says so, make the steps agents' steps.", export_only=True,
       spec="graph.md §5", whole_shape=True),
    _c("E_CRITIC_NOT_ISOLATED", "A critic under a critic-isolation policy sees shared context or no evidence",
       "Switch the edge to fresh isolation and give it an evidence list.", spec="graph.md §5"),
    _c("E_OWNERSHIP_CONFLICT", "An artifact has several owners and no merge",
       "Leave one owner, or add a merge node that lists the artifact.", spec="graph.md §5", whole_shape=True),
    _c("E_IRREVERSIBLE_NO_GATE", "An irreversible action with no human gate or approval before it",
       "Put a human gate before the node, or mark the way in with approval: true.", spec="graph.md §5", whole_shape=True),
    _c("W_HOMOGENEOUS_CRITICS", "Critics judge work made on the same model",
       "Give the critic another model tier or pin.", spec="graph.md §5", whole_shape=True),
    _c("W_FANOUT_ON_COUPLED", "Parallel fan-out into coupled work", "Set the edge's concurrency max to 1.",
       spec="graph.md §5"),
    _c("W_LONG_LOOP_NO_BUDGET", "A loop with neither a budget nor a short cap", "Add a budget stop.",
       spec="graph.md §5"),
    _c("W_ASPIRATION_AS_ACCEPTANCE", "A bar's aspiration is used as its acceptance",
       "Make the acceptance a concrete, checkable statement.", spec="graph.md §5"),
    _c("W_ONLY_MAX_ITERATIONS", "A loop whose only stop is a max-iterations cap",
       "Add a stop that says when the work is good enough.", spec="graph.md §5"),
    _c("W_UNREACHABLE_NODE", "A node no path from an entry reaches", "Connect the node, or remove it.",
       spec="graph.md §5", whole_shape=True),
    _c("W_NO_TERMINAL", "No stop node can be reached", "Add a stop node and connect it.", spec="graph.md §5", whole_shape=True),
    _c("W_OUTPUT_NOT_WRITABLE", "A node has outputs but no capability to write them",
       "Allow write-outputs (or edit-files).", spec="graph.md §5"),
    _c("W_PERSON_FIELDS_NOT_READ", "Agent-only fields on a person's step", "Remove the fields no person reads.",
       spec="graph.md §5"),
    _c("W_GROUP_OVERLAP", "A node sits in groups that do not nest", "Keep the node in one group.",
       spec="graph.md §5"),
    _c("W_UNKNOWN_KEY", "A key the format does not declare", "Rename it to the declared field it was meant to be, or remove it.",
       ("graph", "map", "workflow", "board", "episodes"),
       spec="graph.md §5, map.md §6.9, workflow.md §3.2, board.md §3, episodes.md §3"),
    _c("W_DOC_TOO_LARGE", "The document is larger than 24,000 characters", "Shorten long texts or split the graph.",
       ("graph", "map"), spec="graph.md §5, map.md §6.10", whole_shape=True),
    _c("E_HANDOFF_NO_CARRIER", "A handoff with no carrier", "Give the handoff a carrier both ends can reach.",
       ("map",), spec="map.md §6.3"),
    _c("W_CARRIER_CANNOT_CROSS", "A carrier that cannot cross between the two ends",
       "Choose a carrier both ends can reach.", ("map",), spec="map.md §6.4"),
    _c("W_NOTIFY_NOT_PERSON", "A notification that does not reach a person", "Point the notification at a person.",
       ("map",), spec="map.md §6.5"),
    _c("W_SESSION_ISLAND", "A session no handoff touches", "Connect the session with a handoff, or remove it.",
       ("map",), spec="map.md §6.6", whole_shape=True),
    _c("W_NO_RETURN", "Work goes into a session and nothing comes out", "Add a handoff out of the session.",
       ("map",), spec="map.md §6.7", whole_shape=True),
    _c("W_GRAPH_UNRESOLVED", "A session's graph pointer names no readable graph", "Fix the path, or create the graph.",
       ("map",), spec="map.md §6.8"),
    # Editor-only codes: the reference never raises these; the editor adds them (graph.md §3.2).
    _c("E_SYNTAX", "The text is not valid JSON (or, for a workflow, YAML) here", "Fix the syntax at this spot.",
       ("editor", "workflow", "board", "episodes"), spec="graph.md §3.2 (editor diagnostics), workflow.md §0, §1"),
    _c("W_DUPLICATE_KEY", "A key appears twice in one object; the first value is lost",
       "Remove one of the two copies.", ("editor", "board", "episodes"), spec="graph.md §9 (Parsing), workflow.md §0"),
    _c("W_NUMBER_PRECISION", "A number that does not survive as an IEEE double",
       "Write the number as a string, or with fewer digits.", ("editor", "board", "episodes"),
       spec="graph.md §0.5, workflow.md §0"),
    _c("E_DOC_LIMIT", "The document is too large or too deeply nested to analyse",
       "Split the document.", ("editor",), spec="editor limit"),
]

_W, _B, _EP = ("workflow",), ("board",), ("episodes",)
_REGISTRY += [
    # Board workflows (spec/workflow.md §3): what Workflow::check() refuses, then the warnings.
    _c("E_WF_SCHEMA", "The workflow does not have the shape the engine reads (serde refuses it)",
       "Give the field a value of its type: add the missing field, fix the word or remove the refused key.", _W,
       spec="workflow.md §2, §3.1"),
    _c("E_WF_UNKNOWN_STATUS", "A card transition targets a status the workflow does not have",
       "Point the target at an existing status, or add the status under statuses.", _W, spec="workflow.md §3.1"),
    _c("E_WF_UNKNOWN_SOURCE_STATUS", "A verb's transition lists a source status that does not exist",
       "Name an existing status in from, or add the status.", _W, spec="workflow.md §3.1"),
    _c("E_WF_NO_INITIAL_RUN_STATE", "The run machine's initial state is not one of its states",
       "Set run.initial to a key of run.states, or add that state.", _W, spec="workflow.md §3.1"),
    _c("E_WF_UNKNOWN_RUN_STATE", "A run-machine transition targets a run state that does not exist",
       "Point the target at a key of run.states, or add the state.", _W, spec="workflow.md §3.1"),
    _c("E_WF_UNKNOWN_ROLE", "A run names a role the workflow's roles do not have",
       "Name a key of roles, or add the role.", _W, spec="workflow.md §3.1"),
    _c("E_WF_UNKNOWN_RUN_SPEC", "A status's run_role names no run specification of the run machine",
       "Name a key of run.roles, or add the run specification.", _W, spec="workflow.md §3.1"),
    _c("W_WF_RESUME_AS_UNKNOWN", "A status resumes as a status that does not exist",
       "Name an existing status in resume_as.", _W, spec="workflow.md §3.2"),
    _c("W_WF_UNREACHABLE_STATUS", "No transition can bring a card into this status",
       "Add a transition that targets it, or remove the status.", _W, spec="workflow.md §3.2", whole_shape=True),
    _c("W_WF_UNKNOWN_PARAM", "An expression reads a param the workflow does not declare",
       "Declare the param under params, or fix its name.", _W, spec="workflow.md §3.2"),
    _c("W_WF_UNKNOWN_RECURRING_ROLE", "run.recurring_role names no run specification",
       "Name a key of run.roles.", _W, spec="workflow.md §3.2"),
    _c("W_WF_UNKNOWN_BY_ROLE", "A transition's by names no role (nor platform or manager)",
       "Name a key of roles, platform or manager.", _W, spec="workflow.md §3.2"),
    _c("W_WF_START_UNHANDLED", "No status, workflow on or verb handles the dispatcher's start event",
       "Handle the start event in a status's on, or change dispatch.start.", _W, spec="workflow.md §3.2", whole_shape=True),
    _c("W_WF_STORED_AS_UNKNOWN", "A stored_as that kanban.db does not hold",
       "Use one of triage, todo, scheduled, ready, running, blocked, review, done, archived.", _W,
       spec="workflow.md §3.2"),
    # Boards (spec/board.md §3).
    _c("E_BOARD_SCHEMA", "The board does not have the shape the record requires (serde refuses it)",
       "Give the field a value of its type, or add the missing field.", _B, spec="board.md §2, §3"),
    _c("E_BOARD_TASK_ID", "A task's key in tasks differs from its id",
       "Make the key and the id the same.", _B, spec="board.md §3"),
    _c("E_BOARD_DANGLING_DEPENDENCY", "A dependency names a task the board does not have",
       "Name an existing task, or remove the dependency.", _B, spec="board.md §3"),
    _c("E_BOARD_DEPENDENCY_CYCLE", "Dependencies form a cycle: no task on it can ever be ready",
       "Remove one dependency of the cycle.", _B, spec="board.md §3"),
    _c("E_BOARD_DANGLING_SUBTASK_OF", "subtask_of names no task, the task itself, or leads back to it",
       "Name an existing arc task that is not the task itself.", _B, spec="board.md §3"),
    _c("E_BOARD_DUPLICATE_ATTEMPT", "An attempt id is used twice on the board",
       "Give the later attempt its own id.", _B, spec="board.md §3"),
    _c("W_BOARD_UNKNOWN_LANE", "A lane word the model does not list (it reads as unknown)",
       "Use one of the lanes: triage, todo, scheduled, ready, running, blocked, review, done, archived.", _B,
       spec="board.md §3"),
    _c("W_BOARD_UNKNOWN_WORKSPACE_KIND", "A workspace kind the model does not list (it reads as unknown)",
       "Use scratch, dir or worktree.", _B, spec="board.md §3"),
    _c("W_BOARD_TIMESTAMP", "A timestamp that is not RFC 3339, or an end before its start",
       "Write it as RFC 3339 (2025-01-31T09:30:00Z), and the end after the start.", _B, spec="board.md §2, §3"),
    _c("W_BOARD_READY_TOO_SOON", "A task is ready, running or attempted while a parent is not done",
       "Finish the parent first, or move the task back to todo.", _B, spec="board.md §3", whole_shape=True),
    _c("W_BOARD_DONE_UNDATED", "A done task without completed_at, or a completed_at on a task not done",
       "Record completed_at when the task is done, and only then.", _B, spec="board.md §3"),
    # Episode records (spec/episodes.md §3).
    _c("E_EPISODES_SCHEMA", "The record does not satisfy the Episodes schema",
       "Give the property a value the schema accepts, or add the missing property.", _EP, spec="episodes.md §2, §3"),
    _c("E_EPISODES_CURRENT_NOT_LISTED", "current names no row of episodes",
       "Name the session_id of one of the rows, or leave current out.", _EP, spec="episodes.md §3", whole_shape=True),
    _c("E_EPISODES_STANDING", "The row current names does not stand current, or another row does",
       "Make the row current names stand current, and no other.", _EP, spec="episodes.md §3", whole_shape=True),
    _c("E_EPISODES_EMPTY_NOTE", "A row's note is empty: a standing must say why",
       "Write in words why the episode stands where it does.", _EP, spec="episodes.md §3"),
    _c("E_EPISODES_ABSENT_STORE", "present is false, yet the record lists episodes, a current or findings",
       "Set present to true, or empty the lists.", _EP, spec="episodes.md §3"),
    _c("E_EPISODES_DUPLICATE", "Two rows have one session_id", "Remove the second row, or fix its id.", _EP,
       spec="episodes.md §3"),
    _c("W_EPISODES_EMPTY_FIELD", "An optional field written as an empty string",
       "Leave the field out: absence stays absence.", _EP, spec="episodes.md §3"),
    _c("W_EPISODES_ORDER", "Rows are not newest first by recorded start", "Order the rows newest first.", _EP,
       spec="episodes.md §3", whole_shape=True),
    _c("W_EPISODES_ACTIVITY", "No events, yet a last activity is recorded",
       "Remove last_activity and last_event, or correct events.", _EP, spec="episodes.md §3"),
    _c("W_EPISODES_WORKTREE", "A row's worktree contradicts its standing",
       "Correct the standing or the worktree.", _EP, spec="episodes.md §3"),
]

CODES: dict[str, Code] = {c.code: c for c in _REGISTRY}


def whole_shape_codes(kind: str) -> frozenset[str]:
    """The codes of one document kind whose findings are about the whole document (`Code.whole_shape`)."""
    return frozenset(c.code for c in _REGISTRY if c.whole_shape and kind in c.applies_to)
