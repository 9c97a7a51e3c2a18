"""WSGI entry point for gunicorn: ``impresario_engine.wsgi:app`` (settings from the environment)."""

from .app import create_app

app = create_app()
