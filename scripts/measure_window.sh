#!/usr/bin/env bash
# Measures the release window under Xvfb (Mesa llvmpipe): time from start to the first frame
# (eframe shows the window only after painting it), CPU over 30 s idle and over 30 s with a turn
# running, and resident memory. Needs xvfb, xauth and xdotool (installed here if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in xvfb-run xdotool; do
  command -v "$tool" >/dev/null || { apt-get update && apt-get install -y xvfb xauth xdotool; break; }
done
cargo build --release --bin rummikub-companion
if [ -z "${INSIDE_XVFB:-}" ]; then
  exec env INSIDE_XVFB=1 xvfb-run -a -s "-screen 0 1280x900x24" "$0" "$@"
fi

data=$(mktemp -d)
ticks=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
start=$(date +%s.%N)
RUMMIKUB_COMPANION_DATA="$data" target/release/rummikub-companion &
pid=$!
win=$(xdotool search --sync --onlyvisible --name "Rummikub Companion")
shown=$(date +%s.%N)
echo "start to first frame: $(echo "($shown - $start) * 1000" | bc) ms"
sleep 2
measure() {
  local before after
  before=$(cpu_ticks "$pid"); sleep 30; after=$(cpu_ticks "$pid")
  echo "$1: $(echo "scale=2; ($after - $before) * 100 / $ticks / 30" | bc) % of one core over 30 s"
}
measure "idle"
xdotool windowfocus --sync "$win" key space
measure "turn running (first 30 s of a 60 s turn)"
echo "resident memory: $(awk '/VmRSS/ {print $2 / 1024 " MiB"}' /proc/$pid/status)"
echo "peak resident memory: $(awk '/VmHWM/ {print $2 / 1024 " MiB"}' /proc/$pid/status)"
kill "$pid"
rm -rf "$data"
