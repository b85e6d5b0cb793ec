#!/usr/bin/env bash
# Rebuilds NotoSansCJKkr-Hangul.otf: Noto Sans CJK KR (SIL OFL 1.1, Debian's fonts-noto-cjk)
# cut down to what the app shows: every Hangul syllable, compatibility jamo, ASCII, Latin-1 and a
# few punctuation marks. Needs: apt-get install fonts-noto-cjk; pip install fonttools.
set -euo pipefail
cd "$(dirname "$0")"
pyftsubset /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc \
  --font-number=1 \
  --unicodes="U+0020-007E,U+00A0-00FF,U+2010-2027,U+2030-203A,U+2190-2193,U+2212,U+2264-2265,U+2605,U+25B6,U+25CB,U+25CF,U+2713,U+3001-3003,U+3131-318E,U+AC00-D7A3" \
  --layout-features='*' --no-hinting --desubroutinize \
  --name-IDs='*' --name-legacy --name-languages='*' \
  --output-file=NotoSansCJKkr-Hangul.otf
ls -l NotoSansCJKkr-Hangul.otf
