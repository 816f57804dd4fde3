"""The ASGI entry point: `uvicorn api.asgi:app` serves the store named by `CHRONICLE_STORE`
(default: an SQLite file under `.chronicle/`)."""

from __future__ import annotations

from api.app import create_app

app = create_app()
