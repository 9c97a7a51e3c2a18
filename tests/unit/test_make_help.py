"""make help lists every target of the Makefile, from the comments on the targets themselves."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_make_help_lists_every_phony_target():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    phony = {t for line in re.findall(r"^\.PHONY:(.*)$", makefile, re.M) for t in line.split()}
    assert {"help", "run", "test", "test-fast", "bench", "fuzz", "sim", "openapi", "sdk",
            "k8s-validate"} <= phony
    listed = subprocess.run(["make", "--no-print-directory", "help"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    shown = {m.group(1): m.group(2) for m in re.finditer(r"^make (\S+)\s+(.+)$", listed, re.M)}
    assert phony <= set(shown), f"not in make help: {sorted(phony - set(shown))}"
    assert all(text.strip() for text in shown.values())
