"""Self-contained HTML reports (one file, plotly.js inline) for LoCoMo runs and replays.

Every string taken from a result document is escaped: ``html.escape`` in the
page, and ``&``/``<``/``>`` escaped in figure text too, because plotly.js renders
a subset of HTML tags in labels (and decodes the entities back for display).
"""

from __future__ import annotations

import html
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
from plotly.colors import qualitative

# fmt: off
OVERALL_CATEGORIES = "1-4"
LOCOMO_CATEGORIES = {"1": "multi-hop", "2": "temporal", "3": "open-domain", "4": "single-hop",
                     "5": "adversarial"}
# fmt: on

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328;
       margin: 0; background: #fff; }
main { max-width: 1080px; margin: 0 auto; padding: 24px 32px 48px; }
h1 { font-size: 1.6em; margin: 0 0 4px; }
h2 { font-size: 1.2em; margin: 32px 0 6px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
.meta, .caption, .note, footer { color: #57606a; font-size: 0.92em; }
.caption { margin: 2px 0 0; }
table { border-collapse: collapse; margin: 8px 0; font-size: 0.92em; }
th, td { border: 1px solid #d0d7de; padding: 4px 10px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.pass { color: #1a7f37; font-weight: 600; }
.fail { color: #cf222e; font-weight: 600; }
td.pass { background: #dafbe1; }
td.fail { background: #ffebe9; }
details { margin: 8px 0; }
"""


def _e(value: Any) -> str:
    return html.escape(str(value))


def _t(value: Any) -> str:
    """Text for a figure: plotly.js reads pseudo-HTML there, so escape it too."""
    return html.escape(str(value), quote=False)


def _float(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _fmt(value: Any) -> str:
    number = _float(value)
    if number is None:
        return "—" if value is None else str(value)
    if isinstance(value, int):
        return str(value)
    if abs(number) >= 100:
        return f"{number:.1f}".removesuffix(".0")
    return f"{number:.1f}" if abs(number) >= 1 else f"{number:.3f}"


def _dict(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _table(header: Sequence[str], rows: Sequence[Sequence[tuple[str, str]]]) -> str:
    """``rows`` hold (already escaped html, css class) cells."""
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join(
        "<tr>"
        + "".join(f'<td class="{cls}">{c}</td>' if cls else f"<td>{c}</td>" for c, cls in row)
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _flat(metrics: Mapping[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    items: list[tuple[str, Any]] = []
    for key, value in metrics.items():
        if isinstance(value, Mapping):
            items += _flat(value, f"{prefix}{key}.")
        else:
            items.append((f"{prefix}{key}", value))
    return items


def _metrics_table(page: _Page, title: str, metrics: Mapping[str, Any]) -> None:
    """Nested mappings flatten to dotted names; lists and other values print as JSON."""
    if not metrics:
        return
    rows = [
        [
            (_e(k), ""),
            (
                _e(json.dumps(v, ensure_ascii=False) if isinstance(v, list | dict) else _fmt(v)),
                "num",
            ),
        ]
        for k, v in _flat(metrics)
    ]
    page.heading(title)
    page.html(_table(["metric", "value"], rows))


class _Page:
    """Collects sections; plotly.js is inlined once, with the first figure."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.parts: list[str] = []
        self._figures = 0

    def html(self, fragment: str) -> None:
        self.parts.append(fragment)

    def heading(self, text: str) -> None:
        self.parts.append(f"<h2>{_e(text)}</h2>")

    def note(self, text: str) -> None:
        self.parts.append(f'<p class="note">{_e(text)}</p>')

    def figure(self, title: str, fig: go.Figure, caption: str, *, height: int = 380) -> None:
        fig.update_layout(
            template="plotly_white",
            height=height,
            # The legend goes under the plot: above it, a long one runs into plotly's
            # toolbar in the top right corner.
            margin={"l": 60, "r": 20, "t": 40, "b": 110},
            legend={"orientation": "h", "x": 0, "xanchor": "left", "y": -0.28, "yanchor": "top"},
        )
        div = fig.to_html(
            full_html=False,
            include_plotlyjs=self._figures == 0,
            div_id=f"figure-{self._figures + 1}",
            config={"displaylogo": False, "responsive": True},
        )
        self._figures += 1
        self.heading(title)
        self.parts.append(div)
        self.parts.append(f'<p class="caption">{_e(caption)}</p>')

    def write(self, out: str | Path) -> Path:
        path = Path(out)
        path.parent.mkdir(parents=True, exist_ok=True)
        body = "\n".join(self.parts)
        path.write_text(
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{_e(self.title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
            f"<main>\n<h1>{_e(self.title)}</h1>\n{body}\n"
            "<footer><p>Generated by Memvisor. Self-contained: opens offline.</p></footer>\n"
            "</main>\n</body>\n</html>\n",
            encoding="utf-8",
        )
        return path


# -- LoCoMo retrieval --


def _ks(result: Mapping[str, Any], systems: Mapping[str, Mapping[str, Any]]) -> list[str]:
    keys = {str(k) for k in result.get("k") or [] if _float(k) is not None}
    for metrics in systems.values():
        keys.update(str(k) for k in _dict(metrics.get("recall_at_k")) if _float(k) is not None)
    return sorted(keys, key=lambda k: float(k))


def _colors(systems: Mapping[str, Any]) -> dict[str, str]:
    """One colour per system, the same in every figure."""
    palette = qualitative.Plotly
    return {name: palette[i % len(palette)] for i, name in enumerate(systems)}


def _unplotted(names: Sequence[str], plotted: Sequence[str]) -> str:
    """A caption's note naming the series with nothing to draw, so no legend entry is blank."""
    empty = [n for n in names if n not in plotted]
    return f" No data for: {', '.join(empty)}." if empty else ""


def _category_label(cat: str, questions: Any) -> str:
    name = LOCOMO_CATEGORIES.get(cat)
    label = f"{cat} · {name}" if name else cat
    return f"{label} (n={questions})" if questions is not None else label


def locomo_report(result: dict[str, Any], out: str | Path) -> Path:
    """Write the ``memvisor eval locomo`` result as one HTML file; returns its path."""
    systems = {str(name): _dict(m) for name, m in _dict(result.get("systems")).items()}
    ks = _ks(result, systems)
    page = _Page("LoCoMo retrieval report")
    page.html(
        f'<p class="meta">dataset <b>{_e(result.get("dataset", "?"))}</b> · '
        f"{_e(result.get('questions', '?'))} questions scored · "
        f"{_e(result.get('skipped_questions', 0))} questions skipped (no question text or no "
        "usable evidence turn) · "
        f"{_e(result.get('skipped_evidence', 0))} malformed evidence ids skipped · "
        f"token budget {_e(result.get('budget', '—'))}</p>"
    )
    page.heading("Summary")
    page.note(
        f"Recall covers categories {OVERALL_CATEGORIES} (multi-hop, temporal, open-domain, "
        "single-hop); category 5 (adversarial) is shown per category only. Tokens and latency "
        "are over every scored question."
    )
    header = ["system", *[f"recall@{k}" for k in ks], "recall@budget"]
    header += ["tokens/query", "latency p50 ms", "latency p95 ms"]
    rows = []
    for name, m in systems.items():
        at_k, lat = _dict(m.get("recall_at_k")), _dict(m.get("latency_ms"))
        cells = [(_e(name), "")] + [(_e(_fmt(at_k.get(k))), "num") for k in ks]
        values = [m.get("recall_at_budget"), m.get("tokens_per_query")]
        values += [lat.get("p50"), lat.get("p95")]
        rows.append(cells + [(_e(_fmt(v)), "num") for v in values])
    page.html(_table(header, rows) if rows else '<p class="note">No systems in the result.</p>')
    _locomo_recall_curves(page, systems, ks)
    _locomo_categories(page, systems, ks)
    _locomo_latency(page, systems)
    _locomo_tokens(page, systems)
    _metrics_table(page, "Question answering", _dict(result.get("qa")))
    return page.write(out)


def _locomo_recall_curves(page: _Page, systems: Mapping[str, Any], ks: list[str]) -> None:
    colors, fig = _colors(systems), go.Figure()
    plotted: list[str] = []
    for name, m in systems.items():
        at_k = _dict(m.get("recall_at_k"))
        points = [(float(k), _float(at_k[k])) for k in ks if _float(at_k.get(k)) is not None]
        if points:
            x, y = zip(*points, strict=True)
            fig.add_scatter(x=x, y=y, mode="lines+markers", name=_t(name), line_color=colors[name])
            plotted.append(name)
    if not fig.data:
        page.note("No recall@k figures in the result.")
        return
    fig.update_xaxes(title_text="k (retrieved turns)", tickvals=[float(k) for k in ks])
    fig.update_yaxes(title_text="strict evidence recall", range=[0, 1.02])
    page.figure(
        "Recall@k",
        fig,
        "Share of each question's evidence turns found among the top k retrieved turns "
        f"(categories {OVERALL_CATEGORIES})." + _unplotted(list(systems), plotted),
    )


def _locomo_categories(page: _Page, systems: Mapping[str, Any], ks: list[str]) -> None:
    k = "10" if "10" in ks else (ks[0] if ks else "10")
    cats: dict[str, Any] = {}
    for m in systems.values():
        for cat, cm in _dict(m.get("by_category")).items():
            if cats.get(str(cat)) is None:
                cats[str(cat)] = _dict(cm).get("questions")
    order = sorted(cats, key=lambda c: (_float(c) is None, _float(c) or 0.0, c))
    colors, fig = _colors(systems), go.Figure()
    plotted: list[str] = []
    for name, m in systems.items():
        by_cat = _dict(m.get("by_category"))
        y = [_float(_dict(_dict(by_cat.get(c)).get("recall_at_k")).get(k)) for c in order]
        if any(v is not None for v in y):
            x = [_t(_category_label(c, cats[c])) for c in order]
            fig.add_bar(x=x, y=y, name=_t(name), marker_color=colors[name])
            plotted.append(name)
    if not fig.data:
        page.note("No per-category recall in the result.")
        return
    fig.update_layout(barmode="group")
    fig.update_yaxes(title_text=f"recall@{k}", range=[0, 1.02])
    page.figure(
        f"Recall@{k} by category",
        fig,
        "LoCoMo categories: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial."
        + _unplotted(list(systems), plotted),
    )


def _locomo_latency(page: _Page, systems: Mapping[str, Any]) -> None:
    colors = _colors(systems)
    names = [n for n in systems if _dict(systems[n].get("latency_ms"))]
    lat = [_dict(systems[n].get("latency_ms")) for n in names]
    fig = go.Figure()
    for pct in ("p50", "p95"):
        y = [_float(d.get(pct)) for d in lat]
        if any(v is not None for v in y):
            # the value on each bar: a 0.0 ms bar is otherwise an empty slot
            fig.add_bar(
                x=[_t(n) for n in names],
                y=y,
                name=pct,
                texttemplate="%{y:.1f}",
                textposition="outside",
            )
    if fig.data:
        fig.update_layout(barmode="group")
        fig.update_yaxes(title_text="ms")
        page.figure(
            "Page-in latency",
            fig,
            "Median (p50) and 95th percentile per system." + _unplotted(list(systems), names),
        )
    else:
        page.note("No latency figures in the result.")
    hist, drawn = go.Figure(), []
    for name, m in systems.items():
        values = m.get("latencies_ms")
        if isinstance(values, list) and values:
            xs = [v for v in (_float(x) for x in values) if v is not None]
            hist.add_histogram(x=xs, name=_t(name), opacity=0.6, marker_color=colors[name])
            drawn.append(name)
    if hist.data:
        hist.update_layout(barmode="overlay")
        hist.update_xaxes(title_text="ms per query")
        hist.update_yaxes(title_text="queries")
        page.figure(
            "Latency distribution",
            hist,
            "Per-query page-in latency, overlaid by system." + _unplotted(list(systems), drawn),
        )


def _locomo_tokens(page: _Page, systems: Mapping[str, Any]) -> None:
    names = [n for n in systems if _float(systems[n].get("tokens_per_query")) is not None]
    if not names:
        page.note("No token figures in the result.")
        return
    fig = go.Figure()
    fig.add_bar(
        x=[_t(n) for n in names],
        y=[_float(systems[n]["tokens_per_query"]) for n in names],
        marker_color=[_colors(systems)[n] for n in names],
        texttemplate="%{y:.0f}",
        showlegend=False,
    )
    fig.update_yaxes(title_text="tokens")
    page.figure(
        "Tokens per query",
        fig,
        "Mean tokens of retrieved context per question." + _unplotted(list(systems), names),
    )


# -- transcript replay --


def _ints(value: Any) -> list[int]:
    if not isinstance(value, list):
        return []
    return [int(f) for f in (_float(v) for v in value) if f is not None]


def _names(value: Any) -> list[str]:
    return [str(n) for n in value if n is not None] if isinstance(value, list) else []


def _turn_axes(fig: go.Figure, turns: int, y_title: str, *, counts: bool = False) -> None:
    fig.update_xaxes(title_text="turn", dtick=1 if turns <= 30 else None)
    fig.update_yaxes(title_text=y_title, rangemode="tozero")
    # small counts get whole-number ticks (the sum bounds stacked and grouped bars alike)
    bars = [t.y for t in fig.data if t.type == "bar" and t.y]
    if (
        counts
        and max((sum(v or 0 for v in col) for col in zip(*bars, strict=True)), default=0) <= 10
    ):
        fig.update_yaxes(dtick=1)


def replay_report(report: dict[str, Any], out: str | Path) -> Path:
    """Write an ``memvisor replay --json`` document as one HTML file; returns its path."""
    probes = [p for p in report.get("probes") or [] if isinstance(p, Mapping)]
    turns = [t for t in report.get("turns") or [] if isinstance(t, Mapping)]
    passed = report.get("passed")
    if not isinstance(passed, bool):
        passed = all(bool(p.get("passed")) for p in probes)
    verdict = "PASS" if passed else "FAIL"
    page = _Page(f"Replay: {Path(str(report.get('transcript', '?'))).name}")
    page.html(
        f'<p class="meta">transcript {_e(report.get("transcript", "?"))} · user '
        f"{_e(report.get('user_id', '?'))} · {len(turns)} turns · "
        f'<span class="{verdict.lower()}">{verdict}</span> '
        f"({sum(bool(p.get('passed')) for p in probes)}/{len(probes)} probes)</p>"
    )
    _metrics_table(page, "Metrics", _dict(report.get("metrics")))
    page.heading("Probes")
    marks = ["PASS" if p.get("passed") else "FAIL" for p in probes]
    rows = [
        [(_e(p.get(key, "")), "num" if key == "line" else "") for key in ("line", "probe", "label")]
        + [(mark, mark.lower()), (_e(p.get("detail", "")), "")]
        for p, mark in zip(probes, marks, strict=True)
    ]
    header = ["line", "probe", "label", "result", "detail"]
    page.html(_table(header, rows) if rows else '<p class="note">The transcript has no probes.</p>')
    if turns:
        _replay_prompt_tokens(page, turns)
        _replay_paging(page, turns)
        _replay_tools(page, turns)
        _replay_turn_table(page, turns)
    else:
        page.note("No turns were replayed.")
    return page.write(out)


def _replay_prompt_tokens(page: _Page, turns: list[Mapping[str, Any]]) -> None:
    x = list(range(1, len(turns) + 1))
    tokens = [_ints(t.get("prompt_tokens")) for t in turns]
    fig = go.Figure()
    fig.add_bar(
        x=x,
        y=[max(t, default=0) for t in tokens],
        name="largest prompt",
        customdata=[
            [_t(t.get("trace_id", "")), len(n)] for t, n in zip(turns, tokens, strict=True)
        ],
        hovertemplate="turn %{x}: %{y} tokens<br>%{customdata[0]} · %{customdata[1]} "
        "model requests<extra></extra>",
    )
    windows = [_float(t.get("window")) for t in turns]
    present = {w for w in windows if w is not None}
    caption = "Largest prompt (tokens) among each turn's model requests."
    if len(present) == 1:
        window = present.pop()
        fig.add_hline(
            y=window,
            line_dash="dash",
            line_color="#cf222e",
            annotation_text=f"window {window:.0f}",
            annotation_position="top left",
        )
        caption += " Dashed line: the context window."
    elif present:
        fig.add_scatter(x=x, y=windows, mode="lines", line_shape="hv", name="window")
        caption += " Step line: the context window per turn."
    _turn_axes(fig, len(turns), "prompt tokens")
    page.figure("Prompt tokens per turn", fig, caption)


def _replay_paging(page: _Page, turns: list[Mapping[str, Any]]) -> None:
    x = list(range(1, len(turns) + 1))
    fig = go.Figure()
    missing, none = [], []
    for key, name in (("evictions", "evictions"), ("paged_in", "paged-in items")):
        values = [_float(t.get(key)) for t in turns]
        if any(v is not None for v in values):
            # an all-zero series keeps its legend entry, marked, rather than drawing nothing
            zero = not any(values)
            fig.add_bar(x=x, y=[v or 0 for v in values], name=f"{name} (none)" if zero else name)
            if zero:
                none.append(name)
        else:
            missing.append(key)
    if not fig.data:
        page.heading("Evictions and page-ins")
        page.note(
            "Omitted: the report has no per-turn 'evictions' or 'paged_in' counts "
            "(older runtime or a replay that does not record them)."
        )
        return
    fig.update_layout(barmode="group")
    _turn_axes(fig, len(turns), "count", counts=True)
    caption = "Dialogue turns evicted into the summary and memory items paged in, per turn."
    if missing:
        caption += f" Not recorded: {', '.join(missing)}."
    if none:
        caption += f" No {' and no '.join(none)} in this replay."
    page.figure("Evictions and page-ins along the session", fig, caption, height=320)


def _replay_tools(page: _Page, turns: list[Mapping[str, Any]]) -> None:
    x = list(range(1, len(turns) + 1))
    per_turn = [Counter(_names(t.get("tools"))) for t in turns]
    names = sorted({n for c in per_turn for n in c})
    if not names:
        page.heading("Tool calls per turn")
        page.note("No tool calls in this replay.")
        return
    fig = go.Figure()
    for name in names:
        fig.add_bar(x=x, y=[c.get(name, 0) for c in per_turn], name=_t(name))
    fig.update_layout(barmode="stack")
    _turn_axes(fig, len(turns), "tool calls", counts=True)
    page.figure("Tool calls per turn", fig, "Tool calls the model made in each turn, by tool.")


def _replay_turn_table(page: _Page, turns: list[Mapping[str, Any]]) -> None:
    rows = []
    for i, t in enumerate(turns, 1):
        answer = " ".join(str(t.get("answer") or "").split())
        answer = answer if len(answer) <= 300 else answer[:299] + "…"
        tokens = ", ".join(str(n) for n in _ints(t.get("prompt_tokens")))
        cells = [str(i), t.get("trace_id", ""), answer, ", ".join(_names(t.get("tools"))), tokens]
        rows.append([(_e(c), "num" if j in (0, 4) else "") for j, c in enumerate(cells)])
    page.heading("Turns")
    page.html(
        f"<details><summary>{len(rows)} turns</summary>"
        + _table(["turn", "trace", "answer", "tools", "prompt tokens"], rows)
        + "</details>"
    )
