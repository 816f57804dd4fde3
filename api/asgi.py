"""The ASGI entry point: `uvicorn api.asgi:app` serves the store named by `CHRONICLE_STORE`
(default: an SQLite file under `.chronicle/`). A setting the server cannot start with
(api/settings.py) stops it with one line naming the variable."""

from __future__ import annotations

import sys

from api.app import create_app
from api.settings import SettingsError

try:
    app = create_app()
except SettingsError as error:
    sys.exit(f"chronicle: {error}")
