"""The firewall's patterns compiled once per Python version, not once per process.

The guards compile about a thousand patterns at import, lexicons of many languages among
them (one is 33,000 characters): 1.4 s of every process that loads the firewall, almost all
of it in ``re``'s parser and code generator, which are written in Python. The engine's
program for a pattern (what ``re._compiler`` hands to ``_sre.compile``) depends only on the
pattern, its flags and the Python that made it, so it is kept in a ``DiskMemo`` named after
that Python; a later process builds the same pattern object from it in a few microseconds
(the thousand: 1.4 s -> about 0.07 s). ``_sre.compile`` checks a program before it accepts
it, and anything unexpected falls back to ``re.compile``.
"""

from __future__ import annotations

import array
import hashlib
import re
import sys
from typing import Any

from memvisor.storage.disk_memo import DiskMemo

try:
    import _sre
    from re import _compiler as _sre_compile  # type: ignore[attr-defined]
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - another Python's layout: compile as usual
    _sre = None  # type: ignore[assignment]

# What a kept program depends on: the Python that made it, and the shape it is kept in here
# (raise _FORMAT when ``_program`` changes what it returns).
_FORMAT = 1
_ENGINE = f"{sys.version} {getattr(_sre, 'MAGIC', '')} {getattr(_sre, 'CODESIZE', '')} {_FORMAT}"
_MEMO = DiskMemo("regex-" + hashlib.sha256(_ENGINE.encode()).hexdigest()[:16])
_WORD = "I" if getattr(_sre, "CODESIZE", 0) == 4 else "H"

# Put before a pattern that opens with a run of whitespace (``\s*,``, ``\s+and\s+``): no
# match starts inside a run. A match from the run's first place can read any part of it, and
# matches end after a whole run, so what is found is the same; but the engine no longer
# reads the rest of a run from each of its places (8,000 spaces: quadratic, seconds).
FROM_RUN_START = r"(?!(?<=\s)\s)"


def compile_cached(pattern: str, flags: int | re.RegexFlag = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, its program read from the memo when an earlier
    process made it."""
    flags = int(flags)
    if _sre is None or not isinstance(pattern, str):
        return re.compile(pattern, flags)
    try:
        program = _MEMO.get((pattern, flags), lambda: _program(pattern, flags))
        final_flags, code, groups, groupindex, indexgroup = program
        return _sre.compile(  # type: ignore[no-any-return]
            pattern, final_flags, array.array(_WORD, code).tolist(), groups, groupindex, indexgroup
        )
    except Exception:  # noqa: BLE001 - anything unexpected: the engine's own way
        return re.compile(pattern, flags)


def _program(pattern: str, flags: int) -> tuple[Any, ...]:
    """What ``re._compiler.compile`` passes to ``_sre.compile``, in types ``marshal`` keeps."""
    tree = _sre_parse.parse(pattern, flags)
    code = array.array(_WORD, [int(op) for op in _sre_compile._code(tree, flags)]).tobytes()
    groupindex = dict(tree.state.groupdict)
    indexgroup: list[str | None] = [None] * tree.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return int(flags | tree.state.flags), code, tree.state.groups - 1, groupindex, tuple(indexgroup)
