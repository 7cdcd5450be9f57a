#!/usr/bin/env python3
"""Writes maps/mesh_room.obj: a closed room made of triangles (see maps/README.md).

The floor runs along x as a profile extruded over y 0..512: flat, four stairs up, flat,
a ramp down, a pool, flat. Side walls follow the profile, every piece shares its edge
vertices with its neighbours (watertight: no edge used once). Inside: a water surface over
the pool (both windings, `*water0`) and a free-standing one-sided wall (an open surface).
Faces are wound counter-clockwise seen from the air. Run from the repository's top.
"""

TOP = 256.0
Y1 = 512.0
# (x, z) points of the floor profile; a riser is two points with the same x.
PROFILE = [(0, 0), (256, 0)]
for k in range(4):
    x = 256 + 32 * k
    PROFILE += [(x, 16 * k + 16), (x + 32, 16 * k + 16)] if k else [(x, 16), (x + 32, 16)]
PROFILE += [(384, 64), (512, 64), (640, 0), (640, -64), (768, -64), (768, 0), (1024, 0)]
# Drop repeats.
pts = []
for p in PROFILE:
    p = (float(p[0]), float(p[1]))
    if not pts or pts[-1] != p:
        pts.append(p)

verts = []
faces = []  # (material, [indices])


def v(p):
    verts.append(p)
    return len(verts)


def poly(material, ps):
    """A convex polygon (counter-clockwise from the air) as a fan around its centre."""
    c = tuple(sum(p[i] for p in ps) / len(ps) for i in range(3))
    ci = v(c)
    ids = [v(p) for p in ps]
    for i in range(len(ids)):
        faces.append((material, [ci, ids[i], ids[(i + 1) % len(ids)]]))


def heights_at(x):
    return sorted({z for (px, z) in pts if px == x} | {TOP})


# Floor and risers (seen from above or from the lower side) and ceiling, per segment.
for (x0, z0), (x1, z1) in zip(pts, pts[1:]):
    if x0 == x1:
        # Riser: faces -x when going up (the lower floor is at smaller x), +x going down.
        lo, hi = min(z0, z1), max(z0, z1)
        if z1 > z0:
            poly("wall", [(x0, 0, lo), (x0, Y1, lo), (x0, Y1, hi), (x0, 0, hi)][::-1])
        else:
            poly("wall", [(x0, 0, lo), (x0, Y1, lo), (x0, Y1, hi), (x0, 0, hi)])
        continue
    poly("floor", [(x0, 0, z0), (x1, 0, z1), (x1, Y1, z1), (x0, Y1, z0)])
    poly("ceiling", [(x0, 0, TOP), (x0, Y1, TOP), (x1, Y1, TOP), (x1, 0, TOP)])
    # Side walls: the segment's column from the floor to the ceiling, holding every height
    # a riser at either end reaches (so its edges meet the risers' exactly).
    left = [z for z in heights_at(x0) if z >= z0]
    right = [z for z in heights_at(x1) if z >= z1]
    # y = 0, seen from +y: up the x0 edge, across the top, down the x1 edge is
    # counter-clockwise; y = 512, seen from -y, the reverse.
    ring = [(x0, 0.0, z) for z in left] + [(x1, 0.0, z) for z in reversed(right)]
    poly("wall", ring)
    ring = [(x0, Y1, z) for z in left] + [(x1, Y1, z) for z in reversed(right)]
    poly("wall", ring[::-1])
# End walls x = 0 (seen from +x) and x = 1024 (seen from -x).
x0, z0 = pts[0]
poly("wall", [(x0, 0, z0), (x0, Y1, z0), (x0, Y1, TOP), (x0, 0, TOP)])
x1, z1 = pts[-1]
poly("wall", [(x1, 0, z1), (x1, Y1, z1), (x1, Y1, TOP), (x1, 0, TOP)][::-1])
# The pool's water surface, both ways, and a free-standing one-sided wall facing -x.
water = [(640, 0, -8), (768, 0, -8), (768, Y1, -8), (640, Y1, -8)]
poly("*water0", water)
poly("*water0", water[::-1])
poly("wall", [(128, 128, 0), (128, 128, 128), (128, 384, 128), (128, 384, 0)])

with open("maps/mesh_room.obj", "w") as f:
    f.write("# maps/gen_mesh_room.py: a closed room of triangles, Z up, counter-clockwise from the air\n")
    for p in verts:
        f.write("v %g %g %g\n" % p)
    current = None
    for material, ids in faces:
        if material != current:
            f.write("usemtl %s\n" % material)
            current = material
        f.write("f %d %d %d\n" % tuple(ids))
