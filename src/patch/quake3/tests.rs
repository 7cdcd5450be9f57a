//! The game's patch collision on small grids whose planes and facets follow by hand from
//! `cm_patch.c`'s algorithm, and crafted grids that must be refused without a panic.

use glam::Vec3;

use super::{CollideProblem, MAX_GRID_SIZE, PatchCollide, patch_collide};
use crate::test_rng::XorShift;

/// A `3 × 3` grid over `0..64` in x (columns) and y (rows), z from `height(i)`.
fn grid3(height: impl Fn(usize) -> f32) -> Vec<Vec3> {
    let mut points = Vec::new();
    for j in 0..3 {
        for i in 0..3 {
            points.push(Vec3::new(32.0 * i as f32, 32.0 * j as f32, height(i)));
        }
    }
    points
}

fn normal(c: &PatchCollide, plane: u32) -> Vec3 {
    let p = c.planes[plane as usize].plane;
    Vec3::new(p[0], p[1], p[2])
}

#[test]
fn a_flat_patch_is_one_facet_on_one_plane() {
    let c = patch_collide(3, 3, &grid3(|_| 0.0)).unwrap();
    // Both directions collapse to their chords: one cell, two coplanar triangles, one
    // surface plane; four edge planes stand on its borders; the axial bevels are those
    // planes or the surface itself, its edges are axial (no edge bevels); the back last.
    assert_eq!(c.facets.len(), 1);
    assert_eq!(c.planes.len(), 5);
    let facet = &c.facets[0];
    assert_eq!(normal(&c, facet.surface_plane).abs(), Vec3::Z);
    assert_eq!(facet.borders.len(), 5);
    let back = facet.borders[4];
    assert_eq!((back.plane, back.inward), (facet.surface_plane, true));
    for border in &facet.borders[..4] {
        let n = normal(&c, border.plane);
        assert_eq!(n.z, 0.0, "edge planes stand upright: {n}");
    }
    assert_eq!((c.mins, c.maxs), (Vec3::new(-1.0, -1.0, -1.0), Vec3::new(65.0, 65.0, 1.0)));
}

#[test]
fn a_ridge_subdivides_once_into_two_sloped_facets() {
    // The middle column 40 up: the curve's midpoint lies 20 (≥ 16) from its chord, so the
    // columns are halved once; each half's midpoint then lies 5 from its chord and
    // collapses: x = 0, 32, 64 at z = 0, 20, 0. The rows are straight: one cell across.
    let c = patch_collide(3, 3, &grid3(|i| if i == 1 { 40.0 } else { 0.0 })).unwrap();
    assert_eq!(c.facets.len(), 2);
    // Two surface planes; edge planes: y = 0 and y = 64 (shared by both facets), one
    // tilted plane on each outer edge; axial bevels: x = 0, x = 32 (reused reversed by the
    // second facet), x = 64, z = 0 and z = 20 (reused).
    assert_eq!(c.planes.len(), 11);
    for facet in &c.facets {
        let n = normal(&c, facet.surface_plane);
        assert!((n.z.abs() - 0.848).abs() < 0.01, "{n}");
        // Four edges, four axial bevels (±x, ±z; ±y are edges), no edge bevels, the back.
        assert_eq!(facet.borders.len(), 9);
        let last = facet.borders[8];
        assert_eq!((last.plane, last.inward), (facet.surface_plane, true));
    }
    let (a, b) = (normal(&c, c.facets[0].surface_plane), normal(&c, c.facets[1].surface_plane));
    assert!((a.x + b.x).abs() < 1e-6 && (a.z - b.z).abs() < 1e-6, "mirrored slopes: {a} {b}");
}

#[test]
fn grids_the_game_refuses_are_refused() {
    let flat = grid3(|_| 0.0);
    assert_eq!(patch_collide(2, 3, &flat[..6]), Err(CollideProblem::Size));
    assert_eq!(patch_collide(3, 3, &flat[..8]), Err(CollideProblem::Size));
    assert_eq!(patch_collide(4, 3, &[Vec3::ZERO; 12]), Err(CollideProblem::Size));
    let big = MAX_GRID_SIZE + 2;
    assert_eq!(patch_collide(big, 3, &vec![Vec3::ZERO; big * 3]), Err(CollideProblem::Size));
    let mut nan = flat.clone();
    nan[4].z = f32::NAN;
    assert_eq!(patch_collide(3, 3, &nan), Err(CollideProblem::OutOfRange));
    let mut huge = flat;
    huge[4].x = 1e30;
    assert_eq!(patch_collide(3, 3, &huge), Err(CollideProblem::OutOfRange));
    // All one point: every triangle degenerate, no facet, no panic.
    let point = patch_collide(3, 3, &[Vec3::splat(5.0); 9]).unwrap();
    assert!(point.facets.is_empty());
}

#[test]
fn crafted_grids_never_panic_and_name_valid_planes() {
    let mut rng = XorShift::new(0x9a7c4);
    for round in 0..400 {
        let size = |r: &mut XorShift| 3 + 2 * (r.next_u32() as usize % 4);
        let (w, h) = (size(&mut rng), size(&mut rng));
        let scale = [1.0f32, 64.0, 4096.0, 200_000.0][round % 4];
        let points: Vec<Vec3> = (0..w * h)
            .map(|k| {
                let mut v = Vec3::new(rng.unit(), rng.unit(), rng.unit()) * scale;
                // Some rows repeat (degenerate columns), some points coincide.
                if round % 5 == 0 && k % w == 1 {
                    v = Vec3::ZERO;
                }
                v
            })
            .collect();
        match patch_collide(w, h, &points) {
            Ok(c) => {
                for facet in &c.facets {
                    assert!((facet.surface_plane as usize) < c.planes.len());
                    assert!(facet.borders.len() <= super::MAX_FACET_BORDERS);
                    assert!(facet.borders.iter().all(|b| (b.plane as usize) < c.planes.len()));
                }
                assert!(c.planes.len() <= super::MAX_PATCH_PLANES);
                assert!(c.facets.len() <= super::MAX_FACETS);
            }
            Err(problem) => assert!(matches!(
                problem,
                CollideProblem::GridTooFine
                    | CollideProblem::TooManyPlanes
                    | CollideProblem::TooManyFacets
            )),
        }
    }
}
