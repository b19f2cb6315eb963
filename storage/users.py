"""Every storage call names its user explicitly; this checks that it did."""

from __future__ import annotations

import re

from memvisor.errors import UserError

# Letters and digits of any script first, then also '_', '.', '@', '-'. Matched whole with
# ``fullmatch``: a ``$`` would let a trailing newline through ("victim\n").
_USER_ID = re.compile(r"[^\W_][\w.@-]{0,127}")


def require_user(user_id: object) -> str:
    """Return a valid ``user_id`` or raise: no storage call runs without one."""
    if not isinstance(user_id, str) or not user_id:
        raise UserError("user_id is required for every memory read and write: pass --user NAME")
    if not _USER_ID.fullmatch(user_id):
        shown = repr(user_id[:40]) + ("…" if len(user_id) > 40 else "")
        raise UserError(
            f"invalid user id {shown}: use 1-128 letters or digits (any script), '_', '.', "
            "'@' or '-', starting with a letter or digit"
        )
    return user_id
