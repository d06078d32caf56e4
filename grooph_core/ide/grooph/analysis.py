"""Analysis of a document's text for editors: syntax problems, every rule, and a span for each issue.

Two modes (issue 3, README "Validation modes"):

- **strict** (`tolerant=False`): exactly the reference's result (graph.md §3.2): not-JSON gives one
  `E_SCHEMA`; a schema failure stops every other rule. The command line uses this.
- **tolerant** (`tolerant=True`, the language server): syntax problems at their exact spots, the
  structural issues, and the semantic rules run on the sound parts of the document. Top-level items
  (a node, an edge, a session …) that fail the structural check or lie in a broken region are left
  out of the rules rather than guessed at, and issues that would only be echoes of leaving them out
  are suppressed (issue 13): a left-out object whose `id` can be read still counts as present for
  references; an item that names a left-out object, directly or through another item in doubt (an
  edge from it, a loop over it, a policy on that loop), gets no finding that depends on what it
  names (loop kinds, critics, back edges); whole-shape findings (reachability, cycles) are not made.

The core speaks character offsets; converting them to LSP positions is the server's business.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field, replace

from grooph_core.ide.document import DocumentAnalysis, placed_span, still_open
from grooph_core.issues import Issue, SchemaProblem, whole_shape_codes
from grooph_core.rules.document_walk import DocumentWalk, walk_document
from grooph_core.rules.graph.references import DanglingRef
from grooph_core.rules.map.references import MapDanglingRef
from grooph_core.rules.rule_memo import RuleMemo
from grooph_core.rules.validate import Resolver, rule_issues
from grooph_core.schema.check import not_json_issue, schema_issues
from grooph_core.semantics.references import ID_LISTS, accepted_kinds, occurrences
from grooph_core.source.json_reader import MAX_CHARS, ParsedText
from grooph_core.source.json_splice import reading
from grooph_core.source.kinds import Kind, detect_kind
from grooph_core.source.text import pointer_split, value_at

# Top-level arrays whose items the tolerant mode can leave out one by one.
ITEM_LISTS: dict[str, tuple[str, ...]] = {
    "graph": ("nodes", "edges", "loops", "policies", "groups", "notes"),
    "map": ("lanes", "people", "sessions", "handoffs"),
}
# Required top-level fields and the stand-in the tolerant mode uses when they are unusable.
ROOT_STAND_INS: dict[str, dict[str, object]] = {
    "graph": {"grooph": 0, "id": "graph", "name": "", "version": 0, "nodes": [], "edges": [], "loops": []},
    "map": {"groophMap": 0, "id": "map", "name": "", "version": 0, "lanes": [], "sessions": [], "handoffs": []},
}
# Codes whose findings are about the whole document's shape (the registry's `Code.whole_shape`): when
# anything was left out they would be echoes of the omission, not faults of the text.
WHOLE_SHAPE_CODES = whole_shape_codes("graph") | whole_shape_codes("map")
_ID_HEAD = re.compile(r"[A-Za-z0-9_-]*")
# Fields whose strings name other objects (graph.md §1.11 and §5.8, map.md §2.8; a policy scope is
# "loop:<id>" or "node:<id>"). An item that names an object in doubt is in doubt itself (issue 13).
REFERENCE_FIELDS = frozenset({"from", "to", "members", "back", "scope", "lane"})
# The lists whose items hold references (nodes, lanes and people name nothing).
REFERRING_LISTS = frozenset({"edges", "loops", "policies", "groups", "sessions", "handoffs"})
# Findings on an item in doubt that depend on the item alone (its own stops, bar text, keys): kept.
# A dangling reference it makes to an object that is nowhere in the text is kept too.
LOCAL_CODES = frozenset({
    "E_DANGLING_REF", "W_UNKNOWN_KEY", "E_DUPLICATE_ID", "W_ONLY_MAX_ITERATIONS", "W_LONG_LOOP_NO_BUDGET",
    "W_ASPIRATION_AS_ACCEPTANCE", "W_GRAPH_UNRESOLVED",
})
# ... and variants of a code that do (a handoff with no carrier at all lacks one whatever its ends).
LOCAL_VARIANTS = frozenset({("E_HANDOFF_NO_CARRIER", "missing")})


@dataclass(frozen=True)
class Analysis(DocumentAnalysis):
    """A graph's or a map's analysis."""

    text: str
    kind: Kind
    parsed: ParsedText
    issues: tuple[Issue, ...]
    pruned: tuple[str, ...] = ()  # pointers of top-level items left out of the rules
    _lines: list = field(default_factory=list, compare=False, repr=False)
    # The reference pipeline's answer (validate.validate_value) on this value, when the analysis ran
    # exactly that (a text that parsed cleanly and passed the structure check): (export, whether
    # without a resolver, issues). The §8.2 checks of a quick fix start from it rather than validate the document again.
    reference: tuple | None = field(default=None, compare=False, repr=False)
    # What the repair builders read of this value, computed on first use (actions.repair_memo).
    memo: dict = field(default_factory=dict, compare=False, repr=False)
    # The editor's structural check, unknown keys and size of this value per top-level part, which the
    # next analysis (`previous`) takes for the parts it still has (rules/document_walk.py).
    walk: DocumentWalk | None = field(default=None, compare=False, repr=False)
    # While the text does not read clean, the last clean reading of the document before it (`base`).
    earlier: ParsedText | None = field(default=None, compare=False, repr=False)
    # What the rules found, for the next version's analysis to keep (rules/rule_memo.py; clean texts only).
    rule_memo: RuleMemo | None = field(default=None, compare=False, repr=False)

    @property
    def base(self) -> ParsedText | None:
        """The last clean reading of this document (this version's, or while it does not read clean the
        last one that did): the next version's reading is spliced from it (`json_splice`, issue 33 item 2)."""
        p = self.parsed
        return p if p.ok and not p.problems and type(p.value) is dict else self.earlier

    @property
    def reusable(self) -> bool:
        return self.base is not None

    def pointer_span(self, pointer: str, *, key: bool = False) -> tuple[int, int]:
        return pointer_span(self.parsed, pointer, key=key)


def pointer_span(parsed: ParsedText, pointer: str, *, key: bool = False) -> tuple[int, int]:
    """The smallest true span for a pointer (issue 3, README "Where diagnostics point").

    A scalar value is its own span. The target is the member's key instead when the key is asked
    for (`on_key`), when the pointer names nothing (a missing field: its object is shown) or when the
    value is an object or array written over several lines (a squiggle over a whole block says
    less than one under its name). An array item has no key: its `id` value stands for it, else its
    opening bracket. The root is shown by the document's `id` value, else its first character.
    """
    sm = parsed.source_map
    p = pointer
    while True:
        vs = sm.value_span(p)
        if vs is not None:
            if p == "":
                return _root_span(parsed)
            name_it = key or p != pointer or "\n" in parsed.text[vs[0]:vs[1]] or "\r" in parsed.text[vs[0]:vs[1]]
            if not name_it:
                return vs
            ks = sm.key_span(p)
            if ks is not None:
                return ks
            ids = sm.value_span(p + "/id")
            if ids is not None and parsed.text[ids[0]:ids[0] + 1] == '"':
                return ids
            return (vs[0], vs[0] + 1)
        if p == "":
            return (0, 0)
        p = p[: p.rfind("/")]


def _root_span(parsed: ParsedText) -> tuple[int, int]:
    """A root-level issue (no goal, too large …) is shown on the document's `id` value, else its `{`."""
    sm = parsed.source_map
    s = sm.value_span("/id")
    if s is not None:
        return s
    r = sm.value_span("")
    if r is None:
        return (0, 0)
    return (r[0], min(r[0] + 1, r[1]))


def issue_span(parsed: ParsedText, issue: Issue) -> tuple[int, int]:
    """The character span a graph's or map's issue points at."""
    return placed_span(issue, lambda pointer, key=False: pointer_span(parsed, pointer, key=key))


def analyze(text: str, *, name: str | None = None, export: bool = False, resolver: Resolver | None = None,
            tolerant: bool = True, max_chars: int = MAX_CHARS, previous: Analysis | None = None) -> Analysis:
    """Parse and validate one text. Never raises on any input.

    `previous` is the editor's analysis of an earlier version of the same document with the same settings
    (the scheduler's newest); the incremental analysis (issue 33, item 2) reuses what the edit left alone:
    the text is read from its last clean reading (`json_splice`), the same reading as read whole.
    """
    earlier = previous.base if isinstance(previous, Analysis) else None
    parsed = reading(text, max_chars=max_chars, earlier=earlier)
    a = _analyze(text, parsed, name=name, export=export, resolver=resolver, tolerant=tolerant, previous=previous)
    if earlier is not None and a.base is None:
        return replace(a, earlier=earlier)  # a text that does not read clean: the last clean reading stays the base
    return a


def _analyze(text: str, parsed: ParsedText, *, name: str | None, export: bool, resolver: Resolver | None,
             tolerant: bool, previous: Analysis | None) -> Analysis:
    value = parsed.value
    kind = detect_kind(name, value)
    problems = list(parsed.problems)
    if any(p.code == "E_DOC_LIMIT" for p in problems):
        return Analysis(text, kind, parsed, tuple(p for p in problems if p.code == "E_DOC_LIMIT"))
    if not tolerant:
        if not parsed.ok:
            first = next((p for p in problems if p.code == "E_SYNTAX"), None)
            explanation = first.message if first else "the text cannot be read as JSON"
            return Analysis(text, kind, parsed, (not_json_issue(explanation),))
        schema = schema_issues(value, kind)
        if schema:
            return Analysis(text, kind, parsed, tuple(schema))
        return Analysis(text, kind, parsed, tuple(rule_issues(value, kind, export=export, resolver=resolver)))

    if value is None:
        return Analysis(text, kind, parsed, tuple(problems))
    walk = walk_document(value, kind, previous.walk if isinstance(previous, Analysis) else None)
    schema = walk.schema_issues() if walk is not None else schema_issues(value, kind)
    if parsed.ok and not schema:
        memo = RuleMemo(previous.rule_memo if previous is not None and previous.kind == kind else None)
        rules = tuple(rule_issues(value, kind, export=export, resolver=resolver, memo=memo, walk=walk))
        return Analysis(text, kind, parsed, tuple(problems) + rules, reference=(export, resolver is None, rules),
                        rule_memo=memo, walk=walk)
    broken = set(parsed.broken)
    # In broken text, structural findings inside a cut region are echoes of the syntax error; in a
    # text cut short, a field an object it ends inside lacks may still follow, and a list it ends inside
    # keeps its items before the cut (the cut one is listed itself).
    cut_lists = {p for p in parsed.open_at_end if isinstance(value_at(value, p), list)}
    cut = broken - {""} - cut_lists
    schema = [i for i in schema if not _echoes_a_cut(i, broken, cut) and not may_follow(i, parsed)]
    rules, pruned = _tolerant_rules(value, kind, schema, broken - cut_lists, parsed.open_at_end, export=export,
                                    resolver=resolver, walk=walk)
    same_kind = previous is not None and previous.kind == kind
    kept = previous.rule_memo if same_kind else None  # the last clean one's
    # the last clean reading's walk too: the next clean text is spliced from that reading, not from this one
    kept_walk = previous.walk if same_kind and previous.walk is not None else walk
    return Analysis(text, kind, parsed, tuple(problems + one_per_object(schema) + rules), tuple(pruned), rule_memo=kept,
                    walk=kept_walk)


def one_per_object(schema: list[Issue]) -> list[Issue]:
    """The editor's form of "missing required property": one issue per object naming every field it
    lacks, where the first of them stood (issue 13: the first `{` of a new file stacked seven issues
    on one character). The command line keeps the reference's one issue per field (graph.md §4.2)."""
    missing: dict[str, list[Issue]] = {}
    for i in schema:
        if _missing_field(i) is not None and i.pointers:
            missing.setdefault(i.pointers[0], []).append(i)
    if all(len(group) < 2 for group in missing.values()):
        return schema
    out: list[Issue] = []
    for i in schema:
        group = missing.get(i.pointers[0]) if _missing_field(i) is not None and i.pointers else None
        if group is None or len(group) < 2:
            out.append(i)
        elif group[0] is i:
            fields = tuple(_missing_field(g) for g in group)
            path = i.pointers[0] or "/"
            names = ", ".join(f'"{f}"' for f in fields)
            out.append(replace(i, message=f"{path}: missing required properties {names}",
                               facts=replace(i.facts, path=i.pointers[0], fields=fields)))
    return out


def _missing_field(issue: Issue) -> str | None:
    """The field a "missing required property" finding names (graph.md §4.2), else None."""
    f = issue.facts
    return f.field if isinstance(f, SchemaProblem) and f.problem == "missing" else None


def may_follow(issue: Issue, parsed: ParsedText) -> bool:
    """A "missing required" finding about an object the text ends inside: the field may still follow."""
    return _missing_field(issue) is not None and bool(issue.pointers) and still_open(parsed, issue.pointers[0])


def _still_growing(value: dict, kind: Kind, open_at_end: tuple[str, ...]) -> frozenset[str]:
    """The kinds of object more of which may follow in a text cut short: those of an id list the text
    ends inside, or of one not written yet in a root the text ends inside (graph.md §1.11, map.md §2.8)."""
    if not open_at_end:
        return frozenset()
    root_open = "" in open_at_end
    return frozenset(what for key, what in ID_LISTS[kind].items()
                     if f"/{key}" in open_at_end or (root_open and key not in value))


def _echoes_a_cut(issue: Issue, broken: set[str], cut: set[str]) -> bool:
    """A structural finding inside a cut region (`cut`: the broken pointers but the root), or a
    "missing" field whose value the cut ate."""
    p = issue.pointers[0] if issue.pointers else ""
    if _inside_any(p, cut):
        return True
    field = _missing_field(issue)
    return isinstance(field, str) and f"{p}/{field}".replace("//", "/") in broken


def _inside_any(pointer: str, regions: set[str]) -> bool:
    """True when `pointer` is one of `regions` or lies inside one. Its own prefixes are looked up in
    the set, so the cost follows the pointer's depth, not the number of regions (broken text can have
    thousands of cut regions and of structural findings: issue 9, a 122k-character text took 10 s)."""
    if pointer in regions:
        return True
    i = pointer.find("/", 1)
    while i != -1:
        if pointer[:i] in regions:
            return True
        i = pointer.find("/", i + 1)
    return False


def _tolerant_rules(value: object, kind: Kind, schema: list[Issue], broken: set[str],
                    open_at_end: tuple[str, ...] = (), *, export: bool, resolver: Resolver | None,
                    walk: DocumentWalk | None = None) -> tuple[list[Issue], list[str]]:
    """Run the rules on the document with unsound top-level items left out; map pointers back. In a
    text cut short (`open_at_end`) whole-shape findings and references to what may still follow wait.
    `walk`: the value's, from which the kept items' structural check, unknown keys and size are taken."""
    if not isinstance(value, dict):
        return [], []
    lists = ITEM_LISTS[kind]
    bad_items: dict[str, set[int]] = {k: set() for k in lists}
    bad_fields: set[str] = set()
    # The root is "cut" whenever its closing brace is missing; that alone spoils none of its
    # members (a cut member is listed on its own), so only a structural finding at the root stops.
    for p in [i.pointers[0] for i in schema if i.pointers] + sorted(b for b in broken if b):
        segs = pointer_split(p)
        if not segs:
            return [], []  # the root itself is unusable
        top = segs[0]
        if top in bad_items and len(segs) >= 2 and segs[1].isdigit():
            bad_items[top].add(int(segs[1]))
        else:
            bad_fields.add(top)

    doc: dict = dict(value)
    stand_ins = ROOT_STAND_INS[kind]
    for f in bad_fields:
        if f in stand_ins:
            doc[f] = copy.copy(stand_ins[f])
        else:
            doc.pop(f, None)
    for f, v in stand_ins.items():
        if f not in doc:
            doc[f] = copy.copy(v)
    index_maps: dict[str, list[int]] = {}
    ghosts: set[str] = set()
    touched: set[str] = set()  # what the left-out objects name: their neighbourhood is in doubt
    typed: list[str] = []  # ids of left-out objects that are themselves cut (being typed)
    pruned: list[str] = []
    for k in lists:
        items = doc.get(k)
        if not isinstance(items, list):
            continue
        keep = [i for i in range(len(items)) if i not in bad_items[k]]
        for i in bad_items[k]:
            if i < len(items):
                pruned.append(f"/{k}/{i}")
                item = items[i]
                if isinstance(item, dict):
                    touched.update(_refs_of(item))
                if isinstance(item, dict) and isinstance(item.get("id"), str):
                    ghosts.add(item["id"])
                    # a cut id string runs to the end of its line (`"id": "bui,`): its id-like start
                    head = _ID_HEAD.match(item["id"]).group() if f"/{k}/{i}/id" in broken else ""
                    if head:
                        typed.append(head)
        if len(keep) != len(items):
            doc[k] = [items[i] for i in keep]
            index_maps[k] = keep
    pruned.extend(f"/{f}" for f in sorted(bad_fields))
    # With nothing left out the document is the value, which passed the structural check.
    doc_walk = walk_document(doc, kind, walk) if walk is not None else None
    if (pruned or schema) and (doc_walk.schema_issues() if doc_walk is not None else schema_issues(doc, kind)):
        return [], pruned  # still not sound enough to reason about
    issues = rule_issues(doc, kind, export=export, resolver=resolver, walk=doc_walk)
    named = _Ghosts(ghosts, tuple(typed), _kept_ids(doc, lists) if typed else frozenset())
    doubtful = _items_in_doubt(doc, lists, replace(named, ids=ghosts | touched), index_maps)
    growing = _still_growing(value, kind, open_at_end)
    targets: dict[str, str] | None = None  # reference pointer -> the kind it must name, asked once
    out: list[Issue] = []
    for issue in issues:
        if (pruned or open_at_end) and issue.code in WHOLE_SHAPE_CODES:
            continue
        if issue.code == "E_DANGLING_REF" and ghosts and _names_ghost(doc, issue, named):
            continue
        if issue.code == "E_DANGLING_REF" and growing and issue.pointers:
            if targets is None:
                targets = {o.pointer: o.target for o in occurrences(doc, kind) if not o.definition}
            target = targets.get(issue.pointers[0])
            if target is None or growing.intersection(accepted_kinds(target)):
                continue  # what it names may be defined below the cut
        issue = _remap(issue, index_maps)
        if doubtful and not _is_local(issue) and _touches(issue, doubtful):
            continue
        out.append(issue)
    return out, pruned


@dataclass(frozen=True)
class _Ghosts:
    """The ids of left-out objects (each still counts as present), and those of them whose own id
    was cut while typed (`"id": "ste` while the edges still name "step-9"): a reference starting
    with such an id may mean that object, so it is in doubt too."""

    ids: set[str]
    typed: tuple[str, ...] = ()
    present: frozenset[str] = frozenset()  # the ids the kept objects have: never in doubt by prefix

    def named(self, ref: str) -> bool:
        target = ref.partition(":")[2] or ref
        if ref in self.ids or target in self.ids:
            return True
        return bool(self.typed) and target not in self.present and any(target.startswith(t) for t in self.typed)


def _kept_ids(doc: dict, lists: tuple[str, ...]) -> frozenset[str]:
    return frozenset(x["id"] for k in lists for x in doc.get(k) or () if isinstance(x, dict) and isinstance(x.get("id"), str))


def _items_in_doubt(doc: dict, lists: tuple[str, ...], ghosts: _Ghosts,
                    index_maps: dict[str, list[int]]) -> set[str]:
    """Pointers (as the user sees them) of the kept items that name a left-out object or one a
    left-out object names (a cut edge leaves its two nodes' connections in doubt, so a loop over them
    is not judged), directly or through other items in doubt. A few rounds reach the chains the
    documents have (edge -> loop -> policy); each round is one pass over the referring items."""
    if not ghosts.ids:
        return set()
    doubt = _Ghosts(set(ghosts.ids), ghosts.typed, ghosts.present)
    doubt_ids = doubt.ids
    doubtful: set[str] = set()
    for _ in range(4):
        grew = False
        for k in lists:
            if k not in REFERRING_LISTS:
                continue
            seq = doc.get(k)
            if not isinstance(seq, list):
                continue
            m = index_maps.get(k)
            for i, item in enumerate(seq):
                if not isinstance(item, dict):
                    continue
                ptr = f"/{k}/{m[i] if m is not None else i}"
                if ptr in doubtful or not _names_any(item, doubt):
                    continue
                doubtful.add(ptr)
                iid = item.get("id")
                if isinstance(iid, str) and iid not in doubt_ids:
                    doubt_ids.add(iid)
                    grew = True
        if not grew:
            break
    return doubtful


def _names_any(item: dict, ids: _Ghosts) -> bool:
    """True when one of the item's reference fields names one of `ids`: its own `from`, `to`,
    `members`, `back`, `scope`, `lane`, its bar's `answerKeyFrom`, a stop's `then` (graph.md §5.8)."""
    for key in REFERENCE_FIELDS.intersection(item):
        if _names(item[key], ids):
            return True
    bar = item.get("bar")
    if isinstance(bar, dict) and _names(bar.get("answerKeyFrom"), ids):
        return True
    stops = item.get("stops")
    if isinstance(stops, list):
        return any(isinstance(st, dict) and _names(st.get("then"), ids) for st in stops)
    return False


def _refs_of(item: dict) -> list[str]:
    """The ids an item's reference fields name (scopes without their `kind:` prefix)."""
    out = []
    for key in REFERENCE_FIELDS.intersection(item):
        v = item[key]
        out += [r.partition(":")[2] or r for r in (v if isinstance(v, list) else (v,))
                if isinstance(r, str) and r != "graph"]  # a graph-wide scope names no object
    return out


def _names(value: object, ids: _Ghosts) -> bool:
    return any(isinstance(r, str) and ids.named(r) for r in (value if isinstance(value, list) else (value,)))


def _is_local(issue: Issue) -> bool:
    return issue.code in LOCAL_CODES or (issue.code, getattr(issue.facts, "variant", None)) in LOCAL_VARIANTS


def _touches(issue: Issue, doubtful: set[str]) -> bool:
    """True when a pointer of the issue (its own or a related one) lies in an item in doubt."""
    for p in (*issue.pointers, *(r[0] for r in issue.related)):
        segs = p.split("/", 3)
        if len(segs) >= 3 and f"/{segs[1]}/{segs[2]}" in doubtful:
            return True
    return False


def _names_ghost(doc: dict, issue: Issue, ghosts: _Ghosts) -> bool:
    """True when a dangling reference names an object that exists but was left out."""
    ref = issue.facts.ref if isinstance(issue.facts, (DanglingRef, MapDanglingRef)) else None
    if ref is None and issue.pointers:
        ref = value_at(doc, issue.pointers[0])
    return isinstance(ref, str) and ghosts.named(ref)


def _remap_pointer(p: str, index_maps: dict[str, list[int]]) -> str:
    if not index_maps:
        return p
    segs = p.split("/")
    if len(segs) >= 3 and segs[1] in index_maps and segs[2].isdigit():
        m = index_maps[segs[1]]
        i = int(segs[2])
        if i < len(m):
            segs[2] = str(m[i])
            return "/".join(segs)
    return p


def _remap(issue: Issue, index_maps: dict[str, list[int]]) -> Issue:
    if not index_maps:
        return issue
    return replace(
        issue,
        pointers=tuple(_remap_pointer(p, index_maps) for p in issue.pointers),
        related=tuple((_remap_pointer(p, index_maps), note) for p, note in issue.related),
    )
