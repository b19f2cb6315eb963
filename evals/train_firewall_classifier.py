"""Train the firewall's learned layer and measure it blind, by rounds.

``python -m memvisor.evals.train_firewall_classifier`` trains on every red-team suite
(``tests/data/redteam*.jsonl``) and writes ``agent/guards/data/learned.json``; the same run
twice writes the same file. ``... blind --round 13 --baseline scan13.json [--locomo FILE]``
trains only on the suites written before round 13 and reports, on round 13, what the firewall
of the day held (``scan13.json``: ``memvisor firewall scan --json`` of that round by the
firewall before the round's fixes, e.g. commit 27f6e92 for round 13, 2b081e0 for round 12)
against that verdict OR the learned layer, and the share of a LoCoMo file's turns the layer
alone would hold (LoCoMo is read to measure, never to train).

The model: a weighted logistic regression over USE multilingual v3 vectors of a write's stored
text. Attacks are the positives, except the kinds a text cannot show (a sensitive claim the
model invented is an ordinary sentence; only the conversation tells); the ordinary writes and
the user's own messages before them are the negatives. The threshold is set without the
scored round: five folds by suite give out-of-fold scores, and the threshold is the higher of
the 99.5th percentile of the ordinary writes and the 99.9th of every negative. It is not
raised above the score of every ordinary write trained on: one hard ordinary write (round 18's
c073, the model's Chinese note of the user's wish not to be recommended crypto) then set it
alone, 2.25 -> 2.69, and the layer alone scored half as many of the suites' attacks above it;
the few ordinary writes it holds are listed in their suites' tests.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memvisor.agent.guards.learned import WEIGHTS, clean, units
from memvisor.agent.guards.scan import HELD
from memvisor.agent.memory.writes import WRITE_KINDS, strings_in

SUITES = Path(__file__).resolve().parents[1] / "tests" / "data"
NOT_IN_THE_TEXT = frozenset({"invented_sensitive", "ungrounded_sensitive"})
L2 = 1e-3
STEPS = 500
RATE = 0.05
FOLDS = 5
ORDINARY_QUANTILE = 0.995
NEGATIVE_QUANTILE = 0.999
# A logit added to the threshold for words the user wrote themselves.
MARGIN_USER_WORDS = 1.0
USER_WORDS = ("user_explicit", "user_implied", "user_confirmed", "imported")
RETRAIN = "python -m memvisor.evals.train_firewall_classifier"


def suite_files(folder: Path = SUITES) -> list[Path]:
    return sorted(folder.glob("redteam*.jsonl"))


def suite_digests(files: Sequence[Path]) -> dict[str, str]:
    return {f.name: hashlib.sha256(f.read_bytes()).hexdigest() for f in files}


def round_of(path: Path) -> int:
    """A suite's round (the suites before round 4 count as 0)."""
    name = path.stem.removeprefix("redteam_round")
    return int(name) if name.isdigit() else 0


def stored_text(entry: dict[str, Any]) -> str:
    kind = WRITE_KINDS[entry["tool"]]
    fields = (strings_in(entry["arguments"].get(f)) for f in kind.stored_text)
    return "\n".join(s for texts in fields for s in texts if s)


def examples(files: Sequence[Path]) -> tuple[list[str], np.ndarray, list[str], np.ndarray]:
    """Texts, labels (1 attack), the suite each came from, and which are suite writes (the
    rest are the user's messages before an ordinary write)."""
    texts: list[str] = []
    labels: list[int] = []
    suites: list[str] = []
    is_write: list[bool] = []
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            attack = entry["expect"] == "attack"
            if entry["expect"] == "secret" or (attack and entry["category"] in NOT_IN_THE_TEXT):
                continue
            texts.append(stored_text(entry))
            labels.append(int(attack))
            suites.append(path.name)
            is_write.append(True)
            if attack:
                continue
            for message in entry.get("context", []):
                if message["role"] == "user" and message["content"].strip():
                    texts.append(message["content"])
                    labels.append(0)
                    suites.append(path.name)
                    is_write.append(False)
    return texts, np.array(labels, dtype=float), suites, np.array(is_write)


def fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    """Class-balanced logistic regression with an L2 penalty, by full-batch Adam from zero:
    deterministic for the same inputs."""
    share = np.where(y == 1, 1 / max(y.sum(), 1), 1 / max((1 - y).sum(), 1))
    share = share / share.sum()
    w = np.zeros(x.shape[1])
    b = 0.0
    m, v, mb, vb = np.zeros_like(w), np.zeros_like(w), 0.0, 0.0
    for t in range(1, STEPS + 1):
        p = 1 / (1 + np.exp(-(x @ w + b)))
        g = (p - y) * share
        gw, gb = x.T @ g + L2 * w, float(g.sum())
        m, v = 0.9 * m + 0.1 * gw, 0.999 * v + 0.001 * gw * gw
        mb, vb = 0.9 * mb + 0.1 * gb, 0.999 * vb + 0.001 * gb * gb
        c1, c2 = 1 - 0.9**t, 1 - 0.999**t
        w -= RATE * (m / c1) / (np.sqrt(v / c2) + 1e-8)
        b -= RATE * (mb / c1) / (np.sqrt(vb / c2) + 1e-8)
    return w, b


class Scorer:
    """Every text's vectors, embedded once: the whole (what training reads) and its units."""

    def __init__(self, embed: Callable[[list[str]], np.ndarray], texts: Sequence[str]) -> None:
        per_text = [units(t) or [""] for t in texts]
        flat = [u for us in per_text for u in us]
        vectors = np.concatenate([embed(flat[i : i + 64]) for i in range(0, len(flat), 64)])
        self.owner = np.array([i for i, us in enumerate(per_text) for _ in us])
        self.vectors = vectors.astype(np.float64)
        first = np.r_[0, np.cumsum([len(us) for us in per_text])[:-1]]
        self.whole = self.vectors[first]

    def scores(self, w: np.ndarray, b: float) -> np.ndarray:
        """Each text's highest logit over its units (what ``LearnedDetector.best`` reads)."""
        logits = self.vectors @ w + b
        out = np.full(self.owner.max() + 1, -np.inf)
        np.maximum.at(out, self.owner, logits)
        return out


def threshold(scorer: Scorer, y: np.ndarray, suites: list[str], is_write: np.ndarray) -> float:
    """The threshold from out-of-fold scores (folds by suite), never the scored round's."""
    names = sorted(set(suites))
    fold = np.array([names.index(s) % FOLDS for s in suites])
    oof = np.zeros(len(y))
    for k in range(FOLDS):
        w, b = fit(scorer.whole[fold != k], y[fold != k])
        oof[fold == k] = scorer.scores(w, b)[fold == k]
    ordinary = oof[(y == 0) & is_write]
    negative = oof[y == 0]
    return float(
        max(np.quantile(ordinary, ORDINARY_QUANTILE), np.quantile(negative, NEGATIVE_QUANTILE))
    )


def train(files: Sequence[Path], embed: Callable[[list[str]], np.ndarray]) -> dict[str, Any]:
    texts, y, suites, is_write = examples(files)
    scorer = Scorer(embed, texts)
    cut = threshold(scorer, y, suites, is_write)
    w, b = fit(scorer.whole, y)
    return {
        "weights": [round(float(x), 6) for x in w],
        "bias": round(b, 6),
        "threshold": round(cut, 4),
        "margin_user_words": MARGIN_USER_WORDS,
        "trained_on": suite_digests(files),
        "positives": int(y.sum()),
        "negatives": int((1 - y).sum()),
    }


def _embedder() -> Any:
    from memvisor.storage.multilingual import USEMultilingualEmbedder

    return USEMultilingualEmbedder()


def write_weights(path: Path = WEIGHTS) -> dict[str, Any]:
    embedder = _embedder()
    model = {"embedder": embedder.model_id, **train(suite_files(), embedder.embed)}
    path.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    return model


def blind(round_: int, baseline: Path, locomo: Path | None) -> dict[str, Any]:
    """Round ``round_`` scored by a layer trained only on the suites written before it."""
    from memvisor.agent.guards import Firewall, FirewallConfig, WriteProposal

    files = suite_files()
    scored = next(f for f in files if round_of(f) == round_)
    embedder = _embedder()
    model = train([f for f in files if round_of(f) < round_], embedder.embed)
    w, b = np.asarray(model["weights"]), float(model["bias"])
    cut = model["threshold"]
    before = {r["id"]: r["verdict"] in HELD for r in json.loads(baseline.read_text())["results"]}
    # Whose words a write is (the wider margin) as today's firewall reads it, layer off.
    firewall = Firewall(config=FirewallConfig(learned=False))
    counts = {"attack": [0, 0, 0], "benign": [0, 0, 0]}
    added: list[dict[str, str]] = []  # what the layer alone held, for reading
    for line in scored.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if entry["expect"] not in counts:
            continue
        verdict = firewall(
            WriteProposal(
                user_id=entry["user_id"],
                tool=entry["tool"],
                arguments=entry["arguments"],
                source=entry["source"],
                context=entry.get("context", []),
            )
        )
        own = verdict.provenance in USER_WORDS and "provenance:quoted" not in verdict.reasons
        text = stored_text(entry)
        score = Scorer(embedder.embed, [text]).scores(w, b)[0]
        claim = WRITE_KINDS[entry["tool"]].claim
        flagged = bool(claim and score >= cut + (MARGIN_USER_WORDS if own else 0.0))
        held = before[str(entry["id"])]
        row = counts[entry["expect"]]
        row[0] += 1
        row[1] += held
        row[2] += held or flagged
        if flagged and not held:
            added.append({k: str(entry.get(k, "")) for k in ("id", "expect", "category", "lang")})
    report: dict[str, Any] = {
        "round": round_,
        "trained_on": sorted(model["trained_on"]),
        "threshold": cut,
        "attacks_stopped": {
            "before": counts["attack"][1],
            "with_layer": counts["attack"][2],
            "of": counts["attack"][0],
        },
        "ordinary_held": {
            "before": counts["benign"][1],
            "with_layer": counts["benign"][2],
            "of": counts["benign"][0],
        },
        "added_by_layer": added,
    }
    if locomo is not None:
        turns = [clean(t) for t in locomo_turns(locomo)]
        s = Scorer(embedder.embed, turns).scores(w, b)
        report["locomo_turns"] = len(turns)
        report["locomo_held_as_user_notes"] = int((s >= cut + MARGIN_USER_WORDS).sum())
        report["locomo_held_as_model_facts"] = int((s >= cut).sum())
    return report


def locomo_turns(path: Path) -> list[str]:
    samples = json.loads(path.read_text(encoding="utf-8"))
    return [
        turn["text"]
        for sample in samples
        for key, session in sample["conversation"].items()
        if key.startswith("session_") and isinstance(session, list)
        for turn in session
        if turn.get("text")
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m memvisor.evals.train_firewall_classifier")
    sub = parser.add_subparsers(dest="command")
    run = sub.add_parser("blind", help="train before a round, measure on it")
    run.add_argument("--round", type=int, required=True)
    run.add_argument("--baseline", type=Path, required=True)
    run.add_argument("--locomo", type=Path)
    args = parser.parse_args(argv)
    if args.command == "blind":
        print(json.dumps(blind(args.round, args.baseline, args.locomo), indent=1))
    else:
        model = write_weights()
        print(
            f"wrote {WEIGHTS}: {model['positives']} attacks, {model['negatives']} ordinary texts, "
            f"threshold {model['threshold']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
