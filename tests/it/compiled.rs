//! The compiled file: write then load gives the same world, the same map compiles to the
//! same bytes, and corrupt or crafted files (aliased ranges, DAGs, extreme counts) load as
//! typed errors, quickly, never panics.

use std::panic::{AssertUnwindSafe, catch_unwind};

use glam::{Quat, Vec3};
use planeshift::Contents;
use planeshift::SurfaceFlags;
use planeshift::{
    CompiledMap, LoadError,
    compiled::{CompiledBrush, CompiledLeaf, CompiledNode, CompiledSide, NodeChild, frame, wide},
    level::{CompileStats, FORMAT_VERSION, MAGIC, ModelKind},
    query::Plane,
};
use planeshift::{ModelPlacement, TraceShape};

use crate::support::{Pcg32, bundled_maps, cases, compile, in_parallel, read, real_maps};

/// Points compared between the compiled and the reloaded world, per map: CI-sized, and the
/// issue's 100,000 with `PLANESHIFT_FULL` (`support::cases`).
fn round_trip_points() -> usize {
    cases(10_000, 100_000)
}
/// Mutated compiled files in all: CI-sized, and the issue's 100,000 with `PLANESHIFT_FULL`.
fn mutated_files() -> usize {
    cases(20_000, 100_000)
}

/// Mutations of the 16-node hull chain in [`crafted_clip_hull_trees_are_typed_errors`]: each
/// loads the whole arena world again (about 1 ms in a test build), and one to three of 16
/// nodes' 3 numbers drawn from 80 values are covered long before 20,000.
fn mutated_hull_trees() -> usize {
    cases(4_000, 100_000)
}

fn random_point(rng: &mut Pcg32, map: &CompiledMap) -> Vec3 {
    let world = &map.models()[0];
    let (lo, hi) = (world.mins - 32.0, world.maxs + 32.0);
    Vec3::new(
        rng.range_f64(f64::from(lo.x), f64::from(hi.x)) as f32,
        rng.range_f64(f64::from(lo.y), f64::from(hi.y)) as f32,
        rng.range_f64(f64::from(lo.z), f64::from(hi.z)) as f32,
    )
}

#[test]
fn compile_write_load_keeps_point_contents() {
    let mut maps = real_maps("compile_write_load_keeps_point_contents");
    maps.extend(bundled_maps());
    for (name, path) in &maps {
        let compiled = compile(&read(path)).map;
        let loaded =
            CompiledMap::from_bytes(&compiled.to_bytes()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(loaded, compiled, "{name}");
        let mut rng = Pcg32::new(7);
        let mut solid = 0;
        for _ in 0..round_trip_points() {
            let p = random_point(&mut rng, &compiled);
            let contents = compiled.point_contents(p);
            assert_eq!(loaded.point_contents(p), contents, "{name} at {p:?}");
            solid += usize::from(contents.is_solid());
        }
        assert!(solid > 0, "{name}");
    }
}

/// The same map compiles to the same bytes: the file holds no wall-clock time, and nothing
/// in the compiler lets iteration order leak into the output. The one `HashMap` on the way
/// (the plane table's buckets, `src/bsp/planes.rs`, with std's randomly seeded hasher) is
/// only looked up, never iterated, so plane ids follow insertion order; two compiles in one
/// process still get differently seeded maps, so a leak would show here.
#[test]
fn every_map_compiles_to_the_same_bytes_twice() {
    let mut maps = real_maps("every_map_compiles_to_the_same_bytes_twice");
    maps.extend(bundled_maps());
    for (name, path) in &maps {
        let src = read(path);
        // The first may come from the test run's compile cache; the second is always fresh.
        let first = compile(&src).map.to_bytes();
        let second = planeshift::compile_map(&src)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .map
            .to_bytes();
        assert!(first == second, "{name}: two compiles differ");
    }
    println!(
        "determinism: {} maps compiled twice, same bytes",
        maps.len()
    );
}

#[test]
fn wrong_magic_version_and_trailing_bytes_are_typed_errors() {
    let map = compile(&read(&bundled_maps()[0].1)).map;
    let bytes = map.to_bytes();
    assert_eq!(
        CompiledMap::from_bytes(b"").err(),
        Some(LoadError::BadMagic)
    );
    assert_eq!(
        CompiledMap::from_bytes(b"PACK\0\0\0\0").err(),
        Some(LoadError::BadMagic)
    );
    let mut newer = MAGIC.to_vec();
    newer.extend(postcard::to_allocvec(&(FORMAT_VERSION + 1)).expect("encode"));
    assert_eq!(
        CompiledMap::from_bytes(&newer).err(),
        Some(LoadError::VersionMismatch {
            found: FORMAT_VERSION + 1,
            expected: FORMAT_VERSION
        })
    );
    let mut body = bytes[bytes.len() - body_len(&bytes)..].to_vec();
    assert_eq!(CompiledMap::from_bytes(&frame(&body)).as_ref(), Ok(&map));
    body.push(0);
    assert_eq!(
        CompiledMap::from_bytes(&frame(&body)).err(),
        Some(LoadError::TrailingBytes(1))
    );
    let truncated = &bytes[..bytes.len() - 3];
    assert!(matches!(
        CompiledMap::from_bytes(truncated),
        Err(LoadError::ChecksumMismatch { .. })
    ));
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    assert!(matches!(
        CompiledMap::from_bytes(&flipped),
        Err(LoadError::ChecksumMismatch { .. })
    ));
}

/// Length of the body of a framed file: what follows the magic, version and checksum.
fn body_len(file: &[u8]) -> usize {
    let rest = &file[MAGIC.len()..];
    let (_, rest) = postcard::take_from_bytes::<(u32, u64)>(rest).expect("header");
    rest.len()
}

#[test]
fn mutated_compiled_files_load_as_ok_or_typed_errors() {
    // Each source is (body, whole file): even cases damage the whole file (the checksum must
    // catch it), odd cases damage the body and frame it again with a matching checksum, so
    // decoding and validation see the damage.
    let mut sources: Vec<Vec<u8>> = bundled_maps()
        .iter()
        .map(|(_, p)| compile(&read(p)).map.to_bytes())
        .collect();
    sources.extend(
        real_maps("mutated_compiled_files")
            .iter()
            .map(|(_, p)| read(p))
            .filter(|src| src.len() < 40_000)
            .map(|src| compile(&src).map.to_bytes()),
    );
    let files = mutated_files();
    let results = in_parallel(files, |thread, count| {
        let mut outcomes = [0usize; 2];
        let mut failures = Vec::new();
        for case in 0..count {
            let seed = (thread * files + case) as u64;
            let mut rng = Pcg32::new(seed);
            let whole = &sources[rng.below(sources.len())];
            let reframe = case % 2 == 1;
            let header = whole.len() - body_len(whole);
            let mut bytes = if reframe {
                whole[header..].to_vec()
            } else {
                whole.clone()
            };
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(bytes.len());
                match rng.below(4) {
                    0 => bytes[at] ^= 1 << rng.below(8),
                    1 => bytes[at] = rng.next_u32() as u8,
                    2 => bytes.truncate(at.max(1)),
                    _ => bytes.insert(at, rng.next_u32() as u8),
                }
            }
            if reframe {
                bytes = frame(&bytes);
            }
            let outcome =
                catch_unwind(AssertUnwindSafe(|| match CompiledMap::from_bytes(&bytes) {
                    Ok(map) => {
                        // A loaded world must answer queries without panicking.
                        for _ in 0..16 {
                            let p = random_point(&mut rng, &map);
                            let _ = map.point_contents(p);
                        }
                        let _ = map.max_depth();
                        true
                    }
                    Err(e) => {
                        assert!(!e.to_string().is_empty());
                        false
                    }
                }));
            match outcome {
                Ok(loaded) => outcomes[usize::from(loaded)] += 1,
                Err(_) => failures.push(seed),
            }
        }
        (outcomes, failures)
    });
    let failures: Vec<u64> = results
        .iter()
        .flat_map(|(_, f)| f.iter().copied())
        .collect();
    let loaded: usize = results.iter().map(|(o, _)| o[1]).sum();
    let rejected: usize = results.iter().map(|(o, _)| o[0]).sum();
    println!("compiled fuzz: {files} files, {loaded} loaded, {rejected} rejected");
    assert!(failures.is_empty(), "panics for seeds {failures:?}");
    assert_eq!(loaded + rejected, files);
    assert!(
        rejected > files / 2 && loaded > 0,
        "{loaded} loaded, {rejected} rejected"
    );
    assert!(
        loaded < files / 10,
        "whole-file damage must fail the checksum"
    );
}

/// Every brush of every map gets its corners and edges at load, on the brush: each corner on
/// at least three face planes and inside all, each edge on a face. Brushes whose corners each
/// lie on exactly three planes (simple polytopes) also satisfy Euler's V − E + F = 2; where
/// nearly coplanar faces meet, a corner lies on more planes and a chord of a face can be
/// listed as an edge, which is harmless for closest points (it lies on the brush) but not a
/// true edge. Every brush has features, whatever its face count (issue 13).
#[test]
fn brush_features_are_closed_polytopes_on_every_map() {
    let mut maps = real_maps("brush_features_are_closed_polytopes_on_every_map");
    maps.extend(bundled_maps());
    let (mut checked, mut simple) = (0usize, 0usize);
    for (name, path) in &maps {
        let map = compile(&read(path)).map;
        for (index, brush) in map.brushes().iter().enumerate() {
            let Some(features) = map.brush_features(index) else {
                panic!(
                    "{name}: brush {index} of {} faces has no features",
                    brush.face_count
                );
            };
            checked += 1;
            let on = |c: glam::DVec3| -> Vec<usize> {
                features
                    .planes
                    .iter()
                    .map(wide)
                    .enumerate()
                    .filter(|(_, (n, d, _))| (n.dot(c) - d).abs() <= features.eps)
                    .map(|(k, _)| k)
                    .collect()
            };
            let inside = |c: glam::DVec3| {
                features
                    .planes
                    .iter()
                    .map(wide)
                    .all(|(n, d, _)| n.dot(c) <= d + features.eps)
            };
            for &corner in features.corners {
                assert!(
                    on(corner).len() >= 3,
                    "{name}: brush {index} corner {corner}"
                );
                assert!(inside(corner), "{name}: brush {index} corner {corner}");
            }
            for &(a, b) in features.edges {
                let (a, b) = (features.corners[a as usize], features.corners[b as usize]);
                let (on_a, on_b) = (on(a), on(b));
                assert!(
                    on_a.iter().any(|k| on_b.contains(k)),
                    "{name}: brush {index} edge {a}..{b} on {on_a:?} and {on_b:?}"
                );
                assert!(inside((a + b) * 0.5), "{name}: brush {index} edge {a}..{b}");
            }
            if features.corners.iter().any(|c| on(*c).len() != 3) {
                continue;
            }
            simple += 1;
            let faces = (0..features.planes.len())
                .filter(|k| {
                    let corners = features.corners.iter().filter(|c| on(**c).contains(k));
                    corners.count() >= 3
                })
                .count();
            let (v, e) = (features.corners.len(), features.edges.len());
            assert_eq!(
                v as i64 - e as i64 + faces as i64,
                2,
                "{name}: brush {index} (V {v}, E {e}, F {faces})"
            );
        }
    }
    println!(
        "brush features: {checked} brushes checked ({simple} simple), every brush has features"
    );
    assert!(checked > 10_000 && simple > checked / 2);
}

/// Bodies mutated in [`mutated_bodies_load_as_ok_or_typed_errors_quickly`].
const MUTATED_BODIES: usize = 10_000;

/// The body's tables, mirrored field for field from `src/compiled/mod.rs` (postcard is
/// positional), so that tests can craft files whose tables decode but lie.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct Body {
    planes: Vec<Plane>,
    nodes: Vec<CompiledNode>,
    leaves: Vec<CompiledLeaf>,
    leaf_brushes: Vec<u32>,
    brushes: Vec<CompiledBrush>,
    sides: Vec<CompiledSide>,
    models: Vec<RawModel>,
    entities: Vec<RawEntity>,
    materials: Vec<String>,
    game: String,
    stats: CompileStats,
    clip_hulls: RawClipHulls,
    game_patches: RawGamePatches,
    declared: RawDeclaredHulls,
}

/// The declared boxes' trees as the file stores them, mirrored field for field.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
struct RawDeclaredHulls {
    hulls: Vec<RawDeclaredHull>,
}

/// One declared box's tree as stored.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct RawDeclaredHull {
    mins: Vec3,
    maxs: Vec3,
    radius: f32,
    root: NodeChild,
    nodes: Vec<RawDeclaredNode>,
    leaves: Vec<RawDeclaredLeaf>,
    brushes: Vec<u32>,
}

/// A declared tree's node as stored.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
struct RawDeclaredNode {
    normal: Vec3,
    dist: f32,
    children: [NodeChild; 2],
}

/// A declared tree's leaf as stored.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
struct RawDeclaredLeaf {
    first: u32,
    count: u32,
    contents: Contents,
}

/// A Quake 3 level's world patches as the file stores them, mirrored field for field.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
struct RawGamePatches {
    patches: Vec<RawGamePatch>,
}

/// One patch's control grid and meaning as stored.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct RawGamePatch {
    width: u32,
    height: u32,
    points: Vec<Vec3>,
    contents: Contents,
    surface: SurfaceFlags,
    texture: String,
}

/// A Quake 1 level's own hull trees as the file stores them, mirrored field for field.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
struct RawClipHulls {
    planes: Vec<RawHullPlane>,
    nodes: Vec<RawHullNode>,
    heads: Vec<[i32; 4]>,
}

/// A hull plane as stored.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
struct RawHullPlane {
    normal: Vec3,
    dist: f32,
    axis: u8,
}

/// A hull node as stored.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
struct RawHullNode {
    plane: u32,
    children: [i32; 2],
}

/// An entity as the file stores it, mirrored field for field.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct RawEntity {
    properties: Vec<(String, String)>,
    model: Option<u32>,
}

/// A model as the file stores it (its tree root and brush range are crate-private in
/// `Model`), mirrored field for field.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct RawModel {
    root: NodeChild,
    first_brush: u32,
    brush_count: u32,
    mins: Vec3,
    maxs: Vec3,
    origin: Vec3,
    entity: Option<u32>,
    kind: ModelKind,
}

impl Body {
    fn of(map: &CompiledMap) -> Body {
        let bytes = map.to_bytes();
        postcard::from_bytes(&bytes[bytes.len() - body_len(&bytes)..]).expect("own body")
    }

    fn file(&self) -> Vec<u8> {
        frame(&postcard::to_allocvec(self).expect("encode"))
    }

    fn load(&self) -> Result<CompiledMap, LoadError> {
        CompiledMap::from_bytes(&self.file())
    }
}

/// The table and message of a `BadIndex`, or a panic naming what came instead.
fn bad_index(result: Result<CompiledMap, LoadError>) -> (&'static str, String) {
    match result {
        Err(LoadError::BadIndex { table, reason, .. }) => (table, reason),
        other => panic!("expected BadIndex, got {:?}", other.err()),
    }
}

/// The arena: several leaves with brushes, brushes with sides, submodels.
fn arena_body() -> Body {
    let path = bundled_maps()
        .into_iter()
        .find(|(name, _)| name.contains("arena"))
        .expect("arena.map")
        .1;
    Body::of(&compile(&read(&path)).map)
}

#[test]
fn aliased_and_overlapping_ranges_are_refused() {
    let body = arena_body();
    assert!(body.load().is_ok());
    let listing: Vec<usize> = (0..body.leaves.len())
        .filter(|&i| body.leaves[i].brush_count > 0)
        .collect();
    assert!(listing.len() >= 2 && body.brushes.len() >= 2 && body.models.len() >= 3);

    // Two leaves with the same range (aliased) or overlapping ranges.
    let mut aliased = body.clone();
    aliased.leaves[listing[1]].first_brush = aliased.leaves[listing[0]].first_brush;
    aliased.leaves[listing[1]].brush_count = aliased.leaves[listing[0]].brush_count;
    let (table, reason) = bad_index(aliased.load());
    assert_eq!(table, "leaves");
    assert!(reason.contains("overlaps the range of leaves"), "{reason}");
    let mut overlapping = body.clone();
    let first = &overlapping.leaves[listing[0]];
    let grown = first.brush_count + 1;
    overlapping.leaves[listing[0]].brush_count = grown;
    let (table, reason) = bad_index(overlapping.load());
    assert_eq!(table, "leaves", "{reason}");

    // A brush listed twice by one leaf.
    let mut twice = body.clone();
    let leaf = twice.leaves[listing[0]];
    if leaf.brush_count >= 2 {
        let at = leaf.first_brush as usize;
        twice.leaf_brushes[at + 1] = twice.leaf_brushes[at];
        let (table, reason) = bad_index(twice.load());
        assert_eq!(table, "leaves");
        assert!(reason.contains("listed twice"), "{reason}");
    }

    // Brushes sharing sides.
    let mut sides = body.clone();
    sides.brushes[1].first_side = sides.brushes[0].first_side;
    sides.brushes[1].side_count = sides.brushes[0].side_count;
    let (table, reason) = bad_index(sides.load());
    assert_eq!(table, "brushes");
    assert!(
        reason.contains("overlaps the range of brushes[0]"),
        "{reason}"
    );

    // Models sharing brushes.
    let mut models = body.clone();
    models.models[1].first_brush = 0;
    let (table, _) = bad_index(models.load());
    assert_eq!(table, "models");

    // A leaf of the world listing a submodel's brush.
    let mut foreign = body.clone();
    let world_leaf = foreign.leaves[listing[0]];
    let submodel_brush = foreign.models[1].first_brush;
    foreign.leaf_brushes[world_leaf.first_brush as usize] = submodel_brush;
    let (table, reason) = bad_index(foreign.load());
    assert_eq!(table, "leaves");
    assert!(reason.contains("not a brush of model"), "{reason}");

    // A node child shared by two parents (a DAG), and a leaf shared by two parents.
    let mut dag = body.clone();
    let last = dag.nodes.len() - 1;
    let (a, b) = (last - 1, last);
    dag.nodes[a].children[0] = dag.nodes[b].children[0];
    let (table, reason) = bad_index(dag.load());
    assert_eq!(table, "nodes");
    assert!(reason.contains("two parents"), "{reason}");
}

/// A file made to cost time superlinear in its size under a careless loader: every node
/// pointing both children at the next (a DAG whose walk doubles per level), thousands of
/// leaves aliasing one long brush list (each list would be read once per leaf), and tables
/// claiming billions of entries (a loader reserving them would exhaust memory). All are
/// refused, and quickly.
#[test]
fn blow_up_files_are_refused_in_linear_time() {
    let body = arena_body();
    let mut dag = body.clone();
    let base = dag.nodes.len() as u32;
    let plane = dag.nodes[0].plane;
    for k in 0..900u32 {
        dag.nodes.push(CompiledNode {
            plane,
            children: [NodeChild::Node(base + k + 1), NodeChild::Node(base + k + 1)],
        });
    }
    dag.nodes.push(CompiledNode {
        plane,
        children: [NodeChild::Leaf(0), NodeChild::Leaf(0)],
    });
    dag.models[0].root = NodeChild::Node(base);
    let started = std::time::Instant::now();
    assert!(matches!(dag.load(), Err(LoadError::BadIndex { .. })));
    println!("DAG of 900 levels refused in {:?}", started.elapsed());

    let mut aliased = body.clone();
    let world = aliased.models[0].clone();
    let list: Vec<u32> = (world.first_brush..world.first_brush + world.brush_count).collect();
    let first = aliased.leaf_brushes.len() as u32;
    aliased.leaf_brushes.extend(&list);
    let contents = aliased.leaves[0].contents;
    for leaf in &mut aliased.leaves {
        *leaf = CompiledLeaf {
            contents,
            first_brush: first,
            brush_count: list.len() as u32,
        };
    }
    for _ in 0..20_000 {
        aliased.leaves.push(aliased.leaves[0]);
    }
    let started = std::time::Instant::now();
    let (table, reason) = bad_index(aliased.load());
    assert_eq!(table, "leaves");
    assert!(reason.contains("overlaps"), "{reason}");
    println!(
        "20,000 leaves aliasing one {}-brush list refused in {:?}",
        list.len(),
        started.elapsed()
    );

    // Tables claiming billions of entries in a few bytes: decoding must not reserve them.
    for claimed in [u64::from(u32::MAX), u64::MAX >> 1] {
        let mut bytes = Vec::new();
        replace_varint(&mut bytes, 0, claimed);
        bytes.extend([0u8; 16]);
        let started = std::time::Instant::now();
        assert!(matches!(
            CompiledMap::from_bytes(&frame(&bytes)),
            Err(LoadError::Decode(_))
        ));
        println!(
            "a table claiming {claimed} entries refused in {:?}",
            started.elapsed()
        );
    }
}

/// Writes `value` as a postcard varint (LEB128) over the varint starting at `at`.
fn replace_varint(bytes: &mut Vec<u8>, at: usize, value: u64) {
    let mut end = at;
    while end < bytes.len() && bytes[end] & 0x80 != 0 && end - at < 9 {
        end += 1;
    }
    let end = (end + 1).min(bytes.len());
    let mut encoded = Vec::new();
    let mut v = value;
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            encoded.push(byte);
            break;
        }
        encoded.push(byte | 0x80);
    }
    bytes.splice(at..end, encoded);
}

/// One mutation of a body's tables: aliasing, overlapping and shared references, and
/// counts and indices set to extremes.
fn mutate_tables(body: &mut Body, rng: &mut Pcg32) {
    let extreme = |rng: &mut Pcg32, len: usize| -> u32 {
        match rng.below(5) {
            0 => 0,
            1 => len as u32,
            2 => (len as u32).saturating_sub(1),
            3 => u32::MAX - rng.below(3) as u32,
            _ => rng.below(len.max(1) + 2) as u32,
        }
    };
    let pick = |rng: &mut Pcg32, len: usize| rng.below(len.max(1));
    match rng.below(10) {
        8 if !body.entities.is_empty() => {
            let a = pick(rng, body.entities.len());
            body.entities[a].model = match rng.below(3) {
                0 => None,
                _ => Some(extreme(rng, body.models.len())),
            };
        }
        9 => {
            let a = pick(rng, body.models.len());
            if let Some(model) = body.models.get_mut(a) {
                model.entity = Some(extreme(rng, body.entities.len()));
            }
        }
        0 if !body.leaves.is_empty() => {
            let (a, b) = (pick(rng, body.leaves.len()), pick(rng, body.leaves.len()));
            body.leaves[a].first_brush = body.leaves[b].first_brush + rng.below(2) as u32;
            body.leaves[a].brush_count = body.leaves[b].brush_count;
        }
        1 if !body.brushes.is_empty() => {
            let (a, b) = (pick(rng, body.brushes.len()), pick(rng, body.brushes.len()));
            body.brushes[a].first_side = body.brushes[b].first_side;
            body.brushes[a].side_count = if rng.below(2) == 0 {
                body.brushes[b].side_count
            } else {
                extreme(rng, body.sides.len())
            };
        }
        2 => {
            let (a, b) = (pick(rng, body.models.len()), pick(rng, body.models.len()));
            if a < body.models.len() && b < body.models.len() {
                body.models[a].first_brush = body.models[b].first_brush;
                body.models[a].brush_count = extreme(rng, body.brushes.len());
            }
        }
        3 if body.nodes.len() >= 2 => {
            let (a, b) = (pick(rng, body.nodes.len()), pick(rng, body.nodes.len()));
            let side = rng.below(2);
            body.nodes[a].children[side] = body.nodes[b].children[rng.below(2)];
        }
        4 if !body.nodes.is_empty() => {
            let a = pick(rng, body.nodes.len());
            let n = extreme(rng, body.nodes.len());
            body.nodes[a].children[rng.below(2)] = if rng.below(2) == 0 {
                NodeChild::Node(n)
            } else {
                NodeChild::Leaf(extreme(rng, body.leaves.len()))
            };
        }
        5 if !body.leaf_brushes.is_empty() => {
            let a = pick(rng, body.leaf_brushes.len());
            body.leaf_brushes[a] = if rng.below(2) == 0 {
                body.leaf_brushes[pick(rng, body.leaf_brushes.len())]
            } else {
                extreme(rng, body.brushes.len())
            };
        }
        6 if !body.leaves.is_empty() => {
            let a = pick(rng, body.leaves.len());
            body.leaves[a].brush_count = extreme(rng, body.leaf_brushes.len());
        }
        _ => {
            let a = pick(rng, body.models.len());
            if let Some(model) = body.models.get_mut(a) {
                model.root = if rng.below(2) == 0 {
                    NodeChild::Node(extreme(rng, body.nodes.len()))
                } else {
                    NodeChild::Leaf(extreme(rng, body.leaves.len()))
                };
            }
        }
    }
}

/// One byte-level mutation of a serialised body: bit flips, bytes, postcard varints set to
/// extremes, splices and duplicated runs, truncation.
fn mutate_bytes(bytes: &mut Vec<u8>, rng: &mut Pcg32) {
    if bytes.is_empty() {
        bytes.push(rng.next_u32() as u8);
        return;
    }
    let at = rng.below(bytes.len());
    match rng.below(7) {
        0 => bytes[at] ^= 1 << rng.below(8),
        1 => bytes[at] = rng.next_u32() as u8,
        2 => {
            let values = [
                0,
                1,
                u64::from(u32::MAX),
                u64::from(u32::MAX) + 1,
                u64::MAX,
                1 << 20,
                u64::from(rng.next_u32()),
            ];
            replace_varint(bytes, at, values[rng.below(values.len())]);
        }
        3 => bytes.truncate(at),
        4 => {
            // Splice a run from elsewhere over this position.
            let from = rng.below(bytes.len());
            let len = 1 + rng.below(64);
            let run: Vec<u8> = bytes[from..(from + len).min(bytes.len())].to_vec();
            let end = (at + run.len()).min(bytes.len());
            bytes.splice(at..end, run);
        }
        5 => {
            // Duplicate a run (a table's entries repeated).
            let len = 1 + rng.below(64);
            let run: Vec<u8> = bytes[at..(at + len).min(bytes.len())].to_vec();
            bytes.splice(at..at, run);
        }
        _ => bytes.insert(at, rng.next_u32() as u8),
    }
}

/// Sweeps and point queries on a loaded world: none may panic or give NaN.
fn probe_world(map: &CompiledMap, rng: &mut Pcg32) {
    let shapes = [
        TraceShape::point(),
        TraceShape::sphere(16.0).expect("sphere"),
        TraceShape::quake1_player(),
        TraceShape::capsule(15.0, 13.0).expect("capsule"),
        TraceShape::cylinder(15.0, 28.0).expect("cylinder"),
        TraceShape::hull(vec![
            Vec3::ZERO,
            Vec3::X * 20.0,
            Vec3::Y * 20.0,
            Vec3::Z * 20.0,
        ])
        .expect("hull"),
    ];
    for shape in &shapes {
        let (start, end) = (random_point(rng, map), random_point(rng, map));
        let trace = map.trace(shape, start, end, Contents::MASK_ANY_BLOCKING);
        assert!(
            trace.end.is_finite() && (0.0..=1.0).contains(&trace.fraction),
            "{trace:?}"
        );
        assert!(trace.normal.is_none_or(|n| n.is_finite()), "{trace:?}");
        for model in 0..map.models().len().min(4) {
            let placement = ModelPlacement {
                offset: Vec3::new(8.0, 0.0, 0.0),
                rotation: Quat::from_rotation_z(0.3),
            };
            let moved = map.trace_model(
                model,
                &placement,
                shape,
                start,
                end,
                Contents::MASK_ANY_BLOCKING,
            );
            assert!(
                moved.end.is_finite() && moved.fraction.is_finite(),
                "{moved:?}"
            );
            let _ = map.leaf_at(model, start);
        }
    }
    for _ in 0..8 {
        let _ = map.point_contents(random_point(rng, map));
    }
    let _ = map.max_depth();
}

/// The file of mutated-body case `seed`, and which source it came from: the source's body
/// with its tables mutated (half the cases) and then its bytes (up to two mutations).
fn mutated_body(seed: u64, sources: &[Body], files: &[Vec<u8>]) -> (Vec<u8>, usize, Pcg32) {
    let mut rng = Pcg32::new(seed);
    let source = rng.below(sources.len());
    let mut bytes = if rng.below(2) == 0 {
        let mut body = sources[source].clone();
        for _ in 0..1 + rng.below(2) {
            mutate_tables(&mut body, &mut rng);
        }
        postcard::to_allocvec(&body).expect("encode")
    } else {
        let file = &files[source];
        file[file.len() - body_len(file)..].to_vec()
    };
    for _ in 0..rng.below(3) {
        mutate_bytes(&mut bytes, &mut rng);
    }
    (frame(&bytes), source, rng)
}

/// The shortest of five load times of `file`, in seconds: a load time without the
/// machine's scheduling noise.
fn load_seconds(file: &[u8]) -> f64 {
    (0..5)
        .map(|_| {
            let started = std::time::Instant::now();
            let _ = CompiledMap::from_bytes(file);
            started.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// 10,000 bodies damaged after serialisation (bytes, varints, splices, truncation) or in
/// their tables (aliased ranges, shared children, extreme counts), framed again with a
/// valid checksum so that decoding and validation see the damage. Each loads or is a typed
/// error; no panic, no hang. A loaded world answers sweeps and point queries without NaN.
/// Times are reported, not asserted (this machine's timings are not deterministic): the
/// slowest cases are loaded again and their best time compared with loading their
/// unmutated source.
#[test]
fn mutated_bodies_load_as_ok_or_typed_errors_quickly() {
    /// Slowest cases per thread loaded again.
    const RETIMED: usize = 8;
    let mut sources: Vec<Body> = bundled_maps()
        .iter()
        .map(|(_, p)| Body::of(&compile(&read(p)).map))
        .collect();
    sources.extend(
        real_maps("mutated_bodies")
            .iter()
            .map(|(_, p)| read(p))
            .filter(|src| src.len() < 40_000)
            .map(|src| Body::of(&compile(&src).map)),
    );
    let files: Vec<Vec<u8>> = sources.iter().map(Body::file).collect();
    assert!(files.iter().all(|f| CompiledMap::from_bytes(f).is_ok()));
    let results = in_parallel(MUTATED_BODIES, |thread, count| {
        // Ok, Decode, TrailingBytes, BadIndex, BadValue, other.
        let mut outcomes = [0usize; 6];
        let mut failures = Vec::new();
        let mut slowest: Vec<(f64, u64)> = Vec::new();
        for case in 0..count {
            let seed = 1_000_000 + (thread * MUTATED_BODIES + case) as u64;
            let (file, _, mut rng) = mutated_body(seed, &sources, &files);
            let started = std::time::Instant::now();
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                let loaded = CompiledMap::from_bytes(&file);
                let elapsed = started.elapsed().as_secs_f64();
                if let Ok(map) = &loaded {
                    probe_world(map, &mut rng);
                }
                (loaded.map(|_| ()), elapsed)
            }));
            match outcome {
                Ok((loaded, elapsed)) => {
                    let kind = match loaded {
                        Ok(()) => 0,
                        Err(LoadError::Decode(_)) => 1,
                        Err(LoadError::TrailingBytes(_)) => 2,
                        Err(LoadError::BadIndex { .. }) => 3,
                        Err(LoadError::BadValue { .. }) => 4,
                        Err(_) => 5,
                    };
                    outcomes[kind] += 1;
                    slowest.push((elapsed, seed));
                    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
                    slowest.truncate(RETIMED);
                }
                Err(_) => failures.push(seed),
            }
        }
        (outcomes, failures, slowest)
    });
    let failures: Vec<u64> = results
        .iter()
        .flat_map(|(_, f, _)| f.iter().copied())
        .collect();
    assert!(failures.is_empty(), "panics for seeds {failures:?}");
    let mut outcomes = [0usize; 6];
    for (o, _, _) in &results {
        for (total, n) in outcomes.iter_mut().zip(o) {
            *total += n;
        }
    }
    let first_pass = results
        .iter()
        .flat_map(|(_, _, s)| s.iter().map(|c| c.0))
        .fold(0.0, f64::max);
    // (best time, seed, best time of its unmutated source)
    let (seconds, seed, baseline) = results
        .iter()
        .flat_map(|(_, _, s)| s.iter().map(|c| c.1))
        .map(|seed| {
            let (file, source, _) = mutated_body(seed, &sources, &files);
            (load_seconds(&file), seed, load_seconds(&files[source]))
        })
        .fold((0.0, 0, 1.0), |a, b| if b.0 > a.0 { b } else { a });
    println!(
        "compiled body fuzz: {MUTATED_BODIES} bodies: {} loaded, {} Decode, {} TrailingBytes, \
         {} BadIndex, {} BadValue, {} other; slowest load {:.3} ms in the run, {:.3} ms \
         loaded again (seed {seed}), {:.1}x loading its unmutated source ({:.3} ms)",
        outcomes[0],
        outcomes[1],
        outcomes[2],
        outcomes[3],
        outcomes[4],
        outcomes[5],
        first_pass * 1e3,
        seconds * 1e3,
        seconds / baseline.max(1e-9),
        baseline * 1e3,
    );
    assert_eq!(outcomes.iter().sum::<usize>(), MUTATED_BODIES);
    assert_eq!(
        outcomes[5], 0,
        "the checksum always matches, the magic and version too"
    );
    assert!(outcomes[0] > 0 && outcomes[3] > 0 && outcomes[1] > 0);
}

/// The costliest brushes a file may hold for the feature table derived at load: many brushes of
/// `MAX_BRUSH_FACES` faces each, all tangent to a sphere so that every face is a real face
/// (each face's polygon is clipped by every other plane). The table's work is bounded by the
/// file's size (`FEATURE_WORK_BASE` plus `FEATURE_WORK_PER_SIDE` per side): the first such
/// brush gets exact features, brushes past the budget keep the plane-shifted hit. Load time
/// against the file's size is printed for the closing figures, not asserted.
#[test]
fn the_feature_table_of_many_faced_brushes_loads_in_time_linear_in_the_file() {
    use planeshift::tolerance::MAX_BRUSH_FACES;
    let body = arena_body();
    let faces = MAX_BRUSH_FACES;
    // Directions spread over the sphere (a Fibonacci lattice), each plane stored with its
    // negation as the plane table requires.
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let mut crafted = body.clone();
    let first_plane = crafted.planes.len() as u32;
    for i in 0..faces {
        let z = 1.0 - 2.0 * (i as f64 + 0.5) / faces as f64;
        let r = (1.0 - z * z).sqrt();
        let (s, c) = (golden * i as f64).sin_cos();
        let normal = Vec3::new((r * c) as f32, (r * s) as f32, z as f32).normalize();
        crafted.planes.push(Plane {
            normal,
            dist: 100.0,
        });
        crafted.planes.push(Plane {
            normal: -normal,
            dist: -100.0,
        });
    }
    let mut sizes_and_times = Vec::new();
    for brushes in [1usize, 4, 16, 64] {
        let mut file = crafted.clone();
        let model = file.models.len() - 1;
        for _ in 0..brushes {
            let first_side = file.sides.len() as u32;
            file.sides.extend((0..faces as u32).map(|k| CompiledSide {
                plane: first_plane + 2 * k,
                bevel: false,
                surface: SurfaceFlags::EMPTY,
                material: 0,
            }));
            file.brushes.push(CompiledBrush {
                contents: Contents::SOLID,
                game_contents: 0,
                first_side,
                side_count: faces as u32,
                face_count: faces as u32,
                box_side_count: faces as u32,
                mins: Vec3::splat(-100.0),
                maxs: Vec3::splat(100.0),
                box_exact: false,
                reach: 1.0,
                patch: false,
            });
            file.models[model].brush_count += 1;
        }
        let bytes = file.file();
        let started = std::time::Instant::now();
        let loaded = CompiledMap::from_bytes(&bytes);
        let seconds = started.elapsed().as_secs_f64();
        let map = loaded.unwrap_or_else(|e| panic!("{brushes} brushes: {e}"));
        let crafted_ids = map.brushes().len() - brushes..map.brushes().len();
        let with_features: Vec<bool> = crafted_ids
            .map(|b| map.brush_features(b).is_some())
            .collect();
        assert!(
            with_features[0],
            "the first many-faced brush gets exact features"
        );
        let first = map
            .brush_features(map.brushes().len() - brushes)
            .expect("features");
        assert_eq!(first.planes.len(), faces);
        // Features, where given, come in file order until the budget runs out.
        assert!(
            with_features.windows(2).all(|w| w[0] || !w[1]),
            "{with_features:?}"
        );
        let given = with_features.iter().filter(|f| **f).count();
        sizes_and_times.push((brushes, given, bytes.len(), seconds));
    }
    for (brushes, given, bytes, seconds) in &sizes_and_times {
        println!(
            "{brushes} brushes of {faces} faces ({given} with features): {bytes} bytes loaded in \
             {:.1} ms ({:.2} us per byte)",
            seconds * 1e3,
            seconds * 1e6 / *bytes as f64
        );
    }
}

/// The entities of every real and bundled map survive the file: same count as the `.map`,
/// same key/values in order, models that point back at their entities, and the spawn
/// points a game reads from the `.pbsp` equal the `.map`'s.
#[test]
fn entities_round_trip_and_spawns_equal_the_maps() {
    let maps: Vec<_> = bundled_maps()
        .into_iter()
        .chain(real_maps("entities_round_trip_and_spawns_equal_the_maps"))
        .collect();
    let check = |(name, path): &(String, std::path::PathBuf)| {
        let src = read(path);
        let parsed = planeshift::map::parse_map(&src).expect("parses");
        let compiled = compile(&src).map;
        let loaded = CompiledMap::from_bytes(&compiled.to_bytes()).expect("loads");
        assert_eq!(loaded.entities().len(), parsed.entities.len(), "{name}");
        for (e, f) in loaded.entities().zip(&parsed.entities) {
            assert_eq!(e.properties(), &f.properties[..], "{name}");
            assert_eq!(e.classname(), f.classname(), "{name}");
            assert_eq!(e.origin(), f.origin().map(|v| v.as_vec3()), "{name}");
            assert_eq!(e.angles(), f.angles().map(|v| v.as_vec3()), "{name}");
            if let Some(model) = e.model() {
                assert_eq!(loaded.models()[model].entity(), Some(e.index()), "{name}");
            }
            let merged = planeshift::game::is_world_class(f.classname());
            // Brushes or patches make a model (Quake 3: an entity with either).
            let expect_model = (!f.brushes.is_empty() || !f.patches.is_empty()) && !merged;
            assert_eq!(
                e.model().is_some_and(|m| m > 0),
                expect_model,
                "{name}: entity {} {}",
                e.index(),
                e.classname()
            );
        }
        for (model, m) in loaded.models().iter().enumerate().skip(1) {
            let entity = loaded
                .model_entity(model)
                .expect("a submodel has its entity");
            assert_eq!(entity.model(), Some(model), "{name}");
            assert_eq!(m.entity(), Some(entity.index()), "{name}");
        }
        let spawns: Vec<Vec3> = loaded.player_spawns().collect();
        let expected: Vec<Vec3> = parsed.player_spawns().map(|v| v.as_vec3()).collect();
        assert_eq!(spawns, expected, "{name}");
        (parsed.entities.len(), spawns.len())
    };
    let results: Vec<(usize, usize)> = in_parallel(2, |thread, _| {
        maps.iter()
            .skip(thread)
            .step_by(2)
            .map(check)
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect();
    let (entities, spawns) = results.iter().fold((0, 0), |(a, b), (e, s)| (a + e, b + s));
    println!(
        "{} maps, {entities} entities, {spawns} player spawns",
        results.len()
    );
}

/// A small map's entity table read back from its `.pbsp`: the look-ups a game spawns with.
#[test]
fn entity_lookups_find_spawns_destinations_and_targets() {
    let src = br#"{ "classname" "worldspawn" "message" "lookups" }
{ "classname" "info_player_deathmatch" "origin" "0 0 24" "angle" "-1" }
{ "classname" "info_player_start" "origin" "bad" }
{ "classname" "misc_teleporter_dest" "targetname" "t1" "origin" "10 20 30" "angles" "5 90 0" }
{ "classname" "target_position" "targetname" "apex" "origin" "0 0 256" "angle" "-2" }
{ "classname" "func_group"
{ ( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) a 0 0 0 1 1
  ( 64 0 0 ) ( 64 0 1 ) ( 64 1 0 ) a 0 0 0 1 1
  ( 0 0 0 ) ( 0 0 1 ) ( 1 0 0 ) a 0 0 0 1 1
  ( 0 64 0 ) ( 1 64 0 ) ( 0 64 1 ) a 0 0 0 1 1
  ( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) a 0 0 0 1 1
  ( 0 0 16 ) ( 0 1 16 ) ( 1 0 16 ) a 0 0 0 1 1 } }
{ "classname" "trigger_push" "target" "apex"
{ ( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) common/trigger 0 0 0 1 1
  ( 64 0 0 ) ( 64 0 1 ) ( 64 1 0 ) common/trigger 0 0 0 1 1
  ( 0 0 0 ) ( 0 0 1 ) ( 1 0 0 ) common/trigger 0 0 0 1 1
  ( 0 64 0 ) ( 1 64 0 ) ( 0 64 1 ) common/trigger 0 0 0 1 1
  ( 0 0 16 ) ( 1 0 16 ) ( 0 1 16 ) common/trigger 0 0 0 1 1
  ( 0 0 32 ) ( 0 1 32 ) ( 1 0 32 ) common/trigger 0 0 0 1 1 } }
"#;
    let map = CompiledMap::from_bytes(&compile(src).map.to_bytes()).expect("loads");
    assert_eq!(map.entities().len(), 7);
    let world = map.entity(0).expect("worldspawn");
    assert_eq!(
        (world.model(), world.get("message")),
        (Some(0), Some("lookups"))
    );
    assert_eq!(map.models()[0].entity(), Some(0));
    let spawns: Vec<Vec3> = map.player_spawns().collect();
    assert_eq!(
        spawns,
        [Vec3::new(0.0, 0.0, 24.0)],
        "the bad origin is skipped"
    );
    let dm = map
        .find_entities("info_player_deathmatch")
        .next()
        .expect("dm");
    assert_eq!(
        dm.angles(),
        Some(Vec3::new(-90.0, 0.0, 0.0)),
        "angle -1 is up"
    );
    let dest = map.entity_by_targetname("t1").expect("t1");
    assert_eq!(dest.classname(), "misc_teleporter_dest");
    assert_eq!(dest.angles(), Some(Vec3::new(5.0, 90.0, 0.0)));
    assert_eq!(dest.origin(), Some(Vec3::new(10.0, 20.0, 30.0)));
    let group = map.find_entities("func_group").next().expect("group");
    assert_eq!(group.model(), None, "func_group is merged into the world");
    let pad = map.find_entities("trigger_push").next().expect("pad");
    assert_eq!(pad.model(), Some(1));
    let apex = map
        .entity_by_targetname(pad.get("target").expect("target"))
        .expect("apex");
    assert_eq!(
        apex.angles(),
        Some(Vec3::new(90.0, 0.0, 0.0)),
        "angle -2 is down"
    );
    assert!(map.entity_by_targetname("nowhere").is_none());
    assert!(map.entity(7).is_none() && map.model_entity(9).is_none());
    assert_eq!(map.summary().entities, 7);
}

/// Crafted entity tables: a model index out of range, an entity and a model that do not
/// name each other, and strings or key/value counts beyond the limits are typed errors.
#[test]
fn crafted_entity_tables_are_typed_errors() {
    use planeshift::tolerance::{MAX_ENTITY_PROPERTIES, MAX_ENTITY_STRING};
    let body = arena_body();
    assert!(body.load().is_ok());
    let door = body
        .entities
        .iter()
        .position(|e| e.model == Some(1))
        .expect("the door's entity");

    let mut out_of_range = body.clone();
    out_of_range.entities[door].model = Some(u32::MAX);
    let (table, reason) = bad_index(out_of_range.load());
    assert_eq!(table, "entities");
    assert!(reason.contains("out of range"), "{reason}");

    let mut swapped = body.clone();
    swapped.entities[door].model = Some(2);
    let (table, reason) = bad_index(swapped.load());
    assert_eq!(table, "entities");
    assert!(reason.contains("does not name this entity"), "{reason}");

    let mut orphan = body.clone();
    orphan.entities[door].model = None;
    let (table, reason) = bad_index(orphan.load());
    assert_eq!(table, "models");
    assert!(reason.contains("does not name this model"), "{reason}");

    let mut model_out = body.clone();
    model_out.models[1].entity = Some(body.entities.len() as u32);
    assert_eq!(bad_index(model_out.load()).0, "entities");

    let mut long = body.clone();
    long.entities[door]
        .properties
        .push(("message".into(), "x".repeat(MAX_ENTITY_STRING + 1)));
    assert!(matches!(
        long.load(),
        Err(LoadError::BadValue {
            table: "entities",
            ..
        })
    ));

    let mut many = body.clone();
    many.entities[door].properties = vec![("k".into(), "v".into()); MAX_ENTITY_PROPERTIES + 1];
    assert!(matches!(
        many.load(),
        Err(LoadError::BadValue {
            table: "entities",
            ..
        })
    ));

    // A string length claiming four billion bytes: the decoder refuses it, nothing is
    // reserved.
    let mut bytes = postcard::to_allocvec(&body).expect("encode");
    let text = b"trigger_multiple";
    let at = bytes
        .windows(text.len())
        .position(|w| w == text)
        .expect("the classname in the body");
    assert_eq!(bytes[at - 1] as usize, text.len());
    bytes[at - 1] = 0xff;
    bytes.splice(at..at, [0xff, 0xff, 0xff, 0x0f]);
    assert!(matches!(
        CompiledMap::from_bytes(&frame(&bytes)),
        Err(LoadError::Decode(_))
    ));
}

/// A key longer than the file's limit is left out of the compiled entity with a warning,
/// and the compile succeeds.
#[test]
fn oversized_entity_strings_are_left_out_with_a_diagnostic() {
    use planeshift::tolerance::MAX_ENTITY_STRING;
    let long = "x".repeat(MAX_ENTITY_STRING + 1);
    let src = format!(
        "{{ \"classname\" \"worldspawn\" }}\n{{ \"classname\" \"info_null\" \"note\" \"{long}\" \"a\" \"b\" }}"
    );
    let out = compile(src.as_bytes());
    let entity = out.map.entity(1).expect("info_null");
    assert_eq!(entity.properties().len(), 2);
    assert_eq!(entity.get("a"), Some("b"));
    assert!(out.diagnostics.iter().any(|d| d.kind
        == planeshift::build::DiagnosticKind::EntityPropertyDropped
        && d.message.contains("note")));
}

/// Crafted game patches (a size the game refuses, a point count that does not match, a
/// NaN or far point) load as typed errors naming the table; a valid 3 × 3 grid loads and
/// its collision meets a box sweep.
#[test]
fn crafted_game_patches_are_typed_errors() {
    use planeshift::QUAKE3_STOP_DISTANCE;
    use planeshift::movement::{ShapeQuery, Tracer};

    let patch = |width: u32, height: u32, points: Vec<Vec3>| {
        let mut body = arena_body();
        body.game_patches.patches.push(RawGamePatch {
            width,
            height,
            points,
            contents: Contents::SOLID,
            surface: SurfaceFlags::EMPTY,
            texture: "curve".to_string(),
        });
        body
    };
    // A flat 3 × 3 patch high above the arena's floor, 64 on a side.
    let flat: Vec<Vec3> = (0..9)
        .map(|k| {
            Vec3::new(
                1024.0 + 32.0 * (k % 3) as f32,
                1024.0 + 32.0 * (k / 3) as f32,
                100.0,
            )
        })
        .collect();
    let world = patch(3, 3, flat.clone())
        .load()
        .expect("a valid grid loads");
    assert!(world.has_game_patches());
    let player =
        TraceShape::aabb(Vec3::new(-15.0, -15.0, -28.0), Vec3::new(15.0, 15.0, 28.0)).unwrap();
    let query = ShapeQuery::new(&player).with_stop_distance(QUAKE3_STOP_DISTANCE);
    // The facet has one front (the grid's winding): a box meets it from that side only,
    // 1/8 in front; the default, without the game's patches, passes its height.
    let (high, low) = (
        Vec3::new(1056.0, 1056.0, 200.0),
        Vec3::new(1056.0, 1056.0, 40.0),
    );
    let mut met = 0;
    for (from, to) in [(high, low), (low, high)] {
        let plain = Tracer::trace(&world, &query, from, to);
        let game = Tracer::trace(&world, &query.with_game_patches(), from, to);
        assert_eq!(plain.fraction, 1.0, "the default meets nothing between");
        if game.fraction < 1.0 {
            met += 1;
            let off = (game.end.z - 100.0).abs();
            assert!((off - (28.0 + 0.125)).abs() < 1e-3, "{game:?}");
        }
    }
    assert_eq!(met, 1, "met from its front only");

    let refused = |body: Body| {
        matches!(
            body.load(),
            Err(LoadError::BadValue {
                table: "game_patches",
                ..
            })
        )
    };
    assert!(refused(patch(2, 3, flat[..6].to_vec())));
    assert!(refused(patch(3, 3, flat[..8].to_vec())));
    assert!(refused(patch(u32::MAX, 3, flat.clone())));
    let mut nan = flat.clone();
    nan[4].z = f32::NAN;
    assert!(refused(patch(3, 3, nan)));
    let mut far = flat;
    far[0].x = 1e9;
    assert!(refused(patch(3, 3, far)));
}

/// The arena with a crafted hull 1: a chain of `depth` nodes on one plane (z = 0, solid
/// below), each node's front the next, the last's front empty.
fn arena_with_hull_chain(depth: usize) -> Body {
    let mut body = arena_body();
    body.clip_hulls = RawClipHulls {
        planes: vec![RawHullPlane {
            normal: Vec3::Z,
            dist: 0.0,
            axis: 2,
        }],
        nodes: (0..depth)
            .map(|i| RawHullNode {
                plane: 0,
                children: [if i + 1 < depth { i as i32 + 1 } else { -1 }, -2],
            })
            .collect(),
        heads: vec![[0, 0, 0, 0]],
    };
    body
}

/// Crafted hull trees (a node leading back to itself or an ancestor, a missing plane or
/// child or head, a non-finite plane, a chain deeper than
/// [`MAX_CLIP_HULL_DEPTH`](planeshift::query::MAX_CLIP_HULL_DEPTH)) load as typed errors; a
/// chain as deep as allowed loads and is walked; and seeded mutations of the trees' numbers
/// load as a world or a typed error, never a panic, and every world that loads walks.
#[test]
fn crafted_clip_hull_trees_are_typed_errors() {
    use planeshift::query::MAX_CLIP_HULL_DEPTH;

    let deepest = MAX_CLIP_HULL_DEPTH as usize;
    let ok = arena_with_hull_chain(deepest)
        .load()
        .expect("the deepest chain allowed loads");
    let walk = ok
        .walk_clip_hull(1, Vec3::new(0.0, 0.0, 8.0), Vec3::new(0.0, 0.0, -8.0))
        .expect("hull 1");
    assert!((walk.end.z - 1.0 / 32.0).abs() < 1e-6, "{walk:?}");
    assert!(matches!(
        arena_with_hull_chain(deepest + 1).load(),
        Err(LoadError::BadValue {
            table: "hull_nodes",
            ..
        })
    ));
    let mut cycle = arena_with_hull_chain(8);
    cycle.clip_hulls.nodes[7].children[0] = 3;
    assert_eq!(bad_index(cycle.load()).0, "hull_nodes");
    let mut plane = arena_with_hull_chain(8);
    plane.clip_hulls.nodes[2].plane = 1;
    assert_eq!(bad_index(plane.load()).0, "hull_nodes");
    let mut child = arena_with_hull_chain(8);
    child.clip_hulls.nodes[2].children[1] = 8;
    assert_eq!(bad_index(child.load()).0, "hull_nodes");
    let mut head = arena_with_hull_chain(8);
    head.clip_hulls.heads[0][1] = i32::MAX;
    assert_eq!(bad_index(head.load()).0, "hull_heads");
    let mut nan = arena_with_hull_chain(8);
    nan.clip_hulls.planes[0].dist = f32::NAN;
    assert!(matches!(
        nan.load(),
        Err(LoadError::BadValue {
            table: "hull_planes",
            ..
        })
    ));

    let mut rng = Pcg32::new(37);
    let (mut loaded, mut refused) = (0usize, 0usize);
    let chain = arena_with_hull_chain(16);
    for _ in 0..mutated_hull_trees() {
        let mut body = chain.clone();
        for _ in 0..1 + rng.below(3) {
            let a = rng.below(16);
            let value = match rng.below(4) {
                0 => rng.below(20) as i32,
                1 => -(rng.below(20) as i32),
                2 => i32::MIN + rng.below(2) as i32,
                _ => i32::MAX - rng.below(2) as i32,
            };
            match rng.below(3) {
                0 => body.clip_hulls.nodes[a].children[rng.below(2)] = value,
                1 => body.clip_hulls.nodes[a].plane = value as u32,
                _ => body.clip_hulls.heads[0][rng.below(4)] = value,
            }
        }
        match catch_unwind(AssertUnwindSafe(|| body.load())) {
            Ok(Ok(map)) => {
                loaded += 1;
                for _ in 0..8 {
                    let start = Vec3::new(0.0, 0.0, rng.range_f64(-64.0, 64.0) as f32);
                    let end = Vec3::new(5.0, 0.0, rng.range_f64(-64.0, 64.0) as f32);
                    let _ = map.walk_clip_hull(1, start, end);
                    let _ = map.clip_hull_contents(2, end);
                }
            }
            Ok(Err(_)) => refused += 1,
            Err(_) => panic!("a mutated hull tree panicked at load"),
        }
    }
    println!("mutated hull trees: {loaded} loaded, {refused} refused");
    assert!(loaded > 0 && refused > 0);
}

/// A declared box's tree that lies (a child before its parent, a brush out of range, a leaf
/// list past the end, a plane not finite) is a typed error at load, never a panic.
#[test]
fn crafted_declared_trees_are_typed_errors() {
    let world = compile(&read(&bundled_maps()[0].1)).map;
    let body = Body::of(&world);
    assert!(
        !body.declared.hulls.is_empty(),
        "the default boxes are declared"
    );
    assert!(!body.declared.hulls[0].nodes.is_empty());
    assert!(body.load().is_ok());
    let mut cycle = body.clone();
    cycle.declared.hulls[0].nodes[0].children[0] = NodeChild::Node(0);
    assert!(matches!(
        cycle.load(),
        Err(LoadError::BadIndex {
            table: "declared",
            ..
        })
    ));
    let mut brush = body.clone();
    brush.declared.hulls[0].brushes[0] = u32::MAX;
    assert!(matches!(
        brush.load(),
        Err(LoadError::BadIndex {
            table: "declared",
            ..
        })
    ));
    let mut list = body.clone();
    list.declared.hulls[0].leaves[0].count = u32::MAX;
    assert!(matches!(
        list.load(),
        Err(LoadError::BadIndex {
            table: "declared",
            ..
        })
    ));
    let mut plane = body.clone();
    plane.declared.hulls[0].nodes[0].dist = f32::NAN;
    assert!(matches!(
        plane.load(),
        Err(LoadError::BadValue {
            table: "declared",
            ..
        })
    ));
}
