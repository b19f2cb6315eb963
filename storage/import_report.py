"""What an import did, per record kind: created, updated, unchanged, skipped (and why)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Outcome = Literal["created", "updated", "unchanged", "skipped"]
ImportMode = Literal["merge", "replace"]
# Enough to see what was kept back; the total says how many more there were.
MAX_LISTED = 50


class KindCounts(BaseModel):
    created: int = 0
    # Replaced the store's copy: a core block of a higher version, a newer task, slot or recipe.
    updated: int = 0
    unchanged: int = 0
    skipped: int = 0


class SkippedRecord(BaseModel):
    kind: str
    id: str
    reason: str


class SupersededFact(BaseModel):
    """A fact the merge marked superseded so that one value of its predicate stays active."""

    id: str
    by: str
    subject: str
    predicate: str


class MergeReport(BaseModel):
    user_id: str
    mode: ImportMode
    format_version: int
    kinds: dict[str, KindCounts] = Field(default_factory=dict)
    skipped: list[SkippedRecord] = Field(default_factory=list)  # the first MAX_LISTED
    skipped_total: int = 0
    superseded: list[SupersededFact] = Field(default_factory=list)

    def note(self, kind: str, outcome: Outcome, record_id: str = "", reason: str = "") -> None:
        counts = self.kinds.setdefault(kind, KindCounts())
        setattr(counts, outcome, getattr(counts, outcome) + 1)
        if outcome == "skipped":
            self.skipped_total += 1
            if len(self.skipped) < MAX_LISTED:
                self.skipped.append(SkippedRecord(kind=kind, id=record_id, reason=reason))

    def counts(self) -> dict[str, dict[str, int]]:
        """Per kind, the outcomes that happened (for the ``import`` event)."""
        return {
            kind: {k: v for k, v in counts.model_dump().items() if v}
            for kind, counts in self.kinds.items()
        }
