"""Procedural memory: recipes saved only after a verified success, reused, retired."""

from __future__ import annotations

from typing import Annotated

import pytest

from memvisor.agent.loop import Agent
from memvisor.agent.models.base import AssistantTurn, ToolCall
from memvisor.agent.models.scripted import ScriptedModel
from memvisor.storage import Store
from memvisor.storage.embedders import HashEmbedder
from memvisor.storage.recipes import RecipeStore
from memvisor.tools.builtin import builtin_registry
from memvisor.tools.context import ToolContext
from memvisor.tools.recipes import tool_reports_success, user_confirms_success
from memvisor.tools.registry import ToolRegistry, tool

# A storage contract: every test runs on DuckDB and on PostgreSQL (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("backend")

INVOICE_STEPS = ["invoice_query(month='last')", "csv_export(columns=['date', 'amount'])"]


@tool
def backup_photos(ctx: ToolContext, folder: Annotated[str, "The folder, e.g. holiday."]) -> str:
    """Back up a photo folder (test stand-in for a real action tool).

    Good: backup_photos(folder="holiday")
    Bad: backup_photos(folder="")
    """
    return f"backup of {folder} completed successfully: 120 files"


def registry() -> ToolRegistry:
    reg = builtin_registry(plugins=False)  # the recipe and task tools are built in
    reg.register(backup_photos)
    return reg


def calls(*pairs: tuple[str, dict]) -> AssistantTurn:
    return AssistantTurn(
        tool_calls=[ToolCall(id=str(i), name=n, arguments=a) for i, (n, a) in enumerate(pairs)]
    )


def agent(store: Store, model: ScriptedModel, session: str = "s1") -> Agent:
    return Agent(user_id="u", session_id=session, store=store, model=model, registry=registry())


def save_invoices() -> tuple[str, dict]:
    return (
        "recipe_save",
        {
            "name": "export invoices",
            "trigger": "user wants invoices exported as a CSV file",
            "steps": INVOICE_STEPS,
        },
    )


def last_tool_result(model: ScriptedModel, call_index: int) -> str:
    """The tool output the model read before its call ``call_index`` (without the header)."""
    content = str(model.calls[call_index].messages[-1]["content"])
    header, _, body = content.partition("\n")
    assert header.startswith("[tool result from")
    return body


def test_no_speculative_recipe(store: Store) -> None:
    model = ScriptedModel(
        [calls(save_invoices()), "I'll export them.", calls(save_invoices()), "Sorry about that."]
    )
    bot = agent(store, model)
    bot.step("please export my invoices as CSV")
    assert "not saved" in last_tool_result(model, 1)
    bot.step("that didn't work, the file is empty")
    assert "not saved" in last_tool_result(model, 3)
    assert store.recipes.list(user_id="u", include_retired=True) == []
    writes = store.events.list(user_id="u", kinds=["memory_write"])
    assert not [e for e in writes if e.payload.get("record") == "recipe"]


def test_saved_after_user_confirms_then_reused_ranked_first(store: Store) -> None:
    model = ScriptedModel(
        [
            "I ran invoice_query and csv_export; the file is ready.",
            calls(save_invoices()),
            "Great, I saved how to do it.",
            calls(("backup_photos", {"folder": "holiday"})),
            calls(
                (
                    "recipe_save",
                    {
                        "name": "back up photos",
                        "trigger": "user asks to back up a photo folder",
                        "steps": ["backup_photos(folder=...)"],
                    },
                )
            ),
            "Backed up.",
        ]
    )
    bot = agent(store, model)
    bot.step("export my invoices as CSV")
    bot.step("that worked, thanks!")
    assert last_tool_result(model, 2).startswith("recipe saved: rcp_")
    bot.step("now back up my holiday photos")  # a tool's success report is evidence too
    assert last_tool_result(model, 5).startswith("recipe saved: rcp_")
    invoices = store.recipes.find("Export Invoices", user_id="u")
    assert invoices is not None and invoices.steps == INVOICE_STEPS
    assert (invoices.successes, invoices.failures, invoices.version) == (1, 0, 1)
    evidence = [
        e.payload["evidence"]
        for e in store.events.list(user_id="u", kinds=["memory_write"])
        if e.payload.get("record") == "recipe"
    ]
    assert evidence == ["user_confirmed", "tool_reported:backup_photos"]

    # second occurrence of the task, in a new session: the recipe comes back first
    model = ScriptedModel(
        [
            calls(("recipe_search", {"task": "export the June invoices as a CSV file"})),
            "Following the recipe.",
        ]
    )
    agent(store, model, session="s2").step("can you export the June invoices to CSV?")
    result = last_tool_result(model, 1)
    assert result.splitlines()[0].startswith(f"{invoices.id} 'export invoices'")
    assert all(step in result for step in INVOICE_STEPS)


def test_memory_tool_echo_is_not_evidence(store: Store) -> None:
    model = ScriptedModel(
        [
            calls(
                (
                    "task_update",
                    {
                        "task_id": "deploy",
                        "total": 2,
                        "completed": 1,
                        "last_success": "deploy step succeeded successfully",
                    },
                )
            ),
            calls(save_invoices()),
            "ok",
        ]
    )
    agent(store, model).step("deploy the site")
    assert "not saved" in last_tool_result(model, 2)


def test_same_name_is_versioned_not_duplicated(store: Store) -> None:
    recipes = RecipeStore(store.db, store.clock)
    first = recipes.save(
        user_id="u",
        name="export invoices",
        trigger="invoices to CSV",
        steps=INVOICE_STEPS,
        trace_id="t1",
    )
    again = recipes.save(
        user_id="u",
        name="export  INVOICES",
        trigger="invoices to CSV",
        steps=INVOICE_STEPS,
        trace_id="t2",
    )
    assert again.action == "confirmed" and again.recipe.successes == 2
    repeat = recipes.save(
        user_id="u",
        name="export invoices",
        trigger="invoices to CSV",
        steps=INVOICE_STEPS,
        trace_id="t2",
    )  # same turn: counted once
    assert repeat.recipe.successes == 2
    newer = recipes.save(
        user_id="u",
        name="export invoices",
        trigger="invoices to CSV",
        steps=["billing_api.export(format='csv')"],
        trace_id="t3",
    )
    assert newer.action == "updated" and newer.recipe.id == first.recipe.id
    assert newer.recipe.version == 2 and newer.recipe.steps == ["billing_api.export(format='csv')"]
    assert [v.steps for v in newer.recipe.history] == [INVOICE_STEPS]
    assert newer.recipe.history[0].successes == 2
    assert len(recipes.list(user_id="u", include_retired=True)) == 1
    assert recipes.list(user_id="other") == []


def test_outcome_counts_and_retirement(store: Store) -> None:
    reg_model = ScriptedModel([calls(save_invoices()), "saved"])
    agent(store, reg_model).step("done, thanks")
    recipe = store.recipes.find("export invoices", user_id="u")
    assert recipe is not None
    outcome = ("recipe_outcome", {"recipe_id": recipe.id, "success": True})
    failed = (
        "recipe_outcome",
        {"recipe_id": recipe.id, "success": False, "note": "export button moved"},
    )
    model = ScriptedModel(
        [
            calls(outcome),
            "ok",  # a success without evidence is not counted
            calls(outcome),
            "ok",  # the user confirmed: counted
            calls(failed),
            "ok",
            calls(failed),
            "ok",
            calls(failed),
            "ok",
            calls(failed),
            "ok",
            calls(failed),
            "ok",
        ]
    )
    bot = agent(store, model, session="s2")
    bot.step("export invoices again")
    assert "not counted" in last_tool_result(model, 1)
    bot.step("成功了")
    assert "worked 2 of 2" in last_tool_result(model, 3)
    for message in ("it failed this time", "failed again", "still failing"):
        bot.step(message)
    # 3 failures of 5 is a failure rate of exactly 0.6: not yet retired
    assert store.recipes.get(recipe.id, user_id="u").status == "active"
    bot.step("nope, it broke again")
    assert "retired" in last_tool_result(model, 11)
    retired = store.recipes.get(recipe.id, user_id="u")
    assert (retired.successes, retired.failures, retired.status) == (2, 4, "retired")
    assert retired.notes[-1] == "failed: export button moved"
    bot.step("failed")  # outcomes still count, the recipe stays retired
    assert store.recipes.get(recipe.id, user_id="u").failures == 5
    # never returned again
    assert store.recipes.candidates(user_id="u") == []
    model = ScriptedModel([calls(("recipe_search", {"task": "export invoices as CSV"})), "ok"])
    agent(store, model, session="s3").step("export invoices")
    assert last_tool_result(model, 1).startswith("no saved recipe")
    # a verified success with new steps revives it as a new version
    revived = RecipeStore(store.db, store.clock).save(
        user_id="u",
        name="export invoices",
        trigger="invoices as CSV",
        steps=["billing_api.export()"],
        trace_id="t9",
    )
    assert revived.action == "reactivated" and revived.recipe.status == "active"
    assert (revived.recipe.successes, revived.recipe.failures) == (1, 0)


def test_search_ranks_by_relevance_times_success_rate(store: Store) -> None:
    recipes = RecipeStore(store.db, store.clock)
    embedder = HashEmbedder()
    shaky = recipes.save(
        user_id="u",
        name="export invoices via web",
        trigger="export invoices to CSV",
        steps=["open web ui"],
        trace_id="a",
    ).recipe
    solid = recipes.save(
        user_id="u",
        name="export invoices via api",
        trigger="export invoices to CSV",
        steps=["call api"],
        trace_id="b",
    ).recipe
    recipes.save(
        user_id="u",
        name="water plants",
        trigger="remind me to water the plants",
        steps=["reminder_set"],
        trace_id="c",
    )
    recipes.record_outcome(shaky.id, user_id="u", success=False, trace_id="d")
    recipes.record_outcome(solid.id, user_id="u", success=True, trace_id="e")
    found = recipes.search("export invoices to CSV", user_id="u", embedder=embedder)
    assert [m.recipe.id for m in found[:2]] == [solid.id, shaky.id]
    assert found[0].score == pytest.approx(found[0].similarity * 3 / 4)
    assert all(m.recipe.name != "water plants" for m in found)


@pytest.mark.parametrize(
    "message",
    [
        "that worked, thanks!",
        "It works now",
        "done, thanks",
        "perfect, thank you",
        "成功了",
        "好了，谢谢",
        "worked with no errors",
    ],
)
def test_user_confirmations(message: str) -> None:
    assert user_confirms_success(message)


@pytest.mark.parametrize(
    "message",
    [
        "export my invoices",
        "that didn't work",
        "it is not working",
        "thanks",
        "还是不行",
        "没成功",
        "it failed, no success",
    ],
)
def test_not_confirmations(message: str) -> None:
    assert not user_confirms_success(message)


def test_tool_success_reports() -> None:
    assert tool_reports_success('{"status": "ok", "renamed": 12}')
    assert tool_reports_success("build passed, 0 errors")
    assert not tool_reports_success("Error: permission denied")
    assert not tool_reports_success("3 of 5 uploads failed")
    assert not tool_reports_success("renamed 12 files")


def test_matching_recipe_pages_in_ranked_by_success(store: Store) -> None:
    from memvisor.paging.pagein import PageIn

    recipes = store.recipes
    ids = {}
    for name, worked in (("export invoices via web", False), ("export invoices via api", True)):
        ids[name] = recipes.save(
            user_id="u", name=name, trigger="export invoices to CSV", steps=["s"], trace_id="t"
        ).recipe.id
        recipes.record_outcome(ids[name], user_id="u", success=worked, trace_id=f"o-{name}")
    recipes.save(user_id="u", name="water", trigger="water the plants", steps=["s"], trace_id="w")
    store.insert_passage(user_id="u", text="The invoices folder is on the NAS", trace_id="p")
    pagein = PageIn(store, floor=0.3)
    items = [
        i for i in pagein.retrieve("export invoices to CSV", user_id="u") if i.kind == "recipe"
    ]
    assert [i.id for i in items] == [ids["export invoices via api"], ids["export invoices via web"]]
    assert "Steps: 1. s" in items[0].text and "worked 2" in items[0].text
    assert not [i for i in pagein.retrieve("book a dentist", user_id="u") if i.kind == "recipe"]
    recipes.retire(ids["export invoices via api"], user_id="u")  # retired never pages in
    again = [i.id for i in pagein.retrieve("export invoices to CSV", user_id="u")]
    assert ids["export invoices via api"] not in again and ids["export invoices via web"] in again


def test_users_without_recipes_are_answered_and_a_first_recipe_is_seen(store: Store) -> None:
    """Users with no recipe are answered from one set of owners (no query each); the set
    is read again once the table moves, so a first recipe is offered at once."""
    recipes = store.recipes
    assert recipes.candidates(user_id="u") == [] and recipes.candidates(user_id="v") == []
    recipes.save(user_id="u", name="brew", trigger="make coffee", steps=["grind"], trace_id="t1")
    assert [r.name for r in recipes.candidates(user_id="u")] == ["brew"]
    assert recipes.candidates(user_id="v") == []


def test_usage_of_a_user_with_none_then_with_some(store: Store) -> None:
    assert store.usage.stats(["mem_1"], user_id="u") == {}
    store.usage.record(["mem_1"], "cited", user_id="u")
    assert store.usage.stats(["mem_1"], user_id="u")["mem_1"].cited == 1
    assert store.usage.stats(["mem_1"], user_id="v") == {}
