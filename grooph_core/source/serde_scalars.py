"""How the engine's readers read a scalar (workflow.md §0 "The engine's reader decides", §2): the one place.

serde_yaml 0.9 reads a YAML scalar differently by what the seed asks for:

- into a **string** (`String`, a list item of strings, a map key): its text exactly as written, whatever
  it resolves to (`0x10` is "0x10", `True` "True", `null` "null", an empty value ""); only an `Option`
  field reads a plain untagged null word (or an empty value) as absent (`reads_as_absent`);
- into an **Expr** or any JSON value: the value it resolves to (`resolve_plain`, the YAML 1.2 core schema
  as serde_yaml implements it, not as the YAML spec words it), an Expr holding it spelled as serde_json
  writes it (`json_spelling`: `1.50` is "1.5", `1e3` "1000.0").

serde_json's numbers (board.md §2) are told apart by their text (`json_number_is_float`): `-0`, `2.0`
and `1e2` are floats, never an i64.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal

YAML_TAG = "tag:yaml.org,2002:"
# serde_yaml's `parse_null` / `parse_bool` (de.rs): exactly these words.
NULL_WORDS = frozenset(("null", "Null", "NULL", "~"))
BOOL_WORDS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
U64_MAX = 2**64 - 1
I64_MIN = -(2**63)
_RADIX = (("0x", 16, re.compile(r"[0-9a-fA-F]+\Z")), ("0o", 8, re.compile(r"[0-7]+\Z")), ("0b", 2, re.compile(r"[01]+\Z")))
_DECIMAL = re.compile(r"[0-9]+\Z")
# Rust's `f64::from_str` grammar (after serde_yaml has taken one `+` off): digits with an optional fraction
# (`5.`, `.5`), an optional exponent; `inf`/`infinity`/`nan` parse too but are not finite, so never a float.
_RUST_FLOAT = re.compile(r"-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?\Z")
_SPECIAL_FLOATS = {".inf": math.inf, ".Inf": math.inf, ".INF": math.inf, "-.inf": -math.inf, "-.Inf": -math.inf,
                   "-.INF": -math.inf, ".nan": math.nan, ".NaN": math.nan, ".NAN": math.nan}


_MAY_RESOLVE = frozenset("0123456789+-.~nNtTfF") | {""}


def _digits_but_not_number(s: str) -> bool:
    """serde_yaml's `digits_but_not_number`: a leading zero followed by digits is a string (`010`)."""
    s = s[1:] if s[:1] in "+-" and s else s
    return len(s) > 1 and s[0] == "0" and s[1:].isascii() and s[1:].isdigit()


def _int(s: str) -> int | None:
    """The integer serde_yaml's `visit_int` reads (u64, i64, then u128, i128), or None. Beyond 128 bits it
    reads none (and the text may then be a float)."""
    unsigned = s[1:] if s.startswith("+") else s
    negative = s.startswith("-")
    body = s[1:] if negative else unsigned
    if body.startswith(("+", "-")):
        return None
    for prefix, base, digits in _RADIX:
        if body.startswith(prefix) and digits.match(body[2:]):
            n = int(body[2:], base)
            break
    else:
        if _digits_but_not_number(s) or not _DECIMAL.match(body):
            return None
        n = int(body)
    n = -n if negative else n
    return n if -(2**127) <= n <= 2**128 - 1 else None


def _float(s: str) -> float | None:
    """serde_yaml's `parse_f64`: `.inf` spellings (a `+` allowed), `-.inf`, `.nan`, else a finite Rust f64."""
    unsigned = s[1:] if s.startswith("+") else s
    if unsigned.startswith(("+", "-")) and s.startswith("+"):
        return None
    if unsigned in (".inf", ".Inf", ".INF") or s in _SPECIAL_FLOATS:
        return _SPECIAL_FLOATS.get(unsigned, _SPECIAL_FLOATS.get(s))
    if not _RUST_FLOAT.match(unsigned):
        return None
    f = float(unsigned)
    return f if math.isfinite(f) else None


def resolve_plain(text: str) -> tuple[str, object]:
    """(core tag name, value) of an untagged plain scalar as serde_yaml 0.9 resolves it (workflow.md §2
    "Resolution"): ("null", None), ("bool", …), ("int", …), ("float", …) or ("str", text)."""
    if text[:1] not in _MAY_RESOLVE:  # most names and words: no null, boolean or number starts so
        return "str", text
    if text == "" or text in NULL_WORDS:
        return "null", None
    if text in BOOL_WORDS:
        return "bool", BOOL_WORDS[text]
    n = _int(text)
    if n is not None:
        return "int", n
    if not _digits_but_not_number(text):
        f = _float(text)
        if f is not None:
            return "float", f
    return "str", text


def resolve_tagged(tag: str, text: str) -> tuple[str, object] | None:
    """The value of a scalar with a core tag (`!!int 5`, even quoted), or None when its text is not of that
    type (serde: "invalid value: string "x", expected an integer"). `!!str` is the text."""
    kind = tag[len(YAML_TAG):] if tag.startswith(YAML_TAG) else None
    if kind == "null":
        return ("null", None) if text == "" or text in NULL_WORDS else None
    if kind == "bool":
        return ("bool", BOOL_WORDS[text]) if text in BOOL_WORDS else None
    if kind == "int":
        n = _int(text)
        return ("int", n) if n is not None else None
    if kind == "float":
        f = _float(text)
        return ("float", f) if f is not None else None
    return "str", text


# serde's words for a core tag's type ("expected an integer").
TAG_EXPECTED = {"null": "null", "bool": "a boolean", "int": "an integer", "float": "a float"}


def reads_as_absent(text: str, plain: bool, tag: str | None) -> bool:
    """serde_yaml's `deserialize_option`: a plain scalar that is empty or a null word (untagged or `!!null`)
    is None; any other scalar (quoted, or with another tag) is Some."""
    if not plain:
        return False
    if tag is not None and tag != YAML_TAG + "null" and not tag.startswith(YAML_TAG + "null"):
        return False
    return text == "" or text in NULL_WORDS


def json_spelling(v: object) -> str:
    """An Expr's text: a literal spelled as serde_json writes it (`Value::to_string`: `1.0` for a whole
    double, ryu's shortest digits, `1e300`; a double that is not finite is `null`)."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return ryu(v)
    return str(v)


def ryu(f: float) -> str:
    """A finite double as serde_json (ryu's `format64`) writes it; `null` for NaN and the infinities."""
    if not math.isfinite(f):
        return "null"
    if f == 0:
        return "-0.0" if math.copysign(1, f) < 0 else "0.0"
    sign = "-" if f < 0 else ""
    _, ds, e10 = Decimal(repr(abs(f))).normalize().as_tuple()
    digits = "".join(map(str, ds))
    length = len(digits)
    kk = length + e10
    if 0 <= e10 and kk <= 16:
        out = digits + "0" * (kk - length) + ".0"
    elif 0 < kk <= 16:
        out = digits[:kk] + "." + digits[kk:]
    elif -5 < kk <= 0:
        out = "0." + "0" * (-kk) + digits
    elif length == 1:
        out = f"{digits}e{kk - 1}"
    else:
        out = f"{digits[0]}.{digits[1:]}e{kk - 1}"
    return sign + out


def json_number_is_float(text: str) -> bool:
    """serde_json reads a number with a fraction or an exponent, `-0`, or an integer beyond 64 bits as a
    float (board.md §2: never an i64)."""
    if any(c in text for c in ".eE") or text == "-0":
        return True
    n = int(text)
    return not (I64_MIN <= n <= U64_MAX)
