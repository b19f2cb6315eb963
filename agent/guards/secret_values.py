"""Secret values said in plain words: "the gate code is 4471", "mi contraseña es girasol.2024".

``labelled_values(text)`` finds a secret's label (password, PIN, door or alarm code, Wi-Fi key,
recovery code, in many languages: ``lexicon.SECRET_LABELS_ML``) and the value that follows it,
and returns them with a short description ("allotment gate code"). The firewall collects the
values the user said in the conversation and the ones a write names, and treats every place a
write repeats one as a secret, whatever its own wording: a fact ``office_alarm_code = 0442``
holds a secret because the user called 0442 the office alarm code.

It also reads secrets told in prose with no label: a code keyed into an alarm, a keypad or a
lock ("the alarm went off although I keyed in 7043"), and a login with its user and password
("logged into the router (admin / Kx92!)", "logged in as admin with Kx92!").

Whether the user asks to keep a secret or to have one back is ``keep_intent``'s.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from .lexicon import KEEP_INTENT, SECRET_LABELS_ML
from .regex_cache import compile_cached
from .secrets import MENU_WORDS

_I = re.IGNORECASE
SECRET_LABELS = compile_cached(
    r"\b("
    # a config's key for a credential: "SMTP_PASS=...", '"db_password": "..."'
    r"[a-z0-9]+[_-](pass|password|passwd|pwd|secret|token|api_?key)|"
    # ... and in prose: "the API key for my weather station is ...", "my access token"
    r"api[ -]?(keys?|tokens?|secrets?)|(access|auth|authentication|bearer|personal access) "
    r"tokens?|client secrets?|"
    r"(recovery|bitlocker|encryption|backup) keys?|(building|door|gate|front) entry|"
    r"pass(word|wd|code|phrase|key)s?|pwd|(?:admin|root|router|login) pass|"
    # a bank app's or a phone line's PIN: "MPIN", "TPIN", "ATM PIN", "UPI PIN"
    r"(?:[mt]|atm[ -]|upi[ -])?pins?( codes?| numbers?)?|puk2?(-?code|-?код|-?kod)?|"
    # Mexico's card PIN ("el NIP 5821"), in capitals: "nip" is also a word; Polish "szyfr" (a
    # lock's combination: "Szyfr do szafki: 0739")
    r"(?-i:NIP)|szyfr\w*(?: do \w+)?|"
    # Poland's one-time payment code: "kod BLIK 481 290" (whoever asks for it takes the money)
    r"(?:kod\w*\s+)?blik(?:\s+kod\w*)?|"
    r"wi-?fi (key|password|code|"
    r"pass)|wpa2? (key|password)|"
    # the WPA key in the Romance languages: "clé WPA", "clave WPA2", "chave WPA", "chiave WPA"
    r"(?:clé|cle|clave|chave|chiave)( de sécurité| de seguridad)? (?:wpa2?|wi-?fi|wlan)|"
    # a config's bare key ("pass: 9fQ!..."), and a passport the user asks to keep
    r"pass(?=\s*[:=])|passport( number| no)?|"
    # a loyalty account's number logs into it (miles, points): "BA frequent flyer number"
    r"(frequent[- ]fl(y|i)er|loyalty|membership|rewards|mileage|executive club|miles ?& ?more)"
    r"( programme| program| club| account| card)? (numbers?|no\.?|ids?)|"
    r"network key|router (admin )?password|(door|gate|alarm|garage|"
    r"lock|safe|locker|padlock|keypad|entry|building|front door|access|security|unlock|"
    r"bike lock|combination|lockbox|key ?safe|key ?box|intercom|entrance|storage unit|shed|"
    r"cellar|basement|mailbox|letterbox|postbox|cabinet|vault|pool|gym|bike|storage)\s+codes?|"
    # "the key box number is 7294", "Key safe: 0415": a key box's number opens it
    r"(lockbox|key ?safe|key ?box|keypad)( numbers?| combinations?| combos?)?"
    # (where it hangs may come first: "Key safe by Mum's front door: 2-7-1-9")
    r"(?=(?:\s+(?:by|at|on|next to|near|beside|outside)\s+[^:.\n]{1,30})?\s*(is|was|:|=|-)\s*\d)|"
    r"combination|(recovery|backup|2fa|two-factor|mfa|verification|one-time|authenticator|"
    r"reset|login|sign-in|confirmation)\s+codes?|otp|one-time password|cvv2?|cvc2?|"
    r"security (question )?answer|memorable (word|answer)|"
    # a word agreed on to prove who someone is: "our family safe word", "the code word"
    r"(safe|code|secret|pass|family|verification)[ -]?(word|phrase)s?|mother'?s maiden name|"
    r"codes? (for|to|of) (the |my |our )?[a-z]+|padlock|lock combination|pw|recovery phrase|"
    r"seed phrase|backup phrase|secret phrase|puk2?( codes?)?|combos?|"
    # "alarm disarm: 1-9-8-4", "authenticator secret JBSW...": what switches off or proves
    r"(disarm|disarming|arming|unlock|unlocking)( sequence| code| pin)?s?|"
    r"(authenticator|totp|2fa|otp|mfa|shared|setup|seed) (secret|key)s?|secret key|"
    # "Wi-Fi (network TurtleNet) key: ...": the network named between the two words
    r"(wi-?fi|wlan|wpa2?|router|hotspot)\b[^.;\n]{0,30}?\b(key|passwords?|pass|passphrase)|"
    # a network named, then its key: "network Loon_Lake_5G, key ...", "SSID Fritz!Box 7590 /
    # password ...", "red CasaPepe, clave ...", "Netzwerk X, Schlüssel ..."
    r"(?:network|ssid|netzwerk|réseau|red|rede|rete|nätverk|netwerk|сеть)\s+\S{2,40}"
    r"(?:\s\S{1,10})?\s*[,/;–—-]\s*(?:and\s+|und\s+|y\s+|et\s+|e\s+)?(?:the\s+)?"
    r"(?:key|password|pass|passwort|schlüssel|clé|mot de passe|clave|contraseña|senha|chave|"
    r"chiave|lösenord|nyckel|wachtwoord|sleutel|ключ|пароль))\b",
    _I,
)
# A secret is a token: letters and digits or symbols, no spaces (CJK, kana and Hangul end
# it), or digit groups for a code ("847 203"). It is looked for in the words after the label,
# up to the end of the sentence.
# Digits read out as words: "four four seven one", "neun eins drei".
_DIGIT_WORD = (
    r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|cero|uno|dos|tres|cuatro|cinco|"
    r"seis|siete|ocho|nueve|null|eins|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zéro|un|deux|"
    r"trois|quatre|cinq|sept|huit|neuf)"
)
_DIGIT_WORDS = compile_cached(rf"{_DIGIT_WORD}(?:[\s,-]+{_DIGIT_WORD}){{3,7}}", re.IGNORECASE)
_TOKEN = compile_cached(
    rf"\b{_DIGIT_WORD}(?:[\s,-]+{_DIGIT_WORD}){{3,7}}\b|"
    r"\d(?:[ .-]\d){3,7}(?![\w.-]?\d)|\d{2,6}(?:[ -]\d{2,6}){1,7}(?![\w])|"
    # a dial's turns: "17 right, 42 left, 8 right"
    r"\d{1,2}\s*(?:right|left)\b(?:,?\s+\d{1,2}\s*(?:right|left)\b){2,}|"
    # (digits of the Arabic, Persian, Devanagari and Bengali scripts too: "۳۳۸۱")
    r"[0-9A-Za-z\u00c0-\u024f\u0400-\u04ff\u0660-\u0669\u06f0-\u06f9\u0966-\u096f"
    r"\u09e6-\u09ef!@#$%^&*()_+\-=.~/\\|?<>\[\]{}'’]{3,64}"
)
# The words after a label up to the end of its clause; a comma ends it unless what follows
# says what the secret is ("le code du portail, c'est A1984").
_WINDOW = compile_cached(
    r".{0,80}?(?=[.。！？\n](?:\s|$)|,(?!\s*(c'est|it's|it is|that's|which is|es|ist|è|är|é|er|"
    r"se on|det är|det er|het is|to je|to jest|je to|este|είναι|adalah|là|"
    # "... vom Ferienhaus, Moewe-Strand-88, damit": a comma before a value with digits goes on
    r"это|是|は|"
    # "if I ask 'what's the shed code', the answer is 0419"
    r"the answer is|answer|la respuesta es|la réponse est|die antwort ist|la risposta è|"
    r"a resposta é)\b|\s*[^\s,]*[^\W\d_][^\s,]*\d|\s*\d[^\s,]*[^\W\d_]|"
    # "backup codes: 8812-0931, 4410-2277": a list of numbers goes on
    # (a keypad code may end in its "*" or "#")
    r"\s*\d{2,12}(?:[ -]\d{2,6}){0,6}[*#]?(?=[,.;\s]|$)|\s*\d(?:[ .-]\d){3,7}(?=[,.;\s]|$)|"
    # "..., sakla: Deniz_2024", "..., keep it: ...": a word and a colon bring the value
    # (or two: "..., por favor: 8824A")
    r"\s*[^\W\d_]{2,15}(?:\s+[^\W\d_]{2,15})?\s*[:：]|\s*\d{1,2}\s*(?:left|right)\b|"
    # "das Passwort für die FritzBox, ich brauch's selten: Zimtstern#88": an aside, then the
    # colon that brings the value
    r"[^.;:：\n]{0,60}[:：]\s*\S)|"
    r"[;，；。\n]|$)",
    re.DOTALL | re.IGNORECASE,
)
# (German sets them »so« and „so“, Swiss ‹so›: a chevron may open or close)
_QUOTED = compile_cached(r"[\"'“‘«»‹„‚]([^\"'”’»«›‹“\n]{2,60})[\"'”’»«›“‘]")
_LINK_WORDS_WORDS = """\
is was are es era ist lautet est c'est é è är er это be del de la el los las der die das
du des le les da do dos das di della dello il lo för till på av för от для"""
_LINK_WORDS = frozenset(_LINK_WORDS_WORDS.split())
# Words a value cannot be: "password reset", "the PIN is wrong", "code review".
_NOT_A_VALUE_WORDS = """\
the a an my our your his her their this that is was are and or but not no yes to of in on
for with manager managers reset hint hints policy policies rules requirement requirements
strength change changed changes protected field wrong incorrect correct expired expires
required again new old same here there it what which when where why how never always also
still just only please thanks forgot forgotten lost stolen works working doesn doesn't
isn't didn't won't can't does did do has have had be been being should could would will
shall may might must"""
_NOT_A_VALUE = frozenset(_NOT_A_VALUE_WORDS.split())


# Codes that lock nothing: "zip code for the office", "discount code for the shop".
# A bare "code" names a secret next to what it opens: "new alarm system, code 7305".
LOCK_CODE = compile_cached(
    # (Romanian "codul", Hungarian "kódja")
    r"\b(code|kod|código|codice|код|koden|kódem|kodem|kódu|kodu|codul|kódja|kódot)\b|"
    # "Tresorcode", "Türcode", "dørkode", "nyitókódja": a compound that ends in code (its lock
    # is checked)
    r"(?<=[^\W\d_]{3})(code|kode|koden|kódja|kód)\b|"
    # "my bike lock is 3917", "Locker: 5519": a lock with a number is its combination
    r"\b(lock|padlock|locker|safe|keypad|key ?safe|key ?box|lockbox)\b"
    # (an aside may say where it is: "key safe (side door, by the bins): 2719")
    # ... or where: "lockbox by the back door is 4471"
    r"(?=(\s+(number|combination|combo))?\s*(\([^()\n]{1,40}\)\s*)?"
    r"(\s+(by|at|in|on|near|behind|under|beside)\s+(the\s+|a\s+)?[^\W\d_]+(\s+[^\W\d_]+)?\s+)?"
    # (a price is no combination: "the safe in the room is 200 euros extra")
    r"(?:(is|was|:|=|-)\s*\d{3,8}\b(?!\s*(?:euros?|dollars?|pounds?|€|\$|£|kr|yen|usd|eur|gbp|"
    r"per\b|a (?:night|day|month|year)))|"
    # ... or keyed digit by digit: "garage keypad 0-3-1-1-9 then the arrow key"
    r"\s*(?:is\s+|:\s*)?\d(?:[-–]\d){3,7}\b))|"
    # "the safe in the study opens with 19-44-02": what opens a lock is its code
    r"\b(opens|unlocks|opened|unlocked|open|unlock)\s+with\b|\b(opent|opend|gaat open) met\b|"
    r"\böffnet (sich )?mit\b|\bs'ouvre avec\b|\bse abre con\b|\babre com\b|\bsi apre con\b|"
    r"\böppnas med\b|\bоткрывается\b",
    _I,
)
_LOCKS = compile_cached(
    r"(?<=[^\W\d_])(tür|türe|tresor)\w*|"  # "Haustür", "Hoteltresor"
    r"\b(alarm\w*|door|tür\w*|gate|tor|safe|tresor|lock\w*|schloss|porte|portail|puerta|"
    r"portón|cancello|portão|garage|keypad|locker|spind|casier|taquilla|armadietto|skåp|"
    r"сигнализаци\w*|двер\w*|домофон\w*|alarme|allarme|larm\w*|intercom|kluis\w*|"
    r"sleutel\w*|schlüssel\w*|boîte à clés|caja fuerte|cofre|cassaforte|nyckel\w*|сейф\w*|"
    r"keys|klíč\w*|klic\w*|klucz\w*|ключ\w*|"
    # Romanian, Hungarian, Swahili: "cutia cu chei", "csomagautomata", "kufuli ya geti"
    r"cutia cu chei|u[șşs][ăa]|u[șşs]ii|poart\w*|lac[ăa]t\w*|seif\w*|interfon\w*|"
    r"csomagautomat\w*|ajt[óo]\w*|kapu\w*|sz[ée]f\w*|lakat\w*|riaszt[óo]\w*|nyit[óo]\w*|"
    r"kufuli|geti|mlango)",
    _I,
)
_HARMLESS_CODE = compile_cached(
    r"\b(zip|postal|post|area|country|dress|source|promo|promotional|discount|coupon|bar|qr|"
    r"error|status|tracking|colou?r|language|currency|airport|station|product|cr[eé]dit de|"
    r"dial(l?ing)?|calling|course|class|module|tax|vat|sort|swift|bic|iata|icao|flight|train|"
    r"bus|route|exit|fault|exception|sample|example|test|unicode|ascii|hex|html|python)\s*"
    r"codes?\b|código postal|code postal|codice (postale|fiscale)|postleitzahl|postnummer|"
    r"код (ошибки|страны)|\bcodes? of conduct",
    _I,
)
# Labels of a secret made of words ("security answer", "safe word", "seed phrase"): a quoted
# value after them is the secret, however plain its words.
_WORDS_SECRET = compile_cached(r"answer|(?<!pass)(?<!pass )(word|phrase)", _I)
# A pass phrase is words: quoted right after a password's label (or after a link word, or
# what it opens and a colon), three words or more are the secret: "passphrase 'correct mule
# ledger 27'", "парольная фраза к ключу: «зелёный трамвай едет в 7»", "Passwort „blaue Tasse
# im Regal“".
_QUOTED_WORDS_SOON = compile_cached(
    r"(?:\s*(?:(?:is|was|ist|lautet|war|es|era|est|é|è|är|er|это|—|–|-|=)\s+)?|"
    r"[^\"'“‘«»‹„‚.;:：\n]{0,24}[:：=]\s*)[\"'“‘«»‹„‚]"
    # (French sets a space inside its guillemets: « le chat dort »)
    r"(?:(?<=[«‹])[ \u00a0\u202f])?"
    r"(?P<value>[^\s\"'”’»«›‹“][^\"'”’»«›‹“\n]{3,58}[^\s\"'”’»«›‹“])"
    r"(?:[ \u00a0\u202f](?=[»›]))?[\"'”’»«›“‘](?![^\W\d_])"
)
# ... its words may be joined by hyphens, dots or underscores: "correct-otter-battery 19".
_PASS_PHRASE_JOIN = compile_cached(r"[\s._-]+")


_PASS_PHRASE_LABEL = compile_cached(
    r"pass ?phrase|phrase secr[èe]te|frase (?:de )?(?:contrase[ñn]a|paso|senha|passe)|"
    r"parol\w* fraz\w*|парольн\w* фраз\w*|パスフレーズ|口令短语|密码短语|암호 ?문구",
    re.IGNORECASE,
)
# ... up to its colon (past what it opens), then the words to the sentence's end
_PHRASE_AFTER_COLON = compile_cached(
    r"[^:：\n]{0,90}?[:：]\s*(?P<value>[^\s.;,\n][^.;,\n]{2,80}?)\s*(?=[.;,\n]|$)"
)


def _pass_phrase_words(value: str) -> int:
    return len([w for w in _PASS_PHRASE_JOIN.split(value) if w])


_WORDLIKE = compile_cached(r"[^\W\d_]+(['’-][^\W\d_]+)*")
# "send the secure-login.example link": a host name after a label is where, not what.
_DOMAIN = compile_cached(r"(https?://)?[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,10}(/\S*)?", _I)


@dataclass(frozen=True)
class SecretValue:
    value: str
    description: str  # "allotment gate code"
    kind: str  # password | pin | code


def labelled_values(text: str) -> list[SecretValue]:
    """Secrets named by a label in ``text``, with the value (or values) that follow each label."""
    found: list[SecretValue] = []
    for pattern in (SECRET_LABELS, SECRET_LABELS_ML, LOCK_CODE):
        for label in pattern.finditer(text):
            # what the code opens may come just after it: "Code der Haustür", "code of the gate"
            near = text[max(0, label.start() - 40) : label.end() + 24]
            if pattern is LOCK_CODE and label.group(2) and not _LOCKS.search(near):
                continue  # "Fehlercode 4041", "Rabattcode": a compound names its lock or nothing
            if pattern is LOCK_CODE and not (
                _LOCKS.search(near)
                or _named_number_code(text, label)
                or _service_code(text, label)
                or (
                    label.group(0).lower().startswith(("open", "unlock"))
                    and _opens_with_number(text, label)
                )
            ):
                continue
            if _HARMLESS_CODE.search(text[max(0, label.start() - 16) : label.end()]):
                continue
            window = _WINDOW.match(text, label.end())
            # a clause longer than the window still holds its value in the window's reach:
            # "the API key for my weather station upload is 7c1e… and the station ID is …"
            tail = window.group(0) if window else text[label.end() : label.end() + 80]
            plural = label.group(0).lower().endswith(("codes", "passwords", "pins"))
            kind = secret_kind(label.group(0))
            quoted = _QUOTED.search(tail) if _WORDS_SECRET.search(label.group(0)) else None
            if not quoted and kind == "password":
                quoted = _QUOTED_WORDS_SOON.match(tail)
                quoted = quoted if quoted and _pass_phrase_words(quoted.group(1)) >= 3 else None
            if not quoted and _PASS_PHRASE_LABEL.search(label.group(0)):
                # a passphrase is words, unquoted after its colon: "Passphrase for the backup
                # drive (kept at user's request): copper kettle lantern 19"
                quoted = _PHRASE_AFTER_COLON.match(text, label.end())
                quoted = quoted if quoted and _pass_phrase_words(quoted.group(1)) >= 3 else None
            if quoted:  # an answer may be words: "security answer is 'Biscuit the beagle'"
                found.append(SecretValue(quoted.group(1), _describe(text, label, ""), "password"))
                continue
            skip = partial(_numberless_code, kind, label.group(0))
            values = _values_after(_past_what_it_opens(tail), plural=plural, skip=skip)
            if not values and pattern is not LOCK_CODE and kind == "password":
                values = _password_in_sentence(text, label.end())
            if not values and pattern is not LOCK_CODE:
                values = _bracketed_number_in_sentence(text, label.end())
            for value, between in values:
                if _numberless_code(kind, label.group(0), value):
                    continue  # "the code to open the project is on GitHub": no code
                found.append(SecretValue(value, _describe(text, label, between), kind))
    found += _security_answers(text) + _login_pairs(text) + _keyed_codes(text) + _set_codes(text)
    found += _recovery_codes(text) + _grouped_lock_codes(text)
    return list({v.value: v for v in found}.values())


# Recovery codes come as a list of groups a site printed ("8472-1193", "k3f9-x2pq"), named in
# one sentence and listed in the next: "I got in with a recovery code. I have 8472-1193 and
# 5520-8841 left". A text that names recovery codes holds every group of that shape.
_RECOVERY_LABEL = compile_cached(
    r"\b(?:recovery|backup|back-up|one-time|2fa|mfa)[ -]codes?\b|"
    r"\bcodic[ei] di (?:recupero|backup|riserva)\b|\bc[óo]digos? de (?:recuperaci[óo]n|"
    r"recupera[çc][ãa]o|respaldo|backup)\b|\bcodes? de (?:r[ée]cup[ée]ration|secours)\b|"
    r"\b(?:wiederherstellungs|backup|notfall)codes?\b|\bherstelcodes?\b|"
    r"\b[åa]terst[äa]llningskod\w*|\bkody? (?:zapasow\w*|odzyskiwania)\b|"
    # Hungarian, Czech, Finnish, Turkish: "Tartalék kódok: 4F7K-29QD, ..."
    r"\b(?:tartal[ée]k|helyre[áa]ll[íi]t[áa]si|biztons[áa]gi ment[ée]si) ?k[óo]d\w*|"
    r"\bz[áa]lo[žz]n[íi] k[óo]d\w*|\bk[óo]dy pro obnoven[íi]|\b(?:vara|palautus)koodi\w*|"
    r"\byedek kod\w*|"
    r"\bкод\w* (?:восстановления|відновлення)\b|\bkurtarma kod\w*|"
    r"复原码|恢复码|恢復碼|備用碼|备用码|リカバリーコード|バックアップコード|복구 ?코드|백업 ?코드",
    _I,
)
_CODE_GROUPS = compile_cached(r"(?<![\w-])(?=[a-z0-9-]*\d)[a-z0-9]{4,5}-[a-z0-9]{4,5}(?![\w-])", _I)


def _recovery_codes(text: str) -> list[SecretValue]:
    if not _RECOVERY_LABEL.search(text):
        return []
    return [SecretValue(m.group(0), "recovery code", "code") for m in _CODE_GROUPS.finditer(text)]


# A security question's answer, which may be any word: "the answer to the security question
# (first pet) is Biscuit", "odpowiedź na pytanie pomocnicze (imię psa) to Burek1998", "Ответ
# на контрольный вопрос банка («девичья фамилия матери»): Лисовская". The label is the
# question (or the maiden name it asks for) in many languages; up to two words ("банка", "of
# my bank") and a bracketed aside may follow it, then a colon or a link word brings the value.
_SECURITY_QUESTION = compile_cached(
    r"\b(security|secret|memorable|verification) questions?|mother'?s maiden name|"
    r"контрольн\w* вопрос\w*|секретн\w* вопрос\w*|девичь\w* фамили\w* матери|"
    r"контрольн\w* питанн\w*|pytani\w* (?:pomocnicz\w*|bezpieczeństwa|zabezpieczając\w*)|"
    r"nazwisk\w* panieńsk\w* matki|pregunta (?:de seguridad|secreta)|"
    r"apellido de soltera de (?:la |tu |mi )?madre|sicherheitsfrage\w*|geheimfrage\w*|"
    r"mädchenname\w* der mutter|question (?:secrète|de sécurité)|"
    r"nom de jeune fille de (?:la |ma |ta )?mère|domanda (?:di sicurezza|segreta)|"
    r"cognome da nubile della madre|pergunta (?:de segurança|secreta)|"
    r"nome de solteira da mãe|säkerhetsfråg\w*|beveiligingsvraag|geheime vraag|"
    r"sikkerhedsspørgsmål\w*|sikkerhetsspørsmål\w*|bezpečnostní otázk\w*|"
    r"güvenlik soru\w*|gizli soru\w*|kızlık soyad\w*|câu hỏi bảo mật|pertanyaan keamanan|"
    r"ερώτηση ασφαλείας|"
    r"秘密の質問|秘密の答え|密保问题|密保問題|安全问题|安全問題|보안 ?질문|सुरक्षा प्रश्न",
    _I,
)
_ANSWER_AFTER = compile_cached(
    r"(?:\s++[^\W\d_]+){0,2}?\s*+(?:[(（][^()（）\n]{0,60}[)）])?(?:\s*+[^\W\d_]+)??\s*+"
    r"(?:[:：=—–]|\b(?:is|was|to|jest|es|era|ist|lautet|war|est|c'est|è|é|är|er|это|"
    r"dır|dir|là|adalah)\b|は|是|는|은)\s*+[«»‹\"'“„‚‘]?"
    r"(?P<value>[^\s«»‹›\"'“”„‘’,;.。()（）]{2,40})",
    _I,
)

# Words after "the security question is" that say what it is about, not its answer.
_NOT_AN_ANSWER_WORDS = """\
about asked set answered something unknown easy hard über sur sobre su о про dass que che
what who which"""
_NOT_AN_ANSWER = frozenset(_NOT_AN_ANSWER_WORDS.split())


# An answer word later in the question's sentence, then the value quoted or after a colon:
# "güvenlik sorusuna takıldı; cevabın 'Yıldırımoğlu'", "stuck on the security question, my
# answer: Fluffy", "на контрольный вопрос ответил «Барсик»".
_ANSWER_WORD_LATER = compile_cached(
    r"[^.!?。\n]{0,60}?(?:\b(?:answer\w*|cevab\w*|cevap\w*|respuesta|réponse|risposta|resposta|"
    r"antwort|ответ\w*|odpowied\w*|svar\w*|antwoord|câu trả lời|jawaban)|答案|答え|回答|답)"
    # ... "the answer I used is Biscuit_1998": up to three words before the link word
    r"[^\W\d_]{0,3}(?:(?:\s+[^\W\d_]+){0,3}?\s+(?:is|was|ist|war|es|era|est|è|é|был\w*|"
    r"было))?\s*"
    r"(?:[:：=—–]\s*[«»‹\"'“„‚‘]?|[«»‹\"'“„‚‘]|"
    # "... — answer Biscuit-2009": right after the answer word, a name or a value with a digit
    r"(?<=\s)(?=(?-i:[A-ZÀ-ÖØ-ÞА-ЯЁ])|[^\s,;.]*\d))"
    r"(?P<value>[^\s«»‹›\"'“”„‘’,;.。()（）]{2,40})",
    _I,
)
# A name of more words after an answer's first: "Mr. Biscuit", "New York", "Dona Flor".
_NAME_GOES_ON = compile_cached(
    r"(?-i:(?<=\b[A-Z][a-z])|(?<=\b[A-Z][a-z]{2}))\.?(?-i:\s[A-Z][\w'’-]{1,30})"
)
_NAME_WORD = compile_cached(r"(?-i:\s[A-Z][\w'’-]{1,30})")


def _whole_name(text: str, value: str, end: int) -> str:
    """``value`` with the capitalised words that go on its name ("Mr. Biscuit", "New York")."""
    for _ in range(2):
        more = _NAME_GOES_ON.match(text, end) or _NAME_WORD.match(text, end)
        if not more or more.group(0).strip(". ").lower() in _NOT_A_VALUE:
            break
        value, end = value + more.group(0), more.end()
    return value


# The answer may restate its question before its value: "...: il nome del mio primo gatto era
# Brontolo77", "...: the name of my first dog was Rex", "...: der Name meiner Katze war Minka".
# What stands after the colon is then an article or a possessive, and the value follows the
# clause's link word.
_RESTATED_OPENING_WORDS = """\
the my our his her their il lo la le l' i gli el los las der die das den dem des mein meine
meiner meines unser unsere le la les mon ma mes notre o a os as meu minha mio mia nome name
nom nombre имя кличка de het mijn"""
_RESTATED_OPENING = frozenset(_RESTATED_OPENING_WORDS.split())
_RESTATED_ANSWER = compile_cached(
    r"(?:\s+[^\W\d_]+){1,8}?\s+(?:was|is|were|era|è|é|es|fue|foi|ist|war|hieß|heißt|est|"
    r"était|s'appelait|är|var|это|был\w*|звали|heette|heet|to)\s+[«»‹\"'“„‚‘]?"
    r"(?P<value>[^\s«»‹›\"'“”„‘’,;.。()（）]{2,40})",
    _I,
)


def _security_answers(text: str) -> list[SecretValue]:
    """The answers to security questions ``text`` gives (a word is enough: it is the answer)."""
    found = []
    for label in _SECURITY_QUESTION.finditer(text):
        after = _ANSWER_AFTER.match(text, label.end()) or _ANSWER_WORD_LATER.match(
            text, label.end()
        )
        if after and after.group("value").lower() in _RESTATED_OPENING:
            after = _RESTATED_ANSWER.match(text, after.end("value")) or after
        value = after.group("value") if after else ""
        if after and value and value.lower() not in _NOT_A_VALUE | _NOT_AN_ANSWER:
            value = _whole_name(text, value, after.end("value"))
            found.append(SecretValue(value, label.group(0), "password"))
    return found


# A login's user and password as a pair: "admin login is admin / Tr0ub4dor&3",
# "Zugangsdaten: max.muster / Sonne#2024", "identifiants : admin:Kx9!pq". The second is secret.
_LOGIN_PAIR = compile_cached(
    r"\b(?:login|log-in|credentials|sign-in|logon|zugangsdaten|anmeldedaten|login-daten|"
    r"identifiants|credenciales|datos de acceso|credenziali|credenciais|dados de acesso|"
    r"dane logowania|inloggningsuppgifter|inloggegevens|giriş bilgileri|учётные данные|"
    r"учетные данные|данные для входа|логин и пароль|thông tin đăng nhập)\b"
    r"[^\n:/]{0,20}?(?:\s(?:is|are|ist|sind|est|sont|es|son|è|sono|é|são|är|zijn|это)\s|[:：=]\s*)"
    r"[\"'“]?(?P<user>[^\s/:\"'“”]{1,40})\s?[/:]\s?"
    # ... not a menu's path: "Login page: Admin / Settings / Users"
    rf"(?!(?:{MENU_WORDS})(?![\w-]))(?P<value>[^\s,;\"'“”]{{3,64}}+)(?!\s*[/|>›→»]\s*\S)",
    _I,
)


# Logging in told in prose, with the user and the password it took: "logged into the router
# (admin / Tp-Link#Kx92)", "logged in as admin with Kx92!pq", "mich als admin mit Sonne#24
# angemeldet", "connecté en tant que admin avec Kx9!pq", "loggade in som admin med Kx92".
_LOGIN_VERB = (
    r"logged (?:in|on)(?:to)?|log(?:ging)? (?:in|on)(?:to)?|signed in(?:to)?|"
    r"sign(?:ing)? in(?:to)?|login|log-in|eingeloggt|angemeldet|einloggen|anmelden|"
    r"melde mich|meldete mich|loggte mich|connecté|connectée|me connecter|connexion|"
    r"inicié sesión|iniciar sesión|entré|accedí|me logueé|entrato|entrata|loggato|loggata|"
    r"accesso|entrei|loguei|acessei|fiz login|loggade in|loggar in|inloggad|logga in|"
    r"logget inn|logget ind|ingelogd|inloggen|logde in|zalogowałem|zalogowałam|zalogowany|"
    r"zalogowana|вошёл|вошел|вошла|залогинил\w*|авторизовал\w*"
)
_LOGGED_IN_PAIR = compile_cached(
    rf"\b(?:{_LOGIN_VERB})\b(?:"
    # the pair in brackets after the verb: "(admin / Kx92!)", "[root|Tg7-pq]", "(admin:Kx9!pq)"
    r"[^.!?\n()\[\]]{0,50}?[(\[]\s*[^\s/()\[\]|:]{1,40}"
    r"(?:\s*[/|]\s*|:)(?P<value>[^\s()\[\]]{3,64})\s*[)\]]|"
    # "as <user> with <password>": the word for "as", the user, the word for "with"
    r"[^.!?\n]{0,40}?\b(?:as|als|en tant que|comme|como|come|som|jako|как)\s+\S{1,40}\s+"
    r"(?:with|using|and|mit|und|avec|et|con|y|e|com|med|og|met|en|z|с|и)\s+"
    r"(?P<as_value>[^\s,;]{3,64})|"
    # "with my email and <password>": the user named, then the password after "and"
    r"[^.!?\n]{0,40}?\b(?:with|using|mit|avec|con|com|med|met|с)\s+(?:my|her|his|their|the|"
    r"meiner|meine|mon|ma|mi|meu|minha)\s+(?:e-?mail|email address|username|user ?name|login|"
    r"phone number|id|adresse|correo|e-mail-adresse)\s+(?:and|&|\+|und|et|y|e|och)\s+"
    r"(?P<and_value>[^\s,;]{3,64})|"
    # "with <password>" alone: only a password's shape tells it from "with Google"
    r"[^.!?\n]{0,40}?\b(?:with|using|mit|avec|con|com|med|met|с)\s+"
    r"(?P<with_value>[^\s,;]{6,64}))|"
    # the verb last: "mich als admin mit Sonne#24 angemeldet", "als admin met Kx92! ingelogd"
    r"\b(?:als|as)\s+\S{1,40}\s+(?:mit|met)\s+(?P<last_value>[^\s,;]{3,64})\s+"
    r"(?:[^\W\d_]+\s+)?(?:angemeldet|eingeloggt|ingelogd|aangemeld)\b",
    _I,
)
_LOGIN_SIGN = compile_cached(r"[!@#$%^&*_+=?~]")


# ... with no colon, the pair right after the word: "inlog admin / Zw4luw-Dijk!9" (only a
# password's shape, letters, a digit and a sign, tells it from "login admin / settings")
_LOGIN_PAIR_BARE = compile_cached(
    r"\b(?:login|log-in|logon|inlog|username|user ?name|benutzername|gebruikersnaam|"
    r"nom d'utilisateur|usuario|utente|användarnamn)\s+(?P<user>[\w.@-]{1,40}+)\s*/\s*"
    r"(?P<value>[^\s,;\"'“”]{5,64}+)",
    _I,
)


def _login_pairs(text: str) -> list[SecretValue]:
    """The passwords of login pairs in ``text`` ("user / password")."""
    found = []
    for pair in _LOGIN_PAIR.finditer(text):
        value = _trim(pair.group("value"))
        if len(value) >= 3 and value.lower() not in _NOT_A_VALUE and not _DOMAIN.fullmatch(value):
            found.append(SecretValue(value, "login password", "password"))
    for pair in _LOGIN_PAIR_BARE.finditer(text):
        value = _trim(pair.group("value"))
        if _login_shaped(value, strict=True):
            found.append(SecretValue(value, "login password", "password"))
    for pair in _LOGGED_IN_PAIR.finditer(text):
        groups = pair.group("value", "as_value", "and_value", "with_value", "last_value")
        # (a full stop after it ends the sentence: "... con Playa#3030.")
        value = _trim(next(v for v in groups if v)).removesuffix(".")
        if _login_shaped(value, strict=pair.group("with_value") is not None):
            found.append(SecretValue(value, "login password", "password"))
    return found


def _login_shaped(value: str, *, strict: bool) -> bool:
    """A password's shape: letters and a digit or a sign ("Tp-Link#Kx92", "admin123"; not
    "Settings", "NAT", "Google"); ``strict``: letters, a digit and a sign."""
    if len(value) < 5 or _DOMAIN.fullmatch(value) or _EMAIL_LIKE.fullmatch(value):
        return False
    letters, digits = re.search(r"[^\W\d_]", value), re.search(r"\d", value)
    signed = _LOGIN_SIGN.search(value)
    return bool(letters and digits and signed if strict else letters and (digits or signed))


# A code keyed into an alarm, a keypad or a lock, told in prose with no label: "the alarm went
# off although I keyed in 7043", "Larmet gick igång trots att jag slog 7043", "j'ai tapé 4471
# sur le boîtier de l'alarme", "obwohl ich 7043 eingegeben habe". The verb that keys it, a few
# words that may stand before the number ("in", "the code", "mon code"), then 4 to 8 digits
# that run into no longer number, time, price or unit.
_KEYED_VERB = (
    r"keyed|punched|tapped|typed|entered|put|dialled|dialed|pressed|input|"
    r"slog|slår|slagit|knappade|knappar|knappat|tryckte|trycker|tryckt|skrev|matade|angav|"
    r"tastet|tastede|indtastede|slo|trykket|trykkede|"
    r"tippte|tippe|tippten|gab|toetste|typte|tikte|voerde|"
    r"tapé|tape|tapais|composé|compose|saisi|entré|rentré|"
    r"marqué|teclé|tecleé|introduje|metí|puse|digité|ingresé|pulsé|"
    r"digitato|digitai|digito|inserito|composto|"
    r"digitei|teclei|coloquei|inseri|marquei|"
    r"wpisałem|wpisałam|wstukałem|wstukałam|wbiłem|wbiłam|wklepałem|wklepałam|"
    r"wprowadziłem|wprowadziłam|набрал|набрала|ввёл|ввел|ввела|вбил|вбила|"
    r"näppäilin|syötin|tuşladım|girdim"
)
_KEYED_FILLER = (
    r"in|inn|ind|ein|the|my|a|le|la|l'|mon|ma|el|mi|il|lo|o|meu|den|de|het|mijn|min|mitt|"
    r"code|kod|koden|koda|codice|código|codigo|код|digicode|pin|pinnen|numret|nummer|numéro|"
    r"número|numero|sur|på|auf|op|no|en"
)
_CODE_DIGITS = r"(?P<{}>\d{{4,8}}|\d(?:[ -]\d){{3,7}})"
_CODE_VALUE, _LATE_CODE_VALUE = _CODE_DIGITS.format("value"), _CODE_DIGITS.format("late_value")
# ... and what follows a code ends its clause or goes on with a small word ("into the panel",
# "men larmet", "ein", "sur le boîtier"): a number followed by a noun or a unit is a count, a
# price or a time ("2024 report numbers", "1500 kr", "0730 am", "0800 555 0199").
_AFTER_CODE = (
    r"on|onto|into|in|at|and|but|so|then|twice|again|before|after|to|with|without|"
    r"på|i|och|og|men|igen|två|innan|efter|utan|så|ind|inn|"
    r"ein|auf|und|aber|doch|nochmal|erneut|zweimal|am|an|ins|op|en|maar|opnieuw|bij|"
    r"sur|dans|et|mais|encore|deux|puis|au|à|sans|y|pero|otra|vez|dos|sin|al|"
    r"su|sul|sulla|e|ma|di|due|nel|nella|senza|no|na|mas|de|duas|sem|"
    r"w|ale|znowu|jeszcze|на|в|и|но|ещё|еще|снова|дважды|mutta|ja|ama|ve|"
    # what it was keyed for: "9021 per disattivarlo", "4471 pour la désactiver"
    r"per|para|pour|um|zu|för|om|voor|чтобы|с|со|from|von|vom|från|uit"
)
_CODE_ENDS = rf"(?=\s*(?:$|[,.;:!?)»”\"'—–…](?!\d)|\s(?:{_AFTER_CODE})\b))"
_KEYED_CODE = compile_cached(
    rf"\b(?:{_KEYED_VERB})(?:\s+(?:{_KEYED_FILLER})\b){{0,3}}\s+[\"'«“]?{_CODE_VALUE}"
    rf"{_CODE_ENDS}|"
    # the verb after the number: "obwohl ich 7043 eingegeben habe", "toen ik 7043 had
    # ingetoetst", "7043を入力したのに", "7043을 눌렀는데", "输入了7043"
    rf"(?<![\w$€£#№+.,:/-]){_LATE_CODE_VALUE}(?:\s+[^\W\d_]+)?\s+"
    r"(?:eingegeben|eingetippt|getippt|ingetoetst|ingetypt|ingevoerd|ingetikt|ingedrukt)\b|"
    # ... Hindi too: "जबकि मैं 2580 ही डाल रहा हूँ" (though I do put in 2580)
    rf"(?<![\w$€£#№+.,:/-]){_CODE_DIGITS.format('hi_value')}(?:\s+(?:ही|भी))?\s+"
    r"(?:डाल|डाला|डाली|डालता|डालती|डालते|दर्ज|एंटर|टाइप)|"
    r"(?<![\d$€£#№+.,:/-])(?P<cjk_value>\d{4,8})\s*(?:を|と|을|를)\s*(?:入力|押し|押した|"
    r"打ち込|입력|눌렀|누르|눌러)|(?:输入了?|輸入了?|按了|输了|輸了)\s*(?P<zh_value>\d{4,8})(?!\d)",
    _I,
)
_KEYED_LOCKS = compile_cached(
    r"门锁|門鎖|密码锁|密碼鎖|报警|報警|警报|警報|保险箱|保險箱|保险柜|门禁|門禁|"
    r"アラーム|ドア|ロック|金庫|玄関|オートロック|경보|알람|도어락|현관|금고|"
    # (a keypad, not a keyboard: "Tastatur", "clavier", "teclado" type letters too)
    r"\b(?:keypads?|knappsats\w*|pinpad|tastierino|digicode|codeslot|kodlås\w*|kodelås\w*|"
    r"zahlenschloss|puk2?|(?:upi |atm |sim )?pin)\b",
    _I,
)
# An alarm that wakes or times, a gate one boards at, a sum keyed into a bill: no lock.
_NOT_GUARDING = compile_cached(
    r"\b(alarm clock|clock|wecker|réveil|väckarklocka|vækkeur|despertador|sveglia|wekker|"
    r"будильник\w*|timer|thermostat|flight|boarding|terminal|airport|flug|flughafen|vol|"
    r"aéroport|vuelo|aeropuerto|volo|aeroporto|voo|flyg|flygplats|vlucht|рейс\w*|invoice|"
    r"receipt|total|price|faktura|kvitto|facture|prix|factura|precio|rechnung|preis|"
    r"fattura|prezzo|betrag|счёт|счет|цена)\b",
    _I,
)
# Where a sentence (or a clause of one) ends; a code's lock is named in its own sentence or
# the one before ("The alarm went off at six. I keyed in 5820 and it stopped.").
_CLAUSE_CUT = compile_cached(r"[.!?。！？](?=\s|$)|[;；\n]|(?<=[。！？])")


def _keyed_codes(text: str) -> list[SecretValue]:
    """Codes ``text`` tells of keying into an alarm, a keypad or a lock (one named in its
    sentence or the one before: a code keyed into nothing guarded is a number)."""
    found: list[SecretValue] = []
    if not re.search(r"\d{4}|\d[ -]\d[ -]\d[ -]\d", text):
        return found  # no code's digits: no need to read the verbs
    for keyed in _KEYED_CODE.finditer(text):
        groups = keyed.group("value", "late_value", "hi_value", "cjk_value", "zh_value")
        value = next(v for v in groups if v)
        near = _sentences_around(text, keyed.start(), keyed.end())
        lock = _guarding_lock(near)
        if lock and not _NOT_GUARDING.search(near):
            found.append(SecretValue(value, f"{lock} code", "code"))
    return found


# A lock set or changed to a number: "der Schlüsseltresor ist auf 1938 eingestellt", "changed
# the gate code to 5521", "réglé le cadenas sur 0412", "кодовый замок поставили на 3391".
_SET_CODE = compile_cached(
    r"\b(?:set|changed|reset|switched|swapped|programmed|moved)\s+(?:\w+\s+){0,3}?(?:code|"
    r"combination|combo|"
    r"pin|passcode|lock|padlock|alarm|safe|keypad|lockbox|key ?safe|key ?box)\s+to\s+"
    r"(?P<value>\d{3,8})\b|"
    r"\bauf\s+(?P<de_value>\d{3,8})\b(?:\s+\([^)]{0,40}\))?(?:\s+\w+){0,2}\s+"
    r"(?:ein)?(?:gestellt|programmiert|geändert|umgestellt)|"
    r"\b(?:réglée?s?|programmée?s?|changée?s?|mise?s?)\s+(?:\w+\s+){0,3}?(?:sur|à)\s+"
    r"(?P<fr_value>\d{3,8})\b|"
    r"\b(?:impostat[oaie]|programmat[oaie]|cambiat[oaie]|configurad[oa]s?|cambiad[oa]s?|"
    r"programad[oa]s?|mudad[oa]s?|alterad[oa]s?)\s+(?:\w+\s+){0,3}?(?:su|a|en|para|pra|"
    r"in)\s+(?P<it_value>\d{3,8})\b|"
    r"\b(?:поставил\w*|установил\w*|сменил\w*|изменил\w*)\s+(?:\w+\s+){0,3}?на\s+"
    r"(?P<ru_value>\d{3,8})\b",
    _I,
)


# A combination written as number groups, its lock named right after it: "just tell me
# 24-08-37 (gym locker 112 by the sauna)", "12-34-56 for the bike lock".
_GROUPED_BEFORE_LOCK = compile_cached(
    r"(?<![\w./:-])(\d{1,3}(?:[-–]\d{1,3}){2,3})(?![\w./:-])[^.;\n]{0,16}?(?=[^.;\n]{0,14}\b"
    r"(?:locker|(?:bike|combination|code|pad)\s?lock|safe|combination|spind|casier|taquilla|armadietto|sk[åa]p|"
    r"cadenas|candado|lucchetto|vorh[äa]ngeschloss|k[łl][óo]dk\w*|замок|сейф)\b)",
    _I,
)


def _grouped_lock_codes(text: str) -> list[SecretValue]:
    return [
        SecretValue(m.group(1), "lock combination", "code")
        for m in _GROUPED_BEFORE_LOCK.finditer(text)
    ]


def _set_codes(text: str) -> list[SecretValue]:
    """Codes ``text`` tells a lock or an alarm was set to (one named in its sentence)."""
    found: list[SecretValue] = []
    for set_to in _SET_CODE.finditer(text):
        value = next(v for v in set_to.groups() if v)
        near = _sentences_around(text, set_to.start(), set_to.end())
        lock = _guarding_lock(near)
        if lock and not _NOT_GUARDING.search(near):
            found.append(SecretValue(value, f"{lock} code", "code"))
    return found


def _sentences_around(text: str, start: int, end: int) -> str:
    """The sentence of ``text[start:end]``, and the one before it unless a ";" or a line
    break parts them."""
    cuts = [c for c in _CLAUSE_CUT.finditer(text, max(0, start - 200), start)]
    begin = cuts[-1].end() if cuts else max(0, start - 200)
    if cuts and cuts[-1].group(0) not in (";", "；", "\n"):
        begin = cuts[-2].end() if len(cuts) > 1 else max(0, start - 200)
    after = _CLAUSE_CUT.search(text, end)
    return text[begin : after.start() if after else len(text)]


def _guarding_lock(near: str) -> str:
    """The alarm, keypad or lock ``near`` names as a word of its own ("door", not "doorbell"),
    or ""."""
    for lock in _LOCKS.finditer(near):
        if not re.match(r"\w", near[lock.end() : lock.end() + 1]):
            return lock.group(0).lower()
    other = _KEYED_LOCKS.search(near) or _DISARMS.search(near)
    return other.group(0).lower() if other else ""


# A code keyed to disarm or unlock something guards it, whatever the sentence calls it: "ha
# digitato il codice 9021 per disattivarlo", "typed 4471 to disarm it", "чтобы отключить".
_DISARMS = compile_cached(
    r"\b(to (disarm|deactivate|unlock|unset|silence) (it|the \w+)|(per|para) (disattivar\w*|"
    r"disinserir\w*|sbloccar\w*|desactivar\w*|desarmar\w*|desbloquear\w*|desativar\w*)|"
    r"pour (la |le |l')?(désactiver|désarmer|déverrouiller)|um (sie |ihn |es )?"
    r"(auszuschalten|zu deaktivieren|zu entsperren|unscharf zu schalten)|"
    r"чтобы (отключить|снять с охраны|разблокировать|открыть))",
    _I,
)


def _numberless_code(kind: str, label: str, value: str) -> bool:
    """A code's value has digits (or digits read out); a code word may be any word."""
    if kind != "code" or _WORDS_SECRET.search(label) or re.search(r"слов", label, _I):
        return False
    return not (re.search(r"\d", value) or _DIGIT_WORDS.fullmatch(value))


# A password's shape: letters, digits and a sign ("Medved_2019!", "qwer1234!!").
# A number alone in brackets later in the label's sentence: "wants the PUK; she has it on the
# card (48213907)". Not a year ("(2019)"), nor a number with words in its brackets.
_BRACKETED_NUMBER = compile_cached(r"[(（\[]\s*(\d{4,12}|\d{2,6}(?:[ -]\d{2,6}){1,3})\s*[)）\]]")
_YEAR = compile_cached(r"(19|20)\d\d")


def _bracketed_number_in_sentence(text: str, at: int) -> list[tuple[str, str]]:
    sentence = re.split(r"[.!?。！？\n](?:\s|$)", text[at : at + 120], maxsplit=1)[0]
    for found in _BRACKETED_NUMBER.finditer(sentence):
        if not _YEAR.fullmatch(found.group(1)):
            return [(found.group(1), "")]
    return []


_SIGN = compile_cached(r"[!@#$%^&*_+=?~]")
_SENTENCE_TOKEN = compile_cached(r"[^\s«»“”\"',;()]{6,40}")
_EMAIL_LIKE = compile_cached(r"[\w.+-]+@[\w-]+(\.[\w-]+)+")


def _password_in_sentence(text: str, at: int) -> list[tuple[str, str]]:
    """ "пишет «неверный пароль», хотя ввожу Medved_2019!": in the sentence that names a
    password, past the clause the label's window reads, a token shaped like one is it."""
    end = re.search(r"[.。!?！？\n](?:\s|$)", text[at : at + 160])
    sentence = text[at : at + (end.start() + 1 if end else 160)]
    for token in _SENTENCE_TOKEN.finditer(sentence):
        value = _trim(token.group(0))
        shaped = re.search(r"[^\W\d_]", value) and re.search(r"\d", value) and _SIGN.search(value)
        if shaped and not (_DOMAIN.fullmatch(value) or _EMAIL_LIKE.fullmatch(value)):
            return [(value, "")]
    return []


# A code an app, a bank or a text message asks for or sends ("de ING-app vroeg om de code
# 582913", "the bank texted me the code 4471 20"): a one-time code that logs in.
_SERVICE_NEAR = compile_cached(
    r"\b(apps?|sms|texted|text message|banking|bank\w*|banque|banco|login|log in|sign[- ]?in|"
    r"inlog\w*|anmeld\w*|verif\w*|authenticat\w*|2fa|otp|aplicaci[oó]n|aplicativo|"
    r"applicazione|приложени\w*|смс|банк\w*)\b|-app\b|アプリ|앱|应用|應用|短信|簡訊|銀行|은행",
    _I,
)


def _service_code(text: str, label: re.Match[str]) -> bool:
    near = text[max(0, label.start() - 60) : label.end() + 40]
    return bool(_SERVICE_NEAR.search(near) and _NUMBER_VALUE.match(text, label.end()))


# What the secret opens, named before the verb that gives the value: "Router-Passwort der
# FritzBox im Flur ist ...", "the code of the side gate is ...", "la clave del router de abajo
# es ...": words with an article or a preposition among them and no digit, then "is".
_WHAT_IT_OPENS_THEN_IS = compile_cached(
    r"^(?=[^\d]*?\b(?:der|des|dem|den|die|das|von|vom|im|am|für|of|for|the|on|in|at|de|del|"
    r"du|da|do|della|dello|di|la|le|el|van|het|för|till|på|av|pro|na|dla|w|od|ya|wa|untuk|"
    r"ng)\b)\s*[^\d:：=]{1,60}?"
    # (Swahili "ni", Indonesian and Malay "adalah", Tagalog "ay")
    r"\s(?:ist|is|lautet|est|es|è|är|er|é|jest|je|это|是|は|ni|adalah|ialah|ay)\s+(?=\S)",
    re.IGNORECASE,
)


def _past_what_it_opens(tail: str) -> str:
    """``tail`` from the value on, past the name of what it opens ("der FritzBox im Flur ist
    Kellertreppe!83" is "Kellertreppe!83"); ``tail`` itself when it names nothing first."""
    match = _WHAT_IT_OPENS_THEN_IS.match(tail)
    return tail[match.end() :] if match else tail


def _values_after(
    tail: str, *, plural: bool, skip: Callable[[str], bool] = lambda value: False
) -> list[tuple[str, str]]:
    """The values in the words ``tail`` after a label, each with the words before it: the
    first, every one after a plural label, or a group of codes of one shape ("a1b2c-3d4e5
    f6a7b-8c9d0 ...": recovery codes are handed out in groups). A token ``skip`` refuses is
    read past ("gate code at SafeStore Millbrook — #4482": a code has digits)."""
    out: list[tuple[str, str]] = []
    shape, last = "", 0
    for token in _TOKEN.finditer(tail, _after_naming_colon(tail)):
        value = _trim(token.group(0))
        if shape and (_shape(value) != shape or tail[last : token.start()].strip(" ,")):
            break  # the group ends at a token of another shape, or at a word
        if value.lower() in _LINK_WORDS or not _is_value(value) or skip(value):
            continue
        if _NAMES_WHAT_IT_OPENS.match(tail, token.end()) and _OPENS_BEFORE.search(
            tail[: token.start()]
        ):
            continue  # "passphrase for ~/.ssh/id_ed25519: ...": the value comes after
        # the codes of a group share the first one's description ("recovery codes")
        out.append((value, out[0][1] if shape else tail[: token.start()]))
        last = token.end()
        if not plural:
            shape = _shape(value)
    return out


# Between a label and a colon, a word that links the label to its value: "the PIN is 4471:
# ..." has its value before the colon.
_LINKED = compile_cached(
    r"\b(is|was|are|es|era|ist|lautet|war|est|c'est|é|è|är|er|это|=)\b|[=]", re.IGNORECASE
)


def _after_naming_colon(tail: str) -> int:
    """Where to look for the value in ``tail``: after its colon when what stands before the
    colon only names the secret ("Router-Passwort (FritzBox 7590): Zimtstern#88", "Passwort
    für die FritzBox 7590, ich brauch's selten: ..."), else from the start."""
    colon = re.search(r"[:：]\s*(?=\S)", tail)
    if colon is None or not tail[: colon.start()].strip():
        return 0
    # the label's own clause links it to a value ("the PIN is 4471: ..."); an aside after a
    # comma does not ("..., falls du es brauchst: Lerche_19")
    return 0 if _LINKED.search(re.split(r"[,，]", tail[: colon.start()])[0]) else colon.end()


def _shape(value: str) -> str:
    """A code's shape, letters and digits alike: "4f7a2-9c1e3" -> "xxxxx-xxxxx"; a word or a
    short number has none."""
    if len(value) < 6 or not re.search(r"\d", value):
        return "\0" + value  # a shape no other token has
    return re.sub(r"[0-9A-Za-z]", "x", value)


def _opens_with_number(text: str, label: re.Match[str]) -> bool:
    """ "the shed opens with nine two zero five": whatever opens with a number is a lock."""
    return bool(_OPENS_NUMBER.match(text, label.end()))


def _named_number_code(text: str, label: re.Match[str]) -> bool:
    """ "<thing> code is 8812": a code named by what it belongs to, whose value is a number
    (the shed, the mailbox, the cabin: no list of locks holds them all). Codes that lock
    nothing are ``_HARMLESS_CODE``; "the code", "my code" or a code of words are not this."""
    before = re.findall(r"[^\W\d_]+", text[max(0, label.start() - 24) : label.start()])
    if not before or before[-1].lower() in _NOT_A_VALUE or _plain_word(before[-1]):
        return False
    return bool(_NUMBER_VALUE.match(text, label.end()))


_OPENS_NUMBER = compile_cached(
    rf"\s*+[:\"'“‘«]?\s*+(\d{{3,8}}\b|\d(?:[ .-]\d){{3,7}}|{_DIGIT_WORD}\b)", _I
)
# After "code": an optional link word or sign, then a number of 3 to 8 digits (or groups).
_NUMBER_VALUE = compile_cached(
    # (or its digits one by one: "code 1-9-5-3")
    r"\s*(?:(?:is|was|=|:|-|es|ist|est|är|er|è|é)\s*)?[\"'“‘«]?(?:\d{3,8}(?:[ -]\d{2,6}){0,3}|"
    r"\d(?:[ .-]\d){3,7})(?!\w)",
    _I,
)


# A token with a colon and a value after it ("key for /dev/sda2: ...", "PIN for card 1234:
# 9876") names what the secret opens; the secret follows.
_NAMES_WHAT_IT_OPENS = compile_cached(r"\s*[:：=]\s*\S")
_OPENS_BEFORE = compile_cached(
    r"\b(for|of|on|to|at|für|fürs|zu|de|del|du|pour|para|per|van|voor|för|till|на|для|от)\s+"
    r"(\S+\s+){0,2}$",
    _I,
)
_ASIDE = compile_cached(r"\([^\W\d_][^\W\d_'’ -]*\)")


_CLOSED_AT_END = compile_cached(r"['’\"”»]\)?[.,;:]?$|\)[.,;:]$")


def _trim(token: str) -> str:
    """A token without the punctuation of the sentence around it ("4471." -> "4471"); what a
    password may end with ("Spring!", "x?") is kept."""
    # a quote or bracket closed at the end of a sentence: "(e.g. 'bot, pin this')."
    token = _CLOSED_AT_END.sub("", token) if "(" not in token else token
    token = token.strip("'’\"").rstrip(",;:").lstrip("=:")  # "SMTP_PASS=Hunter2": after "="
    if token.startswith(("(", "[")) and not token.endswith((")", "]")):
        token = token[1:]  # "(auf Wunsch ...)": the bracket opens an aside, not a password
    if token.endswith(")") and "(" not in token:
        token = token[:-1]
    if token.endswith(("(", "[")) and len(token) > 1:
        # "Wlan@Home2023（小米AX3000）": an aside opened right after the value, with no space
        # (a full-width bracket is "(" once read), whose words the token stops before
        token = token[:-1]
    if token[-1:] in ("!", "?") and token[:-1].isdigit():  # "the code is 4471!"
        token = token[:-1]
    if token[-1:] == "?" and token[:-1].isalpha() and token[:-1].islower():
        token = token[:-1]  # "... at the cottage? 2-7-1-5": a word that ends a question
    if token.endswith(".") and (
        token[:-1].isdigit() or token.count(".") == 1 and token[:-1].isalpha()
    ):
        token = token[:-1]
    return token


def _is_value(token: str) -> bool:
    if _ASIDE.fullmatch(token):
        return False  # "(Annecy)", "(Казань)": a place or a name in brackets is an aside
    if len(token) < 3 or token.lower() in _NOT_A_VALUE or _DOMAIN.fullmatch(token):
        return False
    if _DIGIT_WORDS.fullmatch(token):
        return True  # "four-four-nine-one": digits read out, joined by hyphens
    # A word of letters only ("l'immeuble", "wi-fi") is a value only when it looks made up
    # (mixed case, long).
    if _WORDLIKE.fullmatch(token):
        parts = re.split(r"[-'’]", token)
        if len(parts) > 1 and all(
            p.islower() or p.istitle() or (p.isupper() and len(p) <= 4) for p in parts
        ):
            return False  # a compound of words: "EC-Karte", "Wi-Fi", "e-Mail"
        return len(token) >= 6 and not token.islower() and not token.istitle()
    return True


def _describe(text: str, label: re.Match[str], between: str) -> str:
    """What the secret opens, from the words around its label: "allotment gate code",
    "senha do wi-fi da casa de praia"; never the value."""
    before = re.findall(r"[^\W\d_]+", text[max(0, label.start() - 40) : label.start()])
    lead: list[str] = []
    for word in reversed(before[-3:]):
        if _plain_word(word):
            break
        lead.insert(0, word)
    after = [w for w in re.findall(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*", between)]
    while after and _plain_word(after[-1]):
        after.pop()
    words = [*lead, label.group(0).strip(), *after[:6]]
    return " ".join(words)[:80]


_DESCRIPTION_STOP_WORDS = """\
remember save note keep store please pls bitte merk dir merke den die das der dem ein eine
my our your his her their the a an is was are es ist est c'est é è är er mi mis tu su mon
ma mes ton ta meu minha mio mia min mitt mina il la le lo el los las les de del da do du
des di della för till that this que qui which guarda guárdalo recuerda apunta anota
retiens enregistre garde note lembre salve ricorda salva annota kom ihåg spara запомни
сохрани aí ai new now also"""
_DESCRIPTION_STOP = frozenset(_DESCRIPTION_STOP_WORDS.split())


def _plain_word(word: str) -> bool:
    return word.lower() in _DESCRIPTION_STOP or bool(KEEP_INTENT.fullmatch(word))


def secret_kind(label: str) -> str:
    """The kind of secret a label names: "pin", "code" or "password"."""
    lowered = label.lower()
    if re.search(r"pin|nip|暗証|핀|пин", lowered):
        return "pin"
    if re.search(
        r"pass|密码|密碼|口令|パスワード|비밀번호|암호|парол|contraseña|senha|lösenord|"
        r"kennwort|mot de passe|clave",
        lowered,
    ):
        return "password"
    if re.search(
        r"code|kod|codice|código|код|コード|코드|码|碼|combination|combo|otp|puk|open|unlock|"
        r"keypad|yhdistelm|kombina|combinatie|комбина|комбіна|कॉम्बिनेशन|कॉम्बीनेशन|कोम्बिनेशन",
        lowered,
    ):
        return "code"
    return "password"
