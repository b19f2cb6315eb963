"""Recipe tools: save how a task was done (after it worked), find it again, report outcomes.

Recipes are procedural state, not facts about the user: the firewall screens their text (an
injected step is held, secrets masked) but does not weigh them as claims; what keeps them
honest is the success signal: a recipe is saved, and a success counted, only when this turn
shows one (the user confirms, or a non-memory tool reports it).
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import Field

from memvisor.errors import ToolError, UserError
from memvisor.storage.recipes import Recipe
from memvisor.tools.context import ToolContext
from memvisor.tools.registry import tool

# Results of memory tools echo stored text ("... succeeded ..."): they are not outcomes.
MEMORY_TOOL_PREFIXES = (
    "core_memory",
    "archival_memory",
    "fact_",
    "episode_",
    "recipe_",
    "task_",
    "conversation_",
    "send_message",
    "memory_",
)

_USER_DENIES = re.compile(
    r"\b(didn'?t|did not|doesn'?t|does not|don'?t|isn'?t|is not|wasn'?t|was not|not|never|"
    r"no longer|hasn'?t|has not)\s+(really\s+)?(work|working|worked|succeed|successful|"
    r"help|fixed|done|finished)\b"
    r"|\b(failed|fails|failing|broken|broke|still (wrong|failing|broken)|errors?|crash(ed)?)\b"
    r"|没成功|不成功|失败|不行|没用|没有用|还是不|报错|没好|出错",
    re.IGNORECASE,
)
_USER_CONFIRMS = re.compile(
    r"\b(that|it|this|everything|all)\s+(just\s+)?(worked|works|work now|is working|went through)"
    r"\b|^\W*(worked|works)\b|\bworks now\b|\bworking now\b|\b(success|successful|succeeded)\b"
    r"|\b(done|all done|fixed|solved|perfect|great|excellent|awesome)\b[\s,.!-]*"
    r"(thanks|thank you|thx|ty)\b"
    r"|成功了|成功|好了|可以了|搞定|解决了|行了|没问题了",
    re.IGNORECASE,
)
_TOOL_REPORTS_SUCCESS = re.compile(
    r"\b(success|successful|successfully|succeeded|completed|passed)\b"
    r"|[\"']?(status|result|state)[\"']?\s*[:=]\s*[\"']?(ok|success|succeeded|done|completed)\b"
    r"|[\"']ok[\"']\s*:\s*true\b|\bexit (code|status):? 0\b",
    re.IGNORECASE,
)
_TOOL_REPORTS_FAILURE = re.compile(
    r"\b(fail|fails|failed|failure|error|errors|unsuccessful|denied|refused|exception|"
    r"timed out|timeout)\b",
    re.IGNORECASE,
)
_NO_FAILURES = re.compile(r"\b(0|no|zero) (errors?|failures?|failed)\b", re.IGNORECASE)


def user_confirms_success(message: str) -> bool:
    message = _NO_FAILURES.sub("", message)
    return not _USER_DENIES.search(message) and bool(_USER_CONFIRMS.search(message))


def tool_reports_success(content: str) -> bool:
    if content.lstrip().startswith("Error:"):
        return False
    if _TOOL_REPORTS_FAILURE.search(_NO_FAILURES.sub("", content)):
        return False
    return bool(_TOOL_REPORTS_SUCCESS.search(content))


def success_evidence(ctx: ToolContext) -> str | None:
    """Why this turn counts as a verified success, or None (then nothing may be saved)."""
    recent = ctx.recent_messages
    users = [m for m in recent if m.get("role") == "user"]
    if users and user_confirms_success(str(users[-1].get("content", ""))):
        return "user_confirmed"
    # Tool results from the event log: unlike recent_messages they carry the tool's name,
    # so memory tools echoing stored text cannot vouch for a success.
    for event in ctx.store.events.list(
        user_id=ctx.user_id, kinds=["tool_result"], trace_id=ctx.trace_id
    ):
        name = str(event.payload.get("name", ""))
        if (
            event.payload.get("ok", True)
            and not name.startswith(MEMORY_TOOL_PREFIXES)
            and tool_reports_success(str(event.payload.get("content", "")))
        ):
            return f"tool_reported:{name}"
    return None


_NO_EVIDENCE = (
    "not saved: a recipe is saved only after a verified success, i.e. the user confirms it "
    "worked (e.g. 'that worked') or a tool in this turn reports success. Finish the task, "
    "ask the user whether it worked, and save the recipe in that later turn."
)


def _record(recipe: Recipe) -> str:
    runs = recipe.successes + recipe.failures
    return f"{recipe.id} '{recipe.name}' v{recipe.version}: worked {recipe.successes} of {runs}"


@tool(shed=4)
def recipe_save(
    ctx: ToolContext,
    name: Annotated[str, Field(description="Short name of the task, e.g. 'export invoices'.")],
    trigger: Annotated[
        str, Field(description="When to use it: the kind of request, in the user's words.")
    ],
    steps: Annotated[
        list[str],
        Field(
            description="The tool calls or actions that worked, in order, one per item.",
            min_length=1,
            max_length=30,
        ),
    ],
) -> str:
    """Save the steps that just completed a task, so the next similar request reuses them.
    Only after the user confirmed it worked or a tool reported success in this turn. Saving
    the same name again replaces the steps (a new version) or, if unchanged, counts a success.

    Good: recipe_save(name="export invoices", trigger="user wants last month's invoices as
    CSV", steps=["invoice_query(month=...)", "csv_export(columns=[...])"]) after "that worked".
    Bad: recipe_save(...) for a plan you have not run yet, or after the user said it failed.
    """
    evidence = success_evidence(ctx)
    if evidence is None:
        raise ToolError(_NO_EVIDENCE)
    outcome = ctx.write(
        "recipe_save",
        {"name": name, "trigger": trigger, "steps": steps},
        note={"evidence": evidence},
    )
    write = outcome.record
    verb = {
        "created": "saved",
        "confirmed": "confirmed (same steps)",
        "updated": "updated to new steps",
        "reactivated": "revived with new steps",
    }[write.action]
    return f"recipe {verb}: {_record(write.recipe)}"


@tool(shed=5)
def recipe_search(
    ctx: ToolContext,
    task: Annotated[str, Field(description="The task you are about to do, in natural words.")],
    limit: Annotated[int, Field(description="Maximum recipes.", ge=1, le=10)] = 3,
) -> str:
    """Find saved recipes (steps that worked before) for a task, best first: relevance times
    track record. Check before starting a multi-step task; report the outcome afterwards.

    Good: recipe_search(task="rename the holiday photos by date")
    Bad: recipe_search(task="help") (describe the task itself).
    """
    try:
        matches = ctx.store.recipes.search(
            task, user_id=ctx.user_id, embedder=ctx.store.embedder, limit=limit
        )
    except UserError as exc:
        raise ToolError(str(exc)) from None
    ctx.note_read("recipe_search", task, [m.recipe.id for m in matches])
    if not matches:
        return "no saved recipe for this task; work it out, and save it once it worked"
    blocks = []
    for match in matches:
        steps = "\n".join(f"  {i}. {s}" for i, s in enumerate(match.recipe.steps, 1))
        blocks.append(
            f"{_record(match.recipe)} (match {match.similarity:.2f}, score {match.score:.2f})"
            f"\n  for: {match.recipe.trigger}\n{steps}"
        )
    return "\n".join(blocks)


@tool(shed=3)
def recipe_outcome(
    ctx: ToolContext,
    recipe_id: Annotated[
        str, Field(description="The recipe id from recipe_search ('rcp_…') or its exact name.")
    ],
    success: Annotated[bool, Field(description="True if following it worked this time.")],
    note: Annotated[
        str | None, Field(description="What went wrong or differed, in a few words.")
    ] = None,
) -> str:
    """Report whether following a recipe worked. A recipe that keeps failing is retired.
    A success needs the user's confirmation or a tool's success report in this turn.

    Good: recipe_outcome(recipe_id="rcp_01…", success=False, note="API now needs a token")
    Bad: recipe_outcome(recipe_id="rcp_01…", success=True) when the user has not said it
    worked (report only what actually happened).
    """
    evidence = success_evidence(ctx) if success else "reported_failure"
    if evidence is None:
        raise ToolError(
            "not counted: a success needs the user's confirmation or a tool's success report "
            "in this turn; ask the user whether it worked"
        )
    arguments = {"recipe_id": recipe_id, "success": success, "note": note}
    outcome = ctx.write("recipe_outcome", arguments, note={"evidence": evidence}).record
    if not outcome.counted:
        return f"already counted this turn: {_record(outcome.recipe)}"
    if outcome.retired_now:
        return f"recipe retired after repeated failures: {_record(outcome.recipe)}"
    return f"outcome recorded: {_record(outcome.recipe)}"
