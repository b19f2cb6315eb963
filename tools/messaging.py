"""send_message: the model's way to answer the user and end its turn."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from memvisor.errors import ToolControl
from memvisor.tools.context import ToolContext
from memvisor.tools.registry import tool


class EndTurn(ToolControl):
    """Raised by send_message: the turn ends with this answer."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@tool(shed=1)
def send_message(
    ctx: ToolContext,
    message: Annotated[str, Field(description="The full answer to show the user.")],
) -> str:
    """Send your answer to the user; this ends your turn.

    Good: send_message(message="Your order ORD-58213 arrives on May 12.")
    Bad: send_message(message="Let me search memory first") (search first, then answer).
    """
    raise EndTurn(message)
