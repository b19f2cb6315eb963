"""ScriptedModel and choosing a model by name."""

from __future__ import annotations

import pytest

from memvisor.agent.models import AssistantTurn, ChatModel, ToolCall
from memvisor.agent.models.names import model_from_name
from memvisor.agent.models.ollama import OllamaModel
from memvisor.agent.models.scripted import ScriptedModel
from memvisor.errors import ModelError, UserError

SEARCH = {"type": "function", "function": {"name": "memory_search", "parameters": {}}}


def test_queue_records_and_runs_out():
    turn = AssistantTurn(tool_calls=[ToolCall(id="t1", name="memory_search", arguments={})])
    model = ScriptedModel(["hello", turn, lambda messages, tools: f"{len(messages)} messages"])
    typed: ChatModel = model
    assert typed.context_length == 8192
    messages = [{"role": "user", "content": "hi"}]
    assert model.chat(messages, [], {"temperature": 0}).content == "hello"
    assert model.chat(messages, [SEARCH]).tool_calls[0].id == "t1"
    assert model.chat(messages * 3, []).content == "3 messages"
    assert model.remaining == 0
    assert model.calls[0].options == {"temperature": 0}
    assert model.calls[1].tools == [SEARCH]
    with pytest.raises(ModelError, match="scripted model ran out of turns after 3 calls"):
        model.chat(messages, [])


def test_calls_are_copies():
    model = ScriptedModel(["a"])
    messages = [{"role": "user", "content": "hi"}]
    model.chat(messages, [])
    messages.append({"role": "assistant", "content": "a"})
    assert len(model.calls[0].messages) == 1


def test_text_goes_through_the_same_tool_call_path():
    model = ScriptedModel(
        [
            '<think>plan</think><tool_call>{"name": "memory_search", "arguments": {"q": 1}}'
            "</tool_call>",
            '{"name": "memory_search", "arguments": {}}',
            '{"name": "memory_search", "arguments": {}}',
            "<tool_call>{bad</tool_call>",
        ],
        context_length=1024,
        name="test",
    )
    first = model.chat([], [SEARCH])
    assert first.reasoning == "plan" and first.tool_calls[0].arguments == {"q": 1}
    assert model.chat([], [SEARCH]).tool_calls[0].name == "memory_search"
    assert model.chat([], []).tool_calls == []  # not offered: ordinary JSON
    assert model.chat([], [SEARCH]).parse_errors


def test_returned_turns_are_not_shared():
    turn = AssistantTurn(content="x")
    model = ScriptedModel([turn])
    model.chat([], []).content = "changed"
    assert turn.content == "x"


def test_model_from_name():
    model = model_from_name("ollama:qwen2.5:7b", num_ctx=4096, host="http://127.0.0.1:9")
    assert isinstance(model, OllamaModel)
    assert (model.name, model.host) == ("qwen2.5:7b", "http://127.0.0.1:9")


@pytest.mark.parametrize("name", ["scripted", "ollama:", "gpt-4", "", "replay:"])
def test_model_from_name_rejects_other_forms(name):
    with pytest.raises(UserError, match="ollama:MODEL.*replay:FILE"):
        model_from_name(name)
