#!/usr/bin/env bash
# Renders fencelab.svg to the PNG sizes the .deb installs (hicolor 48, 128, 256). Needs rsvg-convert
# (Debian: apt-get install librsvg2-bin). The PNGs are committed, so the package build needs no renderer.
set -euo pipefail
cd "$(dirname "$0")"
for size in 48 128 256; do
  rsvg-convert -w "$size" -h "$size" fencelab.svg -o "fencelab-$size.png"
done
