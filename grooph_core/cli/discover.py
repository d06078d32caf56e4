"""Which files `grooph validate` checks: the paths named, and every document under a named folder.

One place decides what counts as a document in a folder (`is_document_name`, which asks
`grooph_core.source.kinds` by file name), so a new document kind is found by adding its name there.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from grooph_core.source.kinds import DOC_SUFFIXES

# Folders a walk never enters: version-control metadata, which holds no document as a file of its own
# and can hold tens of thousands of files. A folder named on the command line is always walked.
SKIPPED_FOLDERS = frozenset({".git", ".hg", ".svn"})


@dataclass(frozen=True)
class Named:
    """One thing to report on, in order: a file to check (`exists` False when the path names no file),
    or a named folder in which no document was found (`empty_folder`)."""

    path: str
    exists: bool = True
    empty_folder: bool = False


def is_document_name(name: str) -> bool:
    """A file a folder walk picks up: its name says it is a document of a kind we check."""
    return name.lower().endswith(DOC_SUFFIXES)


def find_documents(paths: list[str]) -> list[Named]:
    """Each path as typed, folders replaced by their documents (files sorted by name within each folder,
    subfolders sorted and walked depth first, links to folders not followed)."""
    out: list[Named] = []
    for p in paths:
        if not os.path.isdir(p):
            out.append(Named(p, os.path.isfile(p)))
            continue
        found = []
        for root, dirs, names in os.walk(p):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED_FOLDERS)
            found.extend(os.path.join(root, f) for f in sorted(names) if is_document_name(f))
        if found:
            out.extend(Named(f) for f in found)
        else:
            out.append(Named(p, True, empty_folder=True))
    return out


def looked_for() -> str:
    """The file names a walk looks for, in words (for the message about a folder with none)."""
    names = [f"*{s}" for s in DOC_SUFFIXES]
    return ", ".join(names[:-1]) + " or " + names[-1]
