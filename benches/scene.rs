//! A hitscan among characters: the scene's ray (`Scene::trace`: the world, its movers and
//! 64 characters, `MASK_SHOT`, the shooter skipped) against the world's own ray
//! (`CompiledMap::trace`) on the same rays, in the same run. Characters stand in open space
//! at seeded points of the level; each ray leaves a character's eye in a seeded direction
//! (within 30° of level), as shots do. Maps: the bundled arena, e1m2 and kaos when the real
//! maps are present (`$PLANESHIFT_REAL_MAPS`).

mod support;

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use planeshift::CompiledMap;
use planeshift::Contents;
use planeshift::HitTarget;
use planeshift::TraceShape;
use planeshift::compile_map;
use planeshift::movement::Bodies;
use planeshift::{QueryFilter, Scene};
use support::{Pcg32, bundled_map, real_map};

/// Characters in the scene.
const CHARACTERS: u32 = 64;

/// Rays per batch.
const RAYS: usize = 1024;

/// The Quake 3 player box.
fn player() -> TraceShape {
    TraceShape::quake3_player()
}

/// 64 characters in open space, and rays from their eyes: (shooter, start, end).
fn setup(map: &CompiledMap, rng: &mut Pcg32) -> (Bodies, Vec<(u32, Vec3, Vec3)>) {
    let body = player();
    let world = &map.models()[0];
    let mut bodies = Bodies::new();
    let mut placed = Vec::new();
    let mut tries = 0;
    while placed.len() < CHARACTERS as usize && tries < 1_000_000 {
        tries += 1;
        let at = Vec3::new(
            rng.range(world.mins.x, world.maxs.x),
            rng.range(world.mins.y, world.maxs.y),
            rng.range(world.mins.z, world.maxs.z),
        );
        // On a floor: something solid within 64 units below.
        let floor = map.trace(&body, at, at - Vec3::Z * 64.0, Contents::MASK_PLAYER_SOLID);
        if floor.start_solid || !floor.hit() || !map.point_contents(at).is_empty() {
            continue;
        }
        let id = placed.len() as u32;
        bodies.insert(id, &body, floor.end);
        placed.push(floor.end);
    }
    let rays = (0..RAYS)
        .map(|i| {
            let shooter = (i % placed.len().max(1)) as u32;
            let eye = placed.get(shooter as usize).copied().unwrap_or_default() + Vec3::Z * 26.0;
            let yaw = rng.range(0.0, std::f32::consts::TAU);
            let pitch = rng.range(-0.5, 0.5);
            let dir = Vec3::new(
                yaw.cos() * pitch.cos(),
                yaw.sin() * pitch.cos(),
                pitch.sin(),
            );
            (shooter, eye, eye + dir * 8192.0)
        })
        .collect();
    (bodies, rays)
}

fn maps() -> Vec<(String, CompiledMap)> {
    let mut paths = vec![("arena".to_string(), bundled_map("arena.map"))];
    for (name, file) in [
        ("e1m2", "id-quake-1996/e1m2.map"),
        ("kaos", "openarena-lostlevels/kaos.map"),
    ] {
        if let Some(path) = real_map(file) {
            paths.push((name.to_string(), path));
        }
    }
    paths
        .into_iter()
        .filter_map(|(name, path): (String, std::path::PathBuf)| {
            let bytes = std::fs::read(Path::new(&path)).ok()?;
            Some((name, compile_map(&bytes).ok()?.map))
        })
        .collect()
}

fn scene(c: &mut Criterion) {
    let mut group = c.benchmark_group("hitscan");
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1));
    let point = TraceShape::point();
    for (name, map) in maps() {
        let mut rng = Pcg32(0x5ce_e00);
        let (bodies, rays) = setup(&map, &mut rng);
        let scene = Scene {
            map: &map,
            movers: &[],
            bodies: &bodies,
        };
        let hits = rays
            .iter()
            .filter(|(id, s, e)| {
                let filter = QueryFilter::new(Contents::MASK_SHOT).skip_character(*id);
                matches!(
                    scene.trace(&point, *s, *e, &filter).target,
                    Some(HitTarget::Character(_))
                )
            })
            .count();
        println!(
            "hitscan {name}: {} characters, {} rays, {hits} hit a character; the ratio is \
             hitscan/{name}/scene_ray_64 over hitscan/{name}/world_ray (#25: at most 1.3)",
            bodies.len(),
            rays.len()
        );
        group.bench_function(format!("{name}/world_ray"), |b| {
            b.iter(|| {
                for (_, s, e) in &rays {
                    black_box(map.trace(&point, *s, *e, Contents::MASK_SHOT));
                }
            })
        });
        let nobody = Bodies::new();
        let empty = Scene {
            map: &map,
            movers: &[],
            bodies: &nobody,
        };
        group.bench_function(format!("{name}/scene_ray_0"), |b| {
            b.iter(|| {
                for (id, s, e) in &rays {
                    let filter = QueryFilter::new(Contents::MASK_SHOT).skip_character(*id);
                    black_box(empty.trace(&point, *s, *e, &filter));
                }
            })
        });
        group.bench_function(format!("{name}/scene_ray_64"), |b| {
            b.iter(|| {
                for (id, s, e) in &rays {
                    let filter = QueryFilter::new(Contents::MASK_SHOT).skip_character(*id);
                    black_box(scene.trace(&point, *s, *e, &filter));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, scene);
criterion_main!(benches);
