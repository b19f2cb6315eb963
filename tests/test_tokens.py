"""Real token counts, offline: qwen2.5 for qwen models, cl100k for the rest."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
import tiktoken.registry
from hypothesis import given, settings
from hypothesis import strategies as st

from memvisor.paging.tokens import (
    clear_counter_cache,
    count_messages,
    counter_for_model,
    tokenizer_family,
    truncate_to_tokens,
)

QWEN = "qwen2.5:7b"
GENERIC = "llama3.1:8b"
CHINESE = "我住在里斯本，每天早上喝一杯绿茶。"


@pytest.mark.parametrize(
    ("model", "family"),
    [
        ("qwen2.5:7b", "qwen2.5"),
        ("ollama:qwen2.5:7b", "qwen2.5"),
        ("qwen3:8b", "qwen2.5"),
        ("Qwen/Qwen2.5-7B-Instruct", "qwen2.5"),
        ("hf.co/Qwen/Qwen2.5-7B-Instruct-GGUF:Q4_K_M", "qwen2.5"),
        ("qwen3.6:27b", "qwen3.5"),
        ("llama3.1:8b", "cl100k_base"),
        ("ollama:mistral", "cl100k_base"),
        ("", "cl100k_base"),
        (None, "cl100k_base"),
    ],
)
def test_model_names_pick_the_tokenizer(model: str | None, family: str) -> None:
    assert tokenizer_family(model) == family


def test_counters_are_cached_per_tokenizer() -> None:
    assert counter_for_model("qwen2.5:7b") is counter_for_model("ollama:qwen3:8b")
    assert counter_for_model("llama3.1") is counter_for_model(None)
    assert counter_for_model(QWEN).name == "qwen2.5"
    assert counter_for_model(GENERIC).name == "cl100k_base"


@pytest.mark.parametrize("model", [QWEN, GENERIC])
def test_counts_are_positive_stable_and_round_trip(model: str) -> None:
    counter = counter_for_model(model)
    text = "The user lives in Lisbon and prefers green tea. Order #A-1042 ships Friday."
    first = counter.count(text)
    assert first > 0
    assert counter.count(text) == first == len(counter.encode(text))
    assert counter.count("") == 0
    assert counter.decode(counter.encode(text)) == text
    assert counter.count(CHINESE) > 0
    assert counter.decode(counter.encode(CHINESE)) == CHINESE
    assert counter.count("<|endoftext|> is just text") > 0  # special tokens never raise


def test_qwen_and_cl100k_really_differ() -> None:
    qwen, generic = counter_for_model(QWEN), counter_for_model(GENERIC)
    # qwen splits digits one by one; cl100k groups up to three.
    assert qwen.count("1234567890") == 10
    assert generic.count("1234567890") == 4
    assert qwen.count(CHINESE) != generic.count(CHINESE)


def test_loading_needs_no_network(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("network is unreachable in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    cache = tmp_path / "empty-tiktoken-cache"
    cache.mkdir()
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(cache))
    monkeypatch.setattr(tiktoken.registry, "ENCODINGS", {})  # force tiktoken to load afresh
    clear_counter_cache()
    try:
        for model in (QWEN, GENERIC):
            assert counter_for_model(model).count(CHINESE) > 0
    finally:
        clear_counter_cache()  # later tests must not keep counters built under the patches


@settings(max_examples=150, deadline=None)
@given(
    model=st.sampled_from([QWEN, GENERIC]),
    text=st.text(max_size=300) | st.text(alphabet="ab 你好123\n", max_size=300),
    max_tokens=st.integers(min_value=-1, max_value=80),
    marker=st.sampled_from(["…[cut]", "", " [truncated: ask for more]"]),
)
def test_truncate_never_exceeds_and_keeps_a_prefix(
    model: str, text: str, max_tokens: int, marker: str
) -> None:
    counter = counter_for_model(model)
    result = truncate_to_tokens(counter, text, max_tokens, marker=marker)
    assert counter.count(result) <= max(max_tokens, 0)
    if counter.count(text) <= max_tokens:
        assert result == text
    elif marker and result.endswith(marker):
        assert text.startswith(result[: len(result) - len(marker)])
    else:  # no room even for the marker: a bare cut
        assert text.startswith(result)


@pytest.mark.parametrize("model", [QWEN, GENERIC])
def test_truncate_examples(model: str) -> None:
    counter = counter_for_model(model)
    text = "The quick brown fox jumps over the lazy dog. " * 40
    cut = truncate_to_tokens(counter, text, 30)
    assert cut.endswith("…[cut]") and text.startswith(cut.removesuffix("…[cut]"))
    assert 25 <= counter.count(cut) <= 30  # close to the budget, not just under it
    assert truncate_to_tokens(counter, text, 0) == ""
    assert truncate_to_tokens(counter, "short", 30) == "short"
    bare = truncate_to_tokens(counter, text, 1, marker="[a very long truncation marker]")
    assert bare == "The"


@pytest.mark.parametrize("model", [QWEN, GENERIC])
def test_count_messages_includes_template_and_tool_calls(model: str) -> None:
    counter = counter_for_model(model)
    call = {"function": {"name": "fact_remember", "arguments": {"subject": "user", "object": "茶"}}}
    messages = [
        {"role": "system", "content": "You are Memvisor."},
        {"role": "user", "content": CHINESE},
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {"role": "tool", "content": '{"ok": true}', "name": "fact_remember"},
        {"role": "assistant", "content": [{"type": "text", "text": "Saved."}]},
    ]
    total = count_messages(counter, messages)
    contents = sum(counter.count(m["content"]) for m in messages if isinstance(m["content"], str))
    assert total >= contents + counter.count("Saved.") + 4 * len(messages)
    without_call = [m for m in messages if not m.get("tool_calls")]
    assert total - count_messages(counter, without_call) > counter.count("fact_remember")
    as_string = dict(
        call, function=dict(call["function"], arguments='{"subject": "user", "object": "茶"}')
    )
    assert count_messages(counter, [messages[2] | {"tool_calls": [as_string]}]) == count_messages(
        counter, [messages[2]]
    )
    assert count_messages(counter, []) > 0  # the reply priming
