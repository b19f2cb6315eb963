"""``memvisor eval``: benchmarks of the memory against public datasets (LoCoMo)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from memvisor.errors import UserError
from memvisor.storage.ids import new_id

from .common import emit_json, invocation, output_path, write_report
from .group import MemvisorGroup
from .progress import progress_bars
from .tables import print_table

if TYPE_CHECKING:
    from rich.table import Table

CATEGORY_NAMES = {
    "1": "multi-hop",
    "2": "temporal",
    "3": "open-domain",
    "4": "single-hop",
    "5": "adversarial",
}


def _locomo_data(help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option(
        "--data", "data_file", required=True, type=click.Path(dir_okay=False), help=help_text
    )


_LIMIT_CONVERSATIONS = click.option(
    "--limit-conversations",
    type=click.IntRange(1),
    default=None,
    help="Only the first N conversations.",
)


@click.group("eval", cls=MemvisorGroup)
def eval_group() -> None:
    """Evaluations of retrieval and answers on public benchmarks."""


@eval_group.command("locomo")
@_locomo_data("A LoCoMo JSON file (e.g. locomo10.json).")
@click.option("--k", "ks", default="5,10,25", show_default=True, help="Cut-offs for recall@k.")
@click.option(
    "--budget",
    type=click.IntRange(1),
    default=1000,
    show_default=True,
    help="Token budget for recall at budget (raw turns packed in rank order).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON only on stdout.")
@click.option(
    "--html",
    "html_out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write an HTML report with plots to this file.",
)
@_LIMIT_CONVERSATIONS
@click.option(
    "--answer-model",
    default=None,
    help="Answer each question with this model (ollama:NAME) and score F1.",
)
@click.option(
    "--judge-model",
    default=None,
    help="Judge the answers CORRECT/WRONG with this model (ollama:NAME).",
)
@click.option("--keep", is_flag=True, help="Keep the per-conversation stores afterwards.")
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Data directory; stores go under DATA_DIR/evals/<run id>.",
)
@click.option(
    "--store",
    default=None,
    metavar="URL",
    help="A postgresql:// URL: the conversations' records and index in a scratch database on "
    "its server, dropped afterwards whatever --keep says (the role needs CREATEDB).",
)
def locomo(
    data_file: str,
    ks: str,
    budget: int,
    as_json: bool,
    html_out: str | None,
    limit_conversations: int | None,
    answer_model: str | None,
    judge_model: str | None,
    keep: bool,
    data_dir: str | None,
    store: str | None,
) -> None:
    """Strict evidence recall of Memvisor's page-in vs BM25, dense and recency on LoCoMo."""
    from rich.console import Console

    from memvisor.evals.locomo import run_locomo

    inv = invocation(data_dir, None, as_json)
    html_path = output_path(html_out, option="--html") if html_out else None
    run_id = new_id("run")
    started = time.perf_counter()
    with progress_bars() as progress:
        result = run_locomo(
            data_file,
            data_dir=inv.data_dir,
            ks=parse_ks(ks),
            budget=budget,
            embedder=os.environ.get("MEMVISOR_EMBEDDER"),
            limit_conversations=limit_conversations,
            keep=keep,
            run_id=run_id,
            live_qa=_live_qa(answer_model, judge_model),
            progress=progress,
            store=store,
        )
    elapsed = time.perf_counter() - started
    if as_json:
        emit_json(result)
    else:
        Console().print(_summary_line(result, elapsed))
        print_table(_overall_table(result))
        print_table(_category_table(result))
        if "qa" in result:
            print_table(_qa_table(result["qa"]))
    err = Console(stderr=True)
    if html_path is not None:  # after the results are out: a failure here loses nothing
        from memvisor.evals.report_html import locomo_report

        write_report(
            lambda: locomo_report(result, str(html_path)),
            option="--html",
            path=html_path,
            document=result,
            keep=Path(inv.data_dir) / "evals" / f"{run_id}.json",
        )
        err.print(f"HTML report: {html_path}")
    if keep:
        err.print(f"stores kept in {Path(inv.data_dir) / 'evals' / run_id}")


@eval_group.command("firewall")
@_locomo_data("A LoCoMo JSON file (e.g. locomo10.json): its turns are the ordinary writes.")
@_LIMIT_CONVERSATIONS
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Firewall settings (.json or .toml) overriding the defaults, as `firewall scan`'s.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON only on stdout.")
def firewall_ordinary(
    data_file: str, limit_conversations: int | None, config_path: str | None, as_json: bool
) -> None:
    """How much ordinary conversation the write firewall holds back: every LoCoMo turn
    proposed as the user's own note and as the model's note of it (target: at most 2%)."""
    from rich.table import Table

    from memvisor.agent.guards import FirewallConfig
    from memvisor.evals.firewall_ordinary import run_firewall_ordinary

    config = FirewallConfig.load(config_path) if config_path else None
    with progress_bars() as progress:
        result = run_firewall_ordinary(
            data_file, limit_conversations=limit_conversations, config=config, progress=progress
        )
    if as_json:
        emit_json(result)
        return
    click.echo(
        f"{result['turns']:,} turns of {result['conversations']} conversations, each proposed "
        f"twice; target: at most {result['target_held_rate']:.0%} held back"
    )
    table = Table("proposed as", "held back", "rate", "reasons (most frequent first)")
    for way, figures in result["ways"].items():
        reasons = ", ".join(f"{name} {count}" for name, count in figures["reasons"].items())
        table.add_row(way, str(figures["held"]), f"{figures['held_rate']:.1%}", reasons or "-")
    print_table(table)
    for way, figures in result["ways"].items():
        for example in figures["examples"]:
            click.echo(
                f"{way} {example['turn']}: {example['text']!r} ({', '.join(example['reasons'])})"
            )


def parse_ks(text: str) -> list[int]:
    try:
        ks = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        ks = []
    if not ks or ks[0] < 1:
        raise UserError(
            f"invalid --k {text!r}: give positive cut-offs separated by commas, e.g. --k 5,10,25"
        )
    return ks


def _live_qa(answer_model: str | None, judge_model: str | None) -> Any:
    if judge_model and not answer_model:
        raise UserError("--judge-model needs --answer-model: the judge grades its answers")
    if not answer_model:
        return None
    from memvisor.agent.models.names import model_from_name
    from memvisor.evals.live_qa import LiveQA

    return LiveQA(
        answer_model=model_from_name(answer_model),
        answer_name=answer_model,
        judge_model=model_from_name(judge_model) if judge_model else None,
        judge_name=judge_model,
    )


def _summary_line(result: dict[str, Any], elapsed: float) -> str:
    latency = result["systems"]["memvisor"]["latency_ms"]
    return (
        f"LoCoMo {result['dataset']} ({result['store']} store): {result['conversations']} "
        "conversations, "
        f"{result['questions']} questions scored ({result['skipped_questions']} skipped, "
        f"{result['skipped_evidence']} malformed or missing evidence ids), budget "
        f"{result['budget']} tokens, {elapsed:.0f} s; page-in latency p50 "
        f"{latency['p50']:.1f} ms, p95 {latency['p95']:.1f} ms"
    )


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def _overall_table(result: dict[str, Any]) -> Table:
    from rich.table import Table

    table = Table(
        title="Strict evidence recall, categories 1-4 (%)",
        caption="tokens: mean size of the budget set; latency: one ranking call",
    )
    table.add_column("system")
    for k in result["k"]:
        table.add_column(f"R@{k}", justify="right")
    for name in ("R@budget", "tokens/query", "p50 ms", "p95 ms"):
        table.add_column(name, justify="right")
    for system, m in result["systems"].items():
        table.add_row(
            system,
            *[_pct(m["recall_at_k"][str(k)]) for k in result["k"]],
            _pct(m["recall_at_budget"]),
            f"{m['tokens_per_query'] or 0:.0f}",
            f"{m['latency_ms']['p50']:.1f}",
            f"{m['latency_ms']['p95']:.1f}",
        )
    return table


def _category_table(result: dict[str, Any]) -> Table:
    from rich.table import Table

    table = Table(title="Recall by category (%)")
    table.add_column("category")
    table.add_column("n", justify="right")
    table.add_column("system")
    for k in result["k"]:
        table.add_column(f"R@{k}", justify="right")
    table.add_column("R@budget", justify="right")
    categories = next(iter(result["systems"].values()))["by_category"]
    for cat in categories:
        for n, (system, m) in enumerate(result["systems"].items()):
            figures = m["by_category"][cat]
            label = f"{cat} {CATEGORY_NAMES.get(cat, '')}".strip() if n == 0 else ""
            table.add_row(
                label,
                str(figures["questions"]) if n == 0 else "",
                system,
                *[_pct(figures["recall_at_k"][str(k)]) for k in result["k"]],
                _pct(figures["recall_at_budget"]),
                end_section=n == len(result["systems"]) - 1,
            )
    return table


def _qa_table(qa: dict[str, Any]) -> Table:
    from rich.table import Table

    table = Table(title=f"Live QA: {qa['model']}, judge {qa['judge'] or 'none'}")
    for name in (
        "category",
        "n",
        "F1 %",
        "judge %",
        "unparseable",
        "no gold",
        "tokens",
        "p50 ms",
        "p95 ms",
    ):
        table.add_column(name, justify="left" if name == "category" else "right")
    rows = [("overall 1-4", qa["overall"]), *qa["by_category"].items()]
    for label, f in rows:
        table.add_row(
            f"{label} {CATEGORY_NAMES.get(label, '')}".strip(),
            str(f["questions"]),
            _pct(f["f1"]),
            _pct(f["judge_accuracy"]),
            str(f["unparseable_judgements"]),
            str(f["no_gold_answer"]),
            "-" if f["tokens_per_answer"] is None else f"{f['tokens_per_answer']:.0f}",
            f"{f['latency_ms']['p50']:.0f}",
            f"{f['latency_ms']['p95']:.0f}",
        )
    return table
