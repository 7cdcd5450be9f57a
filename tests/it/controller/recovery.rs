//! Scenarios 30 and 32: unstuck recovery and the fuzz invariant (`maps/box_room.map`,
//! `maps/arena.map`).

use glam::Vec3;
use planeshift::{CharacterController, ControllerConfig, MoveInput, movement::GroundState};

use super::*;
use crate::support::Pcg32;

#[test]
fn s30_embedded_starts_recover() {
    let w = world("box_room");
    // The -x wall's face is x = -256: a box centred at x = -241 touches it.
    for (embed, max_probes) in [(0.5f32, 54), (1.0, 54), (2.0, 54)] {
        let mut c = player(Vec3::new(-241.0 - embed, 0.0, 0.0));
        assert!(c.overlaps(w), "starts {embed} inside");
        let outcome = c.step(w, &MoveInput::default());
        assert!(!c.overlaps(w), "free after one tick");
        let probes = outcome.unstuck_probes.unwrap();
        assert!(probes <= max_probes, "embed {embed}: {probes} probes");
        assert!(
            c.position().x >= -241.0,
            "pushed out of the wall: {}",
            c.position()
        );
        assert!(
            c.position().x - (-241.0 - embed) <= 2.1 + SKIN,
            "moved little"
        );
    }
    // Six units into the floor, below a free spot.
    let mut c = player(Vec3::new(0.0, 0.0, -6.0));
    assert!(c.overlaps(w));
    let outcome = c.step(w, &MoveInput::default());
    assert!(!c.overlaps(w));
    assert!(outcome.unstuck_probes.unwrap() <= 54, "{outcome:?}");
    assert!(feet(&c).z >= 0.0);
    // Deep inside solid with nothing free in reach: it stays put and says so.
    let block = boxes(&[([-512.0, -512.0, -512.0], [512.0, 512.0, 0.0])]);
    let mut c = player(Vec3::new(0.0, 0.0, -200.0));
    let outcome = c.step(&block, &MoveInput::default());
    assert!(outcome.stuck);
    assert_eq!(feet(&c).z, -200.0 + SKIN);
}

#[test]
fn s32_fuzz_invariant() {
    // 10^5 random ticks in the arena (walls, stairs, ramps, a V corner, seams, a thin wall,
    // a crouch corridor): no tick ends inside solid, and pushing away from a plane touched
    // last tick always moves the character.
    let w = world("arena");
    let spawns = [
        Vec3::new(1024.0, 1024.0, 0.0),
        Vec3::new(256.0, 1024.0, 0.0),
        Vec3::new(1536.0, 1536.0, 0.0),
        Vec3::new(1856.0, 896.0, 0.0),
        Vec3::new(512.0, 1920.0, 0.0),
    ];
    let mut total = 0;
    let mut away_checks = 0;
    for (b, spawn) in spawns.iter().cycle().take(16).enumerate() {
        let mut rng = Pcg32::new(0x5eed + b as u64);
        let mut c = player(*spawn);
        let mut input = MoveInput::default();
        let mut hold = 0;
        let mut last_touches: Vec<Vec3> = Vec::new();
        for tick in 0..6250 {
            if hold == 0 {
                let angle = rng.range_f64(0.0, std::f64::consts::TAU) as f32;
                input = MoveInput {
                    wish: heading(angle.to_degrees()) * (rng.below(4) as f32 / 3.0),
                    jump: rng.below(5) == 0,
                    crouch: rng.below(6) == 0,
                    command: None,
                };
                hold = 30 + rng.below(150);
            }
            hold -= 1;
            let before = c.position();
            last_touches.extend_from_slice(c.state().walls.normals());
            let outcome = c.step(w, &input);
            total += 1;
            assert!(
                !c.overlaps(w),
                "bot {b} tick {tick} inside at {}",
                c.position()
            );
            let pushes_away = last_touches.iter().any(|n| input.wish.dot(*n) > 0.1);
            if pushes_away && !outcome.stuck {
                away_checks += 1;
                assert!(
                    c.position() != before,
                    "bot {b} tick {tick}: pushing away from a wall did not move it"
                );
            }
            last_touches = outcome
                .touches
                .as_slice()
                .iter()
                .map(|t| t.normal)
                .collect();
            assert!(c.position().z > -100.0, "fell out");
        }
    }
    assert_eq!(total, 100_000);
    assert!(away_checks > 100, "{away_checks}");
}

#[test]
fn slide_never_turns_back_against_the_wish() {
    // Over random walls and creases, one tick's displacement never opposes the velocity the
    // tick started with (the original-direction constraint of the slide).
    let w = world("corners");
    let mut rng = Pcg32::new(7);
    for _ in 0..10_000 {
        let x = rng.range_f64(64.0, 3000.0) as f32;
        let y = rng.range_f64(150.0, 700.0) as f32;
        let mut c =
            CharacterController::new(ControllerConfig::default(), Vec3::new(x, y, 24.0 + SKIN))
                .unwrap();
        if c.overlaps(w) {
            continue;
        }
        let angle = rng.range_f64(0.0, 360.0) as f32;
        let v = heading(angle) * rng.range_f64(50.0, 3000.0) as f32;
        launch(&mut c, v);
        let start = c.position();
        c.step(w, &MoveInput::default());
        let moved = c.position() - start;
        assert!(
            moved.truncate().dot(v.truncate()) >= -1e-3,
            "{start} {v} moved {moved}"
        );
        assert!(c.velocity().truncate().dot(v.truncate()) >= -1e-3);
        assert_ne!(c.ground().state, GroundState::Steep);
    }
}
