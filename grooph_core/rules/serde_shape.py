"""The engine's reading of a serde model (workflow.md §0 "The engine's reader decides", §2 `E_WF_SCHEMA`;
board.md §1–2 `E_BOARD_SCHEMA`).

`serde_read` walks the document as serde walks it into the seed's types, from the same compiled
descriptors as everything else (`grooph_core.model.compiled`), and gives what serde refuses and the value
as the engine holds it (the rules read that value): a required field missing, a wrong type, an enum word
not listed, an unknown key where the type refuses them (each with did-you-mean), an i64 that is a float
to serde_json, a value of the shapes Expr, Action, Names that is none of their forms, in the seed's own
words; and of §0: null by field kind (an `Option` is absent, a field with a default refuses it, a string
reads it as its text), empty values, tags, integers beyond 64 bits in a JSON value, flattened `after`
items, the nesting limits, duplicated fields of a struct (`engine_problems`), the earlier copies of a
map's key, what serde_json accepts (a struct as an array, a unit enum as a one-key object). How one
scalar is read is `source/serde_scalars`'. Without the text (`shape_issues` on a value), a scalar stands
for the text it was written as. Issues come in walk order; the pipeline orders them by position.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from grooph_core.issues import Facts, Issue, make
from grooph_core.model.compiled import (
    AltType,
    AnyType,
    ArrayType,
    BoolType,
    ConstType,
    EnumType,
    NullType,
    NumType,
    ObjectType,
    RecordType,
    StrType,
    TypeDesc,
    UnionType,
)
from grooph_core.schema.check import found_json
from grooph_core.source.serde_scalars import (
    I64_MIN,
    TAG_EXPECTED,
    U64_MAX,
    YAML_TAG,
    json_number_is_float,
    reads_as_absent,
    resolve_tagged,
    ryu,
)
from grooph_core.source.text import did_you_mean, json_type, pointer_join, pointer_split, value_at
from grooph_core.source.yaml_reader import Scalar, YamlSourceMap


@dataclass(frozen=True)
class ShapeProblem(Facts):
    """What serde would refuse, for the repairs and the editor: the `problem` ("type", "null",
    "missing", "unknown_key", "integer", "range", "enum", "size", "alternatives"), what was `expected`,
    the missing `field`, the `allowed` words, the did-you-mean `suggestion`; for a missing field,
    `written_after`: the mapping has a field the model lists after it (so in a YAML text cut short it
    cannot be one still to come, issue 21). One subclass per code."""

    problem: str
    expected: str | None = None
    field: str | None = None
    allowed: tuple[str, ...] = ()
    suggestion: str | None = None
    written_after: bool = False


@dataclass(frozen=True)
class WorkflowShapeProblem(ShapeProblem):
    """E_WF_SCHEMA (workflow.md §2)."""

    code = "E_WF_SCHEMA"


@dataclass(frozen=True)
class BoardShapeProblem(ShapeProblem):
    """E_BOARD_SCHEMA (board.md §2)."""

    code = "E_BOARD_SCHEMA"


SHAPE_FACTS = {c.code: c for c in (WorkflowShapeProblem, BoardShapeProblem)}


def takes_null(t: TypeDesc) -> bool:
    """True when null is a value of the type (an expression's literal, any value)."""
    return isinstance(t, (NullType, AnyType)) or (isinstance(t, AltType) and any(takes_null(o) for o in t.options))


def _noun(v: Any) -> str:
    t = json_type(v)
    return {"object": "a mapping", "array": "a list", "null": "null"}.get(t, f"a {t}")


# The readers' nesting limits (workflow.md §0 "Depth"): the level a value may not open.
YAML_LEVELS = 129
JSON_LEVELS = 128
_REFUSED_VALUE = "expected any valid JSON value"
_UNSEEN = object()


# `-0` written as a whole value of valid JSON (after `:`, `[` or `,`; not `-0.5`, `-0e1`, an id's `t-0`): where
# a valid text has none, every 0 in it was written `0` (a broken text may hold a value anywhere: not asked).
_MINUS_ZERO = re.compile(r"-0(?![0-9.eE])")  # found by its literal start (a lookbehind for the context is 15x slower)


def _has_minus_zero(text: str) -> bool:
    """Whether a valid JSON text holds `-0` as a value."""
    for m in _MINUS_ZERO.finditer(text):
        j = m.start() - 1
        while j >= 0 and text[j] in " \t\n\r":
            j -= 1
        if j < 0 or text[j] in ":[,":
            return True
    return False


def _no_lost(pointer: str) -> tuple:
    """No key is written twice: no earlier copies anywhere."""
    return ()


class _Walk:
    """One reading of a value into a model, as serde does it (workflow.md §0, §2, board.md §2): the
    issues (`out`), the value as the engine holds it (what `check` returns: a string read from a YAML
    scalar is its text), and the pointers of the mappings read as structs (`structs`: None where no key
    is written twice, the one thing they are read for: `engine_problems`)."""

    def __init__(self, code: str, written=None, yaml: bool = False, node_at=None):
        self.code = code
        self.facts = SHAPE_FACTS[code]
        self.out: list[Issue] = []
        self.written = written  # pointer -> serde_scalars-relevant Scalar of a YAML text, or None
        self.yaml = yaml
        # a JSON text: a value is read as it is (no scalar written otherwise), so a string where a string goes
        # needs no check and no pointer (most members of a board)
        self.plain = not yaml and written is None
        self.levels = YAML_LEVELS if yaml else JSON_LEVELS
        self.structs: dict[str, ObjectType] | None = {}
        self.ignored: list[str] = []  # values of unknown keys: serde skips them unread
        self.node_at = node_at  # pointer -> the YAML text's node there (its scalars, its keys that are collections)
        self._nodes: dict[str, Any] = {}
        # an earlier version's readings of top-level map entries, and this reading's when they may be
        # reused later: map pointer -> entry name -> `EntryReading`, or the entry's value itself when
        # it read clean as it is (no issue, nothing ignored)
        self.reused: dict[str, dict[str, Any]] = {}
        self.entries: dict[str, dict[str, Any]] | None = None

    def add(self, pointer: str, message: str, *, on_key: bool = False, at: str | None = None, **facts) -> None:
        self.out.append(make(self.code, message, (pointer if at is None else at,), (pointer,), on_key=on_key,
                             facts=self.facts(**facts)))

    def complex_keys(self, p: str, expected: str) -> None:
        """A list or a mapping used as a key where serde reads the mapping: refused at the key ("invalid type:
        sequence, expected a string"; a struct: "expected field identifier")."""
        node = self.node(p)
        for span, kind in (node.complex if node is not None else ()):
            self.out.append(make(self.code, f"invalid type: {kind}, expected {expected} (a key is a scalar)", (p,),
                                 (p,), span=span, facts=self.facts(problem="type", expected="string")))

    def node(self, p: str):
        """The YAML node at `p` (each asked once: the walk asks for every member's container)."""
        if self.node_at is None:
            return None
        node = self._nodes.get(p, _UNSEEN)
        if node is _UNSEEN:
            node = self._nodes[p] = self.node_at(p)
        return node

    def scalar(self, p: str, v: Any) -> Scalar | None:
        """How the scalar at `p` was written (YAML only; None for a collection or a JSON text)."""
        if self.written is None or isinstance(v, (dict, list)):
            return None
        if self.node_at is None:
            return self.written(p)
        cut = p.rfind("/")
        node = self.node(p[:cut])
        if node is None:
            return None
        seg = pointer_split(p[cut:])[0]
        if node.is_obj:
            i = node.find(seg)
        else:
            i = int(seg) if seg.isdigit() and int(seg) < node.count() else None
        return None if i is None else node.scalar_at(i)

    def too_deep(self, v: Any, p: str, depth: int) -> bool:
        if isinstance(v, (dict, list)) and depth >= self.levels:
            self.add(p, f"recursion limit exceeded: the engine's reader stops at {self.levels - 1} levels of "
                     "nesting", problem="depth")
            return True
        return False

    def check(self, t: TypeDesc, v: Any, p: str, name: str, depth: int = 1, flat: bool = False) -> Any:
        """The engine's value of `v` read as `t` (reporting what serde refuses); `depth` is the level `v`
        opens, `flat` a field of a flattened struct (read from resolved values, §2 "Flattened items")."""
        if depth >= self.levels and self.too_deep(v, p, depth):
            return v
        if flat and self.yaml:
            s = self.scalar(p, v)
            if s is not None and not s.tag.startswith(YAML_TAG):  # serde's buffer of a flattened part holds no enum
                self.add(p, f"{name}: untagged and internally tagged enums do not support enum input (the tag "
                         f"{s.tag} in a flattened `after` item)", problem="value")
                return v
        if isinstance(t, ObjectType):
            return self.object(t, v, p, name, depth, flat)
        if isinstance(t, StrType):
            return self.string(t, v, p, name, flat)
        if isinstance(t, NumType):
            self.number(t, v, p, name)
        elif isinstance(t, BoolType):
            if v is not True and v is not False:
                self.add(p, f"{name}: expected true or false, got {_noun(v)}", problem="type", expected="boolean")
        elif isinstance(t, NullType):
            if v is not None:
                self.add(p, f"{name}: expected null, got {_noun(v)}", problem="type", expected="null")
        elif isinstance(t, EnumType):
            self.enum(t, v, p, name)
        elif isinstance(t, ArrayType):
            if type(v) is not list:
                if self.empty(p, v, flat):
                    return []
                self.add(p, f"{name}: expected a list, got {self.found(p, v)}", problem=_type_or_null(v),
                         expected="array")
                return v
            changed = []
            for i, x in enumerate(v):
                r = self.check(t.item, x, f"{p}/{i}", name, depth + 1, flat)
                if r is not x:
                    changed.append((i, r))
            return _with_changes(v, changed)
        elif isinstance(t, RecordType):
            if type(v) is not dict:
                if self.empty(p, v, flat):
                    return {}
                self.add(p, f"{name}: expected a mapping ({t.expected}), got {self.found(p, v)}", problem=_type_or_null(v),
                         expected="object")
                return v
            if len(v) < t.min_props or (t.max_props is not None and len(v) > t.max_props):
                self.add(p, f"{name}: expected a mapping of {t.min_props} to {t.max_props} keys, got {len(v)}",
                         problem="size", expected="object")
                return v
            self.complex_keys(p, "a string")
            if depth == 2 and self.entries is not None:  # a top-level map (statuses, roles …): entry by entry
                self.entries[p] = {}
                was = self.reused.get(p, {})
                changed = [(k, r) for k, x in v.items()
                           if (r := self.entry(t.value, x, p, k, depth + 1, flat, was.get(k, _UNSEEN))) is not x]
            else:
                changed = [(k, r) for k, x in v.items()
                           if (r := self.check(t.value, x, pointer_join(p, k), k, depth + 1, flat)) is not x]
            for k in v if self.lost_copies is not _no_lost else ():
                for lost in self.lost_copies(pointer_join(p, k)):
                    self.check_lost(t.value, lost, pointer_join(p, k), k, depth + 1)
            return _with_changes(v, changed)
        elif isinstance(t, AltType):
            return self.alternatives(t, v, p, name, depth)
        elif isinstance(t, AnyType):
            self.any_value(v, p, name, depth)
        return v

    lost_copies = staticmethod(_no_lost)  # set by serde_read: the earlier copies of a map's key

    def check_lost(self, t: TypeDesc, lost: tuple, p: str, name: str, depth: int) -> None:
        """An earlier copy of a map's key: serde reads it too before the later one replaces it, so what it
        refuses there is refused (workflow.md §0); said at the kept copy's pointer, marked as such."""
        value, written, node_at = lost
        inner = _Walk(self.code, written, self.yaml, node_at)
        inner.lost_copies = self.lost_copies
        inner.check(t, value, p, name, depth)
        for q, struct in inner.structs.items() if self.structs is not None else ():  # a field written twice
            self.structs.setdefault(q, struct)  # in it is refused too
        for i in inner.out:
            self.out.append(make(self.code, i.message + " (in an earlier copy of this key, which the engine also "
                                 "reads)", i.at, i.pointers, on_key=i.on_key, facts=i.facts))

    def empty(self, p: str, v: Any, flat: bool = False) -> bool:
        """An empty YAML value (`key:` with nothing after it) where a list, a map or a struct is read: serde_yaml
        reads it as an empty one (workflow.md §2 "An empty value"); not in a flattened `after` item, whose
        buffered value is a unit serde refuses there ("invalid type: unit value, expected a sequence")."""
        if flat:
            return False
        s = self.scalar(p, v)
        return s is not None and s.plain and s.text == "" and s.tag == YAML_TAG + "null"

    def found(self, p: str, v: Any) -> str:
        """What was found, in serde's words for a null ("unit value") and ours for the rest."""
        return ("null (a unit value)" if self.yaml else "null") if v is None else _noun(v)

    def unit_variant(self, v: Any, p: str, name: str) -> Any:
        """serde_json reads a unit enum written as a one-key object with a null value as its key
        (`{"ready": null}` is `ready`, workflow.md §0): the word, or None when `v` is no such object."""
        if self.yaml or type(v) is not dict:
            return None
        if len(v) != 1:
            self.add(p, f"{name}: expected value (an enum word, or a one-key object)", problem="type")
            return v
        (word, unit), = v.items()
        if unit is not None:
            self.add(p, f"{name}: invalid type: {_noun(unit)}, expected unit (the value of `{word}` must be null)",
                     problem="type")
        return word

    def string(self, t: StrType, v: Any, p: str, name: str, flat: bool) -> Any:
        if t.unit_enum and type(v) is dict:
            word = self.unit_variant(v, p, name)
            return v if word is None else word
        s = self.scalar(p, v)
        if s is not None and not flat and not t.complaint:
            return s.text  # serde_yaml reads any scalar into a string as its text (§2)
        if s is None and self.written is None and t.any_scalar and not flat and v is not None and not isinstance(
                v, (dict, list)):
            return v  # a resolved value without its text: it stands for the text it was written as
        if type(v) is str and (s is None or s.tag == YAML_TAG + "str" or not s.tag.startswith(YAML_TAG)):
            return v
        if s is not None and flat:  # a flattened item: read from the value the scalar resolves to
            self.add(p, f"{name}: invalid type: {_serde_unexpected(v)}, expected a string (a flattened `after` "
                     "item reads resolved values: quote it)", problem="type", expected="string")
            return v
        if t.complaint:
            self.add(p, f"{t.complaint}, not {found_json(v)}", problem="type", expected="string")
        else:
            self.add(p, f"{name}: expected a string, got {_noun(v)}", problem="type", expected="string")
        return v

    def any_value(self, v: Any, p: str, name: str, depth: int) -> bool:
        """A JSON value (an Expr's literal, `params`, an action's arguments): what serde_json's `Value` refuses
        of the YAML (a custom tag, a core tag its text is not, an integer beyond 64 bits). True when it reads."""
        stack = [(v, p, depth)]
        ok = True
        while stack:
            x, q, d = stack.pop()
            if self.too_deep(x, q, d):
                ok = False
                continue
            if type(x) is dict:
                self.complex_keys(q, "a string")
                stack.extend((y, pointer_join(q, k), d + 1) for k, y in reversed(list(x.items())))
                continue
            if type(x) is list:
                stack.extend((y, f"{q}/{i}", d + 1) for i, y in reversed(list(enumerate(x))))
                continue
            s = self.scalar(q, x)
            problem = _value_refusal(s, x) if self.yaml else None
            if problem is not None:
                self.add(q, f"{name}: {problem}", problem="value")
                ok = False
        return ok

    def fields_in_order(self, t: ObjectType, v: list, p: str, name: str, depth: int) -> Any:
        """serde_json reads a struct written as an array of its fields in declaration order (workflow.md §0:
        `"workspace": ["dir"]` is `{"kind": "dir"}`): each item as its field, the rest left out."""
        if len(v) > len(t.fields):
            self.add(p, f"{name}: trailing characters (a {t.title} has {len(t.fields)} fields)", problem="size")
            return v
        for i, (f, x) in enumerate(zip(t.fields, v)):
            if not (f.nullable and x is None):
                self.check(f.type, x, f"{p}/{i}", f.name, depth + 1, f.flattened)
        # serde's length: the place of the first field left out that has no default
        missing = next((i for i, f in enumerate(t.fields) if i >= len(v) and f.required), None)
        if missing is not None:
            self.add(p, f"{name}: invalid length {missing}, expected struct {t.title} with {len(t.fields)} elements "
                     f"(the field {t.fields[missing].name} is not written)", problem="size")
        return v

    def object(self, t: ObjectType, v: Any, p: str, name: str, depth: int, flat: bool = False) -> Any:
        if type(v) is list and not self.yaml:  # a board itself too
            return self.fields_in_order(t, v, p, name, depth)
        if type(v) is not dict:
            if self.empty(p, v, flat):
                v = {}
            else:
                self.add(p, f"{name}: expected a mapping ({t.title}), got {self.found(p, v)}", problem=_type_or_null(v),
                         expected="object")
                return v
        if self.structs is not None:
            self.structs[p] = t
        if self.node_at is not None:  # only a YAML text has keys that are collections
            self.complex_keys(p, "field identifier")
        for n, f in (enumerate(t.fields) if any(r not in v for r in t.required) else ()):
            if f.required and f.name not in v:
                self.add(p, f'{t.title} is missing the required field "{f.name}"', on_key=True,
                         at=pointer_join(p, f.name), problem="missing", field=f.name,
                         written_after=any(g.name in v for g in t.fields[n + 1:]))
        by_name = t.by_name
        changed: list = []  # (key, reading) of the members whose reading is not the member itself
        plain, no_lost = self.plain, self.lost_copies is _no_lost
        for k, x in v.items():
            f = by_name.get(k)
            if plain and no_lost and f is not None and type(x) is str and type(f.type) is StrType:
                continue  # what `check` answers (the string itself), without the member's pointer
            kp = pointer_join(p, k)
            if f is None:
                if t.closed:
                    hint = did_you_mean(k, t.names)
                    self.add(kp, f'{t.title} has no field "{k}" (expected one of {", ".join(t.names)})'
                             + (f"; did you mean {hint}?" if hint else ""), on_key=True, problem="unknown_key",
                             suggestion=hint)
                else:
                    self.ignored.append(kp)
                continue
            if f.nullable and (x is None if plain else self.absent(x, kp, k)):
                r = None
            else:
                r = self.check(f.type, x, kp, k, depth + 1, flat or f.flattened)
            lost = () if no_lost else self.lost_copies(kp)
            if lost:  # refused ("duplicate field"); the editor reads the first copy, the one written first
                r = self.first_copy(f, lost[0], kp, k, depth + 1)
            if r is not x:
                changed.append((k, r))
        return _with_changes(v, changed)

    def entry(self, t: TypeDesc, x: Any, holder: str, name: str, depth: int, flat: bool, was: Any) -> Any:
        """`check` of the entry `name` of the top-level map at `holder`, reusing an earlier version's
        reading of it (`was`) when the entry is the very same value (`is`: the incremental reader keeps
        every entry it did not re-read, with its source-map node; issue 24). Its reading depends on
        nothing else: the pointer names the type, the depth and the entry's name, and the entry's
        scalars are its node's. (No key is written twice here: `structs` are not kept.)"""
        if was is x and type(x) in _CONTAINERS:  # read clean as it was
            read, out, ignored = x, (), ()
        elif type(was) is EntryReading and was.value is x and type(x) in _CONTAINERS:
            # (a scalar is no such tie: every null is one object, but `key:` and `key: ~` read differently)
            read, out, ignored = was.read, was.issues, was.ignored
        else:
            saved = self.out, self.ignored
            self.out, self.ignored = [], []
            try:
                read = self.check(t, x, pointer_join(holder, name), name, depth, flat)
            finally:
                out, ignored = tuple(self.out), tuple(self.ignored)
                self.out, self.ignored = saved
        self.out += out
        self.ignored += ignored
        if not any(i.span is not None for i in out):  # a span would move
            self.entries[holder][name] = x if read is x and not out and not ignored else EntryReading(x, read, out, ignored)
        return read

    def first_copy(self, f, lost: tuple, p: str, name: str, depth: int) -> Any:
        """The value of a struct field's first copy as the engine would read it (its issues are not said:
        the duplicate is the refusal)."""
        value, written, node_at = lost
        inner = _Walk(self.code, written, self.yaml, node_at)
        if f.nullable and inner.absent(value, p, name):
            return None
        return inner.check(f.type, value, p, name, depth, f.flattened)

    def absent(self, x: Any, p: str, name: str) -> bool:
        """An `Option` field holding what serde reads as None (workflow.md §0 "null"): null, or in YAML a plain
        empty value or null word (`!!null` refuses any other text)."""
        s = self.scalar(p, x)
        if s is None:
            return x is None
        if s.tag == YAML_TAG + "null" and s.plain and x is not None:
            self.add(p, f'{name}: invalid value: string "{s.text}", expected null', problem="value")
            return True
        return reads_as_absent(s.text, s.plain, s.tag)

    def number(self, t: NumType, v: Any, p: str, name: str) -> None:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            self.add(p, f"{name}: expected {'an integer' if t.integer else 'a number'}, got {_noun(v)}",
                     problem=_type_or_null(v), expected=t.expected)
            return
        # The text as written matters only where the value cannot say it: an int read from a JSON text has no
        # fraction or exponent, so only `-0` and an integer beyond 64 bits read as floats (the text of every
        # number would build the lazy source map: 40% of a 25k board's analysis).
        text = self.number_text(p) if (t.integer and t.strict and self.number_text and type(v) is int
                                        and ((v == 0 and self.minus_zero) or not I64_MIN <= v <= U64_MAX)) else None
        if t.integer and (type(v) is float or (text is not None and json_number_is_float(text))) and (
                t.strict or v != int(v)):
            shown = text if text is not None and type(v) is int and abs(v) < 2**63 else found_json(float(v))
            self.add(p, f"{name}: invalid type: floating point `{shown}`, expected i64 (an integer is written "
                     "without a fraction or an exponent)", problem="integer", expected="integer")
            return
        if (t.minimum is not None and v < t.minimum) or (t.maximum is not None and v > t.maximum):
            shown = str(v) if type(v) is int else found_json(v)
            self.add(p, f"{name}: {shown} is out of range (a signed 64-bit integer)", problem="range",
                     expected=t.expected)

    number_text = None  # set for a JSON text: pointer -> the number as written
    minus_zero = True  # whether the text may hold `-0` as a number (serde_read looks)

    def enum(self, t: EnumType, v: Any, p: str, name: str) -> None:
        if type(v) is dict and not self.yaml:
            v = self.unit_variant(v, p, name)
            if type(v) is not str:
                return
        s = self.scalar(p, v)
        word = s.text if s is not None else v
        if s is not None and s.text == "" and s.tag.startswith("!") and len(s.tag) > 1:
            word = s.tag[1:]  # serde_yaml takes a tag as the variant (`!board` with no value)
        if type(word) is str and word in t.values:
            return
        if isinstance(v, (dict, list)) or (v is None and s is None):
            self.add(p, f"{name}: expected one of {', '.join(t.values)}, got {_noun(v)}", problem="type",
                     expected=t.expected)
            return
        word = word if type(word) is str else found_json(word)
        hint = did_you_mean(word, t.values)
        self.add(p, f'{name}: "{word}" is not one of {", ".join(t.values)}' + (f"; did you mean {hint}?" if hint else ""),
                 problem="enum", allowed=tuple(t.values), suggestion=hint)

    def alternatives(self, t: AltType, v: Any, p: str, name: str, depth: int) -> Any:
        if self.yaml and takes_value(t) and not self.any_value(v, p, name, depth):
            return v  # an Expr, Action or Names is read as a JSON value first (the seed's Deserialize)
        for o in t.options:
            if accepts(o, v):
                return v
        # A list where a list is one of the forms: say which items are wrong (Names: "a name is a string").
        if type(v) is list:
            for o in t.options:
                if isinstance(o, ArrayType):
                    self.check(o, v, p, name, depth)
                    return v
        message = f"{t.complaint}, not {found_json(v)}" if t.complaint else f"{name}: expected {t.expected}, got {_noun(v)}"
        self.add(p, message, problem="alternatives", expected=t.title)
        return v


_CONTAINERS = (dict, list)


def _with_changes(v, changed: list):
    """`v` itself when reading it changed none of its members (`is`), else a copy with the `changed`
    (key or index, reading) pairs put in: the engine's value shares what the text's value already holds
    (half the memory of a 1M workflow's value, issue 24), an entry kept by the incremental reader stays
    the same object for the rules, and a member read as itself costs no copy (issue 33)."""
    if not changed:
        return v
    read = dict(v) if type(v) is dict else list(v)
    for k, r in changed:
        read[k] = r
    return read


@dataclass(frozen=True, slots=True)
class EntryReading:
    """The reading of one entry of a top-level map (a status, a role …), kept with the analysis so the
    next version's reading can take it as it is when the entry did not change (`_Walk.entry`); an
    entry read clean as it is is kept as its value alone."""

    value: Any
    read: Any
    issues: tuple[Issue, ...]
    ignored: tuple[str, ...]


def field_at(root: ObjectType, pointer: str):
    """The model field a pointer names (through structs, lists and maps), or None (the root, an unknown
    key, inside a JSON value)."""
    t, f = root, None
    for seg in pointer_split(pointer):
        if isinstance(t, AltType):  # Names, Action: the list or map form
            t = next((o for o in t.options if isinstance(o, (ArrayType, RecordType))), None)
        if isinstance(t, ObjectType):
            f = t.by_name.get(seg)
            t = f.type if f is not None else None
        elif isinstance(t, (ArrayType, RecordType)):
            t, f = (t.item if isinstance(t, ArrayType) else t.value), None
        else:
            return None
        if t is None:
            return None
    return f


def skipped_at(root: ObjectType, path: list[str]) -> bool:
    """True when serde skips the value at `path` (keys and indices) unread: it stands under a key its struct
    does not have (`ignore_value`; a struct written as an array counts its fields by place)."""
    t: TypeDesc | None = root
    for seg in path:
        if isinstance(t, AltType):  # Names, Action, a unit enum's object form: the collection form
            t = next((o for o in t.options if isinstance(o, (ObjectType, ArrayType, RecordType))), None)
        if isinstance(t, ObjectType):
            if seg.isdigit():  # the struct written as an array, or a key that is a number (never a field)
                f = t.fields[int(seg)] if int(seg) < len(t.fields) else None
            else:
                f = t.by_name.get(seg)
                if f is None:
                    return True
            t = f.type if f is not None else None
        elif isinstance(t, (ArrayType, RecordType)):
            t = t.item if isinstance(t, ArrayType) else t.value
        else:
            return False  # a JSON value (read whole), a scalar, or no type: not skipped
    return False


def null_reading(f, yaml: bool) -> str:
    """What `null` means for a field, as the engine reads it (workflow.md §0 "null"), for the hover."""
    t = f.type
    if f.nullable:
        return "May be null: the same as leaving it out."
    if takes_null(t):
        return "May be null: the literal `null`."
    if yaml and isinstance(t, StrType) and t.any_scalar:
        return "`null` here is the text \"null\" (quote it or leave the field out)."
    if f.required:
        return "May not be null: the engine refuses it."
    return "May not be null: the engine refuses it (leave the field out for its default)."


def _type_or_null(v: Any) -> str:
    """The problem of a value of the wrong type: "null" for a null where the field has a default (its repair:
    leave the field out), else "type"."""
    return "null" if v is None else "type"


def takes_value(t: AltType) -> bool:
    """The three shapes of workflow.md §2 (Expr, Action, Names) are read through serde_json's `Value`."""
    return bool(t.complaint)


def _serde_unexpected(v: Any) -> str:
    """serde's `Unexpected` words for a resolved scalar ("integer `5`", "boolean `true`", "unit value")."""
    if v is None:
        return "unit value"
    if isinstance(v, bool):
        return f"boolean `{'true' if v else 'false'}`"
    if isinstance(v, int):
        return f"integer `{v}`"
    if isinstance(v, float):
        return f"floating point `{ryu(v).removesuffix('.0')}`"
    return f'string "{v}"'


def _value_refusal(s: Scalar | None, v: Any) -> str | None:
    """What serde_json's `Value` refuses of a YAML scalar, in serde's words, or None when it reads."""
    if s is None:
        return None
    if not s.tag.startswith(YAML_TAG):
        return f"invalid type: enum, {_REFUSED_VALUE} (the tag {s.tag} makes it an enum)"
    kind = s.tag[len(YAML_TAG):]
    if kind in TAG_EXPECTED and resolve_tagged(s.tag, s.text) is None:
        return f'invalid value: string "{s.text}", expected {TAG_EXPECTED[kind]}'
    if type(v) is int and not (I64_MIN <= v <= U64_MAX):
        return f"invalid type: integer `{v}` as {'i128' if v < 0 else 'u128'}, {_REFUSED_VALUE} (beyond 64 bits)"
    return None


def accepts(t: TypeDesc, v: Any) -> bool:
    """True when `v` is a value of the type (no structural issue)."""
    w = _Walk("E_WF_SCHEMA")
    w.check(t, v, "", "")
    return not w.out


def shape_issues(value: Any, root: ObjectType, code: str) -> list[Issue]:
    """Every structural issue of `value` read as the model `root`, each with the kind's `code`."""
    return serde_read(value, root, code).issues


@dataclass(frozen=True)
class SerdeReading:
    """What serde makes of a document: the structural `issues`, the `value` as the engine holds it (a
    string read from a YAML scalar is its text, workflow.md §2), the pointers of the mappings it reads as
    structs (a key written twice there is refused: `engine_problems`; kept only where a key is written
    twice, the one time it is asked)."""

    issues: list[Issue]
    value: Any
    structs: dict[str, ObjectType]
    ignored: tuple[str, ...] = ()
    entries: dict[str, dict[str, Any]] | None = None  # the top-level map entries' readings (`serde_read`'s `reuse`)

    def is_ignored(self, pointer: str) -> bool:
        """True when serde skips the value at `pointer` unread (it stands under an unknown key)."""
        return any(pointer == q or pointer.startswith(q + "/") for q in self.ignored)


def serde_read(value: Any, root: ObjectType, code: str, parsed=None, reuse: SerdeReading | None = None) -> SerdeReading:
    """Read `value` (of the text `parsed`, when given: its scalars as written, its numbers' text) as the
    model `root`, the way the engine's reader does (workflow.md §0, §2; board.md §2). With `reuse` (the
    reading of an earlier version of the text, when `parsed` was read from that version's reading:
    yaml_splice), an entry of a top-level map that is the very same value is taken from it; the
    reading keeps its own entries for the next version (not where a key is written twice)."""
    sm = getattr(parsed, "source_map", None)
    yaml = hasattr(sm, "scalar")
    w = _Walk(code, sm.scalar if yaml else None, yaml, sm.node if yaml else None)
    if yaml and not any(p.code == "W_DUPLICATE_KEY" for p in parsed.problems):  # what yaml_splice may splice
        w.entries = {}
        w.structs = None  # no key is written twice: nothing asks which mappings are structs
        if reuse is not None and reuse.entries:
            w.reused = reuse.entries
    if parsed is not None and not yaml:
        text = parsed.text

        def number_text(p: str) -> str | None:
            vs = sm.value_span(p)
            return None if vs is None else text[vs[0]:vs[1]]

        w.number_text = number_text
        w.minus_zero = not parsed.ok or _has_minus_zero(text)
    w.lost_copies = _lost_copies(parsed, yaml)
    if value is None and not (yaml and w.empty("", value)):
        w.add("", f"the document is empty; a {root.title} is a mapping with {', '.join(root.required)}",
              problem="type", expected="object")
        return SerdeReading(w.out, value, {})
    read = w.object(root, value, "", root.title, 1)
    return SerdeReading(w.out, read, w.structs if w.structs is not None else {}, tuple(w.ignored), w.entries)


def _lost_copies(parsed, yaml: bool):
    """pointer -> the earlier copies of a duplicated key, each (value, how its scalars were written): from
    the YAML reader's tree, or for JSON re-read from the text after each earlier copy's key."""
    if parsed is None or not any(p.code == "W_DUPLICATE_KEY" for p in parsed.problems):
        return _no_lost
    if yaml:
        duplicated = {p.pointers[0] for p in parsed.problems if p.code == "W_DUPLICATE_KEY" and p.pointers}
        sm = parsed.source_map

        def yaml_lost(pointer: str):
            if pointer not in duplicated:
                return ()
            holder = sm.node(pointer[:pointer.rfind("/")])
            name = pointer_split(pointer)[-1]
            if holder is None or not holder.lost:
                return ()
            return [(v, *_under(sm.text, pointer, kid, sc)) for n, v, kid, sc in holder.lost if n == name]

        return yaml_lost
    spans: dict[str, set] = {}
    for p in parsed.problems:
        if p.code == "W_DUPLICATE_KEY" and p.pointers and p.span is not None:
            group = spans.setdefault(p.pointers[0], set())
            group.add(tuple(p.span))
            group.update((a, b) for a, b, _ in p.related_spans)
    if not spans:
        return _no_lost
    text = parsed.text
    decoder = json.JSONDecoder()

    def json_lost(pointer: str):
        out = []
        for a, b in sorted(spans.get(pointer, ()))[:-1]:  # the last copy is the one kept
            i = text.find(":", b)
            j = i + 1
            while j < len(text) and text[j] in " \t\r\n":
                j += 1
            try:
                out.append((decoder.raw_decode(text, j)[0], None, None))
            except ValueError:
                continue
        return out

    return json_lost


def _under(text: str, pointer: str, kid, scalar):
    """The `written` and `node_at` lookups of an earlier copy: its own tree (a collection: its scalars and
    its nodes, whose keys may be collections) or its one scalar (no node)."""
    if kid is None:
        return (lambda q: scalar if q == pointer else None), None
    sub = YamlSourceMap(text, (kid.start, kid.end), kid)

    def inside(q: str) -> bool:
        return q == pointer or q.startswith(pointer + "/")

    return ((lambda q: sub.scalar(q[len(pointer):]) if inside(q) else None),
            (lambda q: sub.node(q[len(pointer):]) if inside(q) else None))


def engine_problems(problems, reading: SerdeReading, code: str) -> tuple[list[Issue], list[Issue]]:
    """(the reader's problems left, the `code` errors the engine's reader makes of the others), workflow.md
    §0: a field written twice in a mapping serde reads as a struct is refused, "duplicate field `lane`", at
    each later copy (related: the first), while in a map, and for a key the struct does not have, the last
    copy wins (W_DUPLICATE_KEY stays); a JSON number beyond the double range where a value is read (not
    under an unknown key, which serde skips) is refused ("number out of range"), not a precision warning.
    `problems` hold the later copies only (`read_text`)."""
    kept, errors = [], []
    facts = SHAPE_FACTS[code]
    for p in problems:
        ptr = p.pointers[0] if p.pointers else None
        if p.code == "W_DUPLICATE_KEY" and ptr is not None:
            struct = reading.structs.get(ptr[:ptr.rfind("/")])
            name = pointer_split(ptr)[-1]
            if struct is not None and name in struct.name_set:
                errors.append(make(code, f"duplicate field `{name}`: the engine refuses a field written twice",
                                   (ptr,), (ptr,), on_key=True, related=p.related, span=p.span,
                                   related_spans=p.related_spans, facts=facts(problem="duplicate", field=name)))
                continue
        if (p.code == "W_NUMBER_PRECISION" and ptr is not None and _not_finite(value_at(reading.value, ptr))
                and not reading.is_ignored(ptr)):
            errors.append(make(code, "number out of range: the engine's reader refuses a number beyond the "
                               "double range", (ptr,), (ptr,), span=p.span, facts=facts(problem="range")))
            continue
        kept.append(p)
    return kept, errors


def _not_finite(v: Any) -> bool:
    return type(v) is float and not math.isfinite(v)
