"""Chat model clients behind one protocol: ``chat(messages, tools, options) -> AssistantTurn``.

``OllamaModel``, ``ReplayModel``, ``ScriptedModel`` and ``model_from_name`` are imported
lazily so that importing the records here (as ``agent.toolcalls`` does) never pulls in the
HTTP client.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memvisor.agent.models.base import AssistantTurn, ChatModel, ToolCall, Usage
from memvisor.lazy import lazy_exports

if TYPE_CHECKING:
    from memvisor.agent.models.names import model_from_name
    from memvisor.agent.models.ollama import OllamaModel
    from memvisor.agent.models.replay import ReplayModel
    from memvisor.agent.models.scripted import ScriptedModel

__all__ = [
    "AssistantTurn",
    "ChatModel",
    "OllamaModel",
    "ReplayModel",
    "ScriptedModel",
    "ToolCall",
    "Usage",
    "model_from_name",
]

_LAZY = {
    "OllamaModel": "memvisor.agent.models.ollama",
    "ReplayModel": "memvisor.agent.models.replay",
    "ScriptedModel": "memvisor.agent.models.scripted",
    "model_from_name": "memvisor.agent.models.names",
}


__getattr__ = lazy_exports(__name__, _LAZY)
