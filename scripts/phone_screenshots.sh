#!/usr/bin/env bash
# Screenshots of the phone page (390×844) in English and Korean, from headless Chromium against
# the phone_demo example. Needs: chromium and a Korean font (installed here if missing).
# Output: docs/screenshots/phone-en.png, docs/screenshots/phone-ko.png.
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
command -v chromium >/dev/null || need+=(chromium)
fc-list :lang=ko | grep -q . || need+=(fonts-nanum)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update && apt-get install -y "${need[@]}"
fi
cargo build --example phone_demo
demo_bin="${CARGO_TARGET_DIR:-target}/debug/examples/phone_demo"
out=docs/screenshots
mkdir -p "$out"
for lang in en ko; do
  profile=$(mktemp -d)
  log=$(mktemp)
  "$demo_bin" "$lang" 0 30 >"$log" &
  demo=$!
  for _ in $(seq 50); do [ -s "$log" ] && break; sleep 0.1; done
  url=$(head -n1 "$log")
  # Seat 1 is the player whose turn it is; ?lang= stands in for the phone's language.
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --hide-scrollbars --window-size=390,844 \
    --timeout=2500 --screenshot="$out/phone-$lang.png" \
    "${url}?lang=$lang#seat=1" 2>/dev/null || true
  kill "$demo" 2>/dev/null || true
  wait "$demo" 2>/dev/null || true
  rm -rf "$profile" "$log"
  [ -s "$out/phone-$lang.png" ] || { echo "no screenshot for $lang" >&2; exit 1; }
done
ls -l "$out"/phone-*.png
