//! Headless tests with a real `App` (task pool, time, transform and asset plugins; the asset
//! source in memory; time stepped by hand): input between fixed steps, interpolation,
//! loading, load errors, messages against the bare crowd, movers.

use std::path::PathBuf;
use std::time::Duration;

use bevy_app::App;
use bevy_ecs::entity::Entity;
use bevy_ecs::message::{Message, Messages};
use bevy_time::TimeUpdateStrategy;
use bevy_transform::components::Transform;
use glam::Vec3;
use planeshift::{
    CharacterController, CompiledMap, ControllerConfig, Crowd, CrowdConfig, MoveInput, compile_map,
    movement::GroundState,
};
use planeshift_bevy::headless::{headless_app, load_level};
use planeshift_bevy::{
    BrushEntity, Character, CharacterInput, CharacterStatus, FixedPositions, Jumped, Landed, Level,
    LevelAsset, LevelMover, MapSpace, MoverBlocked, PlaneshiftPlugin, TriggerEntered, TriggerLeft,
    TriggerTouched,
};

/// A bundled map's bytes.
fn bundled(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../maps")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// An app with `name` loaded as the level, a `Level` entity holding it.
fn app_with_level(name: &str, bytes: &[u8]) -> App {
    let mut app = headless_app(&[(name, bytes)], PlaneshiftPlugin::default());
    let handle = load_level(&mut app, name).unwrap_or_else(|e| panic!("{name}: {e}"));
    app.world_mut().spawn(Level(handle));
    app
}

/// Every message of type `M` written during `f`, in order.
fn collect<M: Message + Clone>(app: &mut App, f: impl FnOnce(&mut App)) -> Vec<M> {
    let mut cursor = app.world().resource::<Messages<M>>().get_cursor_current();
    f(app);
    cursor
        .read(app.world().resource::<Messages<M>>())
        .cloned()
        .collect()
}

fn steps(app: &App, e: Entity) -> u64 {
    app.world().get::<CharacterStatus>(e).map_or(0, |s| s.steps)
}

/// A character on box_room's floor, settled, with 4 ms frames and 8 ms steps.
fn settled_on_box_room() -> (App, Entity) {
    let mut app = app_with_level("box_room.map", &bundled("box_room.map"));
    let e = app
        .world_mut()
        .spawn(Character {
            config: ControllerConfig::default(),
            map_origin: Some(Vec3::new(0.0, 0.0, 24.0 + 1.0 / 32.0)),
        })
        .id();
    for _ in 0..40 {
        app.update();
    }
    let status = *app.world().get::<CharacterStatus>(e).expect("status");
    assert_eq!(status.ground, GroundState::Walkable);
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(4)));
    (app, e)
}

#[test]
fn a_jump_pressed_for_one_4ms_frame_between_8ms_steps_jumps_once() {
    for press_on_step_frame in [false, true] {
        let (mut app, e) = settled_on_box_room();
        // Line the frames up so the press lands on a frame with (or without) a step.
        loop {
            let before = steps(&app, e);
            app.update();
            let stepped = steps(&app, e) > before;
            // The next frame steps iff this one did not.
            if stepped != press_on_step_frame {
                break;
            }
        }
        let before = steps(&app, e);
        app.world_mut()
            .get_mut::<CharacterInput>(e)
            .expect("input")
            .jump = true;
        let mut jumps = collect::<Jumped>(&mut app, |app| app.update());
        assert_eq!(steps(&app, e) > before, press_on_step_frame);
        app.world_mut()
            .get_mut::<CharacterInput>(e)
            .expect("input")
            .jump = false;
        for _ in 0..200 {
            jumps.extend(collect::<Jumped>(&mut app, |app| app.update()));
        }
        assert_eq!(
            jumps.len(),
            1,
            "press on a step frame: {press_on_step_frame}"
        );
        assert_eq!(jumps[0].character, e);
    }
}

#[test]
fn with_4ms_frames_the_transform_is_halfway_between_two_steps() {
    let (mut app, e) = settled_on_box_room();
    app.world_mut()
        .get_mut::<CharacterInput>(e)
        .expect("input")
        .wish = Some(Vec3::X);
    // Two steps to get going, then every frame.
    while steps(&app, e) < 42 {
        app.update();
    }
    let (mut halfway, mut on_step) = (0, 0);
    for _ in 0..100 {
        let before = steps(&app, e);
        app.update();
        let fixed = *app.world().get::<FixedPositions>(e).expect("fixed");
        let at = app
            .world()
            .get::<Transform>(e)
            .expect("transform")
            .translation;
        if steps(&app, e) > before {
            // Just after a step no time has run into the next: the previous position (the
            // rendered transform runs one step behind, as Bevy's own interpolation does).
            assert!((at - fixed.previous).length() < 1e-4, "{at} {fixed:?}");
            on_step += 1;
        } else {
            let mid = (fixed.previous + fixed.current) * 0.5;
            assert!((at - mid).length() < 1e-4, "{at} {fixed:?}");
            assert!(fixed.previous != fixed.current);
            halfway += 1;
        }
    }
    assert!(halfway >= 40 && on_step >= 40, "{halfway} {on_step}");
}

#[test]
fn map_and_pbsp_load_through_the_asset_server_and_a_malformed_file_is_a_load_error() {
    let map = bundled("arena.map");
    let compiled = compile_map(&map).expect("arena").map;
    let pbsp = compiled.to_bytes();
    let broken = b"{ \"classname\" \"worldspawn\" ( 0 0".to_vec();
    let mut app = headless_app(
        &[
            ("arena.map", &map),
            ("arena.pbsp", &pbsp),
            ("broken.map", &broken),
            ("broken.pbsp", &broken),
        ],
        PlaneshiftPlugin::default(),
    );
    for bad in ["broken.map", "broken.pbsp", "missing.map"] {
        let err = load_level(&mut app, bad).expect_err(bad);
        assert!(!err.is_empty());
        app.update();
    }
    for good in ["arena.map", "arena.pbsp"] {
        let handle = load_level(&mut app, good).expect(good);
        let assets = app.world().resource::<bevy_asset::Assets<LevelAsset>>();
        let level = assets.get(&handle).expect("loaded");
        assert_eq!(level.map.models().len(), compiled.models().len());
        assert_eq!(level.map.summary(), compiled.summary());
    }
}

/// Trigger and landing outcomes per step: (step, id, what, model or speed bits).
type Events = Vec<(usize, u32, &'static str, u64)>;

/// The seeded inputs of character `id` at step `step`.
fn wish(id: u32, step: usize) -> MoveInput {
    let a = (id as f32) * 1.3 + (step / 120) as f32 * 2.1;
    MoveInput {
        wish: Vec3::new(a.cos(), a.sin(), 0.0),
        jump: (step + id as usize * 7).is_multiple_of(90),
        crouch: false,
        command: None,
    }
}

/// The bare crowd's trigger and landing outcomes over `n` steps.
fn bare(map: &CompiledMap, spawns: &[Vec3], n: usize) -> Events {
    let mut crowd = Crowd::new(CrowdConfig::default());
    for (id, &at) in spawns.iter().enumerate() {
        crowd.insert(
            id as u32,
            CharacterController::new(ControllerConfig::default(), at).expect("c"),
        );
    }
    let mut events = Events::new();
    let space = MapSpace::default();
    for step in 0..n {
        crowd.step(map, |id| wish(id, step));
        for (id, _, o) in crowd.iter() {
            let t = &o.tick.triggers;
            events.extend(
                t.entered
                    .as_slice()
                    .iter()
                    .map(|&m| (step, id, "entered", u64::from(m))),
            );
            events.extend(
                t.touched
                    .as_slice()
                    .iter()
                    .map(|&m| (step, id, "touched", u64::from(m))),
            );
            events.extend(
                t.left
                    .as_slice()
                    .iter()
                    .map(|&m| (step, id, "left", u64::from(m))),
            );
            if let Some(speed) = o.tick.landed {
                events.push((
                    step,
                    id,
                    "landed",
                    u64::from(space.length_to_bevy(speed).to_bits()),
                ));
            }
        }
    }
    events
}

/// The same through the plugin's messages.
fn through_bevy(name: &str, bytes: &[u8], spawns: &[Vec3], n: usize) -> Events {
    let mut app = app_with_level(name, bytes);
    let space = MapSpace::default();
    let ids: Vec<Entity> = spawns
        .iter()
        .map(|&at| {
            app.world_mut()
                .spawn(Character {
                    config: ControllerConfig::default(),
                    map_origin: Some(at),
                })
                .id()
        })
        .collect();
    let id_of = |e: Entity| ids.iter().position(|&x| x == e).expect("ours") as u32;
    let mut events = Events::new();
    for step in 0..n {
        for (id, &e) in ids.iter().enumerate() {
            let m = wish(id as u32, step);
            *app.world_mut().get_mut::<CharacterInput>(e).expect("input") = CharacterInput {
                wish: Some(space.dir_to_bevy(m.wish)),
                jump: m.jump,
                crouch: m.crouch,
                ..CharacterInput::default()
            };
        }
        let mut c1 = app
            .world()
            .resource::<Messages<TriggerEntered>>()
            .get_cursor_current();
        let mut c2 = app
            .world()
            .resource::<Messages<TriggerTouched>>()
            .get_cursor_current();
        let mut c3 = app
            .world()
            .resource::<Messages<TriggerLeft>>()
            .get_cursor_current();
        let mut c4 = app
            .world()
            .resource::<Messages<Landed>>()
            .get_cursor_current();
        app.update();
        let w = app.world();
        for m in c1.read(w.resource::<Messages<TriggerEntered>>()) {
            events.push((step, id_of(m.character), "entered", m.model as u64));
        }
        for m in c2.read(w.resource::<Messages<TriggerTouched>>()) {
            events.push((step, id_of(m.character), "touched", m.model as u64));
        }
        for m in c3.read(w.resource::<Messages<TriggerLeft>>()) {
            events.push((step, id_of(m.character), "left", m.model as u64));
        }
        for m in c4.read(w.resource::<Messages<Landed>>()) {
            events.push((
                step,
                id_of(m.character),
                "landed",
                u64::from(m.speed.to_bits()),
            ));
        }
    }
    events
}

/// Spawn points spread round a map's first player spawn.
fn spawns_near(map: &CompiledMap, n: usize) -> Vec<Vec3> {
    let base = map.player_spawns().next().expect("a player spawn");
    (0..n)
        .map(|i| {
            base + Vec3::new(
                (i % 4) as f32 * 40.0 - 60.0,
                (i / 4) as f32 * 40.0 - 60.0,
                0.0,
            )
        })
        .collect()
}

#[test]
fn trigger_and_landing_messages_equal_the_bare_crowd_over_2000_steps() {
    const STEPS: usize = 2_000;
    let mut levels: Vec<(String, Vec<u8>)> = ["trigger_room.map", "hurt_pit.map", "movement.map"]
        .iter()
        .map(|name| (name.to_string(), bundled(name)))
        .collect();
    // Shared levels with teleporters, jump pads and hurt volumes (Quake 1 and Quake 3).
    match std::env::var_os("PLANESHIFT_REAL_MAPS") {
        Some(dir) => {
            for name in ["librequake/lqdm13.map", "openarena-lostlevels/dm17ish.map"] {
                let path = PathBuf::from(&dir).join(name);
                let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
                let file = name.rsplit('/').next().unwrap_or(name).to_string();
                levels.push((file, bytes));
            }
        }
        None => println!("shared levels skipped: PLANESHIFT_REAL_MAPS is not set"),
    }
    for (name, bytes) in &levels {
        let name = name.as_str();
        let map = compile_map(bytes).expect(name).map;
        let spawns = spawns_near(&map, 8);
        let mut expected = bare(&map, &spawns, STEPS);
        let mut got = through_bevy(name, bytes, &spawns, STEPS);
        expected.sort();
        got.sort();
        let kinds = |e: &Events, k: &str| e.iter().filter(|x| x.2 == k).count();
        println!(
            "{name}: {} entered, {} touched, {} left, {} landed",
            kinds(&expected, "entered"),
            kinds(&expected, "touched"),
            kinds(&expected, "left"),
            kinds(&expected, "landed")
        );
        assert!(kinds(&expected, "landed") > 0, "{name}");
        assert_eq!(expected, got, "{name}");
    }
}

/// A character on crusher.map's plat, and the plat's mover entity.
fn on_the_plat() -> (App, Entity, Entity) {
    let mut app = app_with_level("crusher.map", &bundled("crusher.map"));
    let e = app
        .world_mut()
        .spawn(Character {
            config: ControllerConfig::default(),
            map_origin: Some(Vec3::new(0.0, 0.0, 16.0 + 24.0 + 1.0 / 32.0)),
        })
        .id();
    for _ in 0..20 {
        app.update();
    }
    let mut plat = None;
    let mut q = app
        .world_mut()
        .query::<(Entity, &LevelMover, &BrushEntity)>();
    for (entity, mover, brush) in q.iter(app.world()) {
        if mover.model == 1 {
            assert_eq!(brush.classname, "func_plat");
            plat = Some(entity);
        }
    }
    (app, e, plat.expect("the plat spawned as a mover entity"))
}

#[test]
fn a_mover_driven_by_its_transform_carries_a_character_and_a_blocked_push_is_a_message() {
    let (mut app, e, plat) = on_the_plat();
    let space = MapSpace::default();
    let z0 = app
        .world()
        .get::<planeshift_bevy::CharacterSnapshot>(e)
        .expect("snap")
        .0
        .position
        .z;
    // Up 10 units a step: carried four times (headroom 64 under the block), blocked on the fifth.
    let mut blocked = Vec::new();
    for k in 1..=6 {
        app.world_mut()
            .get_mut::<Transform>(plat)
            .expect("plat")
            .translation = space.to_bevy(Vec3::new(0.0, 0.0, 10.0 * k as f32));
        blocked.extend(collect::<MoverBlocked>(&mut app, |app| app.update()));
        let z = app
            .world()
            .get::<planeshift_bevy::CharacterSnapshot>(e)
            .expect("snap")
            .0
            .position
            .z;
        if k <= 4 {
            assert!(
                (z - (z0 + 10.0 * k as f32)).abs() < 0.01,
                "step {k}: {z} from {z0}"
            );
            assert!(blocked.is_empty(), "step {k}");
        }
    }
    assert!(!blocked.is_empty());
    assert_eq!(blocked[0].mover, plat);
    assert_eq!(blocked[0].character, e);
}

#[test]
fn a_bsp_loads_through_the_asset_server_when_the_shared_maps_are_there() {
    let Some(dir) = std::env::var_os("PLANESHIFT_REAL_MAPS") else {
        println!("skipped: PLANESHIFT_REAL_MAPS is not set");
        return;
    };
    let path = PathBuf::from(dir).join("id-quake-1996/dm2.bsp");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let expected = planeshift::build::import_bsp(&bytes, &planeshift::CompileOptions::default())
        .expect("dm2.bsp imports")
        .map;
    let mut app = headless_app(
        &[("dm2.bsp", &bytes), ("bad.bsp", b"IBSP")],
        PlaneshiftPlugin::default(),
    );
    let handle = load_level(&mut app, "dm2.bsp").expect("dm2.bsp");
    let assets = app.world().resource::<bevy_asset::Assets<LevelAsset>>();
    assert_eq!(
        assets.get(&handle).expect("loaded").map.summary(),
        expected.summary()
    );
    assert!(load_level(&mut app, "bad.bsp").is_err());
    app.update();
}

/// What the query system saw: the entity a shot hit, and what a blast reached.
#[derive(bevy_ecs::prelude::Resource, Default)]
struct Seen {
    shot: Option<Entity>,
    fired: Option<(Option<Entity>, Vec3)>,
    blast: Vec<(Option<Entity>, f32)>,
    contents: Option<planeshift::Contents>,
}

#[test]
fn the_level_query_names_the_character_a_shot_hits_and_what_a_blast_reaches() {
    use bevy_ecs::prelude::*;
    use bevy_ecs::system::RunSystemOnce;
    use planeshift::Contents;
    use planeshift::QueryFilter;
    use planeshift_bevy::{LevelAreaHit, LevelQuery, LevelShape};
    let mut app = app_with_level("box_room.map", &bundled("box_room.map"));
    let spawn = |app: &mut App, x: f32| {
        app.world_mut()
            .spawn(Character {
                config: ControllerConfig::default(),
                map_origin: Some(Vec3::new(x, 0.0, 24.0 + 1.0 / 32.0)),
            })
            .id()
    };
    let (shooter, target, behind) = (
        spawn(&mut app, -100.0),
        spawn(&mut app, 0.0),
        spawn(&mut app, 100.0),
    );
    for _ in 0..20 {
        app.update();
    }
    app.insert_resource(Seen::default());
    let system = move |mut query: LevelQuery, space: Res<MapSpace>, mut seen: ResMut<Seen>| {
        let eye = space.to_bevy(Vec3::new(-100.0, 0.0, 50.0));
        let far = space.to_bevy(Vec3::new(4000.0, 0.0, 50.0));
        let shot = query.skipping(QueryFilter::new(Contents::MASK_SHOT), shooter);
        seen.shot = query.hitscan(eye, far, &shot).and_then(|h| h.entity);
        // The shooter's own view (yaw 0: along +x) from its own eye, no filter of our own.
        let any = QueryFilter::new(Contents::MASK_SHOT);
        let range = space.length_to_bevy(4000.0);
        seen.fired = query
            .fire_from_eye(shooter, range, &any)
            .map(|h| (h.entity, space.to_map(h.end)));
        let mut reached: Vec<LevelAreaHit> = Vec::new();
        let blast = LevelShape::Sphere(space.length_to_bevy(60.0));
        query.overlapping(
            &blast,
            space.to_bevy(Vec3::new(50.0, 0.0, 30.0)),
            &shot,
            &mut reached,
        );
        seen.blast = reached.iter().map(|h| (h.entity, h.distance)).collect();
        seen.contents = query.point_contents(space.to_bevy(Vec3::new(0.0, 0.0, 30.0)));
    };
    app.world_mut()
        .run_system_once(system)
        .expect("the query system runs");
    let seen = app.world().resource::<Seen>();
    assert_eq!(
        seen.shot,
        Some(target),
        "the shot passes the shooter and names the first player"
    );
    let status = *app
        .world()
        .get::<CharacterStatus>(shooter)
        .expect("a status");
    let (fired_at, end) = seen.fired.expect("the shooter fires");
    assert_eq!(
        fired_at,
        Some(target),
        "fired from the eye, skipping the shooter"
    );
    let space = *app.world().resource::<MapSpace>();
    let eye = space.to_map(status.eye);
    assert!(
        (end.x - (0.0 - 15.0)).abs() <= 1.0 / 16.0 && (end.z - eye.z).abs() < 1e-3,
        "stops on the target's near face (within its 1/32 skin) at eye height: {end} (eye {eye})"
    );
    // The blast at x 50 reaches both players (faces at 15 and 85: 35 map units away each).
    let space = *app.world().resource::<MapSpace>();
    let want = space.length_to_bevy(35.0);
    assert_eq!(seen.blast.len(), 2, "{:?}", seen.blast);
    for (entity, distance) in &seen.blast {
        assert!(*entity == Some(target) || *entity == Some(behind));
        assert!(
            (distance - want).abs() < 1e-3 * want.max(1.0),
            "{distance} vs {want}"
        );
    }
    assert!(seen.contents.is_some_and(|c| c.contains(Contents::BODY)));
}

/// A closed room as a glTF binary in Bevy's axes and metres (Y up): x and z in [−2, 2], y in
/// [0, 3], every triangle counter-clockwise seen from inside, one material.
fn glb_room() -> Vec<u8> {
    let (lo, hi) = ([-2.0f32, 0.0, -2.0], [2.0f32, 3.0, 2.0]);
    let corner = |i: usize| {
        [
            if i & 1 == 0 { lo[0] } else { hi[0] },
            if i & 2 == 0 { lo[1] } else { hi[1] },
            if i & 4 == 0 { lo[2] } else { hi[2] },
        ]
    };
    // Each face's corners counter-clockwise seen from outside the box (listed backwards
    // below, so each triangle is counter-clockwise seen from inside, the air side).
    let faces: [[usize; 4]; 6] = [
        [0, 1, 5, 4], // floor (y low)
        [2, 6, 7, 3], // ceiling
        [0, 4, 6, 2], // x low
        [1, 3, 7, 5], // x high
        [0, 2, 3, 1], // z low
        [4, 5, 7, 6], // z high
    ];
    let positions: Vec<[f32; 3]> = (0..8).map(corner).collect();
    let mut indices: Vec<u16> = Vec::new();
    for f in faces {
        // Reversed: (1 − 0) × (2 − 0) must face into the room.
        indices.extend([f[0], f[3], f[2], f[0], f[2], f[1]].map(|i| i as u16));
    }
    planeshift_testkit::glb::glb_of_triangles(&positions, &indices, "floor")
}

/// A glTF the game renders (Y up, metres) is a level where Bevy draws it: a character
/// dropped in the room lands on its floor (y 0) with its origin `feet_to_origin` above it.
#[test]
fn a_gltf_room_in_bevy_units_collides_where_it_is_drawn() {
    let mut app = app_with_level("room.glb", &glb_room());
    let player = app
        .world_mut()
        .spawn((
            Character::new(ControllerConfig::default()),
            Transform::from_xyz(0.5, 1.5, -0.5),
        ))
        .id();
    for _ in 0..200 {
        app.update();
    }
    let status = *app.world().get::<CharacterStatus>(player).expect("status");
    let space = *app.world().resource::<MapSpace>();
    let want = space.length_to_bevy(ControllerConfig::default().feet_to_origin);
    assert_eq!(status.ground, GroundState::Walkable, "{status:?}");
    assert!(
        (status.position.y - want).abs() < 0.01,
        "on the floor drawn at y 0: {} (want {want})",
        status.position.y
    );
    assert!((status.position.x - 0.5).abs() < 1e-3 && (status.position.z + 0.5).abs() < 1e-3);
}
