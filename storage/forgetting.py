"""Forgetting that sticks.

A forgotten fact takes with it what derives from the same source events: passages
and recipes from those events that state its value, and mentions of the value in
episodes and rolling summaries of those events (redacted), and the sentences of core blocks
that state the value (cut). The value is redacted from the text of the user's messages
that state it too (what page-in and search return): the redacted message keeps the hashes
of its earlier texts (``redacted_from``). Tombstones keep the fact's fingerprint, its
source event ids and a hash of each source message's text (and of its earlier texts), so
neither the same events nor a replay of the same words can create it again; a message
logged later with the words of a redacted one is logged redacted (``redacted_turns``).
The user stating it anew, in other words, can.

A message forgotten by its own id (``forget_turn``) keeps its place in the log with
``[forgotten]`` for its text, and leaves the search index.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from memvisor.errors import NotFound, UserError

from .events import FORGET_KIND, MESSAGE_KINDS, EventLog
from .records import Fact

FORGOTTEN = "[forgotten]"
REDACTED_FROM = "redacted_from"  # a redacted message's earlier texts, hashed


def content_hash(text: str) -> str:
    return hashlib.sha256(" ".join(text.lower().split()).encode()).hexdigest()[:32]


def source_hashes(conn: Any, user_id: str, event_ids: Sequence[str]) -> list[str]:
    """Hashes of the message text of these events (what a replay would say again)."""
    if not event_ids:
        return []
    rows = conn.execute(
        "SELECT payload FROM events WHERE user_id = ? AND id IN (SELECT unnest(?))",
        [user_id, list(event_ids)],
    ).fetchall()
    hashes = []
    for (payload,) in rows:
        message = json.loads(payload)
        content = message.get("content")
        if isinstance(content, str) and content.strip():
            hashes.append(content_hash(content))
        hashes.extend(h for h in message.get(REDACTED_FROM, []) if isinstance(h, str))
    return hashes


def redacted_turns(conn: Any, user_id: str) -> dict[str, str]:
    """The hash of every earlier text of the user's redacted messages -> the redacted text."""
    rows = conn.execute(
        "SELECT payload FROM events WHERE user_id = ? AND list_contains(?, kind) "
        f"AND payload->>'$.{REDACTED_FROM}' IS NOT NULL",
        [user_id, list(MESSAGE_KINDS)],
    ).fetchall()
    found: dict[str, str] = {}
    for (payload,) in rows:
        message = json.loads(payload)
        for earlier in message.get(REDACTED_FROM, []):
            found[earlier] = str(message.get("content", ""))
    return found


# A word's surrounding punctuation does not make it another word ("Nordea;" is "Nordea").
_EDGE_PUNCT = "\"'`.,;:!?()[]{}<>«»“”‘’"
_TOKEN = re.compile(r"\S+")


def value_hashes(values: Iterable[str]) -> list[str]:
    """Each forgotten value as ``"N:hash"`` of its N words, lowercased and stripped of edge
    punctuation: what a forget's event keeps so a later write can be checked, never the
    value itself."""
    found = set()
    for value in values:
        words = [w for w in (t.strip(_EDGE_PUNCT).lower() for t in value.split()) if w]
        if words:
            found.add(f"{len(words)}:{content_hash(' '.join(words))}")
    return sorted(found)


def forgotten_value_hashes(conn: Any, user_id: str) -> set[str]:
    """Every value hash the user's forgets recorded (``value_hashes`` of ``memory_forget``)."""
    rows = conn.execute(
        "SELECT payload FROM events WHERE user_id = ? AND kind = ? "
        "AND payload->>'$.value_hashes' IS NOT NULL",
        [user_id, FORGET_KIND],
    ).fetchall()
    return {h for (payload,) in rows for h in json.loads(payload).get("value_hashes", [])}


def forgotten_in(
    conn: Any, events: EventLog, user_id: str, source_event_ids: Sequence[str]
) -> set[str]:
    """The value hashes a new record must not state (``redact_hashed``): the user's forgotten
    values when the record derives from a message a forget redacted (a replay of the same
    words: its turns are logged redacted, and what the model writes from them must not state
    the value again); none otherwise, and no query for a user who never forgot anything."""
    if not source_event_ids or not events.may_have_forgotten(user_id):
        return set()
    redacted = conn.execute(
        "SELECT count(*) FROM events WHERE user_id = ? AND id IN (SELECT unnest(?)) "
        f"AND payload->>'$.{REDACTED_FROM}' IS NOT NULL",
        [user_id, list(source_event_ids)],
    ).fetchall()[0][0]
    return forgotten_value_hashes(conn, user_id) if redacted else set()


def redact_hashed(text: str, hashes: set[str]) -> str:
    """``text`` with every run of words that hashes as a forgotten value (``value_hashes``)
    replaced by the forgotten marker; linear in the words for each value length."""
    sizes = sorted({int(h.split(":", 1)[0]) for h in hashes}, reverse=True)
    if not sizes:
        return text
    words: list[tuple[int, int, str]] = []
    for match in _TOKEN.finditer(text):
        token = match.group(0)
        core = token.strip(_EDGE_PUNCT)
        if core:
            start = match.start() + token.index(core)
            words.append((start, start + len(core), core.lower()))
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        for n in sizes:
            run = words[i : i + n]
            if len(run) == n and f"{n}:{content_hash(' '.join(w[2] for w in run))}" in hashes:
                spans.append((run[0][0], run[-1][1]))
                i += n
                break
        else:
            i += 1
    for start, end in reversed(spans):
        text = text[:start] + FORGOTTEN + text[end:]
    return text


def redact(text: str, values: Iterable[str]) -> str:
    for value in sorted(values, key=len, reverse=True):
        pattern = re.escape(value)
        if value[:1].isalnum():
            pattern = r"(?<!\w)" + pattern
        if value[-1:].isalnum():
            pattern += r"(?!\w)"
        text = re.sub(pattern, FORGOTTEN, text, flags=re.IGNORECASE)
    return text


def cascade(conn: Any, *, user_id: str, versions: Sequence[Fact]) -> dict[str, list[str]]:
    """Remove or redact what derives from the forgotten versions; runs in the caller's tx."""
    sources = sorted({s for v in versions for s in v.source_event_ids})
    values = {v.object.strip() for v in versions if len(v.object.strip()) >= 2}
    report: dict[str, list[str]] = {
        "passages": [],
        "recipes": [],
        "episodes": [],
        "summaries": [],
        "core_blocks": [],
        "turns": [],
    }
    if values:
        report["core_blocks"] = _cut_from_core_blocks(conn, user_id, values)
        report["turns"] = _redact_turns(conn, user_id, values, sources)
        report["events"] = _redact_other_events(conn, user_id, values, sources)
    if not sources or not values:
        return report
    for passage_id, text in conn.execute(
        "SELECT id, text FROM passages WHERE user_id = ? "
        "AND len(list_intersect(source_event_ids, ?)) > 0",
        [user_id, sources],
    ).fetchall():
        if redact(text, values) != text:
            conn.execute("DELETE FROM passages WHERE user_id = ? AND id = ?", [user_id, passage_id])
            report["passages"].append(passage_id)
    for recipe_id, name, trigger, steps in conn.execute(
        "SELECT id, name, trigger, steps FROM recipes WHERE user_id = ? "
        "AND len(list_intersect(source_event_ids, ?)) > 0",
        [user_id, sources],
    ).fetchall():
        text = "\n".join([name, trigger, *steps])
        if redact(text, values) != text:
            conn.execute("DELETE FROM recipes WHERE user_id = ? AND id = ?", [user_id, recipe_id])
            report["recipes"].append(recipe_id)
    for episode_id, summary, entities in conn.execute(
        "SELECT id, summary, entities FROM episodes WHERE user_id = ? "
        "AND len(list_intersect(source_event_ids, ?)) > 0",
        [user_id, sources],
    ).fetchall():
        cleaned = redact(summary, values)
        kept = [e for e in entities or [] if redact(e, values) == e]
        if cleaned != summary or len(kept) != len(entities or []):
            conn.execute(
                "UPDATE episodes SET summary = ?, entities = ? WHERE user_id = ? AND id = ?",
                [cleaned, kept, user_id, episode_id],
            )
            report["episodes"].append(episode_id)
    sessions = [
        r[0]
        for r in conn.execute(
            "SELECT DISTINCT session_id FROM events WHERE user_id = ? AND id IN (SELECT unnest(?)) "
            "AND session_id IS NOT NULL",
            [user_id, sources],
        ).fetchall()
    ]
    for session_id, text in conn.execute(
        "SELECT session_id, text FROM summaries WHERE user_id = ? "
        "AND session_id IN (SELECT unnest(?))",
        [user_id, sessions],
    ).fetchall():
        cleaned = redact(text, values)
        if cleaned != text:
            conn.execute(
                "UPDATE summaries SET text = ?, version = version + 1 "
                "WHERE user_id = ? AND session_id = ?",
                [cleaned, user_id, session_id],
            )
            report["summaries"].append(session_id)
    return report


def forget_turn(conn: Any, *, user_id: str, event_id: str) -> None:
    """Replace the text of one of the user's messages with ``[forgotten]`` (an image's
    caption too); the message keeps its earlier text's hash, so a replay of the same words is
    logged forgotten as well. Runs in the caller's transaction."""
    row = conn.execute(
        "SELECT kind, payload FROM events WHERE user_id = ? AND id = ?", [user_id, event_id]
    ).fetchone()
    if row is None:
        raise NotFound(f"no event {event_id[:60]!r} for user {user_id!r}")
    kind, payload = row
    if kind not in MESSAGE_KINDS:
        raise UserError(
            f"{event_id} is a {kind} event: the log keeps those; forget a message (a turn) "
            "or the record the event made"
        )
    message = json.loads(payload)
    content = message.get("content")
    if content == FORGOTTEN:
        return
    if isinstance(content, str) and content.strip():
        message[REDACTED_FROM] = [*message.get(REDACTED_FROM, []), content_hash(content)]
    message["content"] = FORGOTTEN
    message.pop("image_caption", None)
    conn.execute(
        "UPDATE events SET payload = ? WHERE user_id = ? AND id = ?",
        [json.dumps(message, ensure_ascii=False, default=str), user_id, event_id],
    )


def _redact_turns(conn: Any, user_id: str, values: set[str], sources: list[str]) -> list[str]:
    """Redact the values from the user's messages: the source events, and any other message
    stating a value of three characters or more. Each keeps its earlier texts' hashes."""
    anywhere = sorted(v for v in values if len(v) >= 3)
    likes, patterns = _stating("payload->>'$.content'", anywhere)
    rows = conn.execute(
        "SELECT id, payload FROM events WHERE user_id = ? AND list_contains(?, kind) "
        f"AND (id IN (SELECT unnest(?)) OR {likes})",
        [user_id, list(MESSAGE_KINDS), sources, *patterns],
    ).fetchall()
    redacted = []
    for event_id, payload in rows:
        message = json.loads(payload)
        content = message.get("content")
        if not isinstance(content, str):
            continue
        cleaned = redact(content, values if event_id in sources else anywhere)
        if cleaned == content:
            continue
        message["content"] = cleaned
        message[REDACTED_FROM] = [*message.get(REDACTED_FROM, []), content_hash(content)]
        conn.execute(
            "UPDATE events SET payload = ? WHERE user_id = ? AND id = ?",
            [json.dumps(message, ensure_ascii=False, default=str), user_id, event_id],
        )
        redacted.append(event_id)
    return redacted


def _redact_other_events(
    conn: Any, user_id: str, values: set[str], sources: list[str]
) -> list[str]:
    """Redact the values from the strings of the user's other events: the tool calls and
    results that carried them, the requests and commands that wrote them, the reads that
    returned them (``trace`` and ``export`` show these). The same rule as for messages: the
    source events lose every value, any other event a value of three characters or more.
    Keys and the forget events themselves are left as they are."""
    anywhere = sorted(v for v in values if len(v) >= 3)
    # the payload is JSON text: a value is found as JSON writes it
    likes, patterns = _stating("payload", [_as_json(v) for v in anywhere])
    rows = conn.execute(
        "SELECT id, payload FROM events WHERE user_id = ? "
        "AND NOT list_contains(?, kind) AND kind <> 'memory_forget' "
        f"AND (id IN (SELECT unnest(?)) OR {likes})",
        [user_id, list(MESSAGE_KINDS), sources, *patterns],
    ).fetchall()
    redacted = []
    for event_id, payload in rows:
        before = json.loads(payload)
        after = _redact_strings(before, values if event_id in sources else set(anywhere))
        if after != before:
            conn.execute(
                "UPDATE events SET payload = ? WHERE user_id = ? AND id = ?",
                [json.dumps(after, ensure_ascii=False, default=str), user_id, event_id],
            )
            redacted.append(event_id)
    return redacted


def _redact_strings(value: Any, values: Iterable[str]) -> Any:
    if isinstance(value, str):
        return redact(value, values)
    if isinstance(value, list):
        return [_redact_strings(item, values) for item in value]
    if isinstance(value, dict):
        return {key: _redact_strings(item, values) for key, item in value.items()}
    return value


def _stating(column: str, values: list[str]) -> tuple[str, list[str]]:
    """SQL true when ``column`` holds any of ``values`` (any case), with its parameters."""
    likes = " OR ".join([f"{column} ILIKE ? ESCAPE '\\'"] * len(values)) or "FALSE"
    return likes, [f"%{_like(v)}%" for v in values]


def _as_json(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)[1:-1]


def _like(value: str) -> str:
    return value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


_SENTENCE = re.compile(r"(?<=[.!?。！？;；])\s+|\n+")


def _cut_from_core_blocks(conn: Any, user_id: str, values: set[str]) -> list[str]:
    """Drop from every core block the sentences that state a forgotten value ("Partner:
    Jonas." after forgetting has_partner Jonas); a new version of each block that changed."""
    wanted = {v for v in values if len(v) >= 3}
    changed = []
    for label, text in conn.execute(
        "SELECT label, value FROM core_blocks WHERE user_id = ?", [user_id]
    ).fetchall():
        parts = [p for p in _SENTENCE.split(text) if p.strip()]
        kept = [p for p in parts if redact(p, wanted) == p]
        if len(kept) == len(parts):
            continue
        conn.execute(
            "UPDATE core_blocks SET value = ?, version = version + 1 "
            "WHERE user_id = ? AND label = ?",
            ["\n".join(kept), user_id, label],
        )
        changed.append(label)
    return changed
