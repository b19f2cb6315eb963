"""The token budget of one request: the real window, a reply reserve and section caps."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator


class SectionCaps(BaseModel):
    """Caps as fractions of the usable budget (window minus reply reserve).

    System prompt, tool schemas and core blocks are measured, not capped (core is
    bounded by each block's token limit); dialogue takes what is left. ``paged_floor`` is
    the share of paged-in memory that outranks the summary and all but the last exchange
    (``paging.assembler``); the rest of it, up to ``paged``, comes after the dialogue.
    """

    model_config = ConfigDict(extra="forbid")

    core: float = Field(default=0.15, ge=0, le=1)
    execution: float = Field(default=0.10, ge=0, le=1)
    summary: float = Field(default=0.10, ge=0, le=1)
    paged: float = Field(default=0.30, ge=0, le=1)
    # Measured on tests/test_long_session.py's 4k session (README, "Paging"). Set by hand.
    paged_floor: float = Field(default=0.15, ge=0, le=1)

    @model_validator(mode="after")
    def _floor_within_cap(self) -> SectionCaps:
        if self.paged_floor > self.paged:
            raise ValueError(
                f"paged_floor {self.paged_floor} must not exceed the paged cap {self.paged}"
            )
        return self


class ContextBudget:
    def __init__(
        self, window: int, *, reserve: int | None = None, caps: SectionCaps | None = None
    ) -> None:
        if window < 256:
            raise ValueError(f"a context window of {window} tokens is too small (minimum 256)")
        self.window = window
        self.reserve = reserve if reserve is not None else min(1024, window // 4)
        if not 0 <= self.reserve < window:
            raise ValueError(f"reply reserve {self.reserve} must be below the window {window}")
        self.caps = caps or SectionCaps()

    @property
    def usable(self) -> int:
        return self.window - self.reserve

    def cap(self, section: str) -> int:
        return int(self.usable * getattr(self.caps, section))
