"""When the cycle collector makes its full passes: while nobody types, not in the middle of a keystroke (issue 24).

A large document's analysis is hundreds of thousands of objects the collector tracks (source-map nodes,
lists, issues), and they live from version to version (an edit re-reads one status and shares the rest).
CPython runs a full pass once a quarter as many objects as it tracks have come since the last one:
every few keystrokes in a 1M workflow, and that pass alone took 0.3-0.4 s of CPU there, holding the
interpreter, so the keystroke it fell on was published that much later (measured: 26-34 ms analyses,
then one of 277-382 ms). Those values hold no cycles (json_reader.collector_paused), so nothing is lost
by putting the full pass off: the young generations are still collected as usual (cheap: they hold only
what is new), and the full pass runs once the server has been idle for `IDLE_S` (no analysis waiting or
running; a key typed during the pass waits for it: about 0.1 s at 1M). This rests on how CPython 3.11-3.13
treat the third threshold; a collector that ignores it makes its full passes on its own again.

The young passes too walk what each analysis made: the first one after the analysis walks every object it
made that is still alive (1-2 ms per 1M keystroke, over 20 ms at times on a busy machine, between the
analysis and its publish; issue 33), and the middle generation walks them again. So in the server's
process each analysis ends with `set_aside()` (`gc.freeze`: every tracked object out of the generations,
nothing walked or copied), and the idle full pass puts them back (`gc.unfreeze`) before it runs: the young
passes then walk only what came since the last analysis. Freezing frees nothing later than it would be
(reference counts free acyclic values as usual); a cycle made while someone types waits for the idle pass.
"""

from __future__ import annotations

import asyncio
import gc

IDLE_S = 2.0          # quiet this long (no analysis waiting or running) before a full pass
_NEVER = 1 << 30      # gen-1 passes before CPython would start a full pass on its own
_held = False         # hold_full_passes() was called: this is the server's process


def hold_full_passes() -> None:
    """Leave the full passes to `IdlePasses` (the young generations keep their thresholds), and let
    `set_aside` freeze what each analysis made. For the server's own process (`grooph-lsp`): it changes
    the interpreter's collector for everything in it."""
    global _held
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, _NEVER)
    _held = True


def set_aside() -> None:
    """At the end of an analysis (its objects made, the collector paused): move every tracked object out
    of the generations until the next idle full pass, so no young pass walks them (in the server's
    process only; elsewhere nothing)."""
    if _held:
        gc.freeze()


class IdlePasses:
    """Arms a full pass when the server goes idle (`idle()`), disarms it when work comes (`busy()`)."""

    def __init__(self) -> None:
        self._timer: asyncio.TimerHandle | None = None
        self._due = False  # something was made since the last full pass

    def busy(self) -> None:
        self._due = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def idle(self) -> None:
        if self._due and self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(IDLE_S, self._run)

    def _run(self) -> None:
        self._timer = None
        self._due = False
        if _held:
            gc.unfreeze()  # what set_aside froze is looked at again
        gc.collect()
