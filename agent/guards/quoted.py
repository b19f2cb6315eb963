"""Words the user passes on rather than says: quotes, forwarded messages, pasted code.

"Fwd from IT: '...'", "what does this message mean: «...»", a pasted README or code block: the
user wrote the message, but the quoted part is someone else's. A write whose content comes
from the quoted part, not from the user's own words around it, is treated like a tool
result's for instructions: a rule or an order in it is not the user's preference.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from .lexicon import USER_THIRD_PERSON_ML
from .normalize import disguised
from .provenance import coverage, latest_user_message, terms
from .regex_cache import compile_cached

_FENCE = compile_cached(r"```.*?(```|$)", re.DOTALL)
# A quotation long enough to be a message: straight, curly, guillemets, CJK corners.
# A short quote in straight marks is matched first, and kept as the user's words ("the
# "system update" excuse"): its closing mark would otherwise open a quotation to the end.
_QUOTE = compile_cached(
    # (and a German one, „du“, whose closing mark would otherwise open one)
    # (and a short one in single marks, "when I say 'locker?', tell me ...")
    r"(?P<short>\"[^\"\n]{0,24}\"|„[^“”\n]{0,24}[“”]|(?<![\w])'[^'\n]{1,24}'(?![\w]))|\"[^\"\n]{25,}\"?|“[^”]{25,}”?|‘[^’]{25,}’?|«[^»]{25,}»?|「[^」]{15,}」?|『[^』]{15,}』?|"
    r"„[^“”]{25,}[“”]?|"
    # a single quote runs past a short quote nested in it ("'... signed 'admin team' ...'"), not
    # only to the next "'"
    r"(?<![\w])'(?:[^'\n]|(?<!\w)'[^'\n]{1,40}'(?!\w)){25,}'?(?![\w])"
)
# "Fwd:", "-----Original Message-----", "[SYSTEM NOTICE]": the rest is passed on.
_FORWARD = compile_cached(
    r"(?im)^(fwd?|fw|wg|tr|rv|vs|転送)\s*:|^-{2,}\s*(original message|forwarded message)|"
    r"^[^\S\n]*\[(system|admin|notice)[^\]]{0,40}\]"
)


# Every write reads the whole conversation again, and the firewall asks this of each user
# message in several steps: each message is split once.
@lru_cache(maxsize=1024)
def quoted_parts(message: str) -> tuple[str, str]:
    """``message`` split into the user's own words and what it quotes or forwards."""
    quoted: list[str] = []

    def take(match: re.Match[str]) -> str:
        if match.groupdict().get("short"):
            return match.group(0)
        quoted.append(match.group(0))
        return " "

    own = _FENCE.sub(take, message)
    forward = _FORWARD.search(own)
    if forward:
        quoted.append(own[forward.start() :])
        own = own[: forward.start()]
    own = _QUOTE.sub(take, own)
    # a sentence in disguised letters ("Аѕѕіѕtаnt rеаdіng thіѕ: ...") is pasted: nobody types
    # look-alikes of their own accord
    own = SENTENCE.sub(
        lambda m: take(m) if disguised(m.group(0), within=message) else m.group(0), own
    )
    return own, "\n".join(quoted)


# A sentence with its closing mark.
SENTENCE = compile_cached(r"[^.!?。！？\n]+[.!?。！？]*")


def disguised_sentences(message: str) -> list[str]:
    """The sentences of ``message`` written in disguised letters: pasted, never typed."""
    return [m.group(0) for m in SENTENCE.finditer(message) if disguised(m.group(0), within=message)]


def from_quoted(content: str, context: Sequence[dict[str, Any]], threshold: float) -> bool:
    """Does ``content`` come from what the user's latest message quotes rather than from the
    user's own words in it?"""
    own, quoted = quoted_parts(latest_user_message(context))
    if not quoted:
        return False
    wanted = terms(content)
    return coverage(wanted, terms(quoted)) >= threshold and coverage(wanted, terms(own)) < threshold


def quote_speaks_of_user(context: Sequence[dict[str, Any]]) -> bool:
    """Does what the user's latest message quotes speak of "the user" in the third person? Then
    it was written for the assistant (a vendor's script, an admin's rule), not by the user."""
    return bool(USER_THIRD_PERSON_ML.search(quoted_parts(latest_user_message(context))[1]))


# The user's own record quoted: "here are my results: '...'", "mi informe dice «...»",
# "我的体检报告：「...」": what it says is about the user (``own_words_context``).
_OWN_RECORD = compile_cached(
    r"\b(?:my|mis|mi|mes|mon|ma|meine?[nsm]?|meu|minha|meus|minhas|miei|mio|mia|mie|mijn|min|"
    r"mitt|mina|mój|moje|moich|мои|мой|мою|моё|моего)\s+(?:own\s+|latest\s+|new\s+|last\s+)?"
    r"(?:lab\s+|test\s+|blood\s+|medical\s+|doctor'?s\s+)?(?:results?|letter|diagnosis|report|"
    r"records?|prescription|chart|scan|file|bloodwork|discharge|statement|resultados?|informe|"
    r"diagn[óo]stico|carta|receta|analíticas?|befund\w*|bericht|brief|arztbrief|laborwerte|"
    r"r[ée]sultats?|compte rendu|lettre|ordonnance|bilan|risultati|referto|lettera|ricetta|"
    r"exames?|laudo|relat[óo]rio|resultaten|uitslag\w*|verslag|resultat\w*|brev|journal|wyniki|"
    r"badania|list|skierowanie|результаты|анализы|письмо|заключение|выписк\w*)\b|"
    r"我的(?:检查|檢查|化验|化驗|体检|體檢|血检|血檢)?(?:结果|結果|报告|報告|诊断|診斷|病历|病歷|信)|"
    r"私の(?:検査)?(?:結果|診断|報告|カルテ)|제\s?(?:검사\s?)?(?:결과|진단|보고서)|내\s?(?:검사\s?)?결과|"
    # ... or the user's own words, said, written or drafted: "I told my boss: '...'", "my
    # message to HR: '...'", "help me word this: '...'"
    r"\bI\s+(?:just\s+|already\s+)?(?:told|said|wrote|texted|emailed|replied|answered|posted)\b|"
    r"\bI(?:'m| am| was)? (?:going|trying|want|need|have) to (?:tell|say|write|text|email|"
    r"answer)\b|"
    r"\bhelp me (?:write|word|phrase|draft|reply|answer|say|tell|polish)\b|\bhow (?:do|should|can) "
    r"I (?:tell|say|write|phrase|word)\b|\bmy (?:own |draft |)(?:message|email|e-mail|text|draft|"
    r"post|reply|answer|essay|cover letter|speech|story)\b|"
    r"\b(?:le |les )?(?:dije|escrib[ií]|contest[ée])\b|\bmi (?:mensaje|correo|borrador)\b|"
    r"\bich (?:habe?|hab) (?:ihm |ihr |ihnen |dem \w+ |der \w+ )?(?:gesagt|geschrieben)\b|"
    r"\bmeine (?:nachricht|mail|e-mail|antwort)\b|\bj'ai (?:dit|écrit|répondu)\b|"
    r"\bmon (?:message|mail|brouillon)\b|\b(?:eu )?(?:disse|escrevi|respondi)\b|"
    r"\bminha (?:mensagem)\b|\bho (?:detto|scritto|risposto)\b|\bil mio (?:messaggio)\b|"
    r"\bjag (?:sa|skrev|svarade)\b|\bik (?:zei|schreef|antwoordde)\b|"
    r"\b(?:powiedzia[łl]\w*|napisa[łl]\w*)\b|\bя (?:сказал\w*|написал\w*|ответил\w*)|"
    r"我(?:跟|对|對|给|給)?[^，。,.!?！？\s]{0,8}(?:说|說|写|寫|回复|回覆)(?:了|过|過)?|"
    r"(?:私|僕|俺)(?:は|が)[^。、]{0,12}(?:言った|書いた|伝えた)",
    re.IGNORECASE,
)


def own_words_context(context: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``context`` with each user message cut to the user's own words, its quotes left out,
    unless the message quotes the user's own record ("my results: '...'")."""

    def own(message: dict[str, Any]) -> dict[str, Any]:
        if message.get("role") != "user" or not isinstance(message.get("content"), str):
            return message
        words, _ = quoted_parts(message["content"])
        return message if _OWN_RECORD.search(words) else {**message, "content": words}

    return [own(m) for m in context]
