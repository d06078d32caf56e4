"""`python -m grooph_core`: the grooph command line."""

import sys

from grooph_core.cli import main

sys.exit(main())
