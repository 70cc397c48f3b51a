#!/usr/bin/env bash
# Renders the app's PNG icons from its two SVGs, for the browsers and phones that want a
# bitmap (Android's install prompt wants 192 and 512, iOS's home screen an apple-touch-icon).
# The PNGs are committed; run this again after changing an SVG. Same cairosvg, same bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -c "import cairosvg" 2>/dev/null || .venv/bin/pip install -q "cairosvg==2.9.1"
.venv/bin/python - <<'PY'
import cairosvg
public = "Sources/LifeSignalServer/Public/"
icons = [
    # "any": the rounded icon, corners transparent.
    ("icon.svg", "icon-192.png", 192),
    ("icon.svg", "icon-512.png", 512),
    # "maskable": full bleed, the mark inside the safe circle; the platform cuts the shape.
    ("icon-maskable.svg", "icon-maskable-192.png", 192),
    ("icon-maskable.svg", "icon-maskable-512.png", 512),
    # iOS rounds the corners itself and puts black behind transparency: the full-bleed one.
    ("icon-maskable.svg", "apple-touch-icon.png", 180),
]
for svg, png, size in icons:
    cairosvg.svg2png(url=public + svg, write_to=public + png, output_width=size, output_height=size)
    print(png, size)
PY
