# One container: the compiled server (web app and migrations inside) and ffmpeg; data in the /data volume; non-root.
# Measured sizes and timings: docs/deploy.md. Rebuild and check it all with `bun run check:container`.

# Build stage on Debian 13: its Node 20 installs Tailwind's native package (Debian 12's Node 18 does not). The
# lockfile pins every tool (Bun exactly); nothing of this stage but the compiled binary reaches the image.
FROM debian:trixie-slim AS build
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends nodejs npm ca-certificates >/dev/null \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-fund --no-audit
COPY . .
RUN npx bun run build && npx bun run scripts/compile.ts

# ffmpeg without the desktop stack: Debian's ffmpeg 5.1 pulls in 683 MB (Mesa and LLVM for GPU drivers it only
# ever dlopens, X11 and sound servers, fonts, docs). Only the two programs and the libraries they link against
# (ldd), minus those the base already has, are kept.
FROM debian:bookworm-slim AS ffmpeg
RUN find / -xdev -name 'lib*.so*' -printf '%f\n' 2>/dev/null | sort -u > /tmp/base-libs \
  && apt-get update -qq && apt-get install -y -qq --no-install-recommends ffmpeg >/dev/null \
  && mkdir -p /out/usr/bin /out/usr/lib/x86_64-linux-gnu \
  && cp /usr/bin/ffmpeg /usr/bin/ffprobe /out/usr/bin/ \
  && ldd /usr/bin/ffmpeg /usr/bin/ffprobe | awk '/=> \// { print $3 }' | sort -u | while read -r lib; do \
       grep -qx "$(basename "$lib")" /tmp/base-libs || cp -L "$lib" /out/usr/lib/x86_64-linux-gnu/; \
     done \
  && cp -r /usr/share/doc/ffmpeg /out/usr/share-doc-ffmpeg

FROM debian:bookworm-slim
ARG VERSION=0.1.0
ARG SOURCE=""
LABEL org.opencontainers.image.title="Classroom" \
      org.opencontainers.image.description="Self-hosted online classroom with video lectures" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="AGPL-3.0-or-later"
# Tesseract reads the words on slides for the slide index (docs/slides.md); more languages: tesseract-ocr-<lang>
# here and OCR_LANGUAGES (e.g. eng+deu).
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends tesseract-ocr tesseract-ocr-eng >/dev/null \
  && rm -rf /var/lib/apt/lists/* && tesseract --version | head -1
COPY --from=ffmpeg /out/usr/bin/ /usr/bin/
COPY --from=ffmpeg /out/usr/lib/x86_64-linux-gnu/ /usr/lib/x86_64-linux-gnu/
COPY --from=ffmpeg /out/usr/share-doc-ffmpeg/ /usr/share/doc/ffmpeg/
RUN ffmpeg -hide_banner -version | head -1 \
  && useradd --system --uid 10001 --home /data classroom \
  && mkdir -p /data && chown classroom /data
COPY --from=build /app/dist/classroom /usr/local/bin/classroom
USER classroom
ENV DATA_DIR=/data PORT=3000
VOLUME /data
EXPOSE 3000
# One image for every role: `classroom` (HTTP and jobs, the default), or `classroom serve`, `classroom worker`,
# `classroom migrate` as the command. Readiness per role, asked by the binary itself: `/api/health/ready` on $PORT,
# or for a worker (no HTTP) its own checks; `classroom healthcheck` reads the role from the container's command.
# The server drains requests for 8 s on SIGTERM: give `docker stop` / `podman stop` more than that
# (`--stop-timeout 15` or `-t 15`).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s CMD ["classroom", "healthcheck"]
STOPSIGNAL SIGTERM
CMD ["classroom"]
