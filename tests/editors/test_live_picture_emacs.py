"""The live picture from Emacs with eglot, as docs/editors.md ("The live picture in any editor") tells
users (issue 29 item 4): the documented eglot setup plus the documented `grooph-live-picture`, in
`emacs --batch`; the command answers the page's address, eglot 1.9 (which opens no document for a
server) has it opened with `browse-url`, and the page answers there."""

from __future__ import annotations

import re
from pathlib import Path

from tests.editors.test_emacs import DOCS, pytestmark, run_emacs  # noqa: F401  (the same skip)
from tests.editors.test_neovim import DANGLING

ADDRESS = re.compile(r"http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]{40,}/d\d+\Z")


def live_picture_snippet() -> str:
    """The eglot function of the live-picture section, as a user pastes it."""
    section = DOCS.read_text("utf-8").split("## The live picture in any editor", 1)[1].split("\n## ", 1)[0]
    eglot = section.split("**Emacs (eglot).**", 1)[1]
    return re.search(r"```elisp\n(.*?)```", eglot, re.S).group(1)


# Test-only: once the file is visited and checked, M-x grooph-live-picture with `browse-url` recorded,
# then the page fetched as a browser would.
RECORD = """
(advice-add 'grooph-visit :after
  (lambda ()
    (grooph-wait-published)
    (let* ((browsed nil)
           (browse-url-browser-function (lambda (url &rest _) (push url browsed))))
      (grooph-live-picture)
      (grooph-note 'browsed (vconcat browsed))
      (when browsed
        (with-current-buffer (url-retrieve-synchronously (car browsed) t t 20)
          (goto-char (point-min))
          (grooph-note 'page_status (buffer-substring-no-properties (point) (line-end-position)))
          (grooph-note 'page_has_picture_socket (and (search-forward "new WebSocket" nil t) t)))))))
"""


def test_grooph_live_picture_opens_the_page_from_eglot(tmp_path: Path):
    doc = tmp_path / "review.grooph.json"
    doc.write_text(DANGLING, "utf-8")
    r = run_emacs(tmp_path, "diagnostics", doc, init_extra="\n" + live_picture_snippet() + RECORD)
    assert len(r["browsed"]) == 1 and ADDRESS.match(r["browsed"][0]), (r["browsed"], r["said"][-2000:])
    assert r["browsed"][0] in r["said"]  # the address is said in the echo area too
    assert r["page_status"].startswith("HTTP/1.1 200") and r["page_has_picture_socket"] is True, r
