"""Whether the user asks to keep a secret, or to have one back.

``keep_requested(message)``: the user asked to remember or save something, also as a polite
question ("Tu peux garder ... ?", "Kannst du ... behalten?"): the secret is then sealed, not
dropped. ``keep_requested_in`` and ``keep_offer_accepted`` read a conversation for it;
``answered_values`` finds a value given as the answer to a question that named a secret;
``reveal_requested(message)``: the user asks for something back.
"""

from __future__ import annotations

import re

from .lexicon import KEEP_INTENT, REVEAL_INTENT, SECRET_LABELS_ML
from .regex_cache import FROM_RUN_START, compile_cached
from .secret_values import LOCK_CODE, SECRET_LABELS, SecretValue, labelled_values, secret_kind
from .secrets import redact_secrets

_I = re.IGNORECASE


def keep_requested(message: str) -> bool:
    """The user asked to keep something: a keep word not negated ("don't keep it", "不用记住",
    "bitte nicht speichern" ask the opposite), or a message that only states a secret."""
    asked = any(
        not _NEGATED_KEEP.search(message[max(0, m.start() - 14) : m.start()])
        and not _asks_how(message, m.start())
        and not _GOES_ON.match(message, m.start())
        for m in KEEP_INTENT.finditer(message)
    ) or any(
        not _NOT_A_KEEP_BETWEEN.search(m.group("between"))
        and not _asks_how(message, m.start("verb"))
        for m in _KEEP_QUESTION.finditer(message)
    )
    return asked or states_only_a_secret(message)


# "keeps asking", "kept failing": something that goes on happening, not a keep.
_GOES_ON = compile_cached(
    r"kep(?:t|ps?|ping)\s+(?:on\s+)?(?:asking|failing|crashing|getting|going|trying|saying|"
    r"telling|happening|popping|showing|coming|running|loading|logging|sending|prompting|"
    r"breaking|dropping|freezing|restarting|rebooting|beeping|ringing|timing|refusing|"
    r"rejecting|locking|saying|throwing|returning|looping|disconnecting)\b",
    _I,
)


# A keep asked as a polite question, "can you" and a keep verb's infinitive: "Tu peux garder
# le mot de passe ?", "Pourriez-vous conserver ce code ?", "Kannst du die PIN behalten?",
# "Puoi tenere la combinazione?", "Kan du behålla koden?", "Kun je de code vasthouden?". The
# infinitive alone is no keep ("il faut garder le reçu"); after "can you" it asks for one.
_CAN_YOU = (
    r"can you|could you|would you|will you|tu peux|peux-tu|tu pourrais|pourrais-tu|"
    r"vous pouvez|pouvez-vous|vous pourriez|pourriez-vous|est-ce que tu peux|puedes|podrías|"
    r"podrias|puede usted|podría usted|podes|pode|você pode|poderia|podia|puoi|potresti|"
    r"può|potrebbe|kannst du|könntest du|können sie|könnten sie|kan du|kan ni|kunne du|"
    r"kunde du|skulle du kunna|kun je|kunt u|kan je|zou je|zou u|możesz|mógłbyś|mogłabyś|"
    r"можешь|можете|могли бы|мог бы|могла бы"
)
_KEEP_INFINITIVE = (
    r"garder|conserver|retenir|noter|enregistrer|mémoriser|memoriser|sauvegarder|guardar|"
    r"conservar|memorizar|apuntar|anotar|salvar|behalten|aufheben|aufbewahren|speichern|"
    r"merken|notieren|tenere|conservare|custodire|salvare|memorizzare|annotare|"
    r"spara|behålla|komma ihåg|anteckna|bevare|beholde|huske|gemme|lagre|bewaren|onthouden|"
    r"opslaan|vasthouden|noteren|zachować|przechować|zapamiętać|zapisać|сохранить|запомнить|"
    r"записать|хранить"
)
# what stands between the two may not negate the keep or ask how to do it ("tu peux me dire
# comment conserver mes mots de passe ?")
_NOT_IN_BETWEEN = (
    r"not|pas|nicht|nie|niet|inte|ikke|non|no|не|how|why|where|comment|pourquoi|où|wie|"
    r"warum|wo|cómo|como|dónde|come|perché|dove|onde|hoe|waarom|waar|hur|varför|var|hvordan|"
    r"hvor|jak|gdzie|как|где|почему|куда"
)
_KEEP_QUESTION = compile_cached(
    rf"\b(?:{_CAN_YOU})\b(?P<between>[^.!?\n]{{0,30}}?)\b(?P<verb>{_KEEP_INFINITIVE})\b", _I
)
_NOT_A_KEEP_BETWEEN = compile_cached(rf"\b(?:{_NOT_IN_BETWEEN})\b", _I)


def keep_requested_in(user_messages: list[str], stored: str) -> bool:
    """Did the user ask to keep what ``stored`` holds: in their latest message, or in the
    message where they gave a secret it holds ("the gate code is 4471, remember it", then
    "thanks!")?"""
    # the values the write itself labels ("オートロック暗証番号：0628"), which the user may have
    # typed far from any label of theirs ("... 覚えといて。0628ね")
    named = [v.value for v in labelled_values(stored)]
    if user_messages and keep_requested(user_messages[-1]):
        latest = user_messages[-1]
        # "remember that I train three times a week" keeps that fact, not the code said before
        if not _keeps_own_fact(latest) or any(_typed_in(value, latest) for value in named):
            return True
    return any(
        keep_requested(message)
        and (
            any(v.value in stored for v in labelled_values(message))
            or any(_typed_in(value, message) for value in named)
            or _answered(message, user_messages[i + 1], stored)
        )
        for i, message in enumerate(user_messages[:-1])
    )


# A keep word whose object is a clause the user states of themselves: "remember that I ...",
# "запомни, что я ...", "merk dir, dass ich ...", "retiens que je ...".
_OWN_FACT_AFTER = compile_cached(
    r"[\s,:]*(that|что|dass|que|che|att|że|dat|at)\s+(i|я|ich|je|j'|eu|io|yo|jag|ja|ik|jeg)\b",
    _I,
)


# The assistant offers to keep something ("¿Quieres que te guarde la combinación?", "Хотите,
# я сохраню ответ?", "Shall I note it down?") and the user's next message says yes with it.
_OFFER_TO_KEEP = compile_cached(
    r"\b(сохран\w*|запиш\w*|запомн\w*|запис\w*|zapisz\w*|zapamięt\w*|kaydedey\w*|"
    r"not ed\w*|i'?ll (keep|save|note|remember)|"
    # the verb after what is kept: "Soll ich dir den Code merken?", "Vill du att jag sparar
    # den?", "Wil je dat ik hem bewaar?", "¿Te lo guardo?", "Je te la note ?"
    r"merken|speichern|notieren|aufschreiben|aufheben|aufbewahren|sparar|spara|sparer|gemmer|"
    r"lagrer|bewaar\w*|onthoud\w*|opslaan|noteer\w*|guard[eo]\w*|anot[eo]\w*|salv[eo]\w*|"
    r"memoriz\w*|not(e|er)|enregistr\w*|gard(e|er)|"
    # Greek: "Θες να τον θυμάμαι εγώ;", "Να τον κρατήσω;", "Να το σημειώσω;"
    r"θυμ(?:άμαι|ηθώ|άσαι)|κρατ(?:ήσω|άω)|αποθηκ\w*|σημει(?:ώσω|ώνω))\b",
    _I,
)
# A question ends in "?", "？", Arabic "؟" or Greek ";" (its question mark, after a Greek word).
_QUESTION_MARK = compile_cached(r"[?？؟\u037e]|(?<=[\u0370-\u03ff]);")
_ASSENT = compile_cached(
    r"\W*(yes|yeah|yep|yup|sure|please|ok|okay|sí|si|sì|oui|ja|jo|sim|tak|da|да|ага|давай|"
    r"evet|olur|はい|うん|ええ|お願い|好|是|嗯|对|對|네|예|응|نعم|כן|ναι|ano|igen|kyllä|joo|"
    r"ya|iya|vâng|có|हाँ|हां|haan|"
    # a glad yes: "Graag, 5306", "Gerne: ...", "Volontiers", "Con gusto", "Gärna", "Chętnie"
    r"graag|gerne|gern|volontiers|con gusto|claro|certo|certamente|gärna|gjerne|chętnie|"
    r"конечно|rado|mielellään|tabii|memnuniyetle|με χαρά|φυσικά)(?!\w)",
    _I,
)


def keep_offer_accepted(turns: list[tuple[str, str]], stored: str) -> bool:
    """Did the user say yes to the assistant's offer to keep something, giving a value
    ``stored`` names in that answer or in the message the offer replied to? ``turns`` are
    (role, text), oldest first."""
    named = [v.value for v in labelled_values(stored)]
    for i, (role, offer) in enumerate(turns[:-1]):
        answer_role, answer = turns[i + 1]
        if role != "assistant" or answer_role != "user" or not _QUESTION_MARK.search(offer):
            continue
        offered = KEEP_INTENT.search(offer) or _OFFER_TO_KEEP.search(offer)
        given = [answer] + [t for r, t in turns[max(0, i - 1) : i] if r == "user"]
        if offered and _ASSENT.match(answer) and any(_typed_in(v, m) for v in named for m in given):
            return True
    return False


def _keeps_own_fact(message: str) -> bool:
    """Does every keep word of ``message`` keep a fact the user states of themselves?"""
    keeps = list(KEEP_INTENT.finditer(message))
    return bool(keeps) and all(_OWN_FACT_AFTER.match(message, m.end()) for m in keeps)


def _typed_in(value: str, message: str) -> bool:
    """Did the user type ``value`` in ``message``, whole ("0628" in "0628ね", not in "20628")?"""
    return len(value) >= 4 and bool(
        re.search(rf"(?<![A-Za-z0-9]){re.escape(value)}(?![A-Za-z0-9])", message)
    )


def _answered(announced: str, answer: str, stored: str) -> bool:
    """ "I'll give you my locker combination, keep it for me", then "17-32-08": a message
    that names a secret without its value, answered by the next one with the value alone."""
    value = _bare_value(answer)
    return bool(value and value in stored and _announces_secret(announced))


def answered_values(user_messages: list[str]) -> list[SecretValue]:
    """The secrets the user gave alone right after naming them without their value."""
    out = []
    for announced, answer in zip(user_messages, user_messages[1:], strict=False):
        value = _bare_value(answer)
        label = _announces_secret(announced)
        if value and label:
            out.append(SecretValue(value, label.group(0), secret_kind(label.group(0))))
    return out


def _announces_secret(message: str) -> re.Match[str] | None:
    if labelled_values(message):
        return None  # the value came with its label
    return SECRET_LABELS.search(message) or SECRET_LABELS_ML.search(message)


# After a value given alone, a short remark on it: "Tp-Link@0618xq，大小写别弄错", "X7-pq,
# mind the capitals", "4471 — no spaces".
_REMARK_AFTER = compile_cached(rf"{FROM_RUN_START}\s*[,，、;；—–]\s*(?P<remark>[^\d\n]{{1,40}})$")


def _bare_value(message: str) -> str:
    """A message that is only a value with digits ("17-32-08", "Kiwi 4471"), or one with a
    short remark after it that holds no digit, else ""."""
    value = message.strip().rstrip(".!。")
    remark = _REMARK_AFTER.search(value)
    if remark and len(remark.group("remark").split()) <= 6:
        value = value[: remark.start()].rstrip()
    if not 0 < len(value.split()) <= 3 or not re.search(r"\d", value) or labelled_values(value):
        return ""
    return value


# "How do I make the ssh agent remember it?": a question how to keep something asks for a
# way, not for the assistant to keep it ("can you remember my PIN?" does).
_HOW_QUESTION = compile_cached(
    r"(?:^|[.!?。！？]\s*)(how|what|why|where|which|wie|was|warum|c[oó]mo|qu[eé]|comment|"
    r"pourquoi|come|perch[eé]|hoe|waarom|hur|varf[öo]r|как|почему|怎么|如何|为什么|どうやって|"
    # where to keep it: "Куда его лучше записать?", "¿dónde lo guardo?", "wo speichere ich ..."
    r"куда|где|d[oó]nde|onde|dove|o[uù]|wo|wohin|var|vart|waar|gdzie|nerede|nereye|"
    r"どうすれば|어떻게)\b[^.!?。！？]*$",
    _I,
)


def _asks_how(message: str, at: int) -> bool:
    """Is the keep word at ``at`` inside a question that asks how (or why) to do it?"""
    start = message.rfind("\n", 0, at) + 1
    end = re.search(r"[?？]|[.!。！](\s|$)|\n|$", message[at:])
    closes = end is not None and end.group(0) in ("?", "？")
    return closes and bool(_HOW_QUESTION.search(message[start:at]))


_NEGATED_KEEP = compile_cached(
    r"(\b(don'?t|do not|dont|never|not|no need to|no|nicht|kein\w*|ne|n'|non|nie|не|ни)\b|"
    r"不用|不要|别|別|不必|无需|無需|不需要|没必要|沒必要|しないで|하지 ?마)[\s\w'’]{0,6}$",
    _I,
)


# After the value: nothing but punctuation, or a closing word of thanks.
_NOTHING_AFTER = compile_cached(
    r"[\s.,;:!)\]»”\"'。！，]*+(thanks|thank you|danke|merci|gracias|obrigad[oa]|"
    r"grazie|tack|спасибо|谢谢|ありがとう)?[\s.!。！]*+$",
    _I,
)


def states_only_a_secret(message: str) -> bool:
    """A message that does nothing but state a secret ("el pin de mi tarjeta es 0917",
    "код домофона 47К1190") has no other purpose than to be kept: no question, no second
    clause after the value, a few words."""
    text = message.strip()
    if not text or "?" in text or "？" in text or len(text.split()) > 14:
        return False
    values = [v.value for v in labelled_values(text)]

    def collect(_kind: str, matched: str) -> str:
        values.append(matched)
        return matched

    redact_secrets(text, collect)
    if not values:
        return False
    end = max(text.rfind(v) + len(v) for v in values)
    start = min(text.find(v) for v in values if v in text)
    # a sentence of its own before the secret says something else: "Ik train bij BasicFit,
    # meestal di en do. Altijd kluisje 112, code 0-4-7-1." tells a habit, not a keep
    # ... and so does a clause of its own before the one with the secret: "na chatě se mi
    # tiskárna nechce připojit k wifi X, heslo je ..." reports a problem (4 words or more)
    told_before = any(len(s.split()) >= 4 for s in _SENTENCE_END.split(text[:start])[:-1]) or any(
        len(s.split()) >= 5 and not _names_or_keeps(s) for s in _CLAUSE_END.split(text[:start])[:-1]
    )
    return not told_before and bool(_NOTHING_AFTER.fullmatch(text, end))


_SENTENCE_END = compile_cached(r"(?<=[.!。！])\s+|(?<=[。！])")


def _names_or_keeps(clause: str) -> bool:
    """A clause that asks to keep or names a secret ("remember my bike's lock key number")."""
    return bool(
        KEEP_INTENT.search(clause)
        or any(p.search(clause) for p in (SECRET_LABELS, SECRET_LABELS_ML, LOCK_CODE))
    )


_CLAUSE_END = compile_cached(r"(?<=[.!。！])\s+|(?<=[。！])|[,;，；]\s*")


def reveal_requested(message: str) -> bool:
    return bool(REVEAL_INTENT.search(message))
