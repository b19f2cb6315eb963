"""Secrets (never stored in clear) and contact details (kept only in the profile).

``redact_secrets`` masks API keys, tokens, passwords, private keys and card numbers (Luhn
checked); ``mask_pii`` masks emails and phone numbers. Both return the masked text and the kinds
found; markers read ``[REDACTED:<kind>]`` so a reader (and the model) knows something was there.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

from memvisor.agent.guards.seed_phrases import phrase_spans
from memvisor.agent.memory.writes import map_strings

from .regex_cache import compile_cached

# The names of a settings page's menus, which a path joins with "/" like a login's pair.
MENU_WORDS = (
    r"settings?|preferences|options|users?|security|network|advanced|system|status|dashboard|"
    r"accounts?|profile|wireless|wi-?fi|firewall|tools|setup|admin|administration|management|"
    r"config|configuration|general|privacy|home|overview|nat|lan|wan|dhcp|ddns|vpn|logs|"
    r"reports|billing|help|einstellungen|paramètres|réglages|configuración|ajustes|"
    r"impostazioni|configurações|inställningar|instellingen|ustawienia|настройки"
)
SECRET_PATTERNS: dict[str, re.Pattern[str]] = {
    "private_key": compile_cached(
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|$)"
    ),
    "api_key": compile_cached(
        r"\b(sk-(proj-|ant-|live-)?[A-Za-z0-9_-]{16,}|(sk|rk)_(live|test)_[A-Za-z0-9]{16,}|"
        r"(AKIA|ASIA)[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,}|"
        r"xox[abposr]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}|glpat-[A-Za-z0-9_-]{20,}|"
        r"hf_[A-Za-z0-9]{30,}|npm_[A-Za-z0-9]{36}|SG\.[\w-]{16,}\.[\w-]{16,})"
    ),
    "jwt": compile_cached(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    # The scheme starts where its run starts (a \b start made "a-a-a-…" quadratic).
    "credential_url": compile_cached(
        r"(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*://[^\s:/@]+:[^\s:/@]+@", re.IGNORECASE
    ),
    "env_secret": compile_cached(
        r"\b[A-Z][A-Z0-9_]*(SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|PRIVATE_KEY|ACCESS_KEY)"
        r"[A-Z0-9_]*\s*[=:]\s*(?!\[)\S+|"
        # a name's last part says a password: "ORDERS_DB_PASS=...", "SMTP_PWD: ..."
        r"\b(?:[A-Z][A-Z0-9]*_)+(?:PASS|PWD|PW|PIN)\s*[=:]\s*(?!\[)\S+"
    ),
    "bearer_token": compile_cached(
        r"\b(bearer|access[_ ]token|auth[_ ]token|refresh[_ ]token|api[_ ]?key|secret[_ ]key|"
        r"client[_ ]secret)\s*[:=]?\s*(is\s+)?[\"']?[A-Za-z0-9._~+/=-]{16,}",
        re.IGNORECASE,
    ),
    "password": compile_cached(
        # Not "password manager: Bitwarden" or "password reset is done".
        r"\b(password|passwd|pwd|passcode|passphrase|pin( code| number)?)\b(?!\s*(managers?|reset|"
        r"hints?|polic(y|ies)|rules|requirements|strength|changes?|protected|field)\b)"
        r"(\s+[\w'-]+){0,4}?\s*(\bis\b|\bwas\b|:|=)\s*[\"']?[^\s\"'\[][^\s\"']*|"
        r"\b(pin|passcode|pin code)\s+\d{4,8}\b",
        re.IGNORECASE,
    ),
    "key_value_secret": compile_cached(
        r"\b(psk|pre-?shared[ _-]?key|secret|token|passwd|pass|pwd|apikey|api_key|auth_token|"
        r"private_key|client_secret|access_key|secret_key|wpa_?key)\s*[=:]\s*(?!\[)[^\s,;]{6,}",
        re.IGNORECASE,
    ),
    "login_pair": compile_cached(
        # "login from the setup page: admin / Tg7!pq": a few words may come before the pair
        r"\b(login|log-in|sign-in|credentials?|username and password)\b(?:[^:=\n]{0,30}[:=])?"
        # ... not a menu's path: "Login page: Admin / Settings / Users"
        rf"\s*\S+\s+[/|]\s+(?!(?:{MENU_WORDS})(?![\w-]))\S++(?!\s*[/|>›→»]\s*\S)",
        re.IGNORECASE,
    ),
    "card_security": compile_cached(
        r"\b(cvv2?|cvc2?|csc|security code)\s*[:=]?\s*\d{3,4}\b|\bexp(iry|iration)?( date)?\s*[:=]?"
        r"\s*(0?[1-9]|1[0-2])\s*/\s*\d{2,4}\b",
        re.IGNORECASE,
    ),
    "recovery_phrase": compile_cached(
        r"(\b(recovery|seed|mnemonic|secret|backup|wallet)\s+(phrase|words|seed)\b|"
        # a wallet's phrase named in other languages (its words are English: BIP-39's list)
        r"\bfraz[aey] (odzyskiwania|seed|przywracania)\b|\bfrase (de recuperación|semilla|"
        r"di recupero|de recuperação)\b|\bphrase (de récupération|secrète)\b|"
        r"\bwiederherstellungsphrase\b|\bherstelzin\b|\båterställningsfras\w*|"
        r"\bфраз\w* (восстановления|відновлення)|\bсид-фраз\w*|助记词|助記詞|"
        r"リカバリーフレーズ|復元フレーズ|복구 문구|시드 문구)"
        # what it recovers and an aside may come before the colon that brings its words:
        # "frase de recuperação da carteira (pediu para guardar): ..."
        r"(?:[^A-Za-z]{0,5}|[^:：\n]{0,60}[:：]\s*)"
        r"(?P<value>(?:[a-z]+\s+){11,23}[a-z]+)",
        re.IGNORECASE,
    ),
    # A BitLocker (or other disk-encryption) recovery key: eight groups of six digits, a
    # shape nothing else has; a user finds it in their account and pastes it when asked.
    "recovery_key": compile_cached(r"(?<![\d-])\d{6}(?:[- ]\d{6}){7}(?![\d-])"),
    "national_id": compile_cached(
        r"\b(ssn|social security( number)?)\b\D{0,12}\d{3}-?\d{2}-?\d{4}\b|\b\d{3}-\d{2}-\d{4}\b|"
        r"\b(personnummer|personal (identity|id) number|national id( number)?|passport( number)?)\b"
        r"\D{0,12}(?=[A-Z]{0,8}\d)[\dA-Z]{6,9}[-+]?\d{0,4}\b|"
        r"(身份证|身份證)(号码|號碼|号|號)?\D{0,4}\d{17}[\dXx]",
        re.IGNORECASE,
    ),
    "password_zh": compile_cached(
        r"(密码|密碼|口令|支付密码|验证码|驗證碼|密钥|密鑰)\s*(是|为|為|:|：)?\s*[A-Za-z0-9!@#$%^&*._-]{3,}"
    ),
}
_CARD = compile_cached(r"(?<![\d-])(?:\d[ .-]?){12,18}\d(?![\d-])")
# An IBAN: country, check digits, then 11-30 letters and digits, in groups of four or not;
# the mod-97 check keeps order numbers out.
_IBAN = compile_cached(r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?\b")
# A card number read out in words: "four five three nine, one four eight eight, ...".
_DIGIT_WORDS = {
    "zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
    "six": "6", "seven": "7", "eight": "8", "nine": "9",
}  # fmt: skip
_DIGIT_WORD = "(?:" + "|".join(_DIGIT_WORDS) + ")"
_SPELLED_CARD = compile_cached(
    rf"\b{_DIGIT_WORD}(?:[\s,.-]+{_DIGIT_WORD}){{12,18}}\b", re.IGNORECASE
)
_TOKENISH = compile_cached(r"(?<![\w/+=.-])[A-Za-z0-9+/_=.-]{32,}(?![\w/+=.-])")
# A key named for its service and its mode, as many services hand them out: "wx_live_9fK2…",
# "sk_test_…", "acme_prod_…" (its random part checked as a token's).
_MODE_KEY = compile_cached(
    r"(?<![\w-])[A-Za-z]{1,12}_(?:live|test|prod|sandbox|dev|secret|private)_"
    r"(?P<value>[A-Za-z0-9]{12,})(?![\w-])"
)
# A key in hex, one case ("appid=1f87d9bb9c6450b9f31bb7843e7cb550"): many services hand them
# out so; a sentence's full stop may follow it.
_HEX_KEY = compile_cached(r"(?<![\w/+=.-])[0-9a-fA-F]{32,128}(?![\w/+=-]|\.[\w/+=-])")
# ... unless the words before say it is a digest of something: a commit, a checksum.
_DIGEST_BEFORE = compile_cached(
    r"\b(commit|sha\w*|hash\w*|checksum\w*|digest|md5|etag|fingerprint|revision|rev|"
    r"object|blob|tree|merkle|cid|prüfsumme|somme de contrôle|suma de control)\b[^\n]{0,30}$",
    re.IGNORECASE,
)
# The look-behind keeps long runs without "@" linear (one attempt per run, not per char).
_EMAIL = compile_cached(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PHONE = compile_cached(
    r"(?<![\w+])(?:\+\d{1,3}[\s.-]?)?(?:\(?\d{1,4}\)?[\s.-]){1,5}\d{2,5}(?![\w])"
)
_PHONE_WORDS = compile_cached(
    r"(phone|tel|mobile|cell|call|text me|whatsapp|sms|(my|his|her|their|new|contact) "
    r"(number|nummer)|电话|電話|手机|手機|联系|聯繫)",
    re.I,
)
_CN_MOBILE = compile_cached(r"(?<!\d)1[3-9]\d{9}(?!\d)")
_DATE_LIKE = compile_cached(r"\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4}")
_MARKER = compile_cached(r"\[(REDACTED|SEALED):\w+\]")

SECRET_PREDICATE_WORDS = frozenset(
    {
        "password", "passwd", "pwd", "passcode", "passphrase", "pin", "secret", "token",
        "apikey", "cvv", "cvc", "ssn", "otp", "mnemonic", "credential", "credentials", "login",
        "logins", "personnummer", "passport",
    }
)  # fmt: skip
_SECRET_PREDICATE = compile_cached(
    r"(api_key|private_key|secret_key|access_key|card_number|credit_card|debit_card|seed_phrase|"
    r"recovery_code|social_security|national_id|id_number|密码|密碼|口令|密钥|密鑰|验证码|驗證碼|卡号|"
    r"卡號|身份证|身份證)"
)


def _luhn(digits: str) -> bool:
    total, parity = 0, len(digits) % 2
    for i, ch in enumerate(digits):
        d = int(ch)
        if i % 2 == parity:
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return total % 10 == 0


def _iban_valid(text: str) -> bool:
    compact = text.replace(" ", "")
    if not 15 <= len(compact) <= 34:
        return False
    moved = compact[4:] + compact[:4]
    digits = "".join(str(int(c, 36)) for c in moved)
    return int(digits) % 97 == 1


# The word for it earlier in the same sentence: "mon IBAN FR76 3000 ...", "IBAN de
# l'utilisateur pour le versement du salaire : FR76 ..." (round 42).
_IBAN_NAMED = compile_cached(r"\b(?:iban|ibán)\w*\b[^\n.!?。]{0,80}$", re.IGNORECASE)


def _iban(mark: Callable[[str, str], str], found: list[str], match: re.Match[str]) -> str:
    """A valid IBAN, or one the words before it call an IBAN, whatever its check digits."""
    value = match.group(0)
    before = match.string[max(0, match.start() - 90) : match.start()]
    if not _iban_valid(value) and not _IBAN_NAMED.search(before):
        return value
    found.append("iban")
    return mark("iban", value)


def _entropy(text: str) -> float:
    counts = Counter(text)
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values())


def _looks_random(token: str) -> bool:
    # Long mixed-case alphanumerics with high entropy: keys nobody recognised by prefix.
    return (
        any(c.isupper() for c in token)
        and any(c.islower() for c in token)
        and any(c.isdigit() for c in token)
        and _entropy(token) >= 4.0
    )


def redact_secrets(
    text: str, replace: Callable[[str, str], str] | None = None
) -> tuple[str, list[str]]:
    """Mask secrets in text; return the masked text and the kinds found.

    ``replace(kind, matched_text)`` gives what a secret becomes (``[REDACTED:<kind>]`` by
    default; the firewall passes one that seals the value instead).
    """
    mark: Callable[[str, str], str] = replace or _mask
    found: list[str] = []
    for name, pattern in SECRET_PATTERNS.items():
        kind = "password" if name == "password_zh" else name
        if pattern.search(text):
            found.append(kind)
            text = pattern.sub(partial(_apply, mark, kind), text)

    def checked(kind: str, valid: Callable[[str], bool]) -> Callable[[re.Match[str]], str]:
        """Mark a match (its ``value`` group, if it has one) that ``valid`` accepts."""

        def sub(match: re.Match[str]) -> str:
            named = "value" in match.re.groupindex
            if not valid(match.group("value") if named else match.group(0)):
                return match.group(0)
            found.append(kind)
            return _apply(mark, kind, match)

        return sub

    # a wallet's phrase without its name (the named ones are masked above)
    for start, end in reversed(phrase_spans(text)):
        found.append("recovery_phrase")
        text = text[:start] + mark("recovery_phrase", text[start:end]) + text[end:]
    text = _IBAN.sub(partial(_iban, mark, found), text)
    text = _LABELLED_CARD.sub(partial(_labelled_card, mark, found), text)
    text = _CARD.sub(checked("card_number", _card_valid), text)
    text = _SPELLED_CARD.sub(checked("card_number", _spelled_card_valid), text)
    text = _HEX_KEY.sub(partial(_hex_key, mark, found), text)
    text = _TOKENISH.sub(checked("token", _looks_random), text)
    text = _MODE_KEY.sub(checked("token", _keyed_token_random), text)
    text = _KEYED_TOKEN.sub(checked("token", _keyed_token_random), text)
    return text, list(dict.fromkeys(found))


# A credential under its key in structured data, whatever its prefix or separators:
# {"access": "mvx_live::7fQk2-ZPd9r-88LwA"}, "x-auth-token: 'Zp3…'", api_secret = "…".
_KEYED_TOKEN = compile_cached(
    r"(?<![\w-])[\"']?(?:[A-Za-z]+[_-])*(?:access|token|key|secret|auth|credentials?|apikey|"
    r"password|passwd|pwd|passphrase)(?:[_-][A-Za-z]+)*[\"']?\s*[:=]\s*[\"']"
    r"(?P<value>[^\"'\s\[]{16,200})(?=[\"'])",
    re.IGNORECASE,
)


def _keyed_token_random(value: str) -> bool:
    letters, digits = sum(c.isalpha() for c in value), sum(c.isdigit() for c in value)
    return bool(letters and digits) and _entropy(value) >= 3.5 and "://" not in value


def _hex_key(mark: Callable[[str, str], str], found: list[str], match: re.Match[str]) -> str:
    value = match.group(0)
    before = match.string[max(0, match.start() - 40) : match.start()]
    digits = sum(c.isdigit() for c in value)
    if not 0.2 <= digits / len(value) <= 0.9 or _DIGEST_BEFORE.search(before):
        return value
    found.append("token")
    return mark("token", value)


def _apply(mark: Callable[[str, str], str], kind: str, match: re.Match[str]) -> str:
    if "value" not in match.re.groupindex:
        return mark(kind, match.group(0))
    # the label stays ("seed phrase: [SEALED:1]"): the value alone is the user's to keep
    label = match.string[match.start() : match.start("value")]
    return label + mark(kind, match.group("value"))


def _mask(kind: str, _matched: str) -> str:
    return f"[REDACTED:{kind}]"


# "Visa card 4716 0813 2245 9910": a number the text calls a card is one, checksum or not (a
# typo in one digit still gives the rest away).
_LABELLED_CARD = compile_cached(
    r"(?P<label>(?:\b(?:visa|mastercard|master card|amex|maestro|card|tarjeta|karte|kreditkarte|"
    r"carte|cartão|cartao|carta|kort|kaart|karta|kart|kart[ıi]\w{0,3}|kartu|карт[аыу]|thẻ|"
    r"κάρτα|kartica|"
    r"kártya|kortti|kortet|kartę|kartou|картк[аиу])\b|卡|カード|카드|บัตร|कार्ड|بطاقة|כרטיס)"
    r"[^\d\n]{0,20}?)"
    # 13 to 19 digits; a 19-digit card ("6222 0212 3456 7890 123") ends in a short group
    r"(?P<number>(?<![\d-])\d{4}(?:[ .-]?\d{4}){2}[ .-]?\d{1,7}(?:[ .-]\d{1,4})?(?![\d-]))",
    re.IGNORECASE,
)


# Cards that pay for nothing: a library or loyalty card's number is no card number.
_NOT_A_PAYMENT_CARD = compile_cached(
    r"librar|loyalty|bonus|membership|\bmember|gift|transit|\bbus\b|\bmetro\b|travel ?card|"
    r"biblioth|bibliotec|fidélité|fidelite|kunden|treue|mitglied|socio|fidelidad|"
    r"biblioteka|kundkort|bibliotek",
    re.IGNORECASE,
)


def _labelled_card(mark: Callable[[str, str], str], found: list[str], match: re.Match[str]) -> str:
    if not 13 <= len(re.sub(r"\D", "", match.group("number"))) <= 19:
        return match.group(0)
    around = match.string[max(0, match.start() - 20) : match.start("number")]
    if _NOT_A_PAYMENT_CARD.search(around):
        return match.group(0)
    found.append("card_number")
    return match.group("label") + mark("card_number", match.group("number"))


def _card_valid(text: str) -> bool:
    digits = re.sub(r"\D", "", text)
    return 13 <= len(digits) <= 19 and _luhn(digits) and _card_grouped(text)


def _card_grouped(text: str) -> bool:
    """A card is written whole, in groups of four or more ("4716 0813 ...", Amex's 4-6-5) with
    a shorter last one, or digit by digit; not in groups of two or three, as character codes
    ("65 102 116 101 ...") and phone numbers are."""
    groups = re.split(r"[ .-]", text.strip())
    return all(len(g) == 1 for g in groups) or all(len(g) >= 4 for g in groups[:-1])


def _spelled_card_valid(text: str) -> bool:
    words = re.findall(r"[a-z]+", text.lower())
    return _card_valid("".join(_DIGIT_WORDS[w] for w in words))


def has_secret(text: str) -> bool:
    return bool(redact_secrets(text)[1])


def mask_pii(text: str) -> tuple[str, list[str]]:
    """Mask email addresses and phone numbers (for passages, summaries, non-profile fields)."""
    found: list[str] = []

    def email(match: re.Match[str]) -> str:
        found.append("email")
        return "[REDACTED:email]"

    def phone(match: re.Match[str]) -> str:
        value = match.group(0)
        digits = re.sub(r"\D", "", value)
        if not 7 <= len(digits) <= 15 or _DATE_LIKE.match(value.strip()):
            return value  # a date, or a date and the hour of "2026-03-07 10:00"
        if text[match.end() : match.end() + 1] == ":":
            return value  # runs into a clock time
        # A bare "4417-2291" is a receipt as often as a phone: demand a sign of a phone.
        before = text[max(0, match.start() - 25) : match.start()]
        looks_phone = value.startswith(("+", "(")) or len(digits) >= 10
        if not looks_phone and not _PHONE_WORDS.search(before):
            return value
        found.append("phone")
        return "[REDACTED:phone]"

    # ``phone`` looks at the words before a match in ``text``: substitute one pattern at a time.
    text = _EMAIL.sub(email, text)
    text = _PHONE.sub(phone, text)
    text = _CN_MOBILE.sub(phone, text)
    return text, list(dict.fromkeys(found))


def is_secret_predicate(predicate: str) -> bool:
    words = set(predicate.lower().split("_"))
    return bool(words & SECRET_PREDICATE_WORDS or _SECRET_PREDICATE.search(predicate.lower()))


def strip_markers(text: str) -> str:
    return _MARKER.sub(" ", text)


def redact_in(value: Any) -> Any:
    """Every string of a JSON-like value with its secrets masked (object keys left alone)."""
    return map_strings(value, lambda text: redact_secrets(text)[0])
