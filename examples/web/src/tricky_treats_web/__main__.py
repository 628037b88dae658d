"""``python -m tricky_treats_web serve``: the same as the ``tricky-treats-web`` command."""

from tricky_treats_web.cli import console_main

console_main()
