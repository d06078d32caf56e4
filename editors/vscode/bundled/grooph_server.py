"""Starts the grooph language server from the libraries bundled with the VS Code extension
(bundled/libs, made by scripts/bundle_server.py). Run as `python -I grooph_server.py [args]`:
isolated, so the user's own site-packages and PYTHON* variables cannot replace a bundled library."""

import os
import sys

if sys.version_info < (3, 11):
    sys.exit(f"grooph-lsp needs Python 3.11 or newer; {sys.executable} is {sys.version.split()[0]}")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "libs"))

from grooph_lsp.__main__ import main  # noqa: E402

sys.exit(main())
