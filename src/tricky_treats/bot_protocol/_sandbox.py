"""Start a bot program inside its limits: the step between the host and the bot's own program.

The host runs this file as a script (``python -I -S _sandbox.py SETTINGS PROGRAM ARGS...``)
in the bot's new session; it sets the limits on itself and then becomes the bot's program
with ``execvp``, so the limits hold for the bot and everything it starts. Setting them here
rather than in a ``preexec_fn`` keeps starting a bot safe in a host with threads.

- resource limits: address space, CPU seconds, file size, no core files, open files, and
  (when the bot may start processes) the processes of its user;
- on Linux (x86-64 and arm64), a seccomp filter: the bot may not leave its process group
  (``setsid``, ``setpgid``), so killing the group kills everything it started; and unless
  it may start processes, it may not (``fork``, ``vfork``, a ``clone`` that makes no thread;
  ``clone3`` answers ENOSYS so that the C library makes its threads with ``clone``);
- ``PR_SET_PDEATHSIG``: when asked, the bot is killed if the process that started it dies.

It imports the standard library alone: ``-S`` leaves site-packages out of the path.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import resource
import signal
import sys
from typing import Any

_PR_SET_PDEATHSIG = 1
_PR_SET_NO_NEW_PRIVS = 38
_PR_SET_SECCOMP = 22
_SECCOMP_MODE_FILTER = 2

_RET_ALLOW = 0x7FFF0000
_RET_KILL_PROCESS = 0x80000000
_RET_ERRNO = 0x00050000
_LD_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS: load a 32-bit word of the system call's data
_JEQ = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JGE = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_JSET = 0x45  # BPF_JMP | BPF_JSET | BPF_K
_RET = 0x06  # BPF_RET | BPF_K
_CLONE_THREAD = 0x00010000
_X32_SYSCALL_BIT = 0x40000000

# Per machine: the audit architecture and the system call numbers the filter names.
_SYSCALLS: dict[str, tuple[int, dict[str, int]]] = {
    "x86_64": (
        0xC000003E,
        {"clone": 56, "fork": 57, "vfork": 58, "setpgid": 109, "setsid": 112, "clone3": 435},
    ),
    "aarch64": (0xC00000B7, {"clone": 220, "setpgid": 154, "setsid": 157, "clone3": 435}),
}


class _Instruction(ctypes.Structure):
    _fields_ = (
        ("code", ctypes.c_ushort),
        ("jt", ctypes.c_ubyte),
        ("jf", ctypes.c_ubyte),
        ("k", ctypes.c_uint32),
    )


class _Program(ctypes.Structure):
    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Instruction)))


def filter_program(machine: str, forbid_processes: bool) -> list[tuple[int, int, int, int]]:
    """The seccomp filter as (code, jump if true, jump if false, value) instructions."""
    arch, numbers = _SYSCALLS[machine]
    program = [
        (_LD_ABS, 0, 0, 4),  # the architecture: another one (32-bit calls) is killed
        (_JEQ, 1, 0, arch),
        (_RET, 0, 0, _RET_KILL_PROCESS),
        (_LD_ABS, 0, 0, 0),  # the system call's number
    ]
    if machine == "x86_64":  # x32 calls would name the same calls by other numbers
        program += [(_JGE, 0, 1, _X32_SYSCALL_BIT), (_RET, 0, 0, _RET_ERRNO | errno.ENOSYS)]
    refused = [("setsid", errno.EPERM), ("setpgid", errno.EPERM)]
    if forbid_processes:
        # EPERM, not EAGAIN: a shell retries a fork that failed with EAGAIN for seconds.
        refused += [("fork", errno.EPERM), ("vfork", errno.EPERM), ("clone3", errno.ENOSYS)]
    for name, code in refused:
        if name in numbers:
            program += [(_JEQ, 0, 1, numbers[name]), (_RET, 0, 0, _RET_ERRNO | code)]
    if forbid_processes:  # a clone that makes a thread is allowed, any other refused
        program += [
            (_JEQ, 0, 3, numbers["clone"]),
            (_LD_ABS, 0, 0, 16),  # the low half of the first argument, the flags
            (_JSET, 1, 0, _CLONE_THREAD),
            (_RET, 0, 0, _RET_ERRNO | errno.EPERM),
        ]
    program.append((_RET, 0, 0, _RET_ALLOW))
    return program


def _prctl(libc: Any, option: int, *args: int) -> None:
    padded = [ctypes.c_ulong(a) for a in (*args, 0, 0, 0, 0)[:4]]
    if libc.prctl(option, *padded) != 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))


def _install_filter(libc: Any, forbid_processes: bool) -> None:
    machine = os.uname().machine
    if machine not in _SYSCALLS:
        raise OSError(errno.ENOSYS, f"no seccomp filter for {machine} machines")
    instructions = filter_program(machine, forbid_processes)
    array = (_Instruction * len(instructions))(*[_Instruction(*i) for i in instructions])
    program = _Program(len(instructions), array)
    _prctl(libc, _PR_SET_NO_NEW_PRIVS, 1)
    _prctl(libc, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.addressof(program))


def _user_tasks() -> int:
    """The processes and threads of this user now: what RLIMIT_NPROC counts."""
    uid = os.getuid()
    tasks = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/status", encoding="ascii", errors="replace") as status:
                    fields = dict(line.split(":", 1) for line in status if ":" in line)
            except OSError:
                continue
            if int(fields.get("Uid", "-1").split()[0]) == uid:
                tasks += int(fields.get("Threads", "1"))
    return tasks


def _set_limits(settings: dict[str, Any]) -> None:
    def limit(kind: int, value: int, hard: int | None = None) -> None:
        resource.setrlimit(kind, (value, value if hard is None else hard))

    limit(resource.RLIMIT_AS, settings["memory_bytes"])
    # Past the soft limit the kernel sends SIGXCPU (which ends the bot), at the hard SIGKILL.
    limit(resource.RLIMIT_CPU, settings["cpu_seconds"], settings["cpu_seconds"] + 1)
    limit(resource.RLIMIT_FSIZE, settings["file_bytes"])
    limit(resource.RLIMIT_CORE, 0)
    limit(resource.RLIMIT_NOFILE, settings["open_files"])
    if settings["processes"] > 0 and sys.platform.startswith("linux"):
        # RLIMIT_NPROC counts every task of the user (and binds no root): its tasks now,
        # the bot's processes, and room for threads.
        limit(resource.RLIMIT_NPROC, _user_tasks() + settings["processes"] + 64)


def main(argv: list[str]) -> int:
    settings = json.loads(argv[1])
    program = argv[2:]
    try:
        _set_limits(settings)
    except (OSError, ValueError) as exc:
        print(f"tricky-treats: could not set the bot's limits: {exc}", file=sys.stderr)
        return 126
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        if settings["parent"]:
            _prctl(libc, _PR_SET_PDEATHSIG, signal.SIGKILL)
            if os.getppid() != settings["parent"]:  # it died before the call
                return 1
        try:
            _install_filter(libc, forbid_processes=settings["processes"] == 0)
        except OSError as exc:
            if settings["processes"] == 0:  # the limit cannot hold: refuse to start
                print(
                    f"tricky-treats: could not forbid the bot to start processes ({exc}); "
                    "allow it some processes to run it without that limit",
                    file=sys.stderr,
                )
                return 126
    try:
        os.execvp(program[0], program)
    except OSError as exc:
        print(f"tricky-treats: cannot run {program[0]!r}: {exc.strerror or exc}", file=sys.stderr)
        return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv))
