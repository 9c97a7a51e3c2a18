"""The spec's descriptions are Markdown (Swagger UI renders them: `code` in single backticks)
and the command's --help is plain text: reStructuredText's double backticks show literally in
both, so neither may contain one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"


def test_the_spec_has_no_double_backticks():
    lines = [f"openapi.yaml:{n}: {line.strip()}"
             for n, line in enumerate(SPEC.read_text(encoding="utf-8").splitlines(), 1)
             if "``" in line]
    assert not lines, "\n".join(lines)


def test_help_texts_have_no_double_backticks():
    from impresario import cli

    parser = cli.build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    for argv in ([], *([name] for name in commands)):
        shown = subprocess.run([sys.executable, "-m", "impresario.cli", *argv, "--help"],
                               capture_output=True, text=True, check=True).stdout
        assert "usage: impresario" in shown
        assert "``" not in shown, f"impresario {' '.join(argv)} --help:\n{shown}"
        assert "%%" not in shown  # argparse formats help strings, not descriptions
