//! The compiled file: write then load gives the same world, and corrupt files load as typed
//! errors, never panics.

use std::panic::{AssertUnwindSafe, catch_unwind};

use glam::Vec3;
use planeshift::compiled::{CompiledMap, FORMAT_VERSION, LoadError, MAGIC, frame};

use crate::support::{Pcg32, bundled_maps, compile, in_parallel, read, real_maps};

/// Points compared between the compiled and the reloaded world, per map.
const ROUND_TRIP_POINTS: usize = 100_000;
/// Mutated compiled files in all.
const MUTATED_FILES: usize = 100_000;

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
        for _ in 0..ROUND_TRIP_POINTS {
            let p = random_point(&mut rng, &compiled);
            let contents = compiled.point_contents(p);
            assert_eq!(loaded.point_contents(p), contents, "{name} at {p:?}");
            solid += usize::from(contents.is_solid());
        }
        assert!(solid > 0, "{name}");
    }
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
    let results = in_parallel(MUTATED_FILES, |thread, count| {
        let mut outcomes = [0usize; 2];
        let mut failures = Vec::new();
        for case in 0..count {
            let seed = (thread * MUTATED_FILES + case) as u64;
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
    println!("compiled fuzz: {MUTATED_FILES} files, {loaded} loaded, {rejected} rejected");
    assert!(failures.is_empty(), "panics for seeds {failures:?}");
    assert_eq!(loaded + rejected, MUTATED_FILES);
    assert!(
        rejected > MUTATED_FILES / 2 && loaded > 0,
        "{loaded} loaded, {rejected} rejected"
    );
    assert!(
        loaded < MUTATED_FILES / 10,
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
                    .enumerate()
                    .filter(|(_, (n, d, _))| (n.dot(c) - d).abs() <= features.eps)
                    .map(|(k, _)| k)
                    .collect()
            };
            let inside = |c: glam::DVec3| {
                features
                    .planes
                    .iter()
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
