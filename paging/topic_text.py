"""Text signals of a topic switch: cues, references back, identifiers, word overlap,
and intent keywords and prototypes (English and Chinese). ``topics`` weighs them."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

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
# Emails first, so "maya.k@example.com" is one identifier (the code alternative took "maya"
# and left ".k@example.com"). Each alternative starts only where its character run starts
# (the lookbehinds): from every position of a run without '@' the email alternative was
# quadratic (32k CJK characters took 16 s).
_IDENTIFIER = re.compile(
    r"(?<![\w.+-])[\w.+-]+@[\w-]+\.[\w.]+"
    r"|(?<![A-Za-z0-9-])#?([A-Za-z0-9][A-Za-z0-9-]{2,})(?![A-Za-z0-9-])"
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


def is_short(message: str) -> bool:
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
