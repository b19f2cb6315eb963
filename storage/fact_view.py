"""Each user's facts held in memory as one Arrow table, for page-in's validity checks.

Page-in asks, on every request, which of up to a hundred candidate ids are facts valid
now. DuckDB answers a look-up by id with an index probe per key (about 0.1 ms each at
20k facts), so the candidates cost more than the rest of the ranking. One read of the
user's facts (about 15 ms for 20k) serves every request until the next committed write
to ``facts`` or ``archived``; the database's write generations say when that happens.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pyarrow as pa

from .archive import not_archived
from .database import Database

if TYPE_CHECKING:
    from collections.abc import Callable

    from .records import Fact

# Users whose facts are held at once; an agent serves one, an eval a few.
MAX_USERS = 4


@dataclass(frozen=True)
class _Snapshot:
    table: pa.Table
    rows: dict[str, int]  # fact id -> row of ``table``


class FactView:
    """Read-only per-user snapshots of the facts table, rebuilt after any write to it."""

    def __init__(
        self, db: Database, columns: str, to_fact: Callable[[tuple[object, ...]], Fact]
    ) -> None:
        self._db = db
        self._columns = columns
        self._to_fact = to_fact
        self._users: OrderedDict[str, _Snapshot] = OrderedDict()
        self._at: tuple[int, int] = (-1, -1)

    def facts(self, ids: Sequence[str], *, user_id: str) -> dict[str, tuple[Fact, bool]]:
        """Of ``ids``, this user's facts with whether each is live (not archived)."""
        snapshot = self._snapshot(user_id)
        wanted = [(i, snapshot.rows[i]) for i in dict.fromkeys(ids) if i in snapshot.rows]
        if not wanted:
            return {}
        picked = snapshot.table.take([row for _, row in wanted])
        columns = [picked.column(n).to_pylist() for n in range(picked.num_columns)]
        out: dict[str, tuple[Fact, bool]] = {}
        for n, row in enumerate(zip(*columns, strict=True)):
            out[wanted[n][0]] = (self._to_fact(row[:-1]), bool(row[-1]))
        return out

    def _snapshot(self, user_id: str) -> _Snapshot:
        generation = (self._db.generation("facts"), self._db.generation("archived"))
        if generation != self._at:
            self._users.clear()
            self._at = generation
        snapshot = self._users.get(user_id)
        if snapshot is None:
            table = self._db.arrow(
                f"SELECT {self._columns}, {not_archived('facts')} AS live "
                "FROM facts WHERE user_id = ?",
                [user_id],
            )
            ids = table.column("id").to_pylist()
            snapshot = _Snapshot(table, {fact_id: n for n, fact_id in enumerate(ids)})
            self._users[user_id] = snapshot
            while len(self._users) > MAX_USERS:
                self._users.popitem(last=False)
        else:
            self._users.move_to_end(user_id)
        return snapshot
