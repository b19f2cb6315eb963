"""Undo the disguises an instruction hides behind, so detectors read what a model would read.

``views(text)`` yields ``(channel, text)`` pairs: the plain text, a canonical form (NFKC folds
full-width and math letters; zero-width and bidi characters dropped; Cyrillic/Greek look-alikes
mapped; HTML entities and URL escapes decoded), a de-obfuscated form (leetspeak inside words,
s p a c e d / d.o.t.t.e.d letters joined), and decodings of hidden payloads (base64, hex,
Unicode tag characters, rot13). A channel other than ``plain``/``canonical`` names the
obfuscation in the firewall's reasons.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import re
import unicodedata
import urllib.parse
from collections.abc import Iterator

_INVISIBLE = re.compile(
    "[\u00ad\u034f\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u206a-\u206f\ufeff]"
)
_TAGS = re.compile("[\U000e0000-\U000e007f]+")
_CONFUSABLES = str.maketrans(
    {
        "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i",
        "ј": "j", "ѕ": "s", "ԁ": "d", "ɡ": "g", "А": "A", "В": "B", "Е": "E", "К": "K",
        "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "Х": "X", "І": "I",
        "α": "a", "ο": "o", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ρ": "p", "τ": "t",
        "υ": "u", "Ο": "O", "Α": "A", "Ε": "E", "Ι": "I",
    }
)  # fmt: skip
_LEET = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i"}
)
# Words that may mix letters with leet symbols, e.g. "1gn0r3", "pr3v10u5", "4ll".
_LEET_WORD = re.compile(r"[\w@$!]{2,}")
# Three or more single letters joined by one separator: "i g n o r e", "D.A.N", "r-u-l-e-s".
_SPACED = re.compile(r"(?<![\w])(?:[A-Za-z][ .\-_*·]){2,}[A-Za-z](?![\w])")
_CJK_GAP = re.compile(r"(?<=[\u3400-\u9fff])[\s\u3000]+(?=[\u3400-\u9fff])")
_BASE64 = re.compile(r"[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9_-]{16,}={0,2}")
_HEX = re.compile(r"\b(?:[0-9a-fA-F]{2}){8,}\b")
_URL_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_MAX_DEPTH = 2


def canonical(text: str) -> str:
    """The text as a reader sees it: one form per glyph, nothing invisible, entities decoded."""
    text = html.unescape(text)
    if _URL_ESCAPE.search(text):
        text = urllib.parse.unquote(text)
    text = unicodedata.normalize("NFKC", text)
    text = _INVISIBLE.sub("", _TAGS.sub("", text)).translate(_CONFUSABLES)
    return _CJK_GAP.sub("", text)


def deobfuscate(text: str) -> str:
    """Leetspeak inside words undone, spaced-out letters joined (applied to canonical text)."""
    text = _LEET_WORD.sub(lambda m: _unleet(m.group(0)), text)
    return _SPACED.sub(lambda m: re.sub(r"[ .\-_*·]", "", m.group(0)), text)


def _unleet(word: str) -> str:
    mixed = re.search(r"[A-Za-z]", word) and re.search(r"[0-9@$!]", word)
    return word.translate(_LEET) if mixed else word


def compact(text: str) -> str:
    """Letters only, lower case: catches words split by any separator ("ig-no re")."""
    return re.sub(r"[^a-z]", "", deobfuscate(canonical(text)).lower())


def views(text: str, depth: int = 0) -> Iterator[tuple[str, str]]:
    """Every reading of ``text`` worth scanning, as (channel, text)."""
    yield "plain", text
    canon = canonical(text)
    if canon != text:
        yield "canonical", canon
    clear = deobfuscate(canon)
    if clear != canon:
        yield "obfuscated", clear
    hidden = _tag_text(text)
    if hidden:
        yield "unicode_tags", hidden
    if depth >= _MAX_DEPTH:
        return
    for channel, decoded in _decodings(canon, depth):
        # rot13 is its own inverse: decoding it further would only undo it.
        below = _MAX_DEPTH if channel == "rot13" else depth + 1
        for inner, view in views(decoded, below):
            yield (channel if inner in ("plain", "canonical") else f"{channel}+{inner}"), view


def _decodings(text: str, depth: int) -> Iterator[tuple[str, str]]:
    for blob in _BASE64.findall(text):
        decoded = _b64(blob)
        if decoded:
            yield "base64", decoded
    for blob in _HEX.findall(text):
        decoded = _readable(bytes.fromhex(blob))
        if decoded:
            yield "hex", decoded
    if depth == 0 and re.search(r"[A-Za-z]{4,}", text):
        yield "rot13", codecs.encode(text, "rot13")


def _tag_text(text: str) -> str:
    # Unicode tag characters (U+E0020..U+E007E) mirror ASCII and render as nothing.
    chars = [chr(ord(c) - 0xE0000) for run in _TAGS.findall(text) for c in run]
    return "".join(c for c in chars if c.isprintable())


def _b64(blob: str) -> str | None:
    padded = blob + "=" * (-len(blob) % 4)
    for decode in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            raw = decode(padded)
        except (binascii.Error, ValueError):
            continue
        text = _readable(raw)
        if text:
            return text
    return None


def _readable(raw: bytes) -> str | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    # Random bytes rarely decode to mostly letters: demand text, not noise.
    letters = sum(ch.isalpha() or ch.isspace() for ch in text)
    return text if text and text.isprintable() and letters >= 0.7 * len(text) else None
