"""Choosing a model from its CLI name (``--model``)."""

from __future__ import annotations

from memvisor.agent.models.base import ChatModel
from memvisor.errors import UserError

ACCEPTED_FORMS = (
    "ollama:MODEL (e.g. ollama:qwen2.5:7b), openai:MODEL (an OpenAI-compatible server: vLLM, "
    "llama-server, LM Studio; with --base-url or OPENAI_BASE_URL) or replay:FILE (a recorded "
    "transcript)"
)


def model_from_name(
    name: str,
    *,
    num_ctx: int | None = None,
    host: str | None = None,
    base_url: str | None = None,
) -> ChatModel:
    """``ollama:qwen2.5:7b`` -> OllamaModel; ``openai:NAME`` -> OpenAIModel (at ``base_url``);
    ``replay:FILE`` -> ReplayModel."""
    kind, _, rest = name.strip().partition(":")
    if kind == "ollama" and rest.strip():
        from memvisor.agent.models.ollama import OllamaModel

        return OllamaModel(rest.strip(), host=host, num_ctx=num_ctx)
    if kind == "openai" and rest.strip():
        from memvisor.agent.models.openai_compat import OpenAIModel

        return OpenAIModel(rest.strip(), base_url=base_url, num_ctx=num_ctx)
    if kind == "replay" and rest.strip():
        from memvisor.agent.models.replay import ReplayModel

        return ReplayModel.from_file(rest.strip())
    raise UserError(f"unknown model {name!r}: use {ACCEPTED_FORMS}")
