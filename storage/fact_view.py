"""Each user's facts held in memory as Arrow rows, for page-in's validity checks.

Page-in asks, on every request, which of up to a hundred candidate ids are facts valid
now. DuckDB answers a look-up by id with an index probe per key (about 0.1 ms each at
20k facts), so the candidates cost more than the rest of the ranking. One read of the
user's facts (about 15 ms for 20k) serves every request after it. Writes are followed
by revision: every insert and update of a fact takes the next ``rev`` (the database
refuses an UPDATE that does not), so after a write only rows with a newer revision are
read; the database's lock runs transactions one at a time, so revisions commit in order
(on PostgreSQL, where other processes write too, its revision trigger's lock). A delete
of facts or any change to the archive reads everything again.

A read of changed rows costs DuckDB's statement overhead, not a scan: it leaves out the
archive's anti-join (a row is live unless its id was among the user's archived ids read
with the copy, which no change of the archive outlives) and keeps its few rows as the
tuples it fetched, beside the Arrow copy (2 rows at 2k facts: 3.2 -> 1.1 ms CPU).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .archive import not_archived
from .arrow_rows import RowsById
from .database import Database

if TYPE_CHECKING:  # pyarrow loads with the first read (DuckDB's), not with the store
    import pyarrow as pa

    from .records import Fact

# Users whose facts are held at once; an agent serves one, an eval a few.
MAX_USERS = 4
# Changed rows kept as tuples beside the copy; past this many the user's facts are read
# whole again, into one Arrow copy.
MAX_CHANGED = 256


@dataclass
class _Copy:
    rows: RowsById
    archived: frozenset[str]  # the user's archived ids when the copy was read
    rev: int  # the newest revision read
    generation: int  # the facts generation it was brought up to
    changed: dict[str, tuple[tuple[Any, ...], bool]] = field(default_factory=dict)


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
            copy = self._copy(user_id)
            changed = {i: copy.changed[i] for i in ids if i in copy.changed}
            rows = copy.rows.get([i for i in ids if i not in changed])
        found = {
            fact_id: (self._to_fact(tuple(row.values())[: self._width]), bool(row["live"]))
            for fact_id, row in rows.items()
        }
        found.update({i: (self._to_fact(row), live) for i, (row, live) in changed.items()})
        return {i: found[i] for i in dict.fromkeys(ids) if i in found}

    def warm(self, user_id: str) -> None:
        """Read the user's changed rows now, if the user's copy is held and needs no whole
        read (after a write, off the reader's path): a user nobody reads gets no copy, and
        a copy due to be read again whole waits for a reader."""
        with self._lock:
            copy = self._users.get(user_id)
            if copy is not None and len(copy.changed) <= MAX_CHANGED and not self._reset_due():
                self._catch_up(copy, user_id)

    def _reset_due(self) -> bool:
        return self._reset_key() != self._reset_at

    def _reset_key(self) -> tuple[int, int]:
        return (self._db.deletions("facts"), self._db.generation("archived"))

    def _copy(self, user_id: str) -> _Copy:
        if self._reset_due():  # rows went away or were hidden: start afresh
            self._users.clear()
            self._reset_at = self._reset_key()
        copy = self._users.get(user_id)
        if copy is not None and len(copy.changed) > MAX_CHANGED:
            copy = None
        if copy is None:
            copy = self._read_all(user_id, self._db.generation("facts"))
            self._users[user_id] = copy
            while len(self._users) > MAX_USERS:
                self._users.popitem(last=False)
        else:
            self._users.move_to_end(user_id)
            self._catch_up(copy, user_id)
        return copy

    def _catch_up(self, copy: _Copy, user_id: str) -> None:
        generation = self._db.generation("facts")
        if copy.generation != generation:
            self._read_changed(copy, user_id)
            copy.generation = generation

    def _read_all(self, user_id: str, generation: int) -> _Copy:
        # Read before the facts: an archive change between the two resets the copy anyway.
        archived = self._db.query("SELECT item_id FROM archived WHERE user_id = ?", [user_id])
        table = self._db.arrow(
            f"SELECT {self._columns}, {not_archived('facts')} AS live, rev "
            "FROM facts WHERE user_id = ?",
            [user_id],
        )
        self.full_reads += 1
        held = frozenset(item_id for (item_id,) in archived)
        return _Copy(RowsById(table), held, _max_rev(table, 0), generation)

    def _read_changed(self, copy: _Copy, user_id: str) -> None:
        rows = self._db.query(
            f"SELECT {self._columns}, rev FROM facts WHERE user_id = ? AND rev > ?",
            [user_id, copy.rev],
        )
        for row in rows:
            fact = row[: self._width]
            copy.changed[fact[0]] = (fact, fact[0] not in copy.archived)
            if row[-1] is not None:
                copy.rev = max(copy.rev, int(row[-1]))


def _max_rev(table: pa.Table, floor: int) -> int:
    revs = table.column("rev").to_pylist()
    return max([floor, *(rev for rev in revs if rev is not None)])
