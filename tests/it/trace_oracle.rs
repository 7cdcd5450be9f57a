//! Sweeps against the exact oracle (parry3d-f64, `support::oracle`): never end inside,
//! never later than the exact first contact, never a stop in open space (no contact along
//! the sweep and more than 2 × the stop distance from solid), clearance at the stop (boxes
//! and points on every hit; the 99th percentile of every kind within 2 × the stop distance,
//! issue 13), and no ghost hits on tiled floors and walls. Distributions are printed per
//! shape kind. The issue 13 regressions (faces a little off an axis, many-sided brushes,
//! far slanted terrain) run on their hand-made maps.

use glam::{DVec3, Vec3};
use planeshift::CompiledMap;
use planeshift::Contents;
use planeshift::brush::Brush;
use planeshift::map::parse_map;
use planeshift::tolerance::SURFACE_CLIP_EPSILON;
use planeshift::{Trace, TraceShape, query::ShapeKind};

use crate::support::oracle::{Oracle, OracleShape};
use crate::support::{Pcg32, bundled_maps, compile, read, real_maps};
use crate::trace::{KINDS, ShapeParams, random_sweep};

pub(crate) fn oracle_shape(params: &ShapeParams) -> OracleShape {
    let d = |v: Vec3| v.as_dvec3();
    match params {
        ShapeParams::Point => OracleShape::Point,
        ShapeParams::Sphere(r) => OracleShape::Sphere {
            radius: f64::from(*r),
        },
        ShapeParams::Cylinder(r, h) => OracleShape::Cylinder {
            radius: f64::from(*r),
            half_height: f64::from(*h),
        },
        ShapeParams::Capsule(r, h) => OracleShape::Capsule {
            radius: f64::from(*r),
            half_height: f64::from(*h),
        },
        ShapeParams::Box(lo, hi) => OracleShape::Box {
            mins: d(*lo),
            maxs: d(*hi),
        },
        ShapeParams::Hull(points) => OracleShape::Hull {
            points: points.iter().map(|p| d(*p)).collect(),
        },
    }
}

/// The radius of the largest ball about the reference point inside the shape.
fn inradius(params: &ShapeParams) -> f64 {
    f64::from(match params {
        ShapeParams::Point | ShapeParams::Hull(_) => 0.0,
        ShapeParams::Sphere(r) | ShapeParams::Capsule(r, _) => *r,
        ShapeParams::Cylinder(r, h) => r.min(*h),
        ShapeParams::Box(lo, hi) => (-*lo).min(*hi).min_element().max(0.0),
    })
}

/// The solid brushes a world sweep clips: the world's and its static models'.
fn solid_world(src: &[u8]) -> Vec<Brush> {
    crate::support::world_sweep_brushes(src)
        .into_iter()
        .filter(|b| b.solid)
        .collect()
}

/// Clearances at the stop, per shape kind, as (clearance, allowed) pairs.
#[derive(Default)]
struct Clearances {
    by_kind: Vec<(ShapeKind, Vec<(f64, f64)>)>,
}

impl Clearances {
    fn push(&mut self, kind: ShapeKind, clearance: f64, allowed: f64) {
        match self.by_kind.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, v)) => v.push((clearance, allowed)),
            None => self.by_kind.push((kind, vec![(clearance, allowed)])),
        }
    }

    /// Prints each kind's distribution and returns the kinds whose 99th percentile of
    /// (clearance − allowed) is positive.
    fn report(&mut self, label: &str) -> Vec<String> {
        let mut failures = Vec::new();
        for (kind, values) in &mut self.by_kind {
            let mut clear: Vec<f64> = values.iter().map(|(c, _)| *c).collect();
            clear.sort_by(f64::total_cmp);
            let mut excess: Vec<f64> = values.iter().map(|(c, a)| c - a).collect();
            excess.sort_by(f64::total_cmp);
            let at = |v: &[f64], q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
            println!(
                "{label} {:8} hits {:6}  clearance p50 {:.4}  p90 {:.4}  p99 {:.4}  max {:.4}  (p99 of clearance - allowed: {:+.4})",
                kind.name(),
                clear.len(),
                at(&clear, 0.5),
                at(&clear, 0.9),
                at(&clear, 0.99),
                at(&clear, 1.0),
                at(&excess, 0.99)
            );
            if at(&excess, 0.99) > 0.0 {
                failures.push(format!(
                    "{label} {}: p99 clearance above its bound",
                    kind.name()
                ));
            }
        }
        failures
    }
}

/// Runs `cases` random sweeps per shape kind on one map against the oracle, checking the
/// hard properties per case and collecting clearances.
fn check_map(name: &str, src: &[u8], cases: usize, clearances: &mut Clearances) -> usize {
    let map: CompiledMap = compile(src).map;
    let oracle = Oracle::new(&solid_world(src));
    // The largest reach of the world's brushes: a sweep's shifted planes block only within
    // κ·R of a brush (`brush::reach`), so the reference point stops within κ·R of it.
    let kappa = map.models()[0]
        .brush_range()
        .map(|b| f64::from(map.brush_reach(b).expect("a world brush")))
        .fold(1.0, f64::max);
    let mut rng = Pcg32::new(43);
    let mut checked = 0;
    for kind in KINDS {
        for _ in 0..cases {
            let params = ShapeParams::random(&mut rng, kind);
            let (shape, exact) = (params.shape(), oracle_shape(&params));
            let (start, end) = random_sweep(&mut rng, &map, 256.0);
            let t = map.trace(&shape, start, end, Contents::MASK_ANY_BLOCKING);
            checked += 1;
            if t.start_solid {
                continue;
            }
            let label = format!("{name} {kind:?} {params:?}");
            let first_contact = never_inside_never_late(&oracle, &exact, &t, (start, end), &label);
            if t.hit() {
                let clearance = oracle.distance(&exact, t.end.as_dvec3(), 64.0);
                let stop = f64::from(SURFACE_CLIP_EPSILON);
                // Issue 13: never a stop in open space. A sweep may stop where it comes within
                // the stop distance of a corner it would graze (Quake's skin), so without any
                // exact contact along the whole sweep a stop is allowed up to 2 × stop distance
                // from the nearest solid.
                assert!(
                    first_contact.is_some() || clearance <= 2.0 * stop,
                    "{name} {kind:?} {params:?} {start}->{end}: stopped in open space, clearance {clearance}, no contact along the sweep"
                );
                // Issue 13: the 99th percentile of every kind within 2 × the stop distance.
                let allowed = 2.0 * stop;
                if matches!(kind, ShapeKind::Box | ShapeKind::Point) {
                    // Boxes and points are exact: every hit, not just 99 % of them.
                    assert!(
                        clearance <= allowed + 1e-3,
                        "{name} {kind:?} {params:?} {start}->{end}: clearance {clearance}"
                    );
                }
                // Every shape: the reference point stops within κ·R of the brush, and the shape
                // reaches its inradius closer. The stop distance is kept along the entered
                // plane's normal, so a sweep crossing near an edge at a glancing angle stops up
                // to stop / sin(θ/2) from it (θ the edge's dihedral angle): a point stopped
                // 0.057 from a 66° edge on `e2m2.map`; the issue's 2 × stop distance covers
                // edges down to 60°.
                let over_reach = kappa * f64::from(shape.radius()) - inradius(&params) + stop;
                let bound = over_reach.max(2.0 * stop) + 1e-3;
                assert!(
                    clearance <= bound,
                    "{name} {kind:?} {params:?} {start}->{end}: clearance {clearance} beyond κ·R − inradius = {bound} (κ {kappa})"
                );
                clearances.push(kind, clearance, allowed);
            }
        }
    }
    checked
}

/// The two hard properties of a sweep `t` from `start` to `end` that did not start solid,
/// against the exact `oracle`: it never ends inside, and it never stops later than the exact
/// first contact (unless touching at the start, where a sweep moving away is rightly free).
/// Gives the exact first contact along the sweep, as a fraction, if any.
pub(crate) fn never_inside_never_late(
    oracle: &Oracle,
    exact: &OracleShape,
    t: &Trace,
    (start, end): (Vec3, Vec3),
    label: &str,
) -> Option<f64> {
    let (s, e) = (start.as_dvec3(), end.as_dvec3());
    assert!(
        !exact_overlaps(oracle, exact, t.end.as_dvec3()),
        "{label} {start}->{end}: ends inside at {}",
        t.end
    );
    let length = (e - s).length();
    let first_contact = oracle.first_hit(exact, s, e);
    if let Some(first) = first_contact
        && (first > 0.0 || !oracle.overlaps(exact, s))
    {
        let ours = f64::from(t.fraction) * length;
        assert!(
            ours <= first * length + 1e-2,
            "{label} {start}->{end}: stops at {ours}, exact contact at {}",
            first * length
        );
    }
    first_contact
}

/// Overlap beyond a hair: the oracle's touch test, at a point moved a hundredth of the stop
/// distance back would be stricter than f32 end positions allow.
pub(crate) fn exact_overlaps(oracle: &Oracle, shape: &OracleShape, at: DVec3) -> bool {
    oracle.overlaps(shape, at) && oracle.distance(shape, at, 1.0) <= 0.0
}

/// The hand-made maps of issue 13 (exactness on every brush), reported apart as well.
const ISSUE_13_MAPS: [&str; 3] = ["far_slabs.map", "many_sided.map", "offaxis_faces.map"];

#[test]
fn sweeps_against_the_exact_oracle_on_hand_made_maps() {
    let (mut clearances, mut issue_13) = (Clearances::default(), Clearances::default());
    let mut checked = 0;
    for (name, path) in bundled_maps() {
        let src = read(&path);
        checked += check_map(&name, &src, 2200, &mut clearances);
        if ISSUE_13_MAPS.contains(&name.as_str()) {
            check_map(&name, &src, 2200, &mut issue_13);
        }
    }
    println!("hand-made maps: {checked} sweeps checked against the oracle");
    assert!(checked >= 10_000);
    let mut failures = clearances.report("hand-made");
    failures.extend(issue_13.report("issue-13 maps"));
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn sweeps_against_the_exact_oracle_on_real_maps() {
    let maps = real_maps("sweeps_against_the_exact_oracle_on_real_maps");
    if maps.is_empty() {
        return;
    }
    let mut clearances = Clearances::default();
    let mut checked = 0;
    for (name, path) in &maps {
        checked += check_map(name, &read(path), 850, &mut clearances);
    }
    println!("real maps: {checked} sweeps checked against the oracle");
    assert!(checked >= 10_000);
    let failures = clearances.report("real");
    // Issue 13's bound on the 99th percentile of the clearance: 2 × the stop distance for
    // every kind (points and boxes also per hit above). Spheres, cylinders, capsules and
    // hulls are refined exactly (`rounded`) on every brush. Every shape also stays within its
    // proven over-reach (κ·R − inradius, at least 2 × stop distance), asserted per hit.
    assert!(failures.is_empty(), "{failures:?}");
}

/// Slides of `shape` 0.25 above the tiled floor of `tiled_floor.map` (256 brushes, tops at
/// z = 0, x and y in 0..1024) and 0.25 off its north wall of 8 coplanar brushes (face
/// y = 1024): none may stop.
#[test]
fn no_ghost_hits_on_tiled_floors_and_coplanar_walls() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/tiled_floor.map");
    let map = compile(&read(&path)).map;
    let mut rng = Pcg32::new(47);
    let (mut slides, mut stops) = (0, Vec::new());
    for i in 0..12_000 {
        let params = ShapeParams::random(&mut rng, KINDS[i % KINDS.len()]);
        let shape: TraceShape = params.shape();
        let below = shape.support_distance(-Vec3::Z);
        let (lo, hi) = shape.bounds();
        let margin = hi.max(-lo).max_element() + 2.0;
        let along_wall = i % 3 == 0;
        let (start, end) = if along_wall {
            // Parallel to the wall face y = 1024, 0.25 from it and 0.25 above the floor.
            let y = 1024.0 - 0.25 - shape.support_distance(Vec3::Y);
            let x0 = margin + rng.range_f64(0.0, 200.0) as f32;
            let x1 = 1024.0 - margin - rng.range_f64(0.0, 200.0) as f32;
            let z = 0.25 + below;
            (Vec3::new(x0, y, z), Vec3::new(x1, y, z))
        } else {
            let z = 0.25 + below;
            let p = |rng: &mut Pcg32| {
                rng.range_f64(f64::from(margin), f64::from(1000.0 - margin)) as f32
            };
            (
                Vec3::new(p(&mut rng), p(&mut rng), z),
                Vec3::new(p(&mut rng), p(&mut rng), z),
            )
        };
        let t = map.trace(&shape, start, end, Contents::MASK_ANY_BLOCKING);
        slides += 1;
        if t.hit() {
            stops.push(format!(
                "{params:?} {start}->{end}: stopped at {} ({:?})",
                t.fraction, t.normal
            ));
        }
    }
    println!("ghost hits: {} stops in {slides} slides", stops.len());
    assert!(
        stops.is_empty(),
        "{} stops, first: {:?}",
        stops.len(),
        &stops[..stops.len().min(3)]
    );
}

#[test]
fn no_ghost_hits_on_real_map_floors() {
    let maps = real_maps("no_ghost_hits_on_real_map_floors");
    let (mut slides, mut stops, mut skin_stops) = (0usize, Vec::new(), 0usize);
    for (name, path) in &maps {
        let src = read(path);
        let brushes = solid_world(&src);
        let map = compile(&src).map;
        let oracle = Oracle::new(&brushes);
        // Floors: upward axial faces of solid world brushes.
        let floors: Vec<(f64, &Brush)> = brushes
            .iter()
            .filter(|b| (b.maxs.x - b.mins.x) >= 64.0 && (b.maxs.y - b.mins.y) >= 64.0)
            .filter_map(|b| {
                b.sides
                    .iter()
                    .find(|s| s.plane.normal == DVec3::Z)
                    .map(|s| (s.plane.dist, b))
            })
            .collect();
        if floors.is_empty() {
            continue;
        }
        let mut rng = Pcg32::new(53);
        let mut tries = 0;
        let target = 12_000 / maps.len() + 1;
        let mut made = 0;
        while made < target && tries < target * 200 {
            tries += 1;
            let (top, floor) = floors[rng.below(floors.len())];
            let params = ShapeParams::random(&mut rng, KINDS[tries % KINDS.len()]);
            let label = match &params {
                ShapeParams::Point => " Point ".to_owned(),
                other => format!(" {other:?}"),
            };
            let (shape, exact) = (params.shape(), oracle_shape(&params));
            let z = (top + 0.25) as f32 + shape.support_distance(-Vec3::Z);
            let pick = |rng: &mut Pcg32| {
                Vec3::new(
                    rng.range_f64(floor.mins.x, floor.maxs.x) as f32,
                    rng.range_f64(floor.mins.y, floor.maxs.y) as f32,
                    z,
                )
            };
            let (start, end) = (pick(&mut rng), pick(&mut rng));
            // Only slides that the exact oracle calls free, with a corridor clear of everything
            // but the floor by more than any corner over-reach (R + 1): a stop there is a ghost.
            let clear = f64::from(shape.radius()) + 1.0;
            let (s, e) = (start.as_dvec3(), end.as_dvec3());
            let lift = DVec3::Z * clear;
            let ok = oracle.first_hit(&exact, s, e).is_none()
                && oracle.distance(&exact, s, 0.3) >= 0.24
                && oracle
                    .first_hit(&inflated(&exact, clear), s + lift, e + lift)
                    .is_none();
            if !ok {
                continue;
            }
            made += 1;
            slides += 1;
            let t = map.trace(&shape, start, end, Contents::MASK_ANY_BLOCKING);
            if t.hit() {
                // A slide may stop where it passes within the stop distance of solid it does
                // not touch (Quake's skin: a gentle slope just above the floor); a stop
                // farther than 2 × the stop distance from all solid is a ghost.
                let clearance = oracle.distance(&exact, t.end.as_dvec3(), 1.0);
                if clearance <= 2.0 * f64::from(SURFACE_CLIP_EPSILON) {
                    skin_stops += 1;
                    continue;
                }
                stops.push(format!(
                    "{name}{label} {start}->{end}: stopped at {} ({:?}), clearance {clearance}",
                    t.fraction, t.normal
                ));
            }
        }
    }
    println!(
        "real-map floor slides: {slides}, ghost stops: {}, stops within the stop distance's skin: {skin_stops}",
        stops.len()
    );
    for stop in &stops {
        println!("  {stop}");
    }
    assert!(
        stops.is_empty(),
        "{} stops, first: {:?}",
        stops.len(),
        &stops[..stops.len().min(3)]
    );
    if !maps.is_empty() {
        assert!(slides >= 10_000, "{slides} slides");
    }
}

/// The shape grown by `amount` (a sphere for a point).
pub(crate) fn inflated(shape: &OracleShape, amount: f64) -> OracleShape {
    match shape {
        OracleShape::Point => OracleShape::Sphere { radius: amount },
        OracleShape::Sphere { radius } => OracleShape::Sphere {
            radius: radius + amount,
        },
        OracleShape::Cylinder {
            radius,
            half_height,
        } => OracleShape::Cylinder {
            radius: radius + amount,
            half_height: half_height + amount,
        },
        OracleShape::Capsule {
            radius,
            half_height,
        } => OracleShape::Capsule {
            radius: radius + amount,
            half_height: *half_height,
        },
        OracleShape::Box { mins, maxs } => OracleShape::Box {
            mins: *mins - amount,
            maxs: *maxs + amount,
        },
        OracleShape::Hull { points } => OracleShape::Hull {
            points: points
                .iter()
                .flat_map(|p| {
                    [
                        DVec3::X,
                        -DVec3::X,
                        DVec3::Y,
                        -DVec3::Y,
                        DVec3::Z,
                        -DVec3::Z,
                    ]
                    .map(|d| *p + d * amount)
                })
                .collect(),
        },
    }
}

/// The planes of a `.map` brush exactly as its face points define them, in f64: unit
/// normal and distance, solid where `n·x < d` (issue 13: what "the brush as the file wrote
/// it" means, independent of the compiler's snapping).
fn file_planes(face_points: &[[DVec3; 3]]) -> Vec<(DVec3, f64)> {
    face_points
        .iter()
        .map(|[p0, p1, p2]| {
            let n = (*p0 - *p1).cross(*p2 - *p1).normalize();
            (n, n.dot(*p1))
        })
        .collect()
}

fn bundled(name: &str) -> Vec<u8> {
    read(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("maps")
            .join(name),
    )
}

/// Issue 13, off-axis snapping: on `maps/offaxis_faces.map` faces tilted 1e-4 to 1e-2 rad
/// off an axis keep their tilt, so a point swept straight into one stops outside the brush
/// as the file's three points define it, within twice the stop distance of it. Snapping
/// such a face onto the axis (a component compared with ±1) moved it up to 0.33 units.
#[test]
fn issue_13_points_stop_outside_faces_a_little_off_an_axis() {
    let src = bundled("offaxis_faces.map");
    let file = parse_map(&src).expect("parse");
    let map = compile(&src).map;
    let stop = f64::from(SURFACE_CLIP_EPSILON);
    let mut checked = 0;
    // World brushes 1..=4: block i spans y 320·i..320·i + 256; its fifth face is the tilted
    // +x side, its sixth the tilted top.
    for (i, brush) in file.brushes().skip(1).take(4).enumerate() {
        let points: Vec<[DVec3; 3]> = brush.faces.iter().map(|f| f.points).collect();
        let planes = file_planes(&points);
        let y0 = 320.0 * i as f32;
        for dy in [1.0f32, 64.0, 128.0, 192.0, 255.0] {
            let y = y0 + dy;
            for (start, end, face) in [
                (Vec3::new(400.0, y, 64.0), Vec3::new(128.0, y, 64.0), 4),
                (Vec3::new(128.0, y, 300.0), Vec3::new(128.0, y, 64.0), 5),
            ] {
                let t = map.trace(
                    &TraceShape::point(),
                    start,
                    end,
                    Contents::MASK_ANY_BLOCKING,
                );
                assert!(t.hit(), "block {i} {start}->{end}: no hit");
                let p = t.end.as_dvec3();
                // Outside the brush as written: in front of at least one file plane.
                let outside = planes
                    .iter()
                    .map(|(n, d)| n.dot(p) - d)
                    .fold(f64::MIN, f64::max);
                let (n, d) = planes[face];
                let gap = n.dot(p) - d;
                assert!(
                    outside > 0.0 && gap > 0.0,
                    "block {i} {start}->{end}: ends {gap} from the file's face (inside)"
                );
                assert!(
                    gap <= 2.0 * stop,
                    "block {i} {start}->{end}: stops {gap} from the file's face"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 40);
}

/// Issue 13, many faces: every brush gets exact contacts whatever its face count. On
/// `maps/many_sided.map` (a 128-sided and a 362-sided upright prism) spheres, cylinders,
/// capsules and hulls swept past a prism half a unit clear of it are never stopped, and swept
/// straight at it stop within twice the stop distance. Brushes over 64 faces used to keep the
/// plane-shifted hit, which stopped them up to 4 units short in open space.
#[test]
fn issue_13_rounded_shapes_pass_and_meet_many_sided_prisms_exactly() {
    let src = bundled("many_sided.map");
    let map = compile(&src).map;
    let oracle = Oracle::new(&solid_world(&src));
    for b in 0..map.brushes().len() {
        assert!(map.brush_features(b).is_some(), "brush {b} has no features");
    }
    let stop = f64::from(SURFACE_CLIP_EPSILON);
    let shapes = [
        ShapeParams::Sphere(16.0),
        ShapeParams::Cylinder(16.0, 24.0),
        ShapeParams::Capsule(12.0, 20.0),
        ShapeParams::Hull(vec![
            Vec3::new(-14.0, -9.0, -20.0),
            Vec3::new(15.0, -12.0, -16.0),
            Vec3::new(-3.0, 16.0, -22.0),
            Vec3::new(2.0, 1.0, 24.0),
            Vec3::new(11.0, 10.0, 6.0),
        ]),
    ];
    let mut rng = Pcg32::new(1313);
    let (mut passes, mut meets) = (0, 0);
    // (centre, circumradius) of the two prisms.
    for (centre, radius) in [
        (Vec3::new(0.0, 0.0, 96.0), 192.0f32),
        (Vec3::new(1024.0, 0.0, 96.0), 256.0),
    ] {
        for params in &shapes {
            let (shape, exact) = (params.shape(), oracle_shape(params));
            for _ in 0..60 {
                let angle = rng.range_f64(0.0, std::f64::consts::TAU) as f32;
                let out = Vec3::new(angle.cos(), angle.sin(), 0.0);
                let along = Vec3::new(-out.y, out.x, 0.0);
                // Tangent: the shape's support towards the axis plus half a unit of clearance
                // off the circumscribed circle, then checked clear by the oracle.
                let reach = shape.support_distance(-out);
                let c = centre + out * (radius + reach + 0.5);
                let (start, end) = (c - along * 150.0, c + along * 150.0);
                if oracle
                    .first_hit(&exact, start.as_dvec3(), end.as_dvec3())
                    .is_none()
                {
                    let t = map.trace(&shape, start, end, Contents::MASK_ANY_BLOCKING);
                    assert!(
                        !t.hit(),
                        "{params:?} {start}->{end}: stopped at {} in open space (clearance {})",
                        t.fraction,
                        oracle.distance(&exact, t.end.as_dvec3(), 64.0)
                    );
                    passes += 1;
                }
                // Head on, towards the axis.
                let from = centre + out * (radius + reach + 40.0);
                let t = map.trace(&shape, from, centre, Contents::MASK_ANY_BLOCKING);
                assert!(t.hit(), "{params:?} {from}: no hit");
                let clearance = oracle.distance(&exact, t.end.as_dvec3(), 64.0);
                assert!(
                    !exact_overlaps(&oracle, &exact, t.end.as_dvec3()) && clearance <= 2.0 * stop,
                    "{params:?} {from}->{centre}: clearance {clearance}"
                );
                meets += 1;
            }
        }
    }
    println!("many-sided prisms: {passes} passes, {meets} head-on meets");
    assert!(passes >= 400 && meets == 480);
}

/// Issue 13, far slanted terrain: on `maps/far_slabs.map` (terrain of slanted triangular
/// prisms, thin slanted slabs and gentle slabs about 4,000 units from the origin) a point
/// swept straight down stops within twice the stop distance of the surface it meets, and
/// outside it, both as compiled (the oracle) and as the file's points define it. The gentle
/// slabs' tops (under 1e-3 rad off level) were snapped level, a third of a unit off at their
/// ends.
#[test]
fn issue_13_points_stop_at_the_stop_distance_on_far_slanted_terrain() {
    let src = bundled("far_slabs.map");
    let file = parse_map(&src).expect("parse");
    let map = compile(&src).map;
    // The file's planes of the gentle slabs (world brushes 69..=71), top face first.
    let gentle: Vec<Vec<(DVec3, f64)>> = file
        .brushes()
        .skip(69)
        .map(|b| file_planes(&b.faces.iter().map(|f| f.points).collect::<Vec<_>>()))
        .collect();
    assert_eq!(gentle.len(), 3);
    let stop = f64::from(SURFACE_CLIP_EPSILON);
    let mut rng = Pcg32::new(4001);
    let mut gentle_checked = 0;
    for (k, planes) in gentle.iter().enumerate() {
        let x0 = -4352.0 + 576.0 * k as f64;
        for _ in 0..300 {
            let x = rng.range_f64(x0 + 1.0, x0 + 511.0) as f32;
            let y = rng.range_f64(3841.0, 4351.0) as f32;
            let (start, end) = (Vec3::new(x, y, 300.0), Vec3::new(x, y, 0.0));
            let t = map.trace(
                &TraceShape::point(),
                start,
                end,
                Contents::MASK_ANY_BLOCKING,
            );
            assert!(t.hit(), "{start}->{end}: no hit");
            let p = t.end.as_dvec3();
            let (n, d) = planes[0];
            let gap = n.dot(p) - d;
            assert!(
                gap > 0.0 && gap <= 2.0 * stop,
                "gentle slab {k} {start}->{end}: stops {gap} from the file's top"
            );
            gentle_checked += 1;
        }
    }
    assert_eq!(gentle_checked, 900);
    let oracle = Oracle::new(&solid_world(&src));
    let mut rng = Pcg32::new(4000);
    let mut worst = 0.0f64;
    let mut checked = 0;
    for (lo, hi) in [
        (
            Vec3::new(3840.0, 3840.0, 0.0),
            Vec3::new(4352.0, 4352.0, 0.0),
        ),
        (
            Vec3::new(-4352.0, -4352.0, 0.0),
            Vec3::new(-3840.0, -3840.0, 0.0),
        ),
        (
            Vec3::new(3840.0, -4160.0, 0.0),
            Vec3::new(4448.0, -3648.0, 0.0),
        ),
    ] {
        for _ in 0..1000 {
            let x = rng.range_f64(f64::from(lo.x) + 1.0, f64::from(hi.x) - 1.0) as f32;
            let y = rng.range_f64(f64::from(lo.y) + 1.0, f64::from(hi.y) - 1.0) as f32;
            let (start, end) = (Vec3::new(x, y, 700.0), Vec3::new(x, y, -200.0));
            let exact = OracleShape::Point;
            let t = map.trace(
                &TraceShape::point(),
                start,
                end,
                Contents::MASK_ANY_BLOCKING,
            );
            let first = oracle.first_hit(&exact, start.as_dvec3(), end.as_dvec3());
            assert_eq!(t.hit(), first.is_some(), "{start}->{end}");
            if !t.hit() {
                continue;
            }
            let clearance = oracle.distance(&exact, t.end.as_dvec3(), 64.0);
            assert!(
                !exact_overlaps(&oracle, &exact, t.end.as_dvec3()),
                "{start}->{end}: ends inside at {}",
                t.end
            );
            worst = worst.max(clearance);
            assert!(
                clearance <= 2.0 * stop,
                "{start}->{end}: stops {clearance} from the nearest solid"
            );
            checked += 1;
        }
    }
    println!("far slanted terrain: {checked} point sweeps, worst clearance {worst:.4}");
    assert!(checked >= 2000);
}
