"""Text edits as a person makes them while typing (issue 30, "What to build" 2), for the differential tests
against the engine oracle: a character typed or deleted, a line duplicated, swapped, indented, dedented or
deleted, the text cut short, a block pasted, a scalar replaced by a word the format reads specially.

`typed(rnd, text, others, words)` applies one to three of them, chosen by `rnd` (a seeded `random.Random`),
and says which. Works on any text (YAML or JSON); `words` are the format's special scalars."""

from __future__ import annotations

import random
import re

# Characters a slip of the fingers or a paste puts in a text: letters and digits, YAML's and JSON's
# indicators, white space (a tab above all), a byte-order mark, a non-ASCII letter.
TYPED = "aeRz09 \t\n:-#,\"'[]{}!&*|>?%@`~.\\\ufeffé"

# Plain scalars YAML 1.2 (serde_yaml 0.9) reads as something else than a string, or as syntax.
YAML_WORDS = ("null", "~", "Null", "true", "False", "yes", "no", "on", "off", "0x10", "0o17", "010", "1e3", "1.50",
              ".inf", "-.Inf", ".nan", "-0", "+5", "1_000", "0b101", "123456789012345678901234", "''", '""', "[]",
              "{}", "-", "?", "!!str", "!!null x", "!custom x", "&a x", "*a", "|", ">", "'it''s'", '"\\t"', "@x", "%x")
# And the JSON words: literals, numbers serde_json reads specially, strings with escapes.
JSON_WORDS = ("null", "true", "false", "0", "-0", "2.0", "1e2", "1e400", "12345678901234567890123", '""', '"\\ud800"',
              '"\\u0000"', "[]", "{}", '{"x": 1}', '"x"', "NaN", "'x'")

_SCALAR = re.compile(r"(?<=: )[^\s{}\[\],#][^\n{}\[\],#]*?(?=\s*(?:$|[,}\]#]))", re.M)


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def type_char(rnd: random.Random, text: str, **_) -> tuple[str, str]:
    at = rnd.randint(0, len(text))
    ch = rnd.choice(TYPED)
    return text[:at] + ch + text[at:], f"typed {ch!r} at {at}"


def delete_char(rnd: random.Random, text: str, **_) -> tuple[str, str]:
    if not text:
        return text, "nothing to delete"
    at = rnd.randrange(len(text))
    return text[:at] + text[at + 1:], f"deleted {text[at]!r} at {at}"


def _line_edit(name):
    def edit(rnd: random.Random, text: str, **_) -> tuple[str, str]:
        lines = _lines(text)
        if not lines:
            return text, "no line"
        i = rnd.randrange(len(lines))
        line = lines[i]
        if name == "duplicate":
            lines.insert(i, line if line.endswith("\n") else line + "\n")
        elif name == "swap":
            if i + 1 >= len(lines):
                return text, "no line to swap"
            a, b = lines[i], lines[i + 1]
            if not b.endswith("\n"):
                a, b = a.rstrip("\n"), b + "\n"
            lines[i], lines[i + 1] = b, a
        elif name == "indent":
            lines[i] = rnd.choice(("  ", " ", "\t", "    ")) + line
        elif name == "dedent":
            n = len(line) - len(line.lstrip(" "))
            lines[i] = line[min(n, rnd.choice((1, 2))):]
        else:  # delete
            del lines[i]
        return "".join(lines), f"{name} line {i + 1}"
    return edit


def cut_short(rnd: random.Random, text: str, **_) -> tuple[str, str]:
    at = rnd.randint(0, len(text))
    return text[:at], f"cut at {at}"


def paste_block(rnd: random.Random, text: str, others: list[str] = (), **_) -> tuple[str, str]:
    """A run of one to six lines of this text or another, pasted at a line's start."""
    source = _lines(rnd.choice(list(others) or [text]))
    if not source:
        return text, "nothing to paste"
    start = rnd.randrange(len(source))
    block = "".join(source[start:start + rnd.randint(1, 6)])
    if not block.endswith("\n"):
        block += "\n"
    lines = _lines(text)
    i = rnd.randint(0, len(lines))
    if i == len(lines) and lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    lines.insert(i, block)
    return "".join(lines), f"pasted {len(block.splitlines())} lines at line {i + 1}"


def special_word(rnd: random.Random, text: str, words=YAML_WORDS, **_) -> tuple[str, str]:
    """A scalar (after `: `) replaced by a word the format reads specially."""
    spots = list(_SCALAR.finditer(text))
    if not spots:
        return text, "no scalar"
    m = rnd.choice(spots)
    word = rnd.choice(words)
    return text[:m.start()] + word + text[m.end():], f"{m.group(0)!r} -> {word!r} at {m.start()}"


EDITS = (type_char, type_char, type_char, delete_char, delete_char, _line_edit("duplicate"), _line_edit("swap"),
         _line_edit("indent"), _line_edit("dedent"), _line_edit("delete"), cut_short, paste_block, special_word,
         special_word)


def typed(rnd: random.Random, text: str, others: list[str] = (), words=YAML_WORDS) -> tuple[str, str]:
    """`text` after one to three typing edits (a cut short only as the last): (the text, what was done)."""
    done = []
    for _ in range(rnd.choice((1, 1, 2, 3))):
        edit = rnd.choice(EDITS)
        text, what = edit(rnd, text, others=others, words=words)
        done.append(what)
        if edit is cut_short:
            break
    return text, "; ".join(done)
