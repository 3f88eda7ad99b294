"""The load benchmark's report: before and after side by side, as markdown tables
(``bench/serve_load.py``)."""

from __future__ import annotations

from typing import Any

COLUMNS = (
    ("moves/s", "moves_per_s"),
    ("p50 ms", "p50_ms"),
    ("p99 ms", "p99_ms"),
    ("CPU ms/move", "cpu_ms_per_move"),
    ("RSS MB", "rss_mb"),
)


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.1f}" if value >= 10 else f"{value:.2f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def _check(result: dict[str, Any]) -> str:
    c = result.get("check")
    if c is None:
        return "-"
    if result.get("moves") == 0:
        return "**stalled: no move announced**"
    if c["lost"] or c["doubled"] or c["out_of_order"]:
        return f"**lost {c['lost']}, doubled {c['doubled']}, gaps {c['out_of_order']}**"
    return f"ok ({c['stored']:,})"


def markdown(report: dict[str, Any]) -> str:
    """The runs (and the kill loops) as markdown tables."""
    names = sorted({r["version"] for r in report["runs"]}, key=["before", "after"].index)
    rows: dict[tuple[str, int, int], dict[str, dict[str, Any]]] = {}
    for r in report["runs"]:
        rows.setdefault((r["scenario"], r["tables"], r["procs"]), {})[r["version"]] = r
    head = ["scenario", "tables", "procs"]
    for title, _key in COLUMNS:
        head += [f"{title} {n}" for n in names] if len(names) > 1 else [title]
    head += [f"check {n}" for n in names]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    skipped: dict[str, list[str]] = {}
    for (scenario, tables, procs), by in rows.items():
        size = f"{tables:,} conns" if scenario == "idle" else f"{tables:,}"
        cells = [scenario, size, str(procs)]
        if all("skipped" in r for r in by.values()):
            cells += ["skipped"] + ["-"] * (len(head) - 4)
        else:
            for _title, key in COLUMNS:
                for n in names:
                    r = by.get(n, {})
                    cells.append("skipped" if "skipped" in r else _cell(r.get(key)))
            cells += [_check(by.get(n, {})) for n in names]
        lines.append("| " + " | ".join(cells) + " |")
        for n, r in by.items():
            if "skipped" in r:
                skipped.setdefault(r["skipped"], []).append(f"{scenario} {size} {n}")
    out = "\n".join(lines)
    if skipped:
        out += "\n\nSkipped:\n"
        out += "\n".join(f"- {', '.join(which)}: {why}" for why, which in skipped.items())
    kills = report.get("kill_loops", [])
    if kills:
        out += "\n\n| SIGKILL loop | store | kills | acknowledged | lost | doubled | gaps | restart ms |\n"
        out += "|---|---|---|---|---|---|---|---|\n"
        for k in kills:
            if "skipped" in k:
                out += f"| {k['version']} | {k['db']} | skipped: {k['skipped']} ||||||\n"
                continue
            c = k["check"]
            out += (
                f"| {k['version']} | {k['db']} | {k['kills']}{' (aborted)' * bool(k.get('aborted'))} | "
                f"{c['acknowledged']:,} | "
                f"{c['lost']} | {c['doubled']} | {c['out_of_order']} | {k['restart_ms_median']} |\n"
            )
    return out
