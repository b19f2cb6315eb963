"""SIGKILL at a random moment of `memvisor` import, replay, reindex, forget and chat.

Each trial copies a committed store, runs one command in a subprocess and kills it after a
random delay drawn over the command's measured length. Then the store is reopened and every
write acknowledged before (or by the command, when it finished) must be there and found.
"""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

from memvisor.agent.memory.api import Memory
from memvisor.storage import Store

from .common import (
    USER,
    Ack,
    FaultResult,
    Run,
    check_acknowledged,
    cli_env,
    count_run,
    needle,
    run_cli,
    stored_id,
)
from .seed import note_message, note_transcript, seed_store

KILLED_COMMANDS = ("import", "replay", "reindex", "forget", "chat")


class KillTrials:
    """The kill fault of one command: a base store, then ``trials`` killed runs on copies."""

    def __init__(
        self, command: str, root: Path, *, embedder: str, rng: random.Random, size: int
    ) -> None:
        self.command = command
        self.root = root / command
        self.root.mkdir(parents=True)
        self.embedder = embedder
        self.rng = rng
        self.size = size
        self.env = cli_env(self.root / "home", embedder)
        self.result = FaultResult(f"kill {command}")
        self.base = self.root / "base"
        self.base_acks: list[Ack] = []
        self.typical_s = 1.0
        # What a command's trials share, set by its preparation.
        self.file = self.root / "input"  # the export file, the transcript
        self.words: list[str] = []  # the needles the killed command writes
        self.later: list[Ack] = []  # what the command acknowledges when it finishes
        self.forgotten = Ack("")

    def cli(self, data_dir: Path, *args: str) -> list[str]:
        return [*args, "--data-dir", str(data_dir), "--user", USER]

    def run(self, trials: int) -> FaultResult:
        prepare, trial = _FAMILIES[self.command]
        prepare(self)
        for n in range(trials):
            self.result.trials += 1
            delay = self.rng.uniform(0.1, 0.9) * self.typical_s
            for _attempt in range(3):  # a run faster than measured: kill it sooner
                target = self.root / f"trial{n}"
                shutil.copytree(self.base, target)
                landed = trial(self, target, delay)
                shutil.rmtree(target, ignore_errors=True)
                if landed:
                    break
                delay /= 2
        return self.result

    def finish(
        self, target: Path, run: Run, acks: list[Ack], forgotten: Sequence[Ack] = ()
    ) -> bool:
        """Count the kill, its output, then what the reopened store kept; did the kill land?"""
        self.result.injected += run.killed
        count_run(self.result, run, f"{self.command} ({'killed' if run.killed else 'finished'})")
        store = check_acknowledged(
            self.result, target, acks, embedder=self.embedder, forgotten=forgotten
        )
        if store is not None:
            store.close()
        if self.result.trials == 1:  # what the user sees next: a search, after the crash
            after = run_cli(self.cli(target, "memory", "search", acks[0].needle), env=self.env)
            count_run(self.result, after, f"memory search after {self.command}")
        return run.killed

    def timed(self, args: list[str], *, stdin: str | None = None) -> Run:
        """The uncut run the kill delays are drawn against."""
        run = run_cli(args, env=self.env, stdin=stdin)
        count_run(self.result, run, f"{self.command} (uncut)")
        self.typical_s = max(run.seconds, 0.5)
        return run


# -- import: all of the file or none of it --


def _prepare_import(t: KillTrials) -> None:
    t.base_acks = seed_store(t.base, prefix="ib", facts=3, passages=3, embedder=t.embedder)
    source = t.root / "source"
    imported = seed_store(source, prefix="im", facts=t.size, passages=t.size, embedder=t.embedder)
    with Store.open(source, embedder=t.embedder) as store:
        export = Memory(store, guard=None).export(user_id=USER)
    shutil.rmtree(source)
    t.file.write_text(json.dumps(export), encoding="utf-8")
    uncut = t.root / "uncut"
    shutil.copytree(t.base, uncut)
    run = t.timed(t.cli(uncut, "memory", "import", str(t.file)))
    with Store.open(uncut, embedder=t.embedder) as store:
        t.later = [a for a in imported if stored_id(store, a)]
    if run.returncode != 0 or not t.later:
        t.result.note(f"uncut import exit {run.returncode}: {run.stderr.strip()[-200:]}")
    shutil.rmtree(uncut)


def _trial_import(t: KillTrials, target: Path, delay: float) -> bool:
    run = run_cli(
        t.cli(target, "memory", "import", str(t.file)),
        env=t.env,
        kill_after=delay,
    )
    imported = t.later
    with Store.open(target, embedder=t.embedder) as store:
        present = sum(stored_id(store, a) is not None for a in imported)
    if 0 < present < len(imported):
        t.result.broken_invariants += 1
        t.result.note(f"partial import: {present} of {len(imported)} records")
    done = not run.killed and run.returncode == 0
    return t.finish(target, run, t.base_acks + (imported if done or present else []))


# -- replay: a second session into the store of a finished one --


def _prepare_replay(t: KillTrials) -> None:
    first = [needle("rb", n) for n in range(3)]
    note_transcript(t.root / "first.jsonl", first, title="chaos: the acknowledged session")
    run = t.timed(["replay", str(t.root / "first.jsonl"), "--into", str(t.base)])
    if run.returncode != 0:
        t.result.note(f"uncut replay exit {run.returncode}: {run.stderr.strip()[-200:]}")
    t.base_acks = _note_acks(first)
    t.words = [needle("rk", n) for n in range(t.size)]
    note_transcript(t.root / "second.jsonl", t.words, title="chaos: the killed session")


def _trial_replay(t: KillTrials, target: Path, delay: float) -> bool:
    args = ["replay", str(t.root / "second.jsonl"), "--into", str(target), "--reuse-store"]
    run = run_cli(args, env=t.env, kill_after=delay)
    done = not run.killed and run.returncode == 0
    return t.finish(target, run, t.base_acks + (_note_acks(t.words) if done else []))


def _note_acks(words: list[str]) -> list[Ack]:
    """A finished note turn: the user's message (a turn) and the passage the model saved."""
    return [Ack(w, table=table) for w in words for table in ("passages", "events")]


# -- reindex: the index dropped and rebuilt while the records stay --


def _prepare_reindex(t: KillTrials) -> None:
    t.base_acks = seed_store(
        t.base, prefix="rx", facts=t.size * 4, passages=t.size * 4, embedder=t.embedder
    )
    uncut = t.root / "uncut"
    shutil.copytree(t.base, uncut)
    t.timed(t.cli(uncut, "memory", "reindex", "--embedder", t.embedder))
    shutil.rmtree(uncut)


def _trial_reindex(t: KillTrials, target: Path, delay: float) -> bool:
    args = t.cli(target, "memory", "reindex", "--embedder", t.embedder)
    return t.finish(target, run_cli(args, env=t.env, kill_after=delay), t.base_acks)


# -- forget: the fact, its redacted episode; everything else stays --


def _prepare_forget(t: KillTrials) -> None:
    t.base_acks = seed_store(
        t.base, prefix="fb", facts=t.size, passages=t.size, embedder=t.embedder
    )
    word = needle("fg", 0)
    with Store.open(t.base, embedder=t.embedder) as store:
        said = store.log_turn(user_id=USER, role="user", content="Remember my partner's name.")
        write = store.remember_fact(
            user_id=USER,
            subject=USER,
            predicate="has_partner",
            object=word,
            trace_id="trc_chaos_seed",
            source_event_ids=[said.id],
            origin="user",
        )
        assert write.fact is not None
        episode = store.episodes.build(
            user_id=USER,
            session_id="s-chaos",
            start_ts=store.clock.now(),
            end_ts=store.clock.now(),
            summary=f"The user said their partner is {word}; they plan a trip.",
            entities=[word],
            source_event_ids=[said.id],
            trace_id="trc_chaos_seed",
        )
        store.save_episode(episode)
        store.search(word, user_id=USER)  # the episode and the fact are indexed
    t.forgotten = Ack(word, write.fact.id)
    uncut = t.root / "uncut"
    shutil.copytree(t.base, uncut)
    t.timed(t.cli(uncut, "memory", "forget", write.fact.id))
    shutil.rmtree(uncut)


def _trial_forget(t: KillTrials, target: Path, delay: float) -> bool:
    gone = t.forgotten
    run = run_cli(t.cli(target, "memory", "forget", str(gone.id)), env=t.env, kill_after=delay)
    with Store.open(target, embedder=t.embedder) as store:
        committed = stored_id(store, gone) is None
    if not run.killed and run.returncode == 0 and not committed:
        t.result.lost_writes += 1  # the forget reported success: it is a write too
        t.result.note(f"forget of {gone.id} reported success but the fact is still there")
    return t.finish(target, run, t.base_acks, [gone] if committed else [])


# -- chat: turns answered on stdout are acknowledged --


def _prepare_chat(t: KillTrials) -> None:
    t.base_acks = seed_store(t.base, prefix="cb", facts=2, passages=2, embedder=t.embedder)
    t.words = [needle("ch", n) for n in range(t.size)]
    note_transcript(t.root / "model.jsonl", t.words, title="chaos: the model's replies")
    uncut = t.root / "uncut"
    shutil.copytree(t.base, uncut)
    t.timed(_chat_args(t, uncut), stdin=_chat_input(t))
    shutil.rmtree(uncut)


def _chat_args(t: KillTrials, target: Path) -> list[str]:
    model = f"replay:{t.root / 'model.jsonl'}"
    return t.cli(target, "chat", "--model", model, "--session", "s-chaos", "--json")


def _chat_input(t: KillTrials) -> str:
    return "".join(note_message(w) + "\n" for w in t.words)


def _trial_chat(t: KillTrials, target: Path, delay: float) -> bool:
    run = run_cli(_chat_args(t, target), env=t.env, kill_after=delay, stdin=_chat_input(t))
    answered = []
    for line in run.stdout.splitlines():
        try:
            turn = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut by the kill acknowledges nothing
        if isinstance(turn, dict) and turn.get("error") is None:
            answered += [w for w in t.words if w in str(turn.get("answer", ""))]
    return t.finish(target, run, t.base_acks + _note_acks(answered))


Prepare = Callable[[KillTrials], None]
Trial = Callable[[KillTrials, Path, float], bool]
_FAMILIES: dict[str, tuple[Prepare, Trial]] = {
    "import": (_prepare_import, _trial_import),
    "replay": (_prepare_replay, _trial_replay),
    "reindex": (_prepare_reindex, _trial_reindex),
    "forget": (_prepare_forget, _trial_forget),
    "chat": (_prepare_chat, _trial_chat),
}
