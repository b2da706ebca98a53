"""Builds host/report/font/DejaVuSans-subset.ttf from DejaVu Sans (see LICENSE beside it).

Subsets the font to the characters the chart writes, then gives every glyph
an empty one-point contour at x = 0, so that its bounding box starts at the
pen position: plotters' ab_glyph text renderer (0.3.7) draws a glyph's
bitmap at the pen and drops the left side bearing, which spaces letters
unevenly; with the box starting at 0 the bearing is inside the bitmap.

Usage: python3 make_font.py /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf OUT.ttf
(needs fontTools: pip install fonttools)
"""
import sys
from fontTools import subset
from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont

UNICODES = "U+0020-007E,U+00B0-00BF,U+00D7,U+2013,U+2014,U+2026,U+2212,U+2264,U+2265"

source, out = sys.argv[1], sys.argv[2]
options = subset.Options()
options.layout_features = ["kern"]
options.legacy_kern = True
options.hinting = False
options.desubroutinize = True
font = TTFont(source)
subsetter = subset.Subsetter(options)
subsetter.populate(unicodes=subset.parse_unicodes(UNICODES))
subsetter.subset(font)

glyphs = font.getGlyphSet()
glyf, hmtx = font["glyf"], font["hmtx"]
for name in font.getGlyphOrder():
    recording = DecomposingRecordingPen(glyphs)
    glyphs[name].draw(recording)
    if not recording.value:
        continue  # no outline (space)
    pen = TTGlyphPen(None)
    recording.replay(pen)
    glyph = pen.glyph()
    glyph.recalcBounds(glyf)
    y = glyph.yMin
    pen = TTGlyphPen(None)
    recording.replay(pen)
    pen.moveTo((0, y))
    pen.lineTo((0, y))
    pen.closePath()
    glyph = pen.glyph()
    glyph.recalcBounds(glyf)
    glyf[name] = glyph
    advance, _ = hmtx[name]
    hmtx[name] = (advance, glyph.xMin)
font.save(out)
