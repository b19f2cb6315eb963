"""What one agent turn collects while it runs: its writes, the memory it read, firewall notes."""

from __future__ import annotations

from dataclasses import dataclass, field

from memvisor.errors import WriteRefused


@dataclass
class TurnLog:
    """Owned by the runtime for one turn; the memory API counts writes into it."""

    max_writes: int = 8
    writes: int = 0
    # Ids of every memory that entered the model's context this turn (reads and page-in).
    memory_ids: list[str] = field(default_factory=list)
    # What the firewall changed (masked, tagged), told to the model after the tool's result.
    firewall_notes: list[str] = field(default_factory=list)
    # Secret values sealed this turn -> their sealed record's marker ("[SEALED:sec_...]"): a
    # value the user said is sealed once, and every log of the turn shows the marker instead.
    sealed: dict[str, str] = field(default_factory=dict)

    def count_write(self) -> None:
        """Record one memory write; refuse it once the turn's cap is reached."""
        if self.writes >= self.max_writes:
            raise WriteRefused(
                f"memory write limit reached for this turn ({self.max_writes}); "
                "answer the user now and save anything else in a later turn"
            )
        self.writes += 1

    def scrub(self, text: str) -> str:
        """``text`` with every value sealed this turn replaced by its marker."""
        for value in sorted(self.sealed, key=len, reverse=True):
            text = text.replace(value, self.sealed[value])
        return text

    def saw(self, ids: list[str]) -> None:
        self.memory_ids.extend(i for i in ids if i not in self.memory_ids)
