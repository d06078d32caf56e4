"""Checking many files for `grooph validate`: one file's result (`check_path`), and the results of
many in the order named (`check_all`), serially or over a process pool that uses every core.

Both paths run the same `check_path`, so the output does not depend on how the work was spread; the
pool hands results back in order (`imap`), so a listing can be printed while later files are checked.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import signal
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from grooph_core.cli.discover import Named
from grooph_core.ide.neighbours import analysis as neighbours
from grooph_core.ide.kinds import kind_named
from grooph_core.issues import Issue
from grooph_core.rules.map import file_graph_resolver
from grooph_core.semantics.by_hand import by_hand, by_hand_lines
from grooph_core.semantics.map_shape import map_shape, shape_line
from grooph_core.rules.validate import validate_value
from grooph_core.source.json_reader import parse
from grooph_core.source.kinds import (
    any_kind_from_name,
    is_yaml_name,
    neighbour_from_name,
    neighbour_from_value,
    kind_from_name,
)
from grooph_core.source.line_index import LineIndex, lsp_range
from grooph_core.source.load import Loaded, NoSuchFile, read_document

# Below this many files the pool costs more than it saves: bench/bench_validate_cli.py measures a pool of
# 2 started and stopped in 7-11 ms and a 2k graph checked in 0.24-0.34 ms, so the pool pays from 40-90 of
# the smallest files (fewer for larger ones, whose checks cost more); 48 sits in that range.
POOL_FROM_FILES = 48

Range = dict  # {"start": {"line", "character"}, "end": {…}}: 0-based, UTF-16 (line_index.lsp_range)


@dataclass(frozen=True)
class FileResult:
    """What `validate` reports of one path: its issues (in validation order) with their ranges when
    asked, the kind, and the extra facts of a map (`shapeLine`, `byHand`, `byHandLines`) or of a
    proposal set (`proposal`). `missing` when the path names no readable file."""

    path: str
    missing: bool
    kind: str
    issues: tuple[Issue, ...] = ()
    ranges: tuple[Range, ...] | None = None
    extra: dict = dataclasses.field(default_factory=dict)
    refusal: str | None = None  # a file that is not ours (a YAML file that is no workflow), in words

    @property
    def has_error(self) -> bool:
        return any(i.severity == "error" for i in self.issues)

    @property
    def proposal(self) -> bool:
        return bool(self.extra.get("proposal"))


def issue_ranges(doc: Loaded, issues: list[Issue]) -> list[dict]:
    """The range of each issue in plain LSP shape (`line_index.lsp_range`: 0-based, UTF-16 columns),
    from the tolerant source map; a file that is not JSON points every issue at its first syntax problem."""
    if not issues:
        return []
    if isinstance(doc, neighbours.NeighbourLoaded):
        return neighbours.report_ranges(doc, issues)
    if doc.text is None:
        return [lsp_range(LineIndex(""), (0, 0)) for _ in issues]
    from grooph_core.ide.grooph.analysis import issue_span  # lazy: ~50 ms (-X importtime) a check without ranges never needs
    parsed = parse(doc.text)
    lines = LineIndex(doc.text)
    syntax = next((p for p in parsed.problems if p.code == "E_SYNTAX"), None)
    return [lsp_range(lines, issue_span(parsed, syntax if doc.error is not None and syntax is not None else issue))
            for issue in issues]


def check_file(path: str, *, export: bool) -> tuple[Loaded, list[Issue], dict]:
    """Validate one file (cli.md §2.1); returns the loaded document, its issues and the extra facts.
    A neighbouring kind is told by name, a YAML file by content, a JSON file of another name by content
    (cli.md §0.4); `ide.neighbours.analysis.NotOurs` for a YAML file that is no workflow."""
    neighbour = neighbour_from_name(path) or (neighbours.yaml_kind(path) if is_yaml_name(path) else None)
    if neighbour is not None:  # workflow.md, board.md, episodes.md
        return (*neighbours.check_file(path, neighbour), {})
    doc = read_document(path)
    extra: dict = {}
    if doc.error is not None:
        return doc, [doc.error], extra
    value = doc.value
    neighbour = neighbour_from_value(value)
    if neighbour is not None:
        return (*neighbours.check_text(path, doc.text, neighbour), {})
    if isinstance(value, dict) and "groophProposals" in value and "groophMap" not in value:
        extra["proposal"] = True
        return doc, [], extra
    if kind_named(doc.kind).names_graphs:  # a map: its sessions' graphs are read beside it (map.md §6.8)
        issues = validate_value(value, doc.kind, resolver=file_graph_resolver(path))
        if not any(i.code == "E_SCHEMA" for i in issues):
            extra["byHand"] = by_hand(value)
            extra["byHandLines"] = by_hand_lines(value)
            extra["shapeLine"] = f"{value.get('id')}: {shape_line(map_shape(value))}"
        return doc, issues, extra
    return doc, validate_value(value, "graph", export=export), extra


def check_path(item: Named, *, export: bool, want_ranges: bool) -> FileResult:
    """The result of one named path; the issues lose their rule-private `data` and `facts` (nothing
    printed reads them), which keeps what a worker sends back small."""
    path = item.path
    try:
        if not item.exists:
            raise NoSuchFile(path)
        doc, issues, extra = check_file(path, export=export)
    except (NoSuchFile, OSError):
        return FileResult(path, True, any_kind_from_name(path) or "graph")
    except neighbours.NotOurs as e:
        return FileResult(path, False, "", refusal=str(e))
    ranges = tuple(issue_ranges(doc, issues)) if want_ranges else None
    lean = tuple(dataclasses.replace(i, facts=None) if i.facts else i for i in issues)
    return FileResult(path, False, doc.kind, lean, ranges, extra)


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def workers_for(files: int, jobs: int | None) -> int:
    """How many processes check `files` files: `jobs` when given (at most one per file), else every
    usable core once there are enough files for the pool to pay, else 1 (serial)."""
    if jobs is not None:
        return max(1, min(jobs, files))
    if files < POOL_FROM_FILES:
        return 1
    return min(usable_cores(), files)


def _ignore_interrupt() -> None:
    """Workers leave Ctrl-C to the parent, which stops the pool (no traceback from every worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _pool_context():
    """`fork` where it is safe and cheap (Linux: workers start with the parent's modules loaded),
    the platform's default elsewhere."""
    import multiprocessing

    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def warm_up(kinds: set[str], want_ranges: bool) -> None:
    """Load what checking the given kinds loads lazily (models, compiled schemas, rules; the source map
    when ranges are wanted: 0.1-0.2 s), once, so that forked workers start with it instead of each
    loading it again. One-by-one checking pays the same, at the first file that needs it."""
    import importlib

    if want_ranges:
        from grooph_core.ide.grooph import analysis  # noqa: F401
        from grooph_core.source import line_index, json_reader as source  # noqa: F401
    from grooph_core.rules import doc_size, unknown_keys  # noqa: F401

    for kind, also in _ALSO_LOADED.items():
        if kind in kinds:
            importlib.import_module(f"grooph_core.rules.{kind}")
            validate_value({}, kind)  # the models and the compiled schema of the kind
            for module in also:
                importlib.import_module(module)


# What checking a grooph kind loads beyond its rules package: a map's by-hand list and shape line.
_ALSO_LOADED = {"graph": (), "map": ("grooph_core.semantics.by_hand", "grooph_core.semantics.map_shape")}


def check_all(items: list[Named], *, export: bool, want_ranges: bool, jobs: int | None = None,
              on_result: Callable[[int], None] | None = None) -> Iterator[FileResult]:
    """The results of `items` in their order; `on_result(n)` is told how many are done after each."""
    one = functools.partial(check_path, export=export, want_ranges=want_ranges)
    workers = workers_for(len(items), jobs)
    if workers <= 1:
        for n, item in enumerate(items, 1):
            yield one(item)
            if on_result:
                on_result(n)
        return
    warm_up({kind_from_name(i.path) or "graph" for i in items}, want_ranges)
    chunk = max(1, min(32, len(items) // (workers * 8)))
    with _pool_context().Pool(workers, initializer=_ignore_interrupt) as pool:
        for n, result in enumerate(pool.imap(one, items, chunksize=chunk), 1):
            yield result
            if on_result:
                on_result(n)
