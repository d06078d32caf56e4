"""The example maps of map.md §10 (tiny-shop and one variation per code) and pictures.md §12.2
(bakery-ops), as fresh Python values, so tests and fixtures use the spec's documents exactly."""

from __future__ import annotations

import copy


TINY_SHOP = {
    "groophMap": 0, "id": "tiny-shop", "name": "Tiny shop", "version": 1,
    "lanes": [
        {"id": "desk", "name": "Desk", "machine": "a desktop", "account": "team account"},
    ],
    "sessions": [
        {"id": "planner", "name": "Planner", "lane": "desk", "harness": "claude-code", "role": "Splits the work"},
        {"id": "coder", "name": "Coder", "lane": "desk", "harness": "claude-code", "role": "Writes the change"},
    ],
    "handoffs": [
        {"id": "h-task", "from": "planner", "to": "coder", "carrier": {"kind": "session-message"}},
        {"id": "h-result", "from": "coder", "to": "planner", "carrier": {"kind": "pull-request", "repo": "acme/shop"}},
    ],
}

BAKERY_OPS = {
    "groophMap": 0, "id": "bakery-ops", "name": "Bakery ops", "version": 3, "asOf": "2027-01-15",
    "lanes": [
        {"id": "office", "name": "Office PC", "machine": "office desktop", "place": "local", "account": "bakery team"},
        {"id": "cloud", "name": "Cloud runners", "machine": "cloud sandboxes", "place": "cloud", "account": "bakery team"},
    ],
    "people": [
        {"id": "ana", "name": "Ana", "role": "Owner; approves the menu"},
    ],
    "sessions": [
        {"id": "chef", "name": "Chef", "lane": "office", "harness": "claude-code", "model": "opus",
         "role": "Plans the week's menu and checks the results", "lifetime": "long-lived"},
        {"id": "bakers", "name": "Bakers", "lane": "cloud", "harness": "claude-code", "role": "Each bakes one recipe change",
         "lifetime": "per-task", "count": 4, "repo": "bakery/recipes"},
        {"id": "taster", "name": "Taster", "lane": "cloud", "harness": "codex", "role": "Reviews each change",
         "lifetime": "per-task"},
    ],
    "handoffs": [
        {"id": "h-menu", "from": "ana", "to": "chef", "carrier": {"kind": "session-message"}, "what": "the week's wishes"},
        {"id": "h-bake", "from": "chef", "to": "bakers", "carrier": {"kind": "session-message"}, "what": "one recipe each"},
        {"id": "h-pr", "from": "bakers", "to": "taster", "carrier": {"kind": "pull-request", "repo": "bakery/recipes"},
         "what": "the change"},
        {"id": "h-verdict", "from": "taster", "to": "chef",
         "carrier": {"kind": "branch", "repo": "bakery/recipes", "ref": "reviews"}, "what": "pass or fail notes"},
        {"id": "h-morning", "from": "chef", "to": "chef", "carrier": {"kind": "scheduled-message", "schedule": "07:00 daily"},
         "what": "its morning check"},
        {"id": "h-ready", "from": "chef", "to": "ana", "carrier": {"kind": "notification", "where": "phone"},
         "what": "the menu is ready"},
    ],
}


def tiny_shop() -> dict:
    """A fresh copy of map.md §10's tiny-shop (valid, no issue, empty by-hand list)."""
    return copy.deepcopy(TINY_SHOP)


def bakery_ops() -> dict:
    """A fresh copy of pictures.md §12.2's bakery-ops."""
    return copy.deepcopy(BAKERY_OPS)


def with_people(doc: dict, people: list) -> dict:
    """`people` placed where canonical order puts it (after `lanes`)."""
    out = {}
    for k, v in doc.items():
        out[k] = v
        if k == "lanes":
            out["people"] = people
    return out


def duplicate_id() -> dict:
    """§10.2: the second handoff renamed `coder`."""
    d = tiny_shop()
    d["handoffs"][1]["id"] = "coder"
    return d


def dangling_end() -> dict:
    """§10.3: `h-result` ends at `plannr`."""
    d = tiny_shop()
    d["handoffs"][1]["to"] = "plannr"
    return d


def missing_carrier() -> dict:
    """§10.4: `h-task` has no carrier."""
    d = tiny_shop()
    del d["handoffs"][0]["carrier"]
    return d


def unnamed_pull_request() -> dict:
    """§10.4, second form: `h-result`'s pull request names no repo."""
    d = tiny_shop()
    d["handoffs"][1]["carrier"] = {"kind": "pull-request"}
    return d


def cross_accounts() -> dict:
    """§10.5: coder on a laptop under another account, still reached by a session message."""
    d = tiny_shop()
    d["lanes"].append({"id": "laptop", "name": "Laptop", "machine": "a laptop", "account": "contractor account"})
    d["sessions"][1]["lane"] = "laptop"
    return d


def cross_harnesses() -> dict:
    """§10.5, harness variant: one lane, coder on codex."""
    d = tiny_shop()
    d["sessions"][1]["harness"] = "codex"
    return d


def notify_session() -> dict:
    """§10.6: a notification to the session coder."""
    d = tiny_shop()
    d["handoffs"][0]["carrier"] = {"kind": "notification", "where": "chat"}
    return d


def island_session() -> dict:
    """§10.7: reviewer is touched by no handoff."""
    d = tiny_shop()
    d["sessions"].append({"id": "reviewer", "name": "Reviewer", "lane": "desk", "harness": "codex",
                          "role": "Reads the change"})
    return d


def island_person() -> dict:
    """§10.7, person form: maya is touched by no handoff."""
    return with_people(tiny_shop(), [{"id": "maya", "name": "Maya"}])


def no_return() -> dict:
    """§10.8: tester is handed work and hands nothing on."""
    d = tiny_shop()
    d["sessions"].append({"id": "tester", "name": "Tester", "lane": "desk", "harness": "claude-code",
                          "role": "Runs the tests"})
    d["handoffs"].append({"id": "h-check", "from": "coder", "to": "tester", "carrier": {"kind": "session-message"}})
    return d


def graph_pointer(pointer: str = "plans/missing.grooph.json") -> dict:
    """§10.9: planner points at a graph file."""
    d = tiny_shop()
    d["sessions"][0]["graph"] = pointer
    return d


def person_starts() -> dict:
    """§10.12: maya starts h-ask, carried by a person with no `who` (valid)."""
    d = with_people(tiny_shop(), [{"id": "maya", "name": "Maya", "role": "Owner"}])
    d["handoffs"].insert(0, {"id": "h-ask", "from": "maya", "to": "planner", "carrier": {"kind": "person"}})
    return d


def wakes_itself() -> dict:
    """§10.12: planner wakes itself every hour (valid)."""
    d = tiny_shop()
    d["handoffs"].append({"id": "h-wake", "from": "planner", "to": "planner",
                          "carrier": {"kind": "scheduled-message", "schedule": "every hour"}})
    return d


def notify_person() -> dict:
    """§10.12: a notification with no `where` to a person (valid)."""
    d = with_people(tiny_shop(), [{"id": "maya", "name": "Maya", "role": "Owner"}])
    d["handoffs"].append({"id": "h-done", "from": "planner", "to": "maya", "carrier": {"kind": "notification"}})
    return d
