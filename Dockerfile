# fcpd as a network service: MCP over TCP (7300) and Streamable HTTP (7301, path /mcp) with a
# documents volume as the only allowed root. Built with the same scripts CI runs.
#   docker build -t fcpd .
#   docker run -e FCPD_TOKEN="$(openssl rand -hex 32)" -p 127.0.0.1:7300:7300 \
#     -p 127.0.0.1:7301:7301 -v "$PWD/docs:/documents" fcpd
# The entrypoint needs FCPD_TOKEN or FCPD_TOKEN_FILE (PRINCIPAL:TOKEN lines), or FCP_INSECURE=1
# when something in front of the container authenticates; see scripts/docker-entrypoint.sh.

FROM debian:12 AS build
WORKDIR /src
COPY scripts/install-deps.sh scripts/install-deps.sh
RUN scripts/install-deps.sh && rm -rf /var/lib/apt/lists/*
COPY . .
RUN FCP_BUILD_TESTS=OFF scripts/build.sh release

FROM debian:12-slim AS runtime
COPY scripts/install-runtime-deps.sh /usr/local/lib/fcp/install-runtime-deps.sh
RUN /usr/local/lib/fcp/install-runtime-deps.sh && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /documents --shell /usr/sbin/nologin fcp \
    && mkdir -p /documents /state && chown fcp:fcp /documents /state
COPY --from=build /src/build/release/src/fcpd /src/build/release/src/fcp /usr/local/bin/
COPY config/fcpd.json /etc/fcpd/fcpd.json
COPY scripts/docker-entrypoint.sh /usr/local/bin/fcpd-entrypoint
ENV FCPD_CONFIG=/etc/fcpd/fcpd.json FCP_DOCUMENTS=/documents FCP_STATE_DIR=/state
# /state: the document journals (crash recovery); keep it on a volume so they survive the container.
VOLUME /documents /state
WORKDIR /documents
USER fcp
EXPOSE 7300 7301
ENTRYPOINT ["/usr/local/bin/fcpd-entrypoint"]
