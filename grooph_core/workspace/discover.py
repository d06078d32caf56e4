"""Finding the grooph documents under a folder: by name (`*.grooph.json`, `*.grooph-map.json`, and the
neighbouring formats' names of kinds.NEIGHBOURS: `*.workflow.yaml`, `*.board.json`, `*.episodes.json`
…), or a `.json` file whose top level claims to be one (`grooph` / `groophMap`, kinds.py), skipping what
`.gitignore` ignores (gitignore.py). Symbolic links to folders are not followed (no cycles)."""

from __future__ import annotations

import os
from collections.abc import Iterator

from grooph_core.source.kinds import DOC_SUFFIXES, kind_from_name, neighbour_from_name
from grooph_core.workspace.gitignore import IgnoreTree


def is_candidate_name(name: str) -> bool:
    """A file name worth looking at: a grooph name, a neighbouring format's name, or any `.json` (it may
    claim by content)."""
    return kind_from_name(name) is not None or neighbour_from_name(name) is not None or name.lower().endswith(".json")


def name_globs() -> tuple[str, ...]:
    """The glob patterns of the names `is_candidate_name` accepts, for a file watcher: every `.json`,
    and each document suffix of another extension (kinds.DOC_SUFFIXES: `.workflow.yaml` …)."""
    return ("**/*.json", *dict.fromkeys(f"**/*{s}" for s in DOC_SUFFIXES if not s.endswith(".json")))


def walk(root: str, tree: IgnoreTree | None = None) -> Iterator[str]:
    """Every candidate file under `root` that `.gitignore` does not ignore, in a stable order (folders
    sorted by name, depth first). Unreadable folders are skipped."""
    tree = tree or IgnoreTree(root)
    stack = [os.path.abspath(root)]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        rules = tree.files_for(folder)
        subfolders = []
        for e in entries:
            try:
                is_dir = e.is_dir(follow_symlinks=False)
                is_file = not is_dir and e.is_file()
            except OSError:
                continue
            if not (is_dir or is_file):
                continue
            if is_file and not is_candidate_name(e.name):
                continue
            if tree.decide_in(rules, e.path, is_dir):
                continue
            if is_dir:
                subfolders.append(e.path)
            else:
                yield e.path
        stack.extend(reversed(subfolders))
