"""Where a proposed write's content came from: the user's words, a tool result, or the model.

Content is reduced to terms (stemmed words, CJK bigrams, numbers with CJK numerals folded,
dates as month-day keys so "2026-07-10" matches "July 10"); a source *supports* the content when
it contains at least ``threshold`` of those terms. Support by the user's latest message makes a
write ``user_explicit``, by earlier user messages in the window ``user_implied``; support only by
tool results makes it ``tool_derived``; no support is ``model_inferred``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .regex_cache import compile_cached

Provenance = str  # user_explicit | user_implied | model_inferred | tool_derived | imported

_WORD = compile_cached(r"[^\W_]+(?:[-:./'’][^\W_]+)*")
_CJK = compile_cached(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+")
_STOP_WORDS = """\
a an the and or but of to in on at for with by from as is are was were be been being am
i me my mine we our you your he she his her it its they them their this that these those
there here so than then too very just also not no yes do does did done have has had
having will would can could should shall may might must about into over under up down
out off again once all any each both few more most other some such only own same what
which who whom whose when where why how if because while until please ok okay hi hello
hey thanks thank oh ah um just really user users standing preference preferences note
notes s t 的 了 是 我 你 他 她 它 们 在 和 与 也 就 都 要 会 这 那 一 个 吗 呢 吧 啊 哦 请"""
_STOP = frozenset(_STOP_WORDS.split())
CJK_STOP = frozenset("的了是我你他她它们在和与也就都要会这那一个吗呢吧啊哦请")
_NUMBERS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
)
_NUMBER_WORDS = {w: str(i) for i, w in enumerate(_NUMBERS.split())}
_CJK_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"两": 2, "兩": 2}
_CJK_NUMBER = compile_cached(r"[零一二两兩三四五六七八九十]+")
_MONTH_NAMES = "jan feb mar apr may jun jul aug sep oct nov dec"
_MONTHS = {m: i + 1 for i, m in enumerate(_MONTH_NAMES.split())}
_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DATES = (
    (compile_cached(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b"), 2, 3),
    (compile_cached(rf"\b{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", re.I), 1, 2),
    (compile_cached(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}", re.I), 2, 1),
    (compile_cached(r"(\d{1,2})\s*月\s*(\d{1,2})\s*[日号號]"), 1, 2),
)

_CORRECTION = compile_cached(
    r"\b(actually|in fact|correction|to correct|i meant|i mean|not anymore|no longer|any ?more|"
    r"instead|now|these days|moved|switched|changed|started|stopped|new|not|wrong|mistake|"
    r"scratch that|no wait|update|turned|used to)\b|不对|不對|其实|其實|实际上|實際上|"
    r"更正|纠正|糾正|改成|改为|改為|换成|換成|换了|換了|搬到|搬去|现在|現在|已经|已經|"
    r"不再|不是|错了|錯了|应该是|應該是|新的|刚换|剛換|以前",
    re.IGNORECASE,
)
_AFFIRMATION = compile_cached(
    r"^\s*(yes|yeah|yep|yup|correct|right|that'?s right|exactly|confirm(ed)?|sure|please do|do it|"
    r"go ahead|对|對|是的|没错|沒錯|确认|確認|好的)\b",
    re.IGNORECASE,
)


def _stem(word: str) -> str:
    word = word.replace("’", "'")
    if word.endswith("'s"):
        word = word[:-2]
    if word in _NUMBER_WORDS:
        return _NUMBER_WORDS[word]
    for suffix in ("ies", "ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            if suffix == "es" and not word[:-2].endswith(("s", "x", "ch", "sh")):
                suffix = "s"
            if suffix == "s" and word.endswith("ss"):
                break
            word = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
            break
    return word.rstrip("e") or word


def _cjk_number(run: str) -> str | None:
    if "十" not in run:
        digits = [_CJK_DIGITS.get(c) for c in run]
        return "".join(str(d) for d in digits) if None not in digits else None
    tens, _, ones = run.partition("十")
    if len(tens) > 1 or len(ones) > 1:
        return None
    return str(_CJK_DIGITS.get(tens, 1) * 10 + _CJK_DIGITS.get(ones, 0))


def terms(text: str) -> set[str]:
    """The comparable content of a text."""
    text = unicodedata.normalize("NFKC", text).lower()
    out: set[str] = {f"date:{key}" for key in _date_keys(text)}
    # A date is its month-day key only, so "2026-07-10" and "July 10" are the same term.
    text = _DATES[0][0].sub(" ", text)
    for word in _WORD.findall(text):
        if _CJK.search(word):
            for run in _CJK.findall(word):
                out.update(run[i : i + 2] for i in range(max(1, len(run) - 1)))
                out.update(n for n in map(_cjk_number, _CJK_NUMBER.findall(run)) if n)
            word = _CJK.sub(" ", word)
            out.update(_stem(w) for w in _WORD.findall(word) if w not in _STOP)
            continue
        if word in _STOP:
            continue
        parts = [p for p in re.split(r"[-/]", word) if len(p) > 1 and p not in _STOP]
        if len(parts) < 2 or re.search(r"\d", word):  # an identifier: "ord-58213" is one term
            out.add(_stem(word))
        if len(parts) > 1:  # ... that also matches "58213"; "normal-length" is two words
            out.update(_stem(p) for p in parts)
    return {t for t in out if t and t not in _STOP}


def _date_keys(text: str) -> set[str]:
    keys = set()
    for pattern, month_group, day_group in _DATES:
        for match in pattern.finditer(text):
            month, day = match.group(month_group), match.group(day_group)
            number = _MONTHS.get(month[:3].lower()) if not month.isdigit() else int(month)
            if number and 1 <= number <= 12 and day.isdigit() and 1 <= int(day) <= 31:
                keys.add(f"{number:02d}-{int(day):02d}")
    return keys


def coverage(content: set[str], source: set[str]) -> float:
    if not content:
        return 0.0
    hits = sum(1 for t in content if t in source)
    return hits / len(content)


@dataclass(frozen=True)
class Support:
    latest_user: float
    window_user: float
    tool: float
    assistant: float

    def provenance(self, threshold: float) -> Provenance:
        if self.latest_user >= threshold:
            return "user_explicit"
        if self.window_user >= threshold:
            return "user_implied"
        if self.tool >= threshold and self.tool > self.window_user:
            return "tool_derived"
        return "model_inferred"


def _texts(context: Sequence[dict[str, Any]], roles: tuple[str, ...]) -> list[str]:
    return [str(m.get("content", "")) for m in context if m.get("role") in roles]


def user_texts(context: Sequence[dict[str, Any]]) -> list[str]:
    """What the user said in ``context``, oldest first."""
    return _texts(context, ("user",))


def tool_texts(context: Sequence[dict[str, Any]]) -> list[str]:
    """What tools returned in ``context`` (pages, mails, files), oldest first."""
    return _texts(context, ("tool",))


def latest_user_message(context: Sequence[dict[str, Any]]) -> str:
    users = user_texts(context)
    return users[-1] if users else ""


def support(content: str, context: Sequence[dict[str, Any]]) -> Support:
    wanted = terms(content)

    def cov(texts: list[str]) -> float:
        return coverage(wanted, set().union(*(terms(t) for t in texts))) if texts else 0.0

    return Support(
        latest_user=cov([latest_user_message(context)]),
        window_user=cov(_texts(context, ("user",))),
        tool=cov(_texts(context, ("tool", "function", "ipython"))),
        assistant=cov(_texts(context, ("assistant",))),
    )


def is_correction(
    new_value: str, context: Sequence[dict[str, Any]], threshold: float
) -> str | None:
    """Why the user's latest message makes ``new_value`` a correction, or None.

    Either the message states the value with a change cue ("actually", "I moved", "不对"), or it
    affirms ("yes") an assistant question that named the value.
    """
    latest = latest_user_message(context)
    wanted = terms(new_value)
    if coverage(wanted, terms(latest)) >= threshold and _CORRECTION.search(latest):
        return "user_correction"
    if _AFFIRMATION.search(latest):
        asked = [str(m.get("content", "")) for m in context if m.get("role") == "assistant"]
        if asked and coverage(wanted, terms(asked[-1])) >= threshold:
            return "confirmed_by_user"
    return None
