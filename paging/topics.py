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

import math
import re
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from storage.embedders import Embedder

WINDOW = 6  # recent topic messages the running topic is the mean of
SNIPPET = 160


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# Intent prototypes: generic requests of each kind, embedded once per embedder.
INTENT_PROTOTYPES: dict[str, tuple[str, ...]] = {
    "order": (
        "Where is my order?",
        "My package has not arrived yet.",
        "When will my delivery be shipped?",
        "Can you track my parcel for me?",
        "I want to change the delivery address of my order.",
        "I'd like to cancel my order before it is sent.",
        "Do you deliver to my country?",
        "The courier has not delivered my package.",
    ),
    "complaint": (
        "I want to file a complaint.",
        "Your customer service was rude to me.",
        "I am very unhappy with the service I received.",
        "This is unacceptable, I want to speak to a manager.",
        "The staff were unprofessional and I am angry.",
        "I want to complain about a terrible experience.",
    ),
    "billing": (
        "I was charged twice.",
        "I want a refund.",
        "There is a wrong charge on my invoice.",
        "My payment did not go through.",
        "How do I get my money back?",
        "Why is my bill higher this month?",
        "Stop billing me for the subscription.",
    ),
    "account": (
        "I can't log in to my account.",
        "How do I reset my password?",
        "My account has been locked.",
        "I want to change the email address of my account.",
        "The verification code never arrives.",
        "I think someone else got into my account.",
    ),
    "technical": (
        "The app keeps crashing.",
        "I get an error message when I open the page.",
        "The website does not load.",
        "My device won't connect to the network.",
        "The software stopped working after the update.",
        "The machine shows an error code and does not work.",
    ),
    "scheduling": (
        "Can I book an appointment for Tuesday?",
        "I need to reschedule my meeting.",
        "What times are available next week?",
        "Please move my booking to Friday afternoon.",
        "Cancel my appointment on Thursday.",
        "Set up a call with the team tomorrow at 3pm.",
    ),
    "personal": (
        "My name is Anna and I live in Berlin.",
        "I have two children and a cat.",
        "I like hiking and cooking in my free time.",
        "My birthday is in June.",
        "I am vegetarian.",
        "I work as a nurse.",
    ),
    "small_talk": (
        "Hi, how are you?",
        "Good morning!",
        "What's the weather like today?",
        "Tell me a joke.",
        "I just got back from holiday.",
        "Have a nice weekend.",
    ),
}
# Keyword stand-ins for the prototypes (CJK text, or an embedder without meaning).
INTENT_KEYWORDS: dict[str, tuple[str, ...]] = {
    label: _words(words)
    for label, words in {
        "order": "订单 快递 物流 发货 包裹 收货 签收 配送 送达 寄 运单 "
        "order package parcel delivery deliver shipping shipped courier tracking",
        "complaint": "投诉 态度 差劲 太差 不满 生气 差评 气死 "
        "complain complaint rude unacceptable angry manager unprofessional",
        "billing": "退款 扣费 扣款 扣了 账单 发票 付款 支付 会员费 收费 到账 续费 多扣 退钱 "
        "refund charged charge invoice bill billing payment subscription fee money",
        "account": "账号 账户 登录 登陆 密码 验证码 手机号 绑定 注册 被盗 "
        "account login log password locked verification email hacked",
        "technical": "闪退 报错 错误 崩溃 打不开 连不上 卡顿 卡纸 故障 不能用 死机 充不进电 蓝屏 "
        "crash crashes error bug broken connect update loading vpn wifi",
        "scheduling": "预约 改期 改到 会议 安排 几点 时间 订一张 车票 机票 "
        "appointment reschedule schedule booking book meeting calendar",
        "personal": "我叫 我住 孩子 生日 爱好 我的名字 kids children birthday hobby vegetarian",
        "small_talk": "你好 天气 早上好 晚安 哈哈 跑步 周末愉快 hello weather joke weekend",
    }.items()
}

# Cues are read at the opening of a message, after greetings and acknowledgements.
_LEAD = (
    r"^[\s\W]*(?:(?:ok(?:ay)?|thanks|thank you|great|cool|alright|right|so|oh|hi|hey|hmm|"
    r"actually|wait)\W+)*"
)
_STRONG_EN = (
    r"(?:changing|change|to change) (?:of |the )?(?:subject|topic)",
    r"on (?:another|a different|an unrelated|a separate|a totally different) "
    r"(?:note|topic|subject|matter)",
    r"(?:a |one |on a )?(?:different|separate|unrelated|new) "
    r"(?:question|topic|subject|matter|issue)",
    r"another (?:question|topic|subject|matter)",
    r"(?:completely |totally |entirely )?unrelated",
    r"switching (?:gears|topics?|subjects?)",
    r"(?:let me ask|can i ask|i want to ask|i have) (?:you )?(?:about )?"
    r"something (?:else|different)",
    r"something (?:else|(?:completely |totally |entirely )?different)",
    r"never ?mind(?: (?:that|this|about (?:that|this|it|the \w+)))?",
    r"forget (?:about )?(?:that|this|it|the \w+)(?: for now)?",
    r"moving on",
)
# One-word markers count only when set off by punctuation: "Also, ..." opens a new point,
# "Also mention ..." adds to the current task.
_WEAK_EN = (
    r"by the way",
    r"(?:btw|also|anyway|anyways|besides|separately)(?=\s*[,:;.!—–-])",
    r"one more thing",
    r"another thing",
    r"while i have you",
)
_STRONG_ZH = (
    "换个话题|换一个话题|换个问题|转换话题|说点别的|聊点别的|问点别的|题外话|另一个问题|"
    "另外一个问题|别的问题|不说这个了|先不说这个|先不管这个|不聊这个了|说个别的"
)
_WEAK_ZH = "顺便问一下|顺便问下|顺便说一下|顺便|还有一件事|还有个事|还有个问题|另外|对了"
_CUE_TAIL = r"[\s,，.。:：;；!！?？—–-]*(?:(?:but|though)\b[\s,]*)?"


def _cue_pattern(english: tuple[str, ...], chinese: str) -> re.Pattern[str]:
    latin = _LEAD + "(?P<cue>" + "|".join(english) + r")\b" + _CUE_TAIL
    return re.compile(latin + r"|^[\s\W]*(?P<zh>" + chinese + ")" + _CUE_TAIL, re.IGNORECASE)


_STRONG_CUE = _cue_pattern(_STRONG_EN, _STRONG_ZH)
_WEAK_CUE = _cue_pattern(_WEAK_EN, _WEAK_ZH)

# Referring back: a pronoun at the opening, a demonstrative before a noun, a continuation.
_OPENING_PRONOUN = re.compile(
    r"^\W*(?:\w+\W+){0,2}?(?:it|its|that|this|they|them|those|these|he|she|him|her)\b",
    re.IGNORECASE,
)
_DUMMY_IT = re.compile(
    r"^\W*(?:is|would|will|was) it (?:possible|ok|okay|true|normal|allowed)\b"
    r"|^\W*it(?:'s| is) (?:possible|raining|time|late|early|cold|hot|nice)\b"
    r"|^\W*(?:this|that) (?:morning|afternoon|evening|week|weekend|month|year|time)\b",
    re.IGNORECASE,
)
_ANY_PRONOUN = re.compile(r"\b(?:it|its|they|them|he|she|him)\b", re.IGNORECASE)
_NOT_A_NOUN = _words(
    "a an the is was are were 's it i you we they he she would will can could should might "
    "may must has have had does did do to of in on at for with by and or but if so when "
    "month week year morning afternoon evening night time weekend way much many"
)
_DEMONSTRATIVE = re.compile(
    r"\b(?:this|that|these|those|the same)\s+(?!(?:" + "|".join(_NOT_A_NOUN) + r")\b)[a-z]"
    r"|\b(?:as i said|like i said|as mentioned|same (?:thing|problem|issue|one))\b",
    re.IGNORECASE,
)
_CONTINUATION = re.compile(
    r"^\W*(?:and|but|plus|or)\b|^\W*(?:而且|并且|但是|可是|所以|那么)", re.IGNORECASE
)
_ZH_REFERENCE = re.compile(
    r"它|他|她|那个|那些|这些|这样|那样|这种|那种|刚才|上面|之前说的|同一个|这件事|那件事|该订单"
    r"|这个(?!月|星期|礼拜|周|季度|年)"
)
_ACK = re.compile(
    r"^[\s\W]*(?:(?:ok(?:ay)?|k|yes|yeah|yep|no|nope|sure|thanks?|thank you|thx|ty|great|cool|"
    r"nice|perfect|got it|i see|alright|right|fine|good|sounds good|that helps|好的?|好吧|谢谢|"
    r"多谢|嗯+|行|可以|对|是的?|没问题|明白了?|知道了|收到)[\s\W]*)+$",
    re.IGNORECASE,
)
_IDENTIFIER = re.compile(
    r"(?<![A-Za-z0-9-])#?([A-Za-z0-9][A-Za-z0-9-]{2,})(?![A-Za-z0-9-])"
    r"|[\w.+-]+@[\w-]+\.[\w.]+"
)
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*|\d+")
_CJK = re.compile(r"[\u3400-\u9fff]")
_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
_STOP_WORDS = frozenset(
    _words(
        "the a an and or but to of in on at for with by from is are was were be been am i you "
        "we my your our me it this that these those can could would will should do does did "
        "have has had not no yes please what when where why how which who there here just "
        "also so if about get got any some very really too still now then"
    )
)
_STOP_BIGRAMS = frozenset(
    _words(
        "我想 想要 一下 可以 什么 你们 我们 能不 不能 是不 不是 一个 我的 怎么 为什 么时 时候 "
        "还是 已经 就行 有没 没有 帮我 请问 问一 这个 那个 一直"
    )
)


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
        return _snippet(self._topic.first)

    def restore(self, messages: Sequence[str]) -> None:
        """Rebuild the running topic from its user messages, oldest first (after a restart)."""
        self._topic = _Topic()
        kept = [m for m in messages if m.strip()]
        if not kept:
            return
        self._topic.first = kept[0]
        recent = [m for m in kept if not _is_short(m)][-WINDOW:]
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
        if _is_short(message):
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
        if _is_short(message):
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


def find_cue(message: str) -> tuple[str | None, bool, str]:
    """(the cue phrase or None, whether it is a strong one, the message after it)."""
    for pattern, strong in ((_STRONG_CUE, True), (_WEAK_CUE, False)):
        match = pattern.match(message)
        if match:
            cue = (match.group("cue") or match.group("zh") or "").strip()
            return cue.lower(), strong, message[match.end() :]
    return None, False, message


def refers_back(text: str, *, anywhere: bool = False) -> bool:
    """Does the message lean on what was said before ("has it shipped?", "那个订单")?

    ``anywhere``: a pronoun anywhere counts, not only at the opening.
    """
    if _CONTINUATION.search(text) or _ZH_REFERENCE.search(text):
        return True
    if _DEMONSTRATIVE.search(text):
        return True
    if anywhere and _ANY_PRONOUN.search(_DUMMY_IT.sub(" ", text)):
        return True
    return bool(_OPENING_PRONOUN.search(text)) and not _DUMMY_IT.search(text)


def shared_identifiers(message: str, topic: Sequence[str]) -> set[str]:
    """Order numbers, codes and emails the message shares with the topic."""
    return _identifiers(message) & {i for text in topic for i in _identifiers(text)}


def is_cjk(text: str) -> bool:
    """At least a quarter CJK characters reads as Chinese (as the firewall decides)."""
    stripped = "".join(text.split())
    return bool(stripped) and len(_CJK.findall(stripped)) * 4 >= len(stripped)


def lexical_overlap(message: str, topic: Sequence[str]) -> float:
    """Share of the message's content features (CJK bigrams, words) already in the topic."""
    mine = _features(message)
    if not mine:
        return 1.0  # nothing to compare: not a shift
    seen = set().union(*(_features(t) for t in topic)) if topic else set()
    return len(mine & seen) / len(mine)


def keyword_scores(text: str) -> dict[str, float]:
    """Keyword hits per intent (the stand-in for prototypes on CJK text)."""
    lowered = text.lower()
    words = set(_LATIN_WORD.findall(lowered))
    scores = dict.fromkeys(INTENT_KEYWORDS, 0.0)
    for label, keywords in INTENT_KEYWORDS.items():
        for keyword in keywords:
            if _CJK.search(keyword) or " " in keyword:
                scores[label] += lowered.count(keyword)
            elif keyword in words:
                scores[label] += 1
    return scores


def _per_intent(labels: list[str], sims: np.ndarray) -> dict[str, float]:
    best: dict[str, float] = {}
    for label, sim in zip(labels, sims, strict=True):
        best[label] = max(best.get(label, -1.0), float(sim))
    return best


def _top(scores: dict[str, float]) -> str | None:
    label = max(scores, key=lambda k: scores[k])
    return label if scores[label] > 0 else None


def _is_short(message: str) -> bool:
    units = len(_LATIN_WORD.findall(message)) + math.ceil(len(_CJK.findall(message)) / 2)
    return units <= 3 or bool(_ACK.match(message))


def _identifiers(text: str) -> set[str]:
    found = set()
    for match in _IDENTIFIER.finditer(text):
        token = (match.group(1) or match.group(0)).lower()
        digits = sum(c.isdigit() for c in token)
        letters = sum(c.isalpha() for c in token)
        if "@" in token or digits >= 3 or (digits and letters and len(token) >= 4):
            found.add(token)
    return found


def _features(text: str) -> set[str]:
    lowered = text.lower()
    features = {w for w in _LATIN_WORD.findall(lowered) if len(w) >= 3 and w not in _STOP_WORDS}
    for run in _CJK_RUN.findall(lowered):
        features |= {run[i : i + 2] for i in range(len(run) - 1)} - _STOP_BIGRAMS
        if len(run) == 1:
            features.add(run)
    return features


def _snippet(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SNIPPET else text[: SNIPPET - 1] + "…"


# Process-wide, like the firewall's banks: the prototypes are embedded once per model.
_BANKS: dict[str, tuple[list[str], np.ndarray]] = {}


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
