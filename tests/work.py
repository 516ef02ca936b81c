"""How much work a call does, counted, not timed: the lines of Python it executes.

A test that a function is linear compares the count at two sizes (a timed assertion
fails on a loaded machine; a count does not)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any


def executed_lines(function: Callable[..., Any], *args: Any) -> int:
    """The Python lines executed while ``function(*args)`` runs."""
    count = 0

    def trace(frame: FrameType, event: str, arg: object) -> Callable[..., Any]:
        nonlocal count
        count += event == "line"
        return trace

    previous = sys.gettrace()
    sys.settrace(trace)
    try:
        function(*args)
    finally:
        sys.settrace(previous)
    return count


def growth(function: Callable[[int], Any], size: int) -> float:
    """How many times the work grows when ``size`` doubles: about 2 for linear work,
    about 4 for quadratic work."""
    return executed_lines(function, 2 * size) / executed_lines(function, size)
