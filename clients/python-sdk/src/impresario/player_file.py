"""Where the ``impresario`` command keeps its player: one JSON file, readable and writable by its
owner only (mode 0600, in a folder of mode 0700 when the command makes it), holding a player
credential per engine, since a credential is good on the engine that made it only:

    {"engines": {"http://127.0.0.1:8000": {"token": "p_…", "player": {"id": …, "name": …}}}}

The file is ``--player-file PATH`` if given, else ``$IMPRESARIO_PLAYER_FILE``, else
``impresario/player.json`` under ``$XDG_CONFIG_HOME`` (``~/.config`` when it is unset or not an
absolute path, as the XDG Base Directory specification says). It is written whole to a new file
beside it, then renamed over it, so a crash never leaves half a credential. The credential is
a password: it never goes into a URL, a log line or the command's output.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple, cast

from ._generated import models
from .errors import ImpresarioError
from .i18n import _

#: the environment variable naming the file (``--player-file`` wins over it)
ENV = "IMPRESARIO_PLAYER_FILE"


def default_path(environ: Mapping[str, str] | None = None) -> Path:
    """``$IMPRESARIO_PLAYER_FILE``, else ``$XDG_CONFIG_HOME/impresario/player.json`` (XDG's
    default, ``~/.config``, when the variable is unset or relative)."""
    env = os.environ if environ is None else environ
    if env.get(ENV):
        return Path(env[ENV]).expanduser()
    base = env.get("XDG_CONFIG_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".config"
    return root / "impresario" / "player.json"


class PlayerFileError(ImpresarioError):
    """The player file cannot be read or written (its ``path`` says which)."""

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.path = path


class Saved(NamedTuple):
    """A player kept for an engine: its credential, and the player as last read."""

    token: str
    player: models.Player | None


def engine_key(url: str) -> str:
    """The engine's address as the file keys it (without a trailing slash)."""
    return url.rstrip("/")


class PlayerFile:
    """The file at ``path`` (:func:`default_path` when None)."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path).expanduser() if path is not None else default_path()

    def exists(self) -> bool:
        return self.path.exists()

    def loose(self) -> bool:
        """Whether others than its owner may read or write the file (POSIX modes)."""
        try:
            return os.name == "posix" and bool(self.path.stat().st_mode & 0o077)
        except FileNotFoundError:
            return False

    def tighten(self) -> None:
        """Make the file its owner's only (mode 0600)."""
        os.chmod(self.path, stat.S_IRUSR | stat.S_IWUSR)

    def _read(self) -> dict[str, Any]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {"engines": {}}
        except OSError as err:
            raise PlayerFileError(_("cannot read {path}: {why}").format(
                path=self.path, why=err.strerror), self.path) from err
        try:
            data = json.loads(text)
        except ValueError as err:
            raise PlayerFileError(_("{path} is not a player file (not JSON: {why})").format(
                path=self.path, why=err), self.path) from err
        if not isinstance(data, dict) or not isinstance(data.get("engines", {}), dict):
            raise PlayerFileError(_("{path} is not a player file (no \"engines\" object)")
                                  .format(path=self.path), self.path)
        data.setdefault("engines", {})
        return data

    def get(self, url: str) -> Saved | None:
        """The player kept for the engine at ``url``, if any."""
        entry = self._read()["engines"].get(engine_key(url))
        if not isinstance(entry, dict) or not isinstance(entry.get("token"), str):
            return None
        info = entry.get("player")
        known = isinstance(info, dict) and all(isinstance(info.get(k), str) for k in ("id", "name"))
        return Saved(entry["token"], cast(models.Player, info) if known else None)

    def put(self, url: str, token: str, player: models.Player | None) -> None:
        """Keep ``token`` (and the player as read) for the engine at ``url``."""
        data = self._read()
        data["engines"][engine_key(url)] = {"token": token, "player": player}
        self._write(data)

    def forget(self, url: str) -> None:
        """Drop the engine's player from the file."""
        data = self._read()
        if data["engines"].pop(engine_key(url), None) is not None:
            self._write(data)

    def _write(self, data: dict[str, Any]) -> None:
        folder = self.path.parent
        temporary = folder / f".{self.path.name}.{os.getpid()}.tmp"
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            # created with 0600 (the umask can only take rights away), never wider for a moment
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                if hasattr(os, "fchmod"):
                    os.fchmod(out.fileno(), 0o600)  # a leftover temporary file kept its mode
                out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, self.path)
        except OSError as err:
            try:
                temporary.unlink()
            except OSError:
                pass
            raise PlayerFileError(_("cannot write {path}: {why}").format(
                path=self.path, why=err.strerror), self.path) from err
