"""Wheels for the offline page, packed from what is installed here (nothing is downloaded).

Pyodide runs pure-Python wheels. The engine and its run-time dependencies (attrs, cattrs,
pluggy and what they need) are all pure Python, so each installed distribution is packed back
into a wheel from its installed files. tricky-treats itself may be installed in editable mode
(its files then stay in the source tree), so it is packed from its import location.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata as metadata
import re
import tempfile
import zipfile
from pathlib import Path

__all__ = ["RUNTIME", "build_wheels"]

RUNTIME = ("tricky-treats", "attrs", "cattrs", "pluggy", "typing-extensions")
"""The distributions the engine needs at run time, as pip names them."""

_WHEEL = (
    "Wheel-Version: 1.0\nGenerator: tricky-treats-web\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
)
_SKIP = re.compile(
    r"(__pycache__|\.pyc$|\.dist-info/(RECORD|INSTALLER|REQUESTED|direct_url\.json)$)"
)


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _installed_files(dist: metadata.Distribution) -> dict[str, bytes]:
    """The files of ``dist`` as a wheel lays them out (paths relative to site-packages)."""
    files: dict[str, bytes] = {}
    top = _top_level(dist)
    editable = top is not None and not any(str(f).startswith(f"{top}/") for f in (dist.files or []))
    for entry in dist.files or []:
        name = str(entry)
        if name.startswith("..") or _SKIP.search(name) or name.endswith(".pth"):
            continue
        path = Path(str(dist.locate_file(entry)))
        if path.is_file():
            files[name] = path.read_bytes()
    if editable and top is not None:
        # An editable install: pack the package from where Python imports it.
        import importlib

        package = Path(str(importlib.import_module(top).__file__)).parent
        for path in sorted(package.rglob("*")):
            relative = f"{top}/{path.relative_to(package).as_posix()}"
            if path.is_file() and not _SKIP.search(relative):
                files[relative] = path.read_bytes()
    return files


def _top_level(dist: metadata.Distribution) -> str | None:
    name = dist.metadata["Name"]
    return name.replace("-", "_").lower() if name == "tricky-treats" else None


def _wheel_name(dist: metadata.Distribution) -> str:
    name = re.sub(r"[-_.]+", "_", dist.metadata["Name"]).lower()
    return f"{name}-{dist.version}-py3-none-any.whl"


def build_wheels(directory: Path | None = None) -> dict[str, Path]:
    """Pack the run-time wheels into ``directory`` (a new temporary one by default).

    Returns the wheel files by name. A dependency that is not installed is left out (for
    example typing-extensions, which cattrs needs only on some Pythons).
    """
    if directory is None:
        directory = Path(tempfile.mkdtemp(prefix="tricky-treats-wheels-"))
    directory.mkdir(parents=True, exist_ok=True)
    built = {}
    for requirement in RUNTIME:
        try:
            dist = metadata.distribution(requirement)
        except metadata.PackageNotFoundError:
            continue
        files = _installed_files(dist)
        info = next(
            (n.split("/")[0] for n in files if n.split("/")[0].endswith(".dist-info")), None
        )
        if info is None:
            continue
        files[f"{info}/WHEEL"] = _WHEEL.encode()
        name = _wheel_name(dist)
        path = directory / name
        record = [_record_line(n, data) for n, data in sorted(files.items())]
        record.append(f"{info}/RECORD,,")
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as wheel:
            for member, data in sorted(files.items()):
                wheel.writestr(member, data)
            wheel.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
        built[name] = path
    return built
