# harena in a container: `docker build -t harena .`, then
#   docker run -d --name harena -p 2222:2222 \
#     -v harena-data:/var/lib/harena -v harena-keys:/etc/harena/keys harena
# and players connect with `ssh -p 2222 HOST`. More in docs/server.md ("In a container").

# Build the wheels (harena's and its dependencies') in a throw-away stage.
FROM python:3.12-slim AS build
# EXTRAS="[cluster]" adds what `--cluster` needs (docs/deploy/compose.yaml builds it so).
ARG EXTRAS=""
WORKDIR /src
COPY pyproject.toml README.md ./
COPY core ./core
COPY server ./server
COPY tui ./tui
RUN pip wheel --no-cache-dir --wheel-dir /wheels ".${EXTRAS}"

FROM python:3.12-slim
ARG EXTRAS=""
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    # The default data folder (platformdirs: $XDG_DATA_HOME/harena) is the data volume, so
    # `docker exec harena harena admin tables` needs no --data.
    XDG_DATA_HOME=/var/lib
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-index --find-links /wheels "harena${EXTRAS}" \
    && rm -rf /wheels \
    && useradd --system --uid 10001 --user-group --home-dir /var/lib/harena --shell /usr/sbin/nologin harena \
    && mkdir -p /var/lib/harena /etc/harena/keys \
    && chown harena:harena /var/lib/harena /etc/harena/keys \
    && chmod 0700 /var/lib/harena /etc/harena/keys

USER harena
# Tables, bans and the admin socket; the host key (keep it: players' clients remember it).
VOLUME ["/var/lib/harena", "/etc/harena/keys"]
EXPOSE 2222
HEALTHCHECK --interval=30s --timeout=10s --start-period=15s --retries=3 \
    CMD ["harena", "health", "--port", "2222", "--timeout", "5"]
# The container's layout is fixed here; add any other option (or --config FILE, mounted) after
# the image name: `docker run ... harena --config /etc/harena/harena.toml --max-per-ip 4`.
ENTRYPOINT ["harena", "serve", "--host", "0.0.0.0", "--port", "2222", "--keys", "/etc/harena/keys", "--data", "/var/lib/harena"]
CMD []
