"""OllamaModel: the real ``ollama`` client against the fake server in tests/fake_ollama.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memvisor.agent.models import ChatModel
from memvisor.agent.models.ollama import OllamaModel, served_context_length
from memvisor.errors import ModelError, ModelUnavailable
from tests.fake_ollama import FakeOllama, unused_port
from tests.streamed import Streamed

SEARCH = {
    "type": "function",
    "function": {
        "name": "memory_search",
        "description": "Search memory.",
        "parameters": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "What to look for."},
                "limit": {
                    "anyOf": [{"type": "integer"}, {"type": "null"}],
                    "default": None,
                    "description": "Most results.",
                },
            },
            "required": ["query"],
        },
    },
}
USER = [{"role": "user", "content": "what do you know about cats?"}]


@pytest.fixture
def server() -> Iterator[FakeOllama]:
    with FakeOllama() as fake:
        yield fake


@pytest.fixture(params=[False, True], ids=["plain", "stream"])
def model(request: pytest.FixtureRequest, server: FakeOllama) -> OllamaModel | Streamed:
    plain = OllamaModel("qwen2.5:7b", host=server.host)
    return Streamed(plain) if request.param else plain


def test_is_a_chat_model(server):
    model: ChatModel = OllamaModel("qwen2.5:7b", host=server.host)
    assert model.name == "qwen2.5:7b" and server.requests == []


def test_construction_is_offline_and_context_is_read_once(server):
    model = OllamaModel("qwen2.5:7b", host=server.host)
    assert server.requests == []
    assert model.context_length == 32768
    assert model.context_length == 32768
    assert [r.path for r in server.requests] == ["/api/show"]
    assert server.bodies("/api/show") == [{"model": "qwen2.5:7b"}]


@pytest.mark.parametrize(
    ("context_length", "num_ctx", "override", "expected"),
    [
        (32768, None, 4096, 4096),
        (32768, 8192, None, 8192),
        (32768, 8192, 16384, 8192),
        (4096, None, 16384, 4096),
        (None, None, 3000, 3000),
        (None, None, None, 2048),
    ],
)
def test_num_ctx_is_min_of_served_and_override_on_every_request(
    server, context_length, num_ctx, override, expected
):
    server.add_model("m", context_length=context_length, num_ctx=num_ctx)
    server.reply("one", "two", "three")
    model = OllamaModel("m", host=server.host, num_ctx=override, options={"temperature": 0})
    assert model.context_length == expected
    model.chat(USER, [])
    model.chat(USER, [SEARCH], options={"seed": 1, "num_ctx": 999_999})
    Streamed(OllamaModel("m", host=server.host, num_ctx=override)).chat(USER, [])
    bodies = server.chat_bodies()
    assert len(bodies) == 3
    assert all(b["options"]["num_ctx"] == expected for b in bodies)
    assert bodies[0]["options"]["temperature"] == 0
    assert bodies[1]["options"]["seed"] == 1


def test_served_context_length_parsing():
    info = {"general.architecture": "qwen2", "qwen2.context_length": 32768}
    assert served_context_length(info, 'stop "<|im_end|>"') == 32768
    assert served_context_length(info, "num_ctx                        4096") == 4096
    assert served_context_length({}, "num_ctx 4096\ntemperature 0.7") == 4096
    assert served_context_length({}, "") is None


def test_plain_answer_and_usage(model, server):
    server.reply({"content": "Cats purr.", "prompt_eval_count": 42, "eval_count": 5})
    turn = model.chat(USER, [SEARCH])
    assert turn.content == "Cats purr." and turn.tool_calls == []
    assert (turn.usage.prompt_tokens, turn.usage.completion_tokens) == (42, 5)
    body = server.chat_bodies()[0]
    assert body["stream"] is isinstance(model, Streamed)
    assert body["messages"] == USER
    # Optional[int] reaches Ollama typed, not as a bare anyOf the client would drop.
    assert body["tools"][0]["function"]["parameters"]["properties"]["limit"]["type"] == "integer"


def test_native_tool_calls(model, server):
    server.reply(
        {
            "tool_calls": [
                {"name": "memory_search", "arguments": {"query": "cats"}},
                {"function": {"name": "memory_search", "arguments": {"query": "dogs"}}},
            ]
        }
    )
    turn = model.chat(USER, [SEARCH])
    assert [(c.id, c.name, c.arguments) for c in turn.tool_calls] == [
        ("call_1", "memory_search", {"query": "cats"}),
        ("call_2", "memory_search", {"query": "dogs"}),
    ]
    assert turn.raw_tool_text is None and turn.parse_errors == []


def test_tool_call_written_in_content(model, server):
    server.reply(
        'One moment.\n<tool_call>\n{"name": "memory_search", "arguments": {"query": "cats"}}\n'
        "</tool_call>"
    )
    turn = model.chat(USER, [SEARCH])
    assert [(c.name, c.arguments) for c in turn.tool_calls] == [
        ("memory_search", {"query": "cats"})
    ]
    assert turn.content == "One moment."
    assert turn.raw_tool_text and "<tool_call>" in turn.raw_tool_text


def test_bare_json_call_in_content(model, server):
    server.reply('{"name": "memory_search", "arguments": {"query": "cats"}}')
    turn = model.chat(USER, [SEARCH])
    assert [c.name for c in turn.tool_calls] == ["memory_search"] and turn.content == ""


def test_bare_json_for_a_tool_not_offered_stays_content(model, server):
    text = '{"name": "memory_search", "arguments": {"query": "cats"}}'
    server.reply(text)
    turn = model.chat(USER, [])
    assert turn.tool_calls == [] and turn.content == text


def test_malformed_call_populates_parse_errors(model, server):
    server.reply('<tool_call>{"name": "memory_search", "arguments": {"query": "cats"</tool_call>')
    turn = model.chat(USER, [SEARCH])
    assert turn.tool_calls == []
    assert turn.parse_errors and turn.parse_errors[0].startswith("tool call 1 is not valid JSON")


def test_invented_tool_output_is_flagged_and_stripped(model, server):
    server.reply(
        '<tool_call>{"name": "memory_search", "arguments": {"query": "cats"}}</tool_call>\n'
        "<tool_response>You have 3 cats.</tool_response>\nYou have three cats!"
    )
    turn = model.chat(USER, [SEARCH])
    assert turn.invented_output
    assert len(turn.tool_calls) == 1
    assert "cats" not in turn.content


def test_invented_output_next_to_native_call_is_stripped(model, server):
    server.reply(
        {
            "content": "Observation: 3 cats",
            "tool_calls": [{"name": "memory_search", "arguments": {"query": "cats"}}],
        }
    )
    turn = model.chat(USER, [SEARCH])
    assert turn.invented_output and turn.content == "" and len(turn.tool_calls) == 1


def test_thinking_never_becomes_content(model, server):
    server.reply({"thinking": "The user asks about cats.", "content": "Cats purr."})
    server.reply("<think>hidden plan</think>Visible answer.")
    first = model.chat(USER, [])
    assert first.content == "Cats purr." and first.reasoning == "The user asks about cats."
    second = model.chat(USER, [])
    assert second.content == "Visible answer." and second.reasoning == "hidden plan"


def test_streaming_yields_content_pieces_and_returns_the_turn(server):
    model = Streamed(OllamaModel("qwen2.5:7b", host=server.host))
    server.reply({"thinking": "step one then two", "content": "a b c d e", "eval_count": 9})
    turn = model.chat(USER, [])
    assert turn.content == "a b c d e" and turn.reasoning == "step one then two"
    assert turn.usage.completion_tokens == 9
    assert model.pieces == ["a", " b", " c", " d", " e"]  # the reasoning is never yielded


def test_streamed_tool_calls_come_back_with_the_turn(server):
    model = Streamed(OllamaModel("qwen2.5:7b", host=server.host))
    call = {"name": "memory_search", "arguments": {"query": "cats"}}
    server.reply({"content": "Let me look.", "tool_calls": [call]})
    turn = model.chat(USER, [SEARCH])
    calls = [(c.name, c.arguments) for c in turn.tool_calls]
    assert calls == [("memory_search", {"query": "cats"})]
    assert "".join(model.pieces) == "Let me look."


def test_messages_are_sent_in_ollama_shape(server):
    server.reply("ok")
    messages = [
        {"role": "system", "content": "You are Memvisor."},
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "memory_search", "arguments": '{"query": "x"}'},
                }
            ],
        },
        {"role": "tool", "name": "memory_search", "content": "[]", "tool_call_id": "call_1"},
    ]
    OllamaModel("qwen2.5:7b", host=server.host).chat(messages, [SEARCH])
    sent = server.chat_bodies()[0]["messages"]
    assert sent[2]["tool_calls"] == [
        {"function": {"name": "memory_search", "arguments": {"query": "x"}}}
    ]
    assert sent[3] == {"role": "tool", "content": "[]", "tool_name": "memory_search"}


def test_timeout_is_a_model_error(server):
    server.reply({"delay": 1.0, "content": "too late"})
    model = OllamaModel("qwen2.5:7b", host=server.host, timeout=0.3)
    with pytest.raises(ModelError, match="0.3 s timeout") as err:
        model.chat(USER, [])
    assert not isinstance(err.value, ModelUnavailable)


def test_server_error_text_is_reported(model, server):
    server.reply({"status": 500, "error": "llama runner process has terminated"})
    with pytest.raises(ModelError, match="HTTP 500.*llama runner process has terminated"):
        model.chat(USER, [])


def test_error_in_the_middle_of_a_stream(server):
    server.reply({"content": "partial answer", "stream_error": "out of memory"})
    model = Streamed(OllamaModel("qwen2.5:7b", host=server.host))
    with pytest.raises(ModelError, match="out of memory"):
        model.chat(USER, [])


def test_unreadable_reply_is_a_model_error(server):
    server.reply({"raw": b"<html>proxy error</html>"})
    with pytest.raises(ModelError, match="cannot read"):
        OllamaModel("qwen2.5:7b", host=server.host).chat(USER, [])


def test_connection_refused_is_one_actionable_line():
    host = f"http://127.0.0.1:{unused_port()}"
    model = OllamaModel("qwen2.5:7b", host=host, timeout=2)
    with pytest.raises(ModelUnavailable) as err:
        model.chat(USER, [])
    message = str(err.value)
    assert "\n" not in message
    for needle in (host, "`ollama serve`", "`ollama pull qwen2.5:7b`", "`make demo`"):
        assert needle in message


def test_server_gone_mid_session_is_unavailable_in_both_modes():
    with FakeOllama() as fake:
        plain = OllamaModel("qwen2.5:7b", host=fake.host)
        streamed = OllamaModel("qwen2.5:7b", host=fake.host)
        assert plain.context_length == streamed.context_length == 32768
    for model in (plain, Streamed(streamed)):
        with pytest.raises(ModelUnavailable, match="ollama serve"):
            model.chat(USER, [])


def test_missing_model_says_how_to_pull_it(server):
    model = OllamaModel("llama9:70b", host=server.host)
    with pytest.raises(ModelError, match=r"`ollama pull llama9:70b`") as err:
        model.chat(USER, [])
    assert "\n" not in str(err.value)
    assert not isinstance(err.value, ModelUnavailable)


def test_list_models(server):
    server.add_model("nomic-embed-text", context_length=8192)
    assert OllamaModel("qwen2.5:7b", host=server.host).list_models() == [
        "qwen2.5:7b",
        "nomic-embed-text",
    ]
    with pytest.raises(ModelUnavailable):
        OllamaModel("x", host=f"http://127.0.0.1:{unused_port()}").list_models()


def test_host_defaults_to_ollama_host_env(server, monkeypatch):
    monkeypatch.setenv("OLLAMA_HOST", server.host)
    server.reply("hi")
    model = OllamaModel("qwen2.5:7b")
    assert model.host == server.host and model.chat(USER, []).content == "hi"


def test_fake_server_extras(server):
    import ollama

    client = ollama.Client(host=server.host)
    first = client.embed(model="qwen2.5:7b", input=["a", "b"]).embeddings
    again = client.embed(model="qwen2.5:7b", input="a").embeddings
    assert len(first) == 2 and len(first[0]) == server.embed_dim and first[0] == again[0]
    assert first[0] != first[1]
    assert server.pending == 0
