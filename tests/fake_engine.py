"""A misbehaving engine for tests/test_engine.py: ``python fake_engine.py MODE PIDFILE``.

It writes its pid (and its child's, in mode ``child``) to PIDFILE, one per line, then speaks
the protocol's core (the first legal move) except where MODE says otherwise. It imports
nothing of chickenfoot, so it starts in a few milliseconds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time


def send(message: object) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main(mode: str, pidfile: str) -> int:
    pids = [os.getpid()]
    if mode == "child":  # a child in the same process group, which must die with it
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        pids.append(child.pid)
    with open(pidfile, "w") as f:
        f.write("\n".join(map(str, pids)) + "\n")
    print(f"fake engine {mode} started", file=sys.stderr, flush=True)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if mode == "rounds":  # keeps what it is told: the types, and the seat of new_round
            with open(pidfile + ".log", "a") as log:
                log.write(f"{kind} {message.get('seat', message.get('view', {}).get('seat'))}\n")
        if kind == "hello":
            if mode == "slow_hello":
                time.sleep(30)
            if mode == "junk_hello":
                sys.stdout.write("id name fake\n")
                sys.stdout.flush()
                continue
            hello = {"type": "hello", "protocol": 2 if mode == "version" else 1, "name": "fake"}
            if mode in ("no_rng_back", "bad_rng"):
                hello["extensions"] = ["rng"]
            if mode == "rounds":
                hello["extensions"] = ["rounds", "later-extension"]
            if mode.startswith("options"):
                hello["options"] = {"depth": {"type": "int", "default": 1, "min": 1, "max": 5}}
            send(hello)
        elif kind == "options":
            if mode == "options_refused":
                send({"type": "error", "message": "depth 4 is too deep for me"})
            else:
                send({"type": "ready"})
        elif kind == "go":
            legal = message["legal"]
            if mode in ("crash", "child_crash"):
                print("Traceback: something broke", file=sys.stderr, flush=True)
                return 3
            if mode in ("hang", "child"):
                time.sleep(60)
            if mode == "junk":
                sys.stdout.write("bestmove 9-2@9-9\n")
                sys.stdout.flush()
            elif mode == "long":
                sys.stdout.write('{"type": "info", "pad": "' + "x" * (2 << 20) + '"}\n')
                sys.stdout.flush()
            elif mode == "flood":  # info lines without end, never a move
                while True:
                    send({"type": "info", "string": "thinking " * 20})
            elif mode == "illegal":
                send({"type": "move", "move": "pass"})
            elif mode == "not_a_move":
                send({"type": "move", "move": "e2e4"})
            elif mode == "error":
                send({"type": "error", "message": "I give up"})
            elif mode == "close_stdout":
                os.close(1)
                time.sleep(60)
            elif mode == "no_rng_back":
                send({"type": "move", "move": legal[0]})
            elif mode == "bad_rng":
                send({"type": "move", "move": legal[0], "rng": [3, [1, 2], None]})
            elif mode == "array":
                sys.stdout.write("[1, 2, 3]\n")
                sys.stdout.flush()
            else:
                send({"type": "info", "depth": 1, "legal": len(legal)})
                send({"type": "move", "move": legal[0]})
        elif kind == "quit":
            if mode == "stubborn":  # ignores quit: it is killed after the grace period
                time.sleep(60)
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
