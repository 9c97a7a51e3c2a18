"""Generate the Python client of openapi.yaml with openapi-python-client (pinned in
requirements/dev.txt) into a folder, as any Python team would:

    python tests/foreign/generate_python_client.py OUT_DIR

writes OUT_DIR/impresario_client (nothing of it is committed; tests/foreign generates it each
run, so it cannot drift from the spec). The generator's own settings are in
tests/foreign/openapi-python-client.yaml.

One fix is applied to what it writes, for a bug of the generator and not of the spec: a model
property named ``cast`` (Turandot's ``players[].cast``, the singers a player cast) becomes a
local variable of the generated ``from_dict``/``to_dict`` and shadows the ``typing.cast`` those
functions call (NameError at run time; the same bug as openapi-python-client issue #781 for a
property named ``field``). The import is renamed ``_typing_cast`` and its calls with it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIG = Path(__file__).resolve().with_name("openapi-python-client.yaml")
PACKAGE = "impresario_client"
CAST_CALL = re.compile(r"(?<![\w.])cast\(")


def generate(out_dir: Path) -> Path:
    target = out_dir / PACKAGE
    shutil.rmtree(target, ignore_errors=True)
    out_dir.mkdir(parents=True, exist_ok=True)
    generator = Path(sys.executable).with_name("openapi-python-client")
    run = subprocess.run(
        [str(generator), "generate", "--path", str(ROOT / "openapi.yaml"), "--meta", "none",
         "--output-path", str(target), "--config", str(CONFIG)],
        capture_output=True, text=True, check=False)
    if run.returncode != 0 or not (target / "client.py").exists():
        raise SystemExit(f"openapi-python-client failed:\n{run.stdout}\n{run.stderr}")
    if "Warning" in run.stdout or "Error" in run.stdout:
        raise SystemExit(f"openapi-python-client warned about the spec:\n{run.stdout}")
    for module in target.rglob("*.py"):
        text = module.read_text()
        if "from typing import cast" not in text:
            continue
        text = text.replace("from typing import cast\n", "from typing import cast as _typing_cast\n")
        module.write_text(CAST_CALL.sub("_typing_cast(", text))
    return target


if __name__ == "__main__":
    print(generate(Path(sys.argv[1])))
