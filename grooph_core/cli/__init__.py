"""The `grooph` command line (spec/cli.md): dispatch to one module per command.

Each command module exposes `SYNOPSIS`, `SUMMARY`, `HELP` (the rest of its help page, with at least
one example) and `run(argv: list[str]) -> int`. Exit codes follow cli.md §0.2: 0 done, 1 errors in
the document or a wrong invocation, 2 an unexpected failure (a bug), never a traceback.
"""

from __future__ import annotations

import importlib
import sys

from grooph_core import __version__
from grooph_core.source.text import osa_distance

# name -> module; overview groups in the reference's order (cli.md §0.1), only what we implement.
COMMANDS: dict[str, str] = {
    "new": "grooph_core.cli.new_cmd",
    "apply": "grooph_core.cli.apply_cmd",
    "validate": "grooph_core.cli.validate_cmd",
    "shape": "grooph_core.cli.shape_cmd",
    "fmt": "grooph_core.cli.fmt_cmd",
    "image": "grooph_core.cli.image_cmd",
}
ALIASES = {"canonicalize": "fmt"}
GROUPS = [("Start", ["new", "apply"]), ("Check", ["validate", "shape", "fmt"]), ("See", ["image"])]


def _module(name: str):
    return importlib.import_module(COMMANDS[name])


def overview() -> str:
    lines = [f"grooph {__version__}: check, format, change and draw grooph graphs and operation maps", "",
             "Usage: grooph <command> [arguments] [flags]", ""]
    for group, names in GROUPS:
        lines.append(f"{group}:")
        for n in names:
            try:
                summary = _module(n).SUMMARY
            except ImportError:
                continue
            label = n + (" (canonicalize)" if n == "fmt" else "")
            lines.append(f"  {label:<26}{summary}")
        lines.append("")
    lines.append("grooph help <command> shows a command's page.")
    return "\n".join(lines) + "\n"


def command_help(name: str) -> str:
    m = _module(name)
    return f"Usage: {m.SYNOPSIS}\n\n{m.HELP.strip()}\n"


def _closest(word: str) -> str | None:
    w = word.lower()
    names = [n for _, ns in GROUPS for n in ns] + list(ALIASES)
    best, best_d = None, None
    for n in names:
        d = 1 if (len(w) >= 3 and n.startswith(w)) else osa_distance(w, n)
        if best_d is None or d < best_d:
            best, best_d = n, d
    if best is not None and best_d <= max(1, len(w) // 3):
        return best
    return None


def usage_error(name: str, what: str) -> int:
    """cli.md §0.2 usage error: what is wrong, the synopsis, where to read more; exit 1."""
    sys.stderr.write(f"grooph: {what}\nUsage: {_module(name).SYNOPSIS}\nMore: grooph help {name}\n")
    return 1


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    escape_what_cannot_be_encoded()
    try:
        return _main(argv)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:  # cli.md §0.2: an unexpected failure is a message and exit 2, never a trace
        sys.stderr.write(f"grooph: unexpected failure: {type(e).__name__}: {e}\n")
        return 2


def escape_what_cannot_be_encoded() -> None:
    """Every output writes a character its stream cannot encode as its escape (docs/bad-input.md, "Lone
    surrogate"): a lone surrogate a document's text escapes (`"\\ud800"`, valid JSON) reads into a key or
    a value that messages, reports and listings quote, and UTF-8 cannot hold it. Written `\\ud800`, it is
    in a JSON report the JSON escape of the same character, in text what the file says; never a failure."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):  # a closed or detached stream: nothing is written to it anyway
                pass


def _main(argv: list[str]) -> int:
    if not argv:
        sys.stdout.write(overview())
        return 1
    cmd, rest = argv[0], argv[1:]
    if cmd in ("help", "--help", "-h"):
        if cmd == "help" and rest:
            cmd, rest = rest[0], ["--help"]
        else:
            sys.stdout.write(overview())
            return 0
    if cmd in ("--version", "-v", "version"):
        sys.stdout.write(__version__ + "\n")
        return 0
    name = ALIASES.get(cmd, cmd)
    if name not in COMMANDS:
        hint = _closest(cmd)
        msg = f'grooph: unknown command "{cmd}".'
        if hint:
            msg += f' Did you mean "{hint}"?'
        sys.stderr.write(msg + "\ngrooph --help lists the commands.\n")
        return 1
    if "--help" in rest or "-h" in rest:
        sys.stdout.write(command_help(name))
        return 0
    refusal = neighbour_refusal(name, rest)
    if refusal:
        sys.stderr.write(refusal + "\n")
        return 1
    return int(_module(name).run(rest) or 0)


# The commands that read a document of any kind its file name says, and ask that kind whether it takes
# the command (`DocumentKind.command_refusal`, cli.md §0.4).
REFUSE_NEIGHBOURS = ("fmt", "apply", "image", "shape")


def neighbour_refusal(name: str, argv: list[str]) -> str | None:
    """The refusal of a command by the kind of a file an argument names (by name: `x.workflow.yaml`,
    `x.board.json`, `x.episodes.json`), when that kind does not take the command."""
    if name not in REFUSE_NEIGHBOURS:
        return None
    from grooph_core.source.kinds import neighbour_from_name

    named = [arg for arg in argv if not arg.startswith("-") and neighbour_from_name(arg) is not None]
    if not named:  # every command takes a graph or a map (cli.md §0.4): no face, nor its reader, to load
        return None
    from grooph_core.ide.kinds import kind_of_file

    for arg in named:
        kind = kind_of_file(arg)
        refusal = kind.command_refusal(name, arg) if kind is not None else None
        if refusal is not None:
            return refusal
    return None


if __name__ == "__main__":
    sys.exit(main())
