"""Policy files are read within limits and refused with ``PolicyFileError`` (issue 46, items 2,
7 and 9): every field's type, shape and size is checked from the zip's directory and the
``.npy`` headers before any array is made, and a member is never unpacked past its size."""

from __future__ import annotations

import io
import math
import re
import struct
import tempfile
import tracemalloc
import warnings
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tricky_treats as tt
from tests.requirements import install_hint

np = pytest.importorskip("numpy", reason=install_hint("policy"))

from tricky_treats.adapters.observation import OBSERVATION_VERSION  # noqa: E402
from tricky_treats.adapters.policy import (  # noqa: E402
    FEATURE_NAMES,
    MAX_POLICY_FILE_BYTES,
    LinearPolicyAgent,
    PolicyFileError,
    ValuePolicyAgent,
    load_policy,
)
from tricky_treats.cli import main  # noqa: E402

HINT = "write it with ValuePolicyAgent.save() (python -m tricky_treats.adapters.training)"
FEATURES = len(FEATURE_NAMES)


def value_fields(**changes: Any) -> dict[str, Any]:
    """The fields ``ValuePolicyAgent.save`` writes, with ``changes`` (None drops a field)."""
    fields: dict[str, Any] = {
        "kind": np.array("afterstate-value"),
        "weights": np.arange(FEATURES, dtype=float),
        "feature_names": np.array(FEATURE_NAMES),
        "features_version": np.array(1),
        "about": np.array("a test"),
    }
    fields.update(changes)
    return {k: v for k, v in fields.items() if v is not None}


def linear_fields(**changes: Any) -> dict[str, Any]:
    """The fields ``examples/train_policy.py`` writes (2 players), with ``changes``."""
    fields: dict[str, Any] = {
        "weights": np.zeros((39, 881)),
        "bias": np.zeros(39),
        "players": 2,
        "observation_version": OBSERVATION_VERSION,
    }
    fields.update(changes)
    return fields


def saved(path: Path, fields: dict[str, Any], compressed: bool = False) -> Path:
    (np.savez_compressed if compressed else np.savez)(path, **fields)
    return path


def npy(array: Any) -> bytes:
    """``array`` as ``.npy`` bytes."""
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=True)
    return buffer.getvalue()


def npy_header(shape: tuple[int, ...], descr: object = "<f8", fortran: bool = False) -> bytes:
    buffer = io.BytesIO()
    header = {"descr": descr, "fortran_order": fortran, "shape": shape}
    np.lib.format.write_array_header_1_0(buffer, header)
    return buffer.getvalue()


def zipped(path: Path, members: dict[str, bytes], compression: int = zipfile.ZIP_STORED) -> Path:
    with zipfile.ZipFile(path, "w", compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def value_members(**changes: bytes) -> dict[str, bytes]:
    """A value policy's members as ``.npy`` bytes, with ``changes``."""
    members = {f"{k}.npy": npy(v) for k, v in value_fields().items()}
    members.update({f"{k}.npy": v for k, v in changes.items()})
    return members


def refusal(path: Path) -> str:
    """The message of the ``PolicyFileError`` that loading ``path`` raises."""
    with pytest.raises(PolicyFileError) as caught:
        load_policy(path)
    message = str(caught.value)
    assert message.startswith(f"the policy file {path}"), message
    assert len(message) < 500, message
    return message


def peak_bytes(work: Callable[[], object]) -> int:
    """The most memory Python and numpy allocated while ``work`` ran."""
    tracemalloc.start()
    try:
        work()
    except tt.TrickyTreatsError:
        pass
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


# -- fields of the wrong type, shape or value (items 2 and 7) -----------------------------------


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        (value_fields(features_version=np.array("one")), r"features_version holds text \(<U3\)"),
        (value_fields(features_version=np.array(math.inf)), r"features_version holds real floats"),
        (value_fields(features_version=np.array([1, 1])), r"features_version has shape \(2,\)"),
        (value_fields(feature_names=np.array("own_points")), r"feature_names has shape \(\)"),
        (value_fields(feature_names=np.arange(FEATURES)), r"feature_names holds integers"),
        (value_fields(weights=np.array(["a"] * FEATURES)), r"weights holds text \(<U1\)"),
        (value_fields(weights=np.arange(FEATURES) + 1j), r"weights holds complex numbers"),
        (value_fields(weights=np.ones(FEATURES, dtype=bool)), r"weights holds booleans"),
        (value_fields(weights=np.arange(FEATURES)), r"weights holds integers"),
        (
            value_fields(weights=np.array([{}] * FEATURES, dtype=object)),
            r"weights holds Python objects \(a pickle, which is never loaded\)",
        ),
        (
            value_fields(weights=np.full(FEATURES, math.nan)),
            rf"weights holds NaN or infinity \({FEATURES} of its values, the first at index 0\)",
        ),
        (
            value_fields(weights=np.where(np.arange(FEATURES) == 5, math.inf, 1.0)),
            r"weights holds NaN or infinity \(1 of its values, the first at index 5\)",
        ),
        (value_fields(weights=np.zeros((FEATURES, 1))), rf"{FEATURES} finite weights"),
        (value_fields(kind=np.array("k" * 100)), r"kind holds texts of 100 characters"),
        (value_fields(kind=np.array(7)), r"kind holds integers"),
        (value_fields(extra=np.zeros(2)), r"it holds 'extra.npy', which no policy file holds"),
        (value_fields(weights=None), r"it lacks \['weights'\]"),
        (linear_fields(players=math.inf), r"players holds real floats"),
        (linear_fields(players=np.array([2, 2])), r"players has shape \(2,\)"),
        (linear_fields(players=0), r"players is 0, not 2 to 8"),
        (linear_fields(players=2**62), r"players is 4611686018427387904, not 2 to 8"),
        (linear_fields(observation_version="3"), r"observation_version holds text"),
        (linear_fields(weights=np.full((39, 881), "a")), r"weights holds text"),
        (linear_fields(weights=np.zeros((39, 881)) + 0j), r"weights holds complex numbers"),
        (
            linear_fields(weights=np.full((39, 881), math.nan)),
            r"weights holds NaN or infinity \(34,359 of its values, the first at index 0\)",
        ),
        (
            linear_fields(bias=np.where(np.arange(39) == 3, -math.inf, 0.0)),
            r"bias holds NaN or infinity \(1 of its values, the first at index 3\)",
        ),
        (linear_fields(weights=np.zeros((2, 2, 2))), r"weights has shape \(2, 2, 2\)"),
        (linear_fields(weights=np.zeros(39)), r"weights of shape \(actions, observation size\)"),
    ],
    ids=lambda value: None if isinstance(value, dict) else value[:40],
)
def test_a_field_of_the_wrong_type_or_shape_is_refused(
    tmp_path: Path, fields: dict[str, Any], problem: str
) -> None:
    """Before: ValueError, TypeError or OverflowError from int(), complex weights loaded with
    their imaginary parts dropped, NaN and text weights of a linear policy loaded (text failed
    at play time with UFuncTypeError)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # complex to float: the old loader warned and went on
        message = refusal(saved(tmp_path / "bad.npz", fields))
    assert re.search(problem, message), message


def test_good_files_in_every_layout_numpy_writes_still_load(tmp_path: Path) -> None:
    weights = np.arange(FEATURES, dtype=float) / 7
    for compressed in (False, True):
        for layout in (weights, weights.astype(">f8"), weights.astype(np.float32)):
            path = saved(tmp_path / "value.npz", value_fields(weights=layout), compressed)
            policy = load_policy(path)
            assert isinstance(policy, ValuePolicyAgent)
            assert policy.weights.dtype == np.float64
            assert np.array_equal(policy.weights, layout.astype(np.float64))
    matrix = np.arange(39 * 881, dtype=float).reshape(39, 881) / 1000
    for order in (matrix, np.asfortranarray(matrix)):  # np.save writes a Fortran order header
        path = saved(tmp_path / "linear.npz", linear_fields(weights=order), compressed=True)
        policy = load_policy(path)
        assert isinstance(policy, LinearPolicyAgent)
        assert np.array_equal(policy.weights, matrix)
    path = tmp_path / "saved.npz"
    ValuePolicyAgent(weights).save(path, about="x" * 10_000)
    assert np.array_equal(ValuePolicyAgent.load(path).weights, weights)


def test_the_agents_refuse_weights_that_are_not_real_finite_numbers() -> None:
    """Before: complex weights lost their imaginary parts with a warning; a linear policy
    kept text, NaN and any player count, and failed (or played) at play time."""
    with pytest.raises(tt.ConfigurationError, match=r"must be real numbers, got .*complex128"):
        ValuePolicyAgent(np.arange(FEATURES) + 1j)
    with pytest.raises(tt.ConfigurationError, match=r"must be real numbers, got .*<U1"):
        LinearPolicyAgent(np.full((39, 881), "a"), np.zeros(39), 2)
    with pytest.raises(tt.ConfigurationError, match=r"must be finite numbers"):
        LinearPolicyAgent(np.full((39, 881), math.nan), np.zeros(39), 2)
    with pytest.raises(tt.ConfigurationError, match=r"2 to 8 players, got 'two'"):
        LinearPolicyAgent(np.zeros((39, 881)), np.zeros(39), "two")  # type: ignore[arg-type]
    with pytest.raises(tt.ConfigurationError, match=r"an array of real numbers"):
        ValuePolicyAgent([[1.0], [1.0, 2.0]])
    weights = np.zeros((39, 881))
    agent = LinearPolicyAgent(weights, np.zeros(39), 2)
    weights[0, 0] = math.nan  # the agent keeps its own copy
    assert agent.weights[0, 0] == 0.0
    assert not agent.weights.flags.writeable


# -- the zip and the .npy headers, checked before anything is unpacked (item 2) -----------------


def test_a_header_promising_ten_billion_floats_allocates_nothing(tmp_path: Path) -> None:
    """Before: a 248-byte file whose header promises 10**10 float64s raised MemoryError."""
    path = zipped(tmp_path / "promise.npz", {"weights.npy": npy_header((10**10,))})
    assert path.stat().st_size < 300
    message = refusal(path)
    assert "weights has shape (10000000000,): 10,000,000,000 values, more than 1,048,576" in (
        message
    )
    assert message.endswith(f"{HINT} or examples/train_policy.py")
    assert peak_bytes(lambda: load_policy(path)) < 1_000_000


def test_a_header_whose_data_is_short_or_long_is_refused(tmp_path: Path) -> None:
    short = npy_header((FEATURES,)) + bytes(80)
    message = refusal(zipped(tmp_path / "short.npz", value_members(weights=short)))
    assert f"weights.npy holds 80 bytes of data where its header promises {FEATURES * 8}" in (
        message
    )
    long = npy_header((FEATURES,)) + bytes(8 * FEATURES + 8)
    assert "header promises" in refusal(zipped(tmp_path / "long.npz", value_members(weights=long)))


def _bomb(path: Path, megabytes: int) -> Path:
    """A deflated weights.npy of ``megabytes`` of zeros, its header declaring them all."""
    count = megabytes * 1024 * 1024 // 8
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in value_members().items():
            if name != "weights.npy":
                archive.writestr(name, data)
        with archive.open("weights.npy", "w") as member:
            member.write(npy_header((count,)))
            zeros = bytes(1024 * 1024)
            for _ in range(megabytes):
                member.write(zeros)
    return path


def test_a_zip_bomb_is_refused_from_its_directory_before_unpacking(tmp_path: Path) -> None:
    """Before: np.load unpacked all of it (the attack: 1.94 MB, 28 s and 2 GB)."""
    path = _bomb(tmp_path / "bomb.npz", 100)
    assert path.stat().st_size < 200_000
    message = refusal(path)
    assert "weights.npy unpacks to 104,857,728 bytes, more than its field may hold" in message
    assert peak_bytes(lambda: load_policy(path)) < 2_000_000


def _central_entry(data: bytearray, name: bytes) -> int:
    """Where the central directory entry of member ``name`` starts in ``data``."""
    at = -1
    while (at := data.find(b"PK\x01\x02", at + 1)) >= 0:
        if data[at + 46 : at + 46 + len(name)] == name:
            return at
    raise AssertionError(f"no member {name!r}")


def test_a_member_that_unpacks_past_its_declared_size_is_cut_there(tmp_path: Path) -> None:
    """A directory that declares a small size for a member that unpacks to 16 MB: unpacked in
    small steps, the member stops at its declared size and fails its CRC check. Before:
    np.load unpacked all 16 MB at once, then raised zipfile.BadZipFile (no library error)."""
    path = tmp_path / "liar.npz"
    members = value_members(weights=npy(np.zeros(FEATURES)) + bytes(16 * 1024 * 1024))
    zipped(path, members, zipfile.ZIP_DEFLATED)
    data = bytearray(path.read_bytes())
    entry = _central_entry(data, b"weights.npy")
    struct.pack_into("<L", data, entry + 24, len(npy(np.zeros(FEATURES))))  # uncompressed size
    path.write_bytes(data)
    message = refusal(path)
    assert "cannot unpack weights.npy" in message
    assert "CRC" in message
    assert peak_bytes(lambda: load_policy(path)) < 2_000_000


def test_an_impossible_compression_ratio_is_refused(tmp_path: Path) -> None:
    """Deflate packs at most 1032 bytes into one: a directory claiming more lies."""
    about = npy(np.array("x" * 10_000))  # 40,128 bytes
    path = zipped(tmp_path / "ratio.npz", value_members(about=about), zipfile.ZIP_DEFLATED)
    data = bytearray(path.read_bytes())
    entry = _central_entry(data, b"about.npy")
    struct.pack_into("<L", data, entry + 20, 38)  # compressed size: 38 bytes, 1056 to 1
    path.write_bytes(data)
    assert "about.npy claims to unpack 38 bytes to 40,128, more than zip compression can" in (
        refusal(path)
    )


def test_an_encrypted_or_otherwise_compressed_member_is_refused(tmp_path: Path) -> None:
    """Before: an encrypted member raised RuntimeError (password required)."""
    path = zipped(tmp_path / "locked.npz", value_members())
    data = bytearray(path.read_bytes())
    entry = _central_entry(data, b"weights.npy")
    struct.pack_into("<H", data, entry + 8, 0x1)  # general purpose flags: encrypted
    path.write_bytes(data)
    assert "weights.npy is encrypted" in refusal(path)
    bzip = zipped(tmp_path / "bzip.npz", value_members(), zipfile.ZIP_BZIP2)
    assert "compressed by zip method 12; policy files are stored" in refusal(bzip)


def test_a_zip_listing_many_or_twice_the_same_members_is_refused(tmp_path: Path) -> None:
    many = zipped(tmp_path / "many.npz", {f"x{i}.npy": b"" for i in range(10_000)})
    assert "its zip directory lists 10000 members" in refusal(many)
    assert peak_bytes(lambda: load_policy(many)) < 2_000_000
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate name
        twice = zipped(tmp_path / "twice.npz", value_members())
        with zipfile.ZipFile(twice, "a") as archive:
            archive.writestr("weights.npy", npy(np.zeros(FEATURES)))
    assert "it holds 'weights.npy' twice" in refusal(twice)


def test_a_zip64_directory_is_refused_before_it_is_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """zipfile takes the member count and directory size of a zip64 record over those of the
    end record: a small end record must not let a huge directory be parsed."""
    with monkeypatch.context() as patch:
        patch.setattr(zipfile, "ZIP_FILECOUNT_LIMIT", 1)  # zip64 records for a small zip
        path = zipped(tmp_path / "zip64.npz", {f"x{i}.npy": b"" for i in range(10_000)})
    data = bytearray(path.read_bytes())
    struct.pack_into("<HHL", data, len(data) - 22 + 8, 5, 5, 100)  # a small end record
    path.write_bytes(data)
    assert "its zip directory is a zip64 one" in refusal(path)
    assert peak_bytes(lambda: load_policy(path)) < 1_000_000


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """Before: a 17 MB file (its ``about`` padded) was read whole and loaded."""
    padding = "x" * ((MAX_POLICY_FILE_BYTES + 1024) // 4)
    path = saved(tmp_path / "large.npz", value_fields(about=np.array(padding)))
    assert path.stat().st_size > MAX_POLICY_FILE_BYTES
    assert "more than 16,777,216: write it" in refusal(path)
    assert peak_bytes(lambda: load_policy(path)) < 1_000_000


@pytest.mark.parametrize(
    ("member", "problem"),
    [
        (b"not an array", r"weights.npy is no .npy array"),
        (npy_header((FEATURES,))[:20], r"weights.npy is no .npy array"),
        (b"\x93NUMPY\x03\x00" + bytes(200), r"format version \(3, 0\)"),
        (npy_header((FEATURES,), descr=[("a", "<f8", (10**8,))]), r"holds structured data"),
        (npy_header((FEATURES,), descr=[("a", "<f8")]) + bytes(264), r"holds structured data"),
        (npy_header((FEATURES,), descr="<f8 and more"), r"not a valid dtype descriptor"),
        (npy_header((-1, 2)), r"weights has shape \(-1, 2\)"),
        (npy_header((FEATURES,), descr="<c16"), r"weights holds complex numbers"),
        (npy_header((1,), descr="<U1") + b"\xff\xff\xff\xff", r"weights holds text"),
        (b"\x93NUMPY\x01\x00" + struct.pack("<H", 4000) + b"{" * 4000, r"no .npy array"),
    ],
)
def test_a_member_that_is_no_sound_npy_array_is_refused(
    tmp_path: Path, member: bytes, problem: str
) -> None:
    message = refusal(zipped(tmp_path / "member.npz", value_members(weights=member)))
    assert re.search(problem, message), message


def test_a_kind_that_is_no_unicode_is_refused(tmp_path: Path) -> None:
    """numpy raises SystemError making a Python string of a code point past U+10FFFF."""
    kind = npy_header((), descr="<U1") + b"\xff\xff\xff\xff"
    assert "kind holds text that is no Unicode" in refusal(
        zipped(tmp_path / "kind.npz", value_members(kind=kind))
    )


# -- messages quote at most a short excerpt (item 9) --------------------------------------------


def test_a_megabyte_kind_is_not_echoed(tmp_path: Path) -> None:
    """Before: the message quoted the whole kind (1,000,073 characters)."""
    path = saved(tmp_path / "kind.npz", value_fields(kind=np.array("k" * 10**6)))
    assert "kind.npy unpacks to 4,000,128 bytes" in refusal(path)
    unknown = saved(tmp_path / "unknown.npz", value_fields(kind=np.array("k" * 64)))
    assert "unknown kind 'kkkkkkkkkk" in refusal(unknown)


def test_a_long_path_is_cut_in_the_message(tmp_path: Path) -> None:
    path = "x" * 100_000 + ".npz"
    with pytest.raises(PolicyFileError, match=r"cannot read the policy file 'xxx") as caught:
        load_policy(path)
    assert len(str(caught.value)) < 400


# -- any damage to a good file gets the library's error ----------------------------------------


@pytest.fixture(scope="module")
def fuzzed() -> Iterator[Path]:
    """Where the damaged files are written, and the good files they are made of."""
    with tempfile.TemporaryDirectory() as directory:
        folder = Path(directory)
        GOOD_FILES[:] = [
            saved(folder / "value.npz", value_fields()).read_bytes(),
            saved(folder / "packed.npz", value_fields(), compressed=True).read_bytes(),
            saved(folder / "linear.npz", linear_fields(weights=np.zeros((39, 3)))).read_bytes(),
        ]
        yield folder / "fuzzed.npz"


GOOD_FILES: list[bytes] = []  # filled by the fixture: hypothesis prints fixtures' values


@settings(suppress_health_check=[HealthCheck.too_slow])  # the profile sets the examples
@given(
    which=st.integers(0, 2),
    edits=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=4),
    cut=st.none() | st.integers(0, 10**6),
)
def test_a_damaged_policy_file_loads_or_gets_the_library_error(
    fuzzed: Path,
    which: int,
    edits: list[tuple[int, int]],
    cut: int | None,
) -> None:
    path = fuzzed
    data = bytearray(GOOD_FILES[which])
    for at, byte in edits:
        data[at % len(data)] = byte
    path.write_bytes(bytes(data[:cut]) if cut is not None else bytes(data))
    try:
        policy = load_policy(path)
    except PolicyFileError as exc:
        message = str(exc)
    else:
        assert isinstance(policy, ValuePolicyAgent | LinearPolicyAgent)
        assert np.all(np.isfinite(policy.weights))
        return
    assert message.startswith(f"the policy file {path}: ")
    assert len(message) < 500


# -- the command line -------------------------------------------------------------------------


def test_the_ladder_prints_the_problem_of_a_bad_policy_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: ``ladder --bots policy:bad.npz,random`` printed a ValueError's traceback."""
    bad = saved(tmp_path / "bad.npz", value_fields(features_version=np.array("one")))
    assert main(["ladder", "--bots", f"policy:{bad},random", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert f"the policy file {bad}: features_version holds text" in err.replace("\n", "")
    assert "Traceback" not in err
