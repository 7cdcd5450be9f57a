//! Oriented shapes and slivers against the exact oracle (parry3d-f64, `support::oracle`):
//! rotated boxes and hulls (the oracle's hull of their rotated corners, exact), rotated
//! cylinders and capsules (inscribed hulls: their checks are necessary conditions) swept
//! through the shared maps never end inside, are never late, and the tree equals the brute
//! force; rotated shapes against upright characters (`trace_against_rotated`) against a
//! sampled reference; points swept past the hand-made wedges of `maps/sliver_wedges.map`
//! never stop farther than the stop distance from solid.

use glam::{DVec3, Quat, Vec3};
use planeshift::CompiledMap;
use planeshift::Contents;
use planeshift::tolerance::SURFACE_CLIP_EPSILON;
use planeshift::{TraceShape, query::ShapeKind};

use crate::support::oracle::{Oracle, OracleShape};
use crate::support::{Pcg32, compile, read, real_maps};
use crate::trace::{ShapeParams, random_sweep};
use crate::trace_oracle::{exact_overlaps, never_inside_never_late};

/// A seeded uniform rotation (Shoemake's method).
pub fn random_rotation(rng: &mut Pcg32) -> Quat {
    let (u1, u2, u3) = (
        rng.range_f64(0.0, 1.0),
        rng.range_f64(0.0, std::f64::consts::TAU),
        rng.range_f64(0.0, std::f64::consts::TAU),
    );
    let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
    Quat::from_xyzw(
        (a * u2.sin()) as f32,
        (a * u2.cos()) as f32,
        (b * u3.sin()) as f32,
        (b * u3.cos()) as f32,
    )
    .normalize()
}

/// The oracle's shape for `params` rotated by `rotation`: exact for boxes and hulls (the
/// hull of the rotated corners or points), inscribed for cylinders (a 48-sided prism) and
/// capsules (two 98-point spheres' hull), so for those a stop clear of it is necessary, not
/// sufficient, and its first contact is never earlier than the true one.
fn rotated_oracle(params: &ShapeParams, rotation: Quat) -> OracleShape {
    let r = rotation.as_dquat();
    let hull = |points: Vec<DVec3>| OracleShape::Hull {
        points: points.into_iter().map(|p| r * p).collect(),
    };
    match params {
        ShapeParams::Box(lo, hi) => hull(
            (0..8)
                .map(|i| {
                    let pick =
                        |bit: usize, a: f32, b: f32| f64::from(if i & bit == 0 { a } else { b });
                    DVec3::new(
                        pick(1, lo.x, hi.x),
                        pick(2, lo.y, hi.y),
                        pick(4, lo.z, hi.z),
                    )
                })
                .collect(),
        ),
        ShapeParams::Hull(points) => hull(points.iter().map(|p| p.as_dvec3()).collect()),
        ShapeParams::Cylinder(radius, half) => {
            let (radius, half) = (f64::from(*radius), f64::from(*half));
            hull(
                (0..96)
                    .map(|i| {
                        let a = std::f64::consts::TAU * (i / 2) as f64 / 48.0;
                        let z = if i % 2 == 0 { -half } else { half };
                        DVec3::new(radius * a.cos(), radius * a.sin(), z)
                    })
                    .collect(),
            )
        }
        ShapeParams::Capsule(radius, half) => {
            let (radius, half) = (f64::from(*radius), f64::from(*half));
            let mut points = Vec::new();
            for end in [-half, half] {
                for i in 0..7 {
                    let polar = std::f64::consts::PI * f64::from(i) / 6.0;
                    for j in 0..14 {
                        let azimuth = std::f64::consts::TAU * f64::from(j) / 14.0;
                        points.push(DVec3::new(
                            radius * polar.sin() * azimuth.cos(),
                            radius * polar.sin() * azimuth.sin(),
                            end + radius * polar.cos(),
                        ));
                    }
                }
            }
            hull(points)
        }
        ShapeParams::Point => OracleShape::Point,
        ShapeParams::Sphere(radius) => OracleShape::Sphere {
            radius: f64::from(*radius),
        },
    }
}

/// The solid brushes a world sweep clips.
fn solid_world(src: &[u8]) -> Vec<planeshift::brush::Brush> {
    crate::support::world_sweep_brushes(src)
        .into_iter()
        .filter(|b| b.solid)
        .collect()
}

/// The number of rotated sweeps: `count` (the issue's) with and without `PLANESHIFT_FULL`:
/// the suite takes seconds (`support::cases`).
fn cases(count: usize) -> usize {
    crate::support::cases(count, count)
}

const ROTATED_KINDS: [ShapeKind; 4] = [
    ShapeKind::Box,
    ShapeKind::Cylinder,
    ShapeKind::Capsule,
    ShapeKind::Hull,
];

/// `per_kind` rotated sweeps of every kind on `map`: never inside, never late (against the
/// oracle's shape), the tree equals the brute force bit for bit, and the identity rotation
/// equals the upright sweep bit for bit. Gives the hits per kind.
fn check_rotated(name: &str, src: &[u8], per_kind: usize, seed: u64) -> [usize; 4] {
    let map: CompiledMap = compile(src).map;
    let oracle = Oracle::new(&solid_world(src));
    let mut rng = Pcg32::new(seed);
    let mut hits = [0; 4];
    for (k, kind) in ROTATED_KINDS.into_iter().enumerate() {
        for case in 0..per_kind {
            let params = ShapeParams::random(&mut rng, kind);
            let shape = params.shape();
            let rotation = random_rotation(&mut rng);
            let (start, end) = random_sweep(&mut rng, &map, 256.0);
            let t = map.trace_rotated(&shape, rotation, start, end, Contents::MASK_ANY_BLOCKING);
            if case % 16 == 0 {
                let upright = map.trace(&shape, start, end, Contents::MASK_ANY_BLOCKING);
                let identity = map.trace_rotated(
                    &shape,
                    Quat::IDENTITY,
                    start,
                    end,
                    Contents::MASK_ANY_BLOCKING,
                );
                assert_eq!(identity, upright, "{name} {kind:?} identity");
            }
            if t.start_solid {
                continue;
            }
            let label = format!("{name} {kind:?} {params:?} {rotation:?}");
            let exact = rotated_oracle(&params, rotation);
            never_inside_never_late(&oracle, &exact, &t, (start, end), &label);
            if t.hit() {
                hits[k] += 1;
                let at = t.end.as_dvec3();
                assert!(!exact_overlaps(&oracle, &exact, at), "{label}");
                assert!(
                    !map.overlaps_rotated(&shape, rotation, t.end, Contents::MASK_ANY_BLOCKING),
                    "{label}: the stop overlaps by the sweep's own test"
                );
            }
        }
    }
    hits
}

#[test]
fn rotated_shapes_against_the_exact_oracle_on_hand_made_maps() {
    let maps = [
        "arena.map",
        "corners.map",
        "slopes.map",
        "sliver_wedges.map",
    ];
    let per_kind = cases(10_000) / maps.len();
    let mut total = [0usize; 4];
    for (i, name) in maps.iter().enumerate() {
        let src = read(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("maps")
                .join(name),
        );
        let hits = check_rotated(name, &src, per_kind, 7000 + i as u64);
        for (t, h) in total.iter_mut().zip(hits) {
            *t += h;
        }
    }
    println!(
        "rotated sweeps on {} hand-made maps: {} per kind, hits box {} cylinder {} capsule {} hull {}",
        maps.len(),
        per_kind * maps.len(),
        total[0],
        total[1],
        total[2],
        total[3]
    );
    assert!(total.iter().all(|h| *h > per_kind / 20), "{total:?}");
}

#[test]
fn rotated_shapes_against_the_exact_oracle_on_real_maps() {
    let maps = real_maps("rotated_shapes_against_the_exact_oracle_on_real_maps");
    if maps.is_empty() {
        return;
    }
    // At least 10,000 per kind over the whole folder, whatever its count.
    let per_map = cases(10_000).div_ceil(maps.len());
    for (i, (name, path)) in maps.iter().enumerate() {
        let hits = check_rotated(name, &read(path), per_map, 9000 + i as u64);
        println!("{name}: {per_map} rotated sweeps per kind, hits {hits:?}");
    }
}

/// A tree walk and the brute force give the same rotated sweep, bit for bit.
#[test]
fn rotated_tree_equals_brute_force() {
    let src = read(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/arena.map"));
    let map: CompiledMap = compile(&src).map;
    let mut rng = Pcg32::new(77);
    for kind in ROTATED_KINDS {
        for _ in 0..500 {
            let shape = ShapeParams::random(&mut rng, kind).shape();
            let rotation = random_rotation(&mut rng);
            let (start, end) = random_sweep(&mut rng, &map, 256.0);
            let tree = map.trace_rotated(&shape, rotation, start, end, Contents::MASK_ANY_BLOCKING);
            let all = map.trace_all_brushes_rotated(
                &shape,
                rotation,
                start,
                end,
                Contents::MASK_ANY_BLOCKING,
            );
            assert_eq!(tree, all, "{kind:?} {rotation:?} {start}->{end}");
        }
    }
}

/// Points swept past the thin wedges of `maps/sliver_wedges.map` (dihedral edges of 2° to
/// 6°, and blunter ones), aimed within a unit of their edges from every direction: a stop is never
/// farther than the stop distance from solid (plus 1e-3), and never inside or late.
#[test]
fn no_stop_farther_than_the_stop_distance_past_slivers() {
    let src =
        read(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/sliver_wedges.map"));
    let map: CompiledMap = compile(&src).map;
    let brushes = solid_world(&src);
    let oracle = Oracle::new(&brushes);
    // The wedges are the brushes with four sides; their edges, from the sides' windings.
    let edges: Vec<(DVec3, DVec3)> = brushes
        .iter()
        .filter(|b| b.sides.len() == 4)
        .flat_map(|b| &b.sides)
        .flat_map(|side| {
            let p = &side.winding.points;
            (0..p.len()).map(move |i| (p[i], p[(i + 1) % p.len()]))
        })
        .collect();
    assert!(edges.len() >= 24, "{}", edges.len());
    let stop = f64::from(SURFACE_CLIP_EPSILON);
    let mut rng = Pcg32::new(2525);
    let (mut hits, mut worst) = (0, 0.0f64);
    let total = 4000;
    for case in 0..total {
        let (a, b) = edges[case % edges.len()];
        let on = a + (b - a) * rng.range_f64(0.0, 1.0);
        let offset = DVec3::new(
            rng.range_f64(-1.0, 1.0),
            rng.range_f64(-1.0, 1.0),
            rng.range_f64(-1.0, 1.0),
        );
        let direction = DVec3::new(
            rng.range_f64(-1.0, 1.0),
            rng.range_f64(-1.0, 1.0),
            rng.range_f64(-1.0, 1.0),
        )
        .normalize_or(DVec3::X);
        let target = on + offset;
        let (start, end) = (
            (target - direction * 64.0).as_vec3(),
            (target + direction * 64.0).as_vec3(),
        );
        let t = map.trace(
            &TraceShape::point(),
            start,
            end,
            Contents::MASK_ANY_BLOCKING,
        );
        if t.start_solid {
            continue;
        }
        let label = format!("case {case} {start}->{end}");
        never_inside_never_late(&oracle, &OracleShape::Point, &t, (start, end), &label);
        if t.hit() {
            hits += 1;
            let clearance = oracle.distance(&OracleShape::Point, t.end.as_dvec3(), 64.0);
            worst = worst.max(clearance);
            assert!(
                clearance <= stop + 1e-3,
                "{label}: stopped {clearance} from solid ({t:?})"
            );
        }
    }
    println!("sliver wedges: {total} point sweeps, {hits} hits, worst clearance {worst:.5}");
    assert!(hits > total / 4, "{hits}");
}

/// A rotated shape swept against an upright one (`trace_against_rotated`): never ends
/// overlapping (`overlaps_rotated`, and the oracle's exact shapes for boxes and hulls), is
/// never late (no overlap at 64 samples before the stop), and a stop is within the stop
/// distance (plus 1e-3) of the other shape, for every pair of kinds.
#[test]
fn rotated_shapes_against_upright_characters() {
    let mut rng = Pcg32::new(4242);
    let mut hits = 0;
    let per_pair = 400;
    let stop = f64::from(SURFACE_CLIP_EPSILON);
    let all_kinds = ShapeKind::ALL;
    for mover_kind in all_kinds {
        for other_kind in all_kinds {
            for _ in 0..per_pair {
                let mover_params = ShapeParams::random(&mut rng, mover_kind);
                let other_params = ShapeParams::random(&mut rng, other_kind);
                let (mover, other) = (mover_params.shape(), other_params.shape());
                let rotation = random_rotation(&mut rng);
                let around = |rng: &mut Pcg32, spread: f64| {
                    Vec3::new(
                        rng.range_f64(-spread, spread) as f32,
                        rng.range_f64(-spread, spread) as f32,
                        rng.range_f64(-spread, spread) as f32,
                    )
                };
                let other_at = Vec3::splat(512.0) + around(&mut rng, 8.0);
                let start = Vec3::splat(512.0) + around(&mut rng, 120.0);
                let end = Vec3::splat(512.0) + around(&mut rng, 120.0);
                let t = mover.trace_against_rotated(rotation, start, end, &other, other_at);
                let label = format!(
                    "{mover_params:?} {rotation:?} {start}->{end} vs {other_params:?} at {other_at}: {t:?}"
                );
                if t.start_solid {
                    assert!(
                        mover.overlaps_rotated(rotation, start, &other, other_at),
                        "{label}"
                    );
                    continue;
                }
                assert!(
                    !mover.overlaps_rotated(rotation, t.end, &other, other_at),
                    "{label}"
                );
                for k in 0..64 {
                    let p = start + (t.end - start) * (k as f32 / 64.0);
                    assert!(
                        !mover.overlaps_rotated(rotation, p, &other, other_at),
                        "{label}: overlaps at {k}/64"
                    );
                }
                if t.hit() {
                    hits += 1;
                    // Within the stop distance of the other shape, exactly where both are
                    // polytopes.
                    let oracle_pair = exact_pair(&mover_params, rotation, &other_params);
                    if let Some((a, b)) = oracle_pair {
                        let gap = hull_gap(&a, t.end.as_dvec3(), &b, other_at.as_dvec3());
                        assert!(gap <= stop + 1e-3, "{label}: gap {gap}");
                        assert!(gap > 0.0, "{label}: gap {gap}");
                    }
                }
            }
        }
    }
    println!("rotated vs upright: {} sweeps, {hits} hits", 36 * per_pair);
    assert!(hits > 36 * per_pair / 10, "{hits}");
}

/// Both shapes as point sets when both are polytopes (boxes, hulls, points): the exact
/// distance between them is then the distance between the hulls.
fn exact_pair(
    mover: &ShapeParams,
    rotation: Quat,
    other: &ShapeParams,
) -> Option<(Vec<DVec3>, Vec<DVec3>)> {
    let points = |p: &ShapeParams, r: Quat| match rotated_oracle(p, r) {
        OracleShape::Hull { points }
            if matches!(p, ShapeParams::Box(..) | ShapeParams::Hull(_)) =>
        {
            Some(points)
        }
        _ if matches!(p, ShapeParams::Point) => Some(vec![DVec3::ZERO]),
        _ => None,
    };
    Some((points(mover, rotation)?, points(other, Quat::IDENTITY)?))
}

/// The distance between the hulls of `a` at `a_at` and `b` at `b_at`, by parry's GJK.
fn hull_gap(a: &[DVec3], a_at: DVec3, b: &[DVec3], b_at: DVec3) -> f64 {
    crate::support::oracle::hull_distance(a, a_at, b, b_at)
}
