"""Topic switches: is a new user message a clear change of subject?

Clearing task state on a false switch loses the order the user is talking about, while missing
a switch only leaves a few stale slots, so the tracker stays conservative. A message is never a
switch when it is very short ("ok", "谢谢"), refers back ("has it shipped?", "那个订单"), or
names an identifier already in the topic ("order 77310"). Otherwise a switch needs either

- a cue ("changing the subject", "换个话题"; weak ones like "by the way", "另外" also need a
  shift away from the topic or a change of intent, never the same intent, and a pronoun
  anywhere after them points back), or
- a strong shift plus a confident change of intent (order -> complaint, 退款 -> 登录).

The shift is the cosine between the message and the running topic (mean of the recent user
messages since the last switch). MiniLM was trained on English: Chinese sentences all land
near each other (cos ~0.9), so CJK text is compared lexically (shared character bigrams and
words) and its intent read from keywords. Intents of Latin text come from small prototype
banks embedded like the firewall's semantic layer; with a non-semantic embedder (the hash
embedder of tests) keywords stand in.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from memvisor.paging.topic_text import (
    INTENT_PROTOTYPES,
    SNIPPET,
    find_cue,
    is_cjk,
    is_short,
    keyword_scores,
    lexical_overlap,
    refers_back,
    shared_identifiers,
)
from memvisor.storage.embedders import Embedder
from memvisor.storage.text import snippet

WINDOW = 6  # recent topic messages the running topic is the mean of
# Process-wide, like the firewall's banks: the prototypes are embedded once per model.
_BANKS: dict[str, tuple[list[str], np.ndarray]] = {}


@dataclass(frozen=True)
class TopicDecision:
    """Whether a message switches topic, and why (kept in the ``topic_switch`` event)."""

    switch: bool
    reason: str  # e.g. "cue", "intent", "short", "refers_back", "same_entity", "no_shift"
    signal: str | None = None  # for a switch: "cue" or "intent"
    cue: str | None = None
    similarity: float | None = None
    intent_before: str | None = None
    intent_after: str | None = None
    previous_topic: str = ""


@dataclass
class _Topic:
    first: str = ""
    texts: deque[str] = field(default_factory=lambda: deque(maxlen=WINDOW))
    vectors: deque[np.ndarray] = field(default_factory=lambda: deque(maxlen=WINDOW))


class TopicTracker:
    """``step(message)`` decides and moves the running topic; ``check`` only decides.

    ``embedder`` None compares words only. ``semantic`` None trusts any embedder but the
    hash one to carry meaning (prototype intents, cosine shift for Latin text).
    """

    def __init__(
        self,
        *,
        embedder: Embedder | None = None,
        semantic: bool | None = None,
        threshold: float = 0.25,
        strong_threshold: float | None = None,
        cue_ceiling: float = 0.5,
        lexical_threshold: float = 0.2,
        intent_floor: float = 0.3,
        intent_margin: float = 0.04,
    ) -> None:
        self.embedder = embedder
        self.semantic = (
            embedder is not None and not embedder.model_id.startswith("hash")
            if semantic is None
            else semantic and embedder is not None
        )
        self.threshold = threshold
        # A strong shift (no cue needed, with a change of intent) sits below the plain one.
        self.strong_threshold = threshold - 0.1 if strong_threshold is None else strong_threshold
        self.cue_ceiling = cue_ceiling
        self.lexical_threshold = lexical_threshold
        self.intent_floor = intent_floor
        self.intent_margin = intent_margin
        self._topic = _Topic()
        self._cache: tuple[str, np.ndarray] | None = None

    # -- the running topic --

    @property
    def label(self) -> str:
        """The topic's first message, shortened: what the topic was about."""
        return snippet(self._topic.first, SNIPPET)

    def restore(self, messages: Sequence[str]) -> None:
        """Rebuild the running topic from its user messages, oldest first (after a restart)."""
        self._topic = _Topic()
        kept = [m for m in messages if m.strip()]
        if not kept:
            return
        self._topic.first = kept[0]
        recent = [m for m in kept if not is_short(m)][-WINDOW:]
        vectors = self._embed(recent) if self.semantic else None
        for i, text in enumerate(recent):
            self._topic.texts.append(text)
            if vectors is not None:
                self._topic.vectors.append(vectors[i])

    def step(self, message: str) -> TopicDecision:
        decision = self.check(message)
        self.observe(message, decision)
        return decision

    def observe(self, message: str, decision: TopicDecision) -> None:
        """Move the running topic: a switch starts a new one; small talk does not count."""
        if decision.switch or not self._topic.first:
            self._topic = _Topic(first=message)
        if is_short(message):
            return
        self._topic.texts.append(message)
        if self.semantic:
            self._topic.vectors.append(self._vector(message))

    # -- deciding --

    def check(self, message: str) -> TopicDecision:
        """Decide without moving the topic."""
        previous = self.label
        if not self._topic.first:
            return TopicDecision(False, "first_message")
        if is_short(message):
            return TopicDecision(False, "short", previous_topic=previous)
        cue, strong, rest = find_cue(message)
        # A weak cue ("also", "另外") adds a point; a pronoun after it points back anywhere.
        if refers_back(rest, anywhere=bool(cue) and not strong):
            return TopicDecision(False, "refers_back", cue=cue, previous_topic=previous)
        if shared_identifiers(message, list(self._topic.texts) + [self._topic.first]):
            return TopicDecision(False, "same_entity", cue=cue, previous_topic=previous)
        if not self._topic.texts:  # only acknowledgements so far: nothing to shift from
            return TopicDecision(False, "no_topic", cue=cue, previous_topic=previous)
        similarity, lexical = self._similarity(message)
        before, after, changed = self._intents(message, lexical)
        kept = TopicDecision(
            False,
            "no_shift",
            cue=cue,
            similarity=round(similarity, 4),
            intent_before=before,
            intent_after=after,
            previous_topic=previous,
        )
        low = self.lexical_threshold if lexical else self.threshold
        strong_low = self.lexical_threshold / 4 if lexical else self.strong_threshold
        if cue and similarity < self.cue_ceiling:
            # A strong cue says it outright; a weak one needs the shift or the intent to agree.
            same = before is not None and before == after
            if strong or (not same and (similarity < low or changed)):
                return replace(kept, switch=True, reason="cue", signal="cue")
        if similarity < strong_low and changed:
            return replace(kept, switch=True, reason="intent", signal="intent")
        return kept

    def _similarity(self, message: str) -> tuple[float, bool]:
        """(similarity to the running topic, whether it was measured on words)."""
        if not self.semantic or is_cjk(message) or not self._topic.vectors:
            return lexical_overlap(message, self._topic.texts), True
        topic = np.mean(np.stack(list(self._topic.vectors)), axis=0)
        topic /= max(float(np.linalg.norm(topic)), 1e-12)
        return float(self._vector(message) @ topic), False

    def _intents(self, message: str, lexical: bool) -> tuple[str | None, str | None, bool]:
        """(topic intent, message intent, whether the intent clearly changed)."""
        if lexical or self.embedder is None:
            topic_scores = keyword_scores(" ".join(self._topic.texts))
            message_scores = keyword_scores(message)
            floor, margin = 1.0, 1.0  # keyword hits: one more than the runner-up
        else:
            labels, bank = _bank(self.embedder)
            topic = np.mean(np.stack(list(self._topic.vectors)), axis=0)
            topic /= max(float(np.linalg.norm(topic)), 1e-12)
            topic_scores = _per_intent(labels, bank @ topic)
            message_scores = _per_intent(labels, bank @ self._vector(message))
            floor, margin = self.intent_floor, self.intent_margin
        before, after = _top(topic_scores), _top(message_scores)
        if before is None or after is None or before == after:
            return before, after, False
        ranked = sorted(message_scores.values(), reverse=True)
        confident = ranked[0] >= floor and ranked[0] - ranked[1] >= margin
        # The topic is not about the message's intent: it scores clearly below the topic's own.
        away = topic_scores[after] <= topic_scores[before] - margin
        return before, after, confident and away

    def _vector(self, text: str) -> np.ndarray:
        if self._cache is not None and self._cache[0] == text:
            return self._cache[1]
        vector = self._embed([text])[0]
        self._cache = (text, vector)
        return vector

    def _embed(self, texts: list[str]) -> np.ndarray:
        assert self.embedder is not None
        return np.asarray(self.embedder.embed(texts), dtype=np.float32)


# -- the parts, usable on their own --


def _per_intent(labels: list[str], sims: np.ndarray) -> dict[str, float]:
    best: dict[str, float] = {}
    for label, sim in zip(labels, sims, strict=True):
        best[label] = max(best.get(label, -1.0), float(sim))
    return best


def _top(scores: dict[str, float]) -> str | None:
    label = max(scores, key=lambda k: scores[k])
    return label if scores[label] > 0 else None


def _bank(embedder: Embedder) -> tuple[list[str], np.ndarray]:
    bank = _BANKS.get(embedder.model_id)
    if bank is None:
        labels = [label for label, texts in INTENT_PROTOTYPES.items() for _ in texts]
        texts = [text for group in INTENT_PROTOTYPES.values() for text in group]
        bank = _BANKS[embedder.model_id] = (
            labels,
            np.asarray(embedder.embed(texts), dtype=np.float32),
        )
    return bank
