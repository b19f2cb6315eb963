"""Topic switches: the labelled set with the real MiniLM embedder, and the parts on their own.

tests/data/topic_switches.jsonl (78 cases, 24 in Chinese) was written before tuning; the
detector's rules were then adjusted on general grounds (one-word cues need punctuation, a
pronoun after a weak cue points back, a cue may be followed by "but"), not on its strings.
Measured: MiniLM 74/78 (0.949), 0 false switches; words only (hash embedder) 74/78, 1 false.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memvisor.paging.topic_text import (
    find_cue,
    is_cjk,
    lexical_overlap,
    refers_back,
    shared_identifiers,
)
from memvisor.paging.topics import TopicTracker
from memvisor.storage.embedders import HashEmbedder, MiniLMEmbedder

CASES = Path(__file__).parent / "data" / "topic_switches.jsonl"
ORDER = ["Where is my order #48213? It was supposed to arrive yesterday.", "Still no tracking."]


def load_cases() -> list[dict]:
    return [json.loads(line) for line in CASES.read_text(encoding="utf-8").splitlines() if line]


def decide(tracker: TopicTracker, previous: list[str], message: str) -> bool:
    tracker.restore(previous)
    return tracker.check(message).switch


def test_the_labelled_set_is_balanced_and_bilingual() -> None:
    cases = load_cases()
    assert len(cases) >= 60
    assert {c["lang"] for c in cases} == {"en", "zh"}
    switches = [c for c in cases if c["switch"]]
    assert 0.3 <= len(switches) / len(cases) <= 0.6
    # switches without any cue word, and follow-ups that carry one (hard cases both ways)
    assert sum(1 for c in switches if c["note"].startswith("no cue")) >= 8
    assert sum(1 for c in cases if not c["switch"] and "cue word" in c["note"]) >= 4


def test_detector_accuracy_with_minilm(capsys: pytest.CaptureFixture[str]) -> None:
    cases = load_cases()
    tracker = TopicTracker(embedder=MiniLMEmbedder())
    assert tracker.semantic
    counts = {"tp": 0, "fp": 0, "tn": 0, "fn": 0}
    wrong = []
    for case in cases:
        got = decide(tracker, case["previous"], case["message"])
        key = ("t" if got == case["switch"] else "f") + ("p" if got else "n")
        counts[key] += 1
        if got != case["switch"]:
            wrong.append(f"  {'false switch' if got else 'missed'}: {case['message']}")
    accuracy = (counts["tp"] + counts["tn"]) / len(cases)
    with capsys.disabled():
        print(f"\ntopic switches (MiniLM): {counts}, accuracy {accuracy:.3f}")
        print("\n".join(wrong))
    assert accuracy >= 0.85
    assert counts["fp"] <= 2


def test_words_alone_also_work(capsys: pytest.CaptureFixture[str]) -> None:
    """The hash embedder of tests carries no meaning: words and keywords stand in."""
    cases = load_cases()
    tracker = TopicTracker(embedder=HashEmbedder())
    assert not tracker.semantic
    results = [(decide(tracker, c["previous"], c["message"]), c["switch"]) for c in cases]
    correct = sum(got == want for got, want in results)
    false_switches = sum(got and not want for got, want in results)
    with capsys.disabled():
        print(f"\ntopic switches (words): {correct}/{len(cases)}, {false_switches} false")
    assert correct / len(cases) >= 0.85 and false_switches <= 2


@pytest.mark.parametrize(
    ("message", "cue", "strong", "rest"),
    [
        ("Changing the subject, can I book a call?", "changing the subject", True, "can I"),
        ("OK thanks. Unrelated, but what is a good bread recipe?", "unrelated", True, "what"),
        ("By the way, I want to complain.", "by the way", False, "I want"),
        ("Also, I want to complain.", "also", False, "I want"),
        ("换个话题，我想投诉你们的客服。", "换个话题", True, "我想"),
        ("顺便问一下，你们周末营业吗？", "顺便问一下", False, "你们"),
    ],
)
def test_cues_in_english_and_chinese(message: str, cue: str, strong: bool, rest: str) -> None:
    found, is_strong, after = find_cue(message)
    assert (found, is_strong) == (cue, strong)
    assert after.startswith(rest)


@pytest.mark.parametrize(
    "message",
    [
        "Also mention my five years at Unilever.",  # an adverb, not a new point
        "Is the charge unrelated to my order?",  # not at the opening
        "I tried to change the subject line of my email.",
    ],
)
def test_words_that_are_not_cues(message: str) -> None:
    assert find_cue(message)[0] is None


def test_referring_back() -> None:
    assert refers_back("Has it shipped yet?")
    assert refers_back("Will that delay the delivery?")
    assert refers_back("I expect a full refund for that meal.")
    assert refers_back("And the driver was rude too.")
    assert refers_back("那个订单能加急吗？") and refers_back("它到仓库了吗？")
    assert not refers_back("Is it possible to pay by invoice?")  # a dummy "it"
    assert not refers_back("I want a refund for this month's plan, I don't need it.")
    assert refers_back("can the driver leave it at the door", anywhere=True)
    assert not refers_back("这个月的账单多扣了钱")  # 这个月 is "this month"


def test_identifiers_shared_with_the_topic() -> None:
    topic = ["Order 77310 arrived damaged.", "Invoice INV-2231, mail me at a@b.io"]
    assert shared_identifiers("Replace order #77310 please", topic) == {"77310"}
    assert shared_identifiers("Refund inv-2231", topic) == {"inv-2231"}
    assert shared_identifiers("订单77310是不是寄错了", topic) == {"77310"}
    assert not shared_identifiers("Order 12009 at 4pm", topic)


def test_chinese_is_compared_on_words_not_vectors() -> None:
    assert is_cjk("我的订单12345什么时候发货？") and not is_cjk("Order 12345, 谢谢")
    assert lexical_overlap("快递员的电话是多少", ["我的快递显示已签收"]) > 0
    assert lexical_overlap("你们周末营业吗", ["App一打开就闪退"]) == 0


@pytest.mark.parametrize("embedder", [HashEmbedder(), None], ids=["hash", "none"])
def test_guards_win_over_cues(embedder: HashEmbedder | None) -> None:
    tracker = TopicTracker(embedder=embedder)
    tracker.restore(ORDER)
    assert tracker.check("ok thanks").reason == "short"
    assert tracker.check("By the way, has it shipped?").reason == "refers_back"
    same = tracker.check("Different question: is order 48213 insured against loss?")
    assert not same.switch and same.reason == "same_entity"
    switch = tracker.check("By the way, I want to complain about your rude phone support agent.")
    assert switch.switch and switch.signal == "cue" and switch.cue == "by the way"
    assert switch.intent_after == "complaint"
    assert switch.previous_topic.startswith("Where is my order #48213?")


def test_a_weak_cue_on_the_same_topic_is_not_a_switch() -> None:
    tracker = TopicTracker(embedder=HashEmbedder())
    tracker.restore(ORDER)
    decision = tracker.check("By the way, the tracking page shows my parcel in another city.")
    assert not decision.switch and decision.cue == "by the way"
    assert decision.intent_before == decision.intent_after == "order"


def test_step_moves_the_topic_and_restore_rebuilds_it() -> None:
    tracker = TopicTracker(embedder=HashEmbedder())
    assert tracker.step(ORDER[0]).reason == "first_message"
    tracker.step(ORDER[1])
    switch = tracker.step("换个话题，我想投诉你们的客服态度很差。")
    assert switch.switch and tracker.label.startswith("换个话题")
    follow_up = "而且送餐员态度也很差。"
    assert not tracker.step(follow_up).switch
    again = TopicTracker(embedder=HashEmbedder())
    again.restore(["换个话题，我想投诉你们的客服态度很差。", follow_up])
    assert again.label == tracker.label
    probe = "另外，我想改一下账号绑定的手机号。"
    assert again.check(probe) == tracker.check(probe)
    assert tracker.check(probe).switch


def test_thresholds_are_settable() -> None:
    never = TopicTracker(embedder=None, lexical_threshold=0.0, cue_ceiling=-1.0)
    never.restore(ORDER)
    assert not never.check("By the way, I want to complain about your support agent.").switch
    assert TopicTracker(embedder=None, threshold=0.4).strong_threshold == pytest.approx(0.3)
