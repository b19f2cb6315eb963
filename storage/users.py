"""Every storage call names its user explicitly; this checks that it did."""

from __future__ import annotations

import re

from memvisor.errors import UserError

_USER_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,127}$")


def require_user(user_id: object) -> str:
    """Return a valid ``user_id`` or raise: no storage call runs without one."""
    if not isinstance(user_id, str) or not user_id:
        raise UserError("user_id is required for every memory read and write: pass --user NAME")
    if not _USER_ID.match(user_id):
        raise UserError(
            f"invalid user id {user_id!r}: use 1-128 letters, digits, '_', '.', '@' or '-'"
        )
    return user_id
