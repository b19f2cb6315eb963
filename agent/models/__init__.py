"""Chat model clients behind one protocol: ``chat(messages, tools, options) -> AssistantTurn``.

``OllamaModel``, ``ScriptedModel`` and ``model_from_name`` are imported lazily so that
importing the records here (as ``agent.toolcalls`` does) never pulls in the HTTP client.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agent.models.base import (
    AssistantTurn,
    ChatModel,
    ModelError,
    ModelUnavailable,
    ToolCall,
    Usage,
)

if TYPE_CHECKING:
    from agent.models.names import model_from_name
    from agent.models.ollama import OllamaModel
    from agent.models.scripted import ScriptedModel

__all__ = [
    "AssistantTurn",
    "ChatModel",
    "ModelError",
    "ModelUnavailable",
    "OllamaModel",
    "ScriptedModel",
    "ToolCall",
    "Usage",
    "model_from_name",
]

_LAZY = {
    "OllamaModel": "agent.models.ollama",
    "ScriptedModel": "agent.models.scripted",
    "model_from_name": "agent.models.names",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'agent.models' has no attribute {name!r}")
