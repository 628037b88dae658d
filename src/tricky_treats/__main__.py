"""``python -m tricky_treats``: the same as the ``tricky-treats`` command."""

import sys

from tricky_treats.cli import main

if __name__ == "__main__":
    sys.exit(main())
