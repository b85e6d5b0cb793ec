#!/usr/bin/env bash
# Screenshots of every view in both languages, from the real window under Xvfb (Mesa llvmpipe).
# Needs: apt-get install -y xvfb xauth (installed here if missing). Output: docs/screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v xvfb-run >/dev/null; then
  apt-get update && apt-get install -y xvfb xauth
fi
cargo build --release --example screenshots
xvfb-run -a -s "-screen 0 1280x900x24" target/release/examples/screenshots docs/screenshots
ls -l docs/screenshots
