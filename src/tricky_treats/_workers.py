"""Worker processes that end with the process that started them, however it ends."""

from __future__ import annotations

import os
import signal
import sys

__all__: list[str] = []

_PR_SET_PDEATHSIG = 1


def end_with_parent(parent: int) -> None:
    """Make this worker end when ``parent`` does (call it first thing in the worker).

    On Linux the kernel then sends it SIGTERM when the parent dies, even by SIGKILL
    (``prctl(PR_SET_PDEATHSIG)``); a parent that died before the call is seen at once, and
    the worker exits. Elsewhere the worker should also check ``os.getppid()`` while it waits.
    """
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):  # no prctl: the worker's own checks still end it
            pass
    if os.getppid() != parent:
        os._exit(1)
