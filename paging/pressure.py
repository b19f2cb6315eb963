"""Memory pressure: warn the model at one threshold, evict dialogue at another."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Level = Literal["ok", "warn", "flush"]

WARNING_NOTE = (
    "Memory pressure: the conversation fills {fill:.0%} of your context window. "
    "Save anything that matters later with your memory tools now; older turns will "
    "soon be summarized and leave the window."
)


class PressureConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    warn: float = Field(default=0.75, gt=0, lt=1)
    flush: float = Field(default=0.90, gt=0, le=1)
    target: float = Field(default=0.60, gt=0, lt=1)

    @model_validator(mode="after")
    def _ordered(self) -> PressureConfig:
        if not self.target < self.flush or not self.warn <= self.flush:
            raise ValueError("pressure thresholds need target < flush and warn <= flush")
        return self


class MemoryPressure:
    """Tracks one agent's pressure episodes so the warning is given once per episode."""

    def __init__(self, config: PressureConfig | None = None) -> None:
        self.config = config or PressureConfig()
        self._warned = False

    def level(self, fill: float) -> Level:
        if fill >= self.config.flush:
            return "flush"
        if fill >= self.config.warn:
            return "warn"
        return "ok"

    def note(self, fill: float) -> str | None:
        """The system note to show once when an episode of pressure starts."""
        if fill < self.config.warn:
            self._warned = False
            return None
        if self._warned:
            return None
        self._warned = True
        return WARNING_NOTE.format(fill=fill)
