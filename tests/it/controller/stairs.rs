//! Scenarios 1–10: stairs and steps (`maps/stairs.map` lanes and inline step maps).

use glam::Vec3;
use planeshift::{
    ControllerConfig,
    movement::{CharacterShape, GroundState},
};

use super::*;

/// A floor around the origin with one box `x 0..128, y -64..64` of height `h` on it.
fn single_step(h: f64) -> planeshift::CompiledMap {
    boxes(&[
        ([-512.0, -256.0, -16.0], [512.0, 256.0, 0.0]),
        ([0.0, -64.0, 0.0], [128.0, 64.0, h]),
    ])
}

#[test]
fn s01_sixteen_unit_flight_climbed_at_run_speed() {
    // stairs.map lane 1: rise 16, treads 32, landing top 96 at x 160..288.
    let w = world("stairs");
    let mut c = player(Vec3::new(-60.0, 176.0, 0.0));
    launch(&mut c, Vec3::new(320.0, 0.0, 0.0));
    let ticks = steps(&mut c, w, run(Vec3::X), 100);
    let config = *c.config();
    let end = ticks.last().unwrap().feet(&config);
    assert!((end.z - (96.0 + SKIN)).abs() < 1e-3, "ends at {end}");
    assert!(end.x > 175.0 && end.x < 288.0, "on the landing: {end}");
    let climbed: f32 = ticks.iter().map(|t| t.outcome.climbed).sum();
    assert!((climbed - 96.0).abs() < 0.01, "climbed {climbed}");
    for (i, pair) in ticks.windows(2).enumerate() {
        let (a, b) = (pair[0].horizontal_speed(), pair[1].horizontal_speed());
        assert!(b >= 0.9 * a, "tick {i}: speed {a} -> {b}");
        assert_eq!(pair[1].ground, GroundState::Walkable, "tick {i}");
    }
}

#[test]
fn s02_step_height_boundary() {
    // Climbs up to the step height; the exact edge is step + skin (the feet rest one skin
    // above the floor, so an 18-unit riser is cleared by exactly the skin).
    for (h, climbs) in [
        (8.0, true),
        (17.9, true),
        (18.0 - 1.0 / 32.0, true),
        (18.0, true),
        (18.0625, false),
        (18.5, false),
        (19.0, false),
        (20.0, false),
    ] {
        let w = single_step(h);
        let mut c = player(Vec3::new(-40.0, 0.0, 0.0));
        launch(&mut c, Vec3::new(320.0, 0.0, 0.0));
        let ticks = steps(&mut c, &w, run(Vec3::X), 60);
        let end = feet(&c);
        if climbs {
            assert!((end.z - (h as f32 + SKIN)).abs() < 1e-3, "h {h}: {end}");
            assert!(end.x > 60.0, "h {h}: {end}");
        } else {
            assert!(end.z.abs() < 0.05, "h {h} gains no height: {end}");
            assert!(
                (end.x + 15.0 + SKIN).abs() < 0.01,
                "h {h} at the riser: {end}"
            );
            let last = ticks.last().unwrap();
            assert!(last.velocity.x.abs() < 0.5, "h {h}: {}", last.velocity);
        }
    }
}

#[test]
fn s02_blocked_oblique_approach_keeps_tangential_speed() {
    let w = single_step(20.0);
    for theta in [30.0f32, 45.0, 60.0] {
        // Incidence from the riser's normal (-x).
        let dir = heading(theta);
        let mut c = player(Vec3::new(-20.0, -40.0, 0.0));
        launch(&mut c, dir * 320.0);
        let ticks = steps(&mut c, &w, run(dir), 20);
        let contact = ticks
            .iter()
            .find(|t| !t.outcome.touches.is_empty())
            .unwrap_or_else(|| panic!("theta {theta}: no contact"));
        let expected = 320.0 * theta.to_radians().sin();
        assert!(
            contact.velocity.x.abs() <= 0.5,
            "theta {theta}: {}",
            contact.velocity
        );
        let tangential = contact.velocity.y;
        assert!(
            (tangential - expected).abs() <= 0.005 * expected,
            "theta {theta}: {tangential} vs {expected}"
        );
        assert!(contact.feet(c.config()).z.abs() < 0.05);
    }
}

#[test]
fn s03_staircase_at_several_tick_rates() {
    // stairs.map lane 10: 10 steps, rise 16, run 16, landing top 160 at x 144..272.
    let w = world("stairs");
    for tick in [0.008f32, 0.016, 0.033] {
        let config = ControllerConfig {
            tick,
            ..ControllerConfig::default()
        };
        let mut c = standing(config, Vec3::new(-40.0, 1328.0, 0.0));
        launch(&mut c, Vec3::new(320.0, 0.0, 0.0));
        let mut last_x = c.position().x;
        let mut time = 0.0;
        while feet(&c).z < 160.0 {
            c.step(w, &run(Vec3::X));
            time += tick;
            assert!(!c.overlaps(w));
            assert_eq!(
                c.ground().state,
                GroundState::Walkable,
                "tick {tick} at {}",
                c.position()
            );
            assert_eq!(c.position().y, 1328.0, "no lateral drift");
            assert!(c.position().x > last_x, "tick {tick}: forward only");
            last_x = c.position().x;
            assert!(time < 2.0, "tick {tick}: never reached the top");
        }
        let bound = 1.5 * (10.0 * 16.0 + 15.0) / 320.0 + 25.0 / 320.0;
        assert!(time <= bound, "tick {tick}: top after {time} s > {bound}");
        assert!(c.position().x < 272.0);
        assert!((feet(&c).z - (160.0 + SKIN)).abs() < 1e-3);
    }
    // With stepping off, the box stops flush against the first riser.
    let config = ControllerConfig {
        step_height: 0.0,
        ..ControllerConfig::default()
    };
    let mut c = standing(config, Vec3::new(-40.0, 1328.0, 0.0));
    steps(&mut c, w, run(Vec3::X), 100);
    assert!(
        (c.position().x - (-15.0 - SKIN)).abs() < 0.011,
        "{}",
        c.position()
    );
}

#[test]
fn s04_stepping_along_a_wall_gains_no_speed() {
    let w = boxes(&[
        ([-1024.0, -256.0, -16.0], [1024.0, 256.0, 0.0]),
        ([-1024.0, 16.0, 0.0], [1024.0, 32.0, 128.0]),
    ]);
    let wish = Vec3::new(5.0, 1.0, 0.0).normalize();
    let mut ends = Vec::new();
    for step_height in [18.0, 0.0] {
        let config = ControllerConfig {
            step_height,
            ..ControllerConfig::default()
        };
        let mut c = standing(config, Vec3::new(0.0, 16.0 - 15.0 - SKIN, 0.0));
        let ticks = steps(&mut c, &w, run(wish), 125);
        for t in &ticks {
            assert_eq!(t.ground, GroundState::Walkable);
            assert!(t.horizontal_speed() <= 320.0 + 1e-3, "{t:?}");
            assert!(
                (t.position.y - (1.0 - SKIN)).abs() <= SKIN,
                "{}",
                t.position
            );
            assert!(t.outcome.climbed == 0.0);
        }
        ends.push(c.position());
    }
    assert!((ends[0] - ends[1]).length() < 1e-2, "{ends:?}");
    // The speed along the wall is the wish's share along it.
    let along = 320.0 * wish.x;
    assert!(ends[0].x > 0.8 * along && ends[0].x < along, "{}", ends[0]);
}

#[test]
fn s05_minimum_tread() {
    // stairs.map lanes 11 (tread 12 = 0.4 × 30) and 12 (tread 20 = 0.67 × 30), rise 10.
    let w = world("stairs");
    for (y, climbs) in [(1456.0, false), (1584.0, true)] {
        let mut c = player(Vec3::new(-40.0, y, 0.0));
        steps(&mut c, w, run(Vec3::X), 60);
        let z = feet(&c).z;
        if climbs {
            assert!(
                (z - (10.0 + SKIN)).abs() < 1e-3,
                "lane y {y}: {}",
                c.position()
            );
        } else {
            assert!(z.abs() < 0.05, "lane y {y}: {}", c.position());
        }
    }
}

#[test]
fn s06_no_step_onto_a_too_steep_top() {
    // slopes.map lane 8: a 12-unit riser whose top is a 60° ramp (n.z = 0.5005).
    let w = world("slopes");
    let mut c = player(Vec3::new(-40.0, 1600.0, 0.0));
    let ticks = steps(&mut c, w, run(Vec3::X), 125);
    assert!(ticks.iter().all(|t| t.outcome.climbed == 0.0));
    let max_z = ticks
        .iter()
        .map(|t| t.feet(c.config()).z)
        .fold(0.0f32, f32::max);
    assert!(max_z < 0.1, "never leaves the lower floor: {max_z}");
    assert!(
        (c.position().x + 15.0 + SKIN).abs() < 0.05,
        "{}",
        c.position()
    );
}

#[test]
fn s07_ceiling_limited_step() {
    let w = world("stairs");
    // Lane 8: 16-unit step under a ceiling at 64 (the box needs 72 on the step): blocked.
    // Lane 9: ceiling at 76: climbs.
    for (y, climbs) in [(1072.0, false), (1200.0, true)] {
        let mut c = player(Vec3::new(-40.0, y, 0.0));
        steps(&mut c, w, run(Vec3::X), 60);
        let z = feet(&c).z;
        assert_eq!(
            (z - (16.0 + SKIN)).abs() < 1e-3,
            climbs,
            "lane y {y}: {}",
            c.position()
        );
    }
    // Lane 4: rise 18 under a ceiling at 108: steps 1 and 2 climbed, step 3 (54 of headroom
    // for a 56 box) blocked.
    let mut c = player(Vec3::new(-40.0, 560.0, 0.0));
    steps(&mut c, w, run(Vec3::X), 100);
    assert!(
        (feet(&c).z - (36.0 + SKIN)).abs() < 1e-3,
        "{}",
        c.position()
    );
    assert!(c.position().x < 64.0);
}

#[test]
fn s08_no_step_while_rising_without_ground_below() {
    // A ledge (top 16) beside a 200-deep pit; jump into its riser from mid-air.
    let w = boxes(&[
        ([-512.0, -256.0, -216.0], [512.0, 256.0, -200.0]),
        ([0.0, -256.0, -200.0], [512.0, 256.0, 16.0]),
    ]);
    let mut c = player(Vec3::new(-15.5, 0.0, 0.0));
    launch(&mut c, Vec3::new(100.0, 0.0, 270.0));
    let ticks = steps(&mut c, &w, run(Vec3::X), 40);
    let config = *c.config();
    let mut touched = false;
    for t in &ticks {
        if t.velocity.z > 0.0 && t.feet(&config).z < 16.0 {
            touched |= !t.outcome.touches.is_empty();
            assert_eq!(
                t.outcome.climbed, 0.0,
                "stepped while rising at {}",
                t.position
            );
        }
    }
    assert!(touched, "the riser was hit while rising");
}

#[test]
fn s09_stepping_at_a_high_tick_rate() {
    // 360 Hz at 4 m/s (157.5 u/s): 0.44 units per tick. A 0.3 m (12-unit) step within 0.2 s.
    let config = ControllerConfig {
        tick: 1.0 / 360.0,
        max_speed: 157.5,
        ..ControllerConfig::default()
    };
    let w = single_step(12.0);
    let mut c = standing(config, Vec3::new(-20.0, 0.0, 0.0));
    launch(&mut c, Vec3::new(157.5, 0.0, 0.0));
    let ticks = steps(&mut c, &w, run(Vec3::X), 360);
    let contact = ticks
        .iter()
        .position(|t| !t.outcome.touches.is_empty())
        .expect("the riser is reached");
    let on_top = ticks
        .iter()
        .position(|t| (t.feet(&config).z - (12.0 + SKIN)).abs() < 1e-3)
        .expect("the step is climbed");
    assert!(
        (on_top as f32 - contact as f32) / 360.0 <= 0.2,
        "contact {contact}, on top {on_top}"
    );
}

#[test]
fn s10_rounded_shape_rolls_over_low_lips_only() {
    // A sphere (a capsule as tall as it is wide) of radius 16 with stepping off gets over a
    // lip only if the edge's contact normal is walkable: (r − h)/r ≥ 0.7, h ≤ 0.3·r = 4.8
    // (spheres meet edges exactly, so the contact normal is the true one).
    let config = ControllerConfig {
        shape: CharacterShape::Capsule { radius: 16.0 },
        stand_height: 32.0,
        crouch_height: 32.0,
        feet_to_origin: 16.0,
        step_height: 0.0,
        ..ControllerConfig::default()
    };
    for (h, passes) in [
        (3.0, true),
        (4.5, true),
        (5.5, false),
        (8.0, false),
        (12.0, false),
    ] {
        let w = single_step(h);
        let mut c = standing(config, Vec3::new(-40.0, 0.0, 0.0));
        steps(&mut c, &w, run(Vec3::X), 125);
        let x = c.position().x;
        assert_eq!(x > 40.0, passes, "lip {h}: {}", c.position());
        if !passes {
            assert!(
                feet(&c).z.abs() < 0.05,
                "lip {h}: no height gained: {}",
                c.position()
            );
        }
    }
}
