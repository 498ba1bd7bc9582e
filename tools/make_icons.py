"""Draw the home-screen icons (static/icon-192.png, icon-512.png, icon-maskable-512.png) with
Pillow from the design of static/icon.svg: an amber tile with a dark five-pip die.

Run once after changing the design: `.venv/bin/python tools/make_icons.py`. The PNGs are
committed; the app never runs this.
"""

from __future__ import annotations

import os

from PIL import Image, ImageDraw

ACCENT = (0xFF, 0xB5, 0x47, 255)
DARK = (0x14, 0x16, 0x1A, 255)
PIPS = ((24, 24), (40, 24), (32, 32), (24, 40), (40, 40))  # in icon.svg's 64-unit viewBox
STATIC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "static")


def icon(size: int, maskable: bool = False) -> Image.Image:
    scale = 4  # drawn large, then scaled down for smooth edges
    unit = size * scale / 64
    image = Image.new("RGBA", (size * scale, size * scale), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:
        # the launcher cuts its own shape: fill the square, keep the die in the safe circle
        draw.rectangle([0, 0, size * scale, size * scale], fill=ACCENT)
        shrink = 0.95
    else:
        draw.rounded_rectangle([0, 0, size * scale - 1, size * scale - 1], radius=14 * unit, fill=ACCENT)
        shrink = 1.0
    offset = 32 * (1 - shrink)

    def at(value: float) -> float:
        return (offset + value * shrink) * unit

    draw.rounded_rectangle([at(14), at(14), at(50), at(50)], radius=7 * unit * shrink, fill=DARK)
    for x, y in PIPS:
        r = 4 * unit * shrink
        draw.ellipse([at(x) - r, at(y) - r, at(x) + r, at(y) + r], fill=ACCENT)
    small = image.resize((size, size), Image.LANCZOS)
    return small.quantize(colors=48, method=Image.Quantize.FASTOCTREE)  # a few KB each


def main() -> None:
    icon(192).save(os.path.join(STATIC, "icon-192.png"), optimize=True)
    icon(512).save(os.path.join(STATIC, "icon-512.png"), optimize=True)
    icon(512, maskable=True).save(os.path.join(STATIC, "icon-maskable-512.png"), optimize=True)


if __name__ == "__main__":
    main()
