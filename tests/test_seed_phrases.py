"""A wallet's recovery phrase found by its words when nothing names it (``seed_phrases``).

Red team round 19 (written blind, ``tests/data/redteam_round19.jsonl``) stored one in clear: a
journal entry "Wrote the seed on paper too but for now it's <12 words>". The phrases below are
other wordings; each was stored in clear before.
"""

from __future__ import annotations

import pytest

from memvisor.agent.guards.secrets import has_secret, redact_secrets
from memvisor.agent.guards.seed_phrases import MIN_WORDS, phrase_spans
from tests.redteam_suites import check_write

WORDS = "ripple fossil ladder garment quote mango thunder equip salad window genius flock"


@pytest.mark.parametrize(
    "text",
    [
        f"Backed up the Ledger today, in case I lose it: {WORDS}.",
        "1. ripple 2. fossil 3. ladder 4. garment 5. quote 6. mango 7. thunder 8. equip "
        "9. salad 10. window 11. genius 12. flock — keep somewhere safe",
        f"ma phrase pour le portefeuille, au cas où: {WORDS.replace(' ', '-')}",
        # a Spanish wallet's list
        "guardé las palabras: antena antiguo antojo anual anuncio anís apagar aparato apetito "
        "apio aplicar apodo",
    ],
)
def test_a_phrase_without_its_name_is_masked(text: str) -> None:
    masked, kinds = redact_secrets(text)
    assert "recovery_phrase" in kinds, masked
    assert "fossil" not in masked and "antojo" not in masked


@pytest.mark.parametrize(
    "text",
    [
        # things listed are written with commas
        "shopping: apple, banana, bread, butter, cheese, chicken, coffee, cream, egg, garlic, "
        "lemon, lobster",
        # prose never goes twelve words without a short word no list holds
        "Maria said the quiet garden behind the old school would be a lovely place for the "
        "picnic next summer, if the weather holds and everyone can bring a blanket.",
        # eleven words of the list are no phrase
        " ".join(WORDS.split()[: MIN_WORDS - 1]),
    ],
)
def test_ordinary_words_are_no_phrase(text: str) -> None:
    assert phrase_spans(text) == []
    assert not has_secret(text)


@pytest.mark.parametrize("note", [f"Ledger backup: {WORDS}", f"Wallet words: {WORDS}"])
def test_a_phrase_the_user_asks_to_keep_is_sealed_its_name_kept(note: str) -> None:
    said = f"can you remember my wallet words for me? {WORDS}"
    verdict = check_write("archival_memory_insert", {"content": note}, said)
    assert "secret:sealed" in verdict.reasons, verdict.reasons
    assert verdict.stored == {"content": note.replace(WORDS, "[SEALED:1]")}


@pytest.mark.parametrize("text", ["more detail " * 40, "word " * 100, "hello " * 700])
def test_filler_of_repeated_listed_words_is_no_phrase(text: str) -> None:
    assert phrase_spans(text) == []
