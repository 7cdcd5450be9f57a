//! Scenarios 27–29: no tunnelling at speed, along degenerate directions, or falling into a
//! wall (`maps/thin_walls.map`, `maps/box_room.map`, `maps/corners.map`).

use glam::Vec3;
use planeshift::{ControllerConfig, MoveInput};

use super::*;
use crate::support::Pcg32;

#[test]
fn s27_thin_walls_at_any_speed() {
    // thin_walls.map: a 1-unit wall (x 0..1, y 64..320) and a 1/8-unit one (x 0..0.125,
    // y 1216..1472), both z 0..192; a 1/8 plate over a pit (x 512..768, y 640..896).
    let w = world("thin_walls");
    for tick in [0.008f32, 0.066] {
        let config = ControllerConfig {
            tick,
            ..ControllerConfig::default()
        };
        for speed in [320.0f32, 3500.0, 10_000.0] {
            for y in [192.0f32, 1344.0] {
                let mut c = standing(config, Vec3::new(-100.0, y, 0.0));
                launch(&mut c, Vec3::new(speed, 0.0, 0.0));
                for _ in 0..10 {
                    c.step(w, &run(Vec3::X));
                    assert!(!c.overlaps(w));
                    assert!(
                        c.position().x + 15.0 <= 0.0,
                        "crossed at {speed}: {}",
                        c.position()
                    );
                }
            }
            // Falling onto the plate.
            let mut c = standing(config, Vec3::new(640.0, 768.0, 180.0));
            launch(&mut c, Vec3::new(0.0, 0.0, -speed));
            for _ in 0..10 {
                c.step(w, &MoveInput::default());
                assert!(!c.overlaps(w));
                assert!(
                    feet(&c).z >= 0.125,
                    "through the plate at {speed}: {}",
                    c.position()
                );
            }
        }
    }
}

#[test]
fn s28_degenerate_directions() {
    // Exact axes, 45° diagonals and normalized integer vectors, aimed from random sub-unit
    // offsets at the faces, edges and corners of box_room and of the corners map.
    let mut dirs = Vec::new();
    for x in -1..=1 {
        for y in -1..=1 {
            for z in -1..=1 {
                if (x, y, z) != (0, 0, 0) {
                    dirs.push(Vec3::new(x as f32, y as f32, z as f32).normalize());
                }
            }
        }
    }
    for v in [
        (1, -5, -1),
        (5, 1, -1),
        (-3, 7, 2),
        (2, 9, -1),
        (-7, -1, 4),
        (1, 1, -9),
    ] {
        dirs.push(Vec3::new(v.0 as f32, v.1 as f32, v.2 as f32).normalize());
    }
    let mut rng = Pcg32::new(28);
    let w = world("box_room");
    let mut cases = 0;
    for dir in &dirs {
        for _ in 0..100 {
            let offset = Vec3::new(
                rng.range_f64(-0.5, 0.5) as f32,
                rng.range_f64(-0.5, 0.5) as f32,
                rng.range_f64(0.0, 0.5) as f32,
            );
            let speed = rng.range_f64(320.0, 10_000.0) as f32;
            let start = Vec3::new(0.0, 0.0, 64.0) + offset;
            let mut c = player(start);
            launch(&mut c, *dir * speed);
            for _ in 0..4 {
                c.step(w, &MoveInput::default());
                assert!(
                    !c.overlaps(w),
                    "{dir} at {speed}: inside at {}",
                    c.position()
                );
                let p = c.position();
                let inside = p.x.abs() <= 241.0 && p.y.abs() <= 241.0;
                let height = feet(&c).z >= 0.0 && feet(&c).z + 56.0 <= 256.0;
                assert!(inside && height, "{dir} at {speed}: left the room at {p}");
            }
            cases += 1;
        }
    }
    assert_eq!(cases, dirs.len() * 100);
}

#[test]
fn s29_diagonal_fall_into_a_wall() {
    let w = world("box_room");
    let mut c = player(Vec3::new(230.0, 0.0, 100.0));
    launch(&mut c, Vec3::new(320.0, 0.0, -1000.0));
    for _ in 0..20 {
        c.step(w, &run(Vec3::X));
        assert!(!c.overlaps(w));
        assert!(c.position().x + 15.0 <= 256.0, "{}", c.position());
    }
    let before = c.position();
    c.step(w, &run(-Vec3::X));
    assert!(c.position().x < before.x, "moves away freely");
}
