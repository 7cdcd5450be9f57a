//! `ShapeQuery::with_game_patches`: the same answers as the default on levels without the
//! game's patches, and the game's coarse facets on a Quake 3 level that keeps them.

use glam::Vec3;
use planeshift::build::compile_level;
use planeshift::movement::{ShapeQuery, Tracer};
use planeshift::{CompileOptions, CompiledMap, Contents, QUAKE3_STOP_DISTANCE, TraceShape};
use planeshift_testkit::real_maps::real_maps_dir;

use super::world;

/// Every entity origin of `map` (spawns, items, lights: places inside the level).
fn places(map: &CompiledMap) -> Vec<Vec3> {
    map.entities().filter_map(|e| e.origin()).collect()
}

/// A seeded generator of `count` sweeps within 256 units of `places`.
fn sweeps(places: &[Vec3], count: usize) -> Vec<(Vec3, Vec3)> {
    let mut state = 0x51f1_2e4du64;
    let mut unit = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32
    };
    let mut point = move || {
        let at = places[(unit() * places.len() as f32) as usize % places.len().max(1)];
        at + (Vec3::new(unit(), unit(), unit()) - 0.5) * 512.0
    };
    if places.is_empty() {
        return Vec::new();
    }
    (0..count).map(|_| (point(), point())).collect()
}

#[test]
fn the_option_answers_as_the_default_on_levels_without_the_games_patches() {
    let shapes = [
        TraceShape::aabb(Vec3::new(-15.0, -15.0, -28.0), Vec3::new(15.0, 15.0, 28.0)).unwrap(),
        TraceShape::sphere(12.0).unwrap(),
        TraceShape::point(),
    ];
    // A `.map`'s patches (patch_arch) are planeshift's only: the option meets them as the
    // default does.
    for name in ["arena", "patch_arch", "stairs", "slopes"] {
        let map = world(name);
        assert!(!map.has_game_patches(), "{name}");
        let places = places(map);
        assert!(!places.is_empty(), "{name} has entities");
        for shape in &shapes {
            for (start, end) in sweeps(&places, 300) {
                for stop in [planeshift::STOP_DISTANCE, QUAKE3_STOP_DISTANCE] {
                    let query = ShapeQuery::new(shape)
                        .with_mask(Contents::MASK_PLAYER_SOLID)
                        .with_stop_distance(stop);
                    let plain = Tracer::trace(map, &query, start, end);
                    let game = Tracer::trace(map, &query.with_game_patches(), start, end);
                    assert_eq!(plain, game, "{name} {start} -> {end}");
                }
            }
        }
    }
}

#[test]
fn a_quake3_level_keeps_its_patches_and_the_option_meets_the_games_facets() {
    let Some(maps) = real_maps_dir("a_quake3_level_keeps_its_patches") else {
        return;
    };
    let dir = maps.join("openarena-lostlevels");
    let Ok(bytes) = std::fs::read(dir.join("kaos.bsp")) else {
        println!("skipped: no kaos.bsp under {}", dir.display());
        return;
    };
    let options = CompileOptions {
        shader_folders: vec![dir.join("scripts")],
        ..CompileOptions::default()
    };
    let map = compile_level(&bytes, &options).unwrap().map;
    assert!(map.has_game_patches());
    let reread = CompiledMap::from_bytes(&map.to_bytes()).unwrap();
    assert!(reread.has_game_patches());
    assert_eq!(reread, map);

    let player =
        TraceShape::aabb(Vec3::new(-15.0, -15.0, -28.0), Vec3::new(15.0, 15.0, 28.0)).unwrap();
    let query = ShapeQuery::new(&player).with_stop_distance(QUAKE3_STOP_DISTANCE);
    let mut differ = 0;
    // Straight down on a grid about every entity: the game's facets (16-unit subdivision,
    // no thickness) answer otherwise than planeshift's somewhere, and never add a start in
    // solid to a sweep (the game's patches stop a sweep only on entering a facet).
    for at in places(&map) {
        for k in 0..24 * 24 {
            let offset = Vec3::new((k % 24) as f32 - 11.5, (k / 24) as f32 - 11.5, 0.0) * 16.0;
            let (top, bottom) = (at + offset + Vec3::Z * 64.0, at + offset - Vec3::Z * 256.0);
            let plain = Tracer::trace(&map, &query, top, bottom);
            let game = Tracer::trace(&map, &query.with_game_patches(), top, bottom);
            assert!((0.0..=1.0).contains(&game.fraction) && game.end.is_finite());
            if plain != game {
                differ += 1;
                assert!(
                    plain.start_solid || !game.start_solid,
                    "{top}: {plain:?} {game:?}"
                );
                assert_eq!(game.normal.is_some(), game.plane.is_some());
            }
        }
    }
    assert!(differ > 0, "the game's patches were met");
}
