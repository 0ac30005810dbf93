# The judge in a container: `judge serve` as an unprivileged user, SQLite on a volume.
# Settings come from JUDGE_* environment variables (see config/judge.example.toml);
# `judge serve` runs `alembic upgrade head` itself before it opens any port.

# Stage 1: the wheel, built from the package's own files only (templates/ and migrations/ are
# mapped into the package by setup.py: package data inside it)
FROM python:3.11-slim-bookworm AS wheel
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY judge ./judge
COPY templates ./templates
COPY migrations ./migrations
RUN pip wheel --no-deps -w /dist .

# Stage 2: the wheel installed with the PostgreSQL extra, no source tree
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# cairosvg needs the Cairo library to draw the PNG maps attached to bulletins; versions are
# left to the Debian release so that a rebuild picks up its security fixes
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libcairo2 fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

RUN groupadd --system --gid 10001 judge \
    && useradd --system --uid 10001 --gid judge --home-dir /var/lib/judge judge

COPY --from=wheel /dist /tmp/dist
COPY config/judge.example.toml /etc/judge/judge.example.toml
RUN wheel="$(ls /tmp/dist/judge-*.whl)" \
    && pip install "${wheel}[postgres]" \
    && rm -rf /tmp/dist \
    && mkdir -p /var/lib/judge \
    && chown judge:judge /var/lib/judge

ENV JUDGE_DATABASE_URL=sqlite:////var/lib/judge/judge.db \
    JUDGE_LMTP_HOST=0.0.0.0 \
    JUDGE_LMTP_PORT=8024 \
    JUDGE_SMTP_LISTEN_PORT=8025 \
    JUDGE_WEB_HOST=0.0.0.0 \
    JUDGE_WEB_PORT=8080

VOLUME ["/var/lib/judge"]
EXPOSE 8024 8025 8080
# numeric, so that the volume's owner is unambiguous on the host
USER 10001:10001
WORKDIR /var/lib/judge

HEALTHCHECK --interval=60s --timeout=10s \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/index.json' % os.environ['JUDGE_WEB_PORT'], timeout=5)"]

ENTRYPOINT ["judge"]
CMD ["serve"]
