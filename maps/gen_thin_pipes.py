#!/usr/bin/env python3
"""Writes maps/thin_pipes.map: a sealed Quake 3 room with thin curved pipes (patchDef2), for
tests/it/thin_pipes.rs. Standard library only; described in maps/README.md."""

import math
import os

# A ring of 9 control points (4 quadratic pieces, wrapped) of radius r, as (a, b): a along
# the ring's first axis, b along its second.
def ring(r):
    return [(r, 0), (r, r), (0, r), (-r, r), (-r, 0), (-r, -r), (0, -r), (r, -r), (r, 0)]


def straight(start, axis, first, second, r, length):
    """Columns (around the ring) of rows (along the pipe: 3 rows) of a straight pipe."""
    cols = []
    for a, b in ring(r):
        col = []
        for t in (0.0, 0.5, 1.0):
            col.append(tuple(start[k] + axis[k] * length * t + first[k] * a + second[k] * b
                             for k in range(3)))
        cols.append(col)
    return cols


def bend(centre, e1, e2, normal, bend_radius, r, quarters):
    """A pipe bent about `centre` in the plane (e1, e2) by `quarters` quarter turns (2·q + 1
    rows), its ring in the plane (radial, normal): ring point (a, b) sits at bend radius
    R + a and height b, so each row's control points follow the quarter circles of radius
    R + a (exactly the torus's tensor construction with quadratic Béziers)."""
    dirs = [e1, e2, tuple(-x for x in e1), tuple(-x for x in e2), e1]
    cols = []
    for a, b in ring(r):
        rr = bend_radius + a
        col = []
        for q in range(quarters):
            d0, d1 = dirs[q], dirs[q + 1]
            pts = [d0, tuple(d0[k] + d1[k] for k in range(3)), d1]
            for m, d in enumerate(pts):
                if q > 0 and m == 0:
                    continue
                col.append(tuple(centre[k] + d[k] * rr + normal[k] * b for k in range(3)))
        cols.append(col)
    return cols


def outward(cols, axis_point_of):
    """Reverses the ring when the patch's front (S_v × S_u at the first piece's centre)
    faces the pipe's axis, so every pipe faces out, as a trim pipe does."""
    p = lambda i, j: cols[i][j]
    su = [p(2, 1)[k] - p(0, 1)[k] for k in range(3)]
    sv = [p(1, 2)[k] - p(1, 0)[k] for k in range(3)]
    n = [sv[1] * su[2] - sv[2] * su[1], sv[2] * su[0] - sv[0] * su[2], sv[0] * su[1] - sv[1] * su[0]]
    centre = p(1, 1)
    axis = axis_point_of(centre)
    out = [centre[k] - axis[k] for k in range(3)]
    if sum(n[k] * out[k] for k in range(3)) < 0:
        return cols[::-1]
    return cols


def fmt(x):
    if abs(x - round(x)) < 1e-9:
        return str(int(round(x)))
    return ("%.6f" % x).rstrip("0")


def patch_block(index, texture, cols):
    w, h = len(cols), len(cols[0])
    lines = ["// brush %d" % index, "{", "patchDef2", "{", texture, "( %d %d 0 0 0 )" % (w, h), "("]
    for i, col in enumerate(cols):
        pts = " ".join("( %s %s %s %s %s )" % (fmt(x), fmt(y), fmt(z), fmt(i / (w - 1)), fmt(j / (h - 1)))
                       for j, (x, y, z) in enumerate(col))
        lines.append("( %s )" % pts)
    lines += [")", "}", "}"]
    return lines


def box(index, lo, hi, tex_top="floor", tex_bottom="ceiling"):
    (x0, y0, z0), (x1, y1, z1) = lo, hi
    return [
        "// brush %d" % index,
        "{",
        "( %d %d %d ) ( %d %d %d ) ( %d %d %d ) wall [ 0 1 0 0 ] [ 0 0 -1 0 ] 0 1 1" % (x0, y0, z0, x0, y0 + 1, z0, x0, y0, z0 + 1),
        "( %d %d %d ) ( %d %d %d ) ( %d %d %d ) wall [ 1 0 0 0 ] [ 0 0 -1 0 ] 0 1 1" % (x0, y0, z0, x0, y0, z0 + 1, x0 + 1, y0, z0),
        "( %d %d %d ) ( %d %d %d ) ( %d %d %d ) %s [ 1 0 0 0 ] [ 0 -1 0 0 ] 0 1 1" % (x0, y0, z0, x0 + 1, y0, z0, x0, y0 + 1, z0, tex_bottom),
        "( %d %d %d ) ( %d %d %d ) ( %d %d %d ) %s [ 1 0 0 0 ] [ 0 -1 0 0 ] 0 1 1" % (x1, y1, z1, x1, y1 + 1, z1, x1 + 1, y1, z1, tex_top),
        "( %d %d %d ) ( %d %d %d ) ( %d %d %d ) wall [ 1 0 0 0 ] [ 0 0 -1 0 ] 0 1 1" % (x1, y1, z1, x1 + 1, y1, z1, x1, y1, z1 + 1),
        "( %d %d %d ) ( %d %d %d ) ( %d %d %d ) wall [ 0 1 0 0 ] [ 0 0 -1 0 ] 0 1 1" % (x1, y1, z1, x1, y1, z1 + 1, x1, y1 + 1, z1),
        "}",
    ]


X, Y, Z = (1, 0, 0), (0, 1, 0), (0, 0, 1)
NX, NY = (-1, 0, 0), (0, -1, 0)


def along(point, axis):
    """The nearest point of the line through `point`-projected axis (for straight pipes)."""
    return lambda start: lambda p: tuple(
        start[k] + axis[k] * sum((p[m] - start[m]) * axis[m] for m in range(3)) for k in range(3))


def around(centre, normal, bend_radius):
    """The nearest point of the bend's centre circle."""
    def f(p):
        d = [p[k] - centre[k] for k in range(3)]
        h = sum(d[k] * normal[k] for k in range(3))
        radial = [d[k] - normal[k] * h for k in range(3)]
        n = math.sqrt(sum(x * x for x in radial))
        return tuple(centre[k] + radial[k] / n * bend_radius for k in range(3))
    return f


def straight_axis(start, axis):
    return lambda p: tuple(
        start[k] + axis[k] * sum((p[m] - start[m]) * axis[m] for m in range(3)) for k in range(3))


PIPES = [
    # (texture, columns, axis function)
    ("pipe", straight((-256, -256, 64), Y, X, Z, 2, 512), straight_axis((-256, -256, 64), Y)),
    ("pipe", straight((-128, -256, 96), X, Y, Z, 4, 256), straight_axis((-128, -256, 96), X)),
    ("pipe", straight((256, 256, 32), Z, X, Y, 8, 128), straight_axis((256, 256, 32), Z)),
    ("pipe", bend((96, 96, 64), X, Y, Z, 32, 4, 1), around((96, 96, 64), Z, 32)),
    ("pipe", bend((-128, 192, 64), Z, X, Y, 8, 2, 1), around((-128, 192, 64), Y, 8)),
    ("pipe", bend((256, -192, 128), X, Y, Z, 8, 6, 2), around((256, -192, 128), Z, 8)),
    ("pipe", bend((-320, 320, 160), NX, NY, Z, 4, 3, 4), around((-320, 320, 160), Z, 4)),
]


def main():
    lines = ["// Game: Quake 3", "// Format: Quake3 (Valve)", "// entity 0", "{",
             '"mapversion" "220"', '"classname" "worldspawn"', '"wad" ""']
    lo, hi, t = (-512, -512, 0), (512, 512, 256), 16
    boxes = [
        ((lo[0] - t, lo[1] - t, lo[2] - t), (hi[0] + t, hi[1] + t, lo[2])),  # floor
        ((lo[0] - t, lo[1] - t, hi[2]), (hi[0] + t, hi[1] + t, hi[2] + t)),  # ceiling
        ((lo[0] - t, lo[1] - t, lo[2]), (lo[0], hi[1] + t, hi[2])),  # -x wall
        ((hi[0], lo[1] - t, lo[2]), (hi[0] + t, hi[1] + t, hi[2])),  # +x wall
        ((lo[0], lo[1] - t, lo[2]), (hi[0], lo[1], hi[2])),  # -y wall
        ((lo[0], hi[1], lo[2]), (hi[0], hi[1] + t, hi[2])),  # +y wall
    ]
    n = 0
    for a, b in boxes:
        lines += box(n, a, b)
        n += 1
    for texture, cols, axis in PIPES:
        lines += patch_block(n, texture, outward(cols, axis))
        n += 1
    lines += ["}", "// entity 1", "{", '"classname" "info_player_start"', '"origin" "0 0 24"', "}"]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "thin_pipes.map")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
