#!/usr/bin/env bash
# Installs the system packages the app needs when they are missing: ffmpeg (>= 5.1) and Tesseract with English (the
# words on slides; without it slides are indexed without words) always,
# and with --test Debian's Chromium (the Playwright end-to-end tests), WebKitGTK's driver with Xvfb and GStreamer (the
# WebKit end-to-end tests) and PostgreSQL (the server suite's second run).
set -euo pipefail

need=()
if [[ -z "${FFMPEG_PATH:-}" ]] && ! command -v ffmpeg >/dev/null 2>&1; then need+=(ffmpeg); fi
if [[ -z "${TESSERACT_PATH:-}" ]] && ! command -v tesseract >/dev/null 2>&1; then need+=(tesseract-ocr); fi
if [[ -z "${TESSERACT_PATH:-}" ]] && ! compgen -G '/usr/share/tesseract-ocr/*/tessdata/eng.traineddata' >/dev/null; then
  need+=(tesseract-ocr-eng)
fi
if [[ "${1:-}" == "--test" ]] && [[ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]]; then need+=(chromium fonts-dejavu-core); fi
# The server suite runs a second time on PostgreSQL, on a throwaway cluster (scripts/test-postgres.ts).
if [[ "${1:-}" == "--test" ]] && ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then need+=(postgresql); fi

# The school sign-in tests make their test provider's certificate with openssl (src/test/oidc-provider.ts).
if [[ "${1:-}" == "--test" ]] && ! command -v openssl >/dev/null 2>&1; then need+=(openssl); fi

# The WebKit end-to-end tests (e2e/webkit.test.ts): Debian's WebKitGTK driven by WebKitWebDriver under Xvfb, with
# the GStreamer plugins its media stack plays HLS (hls.js and native) with.
if [[ "${1:-}" == "--test" ]]; then
  for package in webkit2gtk-driver xvfb xauth gstreamer1.0-plugins-base gstreamer1.0-plugins-good \
    gstreamer1.0-plugins-bad gstreamer1.0-libav gstreamer1.0-gl; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then need+=("$package"); fi
  done
fi

if ((${#need[@]})); then
  echo "Installing system packages: ${need[*]}"
  SUDO=""
  if [[ "$(id -u)" != "0" ]]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
