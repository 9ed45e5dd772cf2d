"""Percentiles by partial sort, exactly as ``np.percentile`` (linear) gives them.

numpy's own ``percentile`` (and a plain ``np.unique``) imports ``numpy.ma`` on its first
call: 1.2 MB of the server worker's memory held all evening for masked arrays the camera
never uses (issue 71), and a general path that costs several times more on the few
thousand pixels the camera ranks (a sticker's contrast, a card's paper).
"""
from __future__ import annotations

import numpy as np


def percentiles(values: np.ndarray, qs) -> list[float]:
    """``np.percentile(values, qs)`` over all of ``values`` (qs in 0..100), as floats."""
    flat = np.asarray(values).ravel()
    last = flat.size - 1
    if last < 0:
        raise ValueError("percentiles of no values")
    places = [q / 100.0 * last for q in qs]
    lows = [int(p) for p in places]
    ranked = np.partition(flat, sorted({k for low in lows for k in (low, min(low + 1, last))}))
    out = []
    for place, low in zip(places, lows, strict=True):
        below, above = float(ranked[low]), float(ranked[min(low + 1, last)])
        out.append(below + (above - below) * (place - low))
    return out


def percentile(values: np.ndarray, q: float) -> float:
    """``np.percentile(values, q)`` over all of ``values``, as a float."""
    return percentiles(values, (q,))[0]


def median(values: np.ndarray):
    """``np.median`` of all of ``values``, the same figure and type (the two middle values'
    mean in their own type): numpy's own costs several times more on the few hundred
    samples an outline's sides give."""
    flat = np.asarray(values).ravel()
    half = flat.size // 2
    if flat.size % 2:
        return np.partition(flat, half)[half]
    return np.partition(flat, (half - 1, half))[half - 1:half + 1].mean()


def labels_in(values: np.ndarray) -> list[int]:
    """The distinct non-negative integers in ``values`` (connected-component labels), in
    order: ``np.unique`` without its import of ``numpy.ma``."""
    flat = np.asarray(values).ravel()
    return np.flatnonzero(np.bincount(flat)).tolist() if flat.size else []
