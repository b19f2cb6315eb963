"""Text typed on the wrong keys: one key off on QWERTY ("ohmptr" for "ignore"), Russian
typed with the keyboard left on English ("buyjhbheq" for "игнорируй"), Korean the same way
("dlwjs wltl antlgo" for "이전 지시 무시해"). Each reading is one pass over the text:
``normalize.views`` offers them as views to scan like any other decoding.
"""

from __future__ import annotations

_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
KEY_LEFT = str.maketrans("".join(r[1:] for r in _ROWS), "".join(r[:-1] for r in _ROWS))
KEY_RIGHT = str.maketrans("".join(r[:-1] for r in _ROWS), "".join(r[1:] for r in _ROWS))
# ЙЦУКЕН on the keys of QWERTY
RUSSIAN = str.maketrans("qwertyuiop[]asdfghjkl;'zxcvbnm,.", "йцукенгшщзхъфывапролджэячсмитьбю")

# The Korean two-set layout (두벌식): keys to jamo, jamo to syllables.
_KO_KEYS = dict(
    zip(
        "rRseEfaqQtTdwWczxvgkoiOjpuPhynbml",
        "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎㅏㅐㅑㅒㅓㅔㅕㅖㅗㅛㅜㅠㅡㅣ",
        strict=True,
    )
)
_INITIALS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
_MEDIALS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
_FINALS = " ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ"
_VOWEL_PAIRS = {
    "ㅗㅏ": "ㅘ", "ㅗㅐ": "ㅙ", "ㅗㅣ": "ㅚ", "ㅜㅓ": "ㅝ",
    "ㅜㅔ": "ㅞ", "ㅜㅣ": "ㅟ", "ㅡㅣ": "ㅢ",
}  # fmt: skip
_FINAL_PAIRS = {
    "ㄱㅅ": "ㄳ", "ㄴㅈ": "ㄵ", "ㄴㅎ": "ㄶ", "ㄹㄱ": "ㄺ", "ㄹㅁ": "ㄻ", "ㄹㅂ": "ㄼ",
    "ㄹㅅ": "ㄽ", "ㄹㅌ": "ㄾ", "ㄹㅍ": "ㄿ", "ㄹㅎ": "ㅀ", "ㅂㅅ": "ㅄ",
}  # fmt: skip


def hangul(text: str) -> str:
    """Latin keys read as the Korean two-set layout, composed into syllables."""
    jamo = [_KO_KEYS.get(c, _KO_KEYS.get(c.lower(), c)) for c in text]

    def vowel(i: int) -> bool:
        return i < len(jamo) and jamo[i] in _MEDIALS

    def consonant(i: int) -> bool:
        return i < len(jamo) and jamo[i] in _INITIALS

    out, i = [], 0
    while i < len(jamo):
        if not (consonant(i) and vowel(i + 1)):
            out.append(jamo[i])
            i += 1
            continue
        lead, mid, i = jamo[i], jamo[i + 1], i + 2
        if vowel(i) and mid + jamo[i] in _VOWEL_PAIRS:
            mid, i = _VOWEL_PAIRS[mid + jamo[i]], i + 1
        tail = ""
        if consonant(i) and jamo[i] in _FINALS and not vowel(i + 1):
            tail, i = jamo[i], i + 1
            if consonant(i) and tail + jamo[i] in _FINAL_PAIRS and not vowel(i + 1):
                tail, i = _FINAL_PAIRS[tail + jamo[i]], i + 1
        syllable = (_INITIALS.index(lead) * 21 + _MEDIALS.index(mid)) * 28
        out.append(chr(0xAC00 + syllable + (_FINALS.index(tail) if tail else 0)))
    return "".join(out)
