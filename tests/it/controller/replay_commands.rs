//! The replay contract's commands (`tools/harness/src/replay.rs`, tick lines read by
//! `replay_input.rs`): walking forward from a `view` and a `move` gives the same ground
//! positions and velocities, to the bit, at pitch 0, ±45 and ±89, on a bundled map and on
//! the shared `e1m2.map`, and equals the scripted wish of the same yaw; a line with an
//! unknown key or a bad value is refused with its line number and the key.

use super::replay::replay_contract;

use glam::Vec3;
use planeshift::CompiledMap;
use planeshift::{ControllerConfig, MoveCommand};

/// The pitches of the issue's acceptance, degrees.
const PITCHES: [f32; 5] = [0.0, 45.0, -45.0, 89.0, -89.0];

/// Ticks walked per run: 2.4 s at the 8 ms tick.
const TICKS: usize = 300;

/// The yaws walked from the spawn point, degrees (eight directions, one off the axes).
const YAWS: [f32; 8] = [0.0, 45.0, 90.0, 135.0, 180.0, 225.0, 270.0, 333.0];

/// The replay of `TICKS` tick lines built by `tick`, from `spawn`.
fn run(world: &CompiledMap, spawn: Vec3, tick: impl Fn(usize) -> String) -> String {
    let mut input = format!(
        "{{\"spawn\":[{:?},{:?},{:?}]}}\n",
        spawn.x, spawn.y, spawn.z
    );
    for k in 0..TICKS {
        input.push_str(&tick(k));
        input.push('\n');
    }
    replay_contract::replay_world(world, ControllerConfig::default(), &input, None)
        .unwrap_or_else(|e| panic!("{e}"))
        .lines
}

/// Walks forward from the map's first spawn point along every yaw of `YAWS` at every
/// pitch of `PITCHES`; gives how many runs went at least 100 units on walkable ground.
fn walk_at_every_pitch(name: &str, world: &CompiledMap) -> usize {
    let spawn = world
        .player_spawns()
        .next()
        .unwrap_or_else(|| panic!("{name}: no spawn point"));
    let mut far = 0;
    for yaw in YAWS {
        let lines: Vec<String> = PITCHES
            .iter()
            .map(|pitch| {
                run(world, spawn, |k| {
                    // Jump once, half-way: the air move flattens the view too.
                    let jump = k == TICKS / 2;
                    format!("{{\"view\":[{pitch},{yaw}],\"move\":[1,0,0],\"jump\":{jump}}}")
                })
            })
            .collect();
        for (pitch, other) in PITCHES.iter().zip(&lines).skip(1) {
            for (k, (a, b)) in lines[0].lines().zip(other.lines()).enumerate() {
                assert_eq!(a, b, "{name}: yaw {yaw}, pitch {pitch}, tick {k}");
            }
        }
        // The scripted wish of the same yaw: the same bits.
        let wish = MoveCommand {
            yaw,
            forward: 1.0,
            ..MoveCommand::default()
        }
        .walk_wish();
        let scripted = run(world, spawn, |k| {
            let jump = k == TICKS / 2;
            format!(
                "{{\"wish\":[{:?},{:?},{:?}],\"jump\":{jump}}}",
                wish.x, wish.y, wish.z
            )
        });
        assert_eq!(lines[0], scripted, "{name}: yaw {yaw}, the wish");
        let ticks: Vec<serde_json::Value> = lines[0]
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(ticks.len(), TICKS);
        let at = |t: &serde_json::Value| {
            Vec3::new(
                t["position"][0].as_f64().unwrap() as f32,
                t["position"][1].as_f64().unwrap() as f32,
                t["position"][2].as_f64().unwrap() as f32,
            )
        };
        let walked = ticks
            .windows(2)
            .filter(|w| w[1]["ground"] == "walkable")
            .map(|w| (at(&w[1]) - at(&w[0])).length())
            .sum::<f32>();
        if walked >= 100.0 {
            far += 1;
        }
    }
    far
}

#[test]
fn walking_from_the_view_is_the_same_at_every_pitch_on_a_bundled_map() {
    let path = crate::support::repo_root().join("maps/arena.map");
    let world = planeshift::compile_map(&crate::support::read(&path))
        .unwrap()
        .map;
    let far = walk_at_every_pitch("arena.map", &world);
    println!("arena: {far} of 8 walks went 100 units on the ground");
    assert!(
        far >= 4,
        "only {far} of 8 walks went 100 units on the ground"
    );
}

#[test]
fn walking_from_the_view_is_the_same_at_every_pitch_on_e1m2() {
    let Some(dir) = crate::support::real_maps_dir("walking_from_the_view_on_e1m2") else {
        return;
    };
    let path = dir.join("id-quake-1996/e1m2.map");
    let world = planeshift::compile_map(&crate::support::read(&path))
        .unwrap()
        .map;
    let far = walk_at_every_pitch("e1m2.map", &world);
    println!("e1m2: {far} of 8 walks went 100 units on the ground");
    assert!(
        far >= 2,
        "only {far} of 8 walks went 100 units on the ground"
    );
}

/// The replay of a spawn line and `tick`, or its error.
fn replay_error(tick: &str) -> String {
    let map = crate::support::box_map(&[([-256.0, -256.0, -16.0], [256.0, 256.0, 0.0], "floor")]);
    let input = format!("{{\"spawn\":[0,0,24]}}\n{{\"wish\":[1,0,0]}}\n\n{tick}\n");
    match replay_contract::replay(
        map.as_bytes(),
        &Default::default(),
        ControllerConfig::default(),
        &input,
        None,
    ) {
        Ok(_) => panic!("`{tick}` was accepted"),
        Err(e) => e,
    }
}

#[test]
fn unknown_keys_and_bad_values_are_refused_with_the_line_and_the_key() {
    // The tick line is line 4 (line 3 is blank).
    let cases = [
        (r#"{"wish":[1,0,0],"jmup":true}"#, "jmup"),
        (r#"{"view":[0,90],"move":[1,0,0],"fire":true}"#, "fire"),
        (r#"{"view":[0,90],"move":[1.5,0,0]}"#, "move"),
        (r#"{"view":[0,90],"move":[0,-1.01,0]}"#, "move"),
        (r#"{"view":[0,90],"move":[1,0]}"#, "move"),
        (r#"{"view":[0,90],"move":[1,0,"up"]}"#, "move"),
        (r#"{"view":[0],"move":[1,0,0]}"#, "view"),
        (r#"{"view":[0,1e39],"move":[1,0,0]}"#, "view"),
        (r#"{"view":"ahead","move":[1,0,0]}"#, "view"),
        (r#"{"move":[1,0,0]}"#, "move"),
        (r#"{"wish":[1,0,0],"view":[0,90]}"#, "wish"),
        (r#"{"wish":[1,0,0],"move":[1,0,0]}"#, "wish"),
        (r#"{"wish":[1,0]}"#, "wish"),
        (r#"{"wish":[1,0,1e300]}"#, "wish"),
        (r#"{"wish":null}"#, "wish"),
        (r#"{"wish":[1,0,0],"jump":1}"#, "jump"),
        (r#"{"wish":[1,0,0],"crouch":"yes"}"#, "crouch"),
        (r#"{"wish":[1,0,0],"mode":"swim"}"#, "mode"),
        (r#"{"wish":[1,0,0],"msec":2.5}"#, "msec"),
        (r#"{"wish":[1,0,0],"impulse":[0,0]}"#, "impulse"),
        (r#"{"wish":[1,0,0],"teleport":[0,0,"x"]}"#, "teleport"),
    ];
    for (line, key) in cases {
        let error = replay_error(line);
        assert!(error.starts_with("line 4: "), "`{line}`: {error}");
        assert!(error.contains(&format!("`{key}`")), "`{line}`: {error}");
    }
    let not_an_object = replay_error("[1,2,3]");
    assert!(not_an_object.starts_with("line 4: "), "{not_an_object}");
    // The spawn line too.
    let map = crate::support::box_map(&[([-256.0, -256.0, -16.0], [256.0, 256.0, 0.0], "floor")]);
    for (first, key) in [
        (r#"{"spawn":[0,0,24],"angle":90}"#, "angle"),
        (r#"{"spawn":[0,0]}"#, "spawn"),
        (r#"{"velocity":[0,0,0]}"#, "spawn"),
    ] {
        let input = format!("{first}\n{{\"wish\":[1,0,0]}}\n");
        let error = replay_contract::replay(
            map.as_bytes(),
            &Default::default(),
            ControllerConfig::default(),
            &input,
            None,
        )
        .err()
        .unwrap_or_else(|| panic!("`{first}` was accepted"));
        assert!(error.starts_with("line 1: "), "`{first}`: {error}");
        assert!(error.contains(&format!("`{key}`")), "`{first}`: {error}");
    }
    // A command line alone (no move: looking around) and with every key is accepted.
    let map = crate::support::box_map(&[([-256.0, -256.0, -16.0], [256.0, 256.0, 0.0], "floor")]);
    let good = "{\"spawn\":[0,0,24],\"velocity\":[0,0,0]}\n{\"view\":[10,20]}\n\
                {\"view\":[-30,200],\"move\":[-1,0.5,1],\"jump\":true,\"crouch\":false,\
                \"impulse\":[0,0,10],\"teleport\":[0,0,30],\"mode\":\"walk\",\"msec\":8}\n";
    let out = replay_contract::replay(
        map.as_bytes(),
        &Default::default(),
        ControllerConfig::default(),
        good,
        None,
    )
    .unwrap();
    assert_eq!(out.lines.lines().count(), 2);
}
