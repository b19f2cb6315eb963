"""How long a text may be where it enters: a user message, a search query.

Every text step runs in time linear in its input (``memvisor bench text`` measures each on
adversarial strings); these bounds keep that time short and refuse what is longer with an
error that says the size, the limit and what to do instead. Tool arguments have their own
bound (``tools.registry.MAX_ARGUMENT_CHARS``), stored fields theirs (the firewall's
``max_chars``, storage's field limits).
"""

from __future__ import annotations

from memvisor.errors import UserError

# A user message, and so a page-in query: about 25k tokens, more than a 16k window holds,
# and about a second through every step of a turn at the worst input the bench knows (a
# 2 MB message took 16 s). Set by hand.
MAX_MESSAGE_CHARS = 100_000


def check_length(text: str, *, what: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` unchanged, or UserError when it is longer than ``limit`` characters."""
    if len(text) > limit:
        raise UserError(
            f"{what} is {len(text):,} characters; the limit is {limit:,}. Split it into "
            "parts, or save a long document with archival_memory_insert in pieces"
        )
    return text
