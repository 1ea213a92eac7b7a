# DokoBot: docker build -t dokobot . && docker run -e DISCORD_TOKEN=… -v dokobot-data:/data dokobot
FROM python:3.11-slim

# DejaVu Sans ships with the package; fonts-dejavu-core is the system copy for anything else.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md ./
COPY dokobot ./dokobot
COPY cogs ./cogs
COPY card_images ./card_images
RUN pip install --no-cache-dir .

RUN useradd --create-home --uid 10001 doko && mkdir /data && chown doko /data
USER doko

ENV DOKOBOT_DB=/data/dokobot.sqlite3 \
    DOKOBOT_CARD_IMAGES=/app/card_images \
    PYTHONUNBUFFERED=1
VOLUME ["/data"]

# Healthy while the process runs and its database opens.
HEALTHCHECK --interval=60s --timeout=10s --start-period=30s \
    CMD python -c "import sqlite3, os; sqlite3.connect(os.environ['DOKOBOT_DB']).execute('PRAGMA quick_check')" || exit 1

CMD ["dokobot", "run"]
