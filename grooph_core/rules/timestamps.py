"""RFC 3339 timestamps, as the board's and the episode record's rules read them (board.md §2: `T` or `t`,
`Z` or an offset, no space)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

_RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))\Z")


def parse_rfc3339(s: object) -> datetime | None:
    """The instant an RFC 3339 timestamp names (aware, UTC), or None when `s` is not one. A leap second
    (`:60`) reads as the next instant."""
    if type(s) is not str:
        return None
    m = _RFC3339.match(s)
    if m is None:
        return None
    g = m.groups()
    year, month, day, hour, minute, second = int(g[0]), int(g[1]), int(g[2]), int(g[3]), int(g[4]), int(g[5])
    frac = g[6]
    micro = int((frac[1:] + "000000")[:6]) if frac else 0
    leap = second == 60
    try:
        if g[7]:
            tz = timezone.utc
        else:
            oh, om = int(g[9]), int(g[10])
            if oh > 23 or om > 59:
                return None
            delta = timedelta(hours=oh, minutes=om)
            tz = timezone(delta if g[8] == "+" else -delta)
        t = datetime(year, month, day, hour, minute, 59 if leap else second, micro, tzinfo=tz)
    except ValueError:
        return None
    if leap:
        t += timedelta(seconds=1)
    return t.astimezone(timezone.utc)
