#!/usr/bin/env bash
# Screenshots of the phone page (390×844) in English and Korean, from headless Chromium against
# the phone_demo example, and of the club night's pages (a table's phone, the TV), taken by the
# club tests of tests/suite/browser.rs as they play a night. Needs: chromium, chromium-driver and
# a Korean font (installed here if missing).
# Output: docs/screenshots/phone-{en,ko}.png, docs/screenshots/club-*.png.
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
command -v chromium >/dev/null || need+=(chromium)
command -v chromedriver >/dev/null || need+=(chromium-driver)
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

# The club night's pages: the browser tests save each screenshot in the tests' temporary folder.
club_tests=(
  browser::a_player_at_a_club_table_claims_a_seat_plays_ends_the_game_enters_a_rack_and_confirms
  browser::the_club_tv_shows_each_tap_a_finished_tables_games_and_winner_and_the_round_clock
  browser::a_stranger_who_follows_a_club_tables_link_from_the_tv_sees_every_seat_taken_and_acts_for_none
  browser::a_korean_phone_following_an_english_club_tvs_link_reads_korean_and_can_pick_english
  browser::a_club_page_left_on_last_rounds_table_says_scan_your_new_table_when_the_round_changes
  browser::the_tv_page_on_a_1080p_screen_fits_six_tables_in_large_type_and_pages_through_twenty_five
)
tmp="${CARGO_TARGET_DIR:-target}/tmp"
rm -f "$tmp"/club-*.png
cargo test --test suite -- --include-ignored --exact "${club_tests[@]}"
cp "$tmp"/club-*.png "$out"/
ls -l "$out"/club-*.png
