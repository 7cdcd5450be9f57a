//! Scenarios 55–73: ladders, slick surfaces, noclip, fly and frozen, impulses and air tech,
//! on inline Quake 2 box maps (a face's triple gives ladder contents and the slick flag)
//! and `maps/box_room.map`.

use glam::Vec3;
use planeshift::CompiledMap;
use planeshift::SurfaceFlags;
use planeshift::{
    ControllerConfig, MoveInput,
    movement::{Activity, MoveMode},
};

use super::*;

const IDLE: MoveInput = MoveInput {
    wish: Vec3::ZERO,
    jump: false,
    crouch: false,
    command: None,
};

/// A Quake 2 map of boxes `(mins, maxs, contents, flags)`.
fn quake2(list: &[([f64; 3], [f64; 3], u32, u32)]) -> CompiledMap {
    let named: Vec<_> = (0..list.len()).map(|k| format!("t{k}")).collect();
    let boxes: Vec<_> = list
        .iter()
        .zip(&named)
        .map(|((a, b, _, _), n)| (*a, *b, n.as_str()))
        .collect();
    let mut src = crate::support::box_map(&boxes);
    for ((_, _, contents, flags), n) in list.iter().zip(&named) {
        src = src.replace(
            &format!("{n} 0 0 0 1 1\n"),
            &format!("{n} 0 0 0 1 1 {contents} {flags} 0\n"),
        );
    }
    crate::support::compile(src.as_bytes()).map
}

const FLOOR: ([f64; 3], [f64; 3], u32, u32) =
    ([-2048.0, -512.0, -16.0], [2048.0, 512.0, 0.0], 1, 0);

#[test]
fn s55_quake2_ladder() {
    use planeshift::movement::LadderRule;
    // A ladder wall (solid | ladder) with its face at x = 0, 256 tall, a floor on top.
    let w = quake2(&[
        FLOOR,
        ([0.0, -512.0, 0.0], [512.0, 512.0, 256.0], 0x2000_0001, 0),
    ]);
    let config = ControllerConfig {
        ladder_rule: LadderRule::Quake2,
        ..ControllerConfig::default()
    };
    let (sin, cos) = 20f32.to_radians().sin_cos();
    let look_up = MoveInput {
        wish: Vec3::new(cos, 0.0, sin),
        ..IDLE
    };
    let mut c = standing(config, Vec3::new(-15.0 - SKIN, 0.0, 0.0));
    settle(&mut c, &w);
    // Forward looking 20° up: the wish (25, 0, 200) accelerated at 10 against ground
    // friction on the 3-D speed (Quake 2 `PM_Friction` brakes climbers too). The first
    // tick adds 10·|wish|·dt along it, 16.0 up; 200 ± 4 from tick 20 (0.16 s), holding at
    // 203. (The scenario's "within 0.1 s" is the acceleration alone, 200/16 = 12.5 ticks.)
    let ticks = steps(&mut c, &w, look_up, 60);
    assert!(ticks.iter().all(|t| t.outcome.activity == Activity::Ladder));
    // 10 · |wish| · dt along the wish, whose z share is 200/|wish|.
    let first = 10.0 * 0.008 * 200.0;
    assert!(
        (ticks[0].velocity.z - first).abs() < 0.01,
        "{}",
        ticks[0].velocity
    );
    assert!(ticks[18].velocity.z < 196.0, "{}", ticks[18].velocity);
    for t in &ticks[19..] {
        assert!((t.velocity.z - 200.0).abs() <= 4.0, "{}", t.velocity);
    }
    // Up input with a level view climbs the same way.
    let mut up = standing(config, Vec3::new(-15.0 - SKIN, 0.0, 0.0));
    settle(&mut up, &w);
    let jump = MoveInput {
        jump: true,
        ..run(Vec3::X)
    };
    let climbed = steps(&mut up, &w, jump, 60);
    assert!((climbed[59].velocity.z - ticks[59].velocity.z).abs() < 0.5);
    // No input: the vertical speed is pulled to 0 at gravity's rate, then the climber hangs
    // (still facing the ladder): less than a unit in a second.
    steps(&mut c, &w, IDLE, 60);
    assert_eq!(c.velocity().z, 0.0);
    let z = c.position().z;
    let hang = steps(&mut c, &w, IDLE, 125);
    assert!(hang.iter().all(|t| t.outcome.activity == Activity::Ladder));
    assert!((c.position().z - z).abs() < 1.0, "{}", c.position().z - z);
    // Sideways along it: the wish held to 25 per axis (and friction takes most of that).
    let side = steps(&mut c, &w, run(Vec3::new(0.6, 0.8, 0.0)), 60);
    for t in &side {
        assert_eq!(t.outcome.activity, Activity::Ladder);
        assert!(t.velocity.y > 0.0 && t.velocity.y <= 25.0, "{}", t.velocity);
    }
    // Facing away: off the ladder, falling under gravity.
    let vz = c.velocity().z;
    let away = c.step(&w, &run(-Vec3::X));
    assert_eq!(away.activity, Activity::Walk);
    assert!(
        (c.velocity().z - (vz - 800.0 * 0.008)).abs() < 1e-3,
        "{}",
        c.velocity()
    );
}

#[test]
fn s56_ladder_climb_and_top() {
    // A ladder wall (solid | ladder) with its face at x = 0, 256 tall, a floor on top.
    let w = quake2(&[
        FLOOR,
        ([0.0, -512.0, 0.0], [512.0, 512.0, 256.0], 0x2000_0001, 0),
    ]);
    // Source's air acceleration (10) walks over the top.
    let config = ControllerConfig {
        air_accelerate: 10.0,
        ..ControllerConfig::default()
    };
    let mut c = standing(config, Vec3::new(-15.0 - SKIN, 0.0, 0.0));
    settle(&mut c, &w);
    let up = run(Vec3::X);
    let first = c.step(&w, &up);
    assert_eq!(first.activity, Activity::Ladder);
    assert!((c.velocity().z - 200.0).abs() < 1e-3, "{}", c.velocity());
    // Pitched 45° up: 282.8.
    let pitched = MoveInput {
        wish: Vec3::new(1.0, 0.0, 1.0).normalize(),
        ..IDLE
    };
    c.step(&w, &pitched);
    assert!((c.velocity().z - 282.84).abs() < 0.5, "{}", c.velocity());
    // Back: down at 200. Idle: hangs.
    c.step(&w, &run(-Vec3::X));
    assert!((c.velocity().z + 200.0).abs() < 1e-3, "{}", c.velocity());
    let z = c.position().z;
    for _ in 0..125 {
        c.step(&w, &IDLE);
    }
    assert!((c.position().z - z).abs() < 1.0);
    // Climb to the top and step off onto it. Source `LadderMove` sets the velocity every
    // tick it finds the ladder (here 200 up) and leaves it as it is on the tick its probe
    // misses, once the feet pass the top: the climber rises 200²/(2·800) = 25 units more and
    // falls back onto the floor 2·200/800 = 0.5 s after leaving. From the feet's height here
    // (2.29 above the foot: the skin and the pitched tick) that is (256 − 2.29)/200 + 0.5 =
    // 1.77 s.
    // The scenario's 1.58 s follows from no ladder rule: Source's own gravity (600, 15 ms
    // ticks) gives 1.28 + 0.67 = 1.95 s from the foot, Quake 2's stepping climb about 1.2 s.
    let start = feet(&c).z;
    assert!((start - (SKIN + 282.84 * 0.008)).abs() < 0.01, "{start}");
    let mut left = None;
    let mut on_top = None;
    for i in 0..400 {
        let o = c.step(&w, &up);
        if left.is_none() && o.activity == Activity::Walk {
            left = Some((i, feet(&c).z, c.velocity().z));
        }
        if c.ground().state == GroundState::Walkable && feet(&c).z > 255.0 {
            on_top = Some(i + 1);
            break;
        }
    }
    let (left, left_feet, left_speed) = left.expect("never left the ladder");
    assert!(left_feet > 256.0 && left_speed < 200.0 && left_speed > 190.0);
    assert!(((left as f32) * 0.008 - (256.0 - start) / 200.0).abs() <= 0.016);
    let on_top = on_top.expect("never reached the top") as f32 * 0.008;
    let expected = (256.0 - start) / 200.0 + 0.5;
    assert!((on_top - expected).abs() <= 0.01 * expected, "{on_top} s");
    // Jump off: 270 along the normal.
    let mut c = player(Vec3::new(-15.0 - SKIN, 0.0, 0.0));
    settle(&mut c, &w);
    c.step(&w, &up);
    let off = MoveInput { jump: true, ..up };
    assert!(c.step(&w, &off).jumped);
    assert_eq!(c.velocity(), Vec3::new(-270.0, 0.0, 0.0));
}

#[test]
fn s57_slick_floor() {
    let slick = quake2(&[([-4096.0, -512.0, -16.0], [4096.0, 512.0, 0.0], 1, 2)]);
    let mut c = player(Vec3::ZERO);
    settle(&mut c, &slick);
    launch(&mut c, Vec3::new(320.0, 0.0, 0.0));
    let ticks = steps(&mut c, &slick, IDLE, 125);
    let last = &ticks[124];
    assert!((last.velocity.x - 320.0).abs() < 1.0, "{}", last.velocity);
    assert!(last.outcome.ground_surface.contains(SurfaceFlags::SLICK));
    assert!((feet(&c).z - SKIN).abs() < 0.1);
    // Full input backward: −2.56 per tick, stopped after 125 ticks.
    let back = steps(&mut c, &slick, run(-Vec3::X), 125);
    assert!((back[0].velocity.x - (320.0 - 2.56)).abs() < 0.01);
    assert!(back[124].velocity.x.abs() < 1.0, "{}", back[124].velocity);
    // Without the flag it stops in 0.36 s over 42.8.
    let dry = quake2(&[([-4096.0, -512.0, -16.0], [4096.0, 512.0, 0.0], 1, 0)]);
    let mut c = player(Vec3::ZERO);
    settle(&mut c, &dry);
    launch(&mut c, Vec3::new(320.0, 0.0, 0.0));
    let x = c.position().x;
    let ticks = steps(&mut c, &dry, IDLE, 60);
    let stop = ticks.iter().position(|t| t.velocity.x == 0.0).unwrap();
    assert!((stop as f32 * 0.008 - 0.36).abs() < 0.02, "{stop}");
    assert!((c.position().x - x - 42.8).abs() < 1.5);
}

#[test]
fn s60_noclip_through_a_wall() {
    let w = world("box_room");
    let mut c = player(Vec3::new(-200.0, 0.0, 0.0));
    settle(&mut c, w);
    c.set_mode(MoveMode::Noclip);
    let x = c.position().x;
    let mut speeds = Vec::new();
    for _ in 0..125 {
        let o = c.step(w, &run(-Vec3::X));
        assert!(!o.stuck && o.touches.is_empty());
        assert_eq!(o.activity, Activity::Noclip);
        speeds.push(c.velocity().length());
    }
    assert!((speeds[24] - 298.0).abs() < 1.0, "{}", speeds[24]);
    assert!((speeds[124] - 320.0).abs() < 0.01);
    assert!(
        (x - c.position().x - 294.4).abs() < 1.0,
        "{}",
        x - c.position().x
    );
    assert!(c.position().x < -256.0 - 16.0, "through the wall");
}

#[test]
fn s61_spectator_flies_and_collides() {
    let w = world("box_room");
    let mut c = player(Vec3::new(-200.0, 0.0, 100.0));
    c.set_mode(MoveMode::Fly);
    let x = c.position().x;
    for _ in 0..125 {
        c.step(w, &run(Vec3::X));
    }
    assert!(
        (c.position().x - x - 369.3).abs() < 1.0,
        "{}",
        c.position().x - x
    );
    assert!((c.velocity().x - 400.0).abs() < 1.0);
    for _ in 0..250 {
        c.step(w, &run(Vec3::X));
        assert!(!c.overlaps(w));
    }
    assert!((c.position().x - (256.0 - 15.0 - SKIN)).abs() < 0.01);
    // Up input rises the same way; no gravity.
    let z = c.position().z;
    let up = MoveInput {
        wish: Vec3::Z,
        ..IDLE
    };
    for _ in 0..25 {
        c.step(w, &up);
    }
    assert!(c.position().z > z + 40.0);
}

#[test]
fn s62_dead_slides_to_a_stop() {
    let w = world("box_room");
    let mut c = player(Vec3::new(-200.0, 0.0, 0.0));
    settle(&mut c, w);
    launch(&mut c, Vec3::new(320.0, 0.0, 0.0));
    c.set_mode(MoveMode::Dead);
    // The box −24..−8 about the origin: the feet stay, the top comes down to 16.
    let (mins, maxs) = c.shape().bounds();
    let center = c.shape_center() - c.position();
    assert_eq!((mins + center).z, -24.0);
    assert_eq!((maxs + center).z, -8.0);
    // Whatever the input: −20 per tick (Quake 3 `PM_DeadMove`), no ground friction.
    let mut speeds = Vec::new();
    for i in 0..40 {
        let input = MoveInput {
            wish: heading(i as f32 * 40.0),
            jump: true,
            crouch: i % 2 == 0,
            command: None,
        };
        let o = c.step(w, &input);
        assert!(!o.jumped && !c.overlaps(w));
        assert_eq!(o.activity, Activity::Walk);
        assert_eq!(c.ground().state, GroundState::Walkable);
        speeds.push(c.velocity().length());
    }
    for (k, v) in speeds[..15].iter().enumerate() {
        let expected = 320.0 - 20.0 * (k + 1) as f32;
        assert!((v - expected).abs() < 1e-3, "tick {}: {v}", k + 1);
    }
    assert!(speeds[15..].iter().all(|v| *v == 0.0), "{speeds:?}");
    assert!((feet(&c).z - SKIN).abs() < 0.01);
    // Water level from the dead eyes (8 above the feet): under 10 units of water, level 3.
    let pool = crate::support::compile(
        crate::support::box_map(&[
            ([-512.0, -512.0, -16.0], [512.0, 512.0, 0.0], "floor"),
            ([-512.0, -512.0, 0.0], [512.0, 512.0, 10.0], "*water0"),
        ])
        .as_bytes(),
    )
    .map;
    let mut c = player(Vec3::ZERO);
    settle(&mut c, &pool);
    assert_eq!(c.step(&pool, &IDLE).water_level, 1);
    c.set_mode(MoveMode::Dead);
    assert_eq!(c.step(&pool, &IDLE).water_level, 3);
    // Back to life: crouched at first, standing at the next tick where there is room.
    c.set_mode(MoveMode::Walk);
    assert!(c.crouched());
    c.step(&pool, &IDLE);
    assert!(!c.crouched());
    assert!((feet(&c).z - SKIN).abs() < SKIN, "{}", feet(&c));
}

#[test]
fn s62_frozen() {
    let w = world("box_room");
    let mut c = player(Vec3::new(0.0, 0.0, 100.0));
    launch(&mut c, Vec3::new(100.0, 0.0, 50.0));
    c.set_mode(MoveMode::Frozen);
    let before = c.state().clone();
    for i in 0..100 {
        let input = MoveInput {
            wish: heading(i as f32 * 7.0),
            jump: i % 2 == 0,
            crouch: i % 3 == 0,
            command: None,
        };
        assert_eq!(c.step(w, &input).activity, Activity::Frozen);
    }
    assert_eq!(c.state().clone(), before);
}

#[test]
fn s63_knockback_hold() {
    let w = world("box_room");
    let mut c = player(Vec3::new(-200.0, 0.0, 0.0));
    settle(&mut c, w);
    let x = c.position().x;
    assert!(c.apply_impulse(Vec3::new(800.0, 0.0, 0.0), 0.2));
    let ticks = steps(&mut c, w, IDLE, 25);
    assert!((c.position().x - x - 160.0).abs() < 1.0);
    assert!((ticks[24].velocity.x - 800.0).abs() < 1.0);
    let x = c.position().x;
    steps(&mut c, w, IDLE, 100);
    assert_eq!(c.velocity().x, 0.0);
    assert!(
        (c.position().x - x - 119.0).abs() < 3.0,
        "{}",
        c.position().x - x
    );
}

#[test]
fn s64_small_upward_impulses() {
    let w = world("box_room");
    for push in [Vec3::new(0.0, 0.0, 100.0), Vec3::new(50.0, 0.0, 100.0)] {
        let mut c = player(Vec3::ZERO);
        settle(&mut c, w);
        launch(&mut c, push);
        let t = steps(&mut c, w, IDLE, 1)[0].clone();
        assert_eq!(t.velocity.z, 0.0, "{push}");
        assert!(feet(&c).z < 0.1, "{push}: rose to {}", feet(&c).z);
    }
    // 145 rises 13.1.
    let mut c = player(Vec3::ZERO);
    settle(&mut c, w);
    launch(&mut c, Vec3::new(0.0, 0.0, 145.0));
    let top = steps(&mut c, w, IDLE, 60)
        .iter()
        .map(|t| t.feet(c.config()).z)
        .fold(0.0, f32::max);
    assert!((top - 13.1).abs() < 0.2, "{top}");
    // `launch` lifts at any speed: 100 rises 6.25.
    let mut c = player(Vec3::ZERO);
    settle(&mut c, w);
    assert!(c.launch(Vec3::new(0.0, 0.0, 100.0)));
    let top = steps(&mut c, w, IDLE, 60)
        .iter()
        .map(|t| t.feet(c.config()).z)
        .fold(0.0, f32::max);
    assert!((top - 6.25).abs() < 0.1 + SKIN, "{top}");
}

#[test]
fn s66_teleport() {
    let w = world("box_room");
    let mut c = player(Vec3::new(-200.0, 100.0, 0.0));
    settle(&mut c, w);
    assert!(c.teleport(
        Vec3::new(-200.0, 0.0, 25.0),
        Vec3::new(400.0, 0.0, 0.0),
        0.16
    ));
    assert_eq!(c.state().teleports, 1);
    assert_eq!(c.ground().state, GroundState::Air);
    let x = c.position().x;
    steps(&mut c, w, IDLE, 20);
    assert!(
        (c.position().x - x - 64.0).abs() < 1.0,
        "{}",
        c.position().x - x
    );
    steps(&mut c, w, IDLE, 100);
    assert!(
        (c.position().x - x - 119.5).abs() < 3.0,
        "{}",
        c.position().x - x
    );
}

#[test]
fn s67_velocity_cap() {
    let open: CompiledMap = boxes(&[([-64.0, -64.0, -100_000.0], [64.0, 64.0, -99_984.0])]);
    let config = ControllerConfig {
        max_velocity: Some(3500.0),
        ..ControllerConfig::default()
    };
    let mut c = CharacterController::new(config, Vec3::ZERO).unwrap();
    for _ in 0..(5.0f32 / 0.008) as usize {
        c.step(&open, &IDLE);
    }
    assert_eq!(c.velocity().z, -3500.0);
    launch(&mut c, Vec3::new(3000.0, 3000.0, -3500.0));
    assert!(c.apply_impulse(Vec3::new(3000.0, 3000.0, 0.0), 0.0));
    assert!(c.velocity().abs().max_element() <= 3500.0);
}

#[test]
fn s69_auto_hop_keeps_speed() {
    let w = world("box_room");
    let config = ControllerConfig {
        land_jump_delay: 0.0,
        auto_hop: true,
        ..ControllerConfig::default()
    };
    let mut c = standing(config, Vec3::new(-200.0, 0.0, 0.0));
    settle(&mut c, w);
    launch(&mut c, Vec3::new(320.0, 0.0, 0.0));
    let hop = MoveInput { jump: true, ..IDLE };
    let mut jumps = 0;
    for _ in 0..300 {
        if c.step(w, &hop).jumped {
            jumps += 1;
            assert_eq!(c.velocity().x, 320.0);
        }
        if jumps == 3 {
            break;
        }
    }
    assert_eq!(jumps, 3);
}

#[test]
fn s69_bunny_hop_with_a_press_after_each_landing() {
    // Five hops cover about 1,100 units.
    let w = &boxes(&[([-4096.0, -512.0, -16.0], [4096.0, 512.0, 0.0])]);
    let config = ControllerConfig {
        land_jump_delay: 0.0,
        ..ControllerConfig::default()
    };
    let mut c = standing(config, Vec3::new(-200.0, 0.0, 0.0));
    settle(&mut c, w);
    launch(&mut c, Vec3::new(320.0, 0.0, 0.0));
    // Pressed on the first tick, then on the first tick after each landing.
    let mut press = true;
    let mut jumps = 0;
    for _ in 0..400 {
        let o = c.step(
            w,
            &MoveInput {
                jump: press,
                ..IDLE
            },
        );
        if o.jumped {
            jumps += 1;
            assert_eq!(c.velocity().x, 320.0, "hop {jumps}");
        }
        assert!(press || !o.jumped);
        press = o.landed.is_some();
        if jumps == 5 {
            break;
        }
    }
    assert_eq!(jumps, 5);
    assert_eq!(c.velocity().x, 320.0);
}

#[test]
fn s69_default_landing_delay_refuses_the_rejump_for_32_ticks() {
    let w = world("box_room");
    // Jumps, lands (at about 268 u/s, above the 200 of a hard landing), and presses again
    // `after` ticks after the landing tick.
    let rejump = |after: usize| {
        let mut c = player(Vec3::new(-200.0, 0.0, 0.0));
        settle(&mut c, w);
        assert!(c.step(w, &MoveInput { jump: true, ..IDLE }).jumped);
        let landing = (0..200)
            .find_map(|_| c.step(w, &IDLE).landed)
            .expect("landed");
        assert!(landing > 200.0, "{landing}");
        for _ in 1..after {
            c.step(w, &IDLE);
        }
        c.step(w, &MoveInput { jump: true, ..IDLE }).jumped
    };
    // 0.25 s less 8 ms per tick is still positive after 31 ticks.
    assert!(!rejump(1));
    assert!(!rejump(31));
    assert!(rejump(32));
}

#[test]
fn s69_held_key_rule() {
    use planeshift::movement::JumpKey;
    let w = world("box_room");
    // A standing jump (a one-tick press), then the key held from 40 ms (5 ticks) before the
    // landing tick, the tick after the one that reports the landing.
    let run = |key: JumpKey, hold_from: Option<usize>| {
        let config = ControllerConfig {
            land_jump_delay: 0.0,
            jump_key: key,
            ..ControllerConfig::default()
        };
        let mut c = standing(config, Vec3::new(-200.0, 0.0, 0.0));
        settle(&mut c, w);
        assert!(c.step(w, &MoveInput { jump: true, ..IDLE }).jumped);
        let mut landed = None;
        let mut jumped = None;
        for i in 1..200 {
            let jump = hold_from.is_some_and(|from| i >= from);
            let o = c.step(w, &MoveInput { jump, ..IDLE });
            if o.landed.is_some() && landed.is_none() {
                landed = Some(i);
            }
            if o.jumped && jumped.is_none() {
                jumped = Some(i);
            }
        }
        (landed.expect("landed"), jumped)
    };
    let (landed, _) = run(JumpKey::Press, None);
    let hold_from = landed + 1 - 5;
    // Quake 3: held through the landing, it jumps on the landing tick.
    assert_eq!(run(JumpKey::Held, Some(hold_from)).1, Some(landed + 1));
    // Source's fresh press: never, while the key stays down.
    assert_eq!(run(JumpKey::Press, Some(hold_from)).1, None);
    // Quake 3 without a release since the last jump: held from the jump on, it never jumps
    // again either.
    assert_eq!(run(JumpKey::Held, Some(1)).1, None);
}

#[test]
fn s71_coyote_time() {
    // A ledge 64 high ending at x = 0.
    let w = boxes(&[
        ([-512.0, -256.0, -16.0], [512.0, 256.0, 0.0]),
        ([-512.0, -256.0, 0.0], [0.0, 256.0, 64.0]),
    ]);
    let config = ControllerConfig {
        coyote_time: 0.1,
        ..ControllerConfig::default()
    };
    for (late, jumps) in [(10, true), (13, false)] {
        let mut c = standing(config, Vec3::new(-40.0, 0.0, 64.0));
        settle(&mut c, &w);
        launch(&mut c, Vec3::new(320.0, 0.0, 0.0));
        let ahead = run(Vec3::X);
        let mut off = None;
        for i in 0..40 {
            c.step(&w, &ahead);
            if c.ground().state == GroundState::Air {
                off = Some(i);
                break;
            }
        }
        assert!(off.is_some());
        for _ in 1..late {
            c.step(&w, &ahead);
        }
        let jumped = c
            .step(
                &w,
                &MoveInput {
                    jump: true,
                    ..ahead
                },
            )
            .jumped;
        assert_eq!(jumped, jumps, "{late} ticks late");
    }
}

#[test]
fn s58_friction_per_material() {
    let w = boxes(&[([-4096.0, -512.0, -16.0], [4096.0, 512.0, 0.0])]);
    let wall = w.materials().iter().position(|m| m == "wall").unwrap();
    let id = planeshift::level::MaterialId(wall as u32);
    for (factor, distance, time) in [(1.0, 42.8, 0.36), (0.5, 87.8, 0.72), (0.25, 177.8, 1.43)] {
        let mut c = player(Vec3::ZERO);
        c.set_material_friction(&[(id, factor)]);
        settle(&mut c, &w);
        launch(&mut c, Vec3::new(320.0, 0.0, 0.0));
        let x = c.position().x;
        let ticks = steps(&mut c, &w, IDLE, 250);
        let stop = ticks.iter().position(|t| t.velocity.x == 0.0).unwrap() + 1;
        let (d, t) = (c.position().x - x, stop as f32 * 0.008);
        assert!((d - distance).abs() <= distance * 0.03, "{factor}: {d}");
        assert!((t - time).abs() <= time * 0.03 + 0.008, "{factor}: {t}");
    }
}

#[test]
fn s59_flags_and_material_reported() {
    let slick = quake2(&[([-4096.0, -512.0, -16.0], [4096.0, 512.0, 0.0], 1, 2)]);
    let mut c = player(Vec3::ZERO);
    let o = c.step(&slick, &IDLE);
    assert!(o.ground_surface.contains(SurfaceFlags::SLICK));
    assert!(o.surfaces.contains(SurfaceFlags::SLICK));
    let name = slick.material_name(o.ground_material.unwrap()).unwrap();
    assert_eq!(name, "t0");
}

#[test]
fn s65_jump_pad_launch() {
    let w = boxes(&[([-4096.0, -512.0, -16.0], [4096.0, 512.0, 0.0])]);
    let mut c = player(Vec3::ZERO);
    settle(&mut c, &w);
    let start = c.position();
    assert!(c.launch(Vec3::new(640.0, 0.0, 640.0)));
    let ticks = steps(&mut c, &w, IDLE, 150);
    let (peak, at) = ticks
        .iter()
        .enumerate()
        .map(|(i, t)| (t.position.z, i))
        .fold((f32::MIN, 0), |a, b| if b.0 > a.0 { b } else { a });
    assert!((peak - start.z - 256.0).abs() < 0.5, "{}", peak - start.z);
    assert!(((at + 1) as f32 * 0.008 - 0.8).abs() <= 0.0081, "{at}");
    assert!((ticks[at].position.x - start.x - 512.0).abs() < 4.0);
}

/// The wish at the best angle for air acceleration: along the velocity turned so that its
/// component along the wish is `target`.
fn best_wish(velocity: Vec3, target: f32) -> Vec3 {
    let speed = velocity.truncate().length();
    let along = velocity.truncate().normalize();
    let cos = (target / speed).clamp(-1.0, 1.0);
    let sin = (1.0 - cos * cos).sqrt();
    let side = glam::Vec2::new(-along.y, along.x);
    (along * cos + side * sin).extend(0.0)
}

#[test]
fn s68_air_strafe_gain() {
    let open = boxes(&[([-64.0, -64.0, -100_000.0], [64.0, 64.0, -99_984.0])]);
    for (config, a, target_of, expected) in [
        (ControllerConfig::default(), 2.56, 320.0, 489.4),
        (
            ControllerConfig {
                air_accelerate: 10.0,
                air_wish_cap: Some(30.0),
                ..ControllerConfig::default()
            },
            25.6,
            30.0,
            420.0,
        ),
    ] {
        let mut c = CharacterController::new(config, Vec3::ZERO).unwrap();
        launch(&mut c, Vec3::new(320.0, 0.0, 0.0));
        for _ in 0..84 {
            let wish = best_wish(c.velocity(), target_of - a);
            c.step(&open, &run(wish));
        }
        let speed = c.velocity().truncate().length();
        assert!((speed - expected).abs() < 0.5, "{speed} vs {expected}");
    }
}

#[test]
fn s70_surf_ramp_keeps_speed() {
    // A 60° ramp rising along +x: n = (−1732, 0, 1000)/2000.
    let src = "{\n\"classname\" \"worldspawn\"\n{\n\
        ( 0 -8192 0 ) ( 0 8192 0 ) ( 1000 -8192 1732 ) ramp 0 0 0 1 1\n\
        ( 1000 -8192 0 ) ( 1000 -8192 1732 ) ( 1000 8192 0 ) ramp 0 0 0 1 1\n\
        ( 0 -8192 0 ) ( 1000 -8192 0 ) ( 0 8192 0 ) ramp 0 0 0 1 1\n\
        ( 0 -8192 0 ) ( 0 -8192 1732 ) ( 1000 -8192 0 ) ramp 0 0 0 1 1\n\
        ( 0 8192 0 ) ( 1000 8192 0 ) ( 0 8192 1732 ) ramp 0 0 0 1 1\n}\n}\n";
    let w = crate::support::compile(src.as_bytes()).map;
    let config = ControllerConfig {
        air_accelerate: 10.0,
        air_wish_cap: Some(30.0),
        ..ControllerConfig::default()
    };
    let corner_x = 215.0f32;
    let z = 1.732 * corner_x + 24.0 + 0.1;
    let mut c = CharacterController::new(config, Vec3::new(200.0, -2000.0, z)).unwrap();
    launch(&mut c, Vec3::new(0.0, 1000.0, 0.0));
    let start = c.position();
    let ticks = steps(&mut c, &w, run(Vec3::X), 250);
    let last = &ticks[249];
    assert!((last.velocity.y - 1000.0).abs() < 1.0, "{}", last.velocity);
    assert!(
        last.position.z >= start.z - 1.0,
        "lost {}",
        start.z - last.position.z
    );
    // Quake 3's air control slides off it.
    let mut c = CharacterController::new(ControllerConfig::default(), start).unwrap();
    launch(&mut c, Vec3::new(0.0, 1000.0, 0.0));
    let ticks = steps(&mut c, &w, run(Vec3::X), 250);
    assert!(ticks[249].position.z < start.z - 500.0);
}

#[test]
fn s72_jump_buffer() {
    let w = world("box_room");
    let drop = |buffer: f32, press: Option<usize>| {
        let config = ControllerConfig {
            jump_buffer: buffer,
            land_jump_delay: 0.0,
            ..ControllerConfig::default()
        };
        let mut c = standing(config, Vec3::new(0.0, 0.0, 100.0));
        let mut landed = None;
        let mut jumped = None;
        for i in 0..120 {
            let input = MoveInput {
                jump: Some(i) == press,
                ..IDLE
            };
            let o = c.step(w, &input);
            if o.landed.is_some() && landed.is_none() {
                landed = Some(i);
            }
            if o.jumped && jumped.is_none() {
                jumped = Some(i);
            }
        }
        (landed.unwrap(), jumped)
    };
    let (landing, _) = drop(0.0, None);
    let press = landing + 1 - 12;
    assert_eq!(drop(0.15, Some(press)).1, Some(landing + 1));
    assert_eq!(drop(0.05, Some(press)).1, None);
}

#[test]
fn s73_air_step_while_falling() {
    for (falling, height, lands) in [
        (true, 56.0, true),
        (true, 64.0, false),
        (false, 48.0, false),
    ] {
        let w = boxes(&[
            ([-512.0, -256.0, -16.0], [512.0, 256.0, 0.0]),
            ([0.0, -256.0, 0.0], [512.0, 256.0, height]),
        ]);
        let config = ControllerConfig {
            air_step_falling: falling,
            ..ControllerConfig::default()
        };
        let mut c = standing(config, Vec3::new(-15.0 - SKIN, 0.0, 0.0));
        settle(&mut c, &w);
        let jump = MoveInput {
            jump: true,
            ..run(Vec3::X)
        };
        assert!(c.step(&w, &jump).jumped);
        steps(&mut c, &w, run(Vec3::X), 150);
        let on_top = feet(&c).z > height as f32 - 1.0;
        assert_eq!(on_top, lands, "{falling} {height}: feet {}", feet(&c).z);
    }
}

/// `maps/movement.map` (Quake 2): its pool, water jump, ladder shaft and slick ramp.
#[test]
fn movement_map_pool_ladder_and_slick_ramp() {
    let w = world("movement");
    // Dropped into the pool: swims, never stands on its bottom dry.
    let config = ControllerConfig::default();
    let mut c = CharacterController::new(config, Vec3::new(-768.0, 0.0, 88.0)).unwrap();
    let ticks = steps(&mut c, w, IDLE, 125);
    assert!(ticks.iter().any(|t| t.outcome.activity == Activity::Swim));
    assert_eq!(ticks[124].outcome.water_level, 3);
    // The water jump onto the deck at x = -640 (surface 8 below the deck).
    let origin = Vec3::new(-640.0 - 15.0 - SKIN, 0.0, -36.0 + 24.0);
    let mut c = CharacterController::new(config, origin).unwrap();
    assert!(c.step(w, &run(Vec3::X)).water_jumped);
    steps(&mut c, w, run(Vec3::X), 60);
    assert_eq!(c.ground().state, GroundState::Walkable);
    assert!(feet(&c).z > -0.1 && c.position().x > -640.0);
    // The ladder shaft: climbed to the balcony 256 up.
    let mut c = player(Vec3::new(-384.0 - 15.0 - SKIN, 0.0, 0.0));
    settle(&mut c, w);
    let ticks = steps(&mut c, w, run(Vec3::X), 450);
    assert!(ticks.iter().any(|t| t.outcome.activity == Activity::Ladder));
    let config = *c.config();
    let on_balcony = ticks
        .iter()
        .any(|t| t.ground == GroundState::Walkable && t.feet(&config).z > 255.0);
    assert!(on_balcony);
    // The slick ramp: no friction, so an idle character slides down it.
    let mut c = player(Vec3::new(64.0, 352.0, 96.5));
    let ticks = steps(&mut c, w, IDLE, 60);
    assert!(ticks[59].position.x < 50.0, "{}", ticks[59].position);
    assert!(
        ticks
            .iter()
            .any(|t| t.outcome.ground_surface.contains(SurfaceFlags::SLICK))
    );
}
