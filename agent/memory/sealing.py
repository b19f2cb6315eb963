"""Sealed secrets in the memory API: seal what the firewall marked, show and reveal handles.

The firewall replaces a secret the user asked to keep with a ``[SEALED:n]`` placeholder
(``guards/secret_screen.py``). ``seal_values`` encrypts each value into the store's sealed
records (``storage/sealed.py``) inside the write's transaction and puts the record's marker,
``[SEALED:sec_...]``, where the placeholder was. The marker is what is stored, indexed, paged
in, summarised and exported; ``render`` turns it into a handle the model can read ("sealed:
allotment gate code, saved 2026-05-03"), or, when the owner's current message asks for it,
into the value for that turn only, with a ``secret_revealed`` event.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, MutableMapping
from typing import Any

from memvisor.agent.guards.keep_intent import reveal_requested
from memvisor.agent.guards.lexicon import SECRET_LABELS_ML
from memvisor.agent.guards.proposal import SealedValue
from memvisor.agent.guards.provenance import terms
from memvisor.agent.guards.secret_screen import KIND_WORDS
from memvisor.agent.guards.secret_values import SECRET_LABELS, SecretValue, labelled_values
from memvisor.agent.guards.secrets import redact_secrets
from memvisor.agent.memory.writes import map_strings
from memvisor.storage import Store

from .perform import WriteScope

MARKER = re.compile(r"\[SEALED:(sec_[A-Za-z0-9]+)\]")


def marker(secret_id: str) -> str:
    return f"[SEALED:{secret_id}]"


def seal_values(
    store: Store,
    arguments: dict[str, Any],
    sealed: list[SealedValue],
    *,
    scope: WriteScope,
    known: MutableMapping[str, str] | None = None,
) -> dict[str, Any]:
    """``arguments`` with each placeholder replaced by the marker of its sealed record.

    ``known`` (the turn's value -> marker map) reuses a record sealed earlier in the turn and
    learns the new ones, so the turn's logs can be scrubbed of them.
    """
    if not sealed:
        return arguments
    replacements: dict[str, str] = {}
    for item in sealed:
        found = known.get(item.value) if known is not None else None
        if found is None:
            record = store.sealed.seal(
                user_id=scope.user_id,
                value=item.value,
                description=item.description or item.kind,
                kind=_kind(item.kind),
                trace_id=scope.trace_id,
                source_event_ids=list(scope.source_event_ids),
            )
            found = marker(record.id)
            if known is not None:
                known[item.value] = found
        replacements[item.placeholder] = found

    def swap(text: str) -> str:
        for placeholder, value in replacements.items():
            text = text.replace(placeholder, value)
        return text

    return {k: map_strings(v, swap) for k, v in arguments.items()}


def _kind(kind: str) -> str:
    return re.sub(r"[^a-z_]", "", kind.lower()) or "secret"


def sealed_ids(text: str) -> list[str]:
    return list(dict.fromkeys(MARKER.findall(text)))


def render(text: str, handles: Mapping[str, str], revealed: Mapping[str, str]) -> str:
    """Each marker as its value (``revealed``) or its handle; an unknown marker as a bare handle."""

    def show(match: re.Match[str]) -> str:
        secret_id = match.group(1)
        if secret_id in revealed:
            return revealed[secret_id]
        return handles.get(secret_id, f"[sealed secret {secret_id}]")

    return MARKER.sub(show, text)


def seal_text(
    store: Store,
    text: str,
    *,
    user_id: str,
    trace_id: str,
    known: MutableMapping[str, str],
) -> str:
    """``text`` (a message the user sent) with every secret in it sealed: what the event log,
    the index and later prompts keep. The values and their markers are added to ``known``."""
    found = {v.value: v for v in labelled_values(text)}

    labelled = list(found)

    def collect(kind: str, matched: str) -> str:
        # "password is hunter2" by shape is the labelled "hunter2" again: seal the value once.
        if not any(value in matched for value in labelled):
            label = KIND_WORDS.get(kind, kind.replace("_", " "))
            found.setdefault(matched, SecretValue(matched, label, kind))
        return matched

    redact_secrets(text, collect)
    for value in sorted(found.values(), key=lambda v: -len(v.value)):
        if value.value not in known:
            record = store.sealed.seal(
                user_id=user_id,
                value=value.value,
                description=value.description or value.kind,
                kind=_kind(value.kind),
                trace_id=trace_id,
            )
            known[value.value] = marker(record.id)
    for value in sorted(found, key=len, reverse=True):
        text = text.replace(value, known[value])
    return text


def unseal(
    store: Store,
    texts: list[str],
    *,
    user_id: str,
    asked: str,
    trace_id: str,
    session_id: str | None,
    known: MutableMapping[str, str],
) -> list[str]:
    """Texts for the prompt: each sealed marker as a handle, or as its value when the owner's
    current message (``asked``) asks for that secret. A reveal is a ``secret_revealed`` event
    (ids only) and its value joins ``known``, so the turn's logs show the marker again."""
    ids = list(dict.fromkeys(i for t in texts for i in sealed_ids(t)))
    if not ids:
        return texts
    meta = store.sealed.describe(ids, user_id=user_id)
    handles = {
        i: f"[sealed {m.kind}: {m.description}, saved {m.created_at:%Y-%m-%d}; "
        "shown only when the user asks for it]"
        for i, m in meta.items()
    }
    revealed: dict[str, str] = {}
    for secret_id in _asked_for(asked, meta):
        value = store.sealed.reveal(secret_id, user_id=user_id)
        revealed[secret_id] = value
        known[value] = marker(secret_id)
        store.events.append(
            user_id=user_id,
            kind="secret_revealed",
            trace_id=trace_id,
            session_id=session_id,
            payload={"secret_id": secret_id, "description": meta[secret_id].description},
        )
    return [render(t, handles, revealed) for t in texts]


def _asked_for(asked: str, meta: Mapping[str, Any]) -> list[str]:
    """The sealed secrets the message asks for: it asks for something back, and names the
    secret's description (or names a kind of secret when only one is in view)."""
    if not meta or not reveal_requested(asked):
        return []
    words = _words(asked)
    named = [i for i, m in meta.items() if _words(m.description) & words]
    if named:
        return named
    if len(meta) == 1 and (SECRET_LABELS.search(asked) or SECRET_LABELS_ML.search(asked)):
        return list(meta)
    return []


# What names a secret's kind, not which secret: "the gate code" and "the PIN" share "code".
_KIND_TERMS = frozenset({"code", "password", "pin", "passcode", "passwort", "contraseña"})


def _words(text: str) -> set[str]:
    return terms(text) - _KIND_TERMS
