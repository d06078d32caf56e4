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
    year, month, day, hour, minute, second = (int(m.group(i)) for i in range(1, 7))
    frac = m.group(7)
    micro = int((frac[1:] + "000000")[:6]) if frac else 0
    leap = second == 60
    try:
        if m.group(8):
            tz = timezone.utc
        else:
            oh, om = int(m.group(10)), int(m.group(11))
            if oh > 23 or om > 59:
                return None
            delta = timedelta(hours=oh, minutes=om)
            tz = timezone(delta if m.group(9) == "+" else -delta)
        t = datetime(year, month, day, hour, minute, 59 if leap else second, micro, tzinfo=tz)
    except ValueError:
        return None
    if leap:
        t += timedelta(seconds=1)
    return t.astimezone(timezone.utc)
