"""``memvisor serve``: the memory API over HTTP (FastAPI; OpenAPI at ``/docs``).

Every route but ``/v1/health`` needs ``Authorization: Bearer <key>``; a key is bound to one
user (``memvisor keys create --user NAME``), and every call reads and writes that user's
memory only. An id of another user's record answers 404, exactly like an id that does not
exist. Writes go through the one guarded memory API; a bad request is a 4xx whose JSON body
names the field, never a 500.
"""

# No ``from __future__ import annotations``: FastAPI reads the routes' annotations at
# definition time, and the ``User`` dependency is local to ``create_app``.
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic_core import to_jsonable_python
from starlette.exceptions import HTTPException

from memvisor.agent.loop import Agent
from memvisor.agent.memory.api import Memory, WriteOutcome
from memvisor.agent.memory.extract import Extraction, extract_facts
from memvisor.agent.memory.release import needs_force
from memvisor.agent.models.base import ChatModel
from memvisor.agent.trace import trace_chain
from memvisor.agent.turn import Turn
from memvisor.errors import (
    FirewallRejected,
    MemvisorError,
    NotFound,
    StorageError,
    UserError,
    VersionConflict,
    WriteHeld,
)
from memvisor.evals.health import health_report, prometheus_text
from memvisor.storage.logger import logger

from .rest_models import (
    AddBody,
    ChatBody,
    ConfirmBody,
    ContextBody,
    PatchBody,
    SearchBody,
    documented,
)
from .rest_stream import turn_events
from .user_locks import UserLocks
from .write_pool import WritePool

# Sessions whose agent (its dialogue window) stays loaded between requests.
MAX_AGENTS = 128


class Unauthorized(Exception):
    pass


class BadBody(Exception):
    """A body the schema lets through that its route cannot take: a 422 naming the field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class NoModel(Exception):
    pass


def create_app(
    memory: Memory, *, model: ChatModel | None = None, num_ctx: int | None = None
) -> FastAPI:
    """The REST app over one open ``Memory`` (the process owns its data directory); with a
    ``model``, ``/v1/chat`` runs whole guarded agent turns."""
    writes_pool = WritePool()

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        writes_pool.close()  # the server stops: its write threads end with it

    app = FastAPI(
        title="Memvisor",
        description="Guarded long-term memory for agents: every write passes the firewall.",
        version="0.1.0",
        responses=documented(400, 401, 404, 422, 503),
        lifespan=lifespan,
    )
    writes = documented(202, 409)
    # Requests of one user run one at a time (their writes are serialized, and a read sees
    # the writes before it); different users' run at once. What they share is thread-safe:
    # the database's connection and the search index take their own locks, the read copies
    # (facts, dialogue turns, index rows) theirs.
    user_locks = UserLocks()
    bearer = HTTPBearer(auto_error=False)

    def user_of(
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    ) -> str:
        if credentials is None or credentials.scheme.lower() != "bearer":
            raise Unauthorized("send an API key: Authorization: Bearer mvk_…")
        user = memory.store.api_keys.user_of(credentials.credentials)
        if user is None:
            raise Unauthorized("unknown or revoked API key")
        return user

    User = Annotated[str, Depends(user_of)]

    def guarded(user: str, call: Callable[[], Any]) -> Any:
        with user_locks.held(user):
            return call()

    def write(
        user: str,
        route: str,
        kind: str,
        arguments: dict[str, Any],
        *,
        extract: bool = False,
        **options: Any,
    ) -> dict[str, Any]:
        """One write, citing its request: an ``api_request`` event (secrets masked) that
        commits with it. With
        ``extract`` and a served model, the model then saves the facts of the logged turns
        (as ``Memory.add`` does with an extractor)."""
        trace_id = _trace()

        def run() -> tuple[WriteOutcome, Extraction | None]:
            request = memory.request_event(
                route, arguments, user_id=user, trace_id=trace_id, kind="api_request"
            )
            outcome = memory.write(
                kind,
                arguments,
                user_id=user,
                trace_id=trace_id,
                request=request,
                **{"origin": "user", **options},
            )
            if not (extract and model is not None and outcome.record):
                return outcome, None
            turns = list(outcome.record)
            session = arguments.get("session_id")
            return outcome, extract_facts(
                memory, model, turns, user_id=user, session_id=session, trace_id=trace_id
            )

        def locked() -> tuple[WriteOutcome, Extraction | None]:
            with user_locks.held(user):
                return run()

        # A write thread, then the user's lock: a write waiting for a thread holds nothing,
        # so the user's searches meanwhile do not wait for it (nor for the writes ahead).
        outcome, extraction = writes_pool.run(locked)
        body = _outcome(outcome)
        if extraction is not None:
            body["extraction"] = extraction.model_dump(mode="json")
        return body

    _errors(app)
    app.add_middleware(JsonBodies)

    @app.get("/v1/health", responses={401: documented(401)[401]})
    def health(request: Request) -> dict[str, Any]:
        """Liveness without a key; with one, the key's user's memory health report."""
        status: dict[str, Any] = {"status": "ok"}
        header = request.headers.get("authorization", "")
        if header.lower().startswith("bearer "):
            user = memory.store.api_keys.user_of(header[7:].strip())
            if user is None:
                raise Unauthorized("unknown or revoked API key")
            status["report"] = guarded(user, lambda: health_report(memory.store, user_id=user))
        return status

    @app.get("/metrics", response_class=PlainTextResponse)
    def metrics(user: User) -> str:
        """The key's user's memory figures in Prometheus text format."""
        return str(
            guarded(user, lambda: prometheus_text(health_report(memory.store, user_id=user)))
        )

    @app.post("/v1/memories", status_code=201, responses=writes)
    def add(body: AddBody, user: User) -> dict[str, Any]:
        """Save a fact, a passage, or a message or conversation (logged and indexed as turns)."""
        context = [m.model_dump() for m in body.context]
        if body.fact is not None:
            kind, arguments = "fact_remember", body.fact.model_dump()
        elif body.passage is not None:
            kind, arguments = "archival_memory_insert", {"content": body.passage}
        else:
            listed = (
                [m.model_dump() for m in body.messages]
                if body.messages
                else [{"role": "user", "content": body.text}]
            )
            kind, arguments = "conversation_add", {"messages": listed, "session_id": body.session}
        route = "POST /v1/memories"
        return write(
            user,
            route,
            kind,
            arguments,
            origin=body.origin,
            context=context,
            extract=body.extract and kind == "conversation_add",
        )

    @app.get("/v1/memories")
    def list_memories(
        user: User,
        kind: Literal["fact", "passage"] = "fact",
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    ) -> dict[str, Any]:
        """The user's current facts (``kind=fact``) or passages (``kind=passage``), the
        ``limit`` newest."""
        store = memory.store
        if kind == "fact":
            records: list[Any] = guarded(
                user, lambda: store.facts.list(user_id=user, include_archived=False)
            )
        else:
            records = guarded(user, lambda: store.passages.list(user_id=user))
        return {"kind": kind, "items": [r.model_dump(mode="json") for r in records[-limit:]]}

    @app.get("/v1/memories/{record_id}")
    def get(record_id: str, user: User) -> dict[str, Any]:
        """One record by id (fct_, psg_, eps_, qtn_, evt_, rcp_, task:ID) or core block label."""
        record = guarded(user, lambda: memory.get(record_id, user=user))
        return dict(record.model_dump(mode="json"))

    @app.post("/v1/secrets/{secret_id}/reveal")
    def reveal(secret_id: str, user: User) -> dict[str, Any]:
        """A sealed secret's value (``sec_…``), for its owner only: the reveal is logged as a
        ``secret_revealed`` event (the id, never the value). Another user's id is a 404."""
        trace_id = _trace()
        value = guarded(
            user, lambda: memory.reveal(secret_id, user=user, origin="user", trace_id=trace_id)
        )
        return {"id": secret_id, "value": value, "trace_id": trace_id}

    @app.get("/v1/memories/{record_id}/history")
    def history(record_id: str, user: User) -> dict[str, Any]:
        versions = guarded(user, lambda: memory.history(record_id, user=user))
        return {"id": record_id, "versions": [v.model_dump(mode="json") for v in versions]}

    @app.patch("/v1/memories/{record_id}", responses=writes)
    def patch(record_id: str, body: PatchBody, user: User) -> dict[str, Any]:
        """A fact's new value (a new version supersedes it), or a core block's new value."""
        given = body.model_dump(exclude_none=True)
        if record_id.startswith("fct_"):
            if not given or "value" in given:
                field = "body.value" if given else "body"
                raise BadBody(field, "a fact takes object, confidence or valid_until")
            kind, arguments = "fact_edit", {"fact_id": record_id, **given}
        else:
            if set(given) != {"value"}:
                other = sorted(set(given) - {"value"})
                field = f"body.{other[0]}" if other else "body.value"
                raise BadBody(field, "a core block takes value only")
            kind, arguments = "core_memory_set", {"label": record_id, "value": body.value}
        guarded(user, lambda: memory.get(record_id, user=user))  # 404 before anything is judged
        return write(user, "PATCH /v1/memories", kind, arguments)

    @app.delete("/v1/memories/{record_id}", responses=writes)
    def delete(record_id: str, user: User) -> dict[str, Any]:
        """Forget a record for good: every version and what derives from it."""
        guarded(user, lambda: memory.get(record_id, user=user))
        return write(user, "DELETE /v1/memories", "memory_forget", {"record_id": record_id})

    @app.post("/v1/search")
    def search(body: SearchBody, user: User) -> dict[str, Any]:
        """Page-in's ranking over every route, with scores, ids and the read's trace id."""
        hits = guarded(
            user,
            lambda: memory.search(
                body.query, user=user, k=body.k, kinds=body.kinds, as_of=body.as_of
            ),
        )
        return {"query": body.query, "hits": [h.model_dump(mode="json") for h in hits]}

    @app.post("/v1/context")
    def context(body: ContextBody, user: User) -> dict[str, Any]:
        """The memory section the agent would page in for a message, within ``budget``."""
        found = guarded(
            user,
            lambda: memory.context(body.query, user=user, budget=body.budget, as_of=body.as_of),
        )
        return dict(found.model_dump(mode="json"))

    @app.get("/v1/quarantine")
    def quarantine(user: User) -> dict[str, Any]:
        items = guarded(user, lambda: memory.store.quarantine.list(user_id=user))
        return {"items": [i.model_dump(mode="json") for i in items]}

    @app.post("/v1/quarantine/{item_id}/confirm")
    def confirm(item_id: str, user: User, body: ConfirmBody | None = None) -> dict[str, Any]:
        force = bool(body and body.force)
        released = guarded(
            user, lambda: memory.confirm(item_id, user_id=user, trace_id=_trace(), force=force)
        )
        return dict(released.model_dump(mode="json"))

    @app.post("/v1/quarantine/{item_id}/reject")
    def reject(item_id: str, user: User) -> dict[str, Any]:
        rejected = guarded(
            user, lambda: memory.confirm(item_id, user_id=user, trace_id=_trace(), reject=True)
        )
        return dict(rejected.model_dump(mode="json"))

    agents: OrderedDict[tuple[str, str], Agent] = OrderedDict()

    agents_lock = threading.Lock()

    def agent_for(user: str, session: str) -> Agent:
        with agents_lock:
            return _agent_for(user, session)

    def _agent_for(user: str, session: str) -> Agent:
        key = (user, session)
        if key not in agents:
            if model is None:
                raise NoModel("this server has no model: start it with `memvisor serve --model`")
            agents[key] = Agent(
                user_id=user, session_id=session, model=model, store=memory.store,
                guard=memory.guard, num_ctx=num_ctx,
            )  # fmt: skip
            while len(agents) > MAX_AGENTS:  # the least recent session reloads from the log
                agents.popitem(last=False)
        agents.move_to_end(key)
        return agents[key]

    @app.post("/v1/chat", response_model=None)
    def chat(body: ChatBody, user: User) -> dict[str, Any] | StreamingResponse:
        """One guarded agent turn: page in, the model, tool calls through the firewall; with
        ``"stream": true``, server-sent events: ``delta`` pieces of the answer as the model
        writes it, ``discard``, then one ``answer`` or ``error`` event."""
        agent = guarded(user, lambda: agent_for(user, body.session))

        def result(turn: Turn) -> dict[str, Any]:
            return {
                "answer": turn.answer,
                "trace_id": turn.trace_id,
                "session": body.session,
                "memory_ids": turn.memory_ids,
                "cited_ids": turn.cited_ids,
                "tool_calls": [{"name": c.name, "ok": c.ok} for c in turn.tool_calls],
                "error": turn.error,
            }

        if not body.stream:
            return result(guarded(user, lambda: agent.step(body.message)))
        events = turn_events(
            lambda stream: guarded(user, lambda: agent.step(body.message, stream=stream)), result
        )
        return StreamingResponse(events, media_type="text/event-stream")

    @app.get("/v1/trace/{ref}")
    def trace(
        ref: Annotated[str, Path(pattern=r"^(trc|evt)_\w+$", description="trc_… or evt_…")],
        user: User,
    ) -> dict[str, Any]:
        """The chain from an answer (trace or event id) back to the user's words."""
        return dict(guarded(user, lambda: trace_chain(memory.store, ref, user_id=user)))

    return app


def _trace() -> str:
    from memvisor.storage.ids import new_id

    return new_id("trc")


def _outcome(outcome: WriteOutcome) -> dict[str, Any]:
    """The write's outcome with what it stored: a record, the messages it logged, or what a
    forget removed."""
    record = to_jsonable_python(outcome.record, fallback=lambda _: None)
    return {**outcome.model_dump(mode="json"), "record": record}


class JsonBodies:
    """Every body this API takes is JSON, so one sent as a form or with no content type is
    read as JSON: ``curl -d '{...}'`` (README's example) says
    ``application/x-www-form-urlencoded``, which FastAPI would otherwise refuse as "not an
    object". No cross-site risk: a browser's form post cannot carry the bearer key that
    every route with a body needs."""

    AS_JSON = (b"", b"application/x-www-form-urlencoded")

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = [(k, v) for k, v in scope["headers"] if k != b"content-type"]
            sent = dict(scope["headers"]).get(b"content-type", b"")
            if sent.split(b";")[0].strip().lower() in self.AS_JSON:
                scope = {**scope, "headers": [*headers, (b"content-type", b"application/json")]}
        await self.app(scope, receive, send)


def _errors(app: FastAPI) -> None:
    """Every failure a JSON body with ``error`` (and ``field`` or ``reasons`` where known)."""

    def reply(code: int, **body: Any) -> JSONResponse:
        return JSONResponse(status_code=code, content=body)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first.get("loc", ()))
        return reply(422, error=f"{field}: {first.get('msg', 'invalid')}", field=field)

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, exc: HTTPException) -> JSONResponse:
        # The framework's own: an unknown path (404), a method the path does not take (405),
        # a body it could not parse. Same shape as every other failure.
        response = reply(exc.status_code, error=str(exc.detail))
        for name, value in (exc.headers or {}).items():
            response.headers[name] = value
        return response

    @app.exception_handler(Unauthorized)
    async def unauthorized(_request: Request, exc: Unauthorized) -> JSONResponse:
        response = reply(401, error=str(exc))
        response.headers["WWW-Authenticate"] = "Bearer"
        return response

    @app.exception_handler(BadBody)
    async def bad_body(_request: Request, exc: BadBody) -> JSONResponse:
        return reply(422, error=str(exc), field=exc.field)

    @app.exception_handler(NoModel)
    async def no_model(_request: Request, exc: NoModel) -> JSONResponse:
        return reply(503, error=str(exc))

    @app.exception_handler(MemvisorError)
    async def refused(_request: Request, exc: MemvisorError) -> JSONResponse:
        if isinstance(exc, WriteHeld):
            reasons = exc.verdict.reasons if exc.verdict else []
            confirm = {
                "method": "POST",
                "path": f"/v1/quarantine/{exc.quarantine_id}/confirm",
                "body": {"force": needs_force(reasons)},
            }
            return reply(
                202,
                status="held",
                quarantine_id=exc.quarantine_id,
                error=str(exc),
                reasons=reasons,
                confirm=confirm,
            )
        if isinstance(exc, FirewallRejected):
            reasons = exc.verdict.reasons if exc.verdict else []
            return reply(422, status="rejected", error=str(exc), reasons=reasons)
        if isinstance(exc, NotFound):
            return reply(404, error="not found")  # never says whose it is
        if isinstance(exc, VersionConflict):
            return reply(409, error=str(exc))
        if isinstance(exc, UserError):
            return reply(400, error=str(exc))
        if isinstance(exc, StorageError):
            logger.warning("storage failure behind a request: {}", exc)
            return reply(503, error=f"storage unavailable: {exc}")
        return reply(400, error=str(exc))
