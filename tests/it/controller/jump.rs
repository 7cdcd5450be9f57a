//! Scenarios 36–41: jump, gravity, friction and acceleration (`maps/box_room.map`).

use glam::Vec3;
use planeshift::{ControllerConfig, MoveInput, movement::GroundState};

use super::*;

const JUMP: MoveInput = MoveInput {
    wish: Vec3::ZERO,
    jump: true,
    crouch: false,
    command: None,
};

#[test]
fn s36_jump_apex_and_air_time() {
    let w = world("box_room");
    for (config, apex) in [
        (ControllerConfig::default(), 45.5625f32),
        (
            ControllerConfig {
                jump_speed: (2.0f32 * 800.0 * 45.0).sqrt(),
                tick: 0.015,
                ..ControllerConfig::default()
            },
            45.0,
        ),
    ] {
        let mut c = standing(config, Vec3::ZERO);
        settle(&mut c, w);
        let start = feet(&c).z;
        let mut highest = start;
        let mut air_ticks = 0;
        let first = c.step(w, &JUMP);
        assert!(first.jumped);
        for i in 0..200 {
            let outcome = c.step(w, &MoveInput::default());
            highest = highest.max(feet(&c).z);
            if outcome.landed.is_some() {
                air_ticks = i + 2;
                break;
            }
        }
        let dt = config.tick;
        let sampled = highest - start;
        let lowest = apex - config.gravity * dt * dt / 8.0;
        assert!(
            sampled >= lowest - 1e-3 && sampled <= apex + 1e-3,
            "apex {sampled} not in [{lowest}, {apex}]"
        );
        let air_time = 2.0 * config.jump_speed / config.gravity;
        assert!(
            (air_ticks as f32 * dt - air_time).abs() <= dt + 1e-4,
            "air time {} vs {air_time}",
            air_ticks as f32 * dt
        );
    }
}

#[test]
fn s37_no_pogo_and_landing_delay() {
    let w = world("box_room");
    let mut c = player(Vec3::ZERO);
    settle(&mut c, w);
    // Holding jump for 2 s jumps once.
    let jumps = (0..250).filter(|_| c.step(w, &JUMP).jumped).count();
    assert_eq!(jumps, 1);
    // Landing from a jump (270 down > 200) delays the next jump by 250 ms.
    c.step(w, &MoveInput::default());
    let mut landed_at = None;
    let mut jumped_at = None;
    let mut tick = 0;
    assert!(c.step(w, &JUMP).jumped, "a new press jumps");
    while jumped_at.is_none() && tick < 500 {
        tick += 1;
        // Press and release every other tick.
        let input = if tick % 2 == 0 {
            JUMP
        } else {
            MoveInput::default()
        };
        let outcome = c.step(w, &input);
        if let Some(speed) = outcome.landed {
            assert!(speed > 200.0);
            landed_at = Some(tick);
        }
        if outcome.jumped && landed_at.is_some() {
            jumped_at = Some(tick);
        }
    }
    let wait = (jumped_at.unwrap() - landed_at.unwrap()) as f32 * 0.008;
    assert!(
        (0.25..=0.25 + 2.0 * 0.008 + 1e-4).contains(&wait),
        "waited {wait} s"
    );
}

#[test]
fn s38_fall_and_land() {
    let w = world("box_room");
    let mut c = player(Vec3::new(0.0, 0.0, 80.0));
    let ticks = steps(&mut c, w, MoveInput::default(), 125);
    let last = ticks.last().unwrap();
    assert_eq!(last.ground, GroundState::Walkable);
    assert!(
        (last.feet(c.config()).z - SKIN).abs() < 1e-4,
        "{}",
        last.position
    );
    assert_eq!(last.velocity, Vec3::ZERO);
    assert!(
        ticks
            .iter()
            .any(|t| t.outcome.landed.is_some_and(|v| v > 300.0))
    );
}

#[test]
fn s39_s40_ground_acceleration_and_stop_distance() {
    let w = world("box_room");
    let mut c = player(Vec3::new(-200.0, 0.0, 0.0));
    settle(&mut c, w);
    let ticks = steps(&mut c, w, run(Vec3::X), 125);
    let to_99 = ticks
        .iter()
        .position(|t| t.velocity.x >= 0.99 * 320.0)
        .unwrap();
    let t99 = (to_99 + 1) as f32 * 0.008;
    assert!(
        (t99 - 0.15).abs() <= 0.015 + 0.008,
        "99 % of 320 after {t99} s"
    );
    assert!(
        (c.velocity().x - 320.0).abs() < 1e-3,
        "steady {}",
        c.velocity()
    );
    let start = c.position();
    let ticks = steps(&mut c, w, MoveInput::default(), 125);
    let stopped = ticks.iter().position(|t| t.velocity == Vec3::ZERO).unwrap();
    let time = (stopped + 1) as f32 * 0.008;
    let distance = c.position().x - start.x;
    assert!((time - 0.36).abs() <= 0.036, "stopped after {time} s");
    assert!((distance - 43.0).abs() <= 4.3, "stopped over {distance}");
}

#[test]
fn s41_air_control() {
    let w = world("box_room");
    let mut c = player(Vec3::new(-200.0, 0.0, 0.0));
    settle(&mut c, w);
    c.step(w, &JUMP);
    let mut last = c.velocity().truncate().length();
    let forward = MoveInput {
        wish: Vec3::X,
        jump: true,
        crouch: false,
        command: None,
    };
    let mut gained = 0.0;
    for _ in 0..40 {
        c.step(w, &forward);
        assert_eq!(c.ground().state, GroundState::Air);
        let speed = c.velocity().truncate().length();
        assert!(speed - last <= 2.56 + 1e-3, "{last} -> {speed}");
        gained += speed - last;
        last = speed;
    }
    assert!((gained - 40.0 * 2.56).abs() < 0.01, "{gained}");
}
