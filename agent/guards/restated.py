"""A sensitive claim the user stated in other words or in another language.

``sensitive.grounded`` reads words: the claim's sensitive words must be in what the user said.
The model often notes in one language what the user said in another ("User is 8 weeks
pregnant" after "지금 임신 8주차예요"), or in its own words ("verdient €5.500" after "zit op
€5.500 bruto per maand"), and words miss both. This step reads meaning with the multilingual
embedder the learned layer uses (USE multilingual v3, ``storage/multilingual.py``). A claim is
restated when each of its sentences in a sensitive category is close to a sentence or a
clause the user *stated* (``sensitive.statements``: no questions, requests, hypotheticals or
what the user said of someone else, so a topic that only came up still grounds nothing), or
when each sensitive word it claims that the user did not say is close to a word the user
stated (a translation: "pregnant" / "임신", "VIH" / "HIV").

Measured on the red-team suites' model notes in a sensitive category (round 16 among them):
no invented claim read by the embedder reaches either bound, and most claims the user stated
in other words do. Text in a script the embedder was not trained on (Devanagari, Greek,
Hebrew, ...) embeds close to any other text in it: such a claim or statement is not read, and
the words decide.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from .provenance import terms
from .regex_cache import compile_cached
from .sensitive import (
    KOREAN_AND,
    KOREAN_BUT,
    categories,
    statements,
    unheard_words,
    without_subject,
)

# Cosine similarity at which a claim's sentence restates what the user stated, and a word
# translates one the user said (round 16's notes of claims stated in another language reach
# 0.6 and 0.7; the suites' invented claims stay under, their stated topics included).
SENTENCE_SIMILARITY = 0.6
WORD_SIMILARITY = 0.7
# A clause found sensitive by meaning this close, in a claim whose whole is this close to what
# the user stated, is theirs (round 21's c032: 0.59 and 0.80); an invented clause added to a
# stated one stays far on its own.
NEAR_SIMILARITY = 0.55
WHOLE_SIMILARITY = 0.7

# Where a sentence ends, in the scripts the embedder reads (``sensitive_meaning`` splits alike).
SENTENCE_BREAK = compile_cached(r"(?<=[.!?؟])\s+|(?<=[。！？])|[;；]\s*|\n+")
# Korean joins clauses with endings, not commas: "저 게이인데 부모님한테 …" ("I'm gay, but my
# parents …"), "-지만", "-는데", "-고", "-며".
_CLAUSE = compile_cached(rf"[,，、]\s*|(?:{KOREAN_BUT}|{KOREAN_AND})\s+(?=[\uac00-\ud7a3])")
_HAN_KANA = compile_cached(r"[\u3040-\u30ff\u3400-\u9fff]+")
_WORD = compile_cached(r"[^\W\d_]{2,}")
# Letters of the scripts USE multilingual v3 was trained on: Latin, Cyrillic, Arabic, Thai,
# CJK, kana and Hangul.
_READ_SCRIPTS = compile_cached(
    r"[A-Za-z\u00c0-\u024f\u1e00-\u1eff\u0400-\u04ff\u0600-\u06ff\u0e00-\u0e7f"
    r"\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]"
)


def restated(value: str, context: Sequence[dict[str, Any]], *, embedder: Any = None) -> bool:
    """Did the user state the sensitive claim ``value`` in other words or another language?"""
    said = statements(value, context)
    if not said.strip() or not _readable(value) or not _readable(said):
        return False
    embedder = embedder or _embedder()
    stated = _stated_units(said)
    claimed = [s for s in _parts(value, SENTENCE_BREAK) if categories(s)]
    if claimed and all(_sentence_restated(embedder, s, stated) for s in claimed):
        return True
    missing = unheard_words(value, said)
    if not missing:
        return False
    # A translation is written in another script ("pregnant" / "임신"); a word of the same
    # script that the lexical step did not match is another word, however many pieces of it
    # the embedder shares ("해고" / "해서").
    for word in missing:
        heard = [w for w in _stated_words(said) if _script(w) != _script(word)]
        if not heard or _closest(embedder, [word], heard)[0] < WORD_SIMILARITY:
            return False
    return True


# A rule the model noted is the user's restated when it is this close to a rule the user gave
# (round 17: "用户要求：每当提到要去跑步时，提醒其带上哮喘喷雾" after "每次我说要去跑步，你就提醒我
# 带上哮喘喷雾" is 0.64 whole, higher clause to clause; a rule the user never gave, beside a
# message on its topic, stays under 0.6).
RULE_SIMILARITY = 0.6


def rule_restated(rules: Sequence[str], user_rules: Sequence[str], *, embedder: Any = None) -> bool:
    """Is each of the model's harmless ``rules`` one of the ``user_rules`` (the rules the
    user's own messages set) in other words or another language?"""
    if not rules or not user_rules:
        return False
    texts = [*rules, *user_rules]
    if not all(_readable(t) for t in texts):
        return False
    stated = [*user_rules, *(c for r in user_rules for c in _parts(r, _CLAUSE))]
    embedder = embedder or _embedder()
    for i, rule in enumerate(rules):
        # the rule whole, or one of its clauses ("用户要求：…，提醒其带上…": the order itself)
        units = [rule, *(c for c in _parts(rule, _CLAUSE) if c != rule)]
        closest = _closest(embedder, units, stated).max()
        if closest >= RULE_SIMILARITY:
            continue
        # near the bound and saying it with the user's own words ("if I ever ask you to write
        # to my manager after 10pm, tell me to sleep on it", 0.59: ask, manager, after, sleep)
        if closest >= NEAR_RULE and any(
            len(terms(rule) & terms(said)) >= SHARED_TERMS for said in user_rules
        ):
            continue
        # "never keep their card numbers; if they paste one, remind them": a rule whose
        # pronoun stands for a noun of the rule before it is read with that rule, when it is
        # near the bound on its own
        if not (i and closest >= NEAR_RULE and _ANAPHOR.search(rule)):
            return False
        if _closest(embedder, [f"{rules[i - 1]}; {rule}"], stated)[0] < RULE_SIMILARITY:
            return False
    return True


# A rule near the bound (0.51 for the rule above, alone) may be read with the one before it,
# or holds when it shares this many terms with a rule of the user's.
NEAR_RULE = 0.5
SHARED_TERMS = 3
_ANAPHOR = compile_cached(
    r"\b(one|ones|it|this|that|these|those|l'un|l'une|uno de (ellos|ellas)|einen davon|"
    r"eins davon|один из них|одну из них)\b",
    re.IGNORECASE,
)


def note_restated(note: str, user_messages: Sequence[str], *, embedder: Any = None) -> bool:
    """Is every sentence of the model's ``note`` something the user said in their own
    messages (a sentence or a clause of one), in other words or another language? ("Prefers
    answers without 'see a doctor' disclaimers" of "stop adding 'consult a doctor'
    disclaimers to every answer, I'm a GP": 0.68.)"""
    sentences = _parts(note, SENTENCE_BREAK)
    stated = [unit for message in user_messages for unit in _stated_units(message)]
    if not sentences or not stated or not all(_readable(t) for t in [*sentences, *stated]):
        return False
    stated = list(dict.fromkeys(stated))
    embedder = embedder or _embedder()
    closest = _closest(embedder, sentences, stated)
    if closest.min() >= RULE_SIMILARITY:
        return True
    # a note's label and asides are the model's, not the user's: "사용자 규칙: 주식 관련 질문에는
    # 종목 추천을 하지 말 것 (본인이 충동 매수 성향이 있다고 함)" is read as its order alone too;
    # and so is its subject, which the user never says of themselves ("User filed for ..." of
    # "去年自己破産したんです")
    bare = [_bare(s) for s in sentences]
    claims = [_claim(s) for s in bare]
    closest = np.maximum(
        closest, _closest(embedder, [*bare, *claims], stated).reshape(2, -1).max(0)
    )
    return bool(closest.min() >= RULE_SIMILARITY)


# "User rule:", "사용자 규칙:", "用户偏好：": a short label the model puts before its note
_NOTE_LABEL = compile_cached(r"^\s*[^\W\d_][\w'’ -]{0,28}[:：]\s*")


def _bare(sentence: str) -> str:
    """A note's sentence without its label and its asides (itself if nothing is left)."""
    return _ASIDE.sub("", _NOTE_LABEL.sub("", sentence)).strip() or sentence


def stated_by_meaning(
    sentence: str, context: Sequence[dict[str, Any]], *, whole: str | None = None
) -> bool:
    """Is a sentence found sensitive by meaning (``sensitive_meaning``) close to something the
    user stated, a sentence or a clause of it, in any language? A clause just under the bound
    is when the ``whole`` claim it is part of is close ("food must be gluten-free" of "has
    coeliac disease; food must be gluten-free", as the user said both)."""
    said = statements(sentence, context)
    if not said.strip() or not _readable(sentence) or not _readable(said):
        return False
    stated = _stated_units(said)
    texts = [_claim(sentence)]
    if whole and whole.strip() != sentence.strip():
        texts.append(_claim(whole))
    closest = _closest(_embedder(), texts, stated)
    if closest[0] >= SENTENCE_SIMILARITY:
        return True
    return bool(
        len(closest) > 1 and closest[0] >= NEAR_SIMILARITY and closest[1] >= WHOLE_SIMILARITY
    )


def _claim(text: str) -> str:
    """What ``text`` says of the user, without an aside: "ユーザーはHIV陽性（6年間…）" reads
    "HIV陽性"."""
    return _PARTICLE.sub("", _ASIDE.sub("", without_subject(text))).strip() or text


_ASIDE = compile_cached(r"(?:^|(?<=\S))\s*[（(][^()（）]*[)）]")  # innermost; each run read once
# the topic or subject particle left behind the subject: "ユーザーは", "사용자는", "用户是"
_PARTICLE = compile_cached(r"^\s*(は|が|も|는|은|이|가|是|—|-|:|：)\s*")


def _sentence_restated(embedder: Any, sentence: str, stated: list[str]) -> bool:
    """Is a sentence of the claim, or else each of its clauses in a sensitive category, close
    to something the user stated?"""
    clauses = [without_subject(c) for c in _parts(sentence, _CLAUSE) if categories(c)]
    units = [without_subject(sentence), *clauses]
    said = as_said(sentence)
    closest = _closest(embedder, [*units, *([said] if said else [])], stated)
    first_person = closest[-1] if said else closest[0]
    clause_scores = closest[1 : len(units)]
    return bool(
        max(closest[0], first_person) >= SENTENCE_SIMILARITY
        or (clauses and clause_scores.min() >= SENTENCE_SIMILARITY)
    )


# An English claim's subject as the user says it of themselves: "User is gay" -> "I am gay".
_ENGLISH_SUBJECT = compile_cached(
    r"^\W*(?:the\s+)?user(?:(['’]s)\b|\s+(is|has|was|had|does|did)\b|\b)", re.IGNORECASE
)
_FIRST_PERSON_VERB = {
    "is": "I am",
    "has": "I have",
    "was": "I was",
    "had": "I had",
    "does": "I do",
    "did": "I did",
}


def as_said(claim: str) -> str:
    """An English claim about "the user" in the first person, as the user would say it in
    any language ("User is gay" is 0.45 from "나 게이야", "I am gay" 0.69); "" when it opens
    otherwise."""
    found = _ENGLISH_SUBJECT.match(claim)
    if found is None:
        return ""
    possessive, verb = found.groups()
    said = "My" if possessive else _FIRST_PERSON_VERB.get((verb or "").lower(), "I")
    return f"{said.strip()} {claim[found.end() :].strip()}".strip()


def _closest(embedder: Any, texts: list[str], candidates: list[str]) -> np.ndarray:
    """For each of ``texts``, its highest cosine similarity to one of ``candidates``."""
    vectors = embedder.embed([*texts, *candidates])
    return np.asarray((vectors[: len(texts)] @ vectors[len(texts) :].T).max(axis=1))


def _stated_units(said: str) -> list[str]:
    """What the user stated, each sentence and each clause of one."""
    stated = _parts(said, SENTENCE_BREAK)
    return stated + [c for s in stated for c in _parts(s, _CLAUSE) if c != s]


def _parts(text: str, boundary: re.Pattern[str]) -> list[str]:
    return [p.strip() for p in boundary.split(text) if len(p.strip()) > 1]


def _stated_words(said: str) -> list[str]:
    """The user's words, a run of Han or kana (written without spaces) as its pieces of two
    to four characters."""
    out: dict[str, None] = {}
    for word in _WORD.findall(said):
        runs = _HAN_KANA.findall(word)
        if not runs:
            out[word] = None
        for run in runs:
            out.update(
                dict.fromkeys(run[i : i + n] for n in (2, 3, 4) for i in range(len(run) - n + 1))
            )
            out[run] = None
    return list(out)


def _script(word: str) -> str:
    """The Unicode script of a word's first letter, as its name's first word ("LATIN",
    "HANGUL", "CJK")."""
    letter = next((c for c in word if c.isalpha()), None)
    return unicodedata.name(letter, "").split(" ")[0] if letter else ""


def _readable(text: str) -> bool:
    """Are most of ``text``'s letters in a script the embedder was trained on?"""
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and sum(bool(_READ_SCRIPTS.match(c)) for c in letters) >= 0.9 * len(
        letters
    )


@lru_cache(maxsize=1)
def _embedder() -> Any:
    from memvisor.storage.multilingual import USEMultilingualEmbedder

    return USEMultilingualEmbedder()
