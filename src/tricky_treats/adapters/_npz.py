"""Reading a policy's ``.npz`` file within limits, before any array is allocated.

``np.load`` trusts its file: a ``.npy`` header may promise 10**10 numbers (``MemoryError``),
a member may unpack to gigabytes (a zip bomb), a field may hold text or complex numbers where
real numbers belong. ``read_npz`` checks first what the zip's directory and each member's
``.npy`` header declare against what each field of a policy file may be (``NpzField``), then
unpacks a member in small steps and never past its declared size, and only then makes its
array. So the work and the memory are bounded by the limits, and by the file's size: a
stored member is as large as its bytes in the file, a deflated one at most 1032 times as
large. Every refusal is a ``PolicyFileError``.
"""

from __future__ import annotations

import io
import math
import struct
import tokenize
import zipfile
import zlib
from collections.abc import Callable, Mapping

import attrs
import numpy as np
import numpy.typing as npt

from tricky_treats.errors import PolicyFileError, brief

__all__ = ["NpzField", "read_npz"]

_Refuse = Callable[[str], PolicyFileError]
"""``read_npz``'s ``refuse``: the error naming the file, a problem and what to do."""

_DEFLATE_MOST = 1032
"""The most bytes deflate unpacks from one byte (a 258-byte match coded in 2 bits)."""
_HEADER_MOST = 4096
"""The longest ``.npy`` header read (numpy writes 128 bytes for a policy's arrays)."""
_STEP = 64 * 1024
"""The bytes unpacked at a time: a bomb is stopped within one step past its declared size."""
_END_RECORD = struct.Struct("<4s4H2LH")
"""The zip's end of central directory record: signature, disks, entries, size, offset."""

_KINDS = {
    "f": "real floats",
    "i": "integers",
    "u": "integers",
    "U": "text",
    "S": "bytes",
    "b": "booleans",
    "c": "complex numbers",
    "O": "Python objects (a pickle, which is never loaded)",
    "V": "structured data",
    "M": "dates",
    "m": "time spans",
}


@attrs.frozen
class NpzField:
    """What one member (``NAME.npy``) of a policy file may hold."""

    holds: str
    """What it holds, for messages: ``one whole number``, ``an array of real floats``."""
    kinds: str
    """The numpy dtype kinds it may have: ``"f"`` real floats, ``"iu"`` integers, ``"U"`` text."""
    ndims: tuple[int, ...]
    """Its numbers of dimensions: ``(0,)`` one value, ``(1,)`` a list, ``(1, 2)`` either."""
    most: int
    """The most elements it may hold."""
    chars: int = 0
    """For text, the longest element in characters."""

    @property
    def itemsize_most(self) -> int:
        """The widest element in bytes: 16 for a float (longdouble), 4 per character of text."""
        return 4 * self.chars if self.kinds == "U" else 16

    @property
    def bytes_most(self) -> int:
        """The largest member: its header and its data."""
        return _HEADER_MOST + self.most * self.itemsize_most


def read_npz(
    data: bytes, name: str, fields: Mapping[str, NpzField], hint: str
) -> dict[str, npt.NDArray[np.generic]]:
    """The arrays of the ``.npz`` file whose bytes are ``data``, each checked by ``fields``.

    ``name`` names the file in messages (``the policy file p.npz``), ``hint`` says what to do
    (how to write a good file). Raises ``PolicyFileError`` for a file that is no zip, has a
    member that is no field, compressed otherwise than ``np.savez`` or
    ``np.savez_compressed`` do, or larger than its field may be, or whose ``.npy`` header
    does not fit its field or its data.
    """

    def refuse(problem: str) -> PolicyFileError:
        return PolicyFileError(f"{name}: {problem}: {hint}")

    _check_directory(data, len(fields), refuse)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        OSError,
        EOFError,
        ValueError,
        NotImplementedError,  # a member needing a later zip version than Python reads
    ) as exc:
        raise refuse(f"not a .npz file ({brief(str(exc), 120)})") from None
    arrays: dict[str, npt.NDArray[np.generic]] = {}
    with archive:
        infos = archive.infolist()
        members = [info.filename for info in infos]
        for info in infos:
            key = info.filename.removesuffix(".npy")
            field = fields.get(key) if info.filename.endswith(".npy") else None
            if field is None:
                raise refuse(
                    f"it holds {brief(info.filename)}, which no policy file holds (only "
                    f"{', '.join(f'{k}.npy' for k in fields)})"
                )
            if members.count(info.filename) > 1:
                raise refuse(f"it holds {brief(info.filename)} twice")
            raw = _unpacked(archive, info, field, refuse)
            arrays[key] = _array(raw, key, field, refuse)
    return arrays


def _check_directory(data: bytes, most: int, refuse: _Refuse) -> None:
    """Refuse a zip whose directory lists more than ``most`` members, before it is parsed.

    The end record is found as ``zipfile`` finds it: at the very end, or else the last one
    within a comment's reach. A file with no end record is left to ``zipfile`` to refuse.
    """
    at = len(data) - _END_RECORD.size
    if at < 0:
        return
    if data[at : at + 4] != b"PK\x05\x06":
        at = data.rfind(b"PK\x05\x06", max(0, at - 0xFFFF), at)
        if at < 0 or at + _END_RECORD.size > len(data):
            return
    if data[max(0, at - 20) : at].startswith(b"PK\x06\x07"):
        # A zip64 locator, whose record zipfile reads instead of the end record: Python
        # writes one for 65,535 members or 4 GiB, never for a policy file.
        raise refuse("its zip directory is a zip64 one, which a policy file never needs")
    entries, size = _END_RECORD.unpack_from(data, at)[4:6]
    if entries > most or size > most * 1024:
        raise refuse(
            f"its zip directory lists {entries} members in {size:,} bytes; a policy file "
            f"holds at most {most} arrays"
        )


def _unpacked(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, field: NpzField, refuse: _Refuse
) -> bytes:
    """A member's bytes, unpacked in steps and never past its declared size."""
    member = info.filename
    if info.flag_bits & 0x1:
        raise refuse(f"{member} is encrypted")
    if info.compress_type == zipfile.ZIP_STORED:
        packed_most = info.compress_size
    elif info.compress_type == zipfile.ZIP_DEFLATED:
        packed_most = _DEFLATE_MOST * info.compress_size
    else:
        raise refuse(
            f"{member} is compressed by zip method {info.compress_type}; policy files are "
            "stored (np.savez) or deflated (np.savez_compressed)"
        )
    if info.file_size > field.bytes_most:
        raise refuse(
            f"{member} unpacks to {info.file_size:,} bytes, more than its field may hold "
            f"({field.bytes_most:,})"
        )
    if info.file_size > packed_most:
        raise refuse(
            f"{member} claims to unpack {info.compress_size:,} bytes to {info.file_size:,}, "
            "more than zip compression can"
        )
    chunks: list[bytes] = []
    left = info.file_size
    try:
        with archive.open(info) as stream:
            while left > 0:
                # read(n) unpacks at most n bytes (at least 4 KiB) a step: a stream that
                # unpacks past the declared size is cut there and fails its CRC check.
                chunk = stream.read(min(left, _STEP))
                if not chunk:
                    break
                chunks.append(chunk)
                left -= len(chunk)
    except (
        zipfile.BadZipFile,
        OSError,
        EOFError,
        ValueError,
        zlib.error,
        NotImplementedError,  # zip features numpy never writes: patched data, strong encryption
        RuntimeError,  # encryption, when the directory and the member's header disagree on it
    ) as exc:
        raise refuse(f"cannot unpack {member} ({brief(str(exc), 120)})") from None
    if left:
        raise refuse(f"{member} ends {left:,} bytes short of its declared size")
    return b"".join(chunks)


def _array(raw: bytes, key: str, field: NpzField, refuse: _Refuse) -> npt.NDArray[np.generic]:
    """The array of a member's ``.npy`` bytes, its header checked against ``field`` first."""
    member = f"{key}.npy"
    stream = io.BytesIO(raw)
    try:
        version = np.lib.format.read_magic(stream)
        if version == (1, 0):
            header = np.lib.format.read_array_header_1_0(stream, max_header_size=_HEADER_MOST)
        elif version == (2, 0):
            header = np.lib.format.read_array_header_2_0(stream, max_header_size=_HEADER_MOST)
        else:
            raise ValueError(f"format version {version}, where numpy writes 1.0 or 2.0")
    except (
        ValueError,
        TypeError,
        OverflowError,
        SyntaxError,
        RecursionError,
        EOFError,
        tokenize.TokenError,  # numpy reads a header it cannot parse again as Python 2's
    ) as exc:
        raise refuse(f"{member} is no .npy array ({brief(str(exc), 120)})") from None
    shape, fortran_order, dtype = header
    if dtype.kind not in field.kinds or dtype.itemsize == 0 or dtype.hasobject:
        described = _KINDS.get(dtype.kind, "other data")
        raise refuse(
            f"{key} holds {described} ({dtype.str}), where a policy file has {field.holds}"
        )
    if len(shape) not in field.ndims or any(size < 0 for size in shape):
        raise refuse(f"{key} has shape {brief(shape)}, where a policy file has {field.holds}")
    count = math.prod(shape)
    if count > field.most:
        raise refuse(f"{key} has shape {brief(shape)}: {count:,} values, more than {field.most:,}")
    if dtype.kind == "U" and dtype.itemsize > 4 * field.chars:
        raise refuse(
            f"{key} holds texts of {dtype.itemsize // 4:,} characters, more than {field.chars}"
        )
    start = stream.tell()
    if len(raw) - start != count * dtype.itemsize:
        raise refuse(
            f"{member} holds {len(raw) - start:,} bytes of data where its header promises "
            f"{count * dtype.itemsize:,} ({brief(shape)} of {dtype.str})"
        )
    flat = np.frombuffer(raw, dtype=dtype, count=count, offset=start)
    if dtype.kind == "U":
        codes = np.frombuffer(flat.astype(dtype.newbyteorder("=")).tobytes(), np.uint32)
        if np.any(codes > 0x10FFFF):  # numpy would fail to make them Python strings
            raise refuse(f"{key} holds text that is no Unicode")
    if fortran_order:
        return flat.reshape(shape[::-1]).transpose().copy()
    return flat.reshape(shape).copy()
