"""The animated replay (SPEC §7): a GIF of one frame per ply, from the PNG pictures png.py makes.

Ply 0 (the start, as `show --ply 0`) is the first frame and the last ply the last, so a game of
N plies has N + 1 frames. Each frame shows for FRAME_MS, the last for LAST_MS before the
animation starts again. Pictures of different sizes (a crab play area grows) are placed at the
top left of a white canvas the size of the largest, so the words stay where they were.

The GIF is written frame by frame with Pillow's `GifImagePlugin.getdata` (the encoder of one
frame) rather than `Image.save(save_all=True)`, which holds every frame in memory at once and
merges frames that happen to be alike: here memory holds one frame, and there is exactly one
frame per ply. Each frame after the first stores only the rectangle that changed, with a palette
of its own, and leaves transparent what did not change inside it. Nothing depends on the clock or the machine: the same record gives the same bytes.
"""

from __future__ import annotations

import io
import struct
from typing import Iterable

from PIL import GifImagePlugin, Image, ImageChops

FRAME_MS = 1000
LAST_MS = 5000
BACKGROUND = (255, 255, 255)
COLOURS = 255  # per frame; the 256th index is "unchanged" (transparent)
TRANSPARENT = 255


def gif(pngs: list[bytes]) -> bytes:
    """An animated GIF of the PNG pictures, one frame each, looping for ever."""
    sizes = [Image.open(io.BytesIO(png)).size for png in pngs]  # reads the headers only
    width, height = max(w for w, _ in sizes), max(h for _, h in sizes)
    out = io.BytesIO()
    # Header, logical screen (no global colour table: every frame brings its own), and the
    # NETSCAPE2.0 extension that makes the animation loop (0 = for ever).
    out.write(b"GIF89a" + struct.pack("<HHBBB", width, height, 0, 0, 0))
    out.write(b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", 0) + b"\x00")
    previous = None
    for number, frame in enumerate(_frames(pngs, (width, height))):
        duration = LAST_MS if number == len(pngs) - 1 else FRAME_MS
        if previous is None:
            box, unchanged = (0, 0, width, height), None
        else:
            delta = ImageChops.difference(previous, frame)
            box = delta.getbbox() or (0, 0, 1, 1)  # the same picture again: a one-pixel frame
            # Inside the rectangle, what did not change is left transparent: long runs of one
            # index, which the GIF's LZW packs into next to nothing.
            unchanged = _zero(delta.crop(box))
        part = frame.crop(box).quantize(COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        palette = part.getpalette() or []
        part.putpalette(palette + [0] * (3 * 256 - len(palette)))
        if unchanged is not None:
            part.paste(TRANSPARENT, mask=unchanged)
        # disposal 1: what a frame drew stays, so the next needs draw only what changed
        extra = {} if unchanged is None else {"transparency": TRANSPARENT}
        for chunk in GifImagePlugin.getdata(part, offset=box[:2], duration=duration, disposal=1,
                                            include_color_table=True, **extra):
            out.write(chunk)
        previous = frame
    out.write(b";")
    return out.getvalue()


def _zero(delta: Image.Image) -> Image.Image:
    """A mask of the pixels where an RGB difference is zero in all three bands."""
    red, green, blue = delta.split()
    largest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    return largest.point([255] + [0] * 255, "1")


def _frames(pngs: list[bytes], size: tuple[int, int]) -> Iterable[Image.Image]:
    for png in pngs:
        with Image.open(io.BytesIO(png)) as picture:
            picture = picture.convert("RGBA")
            frame = Image.new("RGB", size, BACKGROUND)
            frame.paste(picture, (0, 0), picture)
            yield frame
