# One container: Bun, the built web app, ffmpeg; data in the /data volume; runs as a non-root user.
FROM debian:bookworm-slim AS build
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends nodejs npm ca-certificates >/dev/null \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-fund --no-audit
COPY . .
RUN npx bun run build && npx bun run scripts/compile.ts

FROM debian:bookworm-slim
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends ffmpeg ca-certificates >/dev/null \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --system --uid 10001 --home /data classroom \
  && mkdir -p /data && chown classroom /data
COPY --from=build /app/dist/classroom /usr/local/bin/classroom
USER classroom
ENV DATA_DIR=/data PORT=3000
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/3000"]
CMD ["classroom"]
