#!/usr/bin/env python3
"""Validate every maps/*.map file (Valve 220 / Quake standard), standard library only.

    python3 maps/check_maps.py            # all maps next to this script
    python3 maps/check_maps.py a.map ...  # selected files

Per brush: >= 4 faces, no zero-normal face, no duplicate plane, every plane
touches the brush (>= 3 vertices on it), vertices from plane triples (or, above
MANY_FACES faces, from each face's polygon clipped by the other planes) inside all
planes (1e-6), positive volume, closed and bounded (Euler V - E + F = 2), every
vertex behind every plane (outward normals).
Per map: prints brush and entity counts, the bounding box and solid-brush overlaps
(informational), and checks that every info_player_start / info_player_deathmatch
box (-16,-16,-24)..(16,16,32) is clear of solid brushes and stands on a floor
(the box moved down by 1 unit touches solid).
Solid = every brush except liquids (all faces '*...', or Quake 2 liquid contents without
the solid bit), trigger_* entities, and Quake 2 brushes whose first face has no triple and
names a hint, skip, clip or liquid texture (their defaults, src/game/q2_textures.rs).
Exit status 1 on any failure.
"""
import glob
import itertools
import math
import os
import sys

EPS = 1e-6
PLAYER_MINS = (-16.0, -16.0, -24.0)
PLAYER_MAXS = (16.0, 16.0, 32.0)
SPAWN_CLASSES = ("info_player_start", "info_player_deathmatch")


# ------------------------------------------------------------------ parsing
def tokenize(text):
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
        elif c == '"':
            j = i + 1
            buf = []
            while j < n and text[j] != '"':
                if text[j] == "\\" and j + 1 < n and text[j + 1] == '"':
                    buf.append('"')
                    j += 2
                    continue
                buf.append(text[j])
                j += 1
            if j >= n:
                raise ValueError("unterminated string")
            yield ("str", "".join(buf))
            i = j + 1
        elif c in "{}()[]":
            yield ("sym", c)
            i += 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in '"()[]':
                j += 1
            yield ("word", text[i:j])
            i = j


def parse_map(text):
    toks = list(tokenize(text))
    pos = 0

    def peek():
        return toks[pos] if pos < len(toks) else (None, None)

    def take(kind=None, val=None):
        nonlocal pos
        t = toks[pos]
        if kind and t[0] != kind or val is not None and t[1] != val:
            raise ValueError("expected %s %s, got %r" % (kind, val, t))
        pos += 1
        return t

    def num():
        t = take()
        if t[0] != "word":
            raise ValueError("expected number, got %r" % (t,))
        v = float(t[1])
        if not math.isfinite(v):
            raise ValueError("non-finite number %r" % t[1])
        return v

    entities = []
    while pos < len(toks):
        take("sym", "{")
        ent = {"kv": {}, "brushes": []}
        while True:
            t = peek()
            if t == ("sym", "}"):
                take()
                break
            if t[0] == "str":
                k = take()[1]
                v = take("str")[1]
                ent["kv"][k] = v
                continue
            take("sym", "{")
            if peek() in (("word", "patchDef2"), ("word", "patchDef3")):
                # A curved patch: no brush to check; skip its balanced block.
                take()
                depth = 0
                while True:
                    t = take()
                    if t == ("sym", "{"):
                        depth += 1
                    elif t == ("sym", "}"):
                        depth -= 1
                        if depth == 0:
                            break
                take("sym", "}")
                ent.setdefault("patches", 0)
                ent["patches"] += 1
                continue
            faces = []
            while peek() != ("sym", "}"):
                pts = []
                for _ in range(3):
                    take("sym", "(")
                    pts.append((num(), num(), num()))
                    take("sym", ")")
                tex = take()[1]
                if peek() == ("sym", "["):
                    for _ in range(2):
                        take("sym", "[")
                        for _ in range(4):
                            num()
                        take("sym", "]")
                    for _ in range(3):
                        num()
                    fmt = "valve"
                else:
                    for _ in range(5):
                        num()
                    fmt = "standard"
                triple = None
                if peek()[0] == "word":
                    # Quake 2's contents, flags and value.
                    triple = tuple(int(num()) for _ in range(3))
                faces.append({"pts": pts, "tex": tex, "fmt": fmt, "triple": triple})
            take("sym", "}")
            ent["brushes"].append(faces)
        entities.append(ent)
    return entities


# ------------------------------------------------------------------ geometry
def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def norm(a):
    return math.sqrt(dot(a, a))


def plane_of(pts):
    p0, p1, p2 = pts
    n = cross(sub(p0, p1), sub(p2, p1))
    ln = norm(n)
    if ln < 1e-12:
        return None
    n = (n[0] / ln, n[1] / ln, n[2] / ln)
    return n, dot(n, p1)


def solve3(planes):
    (n1, d1), (n2, d2), (n3, d3) = planes
    det = dot(n1, cross(n2, n3))
    if abs(det) < 1e-9:
        return None
    a = cross(n2, n3)
    b = cross(n3, n1)
    c = cross(n1, n2)
    return tuple((d1 * a[i] + d2 * b[i] + d3 * c[i]) / det for i in range(3))


# Brushes with more faces get their corners by clipping each face's polygon by the other
# planes (O(F^2)) instead of from every plane triple (O(F^3), minutes at 362 faces).
MANY_FACES = 32


def clipped_corners(planes):
    """The corners of each face's polygon: a huge square on its plane clipped by the others."""
    out = []
    big = 1 << 20
    for i, (n, d) in enumerate(planes):
        up = (1.0, 0.0, 0.0) if abs(n[2]) >= abs(n[0]) and abs(n[2]) >= abs(n[1]) else (0.0, 0.0, 1.0)
        k = dot(up, n)
        up = sub(up, tuple(c * k for c in n))
        up = tuple(c * big / norm(up) for c in up)
        right = cross(up, n)
        right = tuple(c * big / norm(right) for c in right)
        o = tuple(c * d for c in n)
        poly = [tuple(o[a] + su * right[a] + sv * up[a] for a in range(3))
                for (su, sv) in ((-1, 1), (1, 1), (1, -1), (-1, -1))]
        for j, (m, e) in enumerate(planes):
            if i == j or not poly:
                continue
            dist = [dot(m, p) - e for p in poly]
            new = []
            for a in range(len(poly)):
                b = (a + 1) % len(poly)
                if dist[a] <= EPS:
                    new.append(poly[a])
                if (dist[a] > EPS and dist[b] < -EPS) or (dist[a] < -EPS and dist[b] > EPS):
                    t = dist[a] / (dist[a] - dist[b])
                    new.append(tuple(poly[a][c] + (poly[b][c] - poly[a][c]) * t for c in range(3)))
            poly = new if len(new) >= 3 else []
        out.extend(poly)
    return out


class Poly:
    """A checked convex brush."""

    def __init__(self, planes, verts, face_verts, edges):
        self.planes = planes
        self.verts = verts
        self.face_verts = face_verts
        self.edges = edges
        self.mins = tuple(min(v[i] for v in verts) for i in range(3))
        self.maxs = tuple(max(v[i] for v in verts) for i in range(3))


def build_brush(faces, errs, where):
    planes = []
    for fi, f in enumerate(faces):
        pl = plane_of(f["pts"])
        if pl is None:
            errs.append("%s face %d: degenerate points (zero normal)" % (where, fi))
            return None
        n, d = pl
        for p in f["pts"]:  # trivially true, kept as a self-test of plane_of
            if abs(dot(n, p) - d) > EPS:
                errs.append("%s face %d: point off its plane" % (where, fi))
        for pj, (m, e) in enumerate(planes):
            if norm(sub(n, m)) < 1e-9 and abs(d - e) < EPS:
                errs.append("%s face %d: duplicate of face %d" % (where, fi, pj))
        planes.append((n, d))
    if len(planes) < 4:
        errs.append("%s: only %d faces" % (where, len(planes)))
        return None
    verts = []
    if len(planes) > MANY_FACES:
        candidates = clipped_corners(planes)
    else:
        candidates = (solve3([planes[i] for i in tri]) for tri in itertools.combinations(range(len(planes)), 3))
    for p in candidates:
        if p is None:
            continue
        if all(dot(n, p) - d <= EPS for (n, d) in planes):
            if not any(norm(sub(p, q)) < 1e-5 for q in verts):
                verts.append(p)
    if len(verts) < 4:
        errs.append("%s: empty or degenerate brush (%d vertices; inward normals?)" % (where, len(verts)))
        return None
    on = [[vi for vi, v in enumerate(verts) if abs(dot(n, v) - d) <= 1e-5] for (n, d) in planes]
    for fi, vs in enumerate(on):
        if len(vs) < 3:
            errs.append("%s face %d: plane does not touch the brush (%d vertices on it)" % (where, fi, len(vs)))
    # every vertex behind every plane (convexity / orientation)
    for (n, d) in planes:
        for v in verts:
            if dot(n, v) - d > EPS:
                errs.append("%s: vertex %r in front of a plane" % (where, v))
    # edges = plane pairs sharing >= 2 vertices
    edges = set()
    nedges = 0
    for a, b in itertools.combinations(range(len(planes)), 2):
        common = sorted(set(on[a]) & set(on[b]))
        if len(common) >= 2:
            # the two extreme vertices along the edge line
            dirv = cross(planes[a][0], planes[b][0])
            common.sort(key=lambda vi: dot(verts[vi], dirv))
            edges.add((common[0], common[-1]))
            nedges += 1
    nf = sum(1 for vs in on if len(vs) >= 3)
    if len(verts) - nedges + nf != 2:
        errs.append("%s: not a closed bounded polyhedron (V=%d E=%d F=%d)" % (where, len(verts), nedges, nf))
    # volume: faces as fans around their centroid, pyramids to the vertex centroid
    c = tuple(sum(v[i] for v in verts) / len(verts) for i in range(3))
    vol = 0.0
    for fi, vs in enumerate(on):
        if len(vs) < 3:
            continue
        n = planes[fi][0]
        fc = tuple(sum(verts[vi][i] for vi in vs) / len(vs) for i in range(3))
        u = sub(verts[vs[0]], fc)
        u = tuple(x / norm(u) for x in u)
        w = cross(n, u)
        ordered = sorted(vs, key=lambda vi: math.atan2(dot(sub(verts[vi], fc), w), dot(sub(verts[vi], fc), u)))
        area = 0.0
        for k in range(len(ordered)):
            a = sub(verts[ordered[k]], fc)
            b = sub(verts[ordered[(k + 1) % len(ordered)]], fc)
            area += dot(cross(a, b), n) / 2
        h = planes[fi][1] - dot(n, c)
        vol += area * h / 3
    if not vol > 1e-9:
        errs.append("%s: non-positive volume %g" % (where, vol))
    return Poly(planes, verts, on, edges)


# ------------------------------------------------------------------ overlap (SAT)
def box_poly(mins, maxs):
    verts = [(x, y, z) for x in (mins[0], maxs[0]) for y in (mins[1], maxs[1]) for z in (mins[2], maxs[2])]
    planes = [((-1.0, 0.0, 0.0), -mins[0]), ((1.0, 0.0, 0.0), maxs[0]),
              ((0.0, -1.0, 0.0), -mins[1]), ((0.0, 1.0, 0.0), maxs[1]),
              ((0.0, 0.0, -1.0), -mins[2]), ((0.0, 0.0, 1.0), maxs[2])]
    edges = set()
    for i, a in enumerate(verts):
        for j, b in enumerate(verts):
            if i < j and sum(1 for k in range(3) if a[k] != b[k]) == 1:
                edges.add((i, j))
    return Poly(planes, verts, None, edges)


def overlap_depth(p, q):
    """Minimum overlap over the SAT axes (<= 0: separated or only touching)."""
    for i in range(3):
        if p.maxs[i] <= q.mins[i] + EPS or q.maxs[i] <= p.mins[i] + EPS:
            return 0.0
    axes = [n for (n, _) in p.planes] + [n for (n, _) in q.planes]
    ep = [sub(p.verts[b], p.verts[a]) for (a, b) in p.edges]
    eq = [sub(q.verts[b], q.verts[a]) for (a, b) in q.edges]
    for a in ep:
        for b in eq:
            c = cross(a, b)
            lc = norm(c)
            if lc > 1e-9:
                axes.append((c[0] / lc, c[1] / lc, c[2] / lc))
    best = float("inf")
    for ax in axes:
        pa = [dot(ax, v) for v in p.verts]
        qa = [dot(ax, v) for v in q.verts]
        o = min(max(pa), max(qa)) - max(min(pa), min(qa))
        if o < best:
            best = o
            if best <= EPS:
                return 0.0
    return best


# ------------------------------------------------------------------ per map
def check_file(path):
    errs = []
    name = os.path.basename(path)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        ents = parse_map(text)
    except (ValueError, IndexError) as e:
        return ["%s: parse error: %s" % (name, e)]
    if not ents or ents[0]["kv"].get("classname") != "worldspawn":
        errs.append("%s: first entity is not worldspawn" % name)
    quake2 = "// Game: Quake 2" in text
    solids = []  # (label, Poly)
    allp = []
    nbrush = 0
    for ei, ent in enumerate(ents):
        cls = ent["kv"].get("classname", "")
        for bi, faces in enumerate(ent["brushes"]):
            nbrush += 1
            where = "%s entity %d (%s) brush %d" % (name, ei, cls, bi)
            p = build_brush(faces, errs, where)
            if p is None:
                continue
            allp.append(p)
            liquid = all(
                f["tex"].startswith("*")
                or (f["triple"] is not None and f["triple"][0] & 0x38 and not f["triple"][0] & 1)
                for f in faces
            )
            # Quake 2 (qbsp3): the first side decides; a bare face takes its texture's
            # defaults, and hint, skip, clip and the liquids are not solid to this check.
            first = faces[0]
            base = first["tex"].lower().rsplit("/", 1)[-1]
            q2_open = quake2 and first["triple"] is None and (
                base in ("hint", "skip", "clip", "clip_mon")
                or any(w in base for w in ("water", "lava", "slime"))
            )
            if not liquid and not q2_open and not cls.startswith("trigger_"):
                solids.append(("e%d/b%d(%s)" % (ei, bi, cls), p))
    if allp:
        mins = tuple(min(p.mins[i] for p in allp) for i in range(3))
        maxs = tuple(max(p.maxs[i] for p in allp) for i in range(3))
    else:
        mins = maxs = (0, 0, 0)
    overlaps = []
    for (la, pa), (lb, pb) in itertools.combinations(solids, 2):
        d = overlap_depth(pa, pb)
        if d > EPS:
            overlaps.append("%s x %s (depth %.3f)" % (la, lb, d))
    spawns = [e for e in ents if e["kv"].get("classname") in SPAWN_CLASSES]
    if not any(e["kv"].get("classname") == "info_player_start" for e in ents):
        errs.append("%s: no info_player_start" % name)
    for e in spawns:
        o = tuple(float(x) for x in e["kv"]["origin"].split())
        bmin = tuple(o[i] + PLAYER_MINS[i] for i in range(3))
        bmax = tuple(o[i] + PLAYER_MAXS[i] for i in range(3))
        b = box_poly(bmin, bmax)
        hit = [la for (la, p) in solids if overlap_depth(b, p) > EPS]
        if hit:
            errs.append("%s: %s at %r overlaps solid %s" % (name, e["kv"]["classname"], o, hit))
        down = box_poly((bmin[0], bmin[1], bmin[2] - 1.0), (bmax[0], bmax[1], bmin[2] + 0.5))
        if not any(overlap_depth(down, p) > EPS for (_, p) in solids):
            errs.append("%s: %s at %r is not standing on a floor (nothing within 1 unit below)"
                        % (name, e["kv"]["classname"], o))
    print("%-16s entities %3d  brushes %4d  bbox (%s)..(%s)  spawns %d  solid overlaps %d"
          % (name, len(ents), nbrush, " ".join("%g" % v for v in mins), " ".join("%g" % v for v in maxs),
             len(spawns), len(overlaps)))
    for ov in overlaps:
        print("    overlap: " + ov)
    return errs


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    files = argv[1:] or sorted(glob.glob(os.path.join(here, "*.map")))
    if not files:
        print("no .map files found")
        return 1
    allerrs = []
    for path in files:
        allerrs += check_file(path)
    for e in allerrs:
        print("FAIL: " + e)
    print("%d map(s), %s" % (len(files), "OK" if not allerrs else "%d error(s)" % len(allerrs)))
    return 1 if allerrs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
