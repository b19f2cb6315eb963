"""Page-in routes, validity, scoring, floor and learning from use."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memvisor.agent.citations import cited_ids, is_correction
from memvisor.agent.loop import NOTHING_RELEVANT, Agent
from memvisor.agent.models.scripted import ScriptedModel
from memvisor.paging.pagein import MemoryItem, PageIn, RankingConfig
from memvisor.storage import ManualClock, Store

pytestmark = pytest.mark.usefixtures("backend")  # a storage contract


def fact(store: Store, predicate: str, obj: str, **kw) -> str:
    write = store.remember_fact(
        user_id="u", subject="Maya", predicate=predicate, object=obj, trace_id="t", **kw
    )
    return write.fact.id


def test_exact_identifier_route_beats_weak_similarity(store: Store) -> None:
    for i in range(30):
        store.insert_passage(
            user_id="u", text=f"Order ORD-{58200 + i}: item number {i}", trace_id="t"
        )
    hits = PageIn(store).retrieve("status of ORD-58213?", user_id="u", kinds=("passage",))
    assert "ORD-58213" in hits[0].text and "exact" in hits[0].routes


def test_superseded_expired_and_quarantined_never_page_in(store: Store, clock: ManualClock) -> None:
    old = fact(store, "lives_in", "Paris")
    clock.advance(timedelta(hours=1))
    new = fact(store, "lives_in", "Shanghai")
    expired = fact(store, "staying_at", "Hotel Lux", valid_until=clock.now() + timedelta(days=1))
    store.quarantine.hold(
        user_id="u",
        tool="fact_remember",
        reasons=["injection"],
        arguments={"subject": "Maya", "predicate": "lives_in", "object": "Atlantis"},
        trace_id="t",
    )
    clock.advance(timedelta(days=2))
    ids = [
        i.id
        for i in PageIn(store, floor=0).retrieve(
            "where does Maya live, which hotel, Paris Shanghai Atlantis Lux", user_id="u"
        )
    ]
    assert new in ids and old not in ids and expired not in ids
    assert not any(
        "Atlantis" in i.text for i in PageIn(store, floor=0).retrieve("Atlantis", user_id="u")
    )


def test_time_route_prefers_what_was_said_then(store: Store, clock: ManualClock) -> None:
    store.log_turn(
        user_id="u", role="user", content="We talked about the garden design", session_id="a"
    )
    clock.advance(timedelta(days=6))
    store.log_turn(
        user_id="u", role="user", content="We talked about the garden budget", session_id="b"
    )
    clock.advance(timedelta(days=1))
    hits = PageIn(store, floor=0).retrieve(
        "what did we say yesterday about the garden?", user_id="u", kinds=("turn",)
    )
    assert "budget" in hits[0].text and "time" in hits[0].routes


def test_floor_pages_nothing_and_the_prompt_says_so(store: Store) -> None:
    fact(store, "lives_in", "Stockholm")
    assert PageIn(store, floor=0.99).retrieve("quantum chromodynamics", user_id="u") == []
    model = ScriptedModel(["ok"])
    agent = Agent(user_id="u", session_id="s", store=store, model=model)
    agent.pagein.floor = 0.99
    agent.step("tell me about quantum chromodynamics")
    assert any(NOTHING_RELEVANT in m["content"] for m in model.calls[0].messages)


def test_use_teaches_the_scorer(store: Store) -> None:
    a = fact(store, "likes", "green tea")
    b = fact(store, "likes", "green apples")
    pagein = PageIn(store, floor=0)
    before = {i.id: i.score for i in pagein.retrieve("green", user_id="u", kinds=("fact",))}
    store.usage.record([a], "cited", user_id="u")
    store.usage.record([b], "corrected", user_id="u")
    after = {i.id: i.score for i in pagein.retrieve("green", user_id="u", kinds=("fact",))}
    assert after[a] > before[a] and after[b] < before[b]


def test_plain_confirmation_is_not_a_correction() -> None:
    for yes in ("yes, that's right", "Yes!", "correct", "对", "exactly"):
        assert not is_correction(yes)
    for no in ("No, I moved to Oslo", "Actually it's 7", "that's wrong", "不对，是上海"):
        assert is_correction(no)


def test_cited_ids_by_identifier_or_words(store: Store, clock: ManualClock) -> None:
    items = [
        MemoryItem(
            id="p1", kind="passage", text="Order ORD-58213: oak desk", ts=clock.now(), score=1
        ),
        MemoryItem(id="f1", kind="fact", text="Maya daughter name Elsa", ts=clock.now(), score=1),
    ]
    assert cited_ids("Your order ORD-58213 ships soon", items) == ["p1"]
    assert cited_ids("Your daughter's name is Elsa", items) == ["f1"]


def test_agent_pages_in_and_records_ids(store: Store) -> None:
    fid = fact(store, "lives_in", "Stockholm", importance=0.9)
    model = ScriptedModel(["You live in Stockholm."])
    turn = Agent(user_id="u", session_id="s", store=store, model=model).step(
        "Remind me, where does Maya live?"
    )
    assert fid in turn.paged_ids and fid in turn.memory_ids and fid in turn.cited_ids
    prompt = "\n".join(m["content"] for m in model.calls[0].messages)
    assert f"[{fid} · fact ·" in prompt
    [event] = store.events.list(user_id="u", kinds=["page_in"])
    assert fid in event.payload["ids"]


def test_pack_is_greedy_by_score_per_token(store: Store, clock: ManualClock) -> None:
    long = MemoryItem(id="long", kind="turn", text="word " * 400, ts=clock.now(), score=0.9)
    short = MemoryItem(id="short", kind="turn", text="short fact", ts=clock.now(), score=0.5)
    packed = PageIn(store).pack([long, short], budget_tokens=100)
    assert [i.id for i in packed] == ["short"]


def test_secrets_in_tool_results_are_masked_before_the_prompt(store: Store) -> None:
    from memvisor.agent.models.base import AssistantTurn, ToolCall

    store.insert_passage(user_id="u", text="deploy key sk-abcdefghijklmnopqrstuvwx", trace_id="t")
    model = ScriptedModel(
        [
            AssistantTurn(
                tool_calls=[
                    ToolCall(
                        id="1", name="archival_memory_search", arguments={"query": "deploy key"}
                    )
                ]
            ),
            "done",
        ]
    )
    Agent(user_id="u", session_id="s", store=store, model=model).step("what's the deploy key?")
    prompt = "\n".join(str(m.get("content")) for m in model.calls[1].messages)
    assert "sk-abcdefghijklmnopqrstuvwx" not in prompt and "[REDACTED:api_key]" in prompt


def test_unused_items_lose_rank_but_not_data(store: Store, clock: ManualClock) -> None:
    used = fact(store, "favourite_tea", "oolong from Fujian")
    unused = fact(store, "favourite_teapot", "oolong clay pot from Fujian")
    pagein = PageIn(store, floor=0)

    def score(item_id: str) -> float:
        items = pagein.retrieve("oolong Fujian", user_id="u", kinds=("fact",))
        return next(i.score for i in items if i.id == item_id)

    fresh_gap = score(unused) / score(used)
    clock.advance(timedelta(days=180))
    store.usage.record([used], "cited", user_id="u")  # used today, the other never since
    clock.advance(timedelta(days=1))
    stale_gap = score(unused) / score(used)
    assert stale_gap < fresh_gap * 0.8  # the unused one fell behind
    weights = pagein.weights
    assert weights.decay(0) == 1.0 and weights.decay(10_000) >= weights.unused_floor
    assert store.facts.get(unused, user_id="u").status == "active"  # rank, not data


def test_decay_never_touches_similarity_only_ranking(store: Store, clock: ManualClock) -> None:
    fact(store, "favourite_tea", "oolong from Fujian")
    pagein = PageIn(store, floor=0)
    before = pagein.rank_turns("oolong", user_id="u")
    clock.advance(timedelta(days=400))
    store.log_turn(user_id="u", role="user", content="I drink oolong daily", session_id="s")
    clock.advance(timedelta(days=400))
    ranked = pagein.rank_turns("oolong", user_id="u")
    assert before == [] and ranked and ranked[0].score == ranked[0].similarity


def test_an_excluded_message_lends_no_context_and_sets_no_scale(
    store: Store, clock: ManualClock
) -> None:
    # The agent pages in for the message it has just logged, excluding it. That message
    # matches itself best; whether its append had landed must not move the other turns.
    said = []
    for text in ("Sounds good", "my dentist is called Dr. Kalo", "the trains were late"):
        clock.advance(timedelta(minutes=1))
        said.append(store.log_turn(user_id="u", role="user", content=text, session_id="s").id)
    pagein = PageIn(store, floor=0.0)
    pagein.rank_turns("warm up", user_id="u")  # every turn indexed
    ranking = RankingConfig(neighbour=0.0, reply=0.0)
    alone = PageIn(store, floor=0.0, ranking=ranking)
    query = "my dentist is called Dr. Kalo"

    def similarities(pages: PageIn) -> dict[str, float]:
        items = pages.retrieve(query, user_id="u", kinds=("turn",), exclude_ids=[said[1]])
        return {item.id: item.similarity for item in items}

    with_context, without = similarities(pagein), similarities(alone)
    assert said[1] not in with_context
    # "Sounds good" has one neighbour, the excluded message: it gains nothing from it
    assert with_context[said[0]] == pytest.approx(without[said[0]])


def test_the_reply_to_a_matched_question_gains_more_than_what_it_answered(
    store: Store, clock: ManualClock
) -> None:
    said = []
    for text in (
        "Nice weather for it",
        "Which city did you fly to for the conference?",
        "Lisbon, and the food was wonderful",
    ):
        clock.advance(timedelta(minutes=1))
        said.append(store.log_turn(user_id="u", role="user", content=text, session_id="s").id)
    before, question, reply = said
    asked = "which city did I fly to for the conference?"

    def similarities(ranking: RankingConfig) -> dict[str, float]:
        pagein = PageIn(store, floor=0.0, ranking=ranking)
        return {i.id: i.similarity for i in pagein.rank_turns(asked, user_id="u", limit=5)}

    off = RankingConfig(neighbour=0.0, reply=0.0, session=0.0, coverage=0.0)
    even = similarities(RankingConfig(neighbour=0.3, reply=0.3, session=0.0, coverage=0.0))
    split = similarities(RankingConfig(neighbour=0.2, reply=0.4, session=0.0, coverage=0.0))
    plain = similarities(off)
    # the question turn matches best and lends context to both sides, its reply more
    assert max(plain, key=lambda i: plain[i]) == question
    assert split[reply] - plain.get(reply, 0.0) > split[before] - plain.get(before, 0.0)
    assert split[reply] > even[reply] and split[before] < even[before]


def test_coverage_lifts_the_turn_whose_exchange_holds_the_query_words(
    store: Store, clock: ManualClock
) -> None:
    said = []
    for session, text in (
        ("s1", "Any book you would recommend for the holidays?"),
        ("s1", "Project Hail Mary: great story, I loved it"),
        ("s2", "The story of my week: rain, rain and more rain"),
        ("s3", "Groceries are expensive this week"),
    ):
        clock.advance(timedelta(minutes=1))
        said.append(store.log_turn(user_id="u", role="user", content=text, session_id=session).id)
    asked = "which story would you recommend as a book?"

    def similarities(coverage: float) -> dict[str, float]:
        ranking = RankingConfig(neighbour=0.0, reply=0.0, session=0.0, coverage=coverage)
        pagein = PageIn(store, floor=0.0, ranking=ranking)
        return {i.id: i.similarity for i in pagein.rank_turns(asked, user_id="u", limit=5)}

    with_coverage, without = similarities(0.2), similarities(0.0)
    gain = {i: with_coverage[i] - without[i] for i in without}
    # the reply holds one query word, its exchange all three; the rainy week one; the
    # groceries, alone in their session, none
    assert gain[said[1]] > gain[said[2]] > 0.0
    assert gain[said[3]] == pytest.approx(0.0)


@pytest.mark.duckdb_only  # PostgreSQL indexes a write before it returns: no embed-ahead
def test_a_turns_writes_reach_page_ins_copies_off_the_readers_path(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Page-in's copies of the facts and of the turn order read a turn's writes on the
    embed-ahead thread, while the user reads the answer; the next page-in reads nothing."""
    import threading

    from memvisor.storage.fact_view import FactView

    pagein = PageIn(store, floor=0.0)
    fact(store, "drinks", "green tea")
    store.log_turn(user_id="u", role="user", content="I drink green tea", session_id="s")
    assert pagein.retrieve("green tea", user_id="u")  # copies held, index reconciled
    store.index.settle()
    readers: list[str] = []
    real_changed, real_after = FactView._read_changed, store.events.messages_after

    def changed(self: FactView, copy: object, user_id: str) -> None:
        readers.append("facts on " + threading.current_thread().name)
        real_changed(self, copy, user_id)  # type: ignore[arg-type]

    def after(*args: object, **kwargs: object) -> object:
        readers.append("turns on " + threading.current_thread().name)
        return real_after(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(FactView, "_read_changed", changed)
    monkeypatch.setattr(store.events, "messages_after", after)
    store.log_turn(user_id="u", role="assistant", content="Oolong is close too", session_id="s")
    oolong = fact(store, "drinks", "oolong tea")
    store.index.settle()
    assert readers and {r.split(" on ")[1] for r in readers} == {"memvisor-embed-ahead"}
    readers.clear()
    items = pagein.retrieve("oolong tea", user_id="u")
    assert oolong in {item.id for item in items}
    assert readers == []  # nothing left to read on the reader's path


@pytest.mark.duckdb_only  # PostgreSQL indexes a write before it returns: no write-behind
def test_writes_made_while_the_append_waits_reach_the_copies_off_the_readers_path(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The write-behind brought the copies up to date, then paused for its append budget;
    a fact written during the pause was embedded there and appended after it, and its
    copy was left to the next page-in (seen once under load)."""
    import threading

    from memvisor.storage import embedders, indexing
    from memvisor.storage.fact_view import FactView

    pagein = PageIn(store, floor=0.0)
    fact(store, "drinks", "green tea")
    assert pagein.retrieve("green tea", user_id="u")  # copies held, index reconciled
    store.index.settle()
    monkeypatch.setattr(indexing, "APPEND_BURST", 1)  # one append, then one per ten minutes
    monkeypatch.setattr(indexing, "APPENDS_PER_S", 1 / 600)
    paused = threading.Event()
    real_pause = embedders.EmbedAhead.pause

    def pause(self: embedders.EmbedAhead, seconds: float) -> None:
        if seconds > 0:
            paused.set()
        real_pause(self, seconds)

    monkeypatch.setattr(embedders.EmbedAhead, "pause", pause)
    fact(store, "drinks", "black tea")  # the budget's last append
    fact(store, "eats", "scones")  # its append waits: the thread pauses
    assert paused.wait(timeout=30)
    readers: list[str] = []
    real_changed = FactView._read_changed

    def changed(self: FactView, copy: object, user_id: str) -> None:
        readers.append(threading.current_thread().name)
        real_changed(self, copy, user_id)  # type: ignore[arg-type]

    monkeypatch.setattr(FactView, "_read_changed", changed)
    oolong = fact(store, "drinks", "oolong tea")  # written during the pause
    store.index.settle()
    assert readers and set(readers) == {"memvisor-embed-ahead"}
    readers.clear()
    assert oolong in {item.id for item in pagein.retrieve("oolong tea", user_id="u")}
    assert readers == []  # nothing left to read on the reader's path
