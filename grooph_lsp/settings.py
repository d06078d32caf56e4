"""The server's settings (`grooph.*`), read from initializationOptions and workspace/configuration."""

from __future__ import annotations

from dataclasses import dataclass, replace

from grooph_core.source.json_reader import MAX_CHARS

THEMES = ("light", "dark", "auto")


@dataclass(frozen=True)
class Settings:
    """What a user can set. `complete` runs the export check; `debounce_ms` is the longest wait
    before validating a change (the wait is the document's own analysis time: grooph_lsp/scheduler.py;
    0: no wait); `preview_theme` is the picture theme; `max_chars` is the size limit for deep analysis;
    `workspace_diagnostics` checks every document under the workspace folders, open or not;
    `inlay_hints` shows what each reference names inside the text (issue 31)."""

    complete: bool = False
    debounce_ms: int = 150
    preview_theme: str = "auto"
    max_chars: int = MAX_CHARS  # the core's limit (source.py), unless the user sets another
    workspace_diagnostics: bool = True
    inlay_hints: bool = True


def _section(raw: object) -> dict:
    """Accept `{"grooph": {...}}`, the section itself, or dotted keys (`"grooph.debounceMs"`)."""
    if not isinstance(raw, dict):
        return {}
    if isinstance(raw.get("grooph"), dict):
        return raw["grooph"]
    out: dict = {}
    for k, v in raw.items():
        if isinstance(k, str) and k.startswith("grooph."):
            out[k[len("grooph."):]] = v
        else:
            out[k] = v
    return out


def merge(settings: Settings, raw: object) -> Settings:
    """Settings with the recognised, well-typed values of `raw` applied; bad values are ignored."""
    s = _section(raw)
    changes: dict = {}
    if isinstance(s.get("complete"), bool):
        changes["complete"] = s["complete"]
    d = s.get("debounceMs")
    if isinstance(d, (int, float)) and not isinstance(d, bool) and 0 <= d <= 10_000:
        changes["debounce_ms"] = int(d)
    preview = s.get("preview")
    theme = preview.get("theme") if isinstance(preview, dict) else s.get("preview.theme")
    if theme in THEMES:
        changes["preview_theme"] = theme
    m = s.get("maxDocumentSize")
    if isinstance(m, int) and not isinstance(m, bool) and m > 0:
        changes["max_chars"] = m
    if isinstance(s.get("workspaceDiagnostics"), bool):
        changes["workspace_diagnostics"] = s["workspaceDiagnostics"]
    if isinstance(s.get("inlayHints"), bool):
        changes["inlay_hints"] = s["inlayHints"]
    return replace(settings, **changes)
