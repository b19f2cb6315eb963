"""ReplayModel: a model client answering from recorded responses (``--model replay:FILE``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memvisor.agent.models import ChatModel, ReplayModel
from memvisor.agent.models.names import model_from_name
from memvisor.agent.models.replay import RecordedCall, RecordedResponse
from memvisor.errors import ModelError, UserError
from memvisor.evals.transcripts import AssistantEvent, load_transcript

DEMO = Path(__file__).resolve().parents[1] / "evals" / "data" / "demo_long_session.jsonl"


def _write(path: Path, *lines: dict) -> Path:
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_from_name_serves_every_assistant_line_of_a_transcript_in_order() -> None:
    model = model_from_name(f"replay:{DEMO}")
    assert isinstance(model, ReplayModel)
    transcript = load_transcript(DEMO)
    recorded = [e for e in transcript.events if isinstance(e, AssistantEvent)]
    assert (model.context_length, model.remaining) == (transcript.header.num_ctx, len(recorded))
    first = model.chat([], [])
    assert [c.name for c in first.tool_calls] == [c.name for c in recorded[0].tool_calls]
    assert [c.id for c in first.tool_calls] == ["call_1_1", "call_1_2", "call_1_3"]
    assert model.chat([], []).content == recorded[1].content


def test_transcript_events_are_recordings_as_they_are() -> None:
    event = AssistantEvent(type="assistant", content="", tool_calls=[RecordedCall(name="x")])
    model: ChatModel = ReplayModel([event, RecordedResponse(content="done")], context_length=512)
    assert model.chat([], []).tool_calls[0].name == "x"
    assert model.chat([], []).content == "done"
    with pytest.raises(ModelError, match=r"no model response left \(after 2\)"):
        model.chat([], [])


def test_a_file_that_is_not_a_transcript_is_refused_with_its_line(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no such transcript"):
        ReplayModel.from_file(tmp_path / "missing.jsonl")
    not_header = _write(tmp_path / "a.jsonl", {"type": "user", "content": "hi"})
    with pytest.raises(UserError, match=r"a\.jsonl:1: not a transcript header"):
        ReplayModel.from_file(not_header)
    header = {"format": "memvisor.transcript", "version": 1, "user_id": "u", "num_ctx": 1024}
    bad_call = _write(
        tmp_path / "b.jsonl", header, {"type": "assistant", "tool_calls": [{"arguments": {}}]}
    )
    with pytest.raises(UserError, match=r"b\.jsonl:2: tool_calls\.0\.name"):
        ReplayModel.from_file(bad_call)
    ok = _write(tmp_path / "c.jsonl", header, {"type": "user", "content": "hi"})
    assert ReplayModel.from_file(ok).context_length == 1024
