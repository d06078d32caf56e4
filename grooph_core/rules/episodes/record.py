"""The rules the `Episodes` schema's descriptions state (episodes.md §3), one function per code; the
seed's words are quoted in each docstring. `read_episodes(value)` never raises; unreadable rows are left
out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from grooph_core.issues import Issue, Named, make
from grooph_core.model.episodes import episode_schema, optional_strings, record_schema
from grooph_core.rules.timestamps import parse_rfc3339
from grooph_core.rules.unknown_keys import UnknownKey
from grooph_core.source.text import did_you_mean, pointer_join

@dataclass(frozen=True)
class EpisodesCurrentNotListed(Named):
    """E_EPISODES_CURRENT_NOT_LISTED: the `name` the issue is about."""

    code = "E_EPISODES_CURRENT_NOT_LISTED"


_LIVE_HERE = ("current", "open")


@dataclass(frozen=True)
class EpisodesDoc:
    value: dict
    rows: tuple[tuple[int, dict], ...]  # (index in `episodes`, row) for each row that is a mapping

    @property
    def current(self) -> str | None:
        """`current` when set: present and not empty (episodes.md §4)."""
        c = self.value.get("current")
        return c if type(c) is str and c != "" else None

    @property
    def session_ids(self) -> list[str]:
        """The rows' `session_id`s, in row order: what `current` may name ("`current` names one of the
        rows, never a sixth thing")."""
        return [r["session_id"] for _, r in self.rows if type(r.get("session_id")) is str]


def read_episodes(value: object, previous: EpisodesDoc | None = None) -> EpisodesDoc:
    """The record the episodes rules read (episodes.md §3; any value). `previous` (the reading of the
    version before, issue 24) is not used, and always None today: an episode record is JSON, read whole."""
    v = value if type(value) is dict else {}
    rows = v.get("episodes")
    return EpisodesDoc(v, tuple((i, r) for i, r in enumerate(rows if type(rows) is list else ()) if type(r) is dict))


def _row(i: int, field: str = "") -> str:
    return f"/episodes/{i}" + (f"/{field}" if field else "")


def current_not_listed(doc: EpisodesDoc) -> Iterator[Issue]:
    """E_EPISODES_CURRENT_NOT_LISTED: "`current` names one of the rows, never a sixth thing"."""
    c = doc.current
    if c is None or type(doc.value.get("episodes", [])) is not list:
        return
    ids = doc.session_ids
    if c not in ids:
        hint = did_you_mean(c, ids)
        yield make("E_EPISODES_CURRENT_NOT_LISTED", f"current names {c}, which is no row's session_id"
                   + (f"; did you mean {hint}?" if hint else ""), ("/current",), ("/current",), facts=EpisodesCurrentNotListed(c))


def standing(doc: EpisodesDoc) -> Iterator[Issue]:
    """E_EPISODES_STANDING: the row `current` names must stand `current`, and no other row may."""
    c = doc.current
    first_current = None
    for i, r in doc.rows:
        st, sid = r.get("standing"), r.get("session_id")
        if type(st) is not str:
            continue
        p = _row(i, "standing")
        if c is not None and sid == c and st != "current":
            yield make("E_EPISODES_STANDING", f"current names {c}, but its row stands {st}", (p,), (p,))
        elif st == "current" and c is None:
            yield make("E_EPISODES_STANDING", f"the row {sid} stands current, but current names no episode",
                       (p,), (p,))
        elif st == "current" and sid != c:
            yield make("E_EPISODES_STANDING", f"the row {sid} stands current, but current names {c}", (p,), (p,))
        elif st == "current" and first_current is not None:
            yield make("E_EPISODES_STANDING", f"a second row stands current ({sid})", (p,), (p,),
                       related=((first_current, "the first"),))
        if st == "current" and first_current is None:
            first_current = p


def empty_notes(doc: EpisodesDoc) -> Iterator[Issue]:
    """E_EPISODES_EMPTY_NOTE: "Never empty: a standing a reader cannot act on is the failure"."""
    for i, r in doc.rows:
        note = r.get("note")
        if type(note) is str and note.strip() == "":
            p = _row(i, "note")
            yield make("E_EPISODES_EMPTY_NOTE", f"the row {r.get('session_id')} has an empty note: a standing must "
                       "say why, in words", (p,), (p,))


def absent_store(doc: EpisodesDoc) -> Iterator[Issue]:
    """E_EPISODES_ABSENT_STORE: `present: false` is a fresh clone, with nothing in it to list or warn about."""
    if doc.value.get("present") is not False:
        return
    for key in doc.value:
        v = doc.value[key]
        if key in ("episodes", "findings", "current") and ((type(v) is list and v) or (type(v) is str and v)):
            p = "/" + key
            yield make("E_EPISODES_ABSENT_STORE", f"present is false (no store), yet {key} is not empty", (p,), (p,),
                       on_key=True)
            return


def duplicates(doc: EpisodesDoc) -> Iterator[Issue]:
    """E_EPISODES_DUPLICATE: two rows with one `session_id`, at the later."""
    first: dict[str, str] = {}
    for i, r in doc.rows:
        sid = r.get("session_id")
        if type(sid) is not str:
            continue
        p = _row(i, "session_id")
        if sid in first:
            yield make("E_EPISODES_DUPLICATE", f"two rows have the session_id {sid}", (p,), (p,),
                       related=((first[sid], "the first"),))
        else:
            first[sid] = p


def empty_fields(doc: EpisodesDoc) -> Iterator[Issue]:
    """W_EPISODES_EMPTY_FIELD: "the empty fields are skipped on the wire … absence stays absence"."""
    for name in optional_strings(record_schema()):
        if doc.value.get(name) == "":
            yield make("W_EPISODES_EMPTY_FIELD", f'{name} is "": leave it out instead (absence stays absence)',
                       ("/" + name,), ("/" + name,))
    row_fields = optional_strings(episode_schema())
    for i, r in doc.rows:
        for name in r:
            if name in row_fields and r[name] == "":
                p = _row(i, name)
                yield make("W_EPISODES_EMPTY_FIELD", f'{name} is "": leave it out instead (absence stays absence)',
                           (p,), (p,))


def order(doc: EpisodesDoc) -> Iterator[Issue]:
    """W_EPISODES_ORDER: "Every open episode, newest first by recorded start"."""
    previous = None  # (time, session id) of the nearest earlier row with a readable start
    for i, r in doc.rows:
        t = parse_rfc3339(r.get("started_at"))
        if t is None:
            continue
        if previous is not None and t > previous[0]:
            p = _row(i, "started_at")
            yield make("W_EPISODES_ORDER", f"{r.get('session_id')} started after {previous[1]}, which is listed "
                       "before it: rows are newest first by recorded start", (p,), (p,))
        previous = (t, r.get("session_id"))


def activity(doc: EpisodesDoc) -> Iterator[Issue]:
    """W_EPISODES_ACTIVITY: `last_activity` is "Empty when it has written none" (`events` is 0)."""
    for i, r in doc.rows:
        if r.get("events") == 0 and type(r.get("events")) is int and (
                r.get("last_activity") is not None or r.get("last_event") is not None):
            p = _row(i, "events")
            yield make("W_EPISODES_ACTIVITY", f"{r.get('session_id')} has written no ledger line (events is 0), yet "
                       "records a last_activity or last_event", (p,), (p,))


def worktree(doc: EpisodesDoc) -> Iterator[Issue]:
    """W_EPISODES_WORKTREE: `open` "names this worktree"; `foreign` "names another worktree"."""
    own = doc.value.get("worktree")
    if type(own) is not str:
        return
    for i, r in doc.rows:
        wt, st = r.get("worktree"), r.get("standing")
        if type(wt) is not str or wt == "":
            continue
        p = _row(i, "worktree")
        if st in _LIVE_HERE and wt != own:
            yield make("W_EPISODES_WORKTREE", f"{r.get('session_id')} stands {st} but records the worktree {wt}, not "
                       f"this record's {own}", (p,), (p,))
        elif st == "foreign" and wt == own:
            yield make("W_EPISODES_WORKTREE", f"{r.get('session_id')} stands foreign but records this record's own "
                       f"worktree {own}", (p,), (p,))


def unknown_keys(doc: EpisodesDoc) -> Iterator[Issue]:
    """W_UNKNOWN_KEY: a key the schema does not name (the record's readers ignore it)."""
    top = list(record_schema()["properties"])
    row = list(episode_schema()["properties"])
    for key in doc.value:
        if key not in top:
            yield _unknown("/", key, top, "the record", doc.value)
        elif key == "episodes":
            for i, r in doc.rows:
                for k in r:
                    if k not in row:
                        yield _unknown(_row(i) + "/", k, row, "an episode", r)


def _unknown(base: str, key: str, names: list[str], holder: str, obj: dict) -> Issue:
    p = pointer_join(base.rstrip("/"), key)
    hint = did_you_mean(key, names)
    return make("W_UNKNOWN_KEY", f'{holder} has no key "{key}"; its readers ignore it'
                + (f"; did you mean {hint}?" if hint else ""), (p,), (p,), on_key=True,
                facts=UnknownKey(key, hint, base.rstrip("/"), hint is not None and hint in obj))
