"""A write about another user, or naming another user id or session, never enters this memory.

Names of people in the user's life ("Jonas", "my mother") are fine; what is refused is a write
that addresses another *account*: ``user_id=bob``, ``user 'mallory'``, a fact whose subject is
``user:dave``, another session id, or "all the other users".
"""

from __future__ import annotations

import re

_ID = r"([A-Za-z0-9][\w.@-]{0,63})"
_NAMED_USER = [
    re.compile(rf"\b(?:user|account|profile|member|customer)[_ ]?id\s*[:=]\s*[\"'`]?{_ID}", re.I),
    re.compile(rf"\buser:{_ID}", re.IGNORECASE),
    # "user id bob_77 is...": without a separator only an id-looking token counts.
    re.compile(
        r"\buser[_ ]?(?:id|name|account)\s+(?:is\s+)?([A-Za-z0-9]*[\d_@][\w.@-]*)", re.I
    ),  # "user:dave", not a "User: hi" transcript line
    re.compile(r"\b(?:user|account|profile)\s+[\"'`“‘]([^\"'`”’\s]{1,64})[\"'`”’]", re.IGNORECASE),
    re.compile(rf"\buser\s+{_ID}'s\b", re.IGNORECASE),
    re.compile(rf"(?:用户|用戶|账号|帳號)\s*(?:id|ID|名)?\s*[:：=是]?\s*[\"'“‘]?{_ID}"),
]
_SUBJECT_USER = re.compile(r"^\s*(?:user|用户|用戶)[\s:_#@-]+(\S+)\s*$", re.IGNORECASE)
# A subject that reads as an account id ("alice_02", "user123"), not a person's name.
_SUBJECT_ID = re.compile(r"^\s*([a-z][a-z0-9]*_[a-z0-9_]*\d[a-z0-9_]*|user\d+)\s*$")
_NAMED_SESSION = [
    re.compile(r"\bsession[_ ]?id\s*[:=]\s*[\"'`]?([\w.-]{2,64})", re.IGNORECASE),
    re.compile(r"\b((?:ses|sess|session)_[A-Za-z0-9]{4,})\b"),
]
_OTHER_USERS = re.compile(
    r"\b(other|another|all (the )?other|every other|different)\s+(users?|user'?s|accounts?|"
    r"profiles?)\b|\ball users'? (memor|data|notes|profiles)|其他用户|其他用戶|别的用户|別的用戶|"
    r"另一个用户|另一個用戶|所有用户的(记忆|數據|数据)",
    re.IGNORECASE,
)


def cross_user_reasons(
    texts: list[str], *, subject: str | None, user_id: str, session_id: str | None
) -> list[str]:
    """Reasons this write concerns another user or session (empty when it does not)."""
    me = user_id.lower()
    reasons: list[str] = []
    named = [m.group(1) for t in texts for p in _NAMED_USER for m in p.finditer(t)]
    if subject:
        found = _SUBJECT_USER.match(subject)
        found = found or _SUBJECT_ID.match(subject)
        if found:
            named.append(found.group(1))
    if any(n.strip(".,;:!?'\"").lower() != me for n in named):
        reasons.append("cross_user:names_other_user")
    sessions = [m.group(1) for t in texts for p in _NAMED_SESSION for m in p.finditer(t)]
    if any(s != session_id for s in sessions):
        reasons.append("cross_user:names_other_session")
    if any(_OTHER_USERS.search(t) for t in texts):
        reasons.append("cross_user:other_users")
    return reasons
