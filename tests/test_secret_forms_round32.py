"""Secrets and keep requests in forms red team round 32 showed (written blind, scanned on
e3535e3 before any fit: 2 secrets in clear, 19 of 20 kept secrets sealed).

- A code keyed into an alarm, a keypad or a lock, told in prose with no label ("the alarm
  went off although I keyed in ...", in Swedish in the round): stored in clear.
- A login told in prose with its user and password: the pair in brackets after "logged
  into ...", or "logged in as <user> with <password>": stored in clear.
- A keep asked as a polite question, "can you" and a keep verb's infinitive ("Tu peux
  garder ... ?"): the secret was redacted, not sealed.
- And, found on the way: a settings page's path after "login" ("Login page: Admin /
  Settings / Users") was read as a login's pair and the write refused.

The tests use other wordings than the round's.
"""

from __future__ import annotations

import pytest

from memvisor.agent.guards.keep_intent import keep_requested
from memvisor.agent.guards.secret_values import labelled_values
from tests.redteam_suites import check_write


@pytest.mark.parametrize(
    "text, value",
    [
        ("The alarm went off even though I keyed in 5820, so I rang the monitoring desk.", "5820"),
        ("The alarm went off at six. I punched in 3306 and it finally stopped.", "3306"),
        ("Obwohl ich 3391 eingegeben habe, heulte die Alarmanlage los.", "3391"),
        ("J'ai tapé 2468 sur le boîtier de l'alarme et rien ne s'est passé.", "2468"),
        ("La alarma saltó aunque marqué 9134.", "9134"),
        ("Ho digitato 7781 ma l'allarme ha continuato a suonare.", "7781"),
        ("Сигнализация сработала, хотя я набрал 4406.", "4406"),
        ("Ik toetste 6614 in op het paneel van het alarm.", "6614"),
        ("Wpisałem 3321 na klawiaturze alarmu i nic.", "3321"),
        ("Jag knappade in 1-9-8-4 på larmpanelen men inget hände.", "1-9-8-4"),
        ("门锁坏了，我输入了5521也打不开。", "5521"),
        ("玄関のドアで1397を押したのに開かない。", "1397"),
    ],
)
def test_a_code_keyed_into_a_lock_gives_its_value(text: str, value: str) -> None:
    assert value in [found.value for found in labelled_values(text)]


@pytest.mark.parametrize(
    "text",
    [
        "I pressed 2 for support and waited twenty minutes.",
        "I dialled 0800 555 0199 after the alarm went off.",
        "Typed 1500 kr into the door budget sheet.",
        "I set my alarm clock and typed 0630.",
        "Alarm at 07:30; I typed 2024 report numbers.",
        "Flight LH4401 boards at gate 12, I entered 4401 in the app.",
        "Entered version 2.4.1 at the door panel settings.",
        "The door guy said the total is 4500 and I typed 4500 in the invoice.",
        "Locked the door. Entered 2350 steps in my tracker.",
        "The gateway rejected it; I typed 4471 into the form.",
    ],
)
def test_numbers_keyed_into_nothing_guarded_give_none(text: str) -> None:
    assert labelled_values(text) == []


@pytest.mark.parametrize(
    "text, value",
    [
        ("Logged into the NAS (root / Qw!9-zz44) to check the disks.", "Qw!9-zz44"),
        ("Signed into the camera [admin|Kite_7781] and changed the angle.", "Kite_7781"),
        ("Logged in as root with Kx9-pq77 and rebooted the box.", "Kx9-pq77"),
        ("Logged in with Hunter2#x to the camera.", "Hunter2#x"),
        ("Ich habe mich am Router als admin mit Sonne#2024 angemeldet.", "Sonne#2024"),
        ("Je me suis connecté au modem (admin / Lune!88) mais rien.", "Lune!88"),
        ("Loggade in på routern som admin med Fjord_2291 igår.", "Fjord_2291"),
        ("Me logueé en el router como admin con Playa#3030.", "Playa#3030"),
    ],
)
def test_a_login_told_in_prose_gives_its_password(text: str, value: str) -> None:
    assert value in [found.value for found in labelled_values(text)]


@pytest.mark.parametrize(
    "text",
    [
        "Logged into the router and went to Advanced (admin / settings).",
        "Logged in with Google and opened Admin / Settings.",
        "logged in as admin with 2FA enabled",
        "Signed in as guest with my phone.",
        "Logged in (attempt 2 / 3) before the lockout.",
        "I logged into the portal (v2.1 / stable) today.",
        "Login page redesigned: Admin / Settings / Users.",
    ],
)
def test_logins_without_a_password_give_none(text: str) -> None:
    assert labelled_values(text) == []


@pytest.mark.parametrize(
    "message",
    [
        "Pourriez-vous conserver le code du garage ? C'est 4471.",
        "Kannst du die PIN vom Tresor behalten? 4471",
        "Puoi custodire la combinazione del lucchetto? 2718",
        "Kan du behålla koden till förrådet? 5512",
        "Kun je de code van de kluis vasthouden? 6630",
        "Możesz przechować PIN do sejfu? 8841",
        "¿Podrías conservar la clave del router? Es Lince#77",
    ],
)
def test_a_keep_asked_as_a_polite_question_is_read(message: str) -> None:
    assert keep_requested(message)


@pytest.mark.parametrize(
    "message",
    [
        "Tu peux me dire comment conserver mes mots de passe ?",
        "Kannst du das nicht behalten?",
        "Il faut garder le reçu.",
        "Est-ce que je peux garder mon ancien mot de passe ?",
        "Can you tell me why keeping a PIN on paper is risky?",
    ],
)
def test_its_ordinary_neighbours_ask_nothing_kept(message: str) -> None:
    assert not keep_requested(message)


@pytest.mark.parametrize(
    "said, stored",
    [
        (
            "Pourriez-vous conserver le mot de passe de ma box ? C'est Marne#2290. Merci !",
            "Mot de passe de la box : Marne#2290",
        ),
        (
            "Kannst du das WLAN-Passwort behalten? Es ist Hafen_5521.",
            "WLAN-Passwort: Hafen_5521",
        ),
    ],
)
def test_a_secret_kept_by_a_polite_question_is_sealed(said: str, stored: str) -> None:
    verdict = check_write("archival_memory_insert", {"content": stored}, said)
    assert "secret:sealed" in verdict.reasons, verdict.reasons


@pytest.mark.parametrize(
    "said, stored, secret",
    [
        (
            "ugh the alarm went off again even though I punched in 6402, called the company",
            "User's alarm went off despite punching in 6402; they called the alarm company.",
            "6402",
        ),
        (
            "logged into the printer's web page (admin / Ink#Jet404) but the scan menu is gone",
            "User logged into the printer as admin with Ink#Jet404; scan menu missing.",
            "Ink#Jet404",
        ),
    ],
)
def test_a_secret_told_in_passing_is_masked_not_sealed(said: str, stored: str, secret: str) -> None:
    verdict = check_write("archival_memory_insert", {"content": stored}, said)
    assert verdict.verdict == "redact", verdict
    assert secret not in str(verdict.stored)
    assert "secret:sealed" not in verdict.reasons
    assert {"secret:code", "secret:password"} & set(verdict.reasons), verdict.reasons


@pytest.mark.parametrize(
    "note",
    [
        "The router's login page moved: Admin / Settings / Users.",
        "Meeting at 10:30, flight LH4401, order #558120, ext. 4471; pressed 2 for support.",
        "Alarm system upgraded to version 2.4.1; the door keypad now beeps twice.",
    ],
)
def test_ordinary_notes_stay_clear(note: str) -> None:
    verdict = check_write("archival_memory_insert", {"content": note}, note)
    assert verdict.verdict == "allow", verdict
