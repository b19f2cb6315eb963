"""Stores and files the chaos faults start from, built through the library like a user."""

from __future__ import annotations

import json
from pathlib import Path

from memvisor.storage import Store

from .common import USER, Ack, needle


def seed_store(
    data_dir: Path, *, prefix: str, facts: int, passages: int, embedder: str
) -> list[Ack]:
    """A store holding committed facts and passages, its index built; their acks."""
    acks: list[Ack] = []
    with Store.open(data_dir, embedder=embedder) as store:
        for n in range(facts):
            word = needle(prefix + "f", n)
            write = store.remember_fact(
                user_id=USER,
                subject=USER,
                # its own predicate per store: an import of another seeded store must add its
                # facts, not supersede these (one value per single-valued predicate)
                predicate=f"likes_{prefix}_{n}",
                object=f"the {word} colour",
                trace_id="trc_chaos_seed",
                origin="user",
            )
            assert write.fact is not None
            acks.append(Ack(word, write.fact.id))
        for n in range(passages):
            word = needle(prefix + "p", n)
            passage = store.insert_passage(
                user_id=USER,
                text=f"Garden journal: planted {word} seedlings by the shed.",
                trace_id="trc_chaos_seed",
                origin="user",
            )
            acks.append(Ack(word, passage.id))
        store.search("garden", user_id=USER)  # builds the index with what is committed
    return acks


def note_transcript(path: Path, words: list[str], *, title: str) -> None:
    """A transcript whose every turn asks to keep a note and the model saves it."""
    lines: list[dict[str, object]] = [
        {"format": "memvisor.transcript", "version": 1, "user_id": USER, "title": title},
        {"type": "session", "id": path.stem},
    ]
    for word in words:
        lines += [
            {"type": "user", "content": note_message(word)},
            {
                "type": "assistant",
                "content": "",
                "tool_calls": [
                    {"name": "archival_memory_insert", "arguments": {"content": note_text(word)}}
                ],
            },
            {"type": "assistant", "content": f"Saved the note about {word}."},
        ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")


def note_message(word: str) -> str:
    return f"Please keep this note: the {word} parcel goes to the harbour office."


def note_text(word: str) -> str:
    return f"The {word} parcel goes to the harbour office."
