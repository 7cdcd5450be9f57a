#!/usr/bin/env python3
"""Generator for the hand-designed test maps in this directory.

Every brush below is written out by hand as a list of planes (three points
each) or as a box / prism; this script only orients each plane so that its
normal points out of the brush and prints Valve 220 text the way TrenchBroom
writes it.  The coordinates documented in README.md are the ones used here.

    python3 maps/gen_maps.py      # rewrites maps/*.map
    python3 maps/check_maps.py    # validates them

Standard library only.
"""
import math
import os
from fractions import Fraction as F

HERE = os.path.dirname(os.path.abspath(__file__))


# ----------------------------------------------------------------- vectors
def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def fnum(v):
    v = F(v)
    if v.denominator == 1:
        return str(v.numerator)
    f = float(v)
    assert F(f) == v, v  # only exactly representable decimals
    return repr(f)


# ----------------------------------------------------------------- brushes
class Brush:
    def __init__(self, planes, interior, tex=None):
        """planes: list of (p0, p1, p2); interior: a point strictly inside."""
        interior = tuple(F(c) for c in interior)
        self.faces = []
        for (p0, p1, p2) in planes:
            p0, p1, p2 = (tuple(F(c) for c in p) for p in (p0, p1, p2))
            n = cross(sub(p0, p1), sub(p2, p1))
            s = dot(n, sub(interior, p1))
            if s == 0:
                raise ValueError("interior point on plane %r" % ((p0, p1, p2),))
            if s > 0:  # normal points inward: swap to flip
                p0, p2 = p2, p0
                n = cross(sub(p0, p1), sub(p2, p1))
            self.faces.append((p0, p1, p2, n, tex or face_tex(n)))

    triple = None  # Quake 2 (contents, flags, value) for every face, or None

    def text(self):
        out = []
        for (p0, p1, p2, n, tex) in self.faces:
            pts = " ".join("( %s )" % " ".join(fnum(c) for c in p) for p in (p0, p1, p2))
            line = "%s %s %s 0 1 1" % (pts, tex, tex_axes(n))
            if self.triple is not None:
                line += " %d %d %d" % self.triple
            out.append(line)
        return out


def q2(brush, contents=1, flags=0):
    """Gives every face of `brush` the Quake 2 triple (contents, flags, 0)."""
    brush.triple = (contents, flags, 0)
    return brush


def face_tex(n):
    if n[2] > 0:
        return "floor"
    if n[2] < 0:
        return "ceiling"
    return "wall"


def tex_axes(n):
    ax, ay, az = (abs(c) for c in n)
    if az >= ax and az >= ay:
        return "[ 1 0 0 0 ] [ 0 -1 0 0 ]"
    if ax >= ay:
        return "[ 0 1 0 0 ] [ 0 0 -1 0 ]"
    return "[ 1 0 0 0 ] [ 0 0 -1 0 ]"


def box(x0, y0, z0, x1, y1, z1, tex=None):
    """Axis-aligned box, points written TrenchBroom style (corner + unit offsets)."""
    assert x0 < x1 and y0 < y1 and z0 < z1
    planes = [
        ((x0, y0, z0), (x0, y0 + 1, z0), (x0, y0, z0 + 1)),  # -x
        ((x0, y0, z0), (x0, y0, z0 + 1), (x0 + 1, y0, z0)),  # -y
        ((x0, y0, z0), (x0 + 1, y0, z0), (x0, y0 + 1, z0)),  # -z
        ((x1, y1, z1), (x1, y1 + 1, z1), (x1 + 1, y1, z1)),  # +z
        ((x1, y1, z1), (x1 + 1, y1, z1), (x1, y1, z1 + 1)),  # +y
        ((x1, y1, z1), (x1, y1, z1 + 1), (x1, y1 + 1, z1)),  # +x
    ]
    c = (F(x0 + x1) / 2, F(y0 + y1) / 2, F(z0 + z1) / 2)
    return Brush(planes, c, tex)


def prism(poly, axis, lo, hi, tex=None):
    """Convex polygon `poly` (2-D vertices, any order) extruded along `axis`.

    axis 'y': poly is (x, z), extruded over y in [lo, hi]
    axis 'x': poly is (y, z), extruded over x in [lo, hi]
    axis 'z': poly is (x, y), extruded over z in [lo, hi]
    """
    def P(u, v, w):
        if axis == "y":
            return (u, w, v)
        if axis == "x":
            return (w, u, v)
        return (u, v, w)

    cu = sum(F(p[0]) for p in poly) / len(poly)
    cv = sum(F(p[1]) for p in poly) / len(poly)
    # order the polygon counter-clockwise around its centroid (exact: sort by quadrant + cross)
    import functools

    def cmp(a, b):
        def half(p):
            du, dv = F(p[0]) - cu, F(p[1]) - cv
            return 0 if (dv > 0 or (dv == 0 and du > 0)) else 1
        ha, hb = half(a), half(b)
        if ha != hb:
            return ha - hb
        cr = (F(a[0]) - cu) * (F(b[1]) - cv) - (F(a[1]) - cv) * (F(b[0]) - cu)
        return -1 if cr > 0 else (1 if cr < 0 else 0)

    poly = sorted(poly, key=functools.cmp_to_key(cmp))
    planes = []
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        planes.append((P(a[0], a[1], lo), P(b[0], b[1], lo), P(a[0], a[1], hi)))
    planes.append((P(poly[0][0], poly[0][1], lo), P(poly[1][0], poly[1][1], lo), P(poly[2][0], poly[2][1], lo)))
    planes.append((P(poly[0][0], poly[0][1], hi), P(poly[1][0], poly[1][1], hi), P(poly[2][0], poly[2][1], hi)))
    c = P(cu, cv, (F(lo) + F(hi)) / 2)
    return Brush(planes, c, tex)


def slanted_wall(apex, d, shift, cap_axis, cap_lo, cap_hi, z0, z1, tex=None):
    """Vertical slab whose inner face is the vertical plane through `apex` along the
    horizontal integer direction `d`; the outer face is the same plane moved by the
    integer vector `shift`; two axis-aligned caps (`cap_axis` = 'x' or 'y') bound it
    between cap_lo and cap_hi.  All plane points are integers; vertices need not be."""
    ax, ay = apex
    inner = ((ax, ay, z0), (ax + d[0], ay + d[1], z0), (ax, ay, z1))
    ox, oy = ax + shift[0], ay + shift[1]
    outer = ((ox, oy, z0), (ox + d[0], oy + d[1], z0), (ox, oy, z1))
    if cap_axis == "y":
        caps = [((ax, c, z0), (ax + 1, c, z0), (ax, c, z1)) for c in (cap_lo, cap_hi)]
        ym = F(cap_lo + cap_hi) / 2
        lam = (ym - ay) / d[1]
        mid = (ax + lam * d[0], ym)
    else:
        caps = [((c, ay, z0), (c, ay + 1, z0), (c, ay, z1)) for c in (cap_lo, cap_hi)]
        xm = F(cap_lo + cap_hi) / 2
        lam = (xm - ax) / d[0]
        mid = (xm, ay + lam * d[1])
    bottom = ((ax, ay, z0), (ax + 1, ay, z0), (ax, ay + 1, z0))
    top = ((ax, ay, z1), (ax + 1, ay, z1), (ax, ay + 1, z1))
    interior = (mid[0] + F(shift[0]) / 2, mid[1] + F(shift[1]) / 2, F(z0 + z1) / 2)
    return Brush([inner, outer] + caps + [bottom, top], interior, tex)


def room(x0, y0, x1, y1, h, t=16, zbot=None):
    """Sealed room: interior [x0,x1]x[y0,y1]x[0,h]; floor and ceiling span the outer
    footprint, walls span z 0..h (x-walls full outer y, y-walls interior x).
    Returns (floor, ceiling, walls); floor may be replaced by the caller."""
    zb = 0 if zbot is None else zbot
    floor = box(x0 - t, y0 - t, -t, x1 + t, y1 + t, 0)
    ceil = box(x0 - t, y0 - t, h, x1 + t, y1 + t, h + t)
    walls = [
        box(x0 - t, y0 - t, zb, x0, y1 + t, h),
        box(x1, y0 - t, zb, x1 + t, y1 + t, h),
        box(x0, y0 - t, zb, x1, y0, h),
        box(x0, y1, zb, x1, y1 + t, h),
    ]
    return floor, ceil, walls


# ----------------------------------------------------------------- writer
def write_map(name, world, entities, game="Quake", fmt="Valve"):
    """world: list of brushes and patches; entities: list of (keyvalues list, brushes and
    patches list). `game` and `fmt` name the header's game and format."""
    lines = ["// Game: %s" % game, "// Format: %s" % fmt, "// entity 0", "{",
             '"mapversion" "220"', '"classname" "worldspawn"', '"wad" ""']
    for i, b in enumerate(world):
        lines.append("// brush %d" % i)
        lines.append("{")
        lines.extend(b.text())
        lines.append("}")
    lines.append("}")
    for ei, (kv, brushes) in enumerate(entities, start=1):
        lines.append("// entity %d" % ei)
        lines.append("{")
        for k, v in kv:
            lines.append('"%s" "%s"' % (k, v))
        for i, b in enumerate(brushes):
            lines.append("// brush %d" % i)
            lines.append("{")
            lines.extend(b.text())
            lines.append("}")
        lines.append("}")
    with open(os.path.join(HERE, name), "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


class Patch:
    """A Quake 3 `patchDef2`: `columns` is a list of W columns, each a list of H points
    (x, y, z); written as TrenchBroom writes it, W groups of H `( x y z s t )`."""

    def __init__(self, tex, columns):
        assert len(columns) % 2 == 1 and len(columns) >= 3
        assert all(len(c) == len(columns[0]) for c in columns)
        assert len(columns[0]) % 2 == 1 and len(columns[0]) >= 3
        self.tex = tex
        self.columns = columns

    def text(self):
        w, h = len(self.columns), len(self.columns[0])
        out = ["patchDef2", "{", self.tex, "( %d %d 0 0 0 )" % (w, h), "("]
        for i, column in enumerate(self.columns):
            pts = " ".join(
                "( %s %s %s )" % (" ".join(fnum(c) for c in p), fnum(F(i, w - 1)), fnum(F(j, h - 1)))
                for j, p in enumerate(column))
            out.append("( %s )" % pts)
        out.extend([")", "}"])
        return out


def start(x, y, z=24, cls="info_player_start"):
    return ([("classname", cls), ("origin", "%s %s %s" % (fnum(x), fnum(y), fnum(z)))], [])


def flight(x0, y0, y1, rise, run, steps, landing):
    """Stair flight rising along +x from x0: step k (1..steps) is a column from the
    floor to z = rise*k over x in [x0+run*(k-1), x0+run*k]; the last step is `landing`
    deep instead of `run`."""
    out = []
    for k in range(1, steps + 1):
        a = x0 + run * (k - 1)
        b = a + (landing if k == steps else run)
        out.append(box(a, y0, 0, b, y1, rise * k))
    return out


def ramp(x0, y0, y1, rise, run, top):
    """Ramp rising along +x: slope from (x0, 0) to (x0+run, rise), then a flat top
    `top` deep; one convex brush (trapezoid profile), bottom at z=0."""
    poly = [(x0, 0), (x0 + run + top, 0), (x0 + run + top, rise), (x0 + run, rise)]
    return prism(poly, "y", y0, y1)


# ================================================================= maps
def box_room():
    fl, ce, walls = room(-256, -256, 256, 256, 256)
    write_map("box_room.map", [fl, ce] + walls, [start(0, 0)])


def stairs():
    fl, ce, walls = room(-384, -128, 512, 1760, 256)
    w = [fl, ce] + walls
    lane = lambda i: (128 * i, 128 * i + 96)
    for i, h in enumerate((8, 16, 18, 24)):
        y0, y1 = lane(i)
        w += flight(0, y0, y1, h, 32, 6, 128)
    # lane 4: 18-unit steps under a ceiling at z=108 (72 above step 2)
    y0, y1 = lane(4)
    w += flight(0, y0, y1, 18, 32, 3, 128)
    w.append(box(-128, y0, 108, 192, y1, 124))
    # lanes 5-7: single steps 19, 17, 20
    for i, h in ((5, 19), (6, 17), (7, 20)):
        y0, y1 = lane(i)
        w.append(box(0, y0, 0, 128, y1, h))
    # lanes 8-9: 16-unit step under ceilings at 64 and 76
    for i, c in ((8, 64), (9, 76)):
        y0, y1 = lane(i)
        w.append(box(0, y0, 0, 128, y1, 16))
        w.append(box(-128, y0, c, 192, y1, c + 16))
    # lane 10: 10 steps, rise 16, run 16, landing 128
    y0, y1 = lane(10)
    w += flight(0, y0, y1, 16, 16, 10, 128)
    # lanes 11-12: minimum tread: 10-unit step with tread 12 / 20, then a 128 wall
    for i, tread in ((11, 12), (12, 20)):
        y0, y1 = lane(i)
        w.append(box(0, y0, 0, tread, y1, 10))
        w.append(box(tread, y0, 0, tread + 32, y1, 128))
    write_map("stairs.map", w, [start(-256, 48)])


SLOPE_LANES = [  # (label, run) for rise 128
    ("30", 222), ("44", 133), ("45", 128), ("45.5", 126), ("45.7", 125),
    ("46", 124), ("50", 107), ("60", 74),
]


def slopes():
    fl, ce, walls = room(-384, -128, 512, 2560, 256)
    w = [fl, ce] + walls
    for i, (_, run) in enumerate(SLOPE_LANES):
        y0 = 192 * i
        w.append(ramp(0, y0, y0 + 128, 128, run, 128))
    # lane 8: 12-unit riser whose top is a 60-degree ramp (run 74, rise 128)
    y0 = 192 * 8
    w.append(prism([(0, 0), (138, 0), (138, 140), (74, 140), (0, 12)], "y", y0, y0 + 128))
    # valleys along x in [0, 256]: sharp V centred y=1888, 16-gap V centred y=2240
    for (yl, yr) in ((1888, 1888), (2232, 2248)):
        w.append(prism([(yl - 138, 0), (yl, 0), (yl - 74, 128), (yl - 138, 128)], "x", 0, 256))
        w.append(prism([(yr, 0), (yr + 138, 0), (yr + 138, 128), (yr + 74, 128)], "x", 0, 256))
    write_map("slopes.map", w, [start(-192, 64)])


def v_corner(apex, dx, dy, m, front, z1=128):
    """Two slanted walls forming a V whose open side faces +y.
    steep (dy > dx): rays (+-dx, dy), outer shift m along x, caps y = ay-16 / front.
    shallow (dx > dy): rays (+-dx, dy), outer shift m along -y, caps x."""
    ax, ay = apex
    if dy > dx:
        left = slanted_wall(apex, (-dx, dy), (-m, 0), "y", ay - 16, front, 0, z1)
        right = slanted_wall(apex, (dx, dy), (m, 0), "y", ay - 16, front, 0, z1)
    else:
        left = slanted_wall(apex, (-dx, dy), (0, -m), "x", front, ax + 16, 0, z1)
        right = slanted_wall(apex, (dx, dy), (0, -m), "x", ax - 16, 2 * ax - front, 0, z1)
    return [left, right]


def corners():
    fl, ce, walls = room(0, 0, 3072, 1024, 256)
    w = [fl, ce] + walls
    # 90-degree inside corner at (128,128), open towards +x +y
    w.append(box(112, 112, 0, 128, 512, 128))
    w.append(box(128, 112, 0, 512, 128, 128))
    # 30-degree V, apex (896,128), rays (+-56,209), walls 17 (x) thick, front cap y=512
    w += v_corner((896, 128), 56, 209, 17, 512)
    # 60-degree V, apex (1408,128), rays (+-56,97), shift 19, front cap y=512
    w += v_corner((1408, 128), 56, 97, 19, 512)
    # 120-degree corner, apex (2176,128), rays (+-97,56), shift 19 down, caps x=2176-+384
    w += v_corner((2176, 128), 97, 56, 19, 2176 - 384)
    # corridor 40 wide: x 2704..2744, y 128..512
    w.append(box(2688, 128, 0, 2704, 512, 128))
    w.append(box(2744, 128, 0, 2760, 512, 128))
    # gap 28 wide: x 2896..2924, y 128..512
    w.append(box(2880, 128, 0, 2896, 512, 128))
    w.append(box(2924, 128, 0, 2940, 512, 128))
    write_map("corners.map", w, [start(1408, 768)])


def thin_walls():
    x0, y0, x1, y1, h = -512, 0, 1024, 1536, 256
    t = 16
    _, ce, _ = room(x0, y0, x1, y1, h)
    walls = [
        box(x0 - t, y0 - t, -272, x0, y1 + t, h),
        box(x1, y0 - t, -272, x1 + t, y1 + t, h),
        box(x0, y0 - t, -272, x1, y0, h),
        box(x0, y1, -272, x1, y1 + t, h),
    ]
    # floor 256 thick (z -256..0 above a 16 bottom) with a pit x 512..768, y 640..896
    px0, py0, px1, py1 = 512, 640, 768, 896
    floor = [
        box(x0, y0, -272, px0, y1, 0),
        box(px1, y0, -272, x1, y1, 0),
        box(px0, y0, -272, px1, py0, 0),
        box(px0, py1, -272, px1, y1, 0),
        box(px0, py0, -272, px1, py1, -256),  # pit bottom
    ]
    w = floor + [ce] + walls
    w.append(box(px0, py0, 0, px1, py1, F(1, 8)))  # micro plate 0..0.125 over the pit
    w.append(box(0, 64, 0, 1, 320, 192))
    w.append(box(0, 448, 0, 2, 704, 192))
    w.append(box(0, 832, 0, 4, 1088, 192))
    w.append(box(0, 1216, 0, F(1, 8), 1472, 192))
    write_map("thin_walls.map", w, [start(-256, 192)])


def tiled_floor():
    X1, Y1, H, t = 2048, 1024, 384, 16
    w = []
    for i in range(16):
        for j in range(16):
            w.append(box(64 * i, 64 * j, -16, 64 * i + 64, 64 * j + 64, 0))
    # varying-size floor x 1024..1536, y 0..1024, tops at 0, various thicknesses
    for (a, b, c, d, zb) in [
        (1024, 0, 1536, 256, -16),
        (1024, 256, 1280, 512, -32),
        (1280, 256, 1536, 384, -16),
        (1280, 384, 1408, 512, -8),
        (1408, 384, 1536, 448, -16),
        (1408, 448, 1536, 512, -64),
        (1024, 512, 1032, 1024, -16),
        (1032, 512, 1088, 1024, -16),
        (1088, 512, 1536, 768, -16),
        (1088, 768, 1312, 1024, -24),
        (1312, 768, 1536, 1024, -16),
    ]:
        w.append(box(a, b, zb, c, d, 0))
    # ramp area floor
    w.append(box(1536, 0, -16, 2048, 1024, 0))
    # 30-degree ramp (run 222, rise 128) split at x=1711 (z=64), y 64..320, top to x=1950
    w.append(prism([(1600, 0), (1711, 0), (1711, 64)], "y", 64, 320))
    w.append(prism([(1711, 0), (1950, 0), (1950, 128), (1822, 128), (1711, 64)], "y", 64, 320))
    # 60-degree surf ramp (run 74, rise 128) split at y=704, x 1600..1802
    for (a, b) in ((448, 704), (704, 960)):
        w.append(ramp(1600, a, b, 128, 74, 128))
    # room: walls and ceiling; north wall x 0..1024 from 8 coplanar 128-wide brushes
    w.append(box(-t, -t, H, X1 + t, Y1 + t, H + t))
    w.append(box(-t, -t, -t, 0, Y1 + t, H))
    w.append(box(X1, -t, -t, X1 + t, Y1 + t, H))
    w.append(box(0, -t, -t, X1, 0, H))
    for k in range(8):
        w.append(box(128 * k, Y1, -t, 128 * k + 128, Y1 + t, H))
    w.append(box(1024, Y1, -t, X1, Y1 + t, H))
    write_map("tiled_floor.map", w, [start(480, 480)])


LOW_LANES = [  # (lane, kind, value)
    (0, "ceil", 41), (1, "ceil", 48), (2, "ceil", 57), (3, "ceil", 72),
    (4, "door", 56), (5, "tunnel", 44), (6, "ceil", 60), (7, "ceil", 73),
]


def low_ceiling():
    H = 192
    fl, ce, walls = room(-384, -256, 640, 1024, H)
    w = [fl, ce] + walls
    for i in range(9):  # dividers
        w.append(box(0, 96 * i - 32, 0, 256, 96 * i, H))
    for (i, kind, c) in LOW_LANES:
        y0, y1 = 96 * i, 96 * i + 64
        if kind == "ceil":
            w.append(box(0, y0, c, 256, y1, H))
        elif kind == "door":
            w.append(box(120, y0, c, 136, y1, H))
        else:
            w.append(box(64, y0, c, 192, y1, H))
    write_map("low_ceiling.map", w, [start(-192, 32)])


def arena():
    S, H, t = 2048, 512, 16
    w = []
    # floor: 8x8 tiles of 64 at x,y 1280..1792 plus four pieces around them
    for i in range(8):
        for j in range(8):
            w.append(box(1280 + 64 * i, 1280 + 64 * j, -t, 1344 + 64 * i, 1344 + 64 * j, 0))
    w.append(box(-t, -t, -t, S + t, 1280, 0))
    w.append(box(-t, 1792, -t, S + t, S + t, 0))
    w.append(box(-t, 1280, -t, 1280, 1792, 0))
    w.append(box(1792, 1280, -t, S + t, 1792, 0))
    w.append(box(-t, -t, H, S + t, S + t, H + t))
    w.append(box(-t, -t, 0, 0, S + t, H))
    w.append(box(S, -t, 0, S + t, S + t, H))
    w.append(box(0, -t, 0, S, 0, H))
    w.append(box(0, S, 0, S, S + t, H))
    # stairs: 4 flights rising +x from x=128, 128 wide
    for (y0, h) in ((128, 8), (320, 16), (512, 18), (704, 24)):
        w += flight(128, y0, y0 + 128, h, 32, 6, 128)
    # ramps from x=640: 45 deg (run 128) y 128..256, 60 deg (run 74) y 320..448
    w.append(ramp(640, 128, 256, 128, 128, 128))
    w.append(ramp(640, 320, 448, 128, 74, 128))
    # low-ceiling corridor x 640..896, lane y 672..736, ceiling z=48
    w.append(box(640, 576, 0, 896, 672, 128))
    w.append(box(640, 736, 0, 896, 832, 128))
    w.append(box(640, 672, 48, 896, 736, 128))
    # 90-degree corner at (1152,128) open to +x +y
    w.append(box(1136, 112, 0, 1152, 384, 128))
    w.append(box(1152, 112, 0, 1408, 128, 128))
    # 60-degree V, apex (1728,192), opening +y, front cap y=576
    w += v_corner((1728, 192), 56, 97, 19, 576)
    # thin wall 2 units
    w.append(box(1152, 640, 0, 1154, 896, 192))
    # wall of 4 coplanar brushes, y 1152..1168, x 128..640
    for k in range(4):
        w.append(box(128 + 128 * k, 1152, 0, 256 + 128 * k, 1168, 192))
    # water and clip
    w.append(box(128, 1408, 0, 384, 1664, 64, tex="*water0"))
    w.append(box(512, 1408, 0, 640, 1664, 128, tex="clip"))
    ents = [
        start(1024, 1024),
        start(256, 1024, cls="info_player_deathmatch"),
        start(1536, 1536, cls="info_player_deathmatch"),
        start(1856, 896, cls="info_player_deathmatch"),
        start(512, 1920, cls="info_player_deathmatch"),
        ([("classname", "func_door"), ("angle", "-1"), ("speed", "100"), ("wait", "3"), ("lip", "8")],
         [box(768, 1408, 0, 784, 1536, 128, tex="door")]),
        ([("classname", "trigger_multiple"), ("wait", "1")],
         [box(896, 1408, 0, 1024, 1536, 128, tex="trigger")]),
    ]
    write_map("arena.map", w, ents)



# ----------------------------------------------- exactness maps (issue 13)
def offaxis_faces():
    """Blocks whose +x face and top face are tilted by 1/N rad (N = 10000, 2000, 1000,
    100) about the z and x axes.  Each tilted plane is written through integer points N
    units apart (the points lie outside the block, as editors allow), so the tilt is exact
    in the file; block i spans x 0..256, y 320*i..320*i+256, z 0..128 (nominal)."""
    w = [box(-64, -64, -16, 512, 1344, 0)]
    for i, n in enumerate([10000, 2000, 1000, 100]):
        y0 = 320 * i
        y1 = y0 + 256
        side = ((255, y0 - n, 0), (256, y0, 0), (256, y0, 1))  # x = 256 + (y - y0)/n
        top = ((0, y0 - n, 127), (0, y0, 128), (1, y0, 128))  # z = 128 + (y - y0)/n
        planes = [
            ((0, y0, 0), (0, y0 + 1, 0), (0, y0, 1)),  # -x
            ((0, y0, 0), (0, y0, 1), (1, y0, 0)),  # -y
            ((0, y1, 0), (1, y1, 0), (0, y1, 1)),  # +y
            ((0, y0, 0), (1, y0, 0), (0, y0 + 1, 0)),  # -z
            side,
            top,
        ]
        w.append(Brush(planes, (128, y0 + 128, 64)))
    write_map("offaxis_faces.map", w, [start(384, -32)])


def regular_prism(sides, radius, cx, cy, z0, z1, grid=256):
    """An upright prism over a regular polygon of `sides` corners on a circle of `radius`
    about (cx, cy), corners rounded to 1/grid unit (exact binary fractions)."""
    poly = []
    for k in range(sides):
        a = 2 * math.pi * k / sides
        poly.append((F(round((cx + radius * math.cos(a)) * grid), grid),
                     F(round((cy + radius * math.sin(a)) * grid), grid)))
    return prism(poly, "z", z0, z1)


def many_sided():
    """Two many-sided upright prisms on a floor: 128 sides of radius 192 about (0, 0) and
    362 sides (the most a real map in the corpus has) of radius 256 about (1024, 0), both
    z 0..192."""
    w = [box(-320, -384, -16, 1344, 384, 0)]
    w.append(regular_prism(128, 192, 0, 0, 0, 192))
    w.append(regular_prism(362, 256, 1024, 0, 0, 192))
    write_map("many_sided.map", w, [start(512, -320)])


def far_slabs():
    """Slanted terrain about 4,000 units out: near (+4000, +4000) and (-4000, -4000) a 4 x 4
    patch of 128-unit cells, each split into two triangular prisms whose slanted tops pass
    through integer heights at the cell corners (bottoms at z = -64); near (+4000, -4000)
    thin slanted slabs (8 thick along z) of slopes 1:8, 1:2 and 1:1 along x, y and the
    diagonal.  A platform at the origin holds the start."""
    w = [box(-64, -64, -16, 64, 64, 0)]
    heights = [[(37 * i * i + 11 * j * j + 5 * i * j) % 97 for j in range(5)] for i in range(5)]
    for ox, oy in ((3840, 3840), (-4352, -4352)):
        for i in range(4):
            for j in range(4):
                x0, y0 = ox + 128 * i, oy + 128 * j
                c = [(x0 + 128 * a, y0 + 128 * b, heights[i + a][j + b]) for a in (0, 1) for b in (0, 1)]
                # corners: c[0] (0,0), c[1] (0,1), c[2] (1,0), c[3] (1,1); split along (0,0)-(1,1)
                for tri in ((c[0], c[2], c[3]), (c[0], c[3], c[1])):
                    (ax, ay, _), (bx, by, _), (qx, qy, _) = tri
                    planes = [tri]
                    for p, q in ((tri[0], tri[1]), (tri[1], tri[2]), (tri[2], tri[0])):
                        planes.append(((p[0], p[1], -64), (q[0], q[1], -64), (p[0], p[1], 0)))
                    planes.append(((ax, ay, -64), (bx, by, -64), (qx, qy, -64)))
                    interior = (F(ax + bx + qx, 3), F(ay + by + qy, 3), -32)
                    w.append(Brush(planes, interior))
    for k, (rise, run, d) in enumerate([(1, 8, "x"), (1, 2, "y"), (1, 1, "xy"), (1, 8, "xy")]):
        x0, y0 = 3840 + 160 * k, -4160
        x1, y1 = x0 + 128, y0 + 512
        def z(x, y, lift):
            if d == "x":
                t = x - x0
            elif d == "y":
                t = y - y0
            else:
                t = (x - x0) + (y - y0)
            return F(rise * t, run) + lift
        def top(lift):
            return tuple((x, y, z(x, y, lift)) for (x, y) in ((x0, y0), (x1, y0), (x0, y1)))
        planes = [
            top(0), top(-8),
            ((x0, y0, 0), (x0, y0 + 1, 0), (x0, y0, 1)),
            ((x1, y0, 0), (x1, y0 + 1, 0), (x1, y0, 1)),
            ((x0, y0, 0), (x0 + 1, y0, 0), (x0, y0, 1)),
            ((x0, y1, 0), (x0 + 1, y1, 0), (x0, y1, 1)),
        ]
        cx, cy = F(x0 + x1, 2), F(y0 + y1, 2)
        w.append(Brush(planes, (cx, cy, z(cx, cy, -4))))
    # Gentle slabs as terrain tools write them, each top through three of its corners:
    # 512 x 512, 16 thick, rising 1/1024 along x, 1/2048 along y and 1/1024 along x + y
    # (9.8e-4, 4.9e-4 and 9.8e-4 rad off level: 0.5, 0.25 and 1 unit over the slab).
    for k, (sx, sy) in enumerate([(F(1, 1024), 0), (0, F(1, 2048)), (F(1, 1024), F(1, 1024))]):
        x0, y0 = -4352 + 576 * k, 3840
        x1, y1 = x0 + 512, y0 + 512
        def h(x, y, lift):
            return 64 + sx * (x - x0) + sy * (y - y0) + lift
        def face(lift):
            return tuple((x, y, h(x, y, lift)) for (x, y) in ((x0, y0), (x1, y0), (x0, y1)))
        planes = [
            face(0), face(-16),
            ((x0, y0, 0), (x0, y0 + 1, 0), (x0, y0, 1)),
            ((x1, y0, 0), (x1, y0 + 1, 0), (x1, y0, 1)),
            ((x0, y0, 0), (x0 + 1, y0, 0), (x0, y0, 1)),
            ((x0, y1, 0), (x0 + 1, y1, 0), (x0, y1, 1)),
        ]
        w.append(Brush(planes, (x0 + 256, y0 + 256, h(x0 + 256, y0 + 256, -8))))
    write_map("far_slabs.map", w, [start(0, 0)])

def side_walls(x0, y0, x1, y1, zb, top, t):
    """The four walls, t thick, round the room x0..x1, y0..y1, from zb up to top."""
    return [
        box(x0 - t, y0 - t, zb, x0, y1 + t, top),
        box(x1, y0 - t, zb, x1 + t, y1 + t, top),
        box(x0, y0 - t, zb, x1, y0, top),
        box(x0, y1, zb, x1, y1 + t, top),
    ]


def floor_round_pit(x0, y0, x1, y1, pit, zb, depth):
    """A floor from zb up to 0 round the pit (px0, py0, px1, py1), whose sides are the floor
    boxes' inner faces, and the pit's bottom at -depth."""
    px0, py0, px1, py1 = pit
    return [
        box(x0, y0, zb, px0, y1, 0),
        box(px1, y0, zb, x1, y1, 0),
        box(px0, y0, zb, px1, py0, 0),
        box(px0, py1, zb, px1, y1, 0),
        box(px0, py0, zb, px1, py1, -depth),  # bottom
    ]


# ------------------------------------------------------- trigger maps (issue 14)
def hurt_pit():
    """A room whose floor has a pit 128 deep with a trigger_hurt volume over its bottom, and
    five spawn points round the pit, so seeded bots fall in within a few hundred ticks."""
    x0, y0, x1, y1, h, t = -512, -512, 512, 512, 256, 16
    px0, py0, px1, py1, depth = -192, -192, 192, 192, 128
    zb = -depth - t
    _, ce, _ = room(x0, y0, x1, y1, h)
    walls = side_walls(x0, y0, x1, y1, zb, h, t)
    # The floor is 144 thick round the pit, whose sides are the floor boxes' inner faces.
    floor = floor_round_pit(x0, y0, x1, y1, (px0, py0, px1, py1), zb, depth)
    ents = [
        start(-320, 0),
        start(320, 0, cls="info_player_deathmatch"),
        start(0, 320, cls="info_player_deathmatch"),
        start(0, -320, cls="info_player_deathmatch"),
        start(-320, -320, cls="info_player_deathmatch"),
        ([("classname", "trigger_hurt"), ("dmg", "999")],
         [box(px0, py0, -depth, px1, py1, -depth + 32, tex="trigger")]),
    ]
    write_map("hurt_pit.map", floor + [ce] + walls, ents)


# Quake 2 contents and surface flags (q_shared.h).
Q2_SOLID, Q2_WATER, Q2_LADDER, Q2_CURRENT_0 = 1, 0x20, 0x2000_0000, 0x4_0000
Q2_SLICK = 0x2


def movement():
    """Quake 2 room for movement-modes.md scenarios 46 on: a pool 128 deep with a deck 8
    above its surface, a ladder shaft to a 256-high balcony, a slick ramp, a 60° surf ramp
    and a jump pad (trigger_push) aimed at a target_position."""
    x0, y0, x1, y1, h, t = -1024, -512, 1024, 512, 512, 16
    px0, py0, px1, py1, depth = -896, -128, -640, 128, 128
    zb = -depth - t
    walls = side_walls(x0, y0, x1, y1, zb, h + t, t)
    walls.append(box(x0, y0, h, x1, y1, h + t))  # ceiling
    floor = floor_round_pit(x0, y0, x1, y1, (px0, py0, px1, py1), zb, depth)
    world = [q2(b) for b in walls + floor]
    # Water up to 8 below the deck.
    world.append(q2(box(px0, py0, -depth, px1, py1, -8, tex="e1u1/water"), Q2_WATER))
    # Ladder shaft: a ladder wall whose face is x = -384 (facing -x), 256 high, with a
    # balcony on top reaching back to x = -256.
    world.append(q2(box(-384, -64, 0, -256, 64, 256, tex="e1u1/ladder"), Q2_SOLID | Q2_LADDER))
    # Slick ramp rising along +x: 128 over 256 from x = -128, then a slick flat top to 256.
    world.append(q2(prism([(-128, 0), (128, 128), (128, 0)], "y", 256, 448, tex="e1u1/slick"),
                    Q2_SOLID, Q2_SLICK))
    world.append(q2(box(128, 256, 0, 256, 448, 128, tex="e1u1/slick"), Q2_SOLID, Q2_SLICK))
    # Surf ramp: 60° (rise 256 over run 148) rising along +x from x = 512, along y.
    world.append(q2(prism([(512, 0), (660, 256), (660, 0)], "y", -448, 448)))
    ents = [
        start(-512, -256),
        ([("classname", "trigger_push"), ("target", "pad_target"), ("speed", "1000")],
         [q2(box(832, -32, 0, 896, 32, 8, tex="e1u1/trigger"), 0x4000_0000)]),
        ([("classname", "target_position"), ("targetname", "pad_target"),
          ("origin", "864 -256 256")], []),
    ]
    write_map("movement.map", world, ents, game="Quake 2", fmt="Quake2 (Valve)")


def patch_arch():
    """Quake 3 curved patches: an arch, a quarter-pipe ramp, a hill, a non-solid and a
    player-clip curtain, a wrapped pillar, and a hump in a func_static."""
    fl, ce, walls = room(-768, -768, 768, 1024, 384)
    w = [fl, ce] + walls
    # The arch over y 256..320: a semicircle of radius 96 about the y axis, facing in.
    arch = [(-96, 0), (-96, 96), (0, 96), (96, 96), (96, 0)]
    w.append(Patch("arch", [[(x, y, z) for y in (256, 288, 320)] for (x, z) in arch]))
    # The quarter pipe: floor at x 384 curving up into a wall at x 512, facing up.
    pipe = [(384, 0), (512, 0), (512, 128)]
    w.append(Patch("ramp", [[(x, y, z) for y in (128, 0, -128)] for (x, z) in pipe]))
    # The hill: a bump 24 high over x -512..-256, y -128..128, facing up.
    hill = [[(x, y, 96 if (x, y) == (-384, 0) else 0) for y in (128, 0, -128)]
            for x in (-512, -384, -256)]
    w.append(Patch("hill", hill))
    # Curtains bulging in x across y -448..-320: one never solid, one player clip.
    for x0, tex in ((-128, "common/nodrawnonsolid"), (128, "common/clip")):
        curve = [(x0, -448), (x0 + 32, -384), (x0, -320)]
        w.append(Patch(tex, [[(x, y, z) for z in (128, 64, 0)] for (x, y) in curve]))
    # The pillar: a wrapped cylinder of radius 48 about (0, 640), facing out, its seam at
    # +x.
    r = 48
    ring = [(r, 0), (r, r), (0, r), (-r, r), (-r, 0), (-r, -r), (0, -r), (r, -r), (r, 0)]
    w.append(Patch("pillar", [[(x, 640 + y, z) for z in (128, 64, 0)] for (x, y) in ring]))
    hump = [[(x, y, 64 if (x, y) == (320, -448) else 0) for y in (-384, -448, -512)]
            for x in (256, 320, 384)]
    ents = [start(0, 0), ([("classname", "func_static")], [Patch("hump", hump)])]
    write_map("patch_arch.map", w, ents, game="Quake 3", fmt="Quake3 (Valve)")


# ------------------------------------------------- multiplayer maps (issue 17)
def crusher():
    """Movers that crush and push: a func_plat 128 square and 16 tall on the floor (top z 16)
    under a ceiling block whose underside is 104 above the plat's top, so a character riding
    it up 10 a move is carried four times and blocked the fifth (54 < 56); and a func_door
    slab, x 128..144, that a game slides +x towards a wall whose face is x = 240."""
    x0, y0, x1, y1, h = -512, -256, 512, 256, 256
    fl, ce, walls = room(x0, y0, x1, y1, h)
    world = [fl, ce] + walls
    world.append(box(-128, -128, 120, 128, 128, 136))  # the low ceiling over the plat
    world.append(box(240, -128, 0, 256, 128, 192))  # the wall the door pushes towards
    ents = [
        start(-384, 0),
        start(-384, 160, cls="info_player_deathmatch"),
        start(-384, -160, cls="info_player_deathmatch"),
        start(384, 160, cls="info_player_deathmatch"),
        ([("classname", "func_plat")], [box(-64, -64, 0, 64, 64, 16)]),
        ([("classname", "func_door"), ("angle", "0")], [box(128, -64, 0, 144, 64, 128)]),
    ]
    write_map("crusher.map", world, ents)


def trigger_room():
    """Quake 3's movement triggers in one room: a teleporter whose destination stands in a
    second teleporter (a chain), a thin jump pad and a fat one (trigger_push aimed at a
    target_position 256 above the pad's centre), and a thin trigger_multiple slab."""
    x0, y0, x1, y1, h = -1024, -512, 1024, 512, 512
    fl, ce, walls = room(x0, y0, x1, y1, h)

    def point(cls, name, origin, *extra):
        return ([("classname", cls), ("targetname", name), ("origin", origin)] + list(extra), [])

    def trigger(cls, brush, *extra):
        return ([("classname", cls)] + list(extra), [brush])

    ents = [
        start(-896, 0),
        start(-896, 256, cls="info_player_deathmatch"),
        start(-896, -256, cls="info_player_deathmatch"),
        start(896, 256, cls="info_player_deathmatch"),
        start(896, -256, cls="info_player_deathmatch"),
        # Teleporter A, centred on (-608, 0), to `a` at (0, 384) facing +x, which stands in
        # teleporter B, to `b` at (640, 384) facing -x.
        trigger("trigger_teleport", box(-640, -32, 0, -576, 32, 64, tex="trigger"), ("target", "a")),
        point("misc_teleporter_dest", "a", "0 384 24", ("angle", "0")),
        trigger("trigger_teleport", box(-32, 352, 0, 32, 416, 64, tex="trigger"), ("target", "b")),
        point("misc_teleporter_dest", "b", "640 384 24", ("angle", "180")),
        # Thin pad, centre (256, -256, 8), aimed 512 along +x and 256 up: (640, 0, 640).
        trigger("trigger_push", box(224, -288, 0, 288, -224, 16, tex="trigger"), ("target", "pad")),
        point("target_position", "pad", "768 -256 264"),
        # Fat pad, 64 tall, centre (-320, -256, 32), aimed straight up 256.
        trigger("trigger_push", box(-352, -288, 0, -288, -224, 64, tex="trigger"), ("target", "fat")),
        point("target_position", "fat", "-320 -256 288"),
        # A slab 8 thick across x 500..508.
        trigger("trigger_multiple", box(500, 96, 0, 508, 224, 128, tex="trigger")),
    ]
    write_map("trigger_room.map", [fl, ce] + walls, ents)


def many_triggers():
    """24 nested trigger_multiple boxes around the room's centre: a character walking along
    the x axis is inside all of them at once in the middle."""
    fl, ce, walls = room(-512, -256, 512, 256, 256)
    ents = [start(-448, 0)]
    for k in range(24):
        hx, hy, top = 96 + 12 * k, 48 + 8 * k, 64 + 8 * k
        ents.append(([("classname", "trigger_multiple")],
                     [box(-hx, -hy, 0, hx, hy, top, tex="trigger")]))
    write_map("many_triggers.map", [fl, ce] + walls, ents)


if __name__ == "__main__":
    many_triggers()
    crusher()
    trigger_room()
    movement()
    arena()
    stairs()
    slopes()
    corners()
    thin_walls()
    tiled_floor()
    low_ceiling()
    box_room()
    offaxis_faces()
    many_sided()
    far_slabs()
    hurt_pit()
    patch_arch()
