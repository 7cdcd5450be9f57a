//! Sweeps against the exact oracle (parry3d-f64, `support/oracle.rs`): never end inside,
//! never later than the exact first contact, clearance at the stop (issue 4: boxes and
//! points on every hit; the 99th percentile of every kind within its bound), and no ghost
//! hits on tiled floors and walls. Distributions are printed per shape kind.

use glam::{DVec3, Vec3};
use planeshift::brush::{Brush, brushes_from_map};
use planeshift::compiled::CompiledMap;
use planeshift::contents::Contents;
use planeshift::map::parse_map;
use planeshift::tolerance::SURFACE_CLIP_EPSILON;
use planeshift::trace::{ShapeKind, TraceShape};

use crate::support::oracle::{Oracle, OracleShape};
use crate::support::{Pcg32, bundled_maps, compile, read, real_maps};
use crate::trace::{KINDS, ShapeParams, random_sweep};

fn oracle_shape(params: &ShapeParams) -> OracleShape {
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

/// The rounding radius of a shape: the radius clearance bounds scale with (0 for polytopes).
fn round_radius(params: &ShapeParams) -> Option<f32> {
    match params {
        ShapeParams::Sphere(r) | ShapeParams::Cylinder(r, _) | ShapeParams::Capsule(r, _) => {
            Some(*r)
        }
        _ => None,
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

fn solid_world(src: &[u8]) -> Vec<Brush> {
    brushes_from_map(&parse_map(src).expect("parse"))
        .brushes
        .into_iter()
        .filter(|b| b.is_solid_world())
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
            let t = map.trace(&shape, start, end, Contents::MASK_SOLID);
            checked += 1;
            if t.start_solid {
                continue;
            }
            let (s, e) = (start.as_dvec3(), end.as_dvec3());
            // Never end inside.
            assert!(
                !exact_overlaps(&oracle, &exact, t.end.as_dvec3()),
                "{name} {kind:?} {params:?}: ends inside at {}",
                t.end
            );
            // Never later than the exact first contact (unless touching at the start, where a
            // sweep moving away is rightly free).
            let length = (e - s).length();
            if let Some(first) = oracle.first_hit(&exact, s, e)
                && (first > 0.0 || !oracle.overlaps(&exact, s))
            {
                let ours = f64::from(t.fraction) * length;
                assert!(
                    ours <= first * length + 1e-2,
                    "{name} {kind:?} {params:?} {start}->{end}: stops at {ours}, exact contact at {}",
                    first * length
                );
            }
            if t.hit() {
                let clearance = oracle.distance(&exact, t.end.as_dvec3(), 64.0);
                let stop = f64::from(SURFACE_CLIP_EPSILON);
                let allowed = match round_radius(&params) {
                    Some(r) => 0.05 * f64::from(r) + stop,
                    None => 2.0 * stop,
                };
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
                // 0.057 from a 66° edge on `e2m2.map`; the 2 × stop distance covers
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

/// Overlap beyond a hair: the oracle's touch test, at a point moved a hundredth of the stop
/// distance back would be stricter than f32 end positions allow.
fn exact_overlaps(oracle: &Oracle, shape: &OracleShape, at: DVec3) -> bool {
    oracle.overlaps(shape, at) && oracle.distance(shape, at, 1.0) <= 0.0
}

#[test]
fn sweeps_against_the_exact_oracle_on_hand_made_maps() {
    let mut clearances = Clearances::default();
    let mut checked = 0;
    for (name, path) in bundled_maps() {
        checked += check_map(&name, &read(&path), 2200, &mut clearances);
    }
    println!("hand-made maps: {checked} sweeps checked against the oracle");
    assert!(checked >= 10_000);
    let failures = clearances.report("hand-made");
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
    // Issue 4's bounds on the 99th percentile of the clearance: 2 × the stop distance for
    // points, boxes (also asserted per hit above) and hulls; 0.05·r + the stop distance for
    // spheres, capsules and cylinders. Spheres, cylinders, capsules and hulls are refined
    // exactly (`rounded`). Every shape also stays within its proven over-reach
    // (κ·R − inradius, at least 2 × stop distance), asserted per hit.
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
        let t = map.trace(&shape, start, end, Contents::MASK_SOLID);
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
    let (mut slides, mut stops) = (0usize, Vec::new());
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
            let t = map.trace(&shape, start, end, Contents::MASK_SOLID);
            if t.hit() {
                stops.push(format!(
                    "{name}{label} {start}->{end}: stopped at {} ({:?})",
                    t.fraction, t.normal
                ));
            }
        }
    }
    println!("real-map floor slides: {slides}, stops: {}", stops.len());
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
fn inflated(shape: &OracleShape, amount: f64) -> OracleShape {
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
