"""Turning game points into money: cents that sum to zero, and the fewest transfers."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Mapping


def round_half_away(value: Fraction) -> int:
    """Round to the nearest whole number, halves away from zero."""
    whole = int(abs(value) + Fraction(1, 2))
    return whole if value >= 0 else -whole


def money_cents(points: Mapping[str, Fraction], stake: Decimal) -> dict[str, int]:
    """Each side's points × stake in cents, rounded half away from zero; where rounding
    leaves the sides not summing to zero, single cents are moved back from the sides
    whose rounding gained the most (largest remainders first) until they do.

    >>> money_cents({"A": Fraction(1, 3), "B": Fraction(1, 3), "C": Fraction(-2, 3)}, Decimal("0.10"))
    {'A': 4, 'B': 3, 'C': -7}
    """
    exact = {side: Fraction(p) * Fraction(stake) * 100 for side, p in points.items()}
    cents = {side: round_half_away(value) for side, value in exact.items()}
    order = list(exact)  # seat order breaks ties, so the result is the same every time
    excess = sum(cents.values())
    while excess:
        step = 1 if excess > 0 else -1
        # the side whose rounded amount lies furthest beyond its exact amount in the
        # direction of the excess gives back one cent
        side = max(order, key=lambda s: ((cents[s] - exact[s]) * step, -order.index(s)))
        cents[side] -= step
        excess -= step
    return cents


def cents_text(cents: int) -> str:
    """'-1.50' for -150."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def text_cents(amount: str) -> int:
    """The other way round: a result's money text to cents.

    >>> text_cents("-1.25"), text_cents("3.5"), text_cents("0.00")
    (-125, 350, 0)
    """
    sign = -1 if amount.startswith("-") else 1
    whole, _, part = amount.lstrip("-").partition(".")
    return sign * (int(whole) * 100 + int((part + "00")[:2]))


def fewest_transfers(balances: Mapping[str, int]) -> list[tuple[str, str, int]]:
    """(from, to, cents) payments that settle balances summing to zero, as few as possible.

    The fewest payments for n non-zero balances is n minus the largest number of groups
    that each sum to zero; groups are found exactly for up to 14 sides (more is never a
    pub table) and greedily beyond that.  Within a group, the largest debtor pays the
    largest creditor until one of them is square, which needs one payment fewer than
    the group has members.

    >>> fewest_transfers({"A": 500, "B": -300, "C": -200})
    [('B', 'A', 300), ('C', 'A', 200)]
    """
    if sum(balances.values()) != 0:
        raise ValueError("balances must sum to zero")
    open_ = [(side, amount) for side, amount in balances.items() if amount]
    payments: list[tuple[str, str, int]] = []
    for group in _zero_sum_groups(open_):
        payments.extend(_settle_group(dict(group)))
    return payments


def _zero_sum_groups(items: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """Split items into as many zero-sum groups as possible (exact dynamic programme over
    subsets: best[mask] = most zero-sum groups the items in mask can be cut into)."""
    n = len(items)
    if n > 14:
        return [items] if items else []
    full = (1 << n) - 1
    total = [0] * (1 << n)
    best = [0] * (1 << n)
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + items[low.bit_length() - 1][1]
        best[mask] = max(best[mask ^ (1 << i)] for i in range(n) if mask >> i & 1) + (total[mask] == 0)
    # walk back from the full set, removing one item at a time along a best path; every
    # zero-sum mask on the way closes a group
    groups, current, mask = [], [], full
    while mask:
        i = max((i for i in range(n) if mask >> i & 1), key=lambda i: best[mask ^ (1 << i)])
        current.append(items[i])
        mask ^= 1 << i
        if total[mask] == 0:
            groups.append(current)
            current = []
    return groups


def _settle_group(balances: dict[str, int]) -> list[tuple[str, str, int]]:
    payments = []
    order = list(balances)
    while any(balances.values()):
        debtor = min(order, key=lambda s: (balances[s], order.index(s)))
        creditor = max(order, key=lambda s: (balances[s], -order.index(s)))
        amount = min(-balances[debtor], balances[creditor])
        payments.append((debtor, creditor, amount))
        balances[debtor] += amount
        balances[creditor] -= amount
    return payments
