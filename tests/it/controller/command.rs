//! Commands from the view (issue 25): walking ignores the pitch to the bit, swimming and
//! flying follow the whole view, and the eye sits at Quake 3's view heights.

use glam::Vec3;
use planeshift::{
    CharacterController, ControllerConfig, MoveCommand, MoveInput, movement::MoveMode,
};

use super::water::pool;

fn run(pitch: f32, yaw: f32) -> MoveInput {
    MoveInput::from_command(MoveCommand {
        pitch,
        yaw,
        forward: 1.0,
        ..MoveCommand::default()
    })
}

#[test]
fn walking_forward_reaches_the_same_speed_and_place_whatever_the_pitch() {
    let world = pool(0.0, "floor");
    let config = ControllerConfig::default();
    for yaw in [0.0, 30.0, 137.5, -90.0] {
        let mut results = Vec::new();
        for pitch in [0.0, 45.0, -45.0, 89.0, -89.0] {
            let mut c = CharacterController::new(config, Vec3::Z * config.feet_to_origin).unwrap();
            for _ in 0..200 {
                c.step(&world, &run(pitch, yaw));
            }
            results.push((pitch, c.position(), c.velocity()));
        }
        let (_, position, velocity) = results[0];
        let ground_speed = velocity.truncate().length();
        assert!(
            (ground_speed - config.max_speed).abs() < 0.5,
            "yaw {yaw}: ground speed {ground_speed}"
        );
        for (pitch, p, v) in &results {
            assert_eq!(
                p.to_array().map(f32::to_bits),
                position.to_array().map(f32::to_bits),
                "yaw {yaw} pitch {pitch}"
            );
            assert_eq!(
                v.to_array().map(f32::to_bits),
                velocity.to_array().map(f32::to_bits),
                "yaw {yaw} pitch {pitch}"
            );
        }
    }
}

#[test]
fn swimming_while_looking_up_rises_and_looking_down_sinks() {
    let world = pool(512.0, "*water0");
    let config = ControllerConfig::default();
    let start = Vec3::new(0.0, 0.0, 200.0);
    let swim = |pitch: f32| {
        let mut c = CharacterController::new(config, start).unwrap();
        for _ in 0..100 {
            c.step(&world, &run(pitch, 0.0));
        }
        c.position()
    };
    let up = swim(-45.0);
    let level = swim(0.0);
    let down = swim(45.0);
    assert!(up.z > start.z + 30.0, "looking up 45°: {up}");
    assert!(
        down.z < level.z - 30.0,
        "looking down 45°: {down} vs {level}"
    );
    assert!(up.x > start.x + 30.0, "{up}");
}

#[test]
fn flying_moves_along_the_view() {
    let world = pool(0.0, "floor");
    let config = ControllerConfig::default();
    let start = Vec3::new(0.0, 0.0, 200.0);
    let mut c = CharacterController::new(config, start).unwrap();
    c.set_mode(MoveMode::Fly);
    let command = MoveCommand {
        pitch: -30.0,
        yaw: 60.0,
        forward: 1.0,
        ..MoveCommand::default()
    };
    for _ in 0..60 {
        c.step(&world, &MoveInput::from_command(command));
    }
    let (forward, _, _) = command.view_vectors();
    let moved = (c.position() - start).normalize();
    assert!(moved.dot(forward) > 0.9999, "moved {moved}, view {forward}");
}

#[test]
fn the_eye_sits_at_quake_view_heights_standing_and_crouched() {
    let world = pool(0.0, "floor");
    let config = ControllerConfig::default();
    let mut c = CharacterController::new(config, Vec3::Z * config.feet_to_origin).unwrap();
    c.step(&world, &MoveInput::default());
    // Quake 3: DEFAULT_VIEWHEIGHT 26 and CROUCH_VIEWHEIGHT 12 above the origin.
    assert_eq!(c.eye_position(), c.position() + Vec3::Z * 26.0);
    let crouch = MoveInput {
        crouch: true,
        ..MoveInput::default()
    };
    c.step(&world, &crouch);
    assert_eq!(c.eye_position(), c.position() + Vec3::Z * 12.0);
}
