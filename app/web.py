"""The browser client's hook: serve web/ at "/" once it has an index.html.

Mounted last, so /api, /ws, /healthz and /docs always win over a file of the same name.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles


def mount_web(app: FastAPI, directory: Path) -> bool:
    if not (directory / "index.html").is_file():
        return False
    # Slim images lack /etc/mime.types: Python's own table has no .woff2 and may call .js application/javascript.
    mimetypes.add_type("font/woff2", ".woff2")
    mimetypes.add_type("text/javascript", ".js")
    app.mount("/", StaticFiles(directory=directory, html=True), name="web")
    return True
