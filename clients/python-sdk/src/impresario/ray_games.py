"""A tournament's games as Ray tasks (``impresario tournament --ray``, ``run_tournament(...,
ray=...)``): on this machine or on an existing Ray cluster, each game one task, the results
given back as the games end. The games are the ones :func:`impresario.run_tournament` plays
with ``jobs``: the same seeds give the same games, whoever plays them.

Ray is an optional extra (``pip install 'impresario[ray]'``), imported only here."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

Result = TypeVar("Result")


def play_on_ray(play_one: Callable[[int, Any], Result], plan: Any, games: int, address: str,
                jobs: int = 1) -> Iterator[Result]:
    """``play_one(g, plan)`` for every game ``g`` as a Ray task, each result as its game ends.
    ``address``: ``"local"`` starts Ray here, with ``jobs`` CPUs when above 1 (else every
    core), and stops it at the end; any other value is the address of a running cluster
    (``"auto"``, ``"ray://head:10001"``). When Ray is already started in this process, its
    session is used as it is."""
    try:
        import ray
    except ImportError:
        raise ImportError("playing on Ray needs Ray: pip install 'impresario[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        if address == "local":
            ray.init(num_cpus=jobs if jobs > 1 else None, include_dashboard=False,
                     log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    task = ray.remote(num_cpus=1)(play_one)
    pending = [task.remote(g, plan) for g in range(games)]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    except BaseException:  # stopped (Ctrl-C, an error): the games left are not played
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started_here:
            ray.shutdown()
