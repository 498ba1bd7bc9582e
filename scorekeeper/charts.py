"""Geometry for small server-rendered SVG charts: numbers in, coordinates out.

The templates draw the SVG (so every word on a chart stays in a template) and the
stylesheet colours it, following the theme; no script draws anything.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Sequence


@dataclass(frozen=True)
class Frame:
    """A chart's box and scales: `count` points across from `left` to `right` (one point sits
    in the middle), values from `low` (at `bottom`) to `high` (at `top`), outside ones held
    at the edge.

    >>> frame = Frame(340, 180, 40, 332, 8, 160, count=5, low=0, high=1000)
    >>> frame.x(0), frame.x(4), frame.y(250), frame.y(2000)
    (40.0, 332.0, 122.0, 8.0)
    """

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    count: int
    low: float
    high: float

    def x(self, i: int) -> float:
        if self.count <= 1:
            return round((self.left + self.right) / 2, 1)
        return round(self.left + (self.right - self.left) * i / (self.count - 1), 1)

    def y(self, value: float) -> float:
        value = min(max(value, self.low), self.high)
        return round(self.top + (self.bottom - self.top) * (self.high - value) / (self.high - self.low), 1)


@dataclass(frozen=True)
class Plot(Frame):
    """A line over game after game: its frame, the polyline, its dots, the axes' ticks."""

    points: str  # "x,y x,y …" for <polyline points>
    dots: tuple[tuple[float, float, float], ...]  # (x, y, value)
    yticks: tuple[tuple[float, float], ...]  # (y, value)
    xticks: tuple[tuple[float, int], ...]  # (x, game number)
    zero: float | None  # y of the zero line when the values cross it


def nice_step(span: float, ticks: int = 4) -> float:
    """A round step (1, 2 or 5 × a power of ten) that cuts `span` into about `ticks` parts.

    >>> nice_step(100), nice_step(7), nice_step(0.9)
    (25, 2, 0.25)
    """
    if span <= 0:
        return 1
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if factor * power >= raw:
            step = factor * power
            return int(step) if step == int(step) else step
    return 10 * power  # unreachable


def steps(points: Sequence[tuple[int, int]]) -> str:
    """An SVG path through `points` (whole numbers): the first one, then each step from the one
    before. A line over evenly spaced turns steps across by one width, which gzip finds again
    and again: a chart sent with every turn's answer costs a few bytes a point (the absolute
    points of a polyline, "186.0,114.4", were the largest part of a long race's answers).

    >>> steps([(40, 160), (89, 137), (138, 137)]), steps([(40, 160)])
    ('M40,160l49,-23 49,0', 'M40,160')
    """
    (x, y), *rest = points
    out = [f"M{x},{y}"]
    for nx, ny in rest:
        out.append(f"{nx - x},{ny - y}")
        x, y = nx, ny
    return out[0] + (f"l{' '.join(out[1:])}" if rest else "")


def line(values: Sequence[float], width: int = 340, height: int = 170, first: int = 1) -> Plot:
    """A line chart of `values` (one per game, oldest first), with zero on the scale; the
    games are numbered from `first` (0 when the line starts before the first game).

    >>> plot = line([0, 10, -5])
    >>> plot.points, plot.zero
    ('46,101.3 189,8.0 332,148.0', 101.3)
    >>> [value for _, value in plot.yticks]
    [-5, 0, 5, 10]

    Nothing won or lost, game after game: the line stands on zero in the middle of whole steps
    (it stood at the foot of a scale of quarters, "0.25" points or €0.25 that nobody had)

    >>> [value for _, value in line([0, 0, 0]).yticks]
    [-1, 0, 1]
    """
    left, right, top, bottom = 46, width - 8, 8, height - 22
    values = [float(v) for v in values] or [0.0]
    low, high = min(min(values), 0.0), max(max(values), 0.0)
    step = nice_step(high - low) if low != high else 1
    if low == high:  # (both zero)
        low, high = -1.0, 1.0
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    frame = Frame(width, height, left, right, top, bottom, len(values), low, high)
    y = frame.y
    xs = [frame.x(i) for i in range(len(values))]
    every = max(1, math.ceil(len(values) / 8))
    ticks = []
    tick = low
    while tick <= high + step / 1000:
        ticks.append((y(tick), round(tick, 2)))
        tick += step
    return Plot(**{f.name: getattr(frame, f.name) for f in fields(Frame)},
                points=" ".join(f"{px:g},{y(v)}" for px, v in zip(xs, values)),
                dots=tuple((px, y(v), v) for px, v in zip(xs, values)),
                yticks=tuple(ticks),
                xticks=tuple((xs[i], i + first) for i in range(0, len(values), every)),
                zero=y(0) if low < 0 < high else None)


@dataclass(frozen=True)
class Bar:
    label: str
    total: int
    part: int
    y: float
    total_width: float
    part_width: float


@dataclass(frozen=True)
class Bars:
    width: int
    height: int
    left: int  # where the bars start (labels sit left of it)
    bar_height: int
    bars: tuple[Bar, ...]


def bars(rows: Sequence[tuple[str, int, int]], width: int = 340, left: int = 120) -> Bars:
    """Horizontal bars, one per row of (label, total, part): the part drawn inside the total,
    like wins inside games. Scaled to the largest total.

    >>> [(b.label, b.total_width, b.part_width) for b in bars([("Dice", 4, 1), ("Cards", 2, 2)]).bars]
    [('Dice', 180.0, 45.0), ('Cards', 90.0, 90.0)]
    """
    bar_height, gap = 24, 10
    most = max((total for _, total, _ in rows), default=0) or 1
    room = width - left - 40  # space for the number after the bar
    out = []
    for index, (label, total, part) in enumerate(rows):
        out.append(Bar(label, total, part, index * (bar_height + gap) + 4,
                       round(room * total / most, 1), round(room * part / most, 1)))
    return Bars(width, len(rows) * (bar_height + gap) + 4, left, bar_height, tuple(out))
