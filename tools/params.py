"""Parameter types the memory tools share (one description, one set of bounds)."""

from typing import Annotated

from pydantic import Field

# The search index reads a query's first 2,000 characters (storage.lance_queries).
SearchQuery = Annotated[
    str, Field(description="What to look for, in natural words.", max_length=2000)
]
SearchLimit = Annotated[int, Field(description="Maximum results.", ge=1, le=20)]
# The write kinds' bound on counts (agent/memory/writes.py MAX_COUNT): shown in the tool's
# schema, so the model reads the range and an out-of-range count never reaches a write.
MAX_COUNT = 10**9
