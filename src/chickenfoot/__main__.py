"""``python -m chickenfoot``: the same as the ``chickenfoot`` command."""

from __future__ import annotations

import sys

from chickenfoot.cli import main

if __name__ == "__main__":
    sys.exit(main())
