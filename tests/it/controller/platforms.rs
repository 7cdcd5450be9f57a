//! Scenarios 31, 42 and 43: movers that push and carry (`maps/platforms.map`,
//! `maps/arena.map`'s door), and the configuration file.

use glam::{Quat, Vec3};
use planeshift::CompiledMap;
use planeshift::ModelPlacement;
use planeshift::{
    ControllerConfig, MoveInput,
    movement::{CharacterShape, ConfigError, GroundState, Mover, WorldWithMovers},
};

use super::*;

/// The index of the first model whose entity has this classname.
fn model_of(map: &CompiledMap, classname: &str) -> usize {
    map.find_entities(classname)
        .find_map(|e| e.model())
        .unwrap_or_else(|| panic!("no {classname}"))
}

/// Idles the character until it rests on the world with `model` at its map position.
fn settle_with(map: &CompiledMap, model: usize, c: &mut CharacterController) {
    let movers = [Mover {
        model,
        placement: ModelPlacement::default(),
    }];
    let world = WorldWithMovers {
        map,
        movers: &movers,
    };
    settle(c, &world);
}

/// Runs `ticks` ticks with model `model` moving through `placement(tick)`; the check gets
/// the tick, the character and the placement after the tick.
fn ride(
    map: &CompiledMap,
    model: usize,
    c: &mut CharacterController,
    ticks: usize,
    placement: impl Fn(usize) -> ModelPlacement,
    mut check: impl FnMut(usize, &CharacterController, &ModelPlacement),
) {
    let pivot = map.models()[model].origin;
    for tick in 1..=ticks {
        let before = placement(tick - 1);
        let after = placement(tick);
        let movers = [Mover {
            model,
            placement: after,
        }];
        let world = WorldWithMovers {
            map,
            movers: &movers,
        };
        c.ride(&world, model, pivot, &before, &after);
        c.step(&world, &MoveInput::default());
        assert!(
            !c.overlaps(&world),
            "tick {tick}: inside at {}",
            c.position()
        );
        check(tick, c, &after);
    }
}

#[test]
fn s42_rotating_platform_carries() {
    // platforms.map: a 1024-wide func_rotating (top z 16) about (0, 0, 8). 2π rad/s, the
    // character 354 units (9 m) from the axis, 60 ticks.
    let map = world("platforms");
    let model = model_of(map, "func_rotating");
    let start_feet = Vec3::new(354.0, 0.0, 16.0);
    let mut c = player(start_feet);
    settle_with(map, model, &mut c);
    let start = c.position();
    let angle = |tick: usize| std::f32::consts::TAU * 0.008 * tick as f32;
    let placement = |tick: usize| ModelPlacement {
        offset: Vec3::ZERO,
        rotation: Quat::from_rotation_z(angle(tick)),
    };
    ride(map, model, &mut c, 60, placement, |tick, c, _| {
        assert_eq!(c.ground().state, GroundState::Walkable, "tick {tick}");
        assert_eq!(c.ground().target, Some(planeshift::HitTarget::Model(model)));
        let now = Quat::from_rotation_z(angle(tick)) * start;
        let lagging = Quat::from_rotation_z(angle(tick - 1)) * start;
        let error = (c.position() - now)
            .length()
            .min((c.position() - lagging).length());
        assert!(error < 0.01, "tick {tick}: {} vs {now}", c.position());
    });
}

#[test]
fn s43_elevator_up_and_down() {
    // platforms.map: a func_plat (x 1024..1280, y -128..128, top z 16) moving up then down
    // at 0.5 m/s (19.685 u/s), 60 ticks each way.
    let map = world("platforms");
    let model = model_of(map, "func_plat");
    let mut c = player(Vec3::new(1152.0, 0.0, 16.0));
    settle_with(map, model, &mut c);
    let speed = 19.685;
    let height = |tick: usize| {
        let t = tick as f32 * 0.008;
        if tick <= 60 {
            speed * t
        } else {
            speed * (0.96 - t)
        }
    };
    let placement = |tick: usize| ModelPlacement {
        offset: Vec3::Z * height(tick),
        rotation: Quat::IDENTITY,
    };
    ride(map, model, &mut c, 120, placement, |tick, c, after| {
        assert_eq!(c.ground().state, GroundState::Walkable, "tick {tick}");
        let top = 16.0 + after.offset.z;
        let gap = feet(c).z - top;
        assert!(gap >= 0.0, "tick {tick}: dipped {gap} into the platform");
        assert!(gap <= 0.4, "tick {tick}: {gap} above the platform");
    });
}

#[test]
fn s31_pusher_moves_an_idle_character() {
    // arena.map's func_door (x 768..784, y 1408..1536, z 0..128) pushed +x by 0.1 h (5.6)
    // per tick into a still character: never inside it, corrections at most 0.25 h.
    let map = world("arena");
    let model = model_of(map, "func_door");
    let mut c = player(Vec3::new(784.0 + 15.0 + 0.5, 1472.0, 0.0));
    settle_with(map, model, &mut c);
    let mut last = c.position();
    let placement = |tick: usize| ModelPlacement {
        offset: Vec3::X * 5.6 * tick as f32,
        rotation: Quat::IDENTITY,
    };
    ride(map, model, &mut c, 30, placement, |tick, c, after| {
        let moved = (c.position() - last).length();
        assert!(moved <= 0.25 * 56.0, "tick {tick}: corrected by {moved}");
        assert!(
            c.position().x - 15.0 >= 784.0 + after.offset.x,
            "tick {tick}: behind the door"
        );
        last = c.position();
    });
    assert!(c.position().x > 784.0 + 150.0, "{}", c.position());
}

#[test]
fn config_loads_from_toml_and_rejects_bad_values() {
    let config = ControllerConfig::from_toml(
        "step_height = 16.0\ngravity = 600.0\nshape = { kind = \"cylinder\", radius = 16.0 }\n",
    )
    .unwrap();
    assert_eq!(config.step_height, 16.0);
    assert_eq!(config.gravity, 600.0);
    assert_eq!(config.shape, CharacterShape::Cylinder { radius: 16.0 });
    assert_eq!(
        config.jump_speed, 270.0,
        "absent fields keep their defaults"
    );
    let text = toml::to_string(&ControllerConfig::default()).unwrap();
    assert_eq!(
        ControllerConfig::from_toml(&text).unwrap(),
        ControllerConfig::default()
    );
    for (bad, field) in [
        ("gravity = -1.0", "gravity"),
        ("crouch_height = 60.0", "crouch_height"),
        ("tick = 0.0", "tick"),
        ("walkable_normal_z = 1.5", "walkable_normal_z"),
        ("shape = { kind = \"box\", half_width = nan }", "shape"),
    ] {
        match ControllerConfig::from_toml(bad) {
            Err(ConfigError::Invalid { field: f, .. }) => assert_eq!(f, field, "{bad}"),
            other => panic!("{bad}: {other:?}"),
        }
    }
    let unknown = ControllerConfig::from_toml("gravityy = 800.0").unwrap_err();
    // The parser's message, which names the field, is the error's source.
    let source = std::error::Error::source(&unknown).map(|e| e.to_string());
    assert!(
        source.is_some_and(|s| s.contains("gravityy")),
        "{unknown:?}"
    );
    assert!(matches!(
        ControllerConfig::from_toml("step_height = "),
        Err(ConfigError::Toml(_))
    ));
}

#[test]
fn cylinder_characters_walk_stairs_and_slopes_too() {
    let config = ControllerConfig {
        shape: CharacterShape::Cylinder { radius: 16.0 },
        ..ControllerConfig::default()
    };
    let w = world("stairs");
    let mut c = standing(config, Vec3::new(-60.0, 176.0, 0.0));
    steps(&mut c, w, run(Vec3::X), 125);
    assert!(
        (feet(&c).z - (96.0 + SKIN)).abs() < 0.05,
        "{}",
        c.position()
    );
    let w = world("slopes");
    let mut c = standing(config, Vec3::new(-60.0, 448.0, 0.0));
    let ticks = steps(&mut c, w, run(Vec3::X), 125);
    let top = ticks
        .iter()
        .map(|t| t.feet(&config).z)
        .fold(0.0f32, f32::max);
    assert!((top - 128.0).abs() < 0.2, "45° ramp climbed to {top}");
}
