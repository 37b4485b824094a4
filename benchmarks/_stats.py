"""Medians, ranges, markdown tables and a description of the machine."""
from __future__ import annotations

import datetime
import os
import platform
import statistics
import sys
from importlib import metadata
from typing import Iterable, List, Sequence


def spread(values: Sequence[float], digits: int = 2, unit: str = "") -> str:
    """'median (min–max)' of `values`, e.g. '11.70 (11.52–12.03)' (`unit` after the median)."""
    if not values:
        return "n/a"
    median = statistics.median(values)
    if len(values) == 1:
        return f"{median:.{digits}f}{unit} (1 run)"
    return f"{median:.{digits}f}{unit} ({min(values):.{digits}f}–{max(values):.{digits}f})"


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def ratio(numerator: float, denominator: float) -> str:
    if not denominator or denominator != denominator:
        return "n/a"
    return f"{numerator / denominator:.2f}×"


def paired_ratio(numerators: Sequence[float], denominators: Sequence[float]) -> str:
    """The ratios of paired runs (the first numerator to the first denominator, ...):
    'median× (min–max)'. Each pair ran in the same round, so a change of machine speed
    between rounds moves both sides of a ratio, not the ratio (a ratio of the medians
    mixes the rounds).
    """
    return spread([numerator / denominator
                   for numerator, denominator in zip(numerators, denominators) if denominator],
                  unit="×")


def table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A markdown table."""
    lines = ["| " + " | ".join(headers) + " |",
             "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "not installed"


def machine() -> List[str]:
    """Lines describing where and when the figures were taken."""
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    versions = ", ".join(f"{name} {_version(name)}" for name in
                         ("tensorflow", "tf-keras", "tf-slim", "libcst", "slimport"))
    return [
        f"date: {datetime.datetime.now().astimezone().isoformat(timespec='seconds')}",
        f"machine: {_cpu_model()}, {os.cpu_count()} logical CPUs, "
        f"{platform.system()} {platform.release()}",
        f"python {sys.version.split()[0]}; {versions}",
        f"load average at start (1/5/15 min): {load}",
    ]
