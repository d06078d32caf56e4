"""What the board rules read of a document (board.md §2, §4): the tasks by key and the dependencies.

`read_board(value)` never raises on any value; an unreadable part is None (or left out) and the rules
that need it say nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from grooph_core.source.text import pointer_join


@dataclass(frozen=True)
class Dependency:
    index: int
    parent: object
    child: object

    @property
    def pointer(self) -> str:
        return f"/dependencies/{self.index}"


@dataclass(frozen=True)
class BoardDoc:
    value: dict
    tasks: dict | None  # key -> task value (a task that is not a mapping is kept; rules skip it)
    dependencies: tuple[Dependency, ...]

    def task_items(self):
        """(key, pointer, task mapping) for every readable task, in document order."""
        for key, task in (self.tasks or {}).items():
            if type(task) is dict:
                yield key, pointer_join("/tasks", key), task


def read_board(value: object, previous: BoardDoc | None = None) -> BoardDoc:
    """The document the board rules read (board.md §3; any value). `previous` (the reading of the version
    before, issue 24) is not used, and always None today: a board is JSON, read whole each time."""
    v = value if type(value) is dict else {}
    tasks = v.get("tasks")
    deps = v.get("dependencies")
    dependencies = tuple(
        Dependency(i, d.get("parent"), d.get("child"))
        for i, d in enumerate(deps if type(deps) is list else ()) if type(d) is dict
    )
    return BoardDoc(v, tasks if type(tasks) is dict else None, dependencies)
