"""A writer process for the PostgreSQL fault tests (``tests/test_pg_faults.py``).

``python -m tests.pg_worker URL DATA_DIR MODE NAME STOP_FILE [LIMIT]``

- ``facts``: a new fact per step for user NAME, then ``ACK <step> <fact id>`` once the
  commit returned; a write that failed with "nothing of it is stored" is tried again, one
  whose outcome is unknown is reported (``UNKNOWN <step>``) and never tried again.
- ``supersede``: moves the shared user to ``NAME <step>`` (``lives_in`` holds one value,
  so each write supersedes whichever value is current, whoever wrote it); ``ACK <step> <id>``.
- ``block``: appends `` NAME:<step>`` to the shared user's ``human`` core block with the
  version it read; a ``VersionConflict`` (another process wrote in between) is counted and
  the step retried on a fresh read; ``ACK <step>`` after commit.

It starts writing once ``go`` exists beside STOP_FILE (the test touches it when every
worker is READY), and stops when STOP_FILE exists, or after LIMIT steps. Lines are
flushed one by one: what the test reads was acknowledged before the process could be
killed.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from memvisor.errors import StorageError, VersionConflict
from memvisor.storage import Store

SHARED_USER = "shared"


def main(url: str, data_dir: str, mode: str, name: str, stop: str, limit: int) -> None:
    with Store.open(data_dir, embedder="hash", store=url) as store:
        say("READY")
        go = Path(stop).with_name("go")  # the test's start signal: every worker writes at once
        while not go.exists() and not Path(stop).exists():
            time.sleep(0.01)
        step = 0
        while step < limit and not Path(stop).exists():
            try:
                if mode == "facts":
                    write = store.remember_fact(
                        user_id=name, subject=name, predicate=f"note_{step}",
                        object=f"value {step} of {name}", trace_id="t",
                    )  # fmt: skip
                    assert write.fact is not None
                    say(f"ACK {step} {write.fact.id}")
                elif mode == "supersede":
                    write = store.remember_fact(
                        user_id=SHARED_USER, subject=SHARED_USER, predicate="lives_in",
                        object=f"{name} {step}", trace_id="t",
                    )  # fmt: skip
                    assert write.fact is not None
                    say(f"ACK {step} {write.fact.id}")
                else:
                    block = store.core.get("human", user_id=SHARED_USER)
                    time.sleep(0.01)  # room for the other process to write in between
                    store.core.update(
                        "human", f"{block.value} {name}:{step}", user_id=SHARED_USER,
                        expected_version=block.version, count_tokens=lambda _: 1,
                    )  # fmt: skip
                    say(f"ACK {step}")
            except VersionConflict:
                say(f"CONFLICT {step}")
                continue
            except StorageError as exc:
                if "nothing of it is stored" in str(exc) or "cannot use" in str(exc):
                    say(f"RETRY {step} {' '.join(str(exc).split())[:160]}")
                    time.sleep(0.05)
                    continue
                say(f"UNKNOWN {step} {' '.join(str(exc).split())[:160]}")
            step += 1
        say("DONE")


def say(line: str) -> None:
    print(line, flush=True)


if __name__ == "__main__":
    url, data_dir, mode, name, stop, *rest = sys.argv[1:]
    main(url, data_dir, mode, name, stop, int(rest[0]) if rest else 10**9)
