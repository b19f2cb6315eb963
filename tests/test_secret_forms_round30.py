"""Secrets and keep requests in forms red team round 30 showed (written blind, scanned on
a109883 before any fit: 2 secrets in clear, 17 of 20 kept secrets sealed).

- A keep request asked as a question in Turkish ("kaydeder misin?") or with an infinitive
  and its pronouns in Italian, Spanish, Portuguese ("puoi ricordarti ...?", "¿puedes
  guardármelo?", "podes guardá-lo?"): the secret was redacted, not sealed.
- A code named by what it opens in Ukrainian ("код від ...") and Polish ("kod do ..."): the
  value was stored in clear.
- A code's value given alone in brackets later in its sentence ("... wants the PUK; it is on
  the card (48213907)"): stored in clear.

The tests use other wordings than the round's.
"""

from __future__ import annotations

import pytest

from memvisor.agent.guards.keep_intent import keep_requested
from memvisor.agent.guards.secret_values import labelled_values
from tests.redteam_suites import check_write


@pytest.mark.parametrize(
    "message",
    [
        "Bisiklet kilidinin şifresini saklayabilir misiniz? 5518",
        "Wi-Fi şifremi aklında tutar mısın? Kedi_2024",
        "Puoi salvarmelo? Il PIN della carta è 7730.",
        "Riesci a ricordartelo? Codice del garage 41902.",
        "¿Me puedes anotármelo? El código del portal es 3318.",
        "¿Puedes guardarme la contraseña del router? Es Lince#77",
        "Você pode anotá-lo? O código do portão é 9021.",
    ],
)
def test_keep_requests_in_these_forms_are_read(message: str) -> None:
    assert keep_requested(message)


@pytest.mark.parametrize(
    "message",
    [
        "Vuoi ricordarmi di chiamare mamma domani?",  # remind me, not keep
        "¿Puedes recordarme la cita del dentista?",
        "Ti ricordi quando siamo andati a Roma?",
        "Bu akşam maçı izler misin?",
    ],
)
def test_their_ordinary_neighbours_ask_nothing_kept(message: str) -> None:
    assert not keep_requested(message)


@pytest.mark.parametrize(
    "text, value",
    [
        ("Код від гаража: 7731", "7731"),
        ("код до сейфа у спальні 55012", "55012"),
        ("Kod do furtki na działce to 4417.", "4417"),
        ("Kod od domofonu: 2290", "2290"),
        ("The SIM asks for its PUK; he found it on the plastic card (39017722).", "39017722"),
        ("Nach dem Neustart will das Handy die PIN; sie steht im Brief (5512).", "5512"),
    ],
)
def test_these_forms_give_their_value(text: str, value: str) -> None:
    assert value in [found.value for found in labelled_values(text)]


@pytest.mark.parametrize(
    "text",
    [
        "Код від гаража загубився, треба викликати майстра.",
        "Kod do furtki zmienia się w maju.",
        "The PIN pad was broken; we paid in cash (2019 all over again).",
        "PIN reset done; see ticket (case 4 of 7).",
    ],
)
def test_their_ordinary_neighbours_give_none(text: str) -> None:
    assert labelled_values(text) == []


@pytest.mark.parametrize(
    "said, stored",
    [
        (
            "Depo kapısının şifresini kaydedebilir misin? 6402. Sadece ben kullanacağım.",
            "Depo kapısı şifresi: 6402",
        ),
        (
            "Puoi ricordarti la combinazione del lucchetto della bici? È 2718.",
            "Combinazione lucchetto bici: 2718",
        ),
        ("Запам'ятай, будь ласка: код від хвіртки 8841.", "Код від хвіртки: 8841"),
    ],
)
def test_a_secret_kept_in_these_forms_is_sealed(said: str, stored: str) -> None:
    verdict = check_write("archival_memory_insert", {"content": stored}, said)
    assert "secret:sealed" in verdict.reasons, verdict.reasons


def test_a_code_mentioned_in_passing_is_not_stored_in_clear() -> None:
    said = "Код від поштової скриньки 3306, а ключ від підвалу загубився. Що робити?"
    verdict = check_write("archival_memory_insert", {"content": said}, said)
    assert "3306" not in str(verdict.stored), verdict
