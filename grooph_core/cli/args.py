"""A small flag reader with cli.md §0.1 semantics: `--name` booleans, `--name value` flags,
positionals and flags mixed in any order. Wrong forms raise `UsageError` with the message to print."""

from __future__ import annotations

from dataclasses import dataclass, field


class UsageError(Exception):
    """An invocation the command cannot use; the message says what is wrong."""


@dataclass
class Parsed:
    positionals: list[str] = field(default_factory=list)
    flags: dict[str, object] = field(default_factory=dict)


def parse_args(argv: list[str], *, booleans=(), valued=(), optional=(), aliases=None) -> Parsed:
    """Read argv; `aliases` maps alternative flag names to canonical ones (e.g. --complete); an
    `optional` flag is True alone and takes a value only inline (`--changed=main`), so that the word
    after it stays a positional."""
    aliases = aliases or {}
    out = Parsed()
    i = 0
    while i < len(argv):
        a = argv[i]
        if a.startswith("--") and len(a) > 2:
            name, eq, inline = a[2:].partition("=")
            name = aliases.get(name, name)
            if name in optional:
                out.flags[name] = inline if eq else True
            elif name in booleans:
                if eq:
                    raise UsageError(f"--{name} takes no value")
                out.flags[name] = True
            elif name in valued:
                if eq:
                    out.flags[name] = inline
                else:
                    if i + 1 >= len(argv):
                        raise UsageError(f"--{name} needs a value")
                    i += 1
                    out.flags[name] = argv[i]
            else:
                raise UsageError(f"unknown flag --{name}")
        elif a == "-" or not a.startswith("-"):
            out.positionals.append(a)
        else:
            raise UsageError(f"unknown flag {a}")
        i += 1
    return out
