//! Scenarios 46–54: water level, swimming, sinking, swimming up, the water jump, liquids,
//! landing in water and currents, on small inline pools (box brushes; `*water0` is water).

use glam::Vec3;
use planeshift::CompiledMap;
use planeshift::Contents;
use planeshift::{
    ControllerConfig, MoveInput,
    movement::{Activity, CharacterState, Tracer},
};

use super::*;

/// A floor whose top is at z = 0 under `depth` units of `liquid`, 1024 square.
pub fn pool(depth: f64, liquid: &str) -> CompiledMap {
    let list = [
        ([-512.0, -512.0, -16.0], [512.0, 512.0, 0.0], "floor"),
        ([-512.0, -512.0, 0.0], [512.0, 512.0, depth], liquid),
    ];
    crate::support::compile(crate::support::box_map(&list).as_bytes()).map
}

/// A character whose feet are at `feet`, at rest.
fn at(feet: Vec3) -> CharacterController {
    let config = ControllerConfig::default();
    CharacterController::new(config, feet + Vec3::Z * config.feet_to_origin).unwrap()
}

const IDLE: MoveInput = MoveInput {
    wish: Vec3::ZERO,
    jump: false,
    crouch: false,
    command: None,
};

#[test]
fn s46_water_level_sampling() {
    for (depth, level) in [
        (0.5, 0),
        (10.0, 1),
        (1.5, 1),
        (0.5 + 0.5, 0),
        (24.5, 1),
        (25.5, 2),
        (30.0, 2),
        (49.5, 2),
        (50.5, 3),
        (60.0, 3),
    ] {
        let w = pool(depth, "*water0");
        let mut c = player(Vec3::ZERO);
        let outcome = c.step(&w, &IDLE);
        assert_eq!(outcome.water_level, level, "depth {depth}");
        if level > 0 {
            assert_eq!(outcome.liquid, Contents::WATER);
        }
    }
    // Crouched: the eyes are 36 above the feet, the waist 18.
    for (depth, level) in [(17.5, 1), (18.5, 2), (35.5, 2), (36.5, 3), (40.0, 3)] {
        let w = pool(depth, "*water0");
        let mut c = player(Vec3::ZERO);
        // On the ground first: crouching in the air tucks the feet up.
        c.step(&w, &IDLE);
        let crouch = MoveInput {
            crouch: true,
            ..IDLE
        };
        let outcome = c.step(&w, &crouch);
        assert_eq!(outcome.water_level, level, "crouched, depth {depth}");
    }
}

/// Drops a character with its feet at `height` into `w`; returns each tick's (feet z,
/// velocity z, level, outcome).
fn drop_into(w: &CompiledMap, height: f32, ticks: usize) -> Vec<(f32, f32, u8, MoveOutcome)> {
    let mut c = at(Vec3::new(0.0, 0.0, height));
    (0..ticks)
        .map(|_| {
            let o = c.step(w, &IDLE);
            assert!(!c.overlaps(w));
            (feet(&c).z, c.velocity().z, o.water_level, o)
        })
        .collect()
}

#[test]
fn s47_dropped_into_deep_water() {
    let w = pool(128.0, "*water0");
    let run = drop_into(&w, 200.0, 250);
    let first = |level: u8| run.iter().position(|t| t.2 >= level).unwrap();
    let wet = first(1);
    assert!(
        (wet as f32 * 0.008 - 0.43).abs() <= 0.016 + 0.01,
        "level 1 at tick {wet}"
    );
    let under = first(3);
    assert!(under.abs_diff(71) <= 2, "level 3 at tick {under}");
    let v = run[under].1;
    assert!((v + 316.0).abs() <= 316.0 * 0.05, "v.z {v} at level 3");
    let floor = run.iter().position(|t| t.0 < 0.5).unwrap();
    let speed = -run[floor - 1].1;
    assert!(
        (floor as f32 * 0.008 - 1.01).abs() <= 0.03,
        "floor at tick {floor}"
    );
    assert!(
        (speed - 85.0).abs() <= 85.0 * 0.1,
        "reaches the floor at {speed}"
    );
    // Under water the whole way down: swimming, no landing report.
    assert!(
        run[under + 1..]
            .iter()
            .all(|t| t.3.activity == Activity::Swim)
    );
    assert!(run[under + 1..].iter().all(|t| t.3.landed.is_none()));
}

#[test]
fn s48_idle_sink_rate() {
    let w = pool(1024.0, "*water0");
    let run = drop_into(&w, 500.0, 250);
    let v = |t: f32| run[(t / 0.008).round() as usize - 1].1;
    assert!((v(0.088) + 18.8).abs() < 1.0, "{}", v(0.088));
    assert!((v(0.328) + 50.5).abs() < 1.0, "{}", v(0.328));
    assert!((v(0.6) + 60.0).abs() < 0.5, "{}", v(0.6));
    let sunk = |t: f32| 500.0 - run[(t / 0.008).round() as usize - 1].0;
    assert!((sunk(1.0) - 49.6).abs() <= 1.0, "{}", sunk(1.0));
    assert!((sunk(2.0) - 109.6).abs() <= 1.0, "{}", sunk(2.0));
    assert!(run.iter().all(|t| t.3.activity == Activity::Swim));
}

/// The eyes (feet + 50) leave the 128-deep water once the feet pass 128 − 50 = 78.
const EYES_OUT_FEET: f32 = 78.0;

#[test]
fn s49_holding_jump_rises_to_the_surface() {
    let w = pool(128.0, "*water0");
    let mut c = player(Vec3::ZERO);
    let jump = MoveInput { jump: true, ..IDLE };
    let mut run = Vec::new();
    for _ in 0..1000 {
        let o = c.step(&w, &jump);
        run.push((feet(&c).z, c.velocity().z, o.water_level));
    }
    let v = |t: f32| run[(t / 0.008).round() as usize - 1].1;
    assert!((v(0.25) - 115.0).abs() <= 3.0, "{}", v(0.25));
    assert!((v(0.5) - 160.0).abs() <= 1.0, "{}", v(0.5));
    let out = run.iter().position(|t| t.2 < 3).unwrap();
    assert!(
        (out as f32 * 0.008 - 0.67).abs() <= 0.02,
        "below level 3 at {out}"
    );
    // The doc's "feet ≈ 80": the first tick past the threshold, rising at most 160 · dt.
    let feet_out = run[out].0;
    assert!(
        feet_out > EYES_OUT_FEET && feet_out <= EYES_OUT_FEET + 160.0 * 0.008,
        "feet {feet_out} when the eyes come out"
    );
    let after = &run[out..];
    assert!(after.iter().all(|t| t.2 == 1 || t.2 == 2));
    // The bob is damped: level 2 swims up at 160 (no gravity), level 1 falls back under
    // gravity with water friction, and the swing shrinks from 90.5–118.2 (the first
    // overshoot, 1.0–1.4 s) through 96.2–110.7 (1.7–2.0 s) to the scenario's band,
    // 99.9–105.4, from about 3 s on (Quake 3 `PM_WaterMove` at level 2,
    // `PM_AirMove` at level 1, 8 ms ticks; the same simulation in f64 settles at
    // 99.97–105.35). So the band is measured after 4 s.
    let settled = &run[500..];
    let lo = settled.iter().map(|t| t.0).fold(f32::MAX, f32::min);
    let hi = settled.iter().map(|t| t.0).fold(f32::MIN, f32::max);
    assert!((lo - 99.9).abs() <= 1.0, "bobs down to {lo}");
    assert!((hi - 105.4).abs() <= 1.0, "bobs up to {hi}");
}

#[test]
fn s50_wading_and_swimming_speed() {
    let shallow = pool(20.0, "*water0");
    let mut c = player(Vec3::ZERO);
    let ticks = steps(&mut c, &shallow, run(Vec3::X), 125);
    assert!((ticks[124].horizontal_speed() - 266.67).abs() < 1.0);
    assert_eq!(ticks[124].outcome.water_level, 1);
    let deep = pool(1024.0, "*water0");
    let mut c = at(Vec3::new(0.0, 0.0, 400.0));
    let ticks = steps(&mut c, &deep, run(Vec3::X), 250);
    assert!(
        (ticks[249].velocity.x - 160.0).abs() < 1.0,
        "{}",
        ticks[249].velocity
    );
}

/// Scenario 51's pool: deck top z = 0 for x > 0, surface z = −8, bottom z = −256.
fn ledge_pool(deck_top: f64) -> CompiledMap {
    let list = [
        ([0.0, -256.0, -256.0], [256.0, 256.0, deck_top], "wall"),
        ([-512.0, -256.0, -272.0], [0.0, 256.0, -256.0], "floor"),
        ([-512.0, -256.0, -256.0], [0.0, 256.0, -8.0], "*water0"),
    ];
    crate::support::compile(crate::support::box_map(&list).as_bytes()).map
}

#[test]
fn s51_water_jump_onto_a_ledge() {
    let w = ledge_pool(0.0);
    let config = ControllerConfig::default();
    let origin = Vec3::new(-15.0 - SKIN, 0.0, -36.0 + config.feet_to_origin);
    let mut c = CharacterController::new(config, origin).unwrap();
    let forward = run(Vec3::X);
    let first = c.step(&w, &forward);
    assert!(first.water_jumped);
    assert_eq!(c.velocity().x, 200.0);
    assert!((c.velocity().z - (350.0 - 2.0 * 800.0 * 0.008)).abs() < 1e-3);
    let mut falling_at = None;
    let mut on_deck = None;
    for i in 1..100 {
        c.step(&w, &forward);
        if falling_at.is_none() && c.velocity().z < 0.0 {
            falling_at = Some((i + 1, feet(&c).z));
        }
        if on_deck.is_none() && c.ground().state == GroundState::Walkable {
            on_deck = Some(i + 1);
        }
    }
    let (tick, height) = falling_at.unwrap();
    assert_eq!(tick, 28);
    // 28 ticks of 350 − 2·800·dt per tick, each moving (v − 800·dt/2)·dt: 38.976 up from
    // −36 (Quake 3 `PM_WaterJumpMove`, gravity in the slide and once more).
    assert!((height - 2.98).abs() < 0.1, "feet {height} when falling");
    let on_deck = on_deck.unwrap();
    assert!(
        on_deck as f32 * 0.008 < 0.4,
        "on the deck at tick {on_deck}"
    );
    assert!(feet(&c).z > -0.1);
    // No water jump where the opening is solid (a wall 48 high).
    let high = ledge_pool(48.0);
    let mut c = CharacterController::new(config, origin).unwrap();
    assert!(!c.step(&high, &forward).water_jumped);
}

#[test]
fn s52_slime_and_lava_move_like_water() {
    let water = drop_into(&pool(128.0, "*water0"), 200.0, 200);
    for (liquid, bit) in [("*slime0", Contents::SLIME), ("*lava0", Contents::LAVA)] {
        let run = drop_into(&pool(128.0, liquid), 200.0, 200);
        for (a, b) in water.iter().zip(&run) {
            assert_eq!(a.0.to_bits(), b.0.to_bits());
            assert_eq!(a.1.to_bits(), b.1.to_bits());
            assert_eq!(a.2, b.2);
            if b.2 > 0 {
                assert_eq!(b.3.liquid, bit);
            }
        }
    }
}

#[test]
fn s53_landing_in_shallow_water() {
    let w = pool(16.0, "*water0");
    let run = drop_into(&w, 400.0, 200);
    let landing = run
        .iter()
        .find_map(|t| t.3.landed.map(|v| (v, t.2)))
        .unwrap();
    assert!((785.0..=800.0).contains(&landing.0), "{landing:?}");
    assert_eq!(landing.1, 1);
}

#[test]
fn s54_quake2_current() {
    // Quake 2 water with CONTENTS_CURRENT_0 (0x40000 | 0x20), 1024 deep.
    let list = [
        ([-512.0, -512.0, -16.0], [512.0, 512.0, 0.0], "floor"),
        ([-512.0, -512.0, 0.0], [512.0, 512.0, 1024.0], "cur"),
    ];
    let src = crate::support::box_map(&list)
        .replace("floor 0 0 0 1 1\n", "floor 0 0 0 1 1 1 0 0\n")
        .replace("cur 0 0 0 1 1\n", "cur 0 0 0 1 1 262176 0 0\n");
    let w = crate::support::compile(src.as_bytes()).map;
    assert_eq!(w.point_current(Vec3::new(0.0, 0.0, 500.0)), Vec3::X);
    let config = ControllerConfig {
        max_speed: 300.0,
        ..ControllerConfig::default()
    };
    let mut c = CharacterController::new(config, Vec3::new(-400.0, 0.0, 524.0)).unwrap();
    for _ in 0..300 {
        c.step(&w, &IDLE);
    }
    let v = c.velocity();
    assert!((v - Vec3::new(148.3, 0.0, -22.3)).length() < 1.0, "{v}");
}

#[test]
fn s54_half_life_current_pushes_without_storing() {
    let list = [
        ([-512.0, -512.0, -16.0], [512.0, 512.0, 0.0], "floor"),
        ([-512.0, -512.0, 0.0], [512.0, 512.0, 1024.0], "!cur_0water"),
    ];
    let w = crate::support::compile(crate::support::box_map(&list).as_bytes()).map;
    assert_eq!(w.point_current(Vec3::new(0.0, 0.0, 500.0)), Vec3::X);
    let config = ControllerConfig {
        current_speed: 0.0,
        current_push: 50.0,
        ..ControllerConfig::default()
    };
    let mut c = CharacterController::new(config, Vec3::new(-400.0, 0.0, 524.0)).unwrap();
    let x = c.position().x;
    for _ in 0..125 {
        c.step(&w, &IDLE);
        assert!(c.velocity().x.abs() < 1e-3, "{}", c.velocity());
    }
    // 50 per level at level 3: 150 units in a second.
    assert!(
        (c.position().x - x - 150.0).abs() < 1.0,
        "{}",
        c.position().x - x
    );
}

#[test]
fn moving_water_is_water_where_the_mover_stands() {
    use planeshift::ModelPlacement;
    use planeshift::movement::{Mover, WorldWithMovers};
    use planeshift::{CompileOptions, build::compile_map_with};
    use planeshift::{build::Game, level::ModelKind};
    // Half-Life: a floor, and a `func_water` 128 deep over x in [512, 1024] that the game
    // moves 1024 to -x, over x in [-512, 0].
    let brush = |mins, maxs, texture| {
        format!(
            "{{\n{}}}\n",
            crate::support::box_brush_face_lines(mins, maxs, texture)
        )
    };
    let src = format!(
        "{{\n\"classname\" \"worldspawn\"\n{}}}\n{{\n\"classname\" \"func_water\"\n{}}}\n",
        brush([-1024.0, -512.0, -16.0], [1024.0, 512.0, 0.0], "floor"),
        brush([512.0, -512.0, 0.0], [1024.0, 512.0, 128.0], "water"),
    );
    let options = CompileOptions {
        game: Some(Game::HalfLife),
        ..CompileOptions::default()
    };
    let map = compile_map_with(src.as_bytes(), &options).unwrap().map;
    assert_eq!(map.models().len(), 2);
    assert_eq!(map.models()[1].kind, ModelKind::Volume);
    let movers = [Mover {
        model: 1,
        placement: ModelPlacement {
            offset: Vec3::new(-1024.0, 0.0, 0.0),
            ..ModelPlacement::default()
        },
    }];
    let moved = WorldWithMovers {
        map: &map,
        movers: &movers,
    };
    let (here, there) = (Vec3::new(-256.0, 0.0, 64.0), Vec3::new(768.0, 0.0, 64.0));
    assert!(moved.contents(here).contains(Contents::WATER));
    assert!(!moved.contents(there).contains(Contents::WATER));
    // The static world never holds the volume: it is the game's to place.
    assert!(!Tracer::contents(&map, there).contains(Contents::WATER));
    // A character dropped into it swims where it stands now.
    let mut c = at(Vec3::new(-256.0, 0.0, 200.0));
    let run: Vec<_> = (0..150).map(|_| c.step(&moved, &IDLE)).collect();
    assert!(run.iter().any(|o| o.activity == Activity::Swim));
    assert_eq!(run[149].water_level, 3);
    assert!(run[149].liquid.contains(Contents::WATER));
    let mut dry = at(Vec3::new(768.0, 0.0, 200.0));
    assert!((0..150).all(|_| dry.step(&moved, &IDLE).water_level == 0));
}

/// The water level's three samples answered in one walk (`CompiledMap::points_contents`)
/// equal three `point_contents` calls, on every bundled map and the real maps with liquids,
/// static models or dense patches (whose leaves are read point by point): columns as the controller samples them (feet + 1, waist, eyes, for the
/// standing, crouched and dead heights) and scattered triples.
#[test]
fn three_samples_in_one_walk_equal_three_point_queries() {
    let mut maps = crate::support::bundled_maps();
    maps.extend(
        crate::support::real_maps("three_samples_in_one_walk_equal_three_point_queries")
            .into_iter()
            .filter(|(name, _)| {
                ["e1m2", "e2m1", "hl_currents", "kaos", "dm17ish", "q3dm6ish"]
                    .iter()
                    .any(|m| name.contains(m))
            }),
    );
    let mut rng = crate::support::Pcg32::new(47);
    let mut checked = 0;
    for (name, path) in &maps {
        let Ok(out) = planeshift::compile_map(&crate::support::read(path)) else {
            continue;
        };
        let map = out.map;
        let Some(world) = map.models().first() else {
            continue;
        };
        let (lo, hi) = (world.mins, world.maxs);
        let point = |rng: &mut crate::support::Pcg32| {
            Vec3::new(
                rng.range_f64(f64::from(lo.x), f64::from(hi.x)) as f32,
                rng.range_f64(f64::from(lo.y), f64::from(hi.y)) as f32,
                rng.range_f64(f64::from(lo.z), f64::from(hi.z)) as f32,
            )
        };
        for i in 0..4000 {
            let points = if i % 2 == 0 {
                let feet = point(&mut rng);
                let eye = [50.0, 36.0, 8.0][i % 3];
                [1.0, (0.5f32 * eye).floor(), eye].map(|h| feet + Vec3::Z * h)
            } else {
                [point(&mut rng), point(&mut rng), point(&mut rng)]
            };
            let one_walk = map.points_contents(points);
            let each = points.map(|p| map.point_contents(p));
            assert_eq!(one_walk, each, "{name}: {points:?}");
            checked += 1;
        }
    }
    assert!(checked >= 4000 * 10, "{checked}");
}

#[test]
fn water_jump_lasts_its_time_in_commands_of_any_length() {
    // Scenario 51's ledge, a 100 ms water jump (Quake 3 counts `pm_time` in the commands'
    // milliseconds): commands of 50 ms fly it for two commands, of 30 ms for four (120 ms
    // covers 100), whatever the configured 8 ms tick. In flight nothing is controlled: the
    // velocity keeps x = 200 and loses 2 · 800 · dt in z per command (gravity twice,
    // Quake 3 `PM_WaterJumpMove`); afterwards the wall in front clips x to 0.
    let w = ledge_pool(0.0);
    let config = ControllerConfig {
        water_jump_time: 0.1,
        ..ControllerConfig::default()
    };
    let origin = Vec3::new(-15.0 - SKIN, 0.0, -36.0 + config.feet_to_origin);
    let forward = run(Vec3::X);
    for (msec, flight) in [(50u32, 2usize), (30, 4), (8, 13)] {
        let mut c = CharacterController::new(config, origin).unwrap();
        let dt = msec as f32 / 1000.0;
        let mut vz = 350.0;
        for command in 0..flight {
            let outcome = c.step_msec(&w, &forward, msec);
            assert_eq!(
                outcome.water_jumped,
                command == 0,
                "{msec} ms, command {command}"
            );
            vz -= 2.0 * 800.0 * dt;
            assert_eq!(
                c.velocity().x,
                200.0,
                "{msec} ms, command {command}: in flight"
            );
            assert!(
                (c.velocity().z - vz).abs() < 1e-3,
                "{msec} ms, command {command}: {}",
                c.velocity()
            );
            // What is left, in the commands' own microseconds.
            let left = 100_000u32.saturating_sub(msec * 1000 * (command as u32 + 1));
            assert_eq!(
                c.state().water_jump_us,
                left,
                "{msec} ms, command {command}"
            );
        }
        let outcome = c.step_msec(&w, &forward, msec);
        assert!(!outcome.water_jumped);
        assert_ne!(
            c.velocity().x,
            200.0,
            "{msec} ms: still in flight after 100 ms"
        );
    }
    // Mid-jump the state round-trips; a save of the old format (`water_jump_ticks`) reads
    // back when no jump was running and is refused, naming the key, mid-jump.
    let mut c = CharacterController::new(config, origin).unwrap();
    c.step_msec(&w, &forward, 30);
    let text = serde_json::to_string(c.state()).unwrap();
    assert!(text.contains("\"water_jump_us\":70000"), "{text}");
    let back: CharacterState = serde_json::from_str(&text).unwrap();
    assert_eq!(back, *c.state());
    let old_idle = text.replace("\"water_jump_us\":70000", "\"water_jump_ticks\":0");
    let read: CharacterState = serde_json::from_str(&old_idle).unwrap();
    assert_eq!(read.water_jump_us, 0);
    let old_mid = text.replace("\"water_jump_us\":70000", "\"water_jump_ticks\":9");
    let err = serde_json::from_str::<CharacterState>(&old_mid).unwrap_err();
    assert!(err.to_string().contains("water_jump_ticks 9"), "{err}");
    let missing = text.replace("\"water_jump_us\":70000,", "");
    assert!(serde_json::from_str::<CharacterState>(&missing).is_err());
}
