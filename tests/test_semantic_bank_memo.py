"""The shipped prototype bank's vectors are embedded once per model version, not once per
process: what a later process reads back is exactly what embedding them gives."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from memvisor.agent.guards import semantic
from memvisor.storage.disk_memo import DiskMemo
from memvisor.storage.embedders import MiniLMEmbedder


def test_a_later_process_reads_the_bank_it_would_embed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMVISOR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(semantic, "_BANK_MEMO", DiskMemo("bank-test"))
    embedder = MiniLMEmbedder()
    first = semantic._shipped_bank(embedder)
    assert semantic._BANK_MEMO.counts() == (0, 1)
    semantic._BANK_MEMO.flush()

    monkeypatch.setattr(semantic, "_BANK_MEMO", DiskMemo("bank-test"))
    second = semantic._shipped_bank(embedder)
    assert semantic._BANK_MEMO.counts() == (1, 0)  # read, not embedded again
    fresh = semantic._embed_bank(embedder, semantic.load_prototypes())
    for bank in (first, second):
        assert bank.texts == fresh.texts
        assert np.array_equal(bank.kinds, fresh.kinds)
        assert np.array_equal(bank.vectors, fresh.vectors)


def test_the_fingerprint_names_what_the_vectors_depend_on() -> None:
    plain = MiniLMEmbedder().fingerprint()
    assert plain.startswith(MiniLMEmbedder.model_id) and "onnxruntime" in plain
    assert MiniLMEmbedder(max_tokens=128).fingerprint() != plain
    assert MiniLMEmbedder(sha256="0" * 64).fingerprint() != plain


def test_an_embedder_without_a_fingerprint_embeds_the_bank_each_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memvisor.storage.embedders import embedder_from_name

    monkeypatch.setenv("MEMVISOR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(semantic, "_BANK_MEMO", DiskMemo("bank-test"))
    hashed = embedder_from_name("hash")
    bank = semantic._shipped_bank(hashed)
    assert semantic._BANK_MEMO.counts() == (0, 0)
    assert bank.vectors.shape == (len(semantic.load_prototypes()), hashed.dim)
