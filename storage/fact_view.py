"""Each user's facts held in memory as Arrow rows, for page-in's validity checks.

Page-in asks, on every request, which of up to a hundred candidate ids are facts valid
now. DuckDB answers a look-up by id with an index probe per key (about 0.1 ms each at
20k facts), so the candidates cost more than the rest of the ranking. One read of the
user's facts (about 15 ms for 20k) serves every request after it. Writes are followed
by revision: every insert and update of a fact takes the next ``rev`` (the database
refuses an UPDATE that does not), so after a write only rows with a newer revision are
read (~1.5 ms); the database's lock runs transactions one at a time, so revisions commit
in order (on PostgreSQL, where other processes write too, its revision trigger's lock).
A delete of facts or any change to the archive reads everything again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .archive import not_archived
from .arrow_rows import RowsById
from .database import Database

if TYPE_CHECKING:  # pyarrow loads with the first read (DuckDB's), not with the store
    import pyarrow as pa

    from .records import Fact

# Users whose facts are held at once; an agent serves one, an eval a few.
MAX_USERS = 4


@dataclass
class _Copy:
    rows: RowsById
    rev: int  # the newest revision read
    generation: int  # the facts generation it was brought up to


class FactView:
    """Per-user copies of the facts table, brought up to date before every read."""

    def __init__(
        self, db: Database, columns: str, to_fact: Callable[[tuple[Any, ...]], Fact]
    ) -> None:
        self._db = db
        self._columns = columns
        self._width = len(columns.split(","))
        self._to_fact = to_fact
        self._users: OrderedDict[str, _Copy] = OrderedDict()
        self._reset_at: tuple[int, int] = (-1, -1)
        self.full_reads = 0  # how often a user's facts were read whole (tests watch it)
        self._lock = threading.Lock()  # a server's requests for different users run at once

    def facts(self, ids: Sequence[str], *, user_id: str) -> dict[str, tuple[Fact, bool]]:
        """Of ``ids``, this user's facts with whether each is live (not archived)."""
        with self._lock:
            rows = self._copy(user_id).rows.get(ids)
        return {
            fact_id: (self._to_fact(tuple(row.values())[: self._width]), bool(row["live"]))
            for fact_id, row in rows.items()
        }

    def _copy(self, user_id: str) -> _Copy:
        reset = (self._db.deletions("facts"), self._db.generation("archived"))
        if reset != self._reset_at:  # rows went away or were hidden: start afresh
            self._users.clear()
            self._reset_at = reset
        generation = self._db.generation("facts")
        copy = self._users.get(user_id)
        if copy is None:
            table = self._read(user_id, since=None)
            copy = _Copy(RowsById(table), _max_rev(table, 0), generation)
            self.full_reads += 1
            self._users[user_id] = copy
            while len(self._users) > MAX_USERS:
                self._users.popitem(last=False)
        else:
            self._users.move_to_end(user_id)
            if copy.generation != generation:
                changed = self._read(user_id, since=copy.rev)
                if changed.num_rows:
                    copy.rows.append(changed)
                    copy.rev = _max_rev(changed, copy.rev)
                copy.generation = generation
        return copy

    def _read(self, user_id: str, *, since: int | None) -> pa.Table:
        newer = "" if since is None else f" AND rev > {int(since)}"
        return self._db.arrow(
            f"SELECT {self._columns}, {not_archived('facts')} AS live, rev "
            f"FROM facts WHERE user_id = ?{newer}",
            [user_id],
        )


def _max_rev(table: pa.Table, floor: int) -> int:
    revs = table.column("rev").to_pylist()
    return max([floor, *(rev for rev in revs if rev is not None)])
