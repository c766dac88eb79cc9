# syntax=docker/dockerfile:1
# The mahjong server.  Build: docker build -t mahjong .   Run: see docker-compose.yml and docs/server.md.

# --- build: the dependencies, in a venv that the runtime stage copies --------------------------------
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /src
# Only pyproject.toml, so this layer is rebuilt when dependencies change, not on every code change.
# The project itself is uninstalled again: the runtime runs it from /app (alembic.ini and migrations/
# are found relative to the source tree).
COPY pyproject.toml ./
RUN pip install '.[compile]' && pip uninstall -y mahjong-server
# The engine's hot modules compiled with mypyc (tools/compile_engine.py): a C compiler here only, never at runtime.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/*
COPY engine ./engine
COPY tools ./tools
RUN python tools/compile_engine.py && rm -rf build

# --- runtime -------------------------------------------------------------------------------------------
FROM python:3.11-slim AS runtime
RUN groupadd --system mahjong \
 && useradd --system --gid mahjong --home-dir /app --no-create-home --shell /usr/sbin/nologin mahjong
COPY --from=build /opt/venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    ENVIRONMENT=production \
    HOST=0.0.0.0 \
    PORT=8000
WORKDIR /app
COPY alembic.ini ./
COPY migrations ./migrations
COPY --from=build /src/engine ./engine
COPY app ./app
COPY web ./web
RUN mkdir -p /app/var && chown mahjong:mahjong /app/var
USER mahjong
EXPOSE 8000
# Readiness (GET /readyz: the database and Redis answer): "healthy" means send it traffic.  Liveness is GET
# /healthz (the process runs), for a restart policy; a dependency's outage never fails it.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["python", "-c", "import os, sys, urllib.request; url = f\"http://127.0.0.1:{os.environ.get('PORT', '8000')}/readyz\"; sys.exit(0 if urllib.request.urlopen(url, timeout=4).status == 200 else 1)"]
# Migrates the database at startup, then serves.  ENVIRONMENT=production: SECRET_KEY must be set.
CMD ["python", "-m", "app"]
