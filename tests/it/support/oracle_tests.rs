//! The oracle's own tests (`oracle.rs`): closed forms, separating axes and plane clipping
//! against its casts, distances and overlaps, on generated and real brushes. Kept apart from
//! `oracle.rs` so that `benches/oracle.rs` can include the oracle alone.

use std::time::Instant;

use glam::DVec3;
use planeshift::TraceShape;
use planeshift::brush::{Brush, brushes_from_map};
use planeshift::map::parse_map;

use super::oracle::{Oracle, OracleShape, TOUCH, from_parry, to_parry, y_to_z};
use crate::support::{Pcg32, bundled_maps, read, real_maps};

/// The solid world brushes of a map file.
fn world(path: &std::path::Path) -> Vec<Brush> {
    let map = parse_map(&read(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    brushes_from_map(&map)
        .brushes
        .into_iter()
        .filter(Brush::is_solid_world)
        .collect()
}

fn box_room() -> Oracle {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/box_room.map");
    let oracle = Oracle::new(&world(&path));
    assert_eq!(oracle.len(), 6);
    assert!(oracle.rejected().is_empty());
    oracle
}

fn v(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

#[track_caller]
fn assert_hit(got: Option<f64>, want: f64) {
    let got = got.unwrap_or_else(|| panic!("expected a hit at {want}, got none"));
    assert!((got - want).abs() <= 1e-9, "hit at {got}, expected {want}");
}

/// Quake 1's player box, in f64.
fn player() -> OracleShape {
    let (mins, maxs) = TraceShape::QUAKE1_PLAYER_BOUNDS;
    OracleShape::Box {
        mins: mins.as_dvec3(),
        maxs: maxs.as_dvec3(),
    }
}

#[test]
fn oracle_box_room_hand_cases() {
    let o = box_room();
    let (high, low, east) = (
        v(0.0, 0.0, 100.0),
        v(0.0, 0.0, -100.0),
        v(400.0, 0.0, 100.0),
    );
    let sphere = OracleShape::Sphere { radius: 16.0 };
    assert_hit(o.first_hit(&sphere, high, low), (100.0 - 16.0) / 200.0);
    assert_hit(o.first_hit(&sphere, high, east), (256.0 - 16.0) / 400.0);
    assert_hit(o.first_hit(&player(), high, low), (100.0 - 24.0) / 200.0);
    assert_hit(o.first_hit(&player(), high, east), (256.0 - 16.0) / 400.0);
    assert_hit(
        o.first_hit(&player(), high, v(0.0, 0.0, 400.0)),
        (256.0 - 132.0) / 300.0,
    );
    // Not centred: the box's +x face is 20 from the reference point.
    let lopsided = OracleShape::Box {
        mins: v(-4.0, -8.0, -30.0),
        maxs: v(20.0, 8.0, 2.0),
    };
    assert_hit(o.first_hit(&lopsided, high, east), (256.0 - 20.0) / 400.0);
    assert_hit(o.first_hit(&lopsided, high, low), (100.0 - 30.0) / 200.0);
    let cylinder = OracleShape::Cylinder {
        radius: 16.0,
        half_height: 28.0,
    };
    assert_hit(o.first_hit(&cylinder, high, low), (100.0 - 28.0) / 200.0);
    assert_hit(o.first_hit(&cylinder, high, east), (256.0 - 16.0) / 400.0);
    let capsule = OracleShape::Capsule {
        radius: 16.0,
        half_height: 20.0,
    };
    assert_hit(o.first_hit(&capsule, high, low), (100.0 - 36.0) / 200.0);
    assert_hit(o.first_hit(&capsule, high, east), (256.0 - 16.0) / 400.0);
    assert_hit(o.first_hit(&OracleShape::Point, high, low), 100.0 / 200.0);
    assert_hit(o.first_hit(&OracleShape::Point, high, east), 256.0 / 400.0);
    let tetra = OracleShape::Hull {
        points: vec![
            v(0.0, 0.0, -10.0),
            v(30.0, 0.0, 5.0),
            v(-5.0, 12.0, 5.0),
            v(-5.0, -12.0, 5.0),
        ],
    };
    assert_hit(o.first_hit(&tetra, high, low), (100.0 - 10.0) / 200.0);
    assert_hit(o.first_hit(&tetra, high, east), (256.0 - 30.0) / 400.0);
    // A flat hull (a square in the XY plane) is still exact.
    let flat = OracleShape::Hull {
        points: vec![
            v(-8.0, -8.0, 0.0),
            v(8.0, -8.0, 0.0),
            v(8.0, 8.0, 0.0),
            v(-8.0, 8.0, 0.0),
        ],
    };
    assert_hit(o.first_hit(&flat, high, east), (256.0 - 8.0) / 400.0);
    // Diagonal move into the corner region: the sphere hits the +x wall first.
    assert_hit(
        o.first_hit(&sphere, high, v(300.0, 150.0, 100.0)),
        (256.0 - 16.0) / 300.0,
    );

    // Misses: moves that stay inside the room.
    for shape in [
        &sphere,
        &player(),
        &cylinder,
        &capsule,
        &OracleShape::Point,
        &tetra,
    ] {
        assert_eq!(o.first_hit(shape, high, v(100.0, -50.0, 120.0)), None);
        assert_eq!(o.first_hit(shape, high, high), None, "{shape:?} not moving");
    }
    // Touching at the start is a hit at 0, whichever way the move goes.
    let resting = v(0.0, 0.0, 16.0);
    assert_eq!(o.first_hit(&sphere, resting, v(50.0, 0.0, 16.0)), Some(0.0));
    assert_eq!(o.first_hit(&sphere, resting, v(0.0, 0.0, 80.0)), Some(0.0));
    assert_eq!(o.first_hit(&sphere, resting, resting), Some(0.0));
    assert_eq!(
        o.first_hit(&player(), v(0.0, 0.0, 24.0), v(99.0, 0.0, 24.0)),
        Some(0.0)
    );
    assert_eq!(
        o.first_hit(&OracleShape::Point, v(5.0, 5.0, 0.0), high),
        Some(0.0)
    );
    // Ending exactly in contact is a hit at 1.
    assert_hit(o.first_hit(&sphere, high, resting), 1.0);

    // Overlap.
    assert!(o.overlaps(&sphere, v(0.0, 0.0, 10.0)));
    assert!(!o.overlaps(&sphere, v(0.0, 0.0, 20.0)));
    assert!(o.overlaps(&sphere, resting), "touching counts");
    assert!(!o.overlaps(&sphere, v(0.0, 0.0, 16.0 + 1e-6)));
    assert!(o.overlaps(&cylinder, v(0.0, 0.0, 27.0)));
    assert!(!o.overlaps(&cylinder, v(0.0, 0.0, 29.0)));
    assert!(o.overlaps(&cylinder, v(241.0, 0.0, 100.0)));
    assert!(!o.overlaps(&cylinder, v(239.0, 0.0, 100.0)));
    assert!(!o.overlaps(&player(), v(0.0, 0.0, 24.5)));
    assert!(o.overlaps(&player(), v(0.0, 0.0, 23.5)));
    assert!(o.overlaps(&OracleShape::Point, v(0.0, 0.0, -0.5)));
    assert!(!o.overlaps(&OracleShape::Point, v(0.0, 0.0, 0.5)));
    // A sphere in the corner of floor and walls, clear of each by 1 along the axes.
    assert!(!o.overlaps(&sphere, v(239.0, 239.0, 17.0)));

    // Distance.
    let d = o.distance(&sphere, v(0.0, 0.0, 50.0), 1000.0);
    assert!((d - 34.0).abs() <= 1e-9, "{d}");
    assert_eq!(o.distance(&sphere, v(0.0, 0.0, 50.0), 20.0), 20.0);
    assert_eq!(o.distance(&sphere, v(0.0, 0.0, 10.0), 20.0), 0.0);
    let d = o.distance(&player(), v(200.0, 0.0, 100.0), 1000.0);
    assert!((d - 40.0).abs() <= 1e-9, "{d}");
    let d = o.distance(&capsule, v(0.0, 0.0, 50.0), 1000.0);
    assert!((d - 14.0).abs() <= 1e-9, "{d}");
    let d = o.distance(&cylinder, v(0.0, 0.0, 128.0), 1000.0);
    assert!((d - 100.0).abs() <= 1e-6, "{d}");
    let d = o.distance(&OracleShape::Point, v(250.0, 0.0, 128.0), 1000.0);
    assert!((d - 6.0).abs() <= 1e-9, "{d}");
    // Towards an inner corner of floor and wall: sqrt(2) * 8 from both.
    let d = o.distance(&OracleShape::Point, v(248.0, 0.0, 8.0), 1000.0);
    assert!((d - 8.0).abs() <= 1e-9, "{d}");
}

#[test]
fn oracle_cylinder_stands_upright() {
    let r = y_to_z();
    let z = from_parry(r * to_parry(DVec3::Y));
    assert!((z - DVec3::Z).length() < 1e-15, "{z}");
    // A tall thin cylinder: lying down it would reach 100 along x or y, not z.
    let o = box_room();
    let pole = OracleShape::Cylinder {
        radius: 2.0,
        half_height: 100.0,
    };
    assert!(!o.overlaps(&pole, v(0.0, 0.0, 128.0)));
    assert!(!o.overlaps(&pole, v(250.0, 250.0, 128.0)));
    assert!(o.overlaps(&pole, v(0.0, 0.0, 99.0)));
    assert_hit(
        o.first_hit(&pole, v(0.0, 0.0, 128.0), v(0.0, 0.0, 0.0)),
        28.0 / 128.0,
    );
    assert_hit(
        o.first_hit(&pole, v(0.0, 0.0, 128.0), v(0.0, 400.0, 128.0)),
        254.0 / 400.0,
    );
    // The edge of the flat bottom reaches the floor/wall corner region before a round one would.
    let d = o.distance(&pole, v(250.0, 0.0, 128.0), 1000.0);
    assert!((d - 4.0).abs() <= 1e-6, "{d}");
}

/// Every map, bundled and real: the oracle represents every solid world brush.
#[test]
fn oracle_represents_every_brush() {
    let mut maps = bundled_maps();
    maps.extend(real_maps("oracle_represents_every_brush"));
    let (mut total, mut fallbacks) = (0, 0);
    for (name, path) in &maps {
        let brushes = world(path);
        let start = Instant::now();
        let o = Oracle::new(&brushes);
        println!(
            "{name}: {} brushes, {} represented, {} by hull fallback, {} rejected, {:.1} ms",
            brushes.len(),
            o.len(),
            o.hull_fallbacks(),
            o.rejected().len(),
            start.elapsed().as_secs_f64() * 1e3
        );
        for (i, why) in o.rejected().iter().zip(o.rejection_reasons()) {
            println!("  brush {i} ({:?}): {why}", brushes[*i].loc);
        }
        assert!(
            o.rejected().is_empty(),
            "{name}: rejected {:?}",
            o.rejected()
        );
        assert_eq!(o.len(), brushes.len());
        total += o.len();
        fallbacks += o.hull_fallbacks();
    }
    println!(
        "{} maps, {total} brushes, {fallbacks} hull fallbacks",
        maps.len()
    );
}

/// A segment's first entry into a brush grown by `grow` along every plane (negative
/// shrinks), by exact clipping against the brush planes.
fn point_reference(brushes: &[Brush], start: DVec3, end: DVec3, grow: f64) -> Option<f64> {
    let mut best: Option<f64> = None;
    'brushes: for b in brushes {
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for side in &b.sides {
            let f0 = side.plane.normal.dot(start) - side.plane.dist - grow;
            let f1 = side.plane.normal.dot(end) - side.plane.dist - grow;
            if f0 > 0.0 && f1 > 0.0 {
                continue 'brushes;
            }
            if f0 > 0.0 {
                t0 = t0.max(f0 / (f0 - f1));
            } else if f1 > 0.0 {
                t1 = t1.min(f0 / (f0 - f1));
            }
        }
        if t0 <= t1 && best.is_none_or(|t| t0 < t) {
            best = Some(t0);
        }
    }
    best
}

/// The corners of a box or the points of a hull, and candidate face normals and edge
/// directions (supersets are fine: every axis is a valid separating-axis candidate).
fn polytope(shape: &OracleShape) -> (Vec<DVec3>, Vec<DVec3>, Vec<DVec3>) {
    match shape {
        OracleShape::Box { mins, maxs } => {
            let mut pts = Vec::new();
            for i in 0..8 {
                pts.push(DVec3::new(
                    if i & 1 == 0 { mins.x } else { maxs.x },
                    if i & 2 == 0 { mins.y } else { maxs.y },
                    if i & 4 == 0 { mins.z } else { maxs.z },
                ));
            }
            let axes = vec![DVec3::X, DVec3::Y, DVec3::Z];
            (pts, axes.clone(), axes)
        }
        OracleShape::Hull { points } => {
            let mut normals = Vec::new();
            let mut edges = Vec::new();
            for i in 0..points.len() {
                for j in i + 1..points.len() {
                    if let Some(e) = (points[j] - points[i]).try_normalize() {
                        edges.push(e);
                    }
                    for k in j + 1..points.len() {
                        let n = (points[j] - points[i]).cross(points[k] - points[i]);
                        if let Some(n) = n.try_normalize() {
                            normals.push(n);
                        }
                    }
                }
            }
            (points.clone(), normals, edges)
        }
        _ => unreachable!("not a polytope"),
    }
}

/// First contact of a box or hull sweep with brushes grown by `grow` along every axis,
/// by the separating-axis theorem over time (exact for convex polytopes).
fn sat_reference(
    brushes: &[Brush],
    shape: &OracleShape,
    start: DVec3,
    end: DVec3,
    grow: f64,
) -> Option<f64> {
    let (pts, normals, edges) = polytope(shape);
    let motion = end - start;
    let mut best: Option<f64> = None;
    for b in brushes {
        let verts = b.vertices();
        let mut axes: Vec<DVec3> = b.sides.iter().map(|s| s.plane.normal).collect();
        axes.extend(&normals);
        for side in &b.sides {
            let w = &side.winding.points;
            for i in 0..w.len() {
                let be = w[(i + 1) % w.len()] - w[i];
                for se in &edges {
                    if let Some(n) = be.cross(*se).try_normalize() {
                        axes.push(n);
                    }
                }
            }
        }
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for n in axes {
            let (bmin, bmax) = verts
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |a, p| {
                    (a.0.min(n.dot(*p)), a.1.max(n.dot(*p)))
                });
            let (smin, smax) = pts.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |a, p| {
                (a.0.min(n.dot(start + *p)), a.1.max(n.dot(start + *p)))
            });
            let (bmin, bmax) = (bmin - grow, bmax + grow);
            let vn = n.dot(motion);
            // Overlap while smin + t vn <= bmax and smax + t vn >= bmin.
            if vn == 0.0 {
                if smin > bmax || smax < bmin {
                    t0 = 2.0;
                }
            } else if vn > 0.0 {
                t0 = t0.max((bmin - smax) / vn);
                t1 = t1.min((bmax - smin) / vn);
            } else {
                t0 = t0.max((bmax - smin) / vn);
                t1 = t1.min((bmin - smax) / vn);
            }
            if t0 > t1 {
                break;
            }
        }
        if t0 <= t1 && best.is_none_or(|t| t0 < t) {
            best = Some(t0);
        }
    }
    best
}

/// The shape grown (positive) or shrunk (negative) by `by` in every direction, near enough
/// for bracketing (growing contains the `by`-neighbourhood, shrinking stays inside the
/// shape); `None` for a point shrunk and for hulls, which the tests bracket otherwise.
fn resized(shape: &OracleShape, by: f64) -> Option<OracleShape> {
    Some(match shape {
        OracleShape::Point if by > 0.0 => OracleShape::Sphere { radius: by },
        OracleShape::Point | OracleShape::Hull { .. } => return None,
        OracleShape::Sphere { radius } => OracleShape::Sphere {
            radius: radius + by,
        },
        OracleShape::Cylinder {
            radius,
            half_height,
        } => OracleShape::Cylinder {
            radius: radius + by,
            half_height: half_height + by,
        },
        OracleShape::Capsule {
            radius,
            half_height,
        } => OracleShape::Capsule {
            radius: radius + by,
            half_height: *half_height,
        },
        OracleShape::Box { mins, maxs } => OracleShape::Box {
            mins: *mins - by,
            maxs: *maxs + by,
        },
    })
}

fn random_shape(rng: &mut Pcg32, kind: usize) -> OracleShape {
    let mut r = |lo: f64, hi: f64| rng.range_f64(lo, hi);
    match kind {
        0 => OracleShape::Point,
        1 => OracleShape::Sphere {
            radius: r(1.0, 32.0),
        },
        2 => OracleShape::Cylinder {
            radius: r(1.0, 32.0),
            half_height: r(1.0, 40.0),
        },
        3 => OracleShape::Capsule {
            radius: r(1.0, 32.0),
            half_height: r(0.0, 40.0),
        },
        4 => {
            let mins = DVec3::new(r(-32.0, -1.0), r(-32.0, -1.0), r(-40.0, -1.0));
            let maxs = DVec3::new(r(1.0, 32.0), r(1.0, 32.0), r(1.0, 40.0));
            OracleShape::Box { mins, maxs }
        }
        _ => {
            let n = 4 + (r(0.0, 7.0) as usize);
            let points = (0..n)
                .map(|_| DVec3::new(r(-24.0, 24.0), r(-24.0, 24.0), r(-32.0, 32.0)))
                .collect();
            OracleShape::Hull { points }
        }
    }
}

/// A start near a random brush and a move of up to 256 units, a third of them along an axis
/// and a third from integer coordinates (the degenerate cases of real levels).
fn random_move(rng: &mut Pcg32, brushes: &[Brush]) -> (DVec3, DVec3) {
    let b = &brushes[rng.below(brushes.len())];
    let (lo, hi) = (b.mins - 96.0, b.maxs + 96.0);
    let mut start = DVec3::new(
        rng.range_f64(lo.x, hi.x),
        rng.range_f64(lo.y, hi.y),
        rng.range_f64(lo.z, hi.z),
    );
    let mut motion = DVec3::new(
        rng.range_f64(-1.0, 1.0),
        rng.range_f64(-1.0, 1.0),
        rng.range_f64(-1.0, 1.0),
    ) * rng.range_f64(0.0, 256.0);
    match rng.below(3) {
        0 => {
            let axis = rng.below(3);
            let len = motion.length();
            motion = DVec3::ZERO;
            motion[axis] = if rng.below(2) == 0 { len } else { -len };
        }
        1 => {
            start = start.round();
            motion = motion.round();
        }
        _ => {}
    }
    (start, start + motion)
}

/// The brushes whose bounds meet the swept bounds of `shape` grown by 1: a cull for the
/// references, independent of the oracle's.
fn near(brushes: &[Brush], shape: &OracleShape, start: DVec3, end: DVec3) -> Vec<Brush> {
    let (lo, hi) = shape.local_bounds();
    let (slo, shi) = (start.min(end) + lo - 1.0, start.max(end) + hi + 1.0);
    brushes
        .iter()
        .filter(|b| b.mins.cmple(shi).all() && slo.cmple(b.maxs).all())
        .cloned()
        .collect()
}

/// Reference first contact by bisection of GJK distances over `brushes` (no casts).
fn bisect_reference(
    brushes: &[Brush],
    shape: &OracleShape,
    start: DVec3,
    end: DVec3,
) -> Option<f64> {
    let o = Oracle::new(brushes);
    let q = super::oracle::Query::new(shape);
    let pose = q.pose(start);
    let mut best: Option<f64> = None;
    for e in &o.entries {
        let t = if Oracle::brush_touches(&q, &pose, e) {
            Some(0.0)
        } else {
            Oracle::bisect_first_touch(&q, e, start, end - start)
        };
        if let Some(t) = t
            && best.is_none_or(|b| t < b)
        {
            best = Some(t);
        }
    }
    best
}

fn maps_for_random_tests(test: &str) -> Vec<(String, Vec<Brush>)> {
    let mut maps: Vec<(String, Vec<Brush>)> = bundled_maps()
        .iter()
        .map(|(n, p)| (n.clone(), world(p)))
        .collect();
    // Two real maps of different families, when present.
    for (name, path) in real_maps(test) {
        if name.ends_with("e1m2.map") || name.ends_with("kaos.map") {
            maps.push((name, world(&path)));
        }
    }
    maps
}

/// Bracket of the exact references (plane clipping, separating axes), in map units.
const EXACT_EPS: f64 = 1e-5;
/// Bracket of checks that go through GJK distances, which near contact are good to about
/// 1e-5 on long brushes (parry's GJK classifies tiny gaps either way).
const GJK_EPS: f64 = 1e-4;

/// The oracle's contact must come no earlier than the one of the shape (or brushes) grown
/// by a margin and no later than the one shrunk by it (`None` = never).
#[track_caller]
fn check_bracket(what: &str, got: Option<f64>, early: Option<f64>, late: Option<f64>) {
    let inf = |t: Option<f64>| t.unwrap_or(f64::INFINITY);
    assert!(
        inf(early) <= inf(got) + 1e-12 && inf(got) <= inf(late) + 1e-12,
        "{what}: oracle {got:?} outside [{early:?}, {late:?}]"
    );
}

/// Random sweeps of every shape on bundled and real maps, checked against references that
/// use no shape casts: plane clipping for points, the separating-axis theorem over time for
/// boxes and hulls, bisection of GJK distances for round shapes; and against the static
/// queries at the contact position.
#[test]
fn oracle_sweeps_match_references() {
    let mut rng = Pcg32::new(0x5eed_0ac1);
    let cases_per_kind = crate::support::cases(30, 60);
    let mut worst = [0.0f64; 6];
    let mut hits = [0usize; 6];
    let mut fallbacks = 0;
    for (name, brushes) in maps_for_random_tests("oracle_sweeps_match_references") {
        let o = Oracle::new(&brushes);
        for kind in 0..6 {
            for case in 0..cases_per_kind {
                let shape = random_shape(&mut rng, kind);
                let (start, end) = random_move(&mut rng, &brushes);
                let what = format!("{name} case {case}: {shape:?} {start} -> {end}");
                let got = o.first_hit(&shape, start, end);
                let near = near(&brushes, &shape, start, end);
                let (early, exact, late) = match kind {
                    0 => (
                        point_reference(&near, start, end, EXACT_EPS),
                        point_reference(&near, start, end, 0.0),
                        point_reference(&near, start, end, -EXACT_EPS),
                    ),
                    4 | 5 => (
                        sat_reference(&near, &shape, start, end, EXACT_EPS),
                        sat_reference(&near, &shape, start, end, 0.0),
                        sat_reference(&near, &shape, start, end, -EXACT_EPS),
                    ),
                    _ => (
                        bisect_reference(&near, &resized(&shape, GJK_EPS).unwrap(), start, end),
                        bisect_reference(&near, &shape, start, end),
                        bisect_reference(&near, &resized(&shape, -GJK_EPS).unwrap(), start, end),
                    ),
                };
                check_bracket(&what, got, early, late);
                if let (Some(a), Some(b)) = (got, exact) {
                    hits[kind] += 1;
                    worst[kind] = worst[kind].max((a - b).abs() * (end - start).length());
                }
                // At the contact, the shape touches: grown it overlaps, shrunk it does not.
                let Some(t) = got else { continue };
                let at = start + (end - start) * t;
                if let Some(grown) = resized(&shape, GJK_EPS) {
                    assert!(
                        o.overlaps(&grown, at),
                        "{what}: grown shape free at contact"
                    );
                }
                if t > 0.0
                    && let Some(shrunk) = resized(&shape, -GJK_EPS)
                {
                    assert!(
                        !o.overlaps(&shrunk, at),
                        "{what}: shrunk shape stuck at contact"
                    );
                }
                if kind == 0 {
                    assert!(near.iter().any(|b| b.contains(at, EXACT_EPS)), "{what}");
                    assert!(
                        t == 0.0 || !near.iter().any(|b| b.contains(at, -EXACT_EPS)),
                        "{what}: point inside at contact"
                    );
                }
            }
        }
        fallbacks += o.cast_fallbacks();
    }
    println!("hits per kind {hits:?}");
    println!("worst |oracle - reference| in map units per kind {worst:?}");
    println!("cast fallbacks: {fallbacks}");
    let continued = super::oracle::GJK_CONTINUED.load(std::sync::atomic::Ordering::Relaxed);
    println!("GJK distance runs continued past parry's limit (all tests so far): {continued}");
}

/// Overlap and distance agree with each other, with resized shapes and with an unculled
/// scan; points agree with the brush planes.
#[test]
fn oracle_overlap_and_distance_agree() {
    let mut rng = Pcg32::new(0x0d15_7a9c);
    let (mut overlapping, mut total) = (0, 0);
    for (name, brushes) in maps_for_random_tests("oracle_overlap_and_distance_agree") {
        let o = Oracle::new(&brushes);
        for kind in 0..6 {
            for case in 0..100 {
                let shape = random_shape(&mut rng, kind);
                let (at, _) = random_move(&mut rng, &brushes);
                let what = format!("{name} case {case}: {shape:?} at {at}");
                let overlaps = o.overlaps(&shape, at);
                let d = o.distance(&shape, at, 64.0);
                assert_eq!(overlaps, d <= TOUCH, "{what}: distance {d}");
                let q = super::oracle::Query::new(&shape);
                let pose = q.pose(at);
                let brute = o
                    .entries
                    .iter()
                    .map(|e| Oracle::brush_distance(&q, &pose, e))
                    .fold(64.0f64, f64::min);
                assert_eq!(d, brute, "{what}: culled {d} vs unculled {brute}");
                if kind == 0 {
                    let inside = |grow: f64| brushes.iter().any(|b| b.contains(at, grow));
                    assert!(!inside(-EXACT_EPS) || overlaps, "{what}");
                    assert!(inside(EXACT_EPS) || !overlaps, "{what}");
                }
                if let Some(grown) = resized(&shape, GJK_EPS) {
                    assert!(o.overlaps(&grown, at) || !overlaps, "{what}");
                    let dg = o.distance(&grown, at, 64.0);
                    assert!(dg <= d, "{what}: grown {dg} > {d}");
                    assert!(d >= 64.0 || dg >= d - 2.0 * GJK_EPS, "{what}: {dg} vs {d}");
                }
                if let Some(shrunk) = resized(&shape, -GJK_EPS) {
                    assert!(!o.overlaps(&shrunk, at) || overlaps, "{what}");
                }
                overlapping += usize::from(overlaps);
                total += 1;
            }
        }
    }
    println!("{overlapping} of {total} placements overlap");
}

/// The bounds of a brush that is an axis-aligned box, else `None`.
fn axial_box(b: &Brush) -> Option<(DVec3, DVec3)> {
    let axial = b.sides.len() == 6
        && b.sides.iter().all(|s| {
            let n = s.plane.normal.abs();
            n.max_element() == 1.0 && n.element_sum() == 1.0
        });
    axial.then_some((b.mins, b.maxs))
}

/// Signed distance from `p` to the box `lo..hi` (negative inside).
fn box_sd(p: DVec3, lo: DVec3, hi: DVec3) -> f64 {
    let out = (lo - p).max(p - hi);
    if out.max_element() > 0.0 {
        out.max(DVec3::ZERO).length()
    } else {
        out.max_element()
    }
}

/// Exact signed distance from `shape` with its reference point at `c` to the box `lo..hi`,
/// through the Minkowski sum of box and shape (exact for these shapes and boxes).
fn shape_box_sd(shape: &OracleShape, c: DVec3, lo: DVec3, hi: DVec3) -> f64 {
    match shape {
        OracleShape::Point => box_sd(c, lo, hi),
        OracleShape::Sphere { radius } => box_sd(c, lo, hi) - radius,
        OracleShape::Box { mins, maxs } => box_sd(c, lo - *maxs, hi - *mins),
        OracleShape::Capsule {
            radius,
            half_height,
        } => {
            let h = DVec3::new(0.0, 0.0, *half_height);
            box_sd(c, lo - h, hi + h) - radius
        }
        OracleShape::Cylinder {
            radius,
            half_height,
        } => {
            let out = (lo - c).max(c - hi);
            let (ox, oy) = (out.x, out.y);
            let dxy = if ox > 0.0 || oy > 0.0 {
                ox.max(0.0).hypot(oy.max(0.0))
            } else {
                ox.max(oy)
            } - radius;
            let dz = out.z - half_height;
            if dxy <= 0.0 && dz <= 0.0 {
                dxy.max(dz)
            } else {
                dxy.max(0.0).hypot(dz.max(0.0))
            }
        }
        OracleShape::Hull { .. } => unreachable!("no closed form"),
    }
}

/// First fraction at which the (convex in t) signed distance `sd` drops to `level`.
fn first_at_most(sd: impl Fn(f64) -> f64, level: f64) -> Option<f64> {
    if sd(0.0) <= level {
        return Some(0.0);
    }
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (0.0f64, 1.0f64);
    let mut inside = (sd(1.0) <= level).then_some(1.0);
    let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
    let (mut fc, mut fd) = (sd(c), sd(d));
    for _ in 0..200 {
        if inside.is_some() || b - a <= 1e-15 {
            break;
        }
        if fc <= level {
            inside = Some(c);
        } else if fd <= level {
            inside = Some(d);
        } else if fc < fd {
            (b, d, fd) = (d, c, fc);
            c = b - g * (b - a);
            fc = sd(c);
        } else {
            (a, c, fc) = (c, d, fd);
            d = a + g * (b - a);
            fd = sd(d);
        }
    }
    let (mut lo, mut hi) = (0.0f64, inside?);
    while lo < hi {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if sd(mid) <= level {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// Against brushes that are axis-aligned boxes, where every shape but the hull has a closed
/// form: sweeps, overlaps and distances of the oracle against exact signed distances.
#[test]
fn oracle_matches_closed_forms_on_axial_boxes() {
    let mut rng = Pcg32::new(0xa1a1_b0c5);
    let mut worst_hit = [0.0f64; 5];
    let mut worst_dist = [0.0f64; 5];
    let mut hits = [0usize; 5];
    let mut boxes_total = 0;
    for (name, brushes) in maps_for_random_tests("oracle_matches_closed_forms_on_axial_boxes") {
        let boxes: Vec<Brush> = brushes
            .iter()
            .filter(|b| axial_box(b).is_some())
            .cloned()
            .collect();
        if boxes.is_empty() {
            continue;
        }
        boxes_total += boxes.len();
        let bounds: Vec<(DVec3, DVec3)> = boxes.iter().filter_map(axial_box).collect();
        let o = Oracle::new(&boxes);
        for kind in 0..5 {
            for case in 0..80 {
                let shape = random_shape(&mut rng, kind);
                let (start, end) = random_move(&mut rng, &boxes);
                let what = format!("{name} case {case}: {shape:?} {start} -> {end}");
                let (lo, hi) = shape.local_bounds();
                let (slo, shi) = (start.min(end) + lo - 65.0, start.max(end) + hi + 65.0);
                let bounds: Vec<(DVec3, DVec3)> = bounds
                    .iter()
                    .filter(|(bl, bh)| bl.cmple(shi).all() && slo.cmple(*bh).all())
                    .copied()
                    .collect();
                let sd = |t: f64| {
                    let c = start + (end - start) * t;
                    bounds
                        .iter()
                        .map(|(lo, hi)| shape_box_sd(&shape, c, *lo, *hi))
                        .fold(f64::INFINITY, f64::min)
                };
                // The minimum over boxes of convex functions is not convex: take the
                // earliest contact over boxes, each convex on its own.
                let first = |level: f64| {
                    bounds
                        .iter()
                        .filter_map(|(lo, hi)| {
                            first_at_most(
                                |t| shape_box_sd(&shape, start + (end - start) * t, *lo, *hi),
                                level,
                            )
                        })
                        .reduce(f64::min)
                };
                let got = o.first_hit(&shape, start, end);
                let exact = first(0.0);
                check_bracket(&what, got, first(EXACT_EPS), first(-EXACT_EPS));
                if let (Some(a), Some(b)) = (got, exact) {
                    hits[kind] += 1;
                    worst_hit[kind] = worst_hit[kind].max((a - b).abs() * (end - start).length());
                }
                let d0 = sd(0.0);
                let got_d = o.distance(&shape, start, 64.0);
                let want_d = d0.clamp(0.0, 64.0);
                worst_dist[kind] = worst_dist[kind].max((got_d - want_d).abs());
                assert!(
                    (got_d - want_d).abs() <= GJK_EPS,
                    "{what}: distance {got_d} vs {want_d}"
                );
                let overlaps = o.overlaps(&shape, start);
                assert!(d0 > -GJK_EPS || overlaps, "{what}: sd {d0} but free");
                assert!(d0 < GJK_EPS || !overlaps, "{what}: sd {d0} but overlapping");
            }
        }
    }
    println!("{boxes_total} axial box brushes; hits per kind {hits:?}");
    println!("worst sweep error (map units) per kind {worst_hit:?}");
    println!("worst distance error (map units) per kind {worst_dist:?}");
}
