"""A PostgreSQL server of the tests' own: Debian's ``initdb`` and ``pg_ctl`` in a temporary
folder, listening on 127.0.0.1 (a free port) and a socket in that folder, nowhere else.

PostgreSQL refuses to run as root, so as root it runs as ``nobody`` (``runuser``). Tests that
need it take the ``postgres_url`` fixture (a new, empty database each): it skips, naming what
to install, where psycopg or PostgreSQL is missing, and CI installs both (``.ci/run``).
The benchmarks use ``TemporaryPostgres`` too.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.local import free_port
from tests.requirements import postgresql_bin

__all__ = ["TemporaryPostgres", "missing", "new_database", "postgres_server", "postgres_url"]

INSTALL = (
    "needs PostgreSQL and psycopg: apt-get install postgresql && "
    "pip install -e 'examples/web[postgresql]'"
)


def missing() -> str | None:
    """Why PostgreSQL tests cannot run here (what to install), or None if they can."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return f"psycopg is not installed; {INSTALL}"
    if postgresql_bin() is None:
        return f"PostgreSQL's initdb is not installed; {INSTALL}"
    return None


class TemporaryPostgres:
    """A PostgreSQL cluster in a temporary folder, for as long as the ``with`` block."""

    def __init__(self) -> None:
        bin_dir = postgresql_bin()
        if bin_dir is None:
            raise RuntimeError(INSTALL)
        self.bin = bin_dir
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="tricky-treats-pg-"))
        self.data = self.folder / "data"
        self._as: list[str] = []
        if os.geteuid() == 0:
            self._as = ["runuser", "-u", "nobody", "--"]
            shutil.chown(self.folder, "nobody")
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str) -> None:
        subprocess.run(
            [*self._as, *command], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )

    def __enter__(self) -> TemporaryPostgres:
        try:
            self._run(
                str(self.bin / "initdb"),
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "--auth=trust",  # reachable only from this machine: 127.0.0.1 and a socket
                "--no-instructions",
                "-E",
                "UTF8",
            )
            self.start()
        except BaseException:
            self._clean()
            raise
        return self

    def start(self) -> None:
        """Start the server (again, after ``stop``), on the same port and data."""
        options = f"-h 127.0.0.1 -p {self.port} -k {self.folder} -c max_connections=200"
        self._run(
            str(self.bin / "pg_ctl"),
            "start",
            "-w",
            "-t",
            "60",
            "-D",
            str(self.data),
            "-l",
            str(self.folder / "postgres.log"),
            "-o",
            options,
        )

    def stop(self) -> None:
        """Stop the server as an outage would: every connection is cut (``-m fast``)."""
        self._run(str(self.bin / "pg_ctl"), "stop", "-m", "fast", "-w", "-D", str(self.data))

    def processes(self) -> list[int]:
        """The server's processes: the postmaster (its pid file's first line) and its children."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        found = [postmaster]
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # gone meanwhile
                continue
            if int(stat.rpartition(")")[2].split()[1]) == postmaster:  # its parent
                found.append(int(entry.name))
        return found

    @contextlib.contextmanager
    def frozen(self) -> Iterator[None]:
        """The server frozen for the block (SIGSTOP): its connections stay open, nothing
        answers, and a new connection waits in the listen queue, as on a host that hangs."""
        stopped = []
        try:
            for pid in self.processes():
                os.kill(pid, signal.SIGSTOP)
                stopped.append(pid)
            yield
        finally:
            for pid in stopped:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self.stop()
        self._clean()

    def _clean(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def new_database(server_url: str) -> str:
    """A new empty database on the server at ``server_url``; answers its URL."""
    import psycopg

    name = f"t{time.monotonic_ns()}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return server_url.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[TemporaryPostgres]:
    """One PostgreSQL server for the whole test session (skips, naming what to install)."""
    reason = missing()
    if reason is not None:
        pytest.skip(reason)
    with TemporaryPostgres() as server:
        yield server


@pytest.fixture
def postgres_url(postgres_server: TemporaryPostgres) -> str:
    """The URL of a new, empty database on the tests' PostgreSQL server."""
    return new_database(postgres_server.url)
