"""`python -m grooph_core.cli`: the grooph command line."""

import sys

from grooph_core.cli import main

sys.exit(main())
