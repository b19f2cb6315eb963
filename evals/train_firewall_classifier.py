"""Build the firewall's learned layer and measure it blind, by rounds.

``python -m memvisor.evals.train_firewall_classifier`` embeds every red-team suite
(``tests/data/redteam*.jsonl``) and every blind round once it is fitted
(``tests/data/blind/round*.jsonl``) and writes ``agent/guards/data/learned.npz``; the same
run twice writes the same file. (Round 47, blind: the layer trained on the suites alone
stopped 122 of its 140 attacks with the rules of the day, trained with rounds 30-46 too 124,
the same 3 of 140 ordinary writes held either way, and 1 of LoCoMo's 2,760 turns held as a
model's fact against 4.) ``... blind --round 13 --baseline scan13.json [--locomo FILE]``
builds the layer only from the suites written before round 13 and reports, on round 13, what
the firewall of the day held (``scan13.json``: ``memvisor firewall scan --json`` of that round
by the firewall before the round's fixes, e.g. commit 27f6e92 for round 13, 2b081e0 for round
12) against that verdict OR the layer, and the share of a LoCoMo file's turns the layer alone
would hold (LoCoMo is read to measure, never to train).

The layer (``learned.py``): a write's USE multilingual v3 vector against the suites' own, by
its ``K`` nearest attacks and ``K`` nearest ordinary texts, and by a class-balanced logistic
regression; the higher of the two, each against its own threshold. Attacks are the suites'
attack writes, except the kinds a text cannot show (a sensitive claim the model invented is
an ordinary sentence; only the conversation tells); the ordinary texts are the ordinary writes
and the user's messages before them. The vectors are centred, projected onto their ``DIMS``
leading principal directions and stored as int8. Each threshold is set without the scored
round: five folds by suite (by a hash of the suite's name, so a new suite moves no other
suite's fold) give out-of-fold scores, and the threshold is the higher of a quantile of the
ordinary writes' scores and one of every ordinary text's (``NEIGHBOUR_QUANTILES``,
``LOGISTIC_QUANTILES``; the regression's as shipped since round 18).

How the neighbours were chosen (trained before each of rounds 17-25, every write scored,
English too, against the firewall of the day's verdicts, by a session-40 script not kept; the
attacks added of 1,260, then the ordinary writes held of 1,260): the regression at its
quantiles, 23 and 5; 3 nearest, 51 and 2; 5 nearest, 59 and 2, and 77 and 4 at the
99th/99.8th; those projected onto 128 principal directions and stored as int8, 85 and 1 (74
and 4 with all 512 dimensions as int8); at the 98th/99.5th, 86 and 7; a 128-unit MLP, 46 and
2. The encoded attacks were left out of the neighbours after: a reversed note about tea was
held for being near them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from memvisor.agent.guards.learned import (
    WEIGHTS,
    LearnedModel,
    clean,
    dequantized,
    quantized,
    units,
)
from memvisor.agent.guards.scan import HELD
from memvisor.agent.memory.writes import WRITE_KINDS, strings_in

SUITES = Path(__file__).resolve().parents[1] / "tests" / "data"
NOT_IN_THE_TEXT = frozenset({"invented_sensitive", "ungrounded_sensitive"})
K = 5
# Rounds 48-52, each scored by a layer trained without it, on top of today's rules: 80, 96,
# 112 and 128 directions added 30, 29, 30 and 33 of the 700 attacks, and held 1, 1, 1 and 0
# more of the 700 ordinary writes (session 56, choosing the file's size: 128 stays).
DIMS = 128
FOLDS = 5
L2 = 1e-3
STEPS = 500
RATE = 0.05
Quantiles = tuple[float, float]  # of the ordinary writes' out-of-fold scores, of all ordinary
NEIGHBOUR_QUANTILES: Quantiles = (0.99, 0.998)
LOGISTIC_QUANTILES: Quantiles = (0.995, 0.999)
# Added to the threshold for words the user wrote themselves.
MARGIN_USER_WORDS = 1.0
USER_WORDS = ("user_explicit", "user_implied", "user_confirmed", "imported")
RETRAIN = "python -m memvisor.evals.train_firewall_classifier"


def suite_files(folder: Path = SUITES) -> list[Path]:
    """Every red-team suite and every blind round (``blind/round*.jsonl``): a round is blind
    only until it is scanned and fitted; after that it is the newest and most varied data."""
    return sorted(folder.glob("redteam*.jsonl")) + sorted((folder / "blind").glob("round*.jsonl"))


def suite_digests(files: Sequence[Path]) -> dict[str, str]:
    return {f.name: hashlib.sha256(f.read_bytes()).hexdigest() for f in files}


def round_of(path: Path) -> int:
    """A suite's round (``redteam_round13``, ``round47``; the suites before round 4 count as
    0)."""
    name = path.stem.removeprefix("redteam_round").removeprefix("round")
    return int(name) if name.isdigit() else 0


def stored_text(entry: dict[str, Any]) -> str:
    kind = WRITE_KINDS[entry["tool"]]
    fields = (strings_in(entry["arguments"].get(f)) for f in kind.stored_text)
    return "\n".join(s for texts in fields for s in texts if s)


Examples = tuple[list[str], np.ndarray, list[str], np.ndarray, np.ndarray]


def examples(files: Sequence[Path]) -> Examples:
    """Texts, labels (1 attack), the suite each came from, which are suite writes (the rest
    are the user's messages before an ordinary write), and which are encoded attacks."""
    texts: list[str] = []
    labels: list[int] = []
    suites: list[str] = []
    is_write: list[bool] = []
    encoded: list[bool] = []
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
            encoded.append(attack and entry["category"] == "encoded")
            if attack:
                continue
            for message in entry.get("context", []):
                if message["role"] == "user" and message["content"].strip():
                    texts.append(message["content"])
                    labels.append(0)
                    suites.append(path.name)
                    is_write.append(False)
                    encoded.append(False)
    return texts, np.array(labels, dtype=float), suites, np.array(is_write), np.array(encoded)


def fit(whole: np.ndarray, y: np.ndarray, encoded: np.ndarray) -> LearnedModel:
    """The layer from these texts' vectors (labels 1 for attacks): their mean, their leading
    principal directions, each text projected as it is stored (int8), and the regression.
    The neighbours leave out the encoded attacks: what a base64 or reversed attack shares
    with a base64 or reversed shopping list is its form (the decoders read its meaning)."""
    mean = whole.mean(axis=0)
    _, _, directions = np.linalg.svd(whole - mean, full_matrices=False)
    weights, bias = fit_logistic(whole, y)
    model = LearnedModel(
        mean=mean.astype(np.float32),
        # float16 as stored (half the bytes), and as trained: the thresholds read it so
        projection=directions[:DIMS].T.astype(np.float16).astype(np.float32),
        attacks=np.zeros((0, DIMS), np.float32),
        ordinary=np.zeros((0, DIMS), np.float32),
        k=K,
        weights=weights.astype(np.float32),
        bias=bias,
        threshold=0.0,
        margin_user_words=MARGIN_USER_WORDS,
        embedder="",
        trained_on={},
    )
    stored = quantized(model.project(whole))
    return replace(
        model,
        attacks=dequantized(stored[(y == 1) & ~encoded]),
        # A text twice (a message several suites' contexts repeat) is one neighbour:
        # counted twice, it filled two of the ``K`` nearest (blind, rounds 48-52, each
        # trained without it: the same 33 attacks added, one ordinary write fewer held).
        ordinary=dequantized(np.unique(stored[y == 0], axis=0)),
    )


def fit_logistic(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
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

    def scores(self, model: LearnedModel) -> np.ndarray:
        """Each text's highest score over its units (what ``LearnedDetector.best`` reads)."""
        return self.per_text(model.scores(self.vectors))

    def per_text(self, per_unit: np.ndarray) -> np.ndarray:
        out = np.full(self.owner.max() + 1, -np.inf)
        np.maximum.at(out, self.owner, per_unit)
        return out

    def held_out(self, score: Callable[[np.ndarray], np.ndarray], texts: np.ndarray) -> np.ndarray:
        """The chosen texts' (a mask) highest scores, scoring only their units."""
        units = texts[self.owner]
        per_unit = np.full(len(self.vectors), -np.inf)
        per_unit[units] = score(self.vectors[units])
        return self.per_text(per_unit)[texts]


def fold_of(suite: str) -> int:
    return int(hashlib.sha256(suite.encode()).hexdigest(), 16) % FOLDS


def thresholds(
    scorer: Scorer, y: np.ndarray, suites: list[str], is_write: np.ndarray, encoded: np.ndarray
) -> tuple[float, float]:
    """The neighbours' and the regression's thresholds, from out-of-fold scores (folds by
    suite), never the scored round's."""
    fold = np.array([fold_of(s) for s in suites])
    neighbours, logistic = np.zeros(len(y)), np.zeros(len(y))
    for k in range(FOLDS):
        model = fit(scorer.whole[fold != k], y[fold != k], encoded[fold != k])
        held_out = fold == k
        neighbours[held_out] = scorer.held_out(model.neighbour_scores, held_out)
        logistic[held_out] = scorer.held_out(model.logistic_scores, held_out)
    return (
        _cut(neighbours, y, is_write, NEIGHBOUR_QUANTILES),
        _cut(logistic, y, is_write, LOGISTIC_QUANTILES),
    )


def _cut(oof: np.ndarray, y: np.ndarray, is_write: np.ndarray, quantiles: Quantiles) -> float:
    """The higher of a quantile of the ordinary writes' scores and one of every ordinary
    text's (the user's messages too)."""
    ordinary, negative = oof[(y == 0) & is_write], oof[y == 0]
    return float(max(np.quantile(ordinary, quantiles[0]), np.quantile(negative, quantiles[1])))


def train(files: Sequence[Path], embed: Callable[[list[str]], np.ndarray]) -> LearnedModel:
    texts, y, suites, is_write, encoded = examples(files)
    scorer = Scorer(embed, texts)
    neighbour_cut, logistic_cut = thresholds(scorer, y, suites, is_write, encoded)
    model = fit(scorer.whole, y, encoded)
    return replace(
        model,
        threshold=round(neighbour_cut, 4),
        bias=round(model.bias - logistic_cut + neighbour_cut, 6),  # read against one threshold
        trained_on=suite_digests(files),
    )


def _embedder() -> Any:
    from memvisor.storage.multilingual import USEMultilingualEmbedder

    return USEMultilingualEmbedder()


def write_weights(path: Path = WEIGHTS) -> LearnedModel:
    embedder = _embedder()
    model = replace(train(suite_files(), embedder.embed), embedder=embedder.model_id)
    meta = {
        "embedder": model.embedder,
        "k": model.k,
        "bias": model.bias,
        "threshold": model.threshold,
        "margin_user_words": model.margin_user_words,
        "trained_on": model.trained_on,
    }
    with path.open("wb") as out:  # the same arrays give the same bytes
        np.savez_compressed(
            out,
            mean=model.mean,
            projection=model.projection.astype(np.float16),
            attacks=quantized(model.attacks),
            ordinary=quantized(model.ordinary),
            weights=model.weights,
            meta=np.array(json.dumps(meta, sort_keys=True)),
        )
    return model


def blind(round_: int, baseline: Path, locomo: Path | None) -> dict[str, Any]:
    """Round ``round_`` scored by a layer trained only on the suites written before it."""
    from memvisor.agent.guards import Firewall, FirewallConfig, WriteProposal
    from memvisor.agent.guards.semantic import unread

    files = suite_files()
    scored = next(f for f in files if round_of(f) == round_)
    embedder = _embedder()
    model = train([f for f in files if round_of(f) < round_], embedder.embed)
    cut = model.threshold
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
        score = Scorer(embedder.embed, [text]).scores(model)[0]
        claim = WRITE_KINDS[entry["tool"]].claim
        # the firewall reads only writes the English step cannot (``semantic.unread``)
        flagged = bool(
            claim and unread(text) and score >= cut + (MARGIN_USER_WORDS if own else 0.0)
        )
        held = before[str(entry["id"])]
        row = counts[entry["expect"]]
        row[0] += 1
        row[1] += held
        row[2] += held or flagged
        if flagged and not held:
            added.append({k: str(entry.get(k, "")) for k in ("id", "expect", "category", "lang")})
    report: dict[str, Any] = {
        "round": round_,
        "trained_on": sorted(model.trained_on),
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
        s = Scorer(embedder.embed, turns).scores(model)
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
            f"wrote {WEIGHTS}: {len(model.attacks)} attacks, {len(model.ordinary)} ordinary "
            f"texts, threshold {model.threshold}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
