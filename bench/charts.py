"""The benchmarks' charts: PNGs written beside their JSON, one drawing routine for all of them.

``grouped_bars`` draws one bar per series within each group (a system per colour, a category or
an operation per group), with a title, axis labels carrying their units and a legend, and saves
it as a PNG. matplotlib is imported when a chart is written, not when a benchmark is imported,
and draws with its Agg backend (no display needed).
"""

from __future__ import annotations

from pathlib import Path

PNG_DPI = 110


def grouped_bars(
    path: Path,
    *,
    groups: list[str],
    series: dict[str, list[float | None]],
    title: str,
    xlabel: str,
    ylabel: str,
    legend: str,
    ylim: tuple[float, float] | None = None,
    log: bool = False,
    note: str | None = None,
) -> Path:
    """Write grouped bars to ``path`` (a PNG): ``series[name][i]`` is the bar of ``name`` in
    ``groups[i]``; a value that is ``None`` or NaN leaves its bar out.

    ``legend`` titles the legend (what a colour is, e.g. ``"system"``); ``ylim`` fixes the
    value axis (e.g. ``(0, 1)`` for a recall), ``log`` makes it logarithmic (latencies that
    span orders of magnitude), ``note`` is a line of small print under the axes (what was
    measured, on what). Returns ``path``.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    width = 0.8 / max(len(series), 1)
    figure, axes = plt.subplots(figsize=(max(6.0, 1.1 * len(groups) + 3), 4.5))
    for i, (name, values) in enumerate(series.items()):
        shown = [(g, v) for g, v in enumerate(values) if v is not None and v == v]
        axes.bar([g + i * width for g, _ in shown], [v for _, v in shown], width, label=name)
    axes.set_xticks([g + width * (len(series) - 1) / 2 for g in range(len(groups))])
    tilted = max(map(len, groups), default=0) > 12
    axes.set_xticklabels(groups, rotation=20 if tilted else 0, ha="right" if tilted else "center")
    if log:
        axes.set_yscale("log")
    if ylim is not None:
        axes.set_ylim(*ylim)
    axes.set_title(title)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), title=legend)
    axes.grid(axis="y", alpha=0.3)
    if note:
        figure.text(0.01, 0.01, note, fontsize=7, color="0.35")
    figure.tight_layout(rect=(0, 0.03 if note else 0, 1, 1))
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=PNG_DPI)
    plt.close(figure)
    return path
