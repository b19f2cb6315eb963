"""The bundled multi-day transcript: crash mid-task, resumed sessions, a recipe reused,
relative dates, a TTL expiry and a forget that a second replay cannot undo."""

from __future__ import annotations

from pathlib import Path

from memvisor.evals.replay import replay
from memvisor.evals.transcripts import CrashEvent, SessionEvent, load_transcript
from memvisor.storage import Store

TRANSCRIPT = Path(__file__).resolve().parents[1] / "evals" / "data" / "multiday_task.jsonl"


def test_multiday_transcript_passes_every_probe_and_forgetting_sticks(tmp_path: Path) -> None:
    transcript = load_transcript(TRANSCRIPT)
    assert any(isinstance(e, CrashEvent) for e in transcript.events)
    assert sum(isinstance(e, SessionEvent) and e.restart for e in transcript.events) >= 2
    data = tmp_path / "store"
    first = replay(TRANSCRIPT, data_dir=data, embedder="minilm")  # the offline default
    failed = [p.as_dict() for p in first.probes if not p.passed]
    assert not failed, failed
    assert first.metrics()["crashes"] == 1 and len(first.probes) >= 20

    # Replaying the whole transcript into the same store: the forgotten workplace is
    # stated again at the start, and the tombstone keeps it out.
    again = replay(TRANSCRIPT, data_dir=data, embedder="minilm", reuse_store=True)
    failed_again = {p.label for p in again.probes if not p.passed}
    assert "workplace saved" in failed_again
    assert "workplace forgotten" not in failed_again and "name kept" not in failed_again
    with Store.open(data, embedder="minilm") as store:
        facts = store.facts.list(user_id="sam", include_inactive=True)
        assert not any(f.predicate == "works_at" for f in facts)
        assert any(f.predicate == "name" for f in facts)
