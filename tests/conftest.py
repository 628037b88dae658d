"""Test configuration: Hypothesis settings profiles.

``quick`` (the default) keeps a local run short; ``ci`` is the thorough profile that
``.ci/run`` selects with ``HYPOTHESIS_PROFILE=ci``; ``fuzz`` is for long hunting runs by hand
(``HYPOTHESIS_PROFILE=fuzz python -m pytest tests/test_fuzz.py tests/test_hardening.py``).
None has a deadline: no test depends on timing.
"""

from __future__ import annotations

import os

from hypothesis import settings

from tests.postgres import postgres_server, postgres_url  # noqa: F401 (fixtures)

settings.register_profile("quick", max_examples=60, deadline=None)
settings.register_profile("ci", max_examples=400, deadline=None, print_blob=True)
settings.register_profile("fuzz", max_examples=20_000, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "quick"))
