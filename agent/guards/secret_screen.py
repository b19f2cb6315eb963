"""The firewall's secret step: mask what must not be stored in clear, or mark it to be sealed.

A secret is found three ways: by its shape (``secrets.redact_secrets``: keys, tokens, cards,
IBANs, "password: ..."), by its label in the write ("alarm code 0442"), and by the user having
named it in the conversation ("the gate code is 4471", so a write of just "4471" is a secret).

What becomes of it depends on whether the user asked to keep it (``keep``): a value the user
said and asked to remember is replaced by a ``[SEALED:n]`` placeholder and listed in
``sealed`` (the memory API encrypts it and puts the sealed record's id in its place); anything
else is masked as ``[REDACTED:<kind>]``. A fact whose predicate names a secret the user did not
ask to keep is refused outright.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from memvisor.agent.memory.writes import Write, map_strings, strings_in

from .keep_intent import answered_values, keep_requested
from .lexicon import SECRET_LABELS_ML
from .proposal import SealedValue
from .regex_cache import compile_cached
from .secret_values import LOCK_CODE, SECRET_LABELS, SecretValue, labelled_values
from .secrets import is_secret_predicate, redact_secrets

# Fields that name a record or a slot: never rewritten.
_NAMES = frozenset({"subject", "predicate", "key", "label", "task_id", "recipe_id", "fact_id"})
KIND_WORDS = {
    "card_number": "card number",
    "iban": "IBAN",
    "api_key": "API key",
    "jwt": "access token",
    "token": "access token",
    "bearer_token": "access token",
    "private_key": "private key",
    "credential_url": "login link",
    "env_secret": "secret setting",
    "key_value_secret": "secret",
    "login_pair": "login",
    "card_security": "card security code",
    "recovery_phrase": "recovery phrase",
    "recovery_key": "recovery key",
    "national_id": "ID number",
}


@dataclass
class SecretOutcome:
    args: dict[str, Any]
    kinds: list[str] = field(default_factory=list)  # what was masked or sealed
    sealed: list[SealedValue] = field(default_factory=list)
    # A fact that names a secret in its predicate, which the user did not ask to keep.
    secret_predicate: bool = False


def screen_secrets(
    kind: type[Write],
    args: dict[str, Any],
    *,
    user_words: list[str],
    keep: bool,
    keep_asked: bool = False,
    page_words: Sequence[str] = (),
    keep_asked_in_words: bool = False,
) -> SecretOutcome:
    """Mask or mark for sealing every secret in the stored fields of ``args`` (a copy).
    ``keep_asked``: the user, writing at their own door, asked in words to keep it (not only
    typed it there).
    ``page_words``: tool results of the conversation, whose labelled values ("mot de passe
    Rivière#41") are masked wherever the write repeats them without their label.
    ``keep_asked_in_words``: the user asked in words to keep it, at any door: a value a page
    gave them is sealed then too."""
    outcome = SecretOutcome(args=dict(args))
    said = [v for text in user_words for v in labelled_values(text)]
    said += answered_values(user_words)  # "my locker combination, keep it", then "17-32-08"
    said_values = {v.value for v in said}
    paged = [v for text in page_words for v in labelled_values(text)]
    named = _named_in_write(kind, args)
    known = {v.value: v for v in [*paged, *said, *named]}
    # Values that may be sealed: the user's own, and a fact "gate_code = 4471" whole.
    sealable = set(said_values)
    if kind.kind == "fact_remember" and _names_secret(str(args.get("predicate", ""))):
        value = _fact_secret(args)
        known.setdefault(value.value, value)
        if not (keep and value.value in said_values | {str(args.get("object", "")).strip()}):
            outcome.secret_predicate = True
            return outcome
        sealable.add(value.value)
    placeholders: dict[str, str] = {}
    heard = _compact(" ".join(user_words))
    # A labelled value of the write that the user typed themselves, whatever stood between
    # their label and it ("retiens le code du portail, s'il te plaît : 1984B", "鍵の番号を保存
    # して。4173です。"), is theirs as much as one they labelled.
    sealable |= {v.value for v in named if _said(v.value, heard)}
    # ... and a short combination typed as the write has it: "5-1-9" for the suitcase lock
    typed = " ".join(user_words)
    sealable |= {v.value for v in named if _typed_as_written(v.value, typed)}
    if keep_asked_in_words and any(_names_a_secret(text) for text in user_words):
        # ... and one a page gave them that they asked to keep, naming it: "save the door
        # code the host sent me" (the value only in the host's message; not "summarize my
        # voice note", whose alarm code was only mentioned)
        shown = _compact(" ".join(page_words))
        sealable |= {v.value for v in named if _said(v.value, shown)}

    def mark(value: SecretValue) -> str:
        # The user's own value, which they asked to keep, is sealed; anything else is masked.
        if not keep or value.value not in sealable:
            outcome.kinds.append(value.kind)
            return f"[REDACTED:{value.kind}]"
        if value.value not in placeholders:
            placeholders[value.value] = f"[SEALED:{len(placeholders) + 1}]"
            outcome.sealed.append(
                SealedValue(
                    placeholder=placeholders[value.value],
                    value=value.value,
                    kind=value.kind,
                    description=value.description,
                )
            )
        outcome.kinds.append(value.kind)
        return placeholders[value.value]

    ordered = sorted(known.values(), key=lambda v: -len(v.value))

    def rewrite(text: str) -> str:
        for value in ordered:
            if value.value in text:
                text = text.replace(value.value, mark(value))

        def pattern_secret(found_kind: str, matched: str) -> str:
            label = KIND_WORDS.get(found_kind, found_kind.replace("_", " "))
            if _said(matched, heard) and (
                found_kind in _SHAPED or (keep_asked and _kept_where_typed(matched, user_words))
            ):
                # An IBAN or a card number the user typed is theirs like a labelled value; a
                # key or a token only when they asked in words to keep it ("my stream key,
                # keep it safe: ..."): typed at their door alone, it stays masked.
                sealable.add(matched)
            return mark(SecretValue(matched, label, found_kind))

        masked, _ = redact_secrets(text, pattern_secret)
        return masked

    for name in kind.stored_text:
        if name not in _NAMES and outcome.args.get(name) is not None:
            outcome.args[name] = map_strings(outcome.args[name], rewrite)
    outcome.kinds = list(dict.fromkeys(outcome.kinds))
    return outcome


_SEPARATORS = compile_cached(r"[\s.\-]+")
# A predicate about the secret, not the secret: "password_manager = 1Password".
_ABOUT_A_SECRET = compile_cached(
    r"\b(managers?|reset|hints?|polic(y|ies)|rules|requirements|strength|length|changed|"
    r"last|expiry|expires|rotation|app|provider|apps|tool|vault)\b",
    re.IGNORECASE,
)

# Account numbers, a wallet's recovery phrase and a login found by their shape alone, which a
# user keeps like a PIN; keys and tokens only when the user asks in words to keep them.
_SHAPED = frozenset(
    {"iban", "card_number", "card_security", "recovery_phrase", "recovery_key", "login_pair"}
)


def _kept_where_typed(value: str, user_words: list[str]) -> bool:
    """Did the user ask to keep something in the message where they typed ``value``?"""
    typed = _compact(value)
    return any(typed in _compact(text) and keep_requested(text) for text in user_words)


def _compact(text: str) -> str:
    return _SEPARATORS.sub("", text)


def _names_a_secret(text: str) -> bool:
    return any(p.search(text) for p in (SECRET_LABELS, SECRET_LABELS_ML, LOCK_CODE))


def _typed_as_written(value: str, typed: str) -> bool:
    """A three-digit combination with its separators ("5-1-9"), found as such in ``typed``:
    too short to match by its digits alone."""
    return bool(_SHORT_COMBINATION.fullmatch(value)) and (
        re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", typed) is not None
    )


_SHORT_COMBINATION = compile_cached(r"\d[-–. ]\d[-–. ]\d")


def _said(matched: str, heard: str) -> bool:
    value = _compact(matched)
    if value[-1:] in ("#", "*") and value[:-1].isdigit():
        value = value[:-1]  # a keypad's "1966#", said "1966 then the hash key"
    return len(value) >= 4 and value in heard


def _names_secret(predicate: str) -> bool:
    words = predicate.replace("_", " ")
    if _ABOUT_A_SECRET.search(words):
        return False
    return is_secret_predicate(predicate) or bool(
        SECRET_LABELS.search(words) or SECRET_LABELS_ML.search(words)
    )


def _fact_secret(args: dict[str, Any]) -> SecretValue:
    """The secret a fact about one holds: the value its object names, or the whole object."""
    predicate = str(args.get("predicate", "")).replace("_", " ")
    obj = str(args.get("object", "")).strip()
    inner = labelled_values(obj)
    value = inner[0].value if inner else obj
    return SecretValue(
        value, predicate[:80], "code" if re.search(r"code|kod", predicate) else "password"
    )


def _named_in_write(kind: type[Write], args: dict[str, Any]) -> list[SecretValue]:
    texts = [
        s for name in kind.stored_text if name not in _NAMES for s in strings_in(args.get(name))
    ]
    return [v for text in texts for v in labelled_values(text)]
