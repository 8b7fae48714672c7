# One container: the compiled server (web app and migrations inside), ffmpeg; data in the /data volume; non-root.
# Build stage on Debian 13: its Node 20 and npm 10 install Tailwind's native package (Debian 12's Node 18 does not).
FROM debian:trixie-slim AS build
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends nodejs npm ca-certificates >/dev/null \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-fund --no-audit
COPY . .
RUN npx bun run build && npx bun run scripts/compile.ts

FROM debian:bookworm-slim
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="Classroom" \
      org.opencontainers.image.description="Self-hosted online classroom with video lectures" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="AGPL-3.0-or-later"
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends ffmpeg ca-certificates >/dev/null \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --system --uid 10001 --home /data classroom \
  && mkdir -p /data && chown classroom /data
COPY --from=build /app/dist/classroom /usr/local/bin/classroom
USER classroom
ENV DATA_DIR=/data PORT=3000
VOLUME /data
EXPOSE 3000
# Readiness (database, disk, ffmpeg, worker) on $PORT, asked by the binary itself. The server drains requests for
# 8 s on SIGTERM: give `docker stop` / `podman stop` at least 10 s (`--stop-timeout 15` or `-t 15`).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s CMD ["classroom", "healthcheck"]
STOPSIGNAL SIGTERM
CMD ["classroom"]
