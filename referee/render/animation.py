"""The animated replay (SPEC §7, §14): a GIF of the game from the start, from the PNG pictures
png.py makes.

Which plies get a frame (`frame_plan`): ply 0 (the start, as `show --ply 0`) is the first frame
and the last ply the last, held LAST_MS before the animation starts again; every ply between
that changes the board gets a frame of FRAME_MS. A ply that changes nothing — a pass — gets no
frame of its own: the frame before it is held longer instead (one more FRAME_MS a pass, at most
HOLD_PLIES of them), so a thousand passes make one frame, not a thousand (SPEC §14).

Every picture in seconds (SPEC §14: a GIF of any record ≤ 5 MB within 30 s). Nearly all the
time goes into drawing each frame — resvg rasterising the SVG takes seven tenths of it, then
Pillow quantises and encodes the part that changed — never into replaying: the record is
replayed once and the plies without a frame are never drawn. A frame of a 1,000 × 1,000 pixel
picture costs about 0.25 s of one core (a 397-ply Odd game of size 12, the densest picture of
all the games), one of 400 × 400 about 0.07 s, so the frames of one GIF are bounded by what
they cost: their pixels, each frame counted FRAME_OVERHEAD pixels more, at most PIXEL_BUDGET in
all (about 10 s of one core), and never more than MAX_FRAMES. A game with more plies than that
is shown as a time-lapse: frames at plies evenly spaced from the start to the end, each frame's
heading saying its ply, and the last ply always the last frame; a picture so large that even
two frames pass the budget gives its last ply alone. (The review page, `show --format html`,
steps through every ply.)

Pictures of different sizes (a crab play area grows) are placed at the top left of a white
canvas the size of the largest, so the words stay where they were.

The GIF is written frame by frame with Pillow's `GifImagePlugin.getdata` (the encoder of one
frame) rather than `Image.save(save_all=True)`, which holds every frame in memory at once and
merges frames that happen to be alike: here memory holds one frame, and the frames are exactly
those the plan gives. Each frame after the first stores only the rectangle that changed, with a
palette of its own, and leaves transparent what did not change inside it. Nothing depends on
the clock or the machine: the same record gives the same bytes.
"""

from __future__ import annotations

import io
import struct
from typing import Iterable, Sequence

from PIL import GifImagePlugin, Image, ImageChops

FRAME_MS = 1000
LAST_MS = 5000
HOLD_PLIES = 3  # a position standing over passes shows at most this many FRAME_MS
MAX_FRAMES = 150  # an animation of more is a time-lapse (two and a half minutes of frames)
PIXEL_BUDGET = 40_000_000  # all frames' pixels together: about 10 s of one core (see the top)
FRAME_OVERHEAD = 200_000  # pixels' worth of a frame's own cost, whatever its size
BACKGROUND = (255, 255, 255)
COLOURS = 255  # per frame; the 256th index is "unchanged" (transparent)
TRANSPARENT = 255


def frame_plan(still: Sequence[bool], frame_pixels: int) -> list[tuple[int, int]]:
    """The frames of an animation of plies 0 … len(still) - 1, as (ply, milliseconds): `still`
    says of each ply whether it changes nothing (a pass; ply 0 never), `frame_pixels` how large
    a frame is (the largest). See the top: passes merged into the frame before them, at most
    MAX_FRAMES frames and PIXEL_BUDGET pixels, the last ply always shown, and the first unless
    one frame is all the budget allows."""
    last = len(still) - 1
    shown = [ply for ply in range(last + 1) if ply in (0, last) or not still[ply]]
    most = max(1, min(MAX_FRAMES, PIXEL_BUDGET // (frame_pixels + FRAME_OVERHEAD)))
    if most == 1:
        shown = [last]
    elif len(shown) > most:  # a time-lapse: evenly spaced, the first and the last kept
        shown = [shown[round(index * (len(shown) - 1) / (most - 1))] for index in range(most)]
    plan = []
    for ply in shown:
        if ply == last:
            plan.append((ply, LAST_MS))
            continue
        held = 1  # this ply, and the passes right after it (the last ply has its own frame)
        while held < HOLD_PLIES and ply + held < last and still[ply + held]:
            held += 1
        plan.append((ply, held * FRAME_MS))
    return plan


def gif(pngs: list[bytes], durations: Sequence[int] | None = None) -> bytes:
    """An animated GIF of the PNG pictures, one frame each, looping for ever; each shows for
    its duration in milliseconds (default: FRAME_MS, the last LAST_MS)."""
    if durations is None:
        durations = [FRAME_MS] * (len(pngs) - 1) + [LAST_MS]
    sizes = [Image.open(io.BytesIO(png)).size for png in pngs]  # reads the headers only
    width, height = max(w for w, _ in sizes), max(h for _, h in sizes)
    out = io.BytesIO()
    # Header, logical screen (no global colour table: every frame brings its own), and the
    # NETSCAPE2.0 extension that makes the animation loop (0 = for ever).
    out.write(b"GIF89a" + struct.pack("<HHBBB", width, height, 0, 0, 0))
    out.write(b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", 0) + b"\x00")
    previous = None
    for frame, duration in zip(_frames(pngs, (width, height)), durations):
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
