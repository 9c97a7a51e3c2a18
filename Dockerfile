# syntax=docker/dockerfile:1
# The engine image: `docker build -t impresario-engine:0.1.0 .` from the repository root.
#
# Two stages. The builder turns rules/, services/engine and every dependency into wheels; the runtime
# stage installs those wheels into a clean python:3.11-slim, so no compiler, pip cache or source
# tree reaches the final image. It runs gunicorn with the package's own settings
# (impresario_engine.gunicorn_conf reads everything from the environment) as a numeric
# non-root user, and works with a read-only root filesystem as long as /tmp and the metrics
# folder are writable (Kubernetes mounts emptyDirs there; see k8s/base/deployment.yaml).

# One pinned base for both stages: the wheels are built for exactly the interpreter they run on.
# Pin by digest too (python:3.11.14-slim-bookworm@sha256:...) once your registry mirrors it.
ARG PYTHON_IMAGE=python:3.11.14-slim-bookworm

# ---------------------------------------------------------------------------------- builder
FROM ${PYTHON_IMAGE} AS builder

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1

WORKDIR /build
# only the rules' and the engine's sources: the SDK, tests and docs are no part of the image
COPY rules/ rules/
COPY services/engine/ services/engine/
# every dependency the engine declares ships manylinux wheels for CPython 3.11 (redis, hiredis,
# orjson, gunicorn, flask, ...), so the builder needs no compiler either; the rules package is
# this repository's own (rules/), built beside the engine
RUN python -m pip wheel --wheel-dir /wheels "./rules[wordjam]" ./services/engine

# ---------------------------------------------------------------------------------- runtime
FROM ${PYTHON_IMAGE} AS runtime

ARG APP_UID=10001
ARG APP_GID=10001

# A numeric user, so Kubernetes' runAsNonRoot can check it without reading /etc/passwd.
# HOME is /tmp: gunicorn (>= 25.1) puts its control socket under $HOME/.gunicorn, and /tmp is
# the one writable place in the container besides the metrics folder.
RUN groupadd --system --gid "${APP_GID}" impresario \
 && useradd --system --uid "${APP_UID}" --gid "${APP_GID}" --home-dir /tmp \
        --no-create-home --shell /usr/sbin/nologin impresario \
 && install -d -o "${APP_UID}" -g "${APP_GID}" -m 0700 /var/run/impresario/metrics

# the wheels are bind-mounted from the builder, so they never become a layer of this image;
# pip goes too, so nothing can be installed into a running container
RUN --mount=type=bind,from=builder,source=/wheels,target=/wheels \
    PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    python -m pip install --no-index --find-links=/wheels impresario-engine \
 && python -m pip uninstall --yes pip setuptools wheel

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOME=/tmp \
    PORT=8000 \
    BIND=0.0.0.0:8000 \
    PROMETHEUS_MULTIPROC_DIR=/var/run/impresario/metrics

WORKDIR /tmp
USER 10001:10001
EXPOSE 8000

# Docker only; Kubernetes ignores it and uses the Deployment's probes
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=2)"]

# gunicorn is PID 1: SIGTERM starts its graceful shutdown (GUNICORN_GRACEFUL_TIMEOUT)
ENTRYPOINT ["python", "-m", "gunicorn", "--config", "python:impresario_engine.gunicorn_conf", "impresario_engine.wsgi:app"]
