"""Core memory blocks: small, labelled, always in context, versioned against lost updates."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from memvisor.errors import NotFound, UserError, VersionConflict

from .clock import Clock
from .database import Database, db_time, from_db_time
from .records import CoreBlock
from .users import require_user

# Every user starts with these; limits are in tokens of the served model.
DEFAULT_BLOCKS: dict[str, tuple[str, int]] = {
    "persona": (
        "I am Memvisor, an assistant with long-term memory. I remember what the user tells me, "
        "say where a memory came from when asked, and ask instead of guessing.",
        400,
    ),
    "human": ("", 600),
}

_COLUMNS = "user_id, label, value, token_limit, read_only, version, updated_at, trace_id"
# The largest limit a block may have: every prompt carries every block in full.
MAX_TOKEN_LIMIT = 2000


def is_default_text(label: str, value: str) -> bool:
    """The text a default block has before anyone writes it."""
    default = DEFAULT_BLOCKS.get(label)
    return default is not None and value == default[0]


class CoreBlocks:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def ensure_defaults(self, *, user_id: str) -> None:
        require_user(user_id)
        with self._db.transaction() as conn:
            for label, (value, limit) in DEFAULT_BLOCKS.items():
                conn.execute(
                    "INSERT INTO core_blocks VALUES (?, ?, ?, ?, FALSE, 1, ?, NULL) "
                    "ON CONFLICT DO NOTHING",
                    [user_id, label, value, limit, db_time(self._clock.now())],
                )

    def _rows(self, user_id: str) -> list[tuple[Any, ...]]:
        """The user's blocks. A default block nobody has written yet is shown as it would be
        created (version 1) but not written: a read stays a read, even on a full disk."""
        rows = self._db.query(
            f"SELECT {_COLUMNS} FROM core_blocks WHERE user_id = ? ORDER BY label",
            [require_user(user_id)],
        )
        stored = {r[1] for r in rows}
        unwritten = [
            (user_id, label, value, limit, False, 1, None, None)  # never written: no time
            for label, (value, limit) in DEFAULT_BLOCKS.items()
            if label not in stored
        ]
        return [*rows, *unwritten]

    def list(self, *, user_id: str) -> list[CoreBlock]:
        order = list(DEFAULT_BLOCKS)
        blocks = [_block(r) for r in self._rows(user_id)]
        return sorted(
            blocks, key=lambda b: (order.index(b.label) if b.label in order else 99, b.label)
        )

    def get(self, label: str, *, user_id: str) -> CoreBlock:
        blocks = self.list(user_id=user_id)
        found = next((b for b in blocks if b.label == label), None)
        if found is None:
            labels = ", ".join(b.label for b in blocks)
            raise NotFound(f"no core block {label!r}; existing blocks: {labels}")
        return found

    def create(
        self,
        label: str,
        *,
        user_id: str,
        value: str = "",
        token_limit: int,
        read_only: bool = False,
        trace_id: str | None = None,
    ) -> CoreBlock:
        require_user(user_id)
        if not label or not label.replace("_", "").isalnum():
            raise UserError(f"invalid block label {label!r}: use letters, digits and '_'")
        if token_limit <= 0:
            raise UserError("token_limit must be a positive number of tokens")
        with self._db.transaction() as conn:
            exists = conn.execute(
                "SELECT 1 FROM core_blocks WHERE user_id = ? AND label = ?", [user_id, label]
            ).fetchall()
            if exists:
                raise UserError(f"core block {label!r} already exists")
            conn.execute(
                f"INSERT INTO core_blocks ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
                [
                    user_id,
                    label,
                    value,
                    token_limit,
                    read_only,
                    db_time(self._clock.now()),
                    trace_id,
                ],
            )
        return self.get(label, user_id=user_id)

    def update(
        self,
        label: str,
        value: str,
        *,
        user_id: str,
        expected_version: int,
        count_tokens: Callable[[str], int],
        trace_id: str | None = None,
    ) -> CoreBlock:
        """Replace a block's value if nobody changed it since ``expected_version`` and it fits
        the block's token limit, counted with ``count_tokens`` (the served model's tokenizer)."""
        current = self.get(label, user_id=user_id)
        if current.read_only:
            raise UserError(f"core block {label!r} is read-only")
        check_fits(current, value, count_tokens)
        with self._db.transaction() as tx:
            if label in DEFAULT_BLOCKS:  # its first write stores the default it replaces
                self.ensure_defaults(user_id=user_id)
            updated = tx.execute(
                "UPDATE core_blocks SET value = ?, version = version + 1, updated_at = ?, "
                "trace_id = ? WHERE user_id = ? AND label = ? AND version = ?",
                [value, db_time(self._clock.now()), trace_id, user_id, label, expected_version],
            ).fetchall()[0][0]
        if not updated:
            latest = self.get(label, user_id=user_id)
            raise VersionConflict(
                f"core block {label!r} changed (version {latest.version}, expected "
                f"{expected_version}); re-read it and retry"
            )
        return self.get(label, user_id=user_id)

    def restore(self, block: CoreBlock, *, user_id: str) -> None:
        """Write a block exactly as exported (import path)."""
        require_user(user_id)
        if block.user_id != user_id:
            raise UserError(f"core block {block.label!r} belongs to another user")
        with self._db.transaction() as conn:
            conn.execute(
                "DELETE FROM core_blocks WHERE user_id = ? AND label = ?", [user_id, block.label]
            )
            conn.execute(
                f"INSERT INTO core_blocks ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    user_id,
                    block.label,
                    block.value,
                    block.token_limit,
                    block.read_only,
                    block.version,
                    db_time(block.updated_at or self._clock.now()),  # a default never written
                    block.trace_id,
                ],
            )


def _block(row: tuple[Any, ...]) -> CoreBlock:
    return CoreBlock(
        user_id=row[0],
        label=row[1],
        value=row[2],
        token_limit=row[3],
        read_only=row[4],
        version=row[5],
        updated_at=from_db_time(row[6]),
        trace_id=row[7],
    )


def check_fits(block: CoreBlock, value: str, count_tokens: Callable[[str], int]) -> None:
    """A block never holds more than its limit: core blocks are never cut from a prompt, so
    an oversized block would make every turn fail "the prompt cannot fit"."""
    size = count_tokens(value)
    if size > block.token_limit:
        raise UserError(
            f"block '{block.label}' would be {size} tokens; its limit is {block.token_limit} "
            f"(now {count_tokens(block.value)}). Shorten the text, or keep details as "
            "facts or passages instead"
        )


def import_refusal(
    block: CoreBlock, *, known: set[str], count_tokens: Callable[[str], int]
) -> str | None:
    """Why an imported block may not be written, or None. An export is data: it may not
    invent a label the agent never had, a limit no prompt can carry, an over-full block or a
    read-only one (read-only is for the owner to set, not for a file to claim)."""
    if block.label not in known:
        return (
            f"label {block.label[:40]!r} is not a block of this user ({', '.join(sorted(known))})"
        )
    if not 0 < block.token_limit <= MAX_TOKEN_LIMIT:
        return f"limit {block.token_limit} is outside 1-{MAX_TOKEN_LIMIT} tokens"
    if block.read_only:
        return "read-only is set by the owner, not by an import"
    size = count_tokens(block.value)
    if size > block.token_limit:
        return f"value is {size} tokens, over its limit of {block.token_limit}"
    return None
