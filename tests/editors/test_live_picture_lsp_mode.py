"""The live picture from Emacs with lsp-mode (issue 29 item 4): the documented `grooph-live-picture` of
docs/editors.md's live-picture section, in `emacs --batch` with lsp-mode 8.0 and a client registered as
that section's lsp-mode setup does; the command answers the page's address, lsp-mode 8.0 (which opens
no document for a server) has it opened with `browse-url`."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.editors.test_emacs import DOCS, EMACS, _server
from tests.editors.test_neovim import DANGLING

ADDRESS = re.compile(r"http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]{40,}/d\d+\Z")


def _lsp_mode_missing() -> str | None:
    if EMACS is None or shutil.which(EMACS) is None:
        return "emacs is not installed"
    probe = subprocess.run([EMACS, "--batch", "--eval", "(require 'lsp-mode)"], capture_output=True, timeout=60,
                           env={**os.environ, "HOME": os.devnull})
    return None if probe.returncode == 0 else "emacs cannot load lsp-mode"


MISSING = _lsp_mode_missing()
pytestmark = pytest.mark.skipif(MISSING is not None and os.environ.get("CI") != "true", reason=f"{MISSING} (Debian 12: apt-get install emacs-nox elpa-lsp-mode)")


def live_picture_snippet() -> str:
    section = DOCS.read_text("utf-8").split("## The live picture in any editor", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```elisp\n(.*?)```", section.split("**Emacs (lsp-mode).**", 1)[1], re.S).group(1)


SCRIPT = """
(require 'json)
(require 'lsp-mode)
(setq lsp-auto-guess-root t lsp-enable-snippet nil lsp-keep-workspace-alive nil
      lsp-session-file (expand-file-name "lsp-session" (getenv "HOME")))
(define-derived-mode grooph-mode js-mode "grooph" "grooph graphs (JSON).")
(add-to-list 'auto-mode-alist '("\\\\.grooph\\\\.json\\\\'" . grooph-mode))
(add-to-list 'lsp-language-id-configuration '(grooph-mode . "grooph"))
(lsp-register-client
 (make-lsp-client :new-connection (lsp-stdio-connection (lambda () (list (getenv "GROOPH_SERVER"))))
                  :activation-fn (lsp-activate-on "grooph")
                  :server-id 'grooph-lsp))
(load (getenv "GROOPH_SNIPPET") nil t)
(defun grooph-done (result)
  (with-temp-file (getenv "GROOPH_RESULT") (insert (json-encode result)))
  (kill-emacs 0))
(condition-case err
    (let ((deadline (+ (float-time) 60)))
      (find-file (getenv "GROOPH_FILE"))
      (lsp)
      (while (not (and (lsp-workspaces) (eq (lsp--workspace-status (car (lsp-workspaces))) 'initialized)))
        (when (> (float-time) deadline) (error "lsp-mode did not connect"))
        (accept-process-output nil 0.05))
      (let* ((browsed nil)
             (browse-url-browser-function (lambda (url &rest _) (push url browsed))))
        (grooph-live-picture)
        (grooph-done `((browsed . ,(vconcat browsed)) (mode . ,(symbol-name major-mode))))))
  (error (grooph-done `((error . ,(error-message-string err))))))
"""


def test_grooph_live_picture_opens_the_page_from_lsp_mode(tmp_path: Path):
    doc = tmp_path / "review.grooph.json"
    doc.write_text(DANGLING, "utf-8")
    (tmp_path / ".git").mkdir()  # the project root lsp-mode guesses
    snippet = tmp_path / "snippet.el"
    snippet.write_text(live_picture_snippet(), "utf-8")
    script = tmp_path / "drive.el"
    script.write_text(SCRIPT, "utf-8")
    result = tmp_path / "result.json"
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"), "XDG_CACHE_HOME": str(home / "cache"),
           "GROOPH_SERVER": str(_server(tmp_path)), "GROOPH_SNIPPET": str(snippet), "GROOPH_FILE": str(doc),
           "GROOPH_RESULT": str(result)}
    proc = subprocess.run([EMACS, "--batch", "-l", str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)
    said = proc.stdout + proc.stderr
    assert result.exists(), said[-3000:]
    r = json.loads(result.read_text("utf-8"))
    assert "error" not in r, (r, said[-3000:])
    assert r["mode"] == "grooph-mode"
    assert len(r["browsed"]) == 1 and ADDRESS.match(r["browsed"][0]), (r, said[-2000:])
    assert r["browsed"][0] in said  # said in the echo area too
