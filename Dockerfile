# DokoBot. Build: docker build -t dokobot .
# Run:   docker run -d --name dokobot -e DISCORD_TOKEN=… -v dokobot-data:/data dokobot
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# The dependencies get their own layer, read from pyproject.toml: a code change
# does not reinstall them.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# The source (DejaVu Sans ships inside dokobot/render/fonts: no system fonts needed).
COPY README.md ./
COPY dokobot ./dokobot
COPY cogs ./cogs
COPY card_images ./card_images
RUN pip install --no-deps . \
    && useradd --create-home --uid 10001 doko \
    && mkdir /data \
    && chown 10001 /data
USER 10001

# DOKOBOT_DB may name a PostgreSQL server instead (compose.yaml does).
ENV DOKOBOT_DB=/data/dokobot.sqlite3 \
    DOKOBOT_CARD_IMAGES=/app/card_images \
    DOKOBOT_HEARTBEAT=/tmp/dokobot-heartbeat.json \
    DOKOBOT_HEALTH_PORT=8080 \
    DOKOBOT_HEALTH_HOST=0.0.0.0
VOLUME ["/data"]
# /health (for orchestrators) and /metrics (Prometheus).
EXPOSE 8080

# Healthy only while the bot is connected to Discord with every shard ready, its
# database answers and its event loop is not stalled: `dokobot health` asks the
# bot's /health endpoint and fails on anything but 200.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=2 \
    CMD ["dokobot", "health"]

CMD ["dokobot", "run"]
