"""Parameter types the memory tools share (one description, one set of bounds)."""

from typing import Annotated

from pydantic import Field

SearchQuery = Annotated[str, Field(description="What to look for, in natural words.")]
SearchLimit = Annotated[int, Field(description="Maximum results.", ge=1, le=20)]
