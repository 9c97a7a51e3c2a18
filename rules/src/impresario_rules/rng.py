"""A small seeded generator whose whole state is one 64-bit integer (SplitMix64).

Games keep that integer inside their state, so a game is reproducible from its seed and its moves,
and the generator state round-trips through JSON. Python's ``random.Random`` is not used for game
chance because its state is 625 words: too big to store with every game.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The generator state for a seed (any int; negative and huge seeds are folded to 64 bits)."""
    return seed & MASK64


def next_u64(state: int) -> tuple[int, int]:
    """One 64-bit output and the next state."""
    state = (state + _GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31), state


def below(state: int, n: int) -> tuple[int, int]:
    """An integer uniform in ``0..n-1`` (rejection sampling, no modulo bias) and the next state."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = MASK64 - (MASK64 + 1) % n
    while True:
        value, state = next_u64(state)
        if value <= limit:
            return value % n, state


def shuffled(state: int, items: list) -> tuple[list, int]:
    """A shuffled copy of ``items`` (Fisher–Yates) and the next state."""
    out = list(items)
    # below(state, i + 1) and next_u64 written out (the same draws, rejection included): every
    # new game shuffles a whole deck, and two calls and two tuples per card were a fifth of it;
    # each step's bound and rejection limit come from a table made once per length
    mask, golden = MASK64, _GOLDEN
    for i, n, limit in _steps(len(out)):
        while True:
            state = (state + golden) & mask
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
            z ^= z >> 31
            if z <= limit:
                break
        j = z % n
        out[i], out[j] = out[j], out[i]
    return out, state


_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _steps(length: int) -> tuple[tuple[int, int, int], ...]:
    """The steps of a Fisher–Yates shuffle of ``length`` items, last place first: ``(i, n,
    limit)``, place ``i`` swapped with one drawn below ``n = i + 1`` (``below``'s rejection
    limit for ``n``)."""
    steps = _STEPS.get(length)
    if steps is None:
        steps = tuple((i, i + 1, MASK64 - (MASK64 + 1) % (i + 1))
                      for i in range(length - 1, 0, -1))
        if len(_STEPS) < 64:
            _STEPS[length] = steps
    return steps
