//! Scenarios 11–18: slopes (`maps/slopes.map` lanes 0–7 and the V valleys).

use glam::Vec3;
use planeshift::{ControllerConfig, MoveInput, movement::GroundState};

use super::*;

/// slopes.map ramp lanes: (lane centre y, run u, walkable), rising +x from x 0 to x u, 128 high.
const LANES: [(f32, f32, bool); 8] = [
    (64.0, 222.0, true),    // 30°
    (256.0, 133.0, true),   // 44°
    (448.0, 128.0, true),   // 45°
    (640.0, 126.0, true),   // 45.45°, n.z 0.7015
    (832.0, 125.0, false),  // 45.68°, n.z 0.6987
    (1024.0, 124.0, false), // 46°
    (1216.0, 107.0, false), // 50°
    (1408.0, 74.0, false),  // 60°
];

fn slope_normal(u: f32) -> Vec3 {
    Vec3::new(-128.0, 0.0, u).normalize()
}

#[test]
fn s11_s12_s13_walkable_ramps_are_climbed_and_steep_ones_are_not() {
    let w = world("slopes");
    for (y, u, walkable) in LANES {
        let mut c = player(Vec3::new(-60.0, y, 0.0));
        let ticks = steps(&mut c, w, run(Vec3::X), 250);
        let config = *c.config();
        let top = ticks
            .iter()
            .map(|t| t.feet(&config).z)
            .fold(0.0f32, f32::max);
        if walkable {
            assert!((top - (128.0 + SKIN)).abs() < 0.01, "lane u {u}: top {top}");
            let on_ramp = ticks
                .iter()
                .filter(|t| t.position.x > 0.0 && t.position.x + 15.0 < u)
                .collect::<Vec<_>>();
            assert!(!on_ramp.is_empty());
            for t in on_ramp {
                assert_eq!(t.ground, GroundState::Walkable, "lane u {u}: {t:?}");
            }
        } else {
            assert!(top < 1.0, "lane u {u}: walked up to {top}");
        }
    }
}

#[test]
fn s11_s13_steep_ramps_are_slid_down() {
    let w = world("slopes");
    let g = ControllerConfig::default().gravity;
    for (y, u, walkable) in LANES.iter().copied().filter(|l| !l.2) {
        assert!(!walkable);
        // Dropped onto the middle of the ramp (uphill box edge at x = u/2 + 15, z = 64+).
        let x = 0.5 * u;
        let surface = 128.0 * (x + 15.0) / u;
        let mut c = player(Vec3::new(x, y, surface + 1.0));
        let n = slope_normal(u);
        let mut slid = Vec::new();
        for _ in 0..200 {
            c.step(w, &MoveInput::default());
            assert!(!c.overlaps(w));
            if c.ground().state == GroundState::Steep {
                let normal = c.ground().normal.unwrap();
                assert!((normal - n).length() < 1e-5, "lane u {u}: {normal}");
                slid.push((c.position(), c.velocity()));
            }
            assert_ne!(
                c.ground().state,
                GroundState::Walkable,
                "lane u {u} at {}",
                c.position()
            );
            if c.position().x < 0.0 {
                break;
            }
        }
        assert!(slid.len() > 5, "lane u {u}: slid {} ticks", slid.len());
        // Frictionless slide: the speed along the slope grows at g·sinθ (θ from level).
        let sin = (1.0 - n.z * n.z).sqrt();
        let (first, last) = (slid[1], slid[slid.len() / 2]);
        let dt = (slid.len() / 2 - 1) as f32 * 0.008;
        let gained = last.1.length() - first.1.length();
        let expected = g * sin * dt;
        assert!(
            (gained - expected).abs() < 0.02 * expected,
            "lane u {u}: gained {gained} vs {expected}"
        );
        // Along the plane, but for the second half step of gravity (g·dt/2 = 3.2).
        assert!(last.1.dot(n).abs() < 3.3, "along the plane: {}", last.1);
    }
}

#[test]
fn s15_no_idle_creep_on_walkable_ramps() {
    let w = world("slopes");
    for (y, u) in [(64.0, 222.0), (448.0, 128.0)] {
        let x = 0.5 * u;
        let surface = 128.0 * (x + 15.0) / u;
        let mut c = player(Vec3::new(x, y, surface + 2.0));
        steps(&mut c, w, MoveInput::default(), 60);
        assert_eq!(c.ground().state, GroundState::Walkable);
        let rest = c.position();
        let ticks = steps(&mut c, w, MoveInput::default(), 625);
        assert!(ticks.iter().all(|t| t.ground == GroundState::Walkable));
        let drift = (c.position() - rest).length();
        assert!(drift < 1e-3, "lane u {u}: drift {drift}");
    }
}

#[test]
fn s16_running_down_ramps_stays_grounded() {
    let w = world("slopes");
    for (y, u) in [(64.0, 222.0), (448.0, 128.0)] {
        let mut c = player(Vec3::new(u + 64.0, y, 128.0));
        launch(&mut c, Vec3::new(-320.0, 0.0, 0.0));
        let ticks = steps(&mut c, w, run(-Vec3::X), 150);
        let config = *c.config();
        for (i, t) in ticks.iter().enumerate() {
            assert_eq!(
                t.ground,
                GroundState::Walkable,
                "lane u {u}, tick {i} at {}",
                t.position
            );
        }
        assert!(
            c.position().x < -40.0 && feet(&c).z.abs() < 0.05,
            "{:?}",
            ticks.last()
        );
        assert!(
            ticks.iter().any(|t| t.outcome.snapped > 0.0),
            "snapped over the crest"
        );
        let _ = config;
    }
}

#[test]
fn s17_v_valley_of_steep_slopes_supports() {
    // slopes.map sharp V: two 59.97° slabs meeting at y 1888, z 0, for x 0..256. A box of
    // half width 15 rests with its feet at 15·128/74 = 25.946.
    let w = world("slopes");
    let rest = 15.0 * 128.0 / 74.0;
    let mut c = player(Vec3::new(64.0, 1888.0, rest - 4.0));
    assert!(c.overlaps(w), "starts intersecting both slopes");
    let ticks = steps(&mut c, w, MoveInput::default(), 30);
    let config = *c.config();
    assert!(
        ticks[0].feet(&config).z >= rest,
        "freed in one tick: {}",
        ticks[0].position
    );
    for t in &ticks {
        assert!((t.position.x - 64.0).abs() < 1e-3 && (t.position.y - 1888.0).abs() < 1e-3);
    }
    // It drops back into the V and rests there, supported by the two steep planes.
    let landed = ticks
        .iter()
        .position(|t| t.ground == GroundState::Walkable)
        .unwrap_or_else(|| panic!("{ticks:#?}"));
    assert!(
        ticks[landed..]
            .iter()
            .all(|t| t.ground == GroundState::Walkable)
    );
    assert!(ticks[landed..].iter().all(|t| t.velocity.length() < 1e-3));
    assert!((feet(&c).z - rest).abs() < 0.1, "{}", c.position());
    // Along the V as on a flat floor.
    let mut flat = player(Vec3::new(-300.0, 2400.0, 0.0));
    let start_flat = flat.position();
    let start = c.position();
    steps(&mut c, w, run(Vec3::X), 60);
    steps(&mut flat, w, run(Vec3::X), 60);
    let along = c.position() - start;
    let along_flat = flat.position() - start_flat;
    assert!(
        (along.x - along_flat.x).abs() < 0.05,
        "{along} vs {along_flat}"
    );
    assert!(along.y.abs() < 1e-3 && along.z.abs() < 0.1, "{along}");
    // Out the far end, back on the floor.
    steps(&mut c, w, run(Vec3::X), 100);
    assert!(
        c.position().x > 300.0 && feet(&c).z.abs() < 0.05,
        "{}",
        c.position()
    );
    assert_eq!(c.ground().state, GroundState::Walkable);
}

#[test]
fn s18_fast_up_ramp_is_airborne() {
    // 700 u/s into the 30° ramp of lane 0: rising faster than 140 (and than running up
    // the ramp could), the character is airborne, so no friction brakes it.
    let w = world("slopes");
    let mut c = player(Vec3::new(-20.0, 64.0, 0.0));
    launch(&mut c, Vec3::new(700.0, 0.0, 0.0));
    let config = *c.config();
    let mut airborne_rising = 0;
    let mut last: Option<f32> = None;
    for _ in 0..40 {
        c.step(w, &run(Vec3::X));
        let v = c.velocity();
        if v.z > config.airborne_rise_speed {
            assert_eq!(
                c.ground().state,
                GroundState::Air,
                "grounded while rising at {v}"
            );
            airborne_rising += 1;
            // Only gravity slows it (at most g·dt per tick), never friction (≥ 6·600·dt).
            if let Some(speed) = last {
                assert!(speed - v.length() <= config.gravity * config.tick + 0.5);
            }
            last = Some(v.length());
        } else {
            last = None;
        }
    }
    assert!(airborne_rising >= 3, "{airborne_rising}");
}

#[test]
fn s45_ground_normal_on_a_30_degree_ramp() {
    let w = world("slopes");
    let mut c = player(Vec3::new(111.0, 64.0, 128.0 * 126.0 / 222.0 + 2.0));
    steps(&mut c, w, MoveInput::default(), 30);
    let ground = c.ground();
    assert_eq!(ground.state, GroundState::Walkable);
    let n = ground.normal.unwrap();
    assert!(
        (n - Vec3::new(-0.499497, 0.0, 0.866315)).length() < 1e-6,
        "{n}"
    );
}

#[test]
fn s14_climb_or_block_by_the_configured_angle() {
    // Rapier's test with the limit as a configured angle: lane 1 rises at 43.9025°
    // (0.766238 rad); limits just below and above it block and allow the climb, and a
    // climbing character stays grounded (at most 1 airborne tick in a row, 3 in all).
    let w = world("slopes");
    let slope = (133.0f32 / (128.0f32 * 128.0 + 133.0 * 133.0).sqrt()).acos();
    for (limit, climbs) in [(slope - 0.001, false), (slope + 0.001, true)] {
        let config = ControllerConfig {
            walkable_normal_z: limit.cos(),
            ..ControllerConfig::default()
        };
        let mut c = standing(config, Vec3::new(-60.0, 256.0, 0.0));
        let ticks = steps(&mut c, w, run(Vec3::X), 250);
        let top = ticks
            .iter()
            .map(|t| t.feet(&config).z)
            .fold(0.0f32, f32::max);
        assert_eq!(top > 127.0, climbs, "limit {limit}: top {top}");
        if climbs {
            // Until the far edge of the flat top (x 261), where it walks off.
            let climbing: Vec<_> = ticks.iter().filter(|t| t.position.x < 240.0).collect();
            let airborne = climbing
                .iter()
                .filter(|t| t.ground == GroundState::Air)
                .count();
            let mut run_len = 0;
            for t in &climbing {
                run_len = if t.ground == GroundState::Air {
                    run_len + 1
                } else {
                    0
                };
                assert!(run_len <= 1, "airborne twice in a row at {}", t.position);
            }
            assert!(airborne <= 3, "{airborne}");
        }
    }
}
