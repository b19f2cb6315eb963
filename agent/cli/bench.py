"""``memvisor bench``: performance figures (storage, paging, start-up, serve), shown against
targets."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from memvisor.errors import UserError

from .common import emit_json
from .progress import progress_bars
from .tables import print_table

if TYPE_CHECKING:
    from rich.table import Table

F = TypeVar("F", bound=Callable[..., Any])
# The fault names of `bench chaos` (evals.chaos.FAULTS, spelled here so --help stays fast).
CHAOS_FAULTS = (
    "kill import",
    "kill replay",
    "kill reindex",
    "kill forget",
    "kill chat",
    "index unwritable",
    "embedder fails",
    "full disk",
    "corrupt records",
    "corrupt index",
    "fuzzed tool calls",
)


@click.group()
def bench() -> None:
    """Benchmarks; figures are printed, never asserted."""


def _store_options(fn: F) -> F:
    """``--embedder`` and ``--data-dir``: the store each benchmark builds, then removes."""
    fn = click.option(
        "--data-dir",
        type=click.Path(file_okay=False),
        default=None,
        help="Where to make the scratch directory (default ./.bench-data); removed afterwards.",
    )(fn)
    return click.option(
        "--embedder",
        type=click.Choice(["minilm", "hash"]),
        default="minilm",
        show_default=True,
        help="minilm is the real offline default; hash is a stand-in.",
    )(fn)


def _postgres_option(fn: F) -> F:
    """``--store``: the same benchmark on PostgreSQL too, its figures beside the embedded."""
    return click.option(
        "--store",
        default=None,
        metavar="URL",
        help="A postgresql:// URL: run on PostgreSQL too (in scratch databases on its server, "
        "dropped afterwards; the role needs CREATEDB) and show both.",
    )(fn)


@bench.command("storage")
@click.option("--json", "as_json", is_flag=True, help="Print JSON only on stdout.")
@click.option(
    "--sizes",
    default="10000,100000",
    show_default=True,
    help="Archive sizes in passages (two users half/half), comma-separated.",
)
@click.option(
    "--queries",
    type=click.IntRange(1, 100_000),
    default=100,
    show_default=True,
    help="Timed queries per search mode and size.",
)
@click.option(
    "--writes",
    type=click.IntRange(1, 1_000_000),
    default=500,
    show_default=True,
    help="Timed fact writes (creates, confirmations, supersedes).",
)
@click.option(
    "--turns",
    type=click.IntRange(1, 1_000_000),
    default=2_000,
    show_default=True,
    help="Turns logged and indexed to measure the ingest rate.",
)
@_store_options
@_postgres_option
def storage(
    as_json: bool,
    sizes: str,
    queries: int,
    writes: int,
    turns: int,
    embedder: str,
    data_dir: str | None,
    store: str | None,
) -> None:
    """Fact-write latency, archival search latency by size and mode, turn ingest rate."""

    from memvisor.evals.bench_storage import run_storage_bench

    counts = parse_sizes(sizes)
    result = _with_progress(
        lambda progress: run_storage_bench(
            data_dir=Path(data_dir) if data_dir else Path.cwd() / ".bench-data",
            sizes=counts,
            queries=queries,
            writes=writes,
            turns=turns,
            embedder=embedder,
            progress=progress,
            store=store,
        )
    )
    if as_json:
        emit_json(result)
    else:
        print_table(_table(result))


def _with_progress(run: Any) -> Any:
    """Run a benchmark with a progress bar on stderr (only on a terminal)."""
    with progress_bars() as progress:
        return run(progress)


def parse_sizes(text: str, *, option: str = "--sizes") -> list[int]:
    """``10000,100000`` (also ``10_000`` or ``10k``) to counts; an error names ``option``."""
    sizes = []
    for part in text.split(","):
        word = part.strip().lower().replace("_", "")
        scale = 1_000 if word.endswith("k") else 1
        try:
            sizes.append(int(word.removesuffix("k")) * scale)
        except ValueError:
            raise UserError(
                f"invalid {option} {text!r}: give whole numbers separated by "
                f"commas, e.g. {option} 10000,100000"
            ) from None
    return sizes


def _table(result: dict[str, Any]) -> Table:
    """The figures against the targets; with ``--store``, PostgreSQL's beside the embedded."""
    from rich.table import Table

    from memvisor.evals.bench_storage import (
        TARGET_HYBRID_AT,
        TARGET_HYBRID_P95_MS,
        TARGET_INGEST_TURNS_PER_S,
        TARGET_WRITE_P95_MS,
    )

    runs = [result] + ([result["postgres"]] if "postgres" in result else [])
    table = Table(
        title=f"memvisor bench storage ({result['embedder']} embedder, "
        f"{result['machine']['cpus']} CPUs)",
        caption="latencies in ms; search times include embedding the query",
    )
    figures = ["p50 / p95"] if len(runs) == 1 else ["embedded p50 / p95", "PostgreSQL p50 / p95"]
    for name in ("measure", *figures, "target", "status"):
        table.add_column(name, no_wrap=True)

    def row(name: str, shown: list[str], target: str, met: list[bool] | None) -> None:
        status = " / ".join(_verdict(m) for m in met) if met is not None else ""
        table.add_row(name, *shown, target, status)

    writes = [run["write_ms"] for run in runs]
    row(
        "fact write (committed)",
        [_latency(w) for w in writes],
        f"p95 ≤ {TARGET_WRITE_P95_MS:g}",
        [w["p95"] <= TARGET_WRITE_P95_MS for w in writes],
    )
    row(
        "fact write through the firewall",
        [_latency(run["guarded_write_ms"]) for run in runs],
        "",
        None,
    )
    row(
        "floor: DuckDB commit alone" if len(runs) == 1 else "floor: commit alone",
        [_latency(run["commit_ms"]) for run in runs],
        "write p95 is " + " / ".join(f"{r['write_p95_over_commit_p95']:.1f}x" for r in runs),
        None,
    )
    hybrid_target = f"p95 ≤ {TARGET_HYBRID_P95_MS:g}"
    targeted = False
    for n, entry in enumerate(result["results"]):
        for mode in entry["search_ms"]:
            timed = [run["results"][n]["search_ms"][mode] for run in runs]
            target, met = "", None
            if mode == "hybrid" and entry["passages"] == TARGET_HYBRID_AT:
                target, targeted = hybrid_target, True
                met = [t["p95"] <= TARGET_HYBRID_P95_MS for t in timed]
            row(f"{mode} @ {entry['passages']:,}", [_latency(t) for t in timed], target, met)
    if not targeted:
        table.add_row(
            f"hybrid @ {TARGET_HYBRID_AT:,}", *["not run"] * len(runs), hybrid_target, "-"
        )
    rates = [run["ingest_turns_per_s"] for run in runs]
    row(
        "turn ingest",
        [f"{rate:,.0f} turns/s" for rate in rates],
        f"≥ {TARGET_INGEST_TURNS_PER_S:g} turns/s",
        [rate >= TARGET_INGEST_TURNS_PER_S for rate in rates],
    )
    row(
        "floor: embedding alone",
        [f"{run['ingest_floor_turns_per_s']:,.0f} turns/s" for run in runs],
        "ingest is " + " / ".join(f"{r['ingest_over_floor']:.2f}x" for r in runs),
        None,
    )
    return table


def _latency(figures: dict[str, float]) -> str:
    return f"{figures['p50']:.2f} / {figures['p95']:.2f}"


def _verdict(met: bool) -> str:
    return "[green]met[/green]" if met else "[red]missed[/red]"


@bench.command("paging")
@click.option("--json", "as_json", is_flag=True, help="Print JSON only on stdout.")
@click.option(
    "--memories",
    default="10000,100000",
    show_default=True,
    help="Store sizes (mixed turns, facts, passages, episodes), comma-separated.",
)
@click.option(
    "--queries",
    type=click.IntRange(1, 100_000),
    default=100,
    show_default=True,
    help="Timed page-ins per size.",
)
@_store_options
@_postgres_option
def paging_cmd(
    as_json: bool,
    memories: str,
    queries: int,
    embedder: str,
    data_dir: str | None,
    store: str | None,
) -> None:
    """Page-in latency (embedding, routes, scoring, packing) and assembly time by size."""
    from memvisor.evals.bench_paging import (
        TARGET_AFTER_WRITE,
        TARGET_ASSEMBLY_P95_MS,
        TARGET_GROWTH,
        TARGET_OVER_FLOOR,
        TARGET_PAGE_IN_P95_MS,
        run_paging_bench,
    )

    sizes = parse_sizes(memories, option="--memories")
    result = _with_progress(
        lambda progress: run_paging_bench(
            sizes=sizes,
            queries=queries,
            embedder=embedder,
            data_dir=Path(data_dir) if data_dir else None,
            progress=progress,
            store=store,
        )
    )
    if as_json:
        emit_json(result)
        return
    from rich.table import Table

    table = Table(title=f"memvisor bench paging ({embedder})")
    for column in (
        "memories",
        "page-in p50 ms",
        "page-in p95 ms",
        "assembly p50 ms",
        "assembly p95 ms",
        "items",
    ):
        table.add_column(column, justify="right")
    on_postgres = result.get("postgres", {}).get("results", [])
    if on_postgres:  # PostgreSQL's figures beside the embedded ones, size by size
        for column in ("PostgreSQL page-in p50 ms", "PostgreSQL page-in p95 ms"):
            table.add_column(column, justify="right")
    for n, row in enumerate(result["results"]):
        page_ok = row["page_in_ms"]["p95"] <= TARGET_PAGE_IN_P95_MS
        asm_ok = row["assembly_ms"]["p95"] <= TARGET_ASSEMBLY_P95_MS
        beside = []
        if on_postgres:
            pg = on_postgres[n]["page_in_ms"]
            pg_ok = pg["p95"] <= TARGET_PAGE_IN_P95_MS
            beside = [f"{pg['p50']:.2f}", f"{pg['p95']:.2f} {'met' if pg_ok else 'MISSED'}"]
        table.add_row(
            str(row["memories"]),
            f"{row['page_in_ms']['p50']:.2f}",
            f"{row['page_in_ms']['p95']:.2f} {'met' if page_ok else 'MISSED'}",
            f"{row['assembly_ms']['p50']:.2f}",
            f"{row['assembly_ms']['p95']:.2f} {'met' if asm_ok else 'MISSED'}",
            str(row["paged_items_mean"]),
            *beside,
        )
    print_table(table)
    rows = result["results"]
    labelled = [("", row) for row in rows] + [("PostgreSQL ", row) for row in on_postgres]
    for label, row in labelled:
        after, turn = row["page_in_after_write_ms"], row["page_in_next_turn_ms"]
        click.echo(
            f"{label}at {row['memories']}: first page-in {row['first_page_in_ms']:.0f} ms "
            f"(reconciles the index, reads the copies); right after a turn's writes "
            f"p50/p95 {after['p50']:.1f}/{after['p95']:.1f} ms "
            f"({row['after_write_p50_over_page_in_p50']:.2f}x steady, target <= "
            f"{TARGET_AFTER_WRITE}); the next "
            f"turn's, its message logged {turn['p50']:.1f}/{turn['p95']:.1f} ms "
            f"({row['next_turn_p50_over_page_in_p50']:.2f}x steady, "
            f"{row['next_turn_p50_over_paused_p50']:.2f}x a page-in after the same pause with "
            f"no write, {row['page_in_after_pause_ms']['p50']:.1f} ms); resident memory "
            f"{row['resident_mb']:.0f} MB (the fill's included)"
        )
        alone = row["page_in_process_mb"]
        click.echo(
            f"{label}at {row['memories']}: a fresh process opening the store and paging in "
            f"holds {alone['after_mb']:.0f} MB (peak {alone['peak_mb']:.0f}, "
            f"{alone['base_mb']:.0f} before opening it; target <= 600 at 100k)"
        )
        click.echo(
            f"{label}at {row['memories']}: floor p50/p95 {row['floor_ms']['p50']:.1f}/"
            f"{row['floor_ms']['p95']:.1f} ms (query embedding {row['embed_ms']['p95']:.1f} + "
            f"raw vector query ({row['vector_engine']}) {row['raw_vector_ms']['p95']:.1f} + "
            f"raw BM25 {row['raw_fts_ms']['p95']:.1f} ms at p95, each alone); page-in p95 is "
            f"{row['page_in_p95_over_floor_p95']:.2f}x the floor's "
            f"(target <= {TARGET_OVER_FLOOR:g})"
        )
    if len(rows) >= 2:
        ratio = rows[-1]["page_in_ms"]["p95"] / max(rows[0]["page_in_ms"]["p95"], 1e-9)
        click.echo(
            f"p95 at {rows[-1]['memories']} / p95 at {rows[0]['memories']}: {ratio:.2f} "
            f"(target <= {TARGET_GROWTH})"
        )


@bench.command("startup")
@click.option("--json", "as_json", is_flag=True, help="Print JSON only on stdout.")
@click.option(
    "--memories",
    type=click.IntRange(10, 1_000_000),
    default=10_000,
    show_default=True,
    help="Memories in the store the commands read (turns, facts, passages; one user).",
)
@click.option(
    "--runs",
    type=click.IntRange(1, 1000),
    default=7,
    show_default=True,
    help="Fresh processes per command; the median is the figure.",
)
@_store_options
def startup_bench(
    as_json: bool, memories: int, runs: int, embedder: str, data_dir: str | None
) -> None:
    """Start-up of fresh `memvisor` processes: --version, --help, memory list and the first
    memory search of a process; wall and CPU seconds and peak memory of each."""
    from memvisor.evals.bench_startup import run_startup_bench

    try:
        result = _with_progress(
            lambda progress: run_startup_bench(
                memories=memories,
                runs=runs,
                embedder=embedder,
                data_dir=Path(data_dir) if data_dir else None,
                progress=progress,
            )
        )
    except RuntimeError as exc:  # a command that failed: its own words
        raise click.ClickException(str(exc)) from None
    if as_json:
        emit_json(result)
        return
    from rich.table import Table

    table = Table(
        title=f"memvisor bench startup ({result['memories']:,} memories, {embedder}, "
        f"median of {runs} fresh processes)",
        caption=f"{result['machine']['cpus']} CPUs, load average "
        f"{result['machine']['load_average_1m']:g} at the end; the search target holds at "
        f"{result['target_search_at']:,} memories",
    )
    for column in ("command", "wall s", "max s", "CPU s", "peak MB", "target s", "status"):
        table.add_column(column, justify="left" if column == "command" else "right")
    for name, figures in result["commands"].items():
        table.add_row(
            STARTUP_COMMANDS.get(name, name),
            f"{figures['wall_s_median']:.3f}",
            f"{figures['wall_s_max']:.3f}",
            f"{figures['cpu_s_median']:.3f}",
            f"{figures['peak_rss_mb_max']:.0f}",
            "" if figures["target_s"] is None else f"≤ {figures['target_s']:g}",
            "" if figures["met"] is None else _verdict(figures["met"]),
        )
    print_table(table)


# How `bench startup` names each command it times.
STARTUP_COMMANDS = {
    "version": "memvisor --version",
    "help": "memvisor --help",
    "memory_list": "memory list",
    "memory_list_empty_user": "memory list (empty)",
    "memory_search_first": "first memory search",
    "memory_add": "memory add (firewall)",
}


@bench.command("serve")
@click.option("--json", "as_json", is_flag=True, help="Print JSON only on stdout.")
@click.option(
    "--clients",
    default="1,8,32",
    show_default=True,
    help="Concurrent HTTP clients per run, comma-separated.",
)
@click.option(
    "--seconds",
    type=click.FloatRange(0.5, 600),
    default=60.0,
    show_default=True,
    help="How long each run lasts.",
)
@click.option(
    "--users",
    type=click.IntRange(1, 100_000),
    default=1000,
    show_default=True,
    help="Users (one API key each) the clients pick from at random.",
)
@click.option(
    "--store",
    default=None,
    help="Also run N server processes on this PostgreSQL database (postgresql:// URL), in a "
    "scratch schema dropped afterwards; the embedded store's one process runs first.",
)
@click.option(
    "--workers",
    default=None,
    help="With --store: server processes per run, comma-separated (default 2,4).",
)
@_store_options
def serve_bench(
    as_json: bool,
    clients: str,
    seconds: float,
    users: int,
    store: str | None,
    workers: str | None,
    embedder: str,
    data_dir: str | None,
) -> None:
    """Load test of `memvisor serve` processes on 127.0.0.1: writes and searches by many
    clients, requests/s, p50/p95/p99 per endpoint, errors, then every acknowledged write
    checked."""
    from memvisor.evals.bench_serve import (
        TARGET_AT_CLIENTS,
        TARGET_SEARCH_P95_MS,
        run_serve_bench,
    )
    from memvisor.storage.backends import chosen_store

    counts = parse_sizes(clients, option="--clients")
    if not counts or min(counts) < 1 or max(counts) > 256:
        raise UserError(f"--clients takes counts from 1 to 256, got {clients!r}")
    url = None
    if store is not None:
        try:
            url = chosen_store(store) if store.strip() else None
        except UserError as exc:
            raise UserError(f"--store: {exc}") from None
        if url is None:
            raise UserError("--store takes a postgresql:// URL (the embedded store always runs)")
    if workers is not None and url is None:
        raise UserError("--workers needs --store: the embedded store takes one server process")
    try:
        processes = parse_sizes(workers or "2,4", option="--workers")
    except UserError:
        processes = []
    if not processes or min(processes) < 1 or max(processes) > 32:
        raise UserError(f"--workers takes process counts from 1 to 32, got {workers!r}")
    try:
        result = _with_progress(
            lambda progress: run_serve_bench(
                data_dir=Path(data_dir) if data_dir else Path.cwd() / ".bench-data",
                clients=counts,
                seconds=seconds,
                users=users,
                embedder=embedder,
                progress=progress,
                store=url,
                workers=processes if url else None,
            )
        )
    except RuntimeError as exc:  # a server that did not start or answer: its own words
        raise click.ClickException(str(exc)) from None
    if as_json:
        emit_json(result)
        return
    from rich.table import Table

    table = Table(
        title=f"memvisor bench serve ({users} users, {seconds:g} s a run, {embedder})",
        caption=f"target: search p95 ≤ {TARGET_SEARCH_P95_MS:g} ms at {TARGET_AT_CLIENTS} "
        "clients, 0 errors, 0 lost writes",
    )
    columns = ("store", "servers", "clients", "req/s", "write p50/p95/p99", "search p50/p95/p99")
    for column in (*columns, "errors", "lost", "CPU ms/req", "client CPU ms/req"):
        table.add_column(column, justify="right")
    for run in result["runs"]:
        table.add_row(
            run["store"],
            str(run["servers"]),
            str(run["clients"]),
            f"{run['requests_per_s']:.0f}",
            _percentiles(run["latency_ms"]["write"]),
            _percentiles(run["latency_ms"]["search"]),
            str(run["errors"]),
            f"{run['lost_writes']} of {run['writes_acknowledged']}",
            _optional(run["server_cpu_ms_per_request"]),
            _optional(run["client_cpu_ms_per_request"]),
        )
    print_table(table)


def _optional(figure: float | None) -> str:
    return "-" if figure is None else f"{figure:.1f}"


def _percentiles(figures: dict[str, float | None]) -> str:
    if figures["p50"] is None:
        return "-"
    return f"{figures['p50']:.1f} / {figures['p95']:.1f} / {figures['p99']:.1f}"


@bench.command("text")
@click.option("--json", "as_json", is_flag=True, help="Print JSON only on stdout.")
@click.option(
    "--sizes",
    default="8000,32000",
    show_default=True,
    help="Two input lengths in characters, the second the larger.",
)
@click.option(
    "--limit",
    type=click.IntRange(1, 2_000_000),
    default=None,
    help="The length of the third figure, at the limit (default: the longest message "
    "accepted, 100,000 characters, or a step's own smaller limit).",
)
def text_bench(as_json: bool, sizes: str, limit: int | None) -> None:
    """Each regex-based text step on long adversarial inputs at two sizes: the slowest input
    and how its time grew (linear grows like the size ratio), then its time at the limit."""
    from memvisor.evals.bench_text import run_text_bench
    from memvisor.paging.text_limits import MAX_MESSAGE_CHARS

    counts = parse_sizes(sizes)
    if len(counts) != 2 or not 0 < counts[0] < counts[1] <= 2_000_000:
        raise UserError(f"--sizes takes two lengths, the second larger, got {sizes!r}")
    result = run_text_bench(sizes=(counts[0], counts[1]), limit=limit or MAX_MESSAGE_CHARS)
    if as_json:
        emit_json(result)
        return
    small, large = result["sizes"]
    click.echo(f"size ratio {result['size_ratio']:g} ({small:,} -> {large:,} characters)")
    for name, step in result["steps"].items():
        worst = f"{step['head']} + {step['piece']!r}" if step["head"] else repr(step["piece"])
        click.echo(
            f"{name:<18} worst {worst:<10} {step['ms'][0]:8.2f} ms -> "
            f"{step['ms'][1]:8.2f} ms  (x{step['growth']:g} for "
            f"{step['lengths'][0]:,} -> {step['lengths'][1]:,}); "
            f"{step['at_limit']['ms']:.2f} ms at {step['at_limit']['chars']:,}"
        )


@bench.command(
    "chaos",
    short_help="Kills, a failing index and embedder, a full disk, corrupted files and fuzzed "
    "tool calls: what each fault cost (all must be 0).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON only on stdout.")
@click.option(
    "--trials", type=click.IntRange(1, 1000), default=5, show_default=True, help="Trials per fault."
)
@click.option(
    "--fuzz",
    type=click.IntRange(0, 1_000_000),
    default=10_000,
    show_default=True,
    help="Fuzzed tool calls.",
)
@click.option(
    "--seed",
    type=click.IntRange(0, 2**63 - 1),
    default=None,
    help="Seed of every random choice, 0 to 2^63-1 (default: a new one, printed).",
)
@click.option(
    "--jobs", type=click.IntRange(1, 16), default=1, show_default=True, help="Faults run at once."
)
@click.option(
    "--fault",
    "faults",
    multiple=True,
    type=click.Choice(CHAOS_FAULTS),
    help="Run only these faults (repeatable); default all.",
)
@click.option(
    "--embedder",
    type=click.Choice(["hash", "minilm"]),
    default="hash",
    show_default=True,
    help="The stores' embedder (hash: fast; the faults do not depend on it).",
)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Where to make the scratch directory (default ./.bench-data); removed afterwards.",
)
def chaos_bench(
    as_json: bool,
    trials: int,
    fuzz: int,
    seed: int | None,
    jobs: int,
    faults: tuple[str, ...],
    embedder: str,
    data_dir: str | None,
) -> None:
    """Kills, failing parts, a full disk, corrupted files and fuzzed tool calls; per fault the
    writes lost, stores not reopened, records not found, uncaught exceptions and tracebacks
    shown (all must be 0)."""
    from memvisor.evals.chaos import run_chaos
    from memvisor.evals.chaos.report import chaos_lines, failure_notes
    from memvisor.storage.logger import logger

    logger.remove()  # the faults are deliberate: their warnings are expected, the counts are not
    report = _with_progress(
        lambda progress: run_chaos(
            data_dir=Path(data_dir) if data_dir else Path.cwd() / ".bench-data",
            trials=trials,
            fuzz=fuzz,
            seed=seed,
            embedder=embedder,
            faults=faults or CHAOS_FAULTS,
            jobs=jobs,
            progress=progress,
        )
    )
    if as_json:
        emit_json(report)
    else:
        for line in chaos_lines(report) + failure_notes(report):
            click.echo(line)
        verdict = "all zeros" if not report["failures"] else f"{report['failures']} failures"
        click.echo(f"seed {report['seed']}: {verdict}")
    # Unlike the speed benches, these counters are correctness: a script or CI can act on them.
    if report["failures"]:
        raise SystemExit(1)
