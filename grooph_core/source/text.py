"""Text and number conventions shared by every part of the core (spec/graph.md §0, §6.4).

The reference runs on JavaScript, so "whitespace", "sorted", "length" and "how a number is written"
follow ECMAScript, not Python. Every module that needs one of these asks here.
"""

from __future__ import annotations

import bisect
import json
import math
import re
from dataclasses import dataclass

from grooph_core.source.keyorder import keys_in_js_order

# graph.md §0.1: exactly the ECMAScript whitespace set (not Python's str.strip set).
JS_WHITESPACE = (
    "\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_WS_CLASS = "[" + re.escape(JS_WHITESPACE) + "]"
WHITESPACE_RUN = re.compile(_WS_CLASS + "+")


def js_trim(s: str) -> str:
    """Trim ECMAScript whitespace from both ends (graph.md §0.1)."""
    return s.strip(JS_WHITESPACE)


def is_blank(s: object) -> bool:
    """True for a string that is empty after trimming; absent/None counts as blank (map.md §0)."""
    if s is None:
        return True
    return isinstance(s, str) and js_trim(s) == ""


def same_text(a: str, b: str) -> bool:
    """graph.md §2.13: equal after trim, whitespace-run collapse and lower-casing."""
    return _fold(a) == _fold(b)


def _fold(s: str) -> str:
    return WHITESPACE_RUN.sub(" ", js_trim(s)).lower()


def utf16_key(s: str) -> bytes:
    """Sort key ordering strings by UTF-16 code units (graph.md §0.3)."""
    return s.encode("utf-16-be", "surrogatepass")


def utf16_len(s: str) -> int:
    """Length in UTF-16 code units, as JavaScript's `String.length` (graph.md §6.6)."""
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def js_key_order(keys) -> list[str]:
    """Keys as a JavaScript object enumerates them: array indices ascending, then the rest in order
    (graph.md §0.4; `keyorder` is the one rule)."""
    return keys_in_js_order(keys)


def is_number(v: object) -> bool:
    """A JSON number (bool is never a number, graph.md §0.5)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def is_integer(v: object) -> bool:
    """A finite number with no fractional part (graph.md §0.5: 3.0 is an integer)."""
    if not is_number(v):
        return False
    if isinstance(v, int):
        return True
    return math.isfinite(v) and v == int(v)


def as_double(v: int | float) -> float:
    """The IEEE double a JSON number denotes (integers beyond 2^53 lose precision, as in JS)."""
    try:
        return float(v)
    except OverflowError:
        return math.inf if v > 0 else -math.inf


def js_number(v: int | float) -> str:
    """Write a number as ECMAScript `Number.prototype.toString()` does (graph.md §6.4)."""
    x = as_double(v)
    if x == 0:
        return "0"
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x < 0:
        return "-" + js_number(-x)
    r = repr(x)
    mantissa, _, exp = r.partition("e")
    exp10 = int(exp) if exp else 0
    int_part, _, frac_part = mantissa.partition(".")
    if frac_part == "0":
        frac_part = ""
    digits = (int_part + frac_part).lstrip("0")
    # position of the decimal point relative to the digit string
    n = len(int_part.lstrip("0")) + exp10 if int_part.strip("0") else exp10 - (len(frac_part) - len(frac_part.lstrip("0")))
    digits = digits.rstrip("0") or "0"
    k = len(digits)
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    e = n - 1
    sign = "+" if e >= 0 else "-"
    head = digits[0] + ("." + digits[1:] if k > 1 else "")
    return f"{head}e{sign}{abs(e)}"


def json_type(v: object) -> str:
    """The JSON type name of a value, as messages name it (graph.md §4.3)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if is_number(v):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    return type(v).__name__


def compact_json(v: object, limit: int | None = None) -> str:
    """Compact JSON text of a value for messages, numbers written as ECMAScript writes them.

    Never recurses deeper than the value (containers are written by an explicit stack), and text
    longer than `limit` characters (when given) is cut with "…" so a message stays readable."""
    out: list[str] = []
    size = 0
    stack: list[object] = [v]
    _END = object()
    cap = limit if limit is not None else float("inf")
    while stack and size <= cap:
        x = stack.pop()
        if isinstance(x, tuple) and len(x) == 2 and x[0] is _END:
            piece = x[1]
        elif x is None:
            piece = "null"
        elif x is True:
            piece = "true"
        elif x is False:
            piece = "false"
        elif is_number(x):
            piece = js_number(x)
        elif isinstance(x, str):
            piece = json.dumps(x, ensure_ascii=False)
        elif isinstance(x, list):
            piece = "["
            items: list[object] = [(_END, "]")]
            for n, item in enumerate(reversed(x)):
                items.append(item)
                if n < len(x) - 1:
                    items.append((_END, ","))
            stack.extend(items)
        elif isinstance(x, dict):
            piece = "{"
            parts: list[object] = [(_END, "}")]
            entries = list(x.items())
            for n, (k, item) in enumerate(reversed(entries)):
                parts.append(item)
                parts.append((_END, json.dumps(k, ensure_ascii=False) + ":"))
                if n < len(entries) - 1:
                    parts.append((_END, ","))
            stack.extend(parts)
        else:
            piece = json_type(x)
        out.append(piece)
        size += len(piece)
    text = "".join(out)
    if limit is None or (not stack and len(text) <= limit):
        return text
    return text[:limit] + "…"


def quoted(ids) -> str:
    """graph.md §0: ids in double quotes joined by ", "."""
    return ", ".join(f'"{i}"' for i in ids)


def pointer_escape(key: str) -> str:
    """One JSON-pointer segment: `~` as `~0`, `/` as `~1` (graph.md §4.2)."""
    return key.replace("~", "~0").replace("/", "~1")


def pointer_join(base: str, *segments: object) -> str:
    """Append segments (keys or indices) to a JSON pointer. One plain key is the common case (the
    rules' walks join one per member: 170,000 calls for a 1M workflow), so it skips the general path."""
    if len(segments) == 1:
        s = segments[0]
        s = s if type(s) is str else str(s)
        return f"{base}/{s}" if "~" not in s and "/" not in s else f"{base}/{pointer_escape(s)}"
    return base + "".join("/" + pointer_escape(str(s)) for s in segments)


def pointer_split(pointer: str) -> list[str]:
    """The unescaped segments of a JSON pointer ("" is the root, no segments)."""
    if pointer == "":
        return []
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]


# ---- "did you mean" (graph.md §5.1): one distance, one suggester --------------------------------------

# Comparisons the suggesters of one validation may make between them (a `SuggestionBudget`). A document
# full of broken references against thousands of ids would make the search cost (words x candidates);
# past this, later words get no suggestion instead of stalling an editor on every keystroke. Only a
# pathological document reaches it. Our choice: the suggestion is optional where a budget is used
# (`E_DANGLING_REF`, graph.md §5, map.md §6.2); leaving one out is never wrong.
SUGGESTION_BUDGET = 100_000


def _pattern_bits(word: str) -> dict[str, int]:
    peq: dict[str, int] = {}
    for i, ch in enumerate(word):
        peq[ch] = peq.get(ch, 0) | (1 << i)
    return peq


def _osa_bits(peq: dict[str, int], m: int, text: str) -> int:
    """The optimal-string-alignment distance between a word (given by its pattern bits and length
    `m` >= 1) and `text`: Hyyrö's bit-parallel algorithm (2003), one pass over `text` with a few
    integer operations per character, whatever the word's length."""
    mask = (1 << m) - 1
    last = 1 << (m - 1)
    vp, vn, d0, pm_prev = mask, 0, 0, 0
    score = m
    for ch in text:
        pm = peq.get(ch, 0)
        tr = (((~d0) & pm) << 1) & pm_prev
        d0 = ((((pm & vp) + vp) ^ vp) | pm | vn | tr) & mask
        hp = (vn | ~(d0 | vp)) & mask
        hn = d0 & vp
        if hp & last:
            score += 1
        elif hn & last:
            score -= 1
        hp = ((hp << 1) | 1) & mask
        hn = (hn << 1) & mask
        vp = (hn | ~(d0 | hp)) & mask
        vn = d0 & hp
        pm_prev = pm
    return score


def osa_distance(a: str, b: str) -> int:
    """Optimal-string-alignment distance (graph.md §5.1: insertions, deletions, substitutions and
    swaps of two adjacent characters, each 1, no substring edited twice); case-sensitive."""
    if not a:
        return len(b)
    return _osa_bits(_pattern_bits(a), len(a), b)


def osa_within(a: str, b: str, limit: int) -> int:
    """`osa_distance(a, b)` when it is at most `limit`, else `limit + 1` (at once when the lengths
    alone differ by more)."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    return min(osa_distance(a, b), limit + 1)


def nearest_words(word: str, candidates, k: int, *, skip: str | None = None) -> list[str]:
    """The `k` candidates closest to `word` by optimal-string-alignment distance (lower-cased; ties:
    candidate order), leaving out `skip`: what sorting them all by `osa_distance` gives, with each
    candidate past the first `k` measured only against the band of the k-th best so far."""
    w = word.lower()
    best: list[tuple[int, int, str]] = []  # (distance, order, candidate), sorted
    for n, c in enumerate(candidates):
        if c == skip:
            continue
        cl = c.lower()
        if len(best) < k:
            bisect.insort(best, (osa_distance(w, cl), n, c))
            continue
        if not k:
            break
        worst = best[-1][0]
        if worst == 0:
            break
        d = (0 if cl == w else 1) if worst == 1 else osa_within(w, cl, worst - 1)
        if d < worst:
            bisect.insort(best, (d, n, c))
            best.pop()
    return [c for _, _, c in best]


def did_you_mean(word: str, candidates) -> str | None:
    """The "did you mean" suggestion of graph.md §5.1 (lengths in UTF-16 units, §9): the first
    candidate with the smallest distance within max(1, min(3, floor(len / 3))), comparing lower-cased.
    One search, no budget (a short candidate list: an object's field names, an enum's values); over a
    document's ids, ask an `IdSuggester` with the validation's `SuggestionBudget`."""
    return IdSuggester(candidates, None)(word)


@dataclass
class SuggestionBudget:
    """How many more candidates the suggesters sharing it may compare (one validation's cap)."""

    left: int = SUGGESTION_BUDGET


class IdSuggester:
    """The did-you-mean suggestion of graph.md §5.1 over one fixed candidate list (the one search;
    `did_you_mean` is it without a budget), fast on large documents: answers are cached per word, a
    candidate whose length alone puts it out of reach is skipped, the scan stops at the best possible
    distance, and the total work is capped by a budget shared by the suggesters of one validation (the
    dangling-reference rules run this for every dangling reference, on documents up to 1M characters).
    `budget` None: no cap."""

    def __init__(self, candidates, budget: SuggestionBudget | int | None = SUGGESTION_BUDGET):
        self.candidates = [c for c in candidates]
        self.lowered = [c.lower() for c in self.candidates]
        self.first_equal: dict[str, str] = {}
        for c, low in zip(self.candidates, self.lowered):
            self.first_equal.setdefault(low, c)
        self.cache: dict[str, str | None] = {}
        self.complete: dict[str, bool] = {}  # word -> its search ran to the end
        self.budget = budget if budget is None or isinstance(budget, SuggestionBudget) else SuggestionBudget(budget)
        self.exhausted = False

    def __call__(self, word: str) -> str | None:
        if word in self.cache:
            return self.cache[word]
        limit = max(1, min(3, utf16_len(word) // 3))
        w = word.lower()
        best = self.first_equal.get(w)  # distance 0 beats everything
        budget = self.budget
        if best is None and w and not self.exhausted:
            peq, m = _pattern_bits(w), len(w)
            best_d = limit + 1
            for c, low in zip(self.candidates, self.lowered):
                if budget is not None:
                    budget.left -= 1
                    if budget.left < 0:
                        self.exhausted, best = True, None
                        break
                if abs(len(low) - m) >= best_d:
                    continue  # the distance is at least the difference in length
                d = _osa_bits(peq, m, low)
                if d < best_d:
                    best, best_d = c, d
                    if d == 1:  # only an equal string (ruled out above) is closer
                        break
        elif best is None and not w:
            best = next((c for c, low in zip(self.candidates, self.lowered) if len(low) <= limit), None)
        self.cache[word] = best
        self.complete[word] = best is not None or not self.exhausted
        return best

    def searched(self, word: str) -> bool:
        """False when the work cap cut this word's search short (so a missing suggestion means
        nothing)."""
        return self.complete.get(word, False)


def value_at(value: object, pointer: str) -> object:
    """The value a JSON pointer names in `value`, or None when it names nothing."""
    cur = value
    for s in pointer_split(pointer):
        if isinstance(cur, dict):
            cur = cur.get(s)
        elif isinstance(cur, list) and s.isdigit() and int(s) < len(cur):
            cur = cur[int(s)]
        else:
            return None
    return cur


def edited_span(old: str, new: str) -> tuple[int, int, int]:
    """(start, old end, new end) of the one replacement that turns `old` into `new`: the longest common
    prefix and, after it, the longest common suffix. Compared a block at a time, the blocks shrinking
    where they differ, each block of `old` matched in place in `new` (a keystroke in a 1M text copies
    each character of `old` about once)."""
    n = min(len(old), len(new))
    p = 0
    for block in _BLOCKS:
        while p + block <= n and new.startswith(old[p:p + block], p):
            p += block
    s, lo, ln = 0, len(old), len(new)
    limit = n - p
    for block in _BLOCKS:
        while s + block <= limit and new.endswith(old[lo - s - block:lo - s], 0, ln - s):
            s += block
    return p, lo - s, ln - s


_BLOCKS = (65536, 2048, 64, 1)  # characters compared at a time, in turn


# JSON's structural characters (and the carriage return, which LSP and Python count differently as a line
# break): an edit whose removed and inserted text hold none of them leaves every member of a JSON text
# where it was, named by the same pointer (issue 33: a diagnostic's range then follows the edit).
_JSON_STRUCTURE = frozenset('{}[],:"\\\r')


def keeps_json_structure(removed: str, inserted: str) -> bool:
    """Replacing `removed` by `inserted` in a JSON text changes no member's place in its structure."""
    return _JSON_STRUCTURE.isdisjoint(removed) and _JSON_STRUCTURE.isdisjoint(inserted)
