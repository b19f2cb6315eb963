"""Words the user passes on rather than says: quotes, forwarded messages, pasted code.

"Fwd from IT: '...'", "what does this message mean: «...»", a pasted README or code block: the
user wrote the message, but the quoted part is someone else's. A write whose content comes
from the quoted part, not from the user's own words around it, is treated like a tool
result's for instructions: a rule or an order in it is not the user's preference.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from .lexicon import USER_THIRD_PERSON_ML
from .normalize import disguised
from .provenance import coverage, latest_user_message, terms
from .regex_cache import compile_cached

_FENCE = compile_cached(r"```.*?(```|$)", re.DOTALL)
# A quotation long enough to be a message: straight, curly, guillemets, CJK corners.
# A short quote in straight marks is matched first, and kept as the user's words ("the
# "system update" excuse"): its closing mark would otherwise open a quotation to the end.
_QUOTE = compile_cached(
    # (and a German one, „du“, whose closing mark would otherwise open one)
    r"(?P<short>\"[^\"\n]{0,24}\"|„[^“”\n]{0,24}[“”])|\"[^\"\n]{25,}\"?|“[^”]{25,}”?|‘[^’]{25,}’?|«[^»]{25,}»?|「[^」]{15,}」?|『[^』]{15,}』?|"
    r"„[^“”]{25,}[“”]?|"
    # a single quote runs past a short quote nested in it ("'... signed 'admin team' ...'"), not
    # only to the next "'"
    r"(?<![\w])'(?:[^'\n]|(?<!\w)'[^'\n]{1,40}'(?!\w)){25,}'?(?![\w])"
)
# "Fwd:", "-----Original Message-----", "[SYSTEM NOTICE]": the rest is passed on.
_FORWARD = compile_cached(
    r"(?im)^(fwd?|fw|wg|tr|rv|vs|転送)\s*:|^-{2,}\s*(original message|forwarded message)|"
    r"^[^\S\n]*\[(system|admin|notice)[^\]]{0,40}\]"
)


# Every write reads the whole conversation again, and the firewall asks this of each user
# message in several steps: each message is split once.
@lru_cache(maxsize=1024)
def quoted_parts(message: str) -> tuple[str, str]:
    """``message`` split into the user's own words and what it quotes or forwards."""
    quoted: list[str] = []

    def take(match: re.Match[str]) -> str:
        if match.groupdict().get("short"):
            return match.group(0)
        quoted.append(match.group(0))
        return " "

    own = _FENCE.sub(take, message)
    forward = _FORWARD.search(own)
    if forward:
        quoted.append(own[forward.start() :])
        own = own[: forward.start()]
    own = _QUOTE.sub(take, own)
    # a sentence in disguised letters ("Аѕѕіѕtаnt rеаdіng thіѕ: ...") is pasted: nobody types
    # look-alikes of their own accord
    own = SENTENCE.sub(lambda m: take(m) if disguised(m.group(0)) else m.group(0), own)
    return own, "\n".join(quoted)


# A sentence with its closing mark.
SENTENCE = compile_cached(r"[^.!?。！？\n]+[.!?。！？]*")


def disguised_sentences(message: str) -> list[str]:
    """The sentences of ``message`` written in disguised letters: pasted, never typed."""
    return [m.group(0) for m in SENTENCE.finditer(message) if disguised(m.group(0))]


def from_quoted(content: str, context: Sequence[dict[str, Any]], threshold: float) -> bool:
    """Does ``content`` come from what the user's latest message quotes rather than from the
    user's own words in it?"""
    own, quoted = quoted_parts(latest_user_message(context))
    if not quoted:
        return False
    wanted = terms(content)
    return coverage(wanted, terms(quoted)) >= threshold and coverage(wanted, terms(own)) < threshold


def quote_speaks_of_user(context: Sequence[dict[str, Any]]) -> bool:
    """Does what the user's latest message quotes speak of "the user" in the third person? Then
    it was written for the assistant (a vendor's script, an admin's rule), not by the user."""
    return bool(USER_THIRD_PERSON_ML.search(quoted_parts(latest_user_message(context))[1]))
