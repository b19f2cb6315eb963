"""The Python API's arguments checked against its signatures, at the door.

``checked`` wraps a public ``Memory`` method in pydantic's ``validate_call``: an argument of
the wrong type or out of range is a ``UserError`` naming it, in one line, before any store
is touched (a ``None`` id or a string ``k`` would otherwise fail deep inside, as whatever the
library underneath raises). Values are coerced as pydantic does (``"5"`` for ``k``, an ISO
string for a ``datetime``).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pydantic import ConfigDict, ValidationError, validate_call

from memvisor.errors import UserError

F = TypeVar("F", bound=Callable[..., Any])


def checked(method: F) -> F:
    validated = validate_call(config=ConfigDict(arbitrary_types_allowed=True))(method)
    names = list(inspect.signature(method).parameters)

    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return validated(*args, **kwargs)
        except ValidationError as exc:
            if exc.title != method.__qualname__:  # raised inside, not by the arguments
                raise
            raise UserError(f"{method.__qualname__}: {argument_errors(exc, names)}") from None

    return call  # type: ignore[return-value]


def argument_errors(error: ValidationError, names: Sequence[str] = ()) -> str:
    """Each bad argument and what it should be (the first reason, where a union gave
    several), on one line, without the values sent; ``names`` name positional ones."""
    said: dict[str, str] = {}
    for item in error.errors(include_url=False, include_input=False):
        first = item["loc"][0] if item["loc"] else "arguments"
        where = names[first] if isinstance(first, int) and first < len(names) else str(first)
        said.setdefault(where, f"{item['msg'][:1].lower()}{item['msg'][1:]}")
    return "; ".join(f"{where}: {why}" for where, why in said.items())
