"""``memvisor mcp``: Memvisor's memory as tools for any MCP client's model.

Built on the official SDK's ``MCPServer``. One connection serves one user: the server's
``--user``, or over HTTP with ``keys`` the user of the API key the connection authenticated
with (``memvisor keys create``; the SDK binds each session to the key that opened it). Every
tool reads and writes that user's memory only, through the one guarded memory API. The client's
model decides what to write, so writes have origin ``model`` and pass the firewall as the
agent's own tools do; each tool call is logged as an ``mcp_request`` event, which the write
cites as its source. A tool result says when a write was masked, held or refused, and why;
arguments the tool does not take, or of the wrong type, are refused in one line naming them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server import MCPServer
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver.context import Context
from mcp.server.mcpserver.exceptions import ToolError as McpToolError
from pydantic import AnyHttpUrl, Field, ValidationError

from memvisor.agent.memory.api import Memory, WriteOutcome
from memvisor.agent.memory.arguments import argument_errors
from memvisor.agent.memory.reads import MemoryHit
from memvisor.errors import MemvisorError, WriteHeld
from memvisor.storage.clock import iso
from memvisor.storage.ids import new_id

from .write_pool import WritePool

INSTRUCTIONS = (
    "Long-term memory of one user, guarded by a write firewall. Search it (memory_search) or "
    "fetch the context for a message (memory_context) before answering from memory; save "
    "lasting facts the user states (memory_remember) and longer notes (memory_save). Writes "
    "that read as instructions are held for the user to confirm; secrets are masked."
)
Kind = Literal["fact", "passage", "turn", "episode", "recipe"]


def build_server(
    memory: Memory, *, user: str | None = None, keys_issuer: str | None = None
) -> MCPServer:
    """An MCP server over ``memory``: for one ``user``, or with ``keys_issuer`` (the server's
    own URL) for the user of each HTTP connection's API key. Run it with ``.run("stdio")``
    (one user only) or serve its ``streamable_http_app()``."""
    if (user is None) == (keys_issuer is None):
        raise ValueError("give the server one user, or keys_issuer for per-connection keys")
    if keys_issuer is None:
        server = _StrictServer("memvisor", instructions=INSTRUCTIONS, log_level="WARNING")
    else:
        server = _StrictServer(
            "memvisor",
            instructions=INSTRUCTIONS,
            log_level="WARNING",
            token_verifier=_ApiKeys(memory),
            auth=AuthSettings(issuer_url=AnyHttpUrl(keys_issuer), resource_server_url=None),
        )
    door = _Door(memory, user)

    @server.tool()
    def memory_remember(
        subject: Annotated[str, Field(description="Who or what the fact is about, e.g. 'Maya'.")],
        predicate: Annotated[str, Field(description="Relation in snake_case, e.g. 'lives_in'.")],
        object: Annotated[str, Field(description="The value, e.g. 'Oslo'.")],
        confidence: Annotated[float, Field(description="How sure, 0 to 1.", ge=0, le=1)] = 0.9,
        valid_until: Annotated[
            str | None,
            Field(description="When it stops holding, if temporary: ISO date or 'next month'."),
        ] = None,
    ) -> str:
        """Save one fact about the user; a new value for the same subject and predicate
        replaces the old one (kept in history). Good: subject="Maya", predicate="lives_in",
        object="Oslo". Bad: predicate="info", object="Maya lives in Oslo and has a dog"."""
        arguments: dict[str, Any] = {"subject": subject, "predicate": predicate, "object": object}
        arguments["confidence"] = confidence
        if valid_until is not None:
            arguments["valid_until"] = valid_until
        return door.write("memory_remember", "fact_remember", arguments)

    @server.tool()
    def memory_save(
        content: Annotated[str, Field(description="Self-contained text with names and dates.")],
    ) -> str:
        """Save a longer note (an order, a plan, a document) for later search."""
        return door.write("memory_save", "archival_memory_insert", {"content": content})

    @server.tool()
    def memory_search(
        query: Annotated[str, Field(description="What to look for, in natural words.")],
        k: Annotated[int, Field(description="How many results.", ge=1, le=50)] = 5,
        kinds: Annotated[list[Kind] | None, Field(description="Only these kinds.")] = None,
    ) -> str:
        """Search the user's memory (facts, notes, past turns, episodes), best first."""
        hits = door.call(lambda: memory.search(query, user=door.user, k=k, kinds=kinds))
        return "\n".join(_hit_line(h) for h in hits) if hits else "no matching memory"

    @server.tool()
    def memory_context(
        message: Annotated[str, Field(description="The user's message you are answering.")],
        budget: Annotated[int, Field(description="Tokens to spend.", ge=50, le=8000)] = 800,
    ) -> str:
        """The memory section Memvisor's own agent would put in its prompt for this message:
        relevant memory only, packed into the token budget."""
        context = door.call(lambda: memory.context(message, user=door.user, budget=budget))
        return context.text or "No stored memory matched this message; ask the user."

    @server.tool()
    def memory_list(
        limit: Annotated[int, Field(description="At most this many facts.", ge=1, le=500)] = 50,
    ) -> str:
        """The user's current facts, newest last, with their ids."""
        facts = door.call(
            lambda: memory.store.facts.list(user_id=door.user, include_archived=False)
        )
        lines = [f"{f.id}: {f.text()} (confidence {f.confidence:.2f})" for f in facts[-limit:]]
        return "\n".join(lines) if lines else "no facts saved"

    @server.tool()
    def memory_edit(
        fact_id: Annotated[str, Field(description="The fact's id, e.g. 'fct_01…'.")],
        object: Annotated[str, Field(description="Its new value.")],
    ) -> str:
        """Correct a fact: a new version replaces it (the old one stays in history)."""
        return door.write("memory_edit", "fact_edit", {"fact_id": fact_id, "object": object})

    @server.tool()
    def memory_forget(
        record_id: Annotated[
            str, Field(description="The id of a fact (fct_…), note (psg_…) or episode (eps_…).")
        ],
    ) -> str:
        """Forget a record for good (every version), when the user asks you to."""
        return door.write("memory_forget", "memory_forget", {"record_id": record_id})

    @server.tool()
    def core_read() -> str:
        """The user's core memory blocks (profile and persona), with their versions."""
        blocks = door.call(lambda: memory.core(user=door.user))
        return "\n".join(f"<{b.label} v{b.version}>\n{b.value}\n</{b.label}>" for b in blocks)

    @server.tool()
    def core_append(
        label: Annotated[str, Field(description="'human' (about the user) or 'persona'.")],
        content: Annotated[str, Field(description="A line to add to the block.")],
    ) -> str:
        """Add a line to a core memory block (lasting facts and standing preferences)."""
        arguments = {"label": label, "content": content}
        return door.write("core_append", "core_memory_append", arguments)

    @server.tool()
    def core_replace(
        label: Annotated[str, Field(description="'human' or 'persona'.")],
        old_content: Annotated[str, Field(description="Exact text now in the block.")],
        new_content: Annotated[str, Field(description="Replacement ('' deletes it).")],
    ) -> str:
        """Replace exact text in a core memory block."""
        arguments = {"label": label, "old_content": old_content, "new_content": new_content}
        return door.write("core_replace", "core_memory_replace", arguments)

    @server.tool()
    def memory_confirm(
        quarantine_id: Annotated[str, Field(description="The held write's id, 'qtn_…'.")],
        reject: Annotated[bool, Field(description="Discard it instead of storing it.")] = False,
    ) -> str:
        """Store (or with reject=true discard) a write the firewall held, once the user has
        said it is right. A write held as an instruction can be released only by the user
        (memvisor memory confirm ID --force)."""
        source = door.request("memory_confirm", {"id": quarantine_id, "reject": reject})
        owner = door.user
        result = door.call(
            lambda: memory.confirm(
                quarantine_id,
                user_id=owner,
                trace_id=source[1],
                reject=reject,
                source_event_ids=[source[0]],
            )
        )
        if result.status == "rejected":
            return f"{result.id} discarded"
        return f"{result.id} released: {result.detail}"

    return server


class _StrictServer(MCPServer):
    """The SDK's server, with arguments checked the way the model can act on: a name the tool
    does not take is refused (the SDK would drop it silently, and a ``valid_until`` meant to
    bound a fact would be lost), and a wrong value is named in one line, not pydantic's dump."""

    _parameters: dict[str, set[str]] | None = None

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> Any:
        if self._parameters is None:
            listed = await self.list_tools()
            self._parameters = {t.name: set(t.input_schema.get("properties", {})) for t in listed}
        taken = self._parameters.get(name)
        unknown = sorted(set(arguments) - taken) if taken is not None else []
        if unknown:
            raise McpToolError(
                f"{name} does not take {', '.join(unknown)}; "
                f"its arguments are {', '.join(sorted(taken or ())) or 'none'}"
            )
        try:
            return await super().call_tool(name, arguments, context)
        except McpToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                raise McpToolError(
                    f"{name}: {argument_errors(exc.__cause__)}; fix the arguments and call again"
                ) from None
            raise


class _ApiKeys:
    """The SDK's token verifier over ``memvisor keys``: a live key names its one user."""

    def __init__(self, memory: Memory) -> None:
        self._memory = memory

    async def verify_token(self, token: str) -> AccessToken | None:
        user = self._memory.store.api_keys.user_of(token)
        return None if user is None else AccessToken(token=token, client_id=user, scopes=[])


class _Door:
    """The server's one way in: log the request, call the memory API, say what happened."""

    def __init__(self, memory: Memory, user: str | None) -> None:
        self.memory = memory
        self._user = user
        self._writes = WritePool()  # over HTTP, many connections' writes: as REST's

    @property
    def user(self) -> str:
        """The connection's user: the server's one user, or the key's the session opened with."""
        if self._user is not None:
            return self._user
        token = get_access_token()
        if token is None:  # the SDK refuses an unauthenticated request before any tool runs
            raise McpToolError("this server needs an API key: Authorization: Bearer mvk_…")
        return token.client_id

    def request(self, tool: str, arguments: dict[str, Any]) -> tuple[str, str]:
        """Log a tool call that is not one write (a release from quarantine): its event id
        and trace id."""
        trace_id = new_id("trc")
        event = self.memory.record_command(
            tool, arguments, user_id=self.user, trace_id=trace_id, kind="mcp_request"
        )
        return event, trace_id

    def write(self, tool: str, kind: str, arguments: dict[str, Any]) -> str:
        """One write, citing the tool call: an ``mcp_request`` event that commits with it."""
        user, trace_id = self.user, new_id("trc")
        request = self.memory.request_event(
            tool, arguments, user_id=user, trace_id=trace_id, kind="mcp_request"
        )
        outcome = self.call(
            lambda: self._writes.run(
                lambda: self.memory.write(
                    kind,
                    arguments,
                    user_id=user,
                    origin="model",
                    trace_id=trace_id,
                    request=request,
                )
            )
        )
        return _said(outcome)

    def call(self, run: Any) -> Any:
        """``run()``, with Memvisor's refusals turned into MCP tool errors the model reads."""
        try:
            return run()
        except WriteHeld as held:
            raise McpToolError(f"not saved yet: {held}") from None
        except MemvisorError as exc:  # refused, a bad id, a limit: the message says the fix
            raise McpToolError(str(exc)) from None


def _said(outcome: WriteOutcome) -> str:
    if outcome.verdict == "redact":
        return f"{outcome.detail}; {outcome.message} ({', '.join(outcome.reasons)})"
    return outcome.detail


def _hit_line(hit: MemoryHit) -> str:
    return f"{hit.id} ({hit.kind}, {iso(hit.ts)[:10]}, score {hit.score:.2f}): {hit.text}"
