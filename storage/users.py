"""Every storage call names its user explicitly; this checks that it did."""

from __future__ import annotations

import unicodedata

from memvisor.errors import UserError

MAX_USER_ID = 128
_PUNCTUATION = frozenset("_.@-")
# Combining marks are part of a letter in many scripts (Devanagari vowel signs, a decomposed
# "ë"): allowed after the first character, which must be a letter or digit itself.
_MARKS = frozenset({"Mn", "Mc", "Me"})
_SHOWN = 40


def _valid(user_id: str) -> bool:
    if not 1 <= len(user_id) <= MAX_USER_ID or not user_id[0].isalnum():
        return False
    return all(
        c.isalnum() or c in _PUNCTUATION or unicodedata.category(c) in _MARKS for c in user_id[1:]
    )


def require_user(user_id: object) -> str:
    """Return a valid ``user_id`` or raise: no storage call runs without one.

    Checked character by character, so a trailing newline ("victim\\n") is refused as
    any other character outside the rule is.
    """
    if not isinstance(user_id, str) or not user_id:
        raise UserError("user_id is required for every memory read and write: pass --user NAME")
    if not _valid(user_id):
        shown = repr(user_id[:_SHOWN]) + ("…" if len(user_id) > _SHOWN else "")
        raise UserError(
            f"invalid user id {shown} ({len(user_id)} characters): use 1-{MAX_USER_ID} letters "
            "or digits of any script (with their accents), '_', '.', '@' or '-', starting with "
            "a letter or digit"
        )
    return user_id
