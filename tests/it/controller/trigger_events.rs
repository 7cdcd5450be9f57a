//! Scenarios 85–88 and the jump pad's aim: the triggers a tick touched, entered and left
//! (`MoveOutcome::triggers`), swept so a thin trigger crossed within a tick counts, and
//! Quake 3's teleporters and jump pads played on them by `tools/harness/src/game.rs`
//! (`maps/trigger_room.map`).

use glam::Vec3;
use planeshift::build::Game;
use planeshift::{ControllerConfig, MoveInput};

use super::fps_game::{Level, TELEPORT_HOLD, Trigger};
use super::*;

/// The first model of class `classname`.
fn model_of(map: &CompiledMap, classname: &str) -> usize {
    map.find_entities(classname)
        .find_map(|e| e.model())
        .unwrap_or_else(|| panic!("no {classname}"))
}

#[test]
fn s85_enter_and_leave() {
    // arena.map's trigger_multiple spans x 896..1024; running +x at 320 from x 800.
    let map = world("arena");
    let trigger = model_of(map, "trigger_multiple");
    let mut c = player(Vec3::new(800.0, 1472.0, 0.0));
    settle(&mut c, map);
    launch(&mut c, Vec3::X * 320.0);
    let (mut entered, mut left, mut inside) = (Vec::new(), Vec::new(), 0);
    for _ in 0..150 {
        let outcome = c.step(map, &run(Vec3::X));
        let t = outcome.triggers;
        if t.entered.contains(trigger) {
            entered.push(c.position().x);
        }
        if t.left.contains(trigger) {
            left.push(c.position().x);
        }
        if c.state().triggers.contains(trigger) {
            inside += 1;
        }
        assert_eq!(
            t.touched.contains(trigger),
            c.state().triggers.contains(trigger) || t.left.contains(trigger)
        );
    }
    assert_eq!(entered.len(), 1, "entered once: {entered:?}");
    assert_eq!(left.len(), 1, "left once: {left:?}");
    // Entered once the centre reaches 896 - 15 (touching counts), left past 1024 + 15.
    assert!(
        entered[0] >= 881.0 && entered[0] < 881.0 + 2.57,
        "{entered:?}"
    );
    assert!(left[0] > 1039.0 && left[0] < 1039.0 + 2.57, "{left:?}");
    assert!((61..=63).contains(&inside), "{inside} ticks inside");
}

#[test]
fn s86_thin_trigger_at_speed() {
    // trigger_room.map's slab spans x 500..508; a 50 ms tick at 1000 u/s without friction
    // ends at 480 and 530, never overlapping it, yet the swept report has it.
    let map = world("trigger_room");
    let slab = model_of(map, "trigger_multiple");
    let config = ControllerConfig {
        tick: 0.05,
        friction: 0.0,
        ..ControllerConfig::default()
    };
    let mut c = standing(config, Vec3::new(430.0, 160.0, 0.0));
    c.step(map, &MoveInput::default());
    let mut state = c.state().clone();
    state.position.x = 430.0;
    state.velocity = Vec3::X * 1000.0;
    assert!(c.set_state(state));
    let first = c.step(map, &MoveInput::default());
    assert!((c.position().x - 480.0).abs() < 1e-3);
    assert!(first.triggers.touched.is_empty());
    let second = c.step(map, &MoveInput::default());
    assert!((c.position().x - 530.0).abs() < 1e-3);
    assert!(
        map.touching_triggers(c.shape(), c.shape_center())
            .next()
            .is_none()
    );
    let t = second.triggers;
    assert!(
        t.touched.contains(slab) && t.entered.contains(slab) && t.left.contains(slab),
        "{t:?}"
    );
    assert!(c.state().triggers.is_empty());
}

/// Plays the triggers a tick touched on `c` as the soak does; returns what it did.
fn play(
    level: &Level,
    c: &mut CharacterController,
    touched: &[u32],
    entered: &[u32],
) -> Vec<&'static str> {
    let mut did = Vec::new();
    for &model in touched {
        match level.get(model as usize) {
            Some(Trigger::Teleport { origin, velocity }) => {
                assert!(c.teleport(origin, velocity, TELEPORT_HOLD));
                did.push("teleport");
                break;
            }
            Some(Trigger::Push { velocity }) => {
                let v = c.velocity();
                assert!(c.launch(velocity - v));
                did.push(if entered.contains(&model) {
                    "pad event"
                } else {
                    "pad"
                });
            }
            Some(Trigger::Hurt) => did.push("hurt"),
            None => {}
        }
    }
    did
}

#[test]
fn s87_teleport_chain() {
    // Teleporter A (x -640..-576) leads to `a` at (0, 384), inside teleporter B, which leads
    // to `b` at (640, 384) facing -x.
    let map = world("trigger_room");
    let level = Level::of(map, Game::Quake, &ControllerConfig::default());
    let teleporters: Vec<usize> = map
        .find_entities("trigger_teleport")
        .filter_map(|e| e.model())
        .collect();
    let (a, b) = (teleporters[0], teleporters[1]);
    let mut c = player(Vec3::new(-700.0, 0.0, 0.0));
    settle(&mut c, map);
    let mut log = Vec::new();
    for _ in 0..200 {
        let outcome = c.step(map, &run(Vec3::X));
        let t = outcome.triggers;
        log.push((t.entered.clone(), t.left.clone()));
        let did = play(&level, &mut c, t.touched.as_slice(), t.entered.as_slice());
        if !did.is_empty() && (c.position() - Vec3::new(640.0, 384.0, 25.0)).length() < 1e-3 {
            break;
        }
    }
    assert_eq!(c.state().teleports, 2, "A, then B");
    assert!(
        (c.velocity() - Vec3::new(-400.0, 0.0, 0.0)).length() < 1e-2,
        "{}",
        c.velocity()
    );
    // The tick after the first teleport left A and entered B.
    let after_a = log.iter().position(|(e, _)| e.contains(a)).unwrap();
    let (entered, left) = &log[after_a + 1];
    assert!(
        left.contains(a) && entered.contains(b),
        "{entered:?} {left:?}"
    );
}

#[test]
fn s88_fat_jump_pad_and_aim() {
    let map = world("trigger_room");
    let level = Level::of(map, Game::Quake, &ControllerConfig::default());
    let pads: Vec<usize> = map
        .find_entities("trigger_push")
        .filter_map(|e| e.model())
        .collect();
    // Quake 3's AimAtTarget: the thin pad, centre (256, -256, 8), aimed 512 along +x and
    // 256 up: (640, 0, 640) (scenario 65).
    let Some(Trigger::Push { velocity }) = level.get(pads[0]) else {
        panic!("the thin pad does not push");
    };
    assert!(
        (velocity - Vec3::new(640.0, 0.0, 640.0)).length() < 1e-3,
        "{velocity}"
    );
    // The fat pad (64 tall): velocity set every tick inside, entered once, one pad event.
    let fat = pads[1];
    let Some(Trigger::Push { velocity: up }) = level.get(fat) else {
        panic!("the fat pad does not push");
    };
    let mut c = player(Vec3::new(-320.0, -256.0, 0.0));
    let (mut inside, mut events, mut entered) = (0, 0, 0);
    for _ in 0..100 {
        let outcome = c.step(map, &MoveInput::default());
        let t = outcome.triggers;
        entered += usize::from(t.entered.contains(fat));
        if t.touched.contains(fat) {
            inside += 1;
            let did = play(&level, &mut c, t.touched.as_slice(), t.entered.as_slice());
            events += did.iter().filter(|d| **d == "pad event").count();
            assert_eq!(c.velocity(), up, "set, not added");
        }
    }
    assert!(inside >= 3, "{inside} ticks in the pad");
    assert_eq!((entered, events), (1, 1));
}

#[test]
fn a_character_inside_24_triggers_enters_and_leaves_each_once() {
    // maps/many_triggers.map: 24 nested trigger_multiple boxes about the centre. Walk in from
    // x −448 along y = 0, stop in the middle (inside all 24), stand 100 ticks, walk out to
    // the far wall: each trigger is entered once and left once, and standing inside all 24
    // reports nothing (a capped set would drop some and report them left and entered).
    let map = world("many_triggers");
    let models: Vec<usize> = map
        .find_entities("trigger_multiple")
        .filter_map(|e| e.model())
        .collect();
    assert_eq!(models.len(), 24);
    let mut c = player(Vec3::new(-448.0, 0.0, 0.0));
    settle(&mut c, map);
    let mut entered = vec![0usize; map.models().len()];
    let mut left = vec![0usize; map.models().len()];
    let mut outcome = planeshift::MoveOutcome::default();
    let mut tick = |c: &mut CharacterController,
                    input: &MoveInput,
                    entered: &mut Vec<usize>,
                    left: &mut Vec<usize>| {
        c.step_into(map, input, &mut outcome);
        for m in outcome.triggers.entered.iter() {
            entered[m] += 1;
        }
        for m in outcome.triggers.left.iter() {
            left[m] += 1;
        }
        // Whatever is reported, the sets are sets of trigger models, increasing.
        assert!(outcome.triggers.touched.iter().all(|m| models.contains(&m)));
        (outcome.triggers.entered.len(), outcome.triggers.left.len())
    };
    let mut ticks = 0;
    while c.position().x < -40.0 {
        tick(&mut c, &run(Vec3::X), &mut entered, &mut left);
        ticks += 1;
        assert!(ticks < 1000, "never reached the middle");
    }
    // Stop, then stand still inside all 24.
    for _ in 0..200 {
        tick(&mut c, &MoveInput::default(), &mut entered, &mut left);
    }
    assert!(
        c.velocity().length() < 1e-3,
        "still moving at {}",
        c.position()
    );
    assert_eq!(c.state().triggers.len(), 24, "{:?}", c.state().triggers);
    for (i, &m) in models.iter().enumerate() {
        assert_eq!(
            (entered[m], left[m]),
            (1, 0),
            "model {m} (nested {i}) on the way in"
        );
    }
    for _ in 0..100 {
        let events = tick(&mut c, &MoveInput::default(), &mut entered, &mut left);
        assert_eq!(events, (0, 0), "standing inside all 24");
    }
    while c.position().x < 440.0 {
        tick(&mut c, &run(Vec3::X), &mut entered, &mut left);
        ticks += 1;
        assert!(ticks < 2000, "never reached the far wall");
    }
    assert!(c.state().triggers.is_empty(), "{:?}", c.state().triggers);
    for &m in &models {
        assert_eq!((entered[m], left[m]), (1, 1), "model {m}");
    }
}
