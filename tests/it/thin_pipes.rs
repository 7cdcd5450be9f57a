//! Thin curved pipes stay within the patch tolerance (issue 26): trim pipes a few units
//! across, straight, bent and bent tighter than their own radius, as `maps/thin_pipes.map`
//! holds them (described in `maps/README.md`).
//!
//! Takes that map and measures its facets against the true Bézier surfaces, evaluated here
//! from the control points (`patches.rs`'s `TrueSurface`), both ways: every point of every
//! facet's front lies within the tolerance of its patch's surface, and every point of the
//! surface within the tolerance of its patch's facets; and a point swept at the surface
//! along its normal stops no farther than the tolerance plus the stop distance from it, and
//! never deeper inside than the tolerance.

use glam::DVec3;
use planeshift::brush::{Brush, brushes_from_map_patched};
use planeshift::game::ShaderSet;
use planeshift::map::parse_map;
use planeshift::tolerance::{DEFAULT_PATCH_TOLERANCE, SURFACE_CLIP_EPSILON};
use planeshift::{CompiledMap, Contents, TraceShape, build::Game};

use crate::patches::{TrueSurface, distance_to_surfaces};
use crate::support::{Pcg32, compile, read, repo_root};

/// The stop distance a sweep keeps from what it hits, in units.
const STOP: f64 = SURFACE_CLIP_EPSILON as f64;

/// Slack for f64 and f32 rounding in the comparisons, in units.
const ROUNDING: f64 = 1e-3;

fn thin_pipes_src() -> Vec<u8> {
    read(&repo_root().join("maps/thin_pipes.map"))
}

/// The map's patches as true surfaces, in file order, and its facet brushes at the default
/// tolerance.
fn pipes() -> (Vec<TrueSurface>, Vec<Brush>) {
    let map = parse_map(&thin_pipes_src()).expect("thin_pipes.map parses");
    let surfaces: Vec<TrueSurface> = map
        .entities
        .iter()
        .flat_map(|e| e.patches.iter())
        .map(TrueSurface::of_map_patch)
        .collect();
    let out = brushes_from_map_patched(
        &map,
        Game::Quake3,
        &ShaderSet::default(),
        DEFAULT_PATCH_TOLERANCE,
    );
    let facets = out
        .brushes
        .into_iter()
        .filter(|b| b.patch.is_some())
        .collect();
    (surfaces, facets)
}

/// Points spread over a convex polygon: its corners and, per fan triangle, a grid of
/// `n × n` barycentric points.
fn polygon_samples(corners: &[DVec3], n: usize) -> Vec<DVec3> {
    let mut out = corners.to_vec();
    let Some((&first, rest)) = corners.split_first() else {
        return out;
    };
    for pair in rest.windows(2) {
        let (b, c) = (pair[0], pair[1]);
        for i in 0..=n {
            for j in 0..=(n - i) {
                let (s, t) = (i as f64 / n as f64, j as f64 / n as f64);
                out.push(first + (b - first) * s + (c - first) * t);
            }
        }
    }
    out
}

/// The distance from `p` to the convex polygon `corners` (in its plane, whose normal is
/// `normal`, winding either way).
fn distance_to_polygon(p: DVec3, corners: &[DVec3], normal: DVec3) -> f64 {
    let (mut none_above, mut none_below) = (true, true);
    for (&a, &b) in corners.iter().zip(corners.iter().cycle().skip(1)) {
        let side = (b - a).cross(normal).dot(p - a);
        none_above &= side <= 0.0;
        none_below &= side >= 0.0;
    }
    if none_above || none_below {
        return normal.dot(p - corners[0]).abs();
    }
    corners
        .iter()
        .zip(corners.iter().cycle().skip(1))
        .map(|(&a, &b)| {
            let ab = b - a;
            let t = ((p - a).dot(ab) / ab.length_squared().max(1e-300)).clamp(0.0, 1.0);
            p.distance(a + ab * t)
        })
        .fold(f64::INFINITY, f64::min)
}

/// Every facet front within the tolerance of its patch's true surface, and every point of
/// each surface within the tolerance of its patch's facet fronts: both ways of the
/// Hausdorff distance, at 7 patches' facets (corners and 10 points a fan triangle) and
/// 1,024 surface points a piece.
#[test]
fn thin_pipe_facets_lie_within_the_tolerance_of_the_surface() {
    let (surfaces, facets) = pipes();
    assert_eq!(surfaces.len(), 7);
    let tolerance = DEFAULT_PATCH_TOLERANCE;
    let mut worst_out = vec![0.0f64; surfaces.len()];
    let mut worst_in = vec![0.0f64; surfaces.len()];
    let mut counts = vec![0usize; surfaces.len()];
    for facet in &facets {
        let patch = facet.patch.expect("a facet");
        let front = &facet.sides[0];
        counts[patch] += 1;
        for p in polygon_samples(&front.winding.points, 3) {
            let d = distance_to_surfaces(p, std::slice::from_ref(&surfaces[patch]), 4.0);
            worst_out[patch] = worst_out[patch].max(d);
        }
    }
    const PER_PIECE: usize = 32;
    let mut surface_points = 0usize;
    for (index, surface) in surfaces.iter().enumerate() {
        // Each front with its corners' centroid and the radius of the ball about it that
        // holds them: no point of the front is nearer to `s` than `|s − centre| − radius`, so
        // a front whose ball lies no nearer than the best so far cannot lower the minimum.
        let own: Vec<(&[DVec3], DVec3, DVec3, f64)> = facets
            .iter()
            .filter(|b| b.patch == Some(index))
            .map(|b| {
                let corners = b.sides[0].winding.points.as_slice();
                let centre = corners.iter().sum::<DVec3>() / corners.len().max(1) as f64;
                let radius = corners
                    .iter()
                    .map(|c| c.distance(centre))
                    .fold(0.0, f64::max);
                (corners, b.sides[0].plane.normal, centre, radius)
            })
            .collect();
        let (pu, pv) = surface.pieces();
        for a in 0..pu {
            for b in 0..pv {
                for i in 0..PER_PIECE {
                    for j in 0..PER_PIECE {
                        let (u, v) = (
                            (i as f64 + 0.5) / PER_PIECE as f64,
                            (j as f64 + 0.5) / PER_PIECE as f64,
                        );
                        let s = surface.point((a, b), u, v);
                        let mut d = f64::INFINITY;
                        for (corners, n, centre, radius) in &own {
                            if s.distance(*centre) - radius < d {
                                d = d.min(distance_to_polygon(s, corners, *n));
                            }
                        }
                        worst_in[index] = worst_in[index].max(d);
                        surface_points += 1;
                    }
                }
            }
        }
    }
    println!(
        "thin_pipes.map: facets per patch {counts:?}; worst facet-to-surface {:?}; worst surface-to-facet {:?} ({surface_points} surface points)",
        worst_out
            .iter()
            .map(|d| format!("{d:.4}"))
            .collect::<Vec<_>>(),
        worst_in
            .iter()
            .map(|d| format!("{d:.4}"))
            .collect::<Vec<_>>(),
    );
    for (index, (out, inn)) in worst_out.iter().zip(&worst_in).enumerate() {
        assert!(counts[index] > 0, "patch {index} made no facets");
        assert!(
            *out <= tolerance + ROUNDING,
            "patch {index}: a facet lies {out:.4} from the surface"
        );
        assert!(
            *inn <= tolerance + ROUNDING,
            "patch {index}: the surface lies {inn:.4} from the facets"
        );
    }
}

/// Where a point swept along `n` from `s + reach·n` to `s − reach·n` stops, as the signed
/// distance from `s` along `n`; `None` when it starts in solid or hits nothing.
fn front_stop(world: &CompiledMap, s: DVec3, n: DVec3, reach: f64) -> Option<f64> {
    let (from, to) = ((s + n * reach).as_vec3(), (s - n * reach).as_vec3());
    let t = world.trace(&TraceShape::point(), from, to, Contents::MASK_PLAYER_SOLID);
    (!t.start_solid && t.hit()).then(|| n.dot(t.end.as_dvec3() - s))
}

/// 2,000 seeded points a pipe on its true surface, swept at it along the true normal from
/// three quarters of a unit out (inside the tightest bend's hole): each stops within the
/// tolerance plus the stop distance in front of the surface and no deeper than the
/// tolerance behind it.
#[test]
fn points_swept_at_thin_pipes_stop_at_the_surface() {
    let (surfaces, _) = pipes();
    let world = compile(&thin_pipes_src()).map;
    let mut rng = Pcg32::new(0x26_0002);
    let tolerance = DEFAULT_PATCH_TOLERANCE;
    let mut swept = 0usize;
    let mut worst = vec![(0.0f64, 0.0f64); surfaces.len()];
    for (index, surface) in surfaces.iter().enumerate() {
        for _ in 0..2_000 {
            let Some((s, n)) = surface.sample(&mut rng) else {
                continue;
            };
            let Some(d) = front_stop(&world, s, n, 0.75) else {
                panic!("pipe {index} at {s} (n {n}): the sweep started solid or met nothing");
            };
            assert!(
                d <= tolerance + STOP + ROUNDING && d >= -tolerance - ROUNDING,
                "pipe {index} at {s} (n {n}): stopped {d:.4} from the surface"
            );
            let w = &mut worst[index];
            *w = (w.0.max(d), w.1.min(d));
            swept += 1;
        }
    }
    println!(
        "thin_pipes.map: {swept} point sweeps; per pipe (farthest out, deepest in): {worst:.4?}"
    );
    assert_eq!(swept, 2_000 * surfaces.len());
}

/// How far the true surface of one patch strays from its facet fronts (`patch::subdivide`
/// and `patch::facet_solids` at the default tolerance): the largest distance from a grid
/// of `per_piece²` points a piece to the nearest front, and whether the subdivision hit a
/// cap (then the tolerance is not promised).
fn patch_standoff(surface: &TrueSurface, per_piece: usize) -> (f64, bool) {
    use planeshift::patch::{ControlGrid, facet_solids, subdivide};
    let grid = ControlGrid {
        width: surface.width,
        height: surface.height,
        points: surface.points.clone(),
        min_steps: (1, 1),
    };
    let cut = subdivide(&grid, DEFAULT_PATCH_TOLERANCE);
    let facets = facet_solids(&[&cut]);
    let fronts: Vec<(&[DVec3], DVec3, DVec3, DVec3)> = facets
        .solids
        .iter()
        .filter_map(|s| {
            let (plane, winding) = (s.planes.first()?, s.windings.first()?);
            let (lo, hi) = planeshift::geom::bounds_of(&winding.points);
            Some((winding.points.as_slice(), plane.normal, lo, hi))
        })
        .collect();
    let (pu, pv) = surface.pieces();
    let mut worst = 0.0f64;
    for a in 0..pu {
        for b in 0..pv {
            for i in 0..=per_piece {
                for j in 0..=per_piece {
                    let (u, v) = (i as f64 / per_piece as f64, j as f64 / per_piece as f64);
                    let s = surface.point((a, b), u, v);
                    // Only fronts whose bounds come within the worst so far can matter.
                    let reach = worst.max(DEFAULT_PATCH_TOLERANCE) + 1.0;
                    let mut d = fronts
                        .iter()
                        .filter(|(_, _, lo, hi)| {
                            (s - (*lo - reach)).min_element() >= 0.0
                                && ((*hi + reach) - s).min_element() >= 0.0
                        })
                        .map(|(corners, n, _, _)| distance_to_polygon(s, corners, *n))
                        .fold(f64::INFINITY, f64::min);
                    if !d.is_finite() {
                        d = fronts
                            .iter()
                            .map(|(corners, n, _, _)| distance_to_polygon(s, corners, *n))
                            .fold(f64::INFINITY, f64::min);
                    }
                    if d.is_finite() {
                        worst = worst.max(d);
                    }
                }
            }
        }
    }
    (worst, cut.capped)
}

/// Every patch of the shared Quake 3 levels, from the `.map` (as written) and from the
/// `.bsp` (the control points q3map2 stored, in `f32`): the true surface, 17×17 points a
/// piece, lies within the tolerance of the patch's facet fronts wherever the subdivision
/// met its caps. Prints the worst per file.
#[test]
fn shared_quake3_patches_lie_within_the_tolerance_of_their_facets() {
    use crate::q3_contents::LEVELS;
    use crate::support::q3bsp::Q3Bsp;
    let Some(root) = crate::support::real_maps_dir(
        "shared_quake3_patches_lie_within_the_tolerance_of_their_facets",
    ) else {
        return;
    };
    let mut patches = 0usize;
    let mut failures = Vec::new();
    for level in LEVELS {
        let dir = root.join("openarena-lostlevels");
        let map = parse_map(&read(&dir.join(format!("{level}.map")))).expect("parses");
        let from_map: Vec<TrueSurface> = map
            .entities
            .iter()
            .flat_map(|e| e.patches.iter())
            .filter(|p| planeshift::patch::control_grid(p).is_ok())
            .map(TrueSurface::of_map_patch)
            .collect();
        let bsp = Q3Bsp::parse(&read(&dir.join(format!("{level}.bsp")))).expect("parses");
        let from_bsp: Vec<TrueSurface> = bsp
            .patches()
            .filter(|p| p.width >= 3 && p.height >= 3 && p.width % 2 == 1 && p.height % 2 == 1)
            .map(|p| TrueSurface {
                width: p.width,
                height: p.height,
                points: p
                    .points
                    .iter()
                    .map(|q| DVec3::new(q[0].into(), q[1].into(), q[2].into()))
                    .collect(),
            })
            .collect();
        for (kind, surfaces) in [("map", &from_map), ("bsp", &from_bsp)] {
            let mut worst = (0.0f64, usize::MAX);
            let mut capped = 0usize;
            for (index, surface) in surfaces.iter().enumerate() {
                let (d, cap) = patch_standoff(surface, 16);
                if cap {
                    capped += 1;
                    continue;
                }
                if d > worst.0 {
                    worst = (d, index);
                }
                if d > DEFAULT_PATCH_TOLERANCE + ROUNDING {
                    failures.push(format!("{level}.{kind} patch {index}: {d:.4}"));
                }
            }
            patches += surfaces.len();
            println!(
                "{level}.{kind}: {} patches, worst surface-to-facet {:.4} (patch {}), {capped} capped",
                surfaces.len(),
                worst.0,
                worst.1
            );
        }
    }
    assert!(patches > 0);
    assert!(
        failures.is_empty(),
        "{} patches beyond the tolerance: {failures:?}",
        failures.len()
    );
}

/// The distance from `q` to the box `lo..hi`.
fn distance_to_box(q: DVec3, lo: DVec3, hi: DVec3) -> f64 {
    (lo - q).max(q - hi).max(DVec3::ZERO).length()
}

/// The distance from `surface` to the box `lo..hi`: per piece, the best of 33×33
/// parameter samples, then around each of the four best a finer grid, four times over (the
/// window a quarter as wide each time), so long straight pieces are measured as finely as
/// short curved ones.
fn surface_gap_to_box(surface: &TrueSurface, lo: DVec3, hi: DVec3) -> f64 {
    const COARSE: usize = 32;
    const FINE: usize = 8;
    let (pu, pv) = surface.pieces();
    let mut best = f64::INFINITY;
    for a in 0..pu {
        for b in 0..pv {
            let at = |u: f64, v: f64| distance_to_box(surface.point((a, b), u, v), lo, hi);
            let mut coarse: Vec<(f64, f64, f64)> = Vec::with_capacity((COARSE + 1) * (COARSE + 1));
            for i in 0..=COARSE {
                for j in 0..=COARSE {
                    let (u, v) = (i as f64 / COARSE as f64, j as f64 / COARSE as f64);
                    coarse.push((at(u, v), u, v));
                }
            }
            coarse.sort_by(|x, y| x.0.total_cmp(&y.0));
            for &(mut d, mut u, mut v) in coarse.iter().take(4) {
                let mut window = 1.0 / COARSE as f64;
                for _ in 0..4 {
                    let (cu, cv) = (u, v);
                    for i in 0..=FINE {
                        for j in 0..=FINE {
                            let su = (cu - window + 2.0 * window * i as f64 / FINE as f64)
                                .clamp(0.0, 1.0);
                            let sv = (cv - window + 2.0 * window * j as f64 / FINE as f64)
                                .clamp(0.0, 1.0);
                            let e = at(su, sv);
                            if e < d {
                                (d, u, v) = (e, su, sv);
                            }
                        }
                    }
                    window /= 4.0;
                }
                best = best.min(d);
            }
        }
    }
    best
}

/// Boxes swept at thin pipes stop touching them: 500 seeded boxes a pipe (half-sizes 1 to
/// 8), each swept from just outside along the true normal at a random surface point, end
/// no farther from the true surface than the tolerance plus the stop distance. A sweep that
/// starts in the pipe's other side (inside a tight bend) is counted, not judged; at least
/// 300 a pipe are.
#[test]
fn boxes_swept_at_thin_pipes_stop_touching_them() {
    let (surfaces, _) = pipes();
    let world = compile(&thin_pipes_src()).map;
    let mut rng = Pcg32::new(0x26_0003);
    let tolerance = DEFAULT_PATCH_TOLERANCE;
    let mut worst = vec![(0.0f64, 0usize); surfaces.len()];
    let mut buried = vec![0usize; surfaces.len()];
    let mut failures = Vec::new();
    for (index, surface) in surfaces.iter().enumerate() {
        for _ in 0..500 {
            let Some((s, n)) = surface.sample(&mut rng) else {
                continue;
            };
            let h = rng.range_f64(1.0, 8.0);
            let half = DVec3::splat(h);
            let shape =
                TraceShape::from_spec(&format!("box:{},{},{},{},{},{}", -h, -h, -h, h, h, h))
                    .expect("a box");
            let start = s + n * (h * 3f64.sqrt() + 1.0);
            let end = s - n * 4.0;
            let t = world.trace(
                &shape,
                start.as_vec3(),
                end.as_vec3(),
                Contents::MASK_PLAYER_SOLID,
            );
            if t.start_solid {
                // Inside a tight bend the start is in the pipe's other side.
                buried[index] += 1;
                continue;
            }
            if !t.hit() {
                failures.push(format!(
                    "pipe {index}: box {h:.2} at {s} (n {n}) met nothing"
                ));
                continue;
            }
            let c = t.end.as_dvec3();
            let gap = surface_gap_to_box(surface, c - half, c + half);
            if gap > tolerance + STOP + ROUNDING {
                failures.push(format!(
                    "pipe {index}: box {h:.2} swept at {s} (n {n}) stopped {gap:.4} from the surface"
                ));
            }
            worst[index].0 = worst[index].0.max(gap);
            worst[index].1 += 1;
        }
    }
    println!(
        "thin_pipes.map: box sweeps per pipe (largest gap to the surface, sweeps): {worst:.4?}; started in the pipe's other side: {buried:?}"
    );
    assert!(
        failures.is_empty(),
        "{} failures: {:?}",
        failures.len(),
        &failures[..failures.len().min(12)]
    );
    for (index, (_, swept)) in worst.iter().enumerate() {
        assert!(*swept >= 300, "pipe {index}: only {swept} sweeps judged");
    }
}
