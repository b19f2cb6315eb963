"""`--model openai:NAME`: the real `openai` client against a fake compatible server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memvisor.agent.loop import Agent
from memvisor.agent.models.names import model_from_name
from memvisor.agent.models.openai_compat import OpenAIModel, to_openai_messages
from memvisor.errors import ModelError, ModelUnavailable
from memvisor.storage import Store
from tests.cli_helpers import run_cli
from tests.fake_ollama import unused_port
from tests.fake_openai import FakeOpenAI
from tests.streamed import Streamed

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "fact_search",
            "description": "Search facts.",
            "parameters": {"type": "object", "properties": {"query": {"type": "string"}}},
        },
    }
]
NAME = "qwen2.5-7b-instruct"


def model(fake: FakeOpenAI, *, stream: bool = False, **options: object) -> OpenAIModel | Streamed:
    plain = OpenAIModel(NAME, base_url=fake.base_url, **options)  # type: ignore[arg-type]
    return Streamed(plain) if stream else plain


@pytest.mark.parametrize("stream", [False, True])
def test_answer_usage_and_reasoning_kept_apart(fake_openai: FakeOpenAI, stream: bool) -> None:
    fake_openai.reply({"reasoning_content": "the user asks about tea", "content": "Green tea."})
    turn = model(fake_openai, stream=stream).chat([{"role": "user", "content": "tea?"}], [])
    assert turn.content == "Green tea." and turn.reasoning == "the user asks about tea"
    assert turn.usage.completion_tokens == 7


@pytest.mark.parametrize("stream", [False, True])
def test_native_tool_calls(fake_openai: FakeOpenAI, stream: bool) -> None:
    fake_openai.reply({"tool_calls": [{"name": "fact_search", "arguments": {"query": "tea"}}]})
    turn = model(fake_openai, stream=stream).chat([{"role": "user", "content": "x"}], TOOLS)
    assert [(c.name, c.arguments) for c in turn.tool_calls] == [("fact_search", {"query": "tea"})]
    assert fake_openai.bodies[-1]["tools"] == TOOLS


def test_streaming_yields_content_pieces_and_folds_call_pieces(fake_openai: FakeOpenAI) -> None:
    fake_openai.reply(
        {"reasoning_content": "think", "content": "Green tea is best."},
        {
            "content": "Looking.",
            "tool_calls": [{"name": "fact_search", "arguments": {"query": "t"}}],
        },
    )
    client = Streamed(OpenAIModel(NAME, base_url=fake_openai.base_url))
    answer = client.chat([{"role": "user", "content": "tea?"}], [])
    assert client.pieces == ["Green", " tea ", "is be", "st."]  # never the reasoning
    assert answer.content == "Green tea is best." and answer.reasoning == "think"
    client.pieces.clear()
    calling = client.chat([{"role": "user", "content": "x"}], TOOLS)
    assert [(c.name, c.arguments) for c in calling.tool_calls] == [("fact_search", {"query": "t"})]
    assert "".join(client.pieces) == "Looking."
    assert all(body["stream"] is True for body in fake_openai.bodies)


def test_an_error_in_the_middle_of_a_stream_is_a_model_error(fake_openai: FakeOpenAI) -> None:
    fake_openai.reply({"content": "partial answer", "stream_error": "out of memory"})
    client = Streamed(OpenAIModel(NAME, base_url=fake_openai.base_url))
    with pytest.raises(ModelError, match="out of memory") as err:
        client.chat([{"role": "user", "content": "x"}], [])
    assert "\n" not in str(err.value)


def test_calls_written_in_content_are_recovered_and_bad_json_is_a_parse_error(
    fake_openai: FakeOpenAI,
) -> None:
    fake_openai.reply(
        '<tool_call>{"name": "fact_search", "arguments": {"query": "tea"}}</tool_call>',
        {"tool_calls": [{"name": "fact_search", "arguments": "{not json"}]},
    )
    client = model(fake_openai)
    written = client.chat([{"role": "user", "content": "x"}], TOOLS)
    assert [c.name for c in written.tool_calls] == ["fact_search"] and not written.content
    broken = client.chat([{"role": "user", "content": "x"}], TOOLS)
    assert broken.tool_calls == [] and "not valid JSON" in broken.parse_errors[0]


def test_tool_results_answer_the_call_they_follow() -> None:
    wire = to_openai_messages(
        [
            {"role": "user", "content": "x"},
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [{"function": {"name": "a", "arguments": {"q": 1}}}],
            },
            {"role": "tool", "tool_name": "a", "content": "result"},
        ]
    )
    call = wire[1]["tool_calls"][0]
    assert call["type"] == "function" and json.loads(call["function"]["arguments"]) == {"q": 1}
    assert wire[2] == {"role": "tool", "content": "result", "tool_call_id": call["id"]}


def test_the_window_is_num_ctx_or_what_the_server_reports(fake_openai: FakeOpenAI) -> None:
    assert model(fake_openai).context_length == 8192
    assert model(fake_openai, num_ctx=2048).context_length == 2048
    fake_openai.models["quiet"] = None
    assert OpenAIModel("quiet", base_url=fake_openai.base_url).context_length == 4096


def test_failures_are_one_actionable_line(fake_openai: FakeOpenAI) -> None:
    fake_openai.reply({"status": 500, "error": "CUDA out of memory"}, {"raw": b"{not json"})
    client = model(fake_openai)
    with pytest.raises(ModelError, match="HTTP 500 .*CUDA out of memory"):
        client.chat([{"role": "user", "content": "x"}], [])
    with pytest.raises(ModelError, match="cannot read"):
        client.chat([{"role": "user", "content": "x"}], [])
    with pytest.raises(ModelError, match="not served by"):
        OpenAIModel("nope", base_url=fake_openai.base_url).chat(
            [{"role": "user", "content": "x"}], []
        )
    down = OpenAIModel(NAME, base_url=f"http://127.0.0.1:{unused_port()}/v1", num_ctx=1024)
    with pytest.raises(ModelUnavailable, match="not reachable"):
        down.chat([{"role": "user", "content": "x"}], [])


def test_an_agent_turn_runs_through_it(fake_openai: FakeOpenAI, store: Store) -> None:
    fake_openai.reply(
        {"tool_calls": [{"name": "fact_remember", "arguments": {
            "subject": "Maya", "predicate": "lives_in", "object": "Oslo"}}]},
        "Saved: you live in Oslo.",
    )  # fmt: skip
    chat_model = model_from_name(f"openai:{NAME}", base_url=fake_openai.base_url, num_ctx=4096)
    agent = Agent(user_id="maya", session_id="s1", model=chat_model, store=store)
    turn = agent.step("I live in Oslo.")
    assert turn.answer == "Saved: you live in Oslo." and turn.tool_calls[0].ok
    assert [f.object for f in store.facts.list(user_id="maya")] == ["Oslo"]
    second = fake_openai.bodies[1]["messages"]
    assert second[-1]["role"] == "tool" and second[-1]["tool_call_id"]


def test_chat_from_a_pipe_through_the_cli(
    fake_openai: FakeOpenAI, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    fake_openai.reply("Hello, Maya.")
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("hi, I'm Maya\n"))
    result = run_cli(
        capsys, "chat", "--model", f"openai:{NAME}", "--base-url", fake_openai.base_url,
        "--data-dir", str(tmp_path / "d"), "--user", "maya",
    )  # fmt: skip
    assert result.code == 0, result.err
    assert "Hello, Maya." in result.out


def test_replay_with_a_live_openai_model_across_a_restart(
    fake_openai: FakeOpenAI, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [
        {"format": "memvisor.transcript", "version": 1, "user_id": "maya", "num_ctx": 4096},
        {"type": "session", "id": "s1"},
        {"type": "user", "content": "I live in Oslo."},
        {"type": "expect", "probe": "memory_contains", "text": "Oslo"},
        {"type": "session", "id": "s2", "restart": True},
        {"type": "user", "content": "Where do I live?"},
        {"type": "expect", "probe": "answer_mentions", "text": "Oslo"},
        {"type": "expect", "probe": "within_budget"},
    ]
    path = tmp_path / "live.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    remember = {"subject": "maya", "predicate": "lives_in", "object": "Oslo"}
    fake_openai.reply(
        {"tool_calls": [{"name": "fact_remember", "arguments": remember}]},
        "Noted.",
        "You live in Oslo.",
    )
    result = run_cli(
        capsys, "replay", str(path), "--model", f"openai:{NAME}", "--base-url",
        fake_openai.base_url, "--into", str(tmp_path / "run"),
    )  # fmt: skip
    assert result.code == 0, result.out + result.err
    assert [line[:4] for line in result.out.splitlines()].count("PASS") == 3


def test_a_piped_chat_whose_turns_fail_says_so_once_and_exits_1(
    fake_openai: FakeOpenAI, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    fake_openai.reply({"status": 500, "error": "CUDA out of memory"}, "Fine now.")
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("first\nsecond\n"))
    result = run_cli(
        capsys, "chat", "--model", f"openai:{NAME}", "--base-url", fake_openai.base_url,
        "--data-dir", str(tmp_path / "d"), "--user", "maya",
    )  # fmt: skip
    assert result.code == 1
    assert result.err.count("CUDA out of memory") == 1 and "CUDA" not in result.out
    assert result.out.strip() == "Fine now."
    assert result.err.strip().splitlines()[-1] == "error: 1 of 2 turns failed (each said above)"
