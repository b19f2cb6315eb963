"""Chaos: kills, failing parts, a full disk, corrupted files and fuzzed tool calls, each
counted (acknowledged writes lost, stores not reopened, records not found, uncaught
exceptions, tracebacks shown to a user, broken invariants); every count must be 0."""

from .common import FaultResult
from .run import FAULTS, run_chaos

__all__ = ["FAULTS", "FaultResult", "run_chaos"]
