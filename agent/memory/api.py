"""``Memory``: the one door every write goes through, whoever proposes it.

The model's tools, the CLI, import, quarantine release, replay and the servers all call
``Memory.write`` (or ``forget``/``confirm``/``import_export``, which are writes too), and every
write runs the same pipeline in the same order: count against the turn's cap -> the firewall
for the write's origin (a verdict event, always) -> quarantine or refusal, or the invariants
and one transaction in storage (``perform``) -> the search index. No guard: every write fails
closed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, get_args

from pydantic import BaseModel, ConfigDict, Field

from memvisor.agent.guards.imports import ImportReport, import_through_firewall
from memvisor.agent.guards.proposal import (
    FirewallVerdict,
    Origin,
    StoreMemory,
    WriteGuard,
    WriteProposal,
)
from memvisor.agent.guards.secrets import redact_in
from memvisor.errors import FirewallRejected, MemvisorError, OutcomeUnknown, UserError, WriteHeld
from memvisor.paging.pagein import RELEVANCE_FLOOR
from memvisor.paging.tokens import TokenCounter, counter_for_model
from memvisor.storage import CoreBlock, Event, Store
from memvisor.storage.clock import Clock, UtcTime
from memvisor.storage.export import export_user
from memvisor.storage.ids import new_id
from memvisor.storage.text import valid_utf8
from memvisor.storage.users import require_user
from memvisor.tools.turn_log import TurnLog

from . import reads, screen, sealing, writes
from .arguments import checked
from .extract import Extraction, extract_facts
from .perform import WriteScope, check_forgettable, check_valid_until, perform
from .reads import FactVersion, MemoryContext, MemoryHit
from .release import ReleaseResult, needs_force, release_quarantined

if TYPE_CHECKING:
    from memvisor.agent.models.base import ChatModel


class WriteOutcome(BaseModel):
    """What a write did: the firewall's verdict and the record it left."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    kind: str
    verdict: str  # allow | redact (held and refused writes raise instead)
    reasons: list[str] = Field(default_factory=list)
    # What the firewall changed, in words (e.g. "Secrets were masked before saving.").
    message: str = ""
    record_id: str | None = None
    action: str = ""
    detail: str = ""
    trace_id: str = ""
    record: Any = Field(default=None, exclude=True, repr=False)


class AddOutcome(WriteOutcome):
    """``Memory.add``: the turns logged, and what the extractor model saved from them (None
    when the memory has no extractor, or ``extract=False``)."""

    extraction: Extraction | None = None


class Memory:
    """Guarded reads and writes over one ``Store``; one object serves every user."""

    def __init__(
        self,
        store: Store,
        *,
        guard: WriteGuard | None,
        tokens: TokenCounter | None = None,
        model_name: str | None = None,
        extractor: ChatModel | None = None,
    ) -> None:
        self.store = store
        self.guard = guard
        # The model ``add`` asks for the facts in what it logs (as the agent's tools would
        # write them); None logs the turns only.
        self.extractor = extractor
        # Core block limits are in tokens of the served model; its tokenizer loads on the
        # first block write (~150 ms), not for every command that opens memory.
        self._tokens = tokens
        self._model_name = model_name

    def count_tokens(self, text: str) -> int:
        if self._tokens is None:
            self._tokens = counter_for_model(self._model_name)
        return self._tokens.count(text)

    @classmethod
    def open(
        cls,
        data_dir: Path | str,
        *,
        embedder: Any = None,
        clock: Clock | None = None,
        guard: WriteGuard | None = None,
        model_name: str | None = None,
        extractor: ChatModel | None = None,
        store: str | None = None,
    ) -> Memory:
        """Open a data directory with the default write firewall (or ``guard``); with an
        ``extractor`` model, ``add`` also saves the facts the user stated. ``store`` is as
        ``Store.open``'s: a ``postgresql://`` URL for the records (default
        ``$MEMVISOR_STORE``)."""
        if not isinstance(data_dir, str | Path) or not str(data_dir):
            raise UserError("Memory.open: data_dir: input should be a directory's path")
        if guard is None:
            from memvisor.agent.guards.firewall import Firewall

            guard = Firewall()
        records = Store.open(data_dir, embedder=embedder, clock=clock, store=store)
        return cls(records, guard=guard, model_name=model_name, extractor=extractor)

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the write pipeline ------------------------------------------------------------------

    def write(
        self,
        kind: str,
        arguments: dict[str, Any],
        *,
        user_id: str,
        origin: Origin,
        trace_id: str | None = None,
        session_id: str | None = None,
        source_event_ids: Sequence[str] = (),
        context: Sequence[dict[str, Any]] = (),
        turn: TurnLog | None = None,
        note: dict[str, Any] | None = None,
        topic: str | None = None,
        request: Event | None = None,
    ) -> WriteOutcome:
        """Screen and perform one write of ``kind`` (a name in ``writes.WRITE_KINDS``).

        ``request``, an event from ``request_event`` (a server's request), is the write's
        first source; it commits in the write's transaction, or in its refusal's.

        Raises ``FirewallRejected`` (nothing stored), ``WriteHeld`` (held in quarantine),
        ``WriteRefused`` (the turn's write cap) or ``UserError`` (an invariant refused it).
        """
        require_user(user_id)
        # Not ``checked``: the hot path of every write. What would fail deep inside instead.
        if not isinstance(arguments, dict):
            raise UserError(f"Memory.write: arguments: input should be a dict of {kind}'s fields")
        if origin not in get_args(Origin):
            raise UserError(f"Memory.write: origin: input should be one of {get_args(Origin)}")
        trace_id = trace_id or new_id("trc")
        cited = [request.id] if request is not None else []
        sources = list(dict.fromkeys([*cited, *source_event_ids]))
        # Text that is not valid UTF-8 (a lone surrogate from a model's JSON) is repaired at
        # the door, so the firewall, the records and the index all see the same text.
        clean = valid_utf8(arguments)
        if clean != arguments:
            arguments, note = clean, {**(note or {}), "text_repaired": "invalid UTF-8 replaced"}
        if kind in ("fact_remember", "fact_edit"):
            check_valid_until(arguments, self.store.clock.now())
        if kind == "memory_forget":
            check_forgettable(arguments, origin)
        if turn is not None:
            turn.count_write()
        proposal = WriteProposal(
            user_id=user_id,
            tool=kind,
            arguments=arguments,
            source=origin,
            context=list(context),
            session_id=session_id,
            trace_id=trace_id,
            memory=StoreMemory(self.store, user_id),
        )
        verdict = screen.judge(self.guard, proposal)
        stored = verdict.stored if verdict.stored is not None else arguments
        events = self.store.events
        if verdict.verdict in ("reject", "quarantine"):
            with self._citing(request):  # the request, what was held and why: one commit
                held = (
                    screen.hold(self.store, proposal, stored, verdict, sources)
                    if verdict.verdict == "quarantine"
                    else None
                )
                screen.log_verdict(self.store, proposal, verdict, held, sources)
            self._refuse(verdict, held)
        scope = WriteScope(
            user_id=user_id,
            origin=origin,
            trace_id=trace_id,
            session_id=session_id,
            source_event_ids=sources,
            count_tokens=self.count_tokens,
            provenance=verdict.provenance,
            confidence=verdict.confidence,
            note=note or {},
            topic=topic,
        )
        try:
            # The request, the verdict, the sealed values and the record commit together: one
            # commit. The events go in with the record's memory_write event, one INSERT.
            with self._citing(request) as conn:
                events.hold_in(conn, **screen.verdict_event(proposal, verdict, None, sources))
                stored = sealing.seal_values(
                    self.store,
                    stored,
                    verdict.sealed,
                    scope=scope,
                    known=turn.sealed if turn else None,
                )
                write = writes.WRITE_KINDS[kind].model_validate(stored)
                done = perform(self.store, write, scope)
                events.flush_in(conn)  # a write that logged no event of its own
        except OutcomeUnknown:
            events.drop_held()
            raise  # the verdict may be stored with the record: logging it again could double it
        except BaseException as exc:
            events.drop_held()  # rolled back with the transaction
            if isinstance(exc, Exception):
                # Nothing was stored; the verdict (and the request) stay on record, as for
                # any judged write.
                with suppress(MemvisorError, OSError), self._citing(request):
                    screen.log_verdict(self.store, proposal, verdict, None, sources)
            raise
        if turn is not None and verdict.message:
            turn.firewall_notes.append(verdict.message)
        return WriteOutcome(
            kind=kind,
            verdict=verdict.verdict,
            reasons=verdict.reasons,
            message=verdict.message,
            record_id=done.record_id,
            action=done.action,
            detail=done.detail,
            trace_id=trace_id,
            record=done.record,
        )

    @contextmanager
    def _citing(self, request: Event | None) -> Iterator[Any]:
        """A transaction that commits ``request`` (a server's request event, if any) with
        what it writes; one that fails leaves nothing held for this thread's next one."""
        events = self.store.events
        try:
            with self.store.db.transaction() as conn:
                if request is not None:
                    events.hold_event_in(conn, request)
                yield conn
        except BaseException:
            events.drop_held()
            raise

    @staticmethod
    def _refuse(verdict: FirewallVerdict, held: str | None) -> NoReturn:
        reasons = "; ".join(verdict.reasons)
        if held is None:
            raise FirewallRejected(
                f"write refused by the memory firewall ({reasons}). "
                f"{verdict.message or 'Nothing was stored.'}",
                verdict=verdict,
            )
        confirm = f"memvisor memory confirm {held}" + (
            " --force" if needs_force(verdict.reasons) else ""
        )
        raise WriteHeld(
            f"write held in quarantine as {held} ({reasons}); it will not be used until "
            f"the user confirms it (`{confirm}`). "
            f"{verdict.message}".strip(),
            verdict=verdict,
            quarantine_id=held,
        )

    # -- the Python API: a few lines in someone else's agent ---------------------------------

    @checked
    def add(
        self,
        content: str | Sequence[dict[str, Any]],
        *,
        user: str,
        session: str | None = None,
        origin: Origin = "user",
        extract: bool = True,
    ) -> AddOutcome:
        """Log a message (text is the user's) or a conversation (``[{"role", "content"}]``)
        as turns, screened by the firewall and indexed so search and page-in find them. With
        an extractor model (and ``extract``), the model then saves the facts the user stated,
        each through the firewall as the agent's own ``fact_remember`` call; a failing model
        leaves the turns logged and says why in ``extraction.error``."""
        messages = [{"role": "user", "content": content}] if isinstance(content, str) else content
        arguments = {"messages": list(messages), "session_id": session}
        logged = self.write("conversation_add", arguments, user_id=user, origin=origin)
        outcome = AddOutcome(**logged.model_dump(), record=logged.record)
        if extract and self.extractor is not None:
            outcome.extraction = extract_facts(
                self,
                self.extractor,
                list(logged.record or []),
                user_id=user,
                session_id=session,
                trace_id=logged.trace_id,
            )
        return outcome

    @checked
    def search(
        self,
        query: str,
        *,
        user: str,
        k: int = 10,
        kinds: Sequence[str] | None = None,
        as_of: UtcTime | None = None,
    ) -> list[MemoryHit]:
        """Page-in's ranking over every route, best first, with scores, ids and trace ids."""
        _, items = reads.ranked(self.store, query, user_id=user, limit=k, kinds=kinds, as_of=as_of)
        trace_id = new_id("trc")
        self._log_read("search", query, [i.id for i in items], user_id=user, trace_id=trace_id)
        return [reads.hit(i, trace_id) for i in items]

    @checked
    def context(
        self, query: str, *, user: str, budget: int = 800, as_of: UtcTime | None = None
    ) -> MemoryContext:
        """What the agent would page in for ``query``: above the relevance floor, packed by
        score per token into ``budget`` tokens, rendered as a prompt section."""
        if not isinstance(budget, int) or budget < 1:
            raise UserError(f"budget must be a positive number of tokens, got {budget!r}")
        pagein, items = reads.ranked(
            self.store,
            query,
            user_id=user,
            limit=20,
            kinds=None,
            as_of=as_of,
            counter=self._tokens,
            floor=RELEVANCE_FLOOR,
        )
        packed = pagein.pack(items, budget_tokens=budget)
        trace_id = new_id("trc")
        context = reads.context_of(pagein, packed, query=query, budget=budget, trace_id=trace_id)
        self._log_read(
            "context", query, [h.id for h in context.hits], user_id=user, trace_id=trace_id
        )
        return context

    @checked
    def get(self, record_id: str, *, user: str) -> Any:
        """One record of ``user`` by id (``fct_…``, ``psg_…``, ``eps_…``, ``qtn_…``, ``evt_…``,
        ``rcp_…``, ``task:ID``) or a core block by label; ``NotFound`` otherwise."""
        return reads.get_record(self.store, record_id, user_id=user)

    @checked
    def history(self, fact_id: str, *, user: str) -> list[FactVersion]:
        """Every version of a fact, oldest first, with the events each came from."""
        return reads.fact_history(self.store, fact_id, user_id=user)

    @checked
    def core(self, *, user: str) -> list[CoreBlock]:
        """The user's core blocks (always in the agent's context)."""
        return self.store.core.list(user_id=user)

    def _log_read(
        self, what: str, query: str, ids: list[str], *, user_id: str, trace_id: str
    ) -> None:
        events = self.store.events
        payload = {"tool": f"api:{what}", "query": query[:500], "ids": ids}
        events.store_behind(
            events.build(user_id=user_id, kind="memory_read", trace_id=trace_id, payload=payload)
        )

    @checked
    def forget(
        self,
        record_id: str,
        *,
        user: str,
        origin: Origin = "user",
        trace_id: str | None = None,
        session_id: str | None = None,
        source_event_ids: Sequence[str] = (),
        turn: TurnLog | None = None,
    ) -> WriteOutcome:
        """Remove a record (``fct_``, ``psg_``, ``eps_``, ``rcp_``, ``qtn_``, ``sec_``), every
        version of it and what derives from it; stays forgotten. A message (``evt_``, a turn
        that ``add`` logged) keeps its place in the log with ``[forgotten]`` for its text and
        leaves search; only the user forgets messages, never a model."""
        return self.write(
            "memory_forget",
            {"record_id": record_id},
            user_id=user,
            origin=origin,
            trace_id=trace_id,
            session_id=session_id,
            source_event_ids=source_event_ids,
            turn=turn,
        )

    @checked
    def reveal(
        self,
        secret_id: str,
        *,
        user: str,
        origin: Origin = "user",
        trace_id: str | None = None,
        session_id: str | None = None,
    ) -> str:
        """The value of one of ``user``'s sealed secrets; the reveal is a ``secret_revealed``
        event (the id, never the value). Another user's or a forgotten id is ``NotFound``."""
        require_user(user)
        value = self.store.sealed.reveal(secret_id, user_id=user)
        self.store.events.append(
            user_id=user,
            kind="secret_revealed",
            trace_id=trace_id or new_id("trc"),
            session_id=session_id,
            payload={"secret_id": secret_id, "origin": origin},
        )
        return value

    def confirm(
        self,
        item_id: str,
        *,
        user_id: str,
        trace_id: str,
        reject: bool = False,
        force: bool = False,
        source_event_ids: Sequence[str] = (),
    ) -> ReleaseResult:
        """Release a held write (replayed through ``write`` as ``user_confirmed``) or reject it."""
        return release_quarantined(
            self,
            item_id,
            user_id=user_id,
            trace_id=trace_id,
            reject=reject,
            force=force,
            source_event_ids=list(source_event_ids),
        )

    def import_export(
        self, data: Any, *, user_id: str, trace_id: str, replace: bool = False
    ) -> ImportReport:
        """Import an export (merge, or ``replace`` into an empty store): every record is
        screened by this memory's firewall (origin ``import``), then written in one
        transaction with storage's merge rules."""
        if self.guard is None:
            raise FirewallRejected("imports are disabled: no write firewall is configured")
        return import_through_firewall(
            self.store,
            data,
            user_id=user_id,
            trace_id=trace_id,
            firewall=self.guard,
            replace=replace,
            count_tokens=self.count_tokens,
        )

    def export(self, *, user_id: str) -> dict[str, Any]:
        """Every record of one user as an export document (``memvisor.export`` v2)."""
        return export_user(self.store, user_id=user_id)

    def record_command(
        self,
        command: str,
        arguments: dict[str, Any],
        *,
        user_id: str,
        trace_id: str,
        kind: str = "user_command",
    ) -> str:
        """Log a command the user typed (or a server request, ``kind="mcp_request"``); it is
        the source event of what the command writes.

        The event log keeps no secret in clear either: the arguments are logged masked."""
        request = self.request_event(
            command, arguments, user_id=user_id, trace_id=trace_id, kind=kind
        )
        return self.store.events.store(request).id

    def request_event(
        self,
        command: str,
        arguments: dict[str, Any],
        *,
        user_id: str,
        trace_id: str,
        kind: str = "user_command",
    ) -> Event:
        """The event ``record_command`` logs, made but not stored: a server passes it to
        ``write(request=…)``, which commits it with the write (or with its refusal), one
        transaction for the request and what it wrote."""
        return self.store.events.build(
            user_id=user_id,
            kind=kind,
            trace_id=trace_id,
            payload={"command": command, "arguments": redact_in(arguments)},
        )

    # -- steps -------------------------------------------------------------------------------
