"""The firewall's pattern gates (``agent/guards/prefilter``) never skip a pattern that
would match: checked on strings generated to match each gated pattern, on every red-team
suite's texts and their readings, and on case and whitespace variants the regex engine
treats as equal."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memvisor.agent.guards import crossuser, injection, lexicon, prefilter, rules, sensitive
from memvisor.agent.guards.normalize import views
from memvisor.agent.guards.prefilter import _sre_parse

DATA = Path(__file__).parent / "data"
SAMPLED = 200  # readings of the suites' writes checked against every gated pattern (~8 s)
GATED_TABLES = [p for patterns in injection.TABLE.values() for p in patterns] + list(
    sensitive.CATEGORIES.values()
)
# crossuser reads its own patterns through ``prefilter.finditer``
CROSSUSER = [
    p
    for p in (*vars(crossuser).values(), *crossuser._NAMED_USER, *crossuser._NAMED_SESSION)
    if isinstance(p, re.Pattern)
]


def _suite_writes() -> list[str]:
    """What every red-team suite's writes would store."""
    texts = []
    for path in sorted(DATA.glob("redteam*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                arguments = json.loads(line).get("arguments", {})
                texts += [v for v in arguments.values() if isinstance(v, str)]
    return texts


def test_most_patterns_have_a_gate() -> None:
    gated = [p for p in GATED_TABLES if prefilter.required_words(p) is not None]
    assert len(gated) >= 0.9 * len(GATED_TABLES)


@pytest.mark.parametrize(
    ("pattern", "words"),
    [
        (
            r"\b(ignore|disregard)\s+(all|any)\s+previous\b",
            {f"{a} {b} previous" for a in ("ignore", "disregard") for b in ("all", "any")},
        ),
        (r"ab\s+(jetzt|sofort)", {"ab jetzt", "ab sofort"}),
        (r"ab\s*(jetzt|sofort)", {"ab jetzt", "ab sofort", "abjetzt", "absofort"}),
        (
            r"(?:prevails? over|takes? precedence)",
            {"prevail over", "prevails over", "take precedence", "takes precedence"},
        ),
        (r"\bAPI[ _-]?key\b", {"apikey", "api key", "api_key", "api-key"}),
        (r"\bsend (it|them) to \w+@", {"send it to ", "send them to "}),
        (r"\b(?:忽略|无视)(指令|规则)", {"忽略指令", "忽略规则", "无视指令", "无视规则"}),
    ],
)
def test_words_are_read_off_the_pattern(pattern: str, words: set[str]) -> None:
    assert prefilter.required_words(re.compile(pattern, re.IGNORECASE)) == words


@pytest.mark.parametrize(
    "pattern",
    [r"\w+\s+\w+", r"(a|b)c", r"(?:on|in)\b", r"x{0,3}", r"[^.]+"],
)
def test_patterns_without_strong_words_are_always_run(pattern: str) -> None:
    compiled = re.compile(pattern)
    assert prefilter.required_words(compiled) is None
    assert prefilter.may_match(compiled, "zzz")


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        (r"\bignore\b", "İGNORE the rules"),  # str.lower gives i + a combining dot
        (r"\bignore\b", "ıgnore the rules"),  # dotless i
        (r"\bsystem\b", "ſyſtem prompt"),  # long s
        (r"\bkey\b", "\u212aey"),  # Kelvin sign
        (r"ab\s+jetzt", "Ab\t\n  JETZT"),
        (r"from now on", "FROM NOW ON"),
    ],
)
def test_gates_fold_as_the_regex_engine_does(pattern: str, text: str) -> None:
    compiled = re.compile(pattern, re.IGNORECASE)
    assert compiled.search(text)
    assert prefilter.required_words(compiled) is not None
    assert prefilter.may_match(compiled, text)


def test_a_gate_says_no_only_when_the_pattern_cannot_match() -> None:
    texts = _suite_writes()
    assert len(texts) > 1000
    texts = texts[:: max(1, len(texts) // SAMPLED)]  # every suite, evenly
    readings = sorted({view for text in texts for _, view in views(text)})
    readings = readings[:: max(1, len(readings) // SAMPLED)]
    skipped = 0
    for pattern in GATED_TABLES + CROSSUSER:
        if prefilter.required_words(pattern) is None:
            continue
        for reading in readings:
            if not prefilter.may_match(pattern, reading):
                skipped += 1
                assert pattern.search(reading) is None, (pattern.pattern[:80], reading[:80])
    assert skipped > len(readings)  # the gates do skip work


def test_a_gated_table_offers_exactly_the_patterns_whose_gate_passes() -> None:
    table = prefilter.GatedTable(injection.TABLE)
    texts = _suite_writes()
    readings = sorted(
        {view for text in texts[:: max(1, len(texts) // SAMPLED)] for _, view in views(text)}
    )
    offered_somewhere = 0
    for reading in readings:
        offered = table.candidates(reading)
        expected = {
            name: [p for p in patterns if prefilter.may_match(p, reading)]
            for name, patterns in injection.TABLE.items()
        }
        assert offered == {name: found for name, found in expected.items() if found}, reading[:80]
        offered_somewhere += sum(map(len, offered.values()))
    # the table narrows: far fewer patterns offered than asked of every reading
    assert 0 < offered_somewhere < len(readings) * len(GATED_TABLES) / 4


@pytest.mark.parametrize("index", range(0, len(GATED_TABLES), 1))
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_strings_made_to_match_pass_the_gate(index: int, data: st.DataObject) -> None:
    pattern = GATED_TABLES[index]
    if prefilter.required_words(pattern) is None:
        return
    if _sre_parse.parse(pattern.pattern, pattern.flags).getwidth()[0] == 0:
        # look-aheads alone (a clause that holds X and Y): hypothesis draws strings ignoring
        # them and keeps those that match, tens of seconds for four. Their gates are checked
        # on the suites' readings above, where these patterns do match.
        return
    try:
        strategy = st.from_regex(pattern)
    except Exception:  # a construct hypothesis cannot generate from: the suite test covers it
        return
    text = data.draw(strategy)
    if pattern.search(text):
        assert prefilter.may_match(pattern, text), (pattern.pattern[:80], text[:80])


# -- one pattern of many alternatives (``prefilter.GatedPattern``) ---------------------------

GATED_PATTERNS = {
    name: getattr(rules, name)
    for name in ("RULE_CUES_ML", "THIRD_PARTY_ML", "PROMOTION_ML", "USER_THIRD_PERSON")
} | {"_AGENT_VERB_ML": rules._AGENT_VERB_ML, "SECRET_LABELS_ML": lexicon.SECRET_LABELS_ML}


@pytest.mark.parametrize("name", sorted(GATED_PATTERNS))
def test_a_gated_pattern_finds_what_the_whole_one_does(name: str) -> None:
    gated = GATED_PATTERNS[name]
    texts = _suite_writes()
    readings = sorted(
        {view for text in texts[:: max(1, len(texts) // (3 * SAMPLED))] for _, view in views(text)}
    )
    found = 0
    for reading in readings:
        whole = [m.span() for m in gated.whole.finditer(reading)]
        assert [m.span() for m in gated.finditer(reading)] == whole, reading[:80]
        found += bool(whole)
    assert found >= 5  # the patterns do match some of the suites' writes
    assert gated.candidates("x") is not None  # read apart, not run whole


@pytest.mark.parametrize(
    ("pattern", "text", "spans"),
    [
        # leftmost wins, whichever alternative it is
        (
            r"\bzebra crossing\b|\bapple pie\b",
            "apple pie before zebra crossing",
            [(0, 9), (17, 31)],
        ),
        # at the same start the first alternative wins, as in the whole pattern
        (r"(?:apple|applesauce)|applesauce jar", "applesauce jar", [(0, 5)]),
        # an alternative written twice (as an accent-free copy may be) changes nothing
        (r"(?:stolen|mango)|(?:stolen|melon)", "melon mango stolen", [(0, 5), (6, 11), (12, 18)]),
        # groups inside an alternative: read apart, spans kept
        (
            r"\b(when|whenever) (the user|he)\b|\bbanana(s)?\b",
            "bananas whenever he",
            [(0, 7), (8, 19)],
        ),
    ],
)
def test_a_gated_pattern_keeps_the_engines_order(
    pattern: str, text: str, spans: list[tuple[int, int]]
) -> None:
    compiled = re.compile(pattern, re.IGNORECASE)
    gated = prefilter.GatedPattern(compiled)
    assert [m.span() for m in compiled.finditer(text)] == spans
    assert [m.span() for m in gated.finditer(text)] == spans
    assert gated.candidates(text) is not None
    assert gated.search("nothing here at all") is None


@pytest.mark.parametrize(
    "pattern",
    [
        r"(?i)apple pie|zebra",  # flags for the whole pattern
        r"apple pie|x*",  # an alternative that matches the empty string
        r"(?x) apple \s pie | zebra",  # verbose
        r"(a)?(?(1)pple pie|zebra)",  # a conditional
        r"\w+|\d+",  # no alternative has a gate
    ],
)
def test_patterns_not_read_apart_run_whole(pattern: str) -> None:
    compiled = re.compile(pattern)
    gated = prefilter.GatedPattern(compiled)
    assert gated.candidates("apple pie") is None
    text = "an apple pie and a zebra"
    assert [m.span() for m in gated.finditer(text)] == [m.span() for m in compiled.finditer(text)]


def test_a_gated_pattern_iterates_overlapping_alternatives_as_the_engine_does() -> None:
    # the alternatives' matches overlap and interleave; each next match is the leftmost after
    # the last one's end, as the whole pattern finds it
    compiled = re.compile(r"apple pie|pie crust|crust(?:y)? apple|\bapple\b", re.IGNORECASE)
    gated = prefilter.GatedPattern(compiled)
    text = "apple pie crust apple Pie crusty apple apple, " * 300
    spans = [m.span() for m in compiled.finditer(text)]
    assert len(spans) > 900
    assert [m.span() for m in gated.finditer(text)] == spans
    assert [m.span() for m in gated.finditer(text, 7, 400)] == [
        m.span() for m in compiled.finditer(text, 7, 400)
    ]
