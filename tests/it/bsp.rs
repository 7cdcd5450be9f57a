//! Compiler tests: the tree against brute force over brushes (property 20), bevel validity
//! (21, 23), the plane table (24), submodels and known geometric facts of the bundled maps.

use std::collections::HashSet;

use glam::{DVec3, Vec3};
use planeshift::Contents;
use planeshift::brush::{BevelKind, brush_bevels_with, brushes_from_map};
use planeshift::map::parse_map;
use planeshift::tolerance::{BEVEL_ACCEPT_EPSILON, DIST_EPSILON, NORMAL_EPSILON};

use crate::support::{
    BrushOracle, Pcg32, bundled_maps, cases, compile, in_parallel, read, real_maps,
};

/// Random points compared per real map: CI-sized, and the 1,000,000 with
/// `PLANESHIFT_FULL` (`support::cases`).
fn points_per_map() -> usize {
    cases(100_000, 1_000_000)
}
/// Points closer than this to a brush plane are left out: there the answer depends on
/// rounding, not on the tree (map units).
const SURFACE_MARGIN: f64 = 0.01;

/// The liquids a brush contributes to contents even when not solid.
const LIQUIDS: u32 = Contents::WATER.0 | Contents::SLIME.0 | Contents::LAVA.0 | Contents::FOG.0;

/// Whether `p` lies within [`SURFACE_MARGIN`] of a node plane on its path down the tree of
/// a model the world's point contents read (the world and its static models): leaves are
/// homogeneous only up to `SPLIT_EPSILON` from their splitting planes, which may be planes
/// of other brushes extended through this one (two nearly coplanar patch facets make a
/// sliver wedge there).
fn near_a_node_plane(compiled: &planeshift::CompiledMap, p: Vec3) -> bool {
    use planeshift::compiled::NodeChild;
    use planeshift::level::ModelKind;
    compiled
        .models()
        .iter()
        .enumerate()
        .filter(|(_, m)| matches!(m.kind, ModelKind::World | ModelKind::Static))
        .any(|(model, _)| {
            let Some((mut child, _, _)) = compiled.model_tree(model) else {
                return false;
            };
            while let NodeChild::Node(n) = child {
                let node = compiled.nodes()[n as usize];
                let d = compiled.planes()[node.plane as usize].distance(p);
                if f64::from(d.abs()) < SURFACE_MARGIN {
                    return true;
                }
                child = node.children[usize::from(d < 0.0)];
            }
            false
        })
}

fn world_oracle(src: &[u8]) -> BrushOracle {
    BrushOracle::new(crate::support::world_sweep_brushes(src), SURFACE_MARGIN)
}

/// Compares tree contents with brute force on `count` seeded points; returns (compared,
/// solid points seen).
fn compare_points(name: &str, src: &[u8], count: usize) -> (usize, usize) {
    let compiled = compile(src).map;
    let oracle = world_oracle(src);
    let (mins, maxs) = oracle.bounds();
    let margin = DVec3::splat(64.0);
    let results = in_parallel(count, |thread, count| {
        let mut rng = Pcg32::new(0x5eed_0000 + thread as u64);
        let (mut compared, mut solid) = (0, 0);
        for _ in 0..count {
            // Half uniform over the map (and its void margin), half inside some brush's bounds.
            let (lo, hi) = if rng.below(2) == 0 || oracle.brushes.is_empty() {
                (mins - margin, maxs + margin)
            } else {
                let b = &oracle.brushes[rng.below(oracle.brushes.len())];
                (b.mins - 4.0, b.maxs + 4.0)
            };
            let p = Vec3::new(
                rng.range_f64(lo.x, hi.x) as f32,
                rng.range_f64(lo.y, hi.y) as f32,
                rng.range_f64(lo.z, hi.z) as f32,
            );
            let q = p.as_dvec3();
            if oracle.near_surface(q, SURFACE_MARGIN) || near_a_node_plane(&compiled, p) {
                continue;
            }
            let mut expected_solid = false;
            let mut expected_liquid = 0;
            for b in oracle.containing(q) {
                expected_solid |= b.solid;
                expected_liquid |= b.contents.0 & LIQUIDS;
            }
            let got = compiled.point_contents(p);
            assert_eq!(got.is_solid(), expected_solid, "{name}: solidity at {p:?}");
            assert_eq!(got.0 & LIQUIDS, expected_liquid, "{name}: liquids at {p:?}");
            compared += 1;
            solid += usize::from(expected_solid);
        }
        (compared, solid)
    });
    results
        .into_iter()
        .fold((0, 0), |(a, b), (c, d)| (a + c, b + d))
}

#[test]
fn tree_contents_equal_brute_force_on_real_maps() {
    for (name, path) in real_maps("tree_contents_equal_brute_force_on_real_maps") {
        let points = points_per_map();
        let (compared, solid) = compare_points(&name, &read(&path), points);
        println!("{name}: {compared} points compared, {solid} solid");
        assert!(
            compared > points * 9 / 10,
            "{name}: only {compared} compared"
        );
        assert!(solid > compared / 100, "{name}: only {solid} solid points");
    }
}

#[test]
fn tree_contents_equal_brute_force_on_bundled_maps() {
    for (name, path) in bundled_maps() {
        let (compared, solid) = compare_points(&name, &read(&path), 100_000);
        assert!(
            solid > 0 && compared > 90_000,
            "{name}: {compared} compared, {solid} solid"
        );
    }
}

#[test]
fn bevels_are_valid_and_never_split() {
    let mut maps = real_maps("bevels_are_valid_and_never_split");
    maps.extend(bundled_maps());
    let mut totals = [0usize; 4];
    for (name, path) in &maps {
        let src = read(path);
        let output = brushes_from_map(&parse_map(&src).expect("parse"));
        for brush in &output.brushes {
            let vertices = brush.vertices();
            // As the compiler bevels it: patch facets take Quake's box bevels only.
            let bevels = brush_bevels_with(brush, brush.patch.is_none()).bevels;
            let mut normals: Vec<DVec3> = brush.sides.iter().map(|s| s.plane.normal).collect();
            normals.extend(bevels.iter().map(|b| b.plane.normal));
            for (i, a) in normals.iter().enumerate() {
                for b in &normals[i + 1..] {
                    assert!(
                        (*a - *b).abs().max_element() >= NORMAL_EPSILON,
                        "{name} brush at {}: two sides share normal {a}",
                        brush.loc
                    );
                }
            }
            for bevel in &bevels {
                let worst = vertices
                    .iter()
                    .map(|v| bevel.plane.distance(*v))
                    .fold(f64::NEG_INFINITY, f64::max);
                assert!(
                    worst <= BEVEL_ACCEPT_EPSILON,
                    "{name} {}: {bevel:?} cuts the brush by {worst}",
                    brush.loc
                );
                for end in bevel.edge {
                    let d = bevel.plane.distance(end).abs();
                    assert!(
                        d < 1e-4,
                        "{name} {}: {bevel:?} misses its generator by {d}",
                        brush.loc
                    );
                }
                totals[match bevel.kind {
                    BevelKind::Axial => 0,
                    BevelKind::EdgeAxis => 1,
                    BevelKind::Bisector => 2,
                    BevelKind::Rounding => 3,
                }] += 1;
            }
        }
        // Bevels never split: every node plane is the plane of a real face.
        let compiled = compile(&src).map;
        let face_planes: HashSet<u32> = compiled
            .sides()
            .iter()
            .filter(|s| !s.bevel)
            .map(|s| s.plane & !1)
            .collect();
        for node in compiled.nodes() {
            assert!(
                face_planes.contains(&(node.plane & !1)),
                "{name}: a node splits on a bevel plane"
            );
        }
        // No two sides of a compiled brush share a normal, in f32 either.
        for brush in compiled.brushes() {
            let sides = compiled.brush_sides(brush);
            for (i, a) in sides.iter().enumerate() {
                for b in &sides[i + 1..] {
                    let (na, nb) = (
                        compiled.planes()[a.plane as usize].normal,
                        compiled.planes()[b.plane as usize].normal,
                    );
                    // The stored f32 normals, renormalised and compared by angle: the
                    // compiler keeps sides at least BEVEL_SAME_NORMAL_SINE (5e-4 rad) apart,
                    // narrowing turns them by about 1e-7, and f32 compares normals closer
                    // than 4.5e-4 as one. (An f32 dot product of normals whose lengths are
                    // off by an ulp rounds by as much as that margin: patch facets, at every
                    // angle, found it.)
                    let (da, db) = (na.as_dvec3().normalize(), nb.as_dvec3().normalize());
                    assert!(
                        da.dot(db) <= 0.0 || da.cross(db).length() > 4.5e-4,
                        "{name}: compiled sides share a normal: {a:?} {na} and {b:?} {nb}"
                    );
                }
            }
        }
    }
    println!(
        "bevels: {} axial, {} edge x axis, {} bisector, {} rounding",
        totals[0], totals[1], totals[2], totals[3]
    );
    assert!(
        totals.iter().all(|&t| t > 0),
        "every bevel family is exercised: {totals:?}"
    );
}

#[test]
fn plane_table_has_no_near_duplicates_and_exact_pairs() {
    let mut maps = real_maps("plane_table_has_no_near_duplicates_and_exact_pairs");
    maps.extend(bundled_maps());
    for (name, path) in &maps {
        let compiled = compile(&read(path)).map;
        let planes = compiled.planes();
        let mut canonical: Vec<(f64, DVec3)> = planes
            .chunks(2)
            .map(|pair| {
                assert_eq!(pair[1].normal, -pair[0].normal, "{name}");
                assert_eq!(pair[1].dist, -pair[0].dist, "{name}");
                (f64::from(pair[0].dist), pair[0].normal.as_dvec3())
            })
            .collect();
        canonical.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (i, (d, n)) in canonical.iter().enumerate() {
            // The compiler merges in f64; narrowing to f32 moves each distance by up to half
            // an ulp, so two planes just over DIST_EPSILON apart (a bevel through a corner of
            // slanted faces at y = -463.99989 and a face at -464 on q3dm6ish) may read closer.
            let narrowing = f64::from(f32::EPSILON) * d.abs().max(1.0);
            for (e, m) in canonical[i + 1..]
                .iter()
                .take_while(|(e, _)| e - d < DIST_EPSILON - narrowing)
            {
                // Likewise for normals: components within NORMAL_EPSILON merge in f64, and
                // narrowing moves each by up to an f32 ulp (patch facets make many planes,
                // some just over the epsilon apart: 1.1e-6 on am_icyhell).
                let slack = 2.0 * f64::from(f32::EPSILON);
                assert!(
                    (*n - *m).abs().max_element() > NORMAL_EPSILON - slack,
                    "{name}: planes ({n}, {d}) and ({m}, {e}) should have merged"
                );
            }
        }
    }
}

fn arena() -> planeshift::CompiledMap {
    compile(&read(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/arena.map"),
    ))
    .map
}

#[test]
fn arena_contents_at_known_points() {
    let map = arena();
    // Open floor space above the tiled floor; the tiles themselves; the void below and beyond.
    assert_eq!(
        map.point_contents(Vec3::new(1536.0, 1536.0, 24.0)),
        Contents::EMPTY
    );
    assert_eq!(
        map.point_contents(Vec3::new(1536.0, 1536.0, -8.0)),
        Contents::SOLID
    );
    assert_eq!(
        map.point_contents(Vec3::new(1536.0, 1536.0, -1000.0)),
        Contents::EMPTY
    );
    assert_eq!(
        map.point_contents(Vec3::new(1e5, 0.0, 0.0)),
        Contents::EMPTY
    );
    // Water, clip and the 18-unit stair flight (step 2 top at z = 36, x 160..192).
    assert_eq!(
        map.point_contents(Vec3::new(256.0, 1536.0, 32.0)),
        Contents::WATER
    );
    assert_eq!(
        map.point_contents(Vec3::new(576.0, 1536.0, 64.0)),
        Contents::PLAYERCLIP
    );
    assert_eq!(
        map.point_contents(Vec3::new(176.0, 576.0, 35.0)),
        Contents::SOLID
    );
    assert_eq!(
        map.point_contents(Vec3::new(176.0, 576.0, 37.0)),
        Contents::EMPTY
    );
    // The 2-unit wall at x 1152..1154.
    assert_eq!(
        map.point_contents(Vec3::new(1153.0, 768.0, 32.0)),
        Contents::SOLID
    );
    assert_eq!(
        map.point_contents(Vec3::new(1155.0, 768.0, 32.0)),
        Contents::EMPTY
    );
}

#[test]
fn arena_submodels_keep_their_entities() {
    let map = arena();
    let models = map.models();
    assert_eq!(models.len(), 3, "world, func_door, trigger_multiple");
    let classname = |i: usize| map.model_entity(i).map(|e| e.classname());
    assert_eq!(classname(1), Some("func_door"));
    assert_eq!(classname(2), Some("trigger_multiple"));
    assert_eq!(models[1].mins, Vec3::new(768.0, 1408.0, 0.0));
    assert_eq!(models[1].maxs, Vec3::new(784.0, 1536.0, 128.0));
    let inside_door = Vec3::new(776.0, 1472.0, 64.0);
    assert_eq!(
        map.leaf_at(1, inside_door).map(|l| l.contents),
        Some(Contents::SOLID)
    );
    assert_eq!(
        map.point_contents(inside_door),
        Contents::EMPTY,
        "doors are not world"
    );
    // The trigger is a model whose brushes are trigger volumes only.
    assert_eq!(models[2].brush_range().len(), 1);
    assert_eq!(
        map.leaf_at(2, Vec3::new(960.0, 1472.0, 64.0))
            .map(|l| l.contents),
        Some(Contents::TRIGGER)
    );
}

#[test]
fn real_maps_keep_their_movers_as_submodels() {
    let Some(dir) = crate::support::real_maps_dir("real_maps_keep_their_movers_as_submodels")
    else {
        return;
    };
    let map = compile(&read(&dir.join("id-quake-1996/dm2.map"))).map;
    let classes: Vec<&str> = map.models()[1..]
        .iter()
        .filter_map(|m| m.entity().and_then(|e| map.entity(e)))
        .map(|e| e.classname())
        .collect();
    assert_eq!(classes.len(), map.models().len() - 1);
    for mover in ["func_door", "func_plat", "func_train"] {
        assert!(classes.contains(&mover), "dm2 has a {mover}: {classes:?}");
    }
    assert!(
        map.models()[1..]
            .iter()
            .any(|m| !m.brush_range().is_empty())
    );
}
