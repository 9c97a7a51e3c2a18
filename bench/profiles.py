"""Profiles for ``make bench``: py-spy's raw (collapsed) stacks turned into shares per function.

A raw line is ``frame;frame;...;frame COUNT`` (outermost first), each frame ``name (file:line)``.
The *self* share of a function is the fraction of samples in which it is the innermost frame; its
*inclusive* share the fraction in which it is anywhere on the stack (counted once per sample).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

FRAME = re.compile(r"^(?P<name>.*?) \((?P<file>.*?)(?::(?P<line>\d+))?\)$")


def pyspy() -> str | None:
    here = Path(sys.executable).parent / "py-spy"
    return str(here) if here.exists() else shutil.which("py-spy")


def short(path: str) -> str:
    """A readable module path: ``flask_smorest/response.py``, ``impresario_engine/service.py``."""
    for marker in ("/site-packages/", "/src/", "/bench/"):
        if marker in path:
            return path.split(marker, 1)[1]
    if "/lib/python3" in path:
        return path.split("/lib/python3", 1)[1].split("/", 1)[-1]
    return path if not os.path.isabs(path) else os.path.basename(path)


def _func(frame: str) -> str:
    m = FRAME.match(frame.strip())
    if not m:
        return frame.strip()
    return f"{short(m.group('file'))}:{m.group('name')}"


def load(path: str | Path) -> list[tuple[list[str], int]]:
    stacks = []
    for line in Path(path).read_text(errors="replace").splitlines():
        head, _, count = line.rpartition(" ")
        if not head or not count.isdigit():
            continue
        frames = [f for f in head.split(";") if f]
        # py-spy --subprocesses prefixes "process 123:..." and "thread (0x..)" pseudo-frames
        frames = [f for f in frames if not f.startswith(("process ", "thread "))]
        stacks.append(([_func(f) for f in frames], int(count)))
    return stacks


def summarise(path: str | Path, top: int = 25, groups: dict[str, list[str]] | None = None,
              within: str | None = None) -> dict:
    """Shares per function; ``within``: keep only the samples with a frame containing it."""
    stacks = load(path)
    if within:
        stacks = [(f, c) for f, c in stacks if any(within in x for x in f)]
    total = sum(c for _, c in stacks)
    if total == 0:
        return {"samples": 0, "self": [], "inclusive": [], "groups": {}}
    selfc: Counter[str] = Counter()
    incl: Counter[str] = Counter()
    for frames, c in stacks:
        if not frames:
            continue
        selfc[frames[-1]] += c
        for f in set(frames):
            incl[f] += c
    out = {
        "samples": total,
        "self": [{"function": f, "share": c / total} for f, c in selfc.most_common(top)],
        "inclusive": [{"function": f, "share": c / total} for f, c in incl.most_common(top * 2)],
    }
    if groups:
        out["groups"] = {}
        for name, needles in groups.items():
            n = sum(c for frames, c in stacks
                    if any(any(nd in f for nd in needles) for f in frames))
            out["groups"][name] = n / total if total else 0.0
    return out


def record(out: Path, seconds: float, pid: int | None = None, cmd: list[str] | None = None,
           subprocesses: bool = False, rate: int = 100, gil: bool = False) -> tuple[bool, str]:
    """py-spy record to ``out`` (raw format). ``gil``: sample only the thread holding the GIL
    (where a gthread worker spends its CPU; waiting threads are left out). Returns (ok, msg)."""
    exe = pyspy()
    if exe is None:
        return False, "py-spy is not installed"
    args = [exe, "record", "-r", str(rate), "-f", "raw", "-o", str(out), "--nonblocking"]
    if subprocesses:
        args.append("--subprocesses")
    if gil:
        args.append("--gil")
    if pid is not None:
        args += ["-p", str(pid), "-d", str(int(seconds))]
    else:
        args += ["--", *(cmd or [])]
    try:
        proc = subprocess.run(args, capture_output=True, text=True, timeout=seconds + 120)
    except subprocess.TimeoutExpired:
        return False, "py-spy timed out"
    ok = proc.returncode == 0 and out.exists() and out.stat().st_size > 0
    return ok, (proc.stderr or proc.stdout)[-500:]
