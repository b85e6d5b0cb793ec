#!/usr/bin/env bash
# Makes assets/icons/rummikub-companion.png (256×256): a cream Rummikub tile with a red 7 and
# an amber clock ring. Needs ImageMagick and the DejaVu fonts (Debian: imagemagick fonts-dejavu-core).
set -euo pipefail
cd "$(dirname "$0")"
convert -size 256x256 xc:none \
  -fill '#1f2933' -draw 'roundrectangle 8,8 248,248 40,40' \
  -fill '#f6efe0' -draw 'roundrectangle 56,28 200,228 18,18' \
  -fill none -stroke '#ffa000' -strokewidth 10 -draw 'ellipse 128,118 60,60 -60,240' \
  -stroke none -fill '#d32f2f' -font DejaVu-Sans-Bold -pointsize 110 -gravity center \
  -annotate +0+0 '7' \
  -fill '#d32f2f' -draw 'circle 128,206 128,214' \
  rummikub-companion.png
