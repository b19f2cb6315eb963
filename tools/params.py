"""Parameter types the memory tools share (one description, one set of bounds)."""

from typing import Annotated

from pydantic import Field

SearchQuery = Annotated[str, Field(description="What to look for, in natural words.")]
SearchLimit = Annotated[int, Field(description="Maximum results.", ge=1, le=20)]
# The write kinds' bound on counts (agent/memory/writes.py MAX_COUNT): shown in the tool's
# schema, so the model reads the range and an out-of-range count never reaches a write.
MAX_COUNT = 10**9
