"""Paging: fit memory into the model's real token window (budget, pressure, page-in)."""

from memvisor.paging.tokens import (
    TokenCounter,
    count_messages,
    counter_for_model,
    truncate_to_tokens,
)

__all__ = ["TokenCounter", "count_messages", "counter_for_model", "truncate_to_tokens"]
