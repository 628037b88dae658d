"""A bot that misbehaves on purpose, for the tests of exec bots (``test_bot_protocol.py``).

    python tests/hostile_bot.py MODE [MARKER]

It speaks the bot protocol and answers the first legal action, except for what ``MODE``
makes it do, at its first move unless said otherwise. ``MARKER`` is only there to be found in
its command line, so that a test can look for processes it left behind.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time


def send(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def probe_forks() -> str:
    """Try to start processes every way Python can; say how many started.

    A fork bomb whose children exit at once: were the limit broken, it could not take the
    machine down.
    """
    started = refused = 0
    for _ in range(50):
        try:
            pid = os.fork()
        except OSError:
            refused += 1
            continue
        if pid == 0:
            os._exit(0)
        started += 1
        os.waitpid(pid, 0)
    for spawn in (
        lambda: subprocess.run(["true"], check=False),
        lambda: os.posix_spawn("/bin/true", ["true"], {}),
    ):
        try:
            spawn()
            started += 1
        except OSError:
            refused += 1
    worker = threading.Thread(target=lambda: None)
    worker.start()
    worker.join()
    return f"processes started {started}, refused {refused}; threads work"


def misbehave(mode: str, move: dict[str, object]) -> None:
    """Do what ``mode`` says at a move (or nothing); the caller answers afterwards."""
    if mode in ("sleep", "cpu-hog"):
        end = time.monotonic() + 3600
        while time.monotonic() < end:
            if mode == "sleep":
                time.sleep(1)
    elif mode == "late":
        time.sleep(float(move["time_left"]) + 0.3)  # type: ignore[arg-type]
    elif mode == "slow":
        time.sleep(0.15)
    elif mode == "fail-once":  # the first process fails its first move, the next ones play
        if not os.path.exists(sys.argv[3]):
            with open(sys.argv[3], "w") as flag:
                flag.write("failed once")
            os._exit(5)
    elif mode == "flood-info":
        while True:
            send("info " + "x" * 200)
    elif mode == "flood-no-newline":
        while True:
            sys.stdout.write("a" * 65536)
    elif mode == "flood-stderr":
        while True:
            sys.stderr.write("e" * 65536)
    elif mode == "huge-line":
        send("action " + "a" * 10_000_000)
    elif mode == "garbage":
        send("thinking about it...")
    elif mode == "binary":
        sys.stdout.buffer.write(b"action \xff\xfe\n")
        sys.stdout.flush()
    elif mode == "exit-mid-line":
        sys.stdout.write("action t0")
        sys.stdout.flush()
        os._exit(0)
    elif mode == "crash":
        raise RuntimeError("the bot crashed on purpose")
    elif mode == "close-stdout":
        os.close(1)
        time.sleep(3600)
    elif mode == "fork-bomb":
        send("info " + probe_forks())
    elif mode == "memory":
        try:
            hog = bytearray(1024**3)
            send(f"info allocated {len(hog)} bytes")
        except MemoryError:
            send("info memory refused")
    elif mode == "big-file":
        try:
            with open(sys.argv[3], "wb") as file:
                file.write(b"0" * 4 * 1024**2)
            send("info wrote the file")
        except OSError as error:
            send(f"info file refused: {error.strerror}")
    elif mode == "environment":
        send("info environment " + " ".join(sorted(os.environ)))
    elif mode == "linger":  # a child that tries to leave the group, to outlive the game
        read, write = os.pipe()
        if os.fork() == 0:
            try:
                os.setsid()
                os.write(write, b"left its session")
            except OSError:
                os.write(write, b"stayed in its session")
            time.sleep(3600)
            os._exit(0)
        send("info started a child, which " + os.read(read, 100).decode())


def main() -> None:
    mode = sys.argv[1]
    if mode == "crash-at-start":
        sys.stderr.write("cannot find my weights\n")
        sys.exit(3)
    if mode == "cpu-at-start":
        while True:
            pass
    for line in sys.stdin:
        command, _, argument = line.strip().partition(" ")
        if command == "hello":
            if mode == "silent-start":
                time.sleep(3600)
            send("name hostile " + mode)
            send("author the tests")
            send("ready 7" if mode == "version" else "ready 1")
        elif command == "move":
            move = json.loads(argument)
            misbehave(mode, move)
            legal = move["legal_actions"]
            if mode == "illegal":
                send("action pass")  # never legal at the start of a game
            elif mode == "nonsense":
                send("action jump")
            elif mode == "double":
                # Both answers in one write: the second is in the pipe when the first is read.
                send("action " + legal[0] + "\naction " + legal[-1])
            else:
                send("action " + legal[0])
                if mode == "deaf":  # it reads no more input
                    time.sleep(3600)
        elif command == "quit":
            if mode == "ignore-quit":
                time.sleep(3600)
            return


if __name__ == "__main__":
    main()
