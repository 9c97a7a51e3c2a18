"""Live tables: deadlines, bot seats, event streams, private games, replays (a package, so that
its conftest does not shadow the root conftest module that other tests import)."""
