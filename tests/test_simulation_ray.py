"""The Ray backend plays the same games as the others, on a local Ray that the test starts.

Needs the ``ray`` extra; ``.ci/run`` installs it, so CI never skips these tests.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.requirements import install_hint
from tricky_treats.cli import main
from tricky_treats.simulation import simulate

# Set before Ray is imported (it reads them at import and passes them to its processes):
# no usage statistics, and a node address on the loopback so that every Ray server binds
# to 127.0.0.1 only.
_RAY_ENV = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}


@pytest.fixture(scope="module")
def ray() -> Iterator[Any]:
    saved = {name: os.environ.get(name) for name in _RAY_ENV}
    os.environ.update(_RAY_ENV)
    ray = pytest.importorskip("ray", reason=install_hint("ray"))
    ray.init(
        include_dashboard=False,
        num_cpus=2,
        object_store_memory=100 * 1024 * 1024,
        log_to_driver=False,
        _node_ip_address="127.0.0.1",
    )
    try:
        yield ray
    finally:
        ray.shutdown()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def test_ray_plays_the_same_games_as_inline(ray: Any) -> None:
    agents = ["greedy", "random", "random"]
    inline = list(simulate(5, agents, seed=31, variants=["family"], backend="inline"))
    on_ray = list(simulate(5, agents, seed=31, variants=["family"], backend="ray", batch_size=2))
    assert on_ray == inline
    assert ray.is_initialized()  # a Ray the caller started is left running


def test_cli_backend_ray_writes_the_same_file_as_the_pool(
    ray: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    common = ["simulate", "--games", "4", "--agents", "greedy,random", "--seed", "6", "--quiet"]
    on_pool, on_ray = tmp_path / "pool.csv", tmp_path / "ray.csv"
    assert main([*common, "--jobs", "2", "--output", str(on_pool)]) == 0
    assert main([*common, "--backend", "ray", "--batch-size", "1", "--output", str(on_ray)]) == 0
    assert "4 games, 2 players, seeds 6 to 9" in capsys.readouterr().out
    assert on_ray.read_text() == on_pool.read_text()
