//! Sweep cost: planeshift against parry3d in the same run, on the same seeded sweeps over
//! the same real maps (`$PLANESHIFT_REAL_MAPS`, default `../shared/maps`; the bundled arena
//! when absent). parry3d gets every solid world brush as a convex polyhedron in one
//! `Compound`, a Quake 3 map's curved patches included (`brushes_from_map` cuts each patch
//! into the same facet slabs the compiled level holds), and answers with `cast_shapes`
//! (points: `cast_ray`). Sweeps start in open
//! space within 128 units of the level's point entities (inside the playable space) in a
//! random direction, in two sets: `long` (16 to 256 units) and `short` (0.25 to 16 units, what
//! a character controller asks per tick: moves, steps and ground probes).
//!
//! A map with patches is also compiled with its patches removed (`write_map` of the parsed
//! map without them), and the same sweeps are timed on it (`planeshift_nopatch`): what
//! the patches cost the same queries.

mod support;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;
use support::{Pcg32, real_map};

use criterion::{Criterion, criterion_group, criterion_main};
use glam::{Quat, Vec3};
use parry3d::math::{Pose, Rot3, Vector};
use parry3d::query::{Ray, RayCast, ShapeCastOptions, cast_shapes};
use parry3d::shape::{
    Ball, Capsule, Compound, ConvexPolyhedron, Cuboid, Cylinder, Shape, SharedShape,
};
use planeshift::brush::brushes_from_map;
use planeshift::compile::compile_map;
use planeshift::compiled::CompiledMap;
use planeshift::contents::Contents;
use planeshift::map::{parse_map, write_map};
use planeshift::trace::TraceShape;

/// Sweeps per map and shape.
const SWEEPS: usize = 1024;

fn v(p: Vec3) -> Vector {
    Vector::new(p.x, p.y, p.z)
}

/// Every solid world brush as a convex polyhedron, in one compound.
fn parry_world(src: &[u8]) -> Compound {
    let map = parse_map(src).unwrap_or_default();
    let parts = brushes_from_map(&map)
        .brushes
        .iter()
        .filter(|b| b.is_solid_world())
        .filter_map(|b| {
            let points: Vec<Vector> = b.vertices().iter().map(|p| v(p.as_vec3())).collect();
            ConvexPolyhedron::from_convex_hull(&points)
                .map(|c| (Pose::identity(), SharedShape::new(c)))
        })
        .collect();
    Compound::new(parts)
}

/// The map without its patches, compiled; `None` when it has none.
fn without_patches(src: &[u8]) -> Option<CompiledMap> {
    let mut map = parse_map(src).ok()?;
    if map.entities.iter().all(|e| e.patches.is_empty()) {
        return None;
    }
    for entity in &mut map.entities {
        entity.patches.clear();
    }
    compile_map(write_map(&map).as_bytes()).ok().map(|c| c.map)
}

struct Case {
    name: &'static str,
    ours: TraceShape,
    /// The shape's rotation about its reference point (the identity: upright).
    rotation: Quat,
    theirs: Option<(Box<dyn Shape>, Pose)>,
}

fn cases() -> Vec<Case> {
    let upright = Rot3::from_rotation_x(std::f32::consts::FRAC_PI_2);
    let hull: Vec<Vec3> = (0..8)
        .map(|i| {
            let a = i as f32 * std::f32::consts::FRAC_PI_4 + 0.3;
            Vec3::new(
                16.0 * a.cos(),
                16.0 * a.sin(),
                if i % 2 == 0 { -24.0 } else { 24.0 },
            )
        })
        .collect();
    let parry_hull: Vec<Vector> = hull.iter().map(|p| v(*p)).collect();
    let rotated_hull = hull.clone();
    // A rotation off every axis, the same on both sides.
    let tilted = Quat::from_euler(glam::EulerRot::ZYX, 0.7, 0.4, -0.9);
    let parry_tilted = Rot3::from_xyzw(tilted.x, tilted.y, tilted.z, tilted.w);
    let shape = |s: Option<TraceShape>| s.unwrap_or_else(TraceShape::point);
    vec![
        Case {
            name: "point",
            ours: TraceShape::point(),
            rotation: Quat::IDENTITY,
            theirs: None,
        },
        Case {
            name: "sphere",
            ours: shape(TraceShape::sphere(16.0)),
            rotation: Quat::IDENTITY,
            theirs: Some((Box::new(Ball::new(16.0)), Pose::identity())),
        },
        Case {
            name: "box",
            ours: TraceShape::quake1_player(),
            rotation: Quat::IDENTITY,
            theirs: Some((
                Box::new(Cuboid::new(Vector::new(16.0, 16.0, 28.0))),
                Pose::from_translation(Vector::new(0.0, 0.0, 4.0)),
            )),
        },
        Case {
            name: "cylinder",
            ours: shape(TraceShape::cylinder(16.0, 28.0)),
            rotation: Quat::IDENTITY,
            theirs: Some((
                Box::new(Cylinder::new(28.0, 16.0)),
                Pose::from_rotation(upright),
            )),
        },
        Case {
            name: "capsule",
            ours: shape(TraceShape::capsule(16.0, 20.0)),
            rotation: Quat::IDENTITY,
            theirs: Some((Box::new(Capsule::new_z(20.0, 16.0)), Pose::identity())),
        },
        Case {
            name: "hull",
            ours: shape(TraceShape::hull(hull)),
            rotation: Quat::IDENTITY,
            theirs: ConvexPolyhedron::from_convex_hull(&parry_hull)
                .map(|h| (Box::new(h) as Box<dyn Shape>, Pose::identity())),
        },
        Case {
            name: "box_rotated",
            ours: TraceShape::quake1_player(),
            rotation: tilted,
            theirs: Some((
                Box::new(Cuboid::new(Vector::new(16.0, 16.0, 28.0))),
                Pose::from_rotation(parry_tilted)
                    * Pose::from_translation(Vector::new(0.0, 0.0, 4.0)),
            )),
        },
        Case {
            name: "capsule_tilted",
            ours: shape(TraceShape::capsule(16.0, 20.0)),
            rotation: tilted,
            theirs: Some((
                Box::new(Capsule::new_z(20.0, 16.0)),
                Pose::from_rotation(parry_tilted),
            )),
        },
        Case {
            name: "hull_rotated",
            ours: shape(TraceShape::hull(rotated_hull)),
            rotation: tilted,
            theirs: ConvexPolyhedron::from_convex_hull(&parry_hull).map(|h| {
                (
                    Box::new(h) as Box<dyn Shape>,
                    Pose::from_rotation(parry_tilted),
                )
            }),
        },
    ]
}

/// Origins of the map's point entities (lights, items, spawns): places inside the level.
fn entity_origins(src: &[u8]) -> Vec<Vec3> {
    let map = parse_map(src).unwrap_or_default();
    map.entities
        .iter()
        .filter(|e| e.brushes.is_empty())
        .filter_map(|e| e.origin())
        .map(|origin| origin.as_vec3())
        .collect()
}

/// Sweeps for `shape` starting in open space near the level's entities, `lengths` units
/// long (uniformly).
fn sweeps(
    world: &CompiledMap,
    seeds: &[Vec3],
    shape: &TraceShape,
    rotation: Quat,
    seed: u64,
    lengths: (f32, f32),
) -> Vec<(Vec3, Vec3)> {
    let mut rng = Pcg32(seed);
    let mut out = Vec::with_capacity(SWEEPS);
    let mut attempts = 0;
    while out.len() < SWEEPS && attempts < SWEEPS * 1000 && !seeds.is_empty() {
        attempts += 1;
        let near = seeds[(rng.next() * seeds.len() as f32) as usize % seeds.len()];
        let start = near
            + Vec3::new(
                rng.range(-128.0, 128.0),
                rng.range(-128.0, 128.0),
                rng.range(-32.0, 64.0),
            );
        if world.overlaps_rotated(shape, rotation, start, Contents::MASK_ANY_BLOCKING) {
            continue;
        }
        let dir = Vec3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-0.5, 0.5),
        )
        .normalize_or_zero();
        out.push((start, start + dir * rng.range(lengths.0, lengths.1)));
    }
    out
}

/// A checksum of every `Trace` field of the sweeps (FNV-1a over their `Debug` text, which
/// spells every float's bits apart from NaN payloads): a speed change must leave it as it is.
fn checksum(world: &CompiledMap, case: &Case, queries: &[(Vec3, Vec3)]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &(s, e) in queries {
        let t = world.trace_rotated(&case.ours, case.rotation, s, e, Contents::MASK_ANY_BLOCKING);
        for byte in format!("{t:?}").bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// A checksum of what the sweeps answered, field by field: FNV-1a over the bits of the
/// fraction, the end, the normal, the plane, the contact, the contents and surface bits, the
/// two solid flags, the material's name and what was hit (0 the world, 1 and k a static
/// model k, 2 and the id a character, 3 nothing). Unlike [`checksum`] it does not read how
/// `Trace` prints itself, so renaming or regrouping its fields keeps it when the answers stay.
fn answer_checksum(world: &CompiledMap, case: &Case, queries: &[(Vec3, Vec3)]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |bytes: &[u8]| {
        for &byte in bytes {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    let vector = |v: Option<Vec3>| v.map(|v| v.to_array().map(f32::to_bits));
    for &(s, e) in queries {
        let t = world.trace_rotated(&case.ours, case.rotation, s, e, Contents::MASK_ANY_BLOCKING);
        let target: (u8, u64) = match (t.character, t.model) {
            (Some(id), _) => (2, u64::from(id)),
            (None, Some(0)) => (0, 0),
            (None, Some(k)) => (1, k as u64),
            (None, None) => (3, 0),
        };
        let plane = t.plane.map(|p| (vector(Some(p.normal)), p.dist.to_bits()));
        let material = t.material.and_then(|m| world.material_name(m));
        let text = format!(
            "{};{:?};{:?};{:?};{:?};{};{};{};{};{:?};{:?}",
            t.fraction.to_bits(),
            vector(Some(t.end)),
            vector(t.normal),
            plane,
            vector(t.contact),
            t.contents.bits(),
            t.surface.bits(),
            t.start_solid,
            t.all_solid,
            material,
            target
        );
        eat(text.as_bytes());
    }
    hash
}

/// Both sides must do the same work: count hits and compare stop distances, so a
/// benchmark can never time a side that answers nothing.
///
/// The largest stop difference is not an error bound. Most differences over half a unit are
/// grazing hits, where Quake's 1/32-unit back-off from the plane lies several units along a
/// shallow sweep. kaos's long point sweeps show one of 15.9 units: parry3d's f32
/// `ConvexPolyhedron` ray cast misses a patch facet's slab a quarter of a unit thick (the
/// 3×3 `killblock_j2` corner patch near (-1325, -306, 449)) and stops at the wall behind it,
/// while an exact clip of the slab's eight vertices enters where planeshift stops, less the
/// back-off.
fn report_agreement(
    map: &str,
    case: &Case,
    world: &CompiledMap,
    compound: &Compound,
    queries: &[(Vec3, Vec3)],
) {
    let (mut ours, mut theirs, mut errors, mut worst) = (0, 0, 0, 0.0f32);
    for &(s, e) in queries {
        let t = world.trace_rotated(&case.ours, case.rotation, s, e, Contents::MASK_ANY_BLOCKING);
        let toi = match &case.theirs {
            None => compound.cast_ray(&Pose::identity(), &Ray::new(v(s), v(e - s)), 1.0, true),
            Some((shape, offset)) => {
                let pose = Pose::from_translation(v(s)) * *offset;
                match cast_shapes(
                    &pose,
                    v(e - s),
                    shape.as_ref(),
                    &Pose::identity(),
                    Vector::ZERO,
                    compound,
                    ShapeCastOptions::with_max_time_of_impact(1.0),
                ) {
                    Ok(hit) => hit.map(|h| h.time_of_impact),
                    Err(_) => {
                        errors += 1;
                        None
                    }
                }
            }
        };
        ours += usize::from(t.fraction < 1.0);
        theirs += usize::from(toi.is_some());
        let length = (e - s).length();
        worst = worst.max((t.fraction - toi.unwrap_or(1.0)).abs() * length);
    }
    eprintln!(
        "{map}/{}: {} sweeps, planeshift hits {ours}, parry3d hits {theirs}, parry3d errors {errors}, largest stop difference {worst:.3} units, checksum {:016x}",
        case.name,
        queries.len(),
        checksum(world, case, queries)
    );
}

fn sweep(c: &mut Criterion) {
    let mut maps: Vec<(String, PathBuf)> = [
        "id-quake-1996/dm4.map",
        "id-quake-1996/e1m2.map",
        "openarena-lostlevels/kaos.map",
    ]
    .iter()
    .filter_map(|n| {
        real_map(n).map(|p| {
            (
                n.rsplit('/')
                    .next()
                    .unwrap_or(n)
                    .trim_end_matches(".map")
                    .to_owned(),
                p,
            )
        })
    })
    .collect();
    if maps.is_empty() {
        maps.push((
            "arena".to_owned(),
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps/arena.map"),
        ));
    }
    let mut group = c.benchmark_group("sweep");
    group.sample_size(20);
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(1));
    for (map_name, path) in maps {
        let src = std::fs::read(&path).unwrap_or_default();
        let Ok(world) = compile_map(&src).map(|c| c.map) else {
            continue;
        };
        let compound = parry_world(&src);
        let seeds = entity_origins(&src);
        let flat = without_patches(&src);
        eprintln!(
            "{map_name}: {} brushes for parry3d, {}",
            compound.shapes().len(),
            if flat.is_some() {
                "also timed without its patches"
            } else {
                "no patches"
            }
        );
        for (k, case) in cases().iter().enumerate() {
            for (set, lengths) in [("long", (16.0, 256.0)), ("short", (0.25, 16.0))] {
                let queries = sweeps(
                    &world,
                    &seeds,
                    &case.ours,
                    case.rotation,
                    0x5eed + k as u64,
                    lengths,
                );
                if queries.is_empty() {
                    continue;
                }
                let label = format!("{map_name}/{set}");
                report_agreement(&label, case, &world, &compound, &queries);
                eprintln!(
                    "{label}/{}: answer checksum {:016x}",
                    case.name,
                    answer_checksum(&world, case, &queries)
                );
                let mut i = 0;
                group.bench_function(format!("{label}/{}/planeshift", case.name), |b| {
                    b.iter(|| {
                        let (s, e) = queries[i % queries.len()];
                        i += 1;
                        black_box(world.trace_rotated(
                            &case.ours,
                            case.rotation,
                            s,
                            e,
                            Contents::MASK_ANY_BLOCKING,
                        ))
                    })
                });
                if let Some(flat) = &flat {
                    eprintln!(
                        "{label}/{}/nopatch: checksum {:016x}",
                        case.name,
                        checksum(flat, case, &queries)
                    );
                    eprintln!(
                        "{label}/{}/nopatch: answer checksum {:016x}",
                        case.name,
                        answer_checksum(flat, case, &queries)
                    );
                    let mut k = 0;
                    group.bench_function(
                        format!("{label}/{}/planeshift_nopatch", case.name),
                        |b| {
                            b.iter(|| {
                                let (s, e) = queries[k % queries.len()];
                                k += 1;
                                black_box(flat.trace_rotated(
                                    &case.ours,
                                    case.rotation,
                                    s,
                                    e,
                                    Contents::MASK_ANY_BLOCKING,
                                ))
                            })
                        },
                    );
                }
                let mut j = 0;
                match &case.theirs {
                    None => group.bench_function(format!("{label}/{}/parry3d", case.name), |b| {
                        b.iter(|| {
                            let (s, e) = queries[j % queries.len()];
                            j += 1;
                            let ray = Ray::new(v(s), v(e - s));
                            black_box(compound.cast_ray(&Pose::identity(), &ray, 1.0, true))
                        })
                    }),
                    Some((shape, offset)) => {
                        group.bench_function(format!("{label}/{}/parry3d", case.name), |b| {
                            b.iter(|| {
                                let (s, e) = queries[j % queries.len()];
                                j += 1;
                                let pose = Pose::from_translation(v(s)) * *offset;
                                let options = ShapeCastOptions::with_max_time_of_impact(1.0);
                                black_box(cast_shapes(
                                    &pose,
                                    v(e - s),
                                    shape.as_ref(),
                                    &Pose::identity(),
                                    Vector::ZERO,
                                    &compound,
                                    options,
                                ))
                            })
                        })
                    }
                };
            }
        }
    }
    group.finish();
}

criterion_group!(benches, sweep);
criterion_main!(benches);
