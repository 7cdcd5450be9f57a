//! The Bevy replay equals the library's, byte for byte: `examples/replay.rs` (a headless
//! `App`, the map through the `AssetServer`, one fixed step per tick) against
//! `tools/harness/src/replay.rs` (one `CharacterController`), on 1,500 ticks of seeded
//! inputs with jumps, crouches and view turns: scripted wishes, and players' commands
//! (`"view"` and `"move"`, pitch swinging between ±89°).

use planeshift_harness::replay as library_replay;

#[allow(dead_code)]
#[path = "../examples/replay.rs"]
mod bevy_replay;

use std::path::PathBuf;

use planeshift::{ControllerConfig, compile_map};

/// Ticks per replay (the count).
const TICKS: usize = 1_500;

/// A seeded xorshift64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// A spawn line and `TICKS` tick lines: the view turning at a changing rate (the wish
/// follows the yaw), a jump pressed for one tick now and then, crouches held for a while.
fn commands(spawn: glam::Vec3, seed: u64, from_view: bool) -> String {
    let mut rng = Rng(seed);
    let mut out = format!(
        "{{\"spawn\":[{:?},{:?},{:?}]}}\n",
        spawn.x, spawn.y, spawn.z
    );
    let (mut yaw, mut turn, mut crouch_left) = (0.0f32, 0.0f32, 0u32);
    for tick in 0..TICKS {
        if tick % 50 == 0 {
            turn = (rng.unit() - 0.5) * 0.2;
        }
        yaw += turn;
        let jump = rng.unit() < 0.03;
        if crouch_left == 0 && rng.unit() < 0.01 {
            crouch_left = 20 + (rng.unit() * 60.0) as u32;
        }
        let crouch = crouch_left > 0;
        crouch_left = crouch_left.saturating_sub(1);
        let speed = if tick % 300 < 20 { 0.0 } else { 1.0 };
        if from_view {
            // The view swings up and down; walking ignores the pitch, the side move strafes.
            let pitch = 89.0 * ((tick as f32) * 0.01).sin();
            let side = if tick % 500 < 100 { 0.5 } else { 0.0 };
            out.push_str(&format!(
                "{{\"view\":[{pitch:?},{:?}],\"move\":[{speed:?},{side:?},0.0],\"jump\":{jump},\"crouch\":{crouch}}}\n",
                yaw.to_degrees()
            ));
            continue;
        }
        let (s, c) = yaw.sin_cos();
        out.push_str(&format!(
            "{{\"wish\":[{:?},{:?},0.0],\"jump\":{jump},\"crouch\":{crouch}}}\n",
            c * speed,
            s * speed
        ));
    }
    out
}

/// Runs both replays on `path` and compares them.
fn compare(path: &PathBuf, seed: u64, from_view: bool) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let world = compile_map(&bytes)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .map;
    let spawn = world
        .player_spawns()
        .next()
        .unwrap_or(glam::Vec3::new(0.0, 0.0, 32.0));
    let input = commands(spawn, seed, from_view);
    let expected = library_replay::replay_world(&world, ControllerConfig::default(), &input, None)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines;
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("level.map");
    let got = bevy_replay::replay_in_bevy(name, &bytes, ControllerConfig::default(), &input)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(expected.lines().count(), TICKS);
    // The run is not idle: it leaves the ground, crouches and goes places.
    assert!(
        expected.contains("\"ground\":\"air\""),
        "{}",
        path.display()
    );
    assert!(expected.contains("\"crouched\":true"), "{}", path.display());
    let positions: std::collections::BTreeSet<&str> = expected
        .lines()
        .filter_map(|l| l.split("\"velocity\"").next())
        .collect();
    assert!(
        positions.len() > TICKS / 2,
        "{}: {}",
        path.display(),
        positions.len()
    );
    for (n, (a, b)) in expected.lines().zip(got.lines()).enumerate() {
        assert_eq!(a, b, "{}: tick {n} differs", path.display());
    }
    assert_eq!(expected, got, "{}", path.display());
}

#[test]
fn bevy_replay_equals_the_library_replay_on_a_bundled_map() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../maps");
    compare(&root.join("movement.map"), 1, false);
}

#[test]
fn bevy_replay_of_commands_from_the_view_equals_the_library_replay() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../maps");
    compare(&root.join("movement.map"), 2, true);
    // A line the contract refuses is refused by both, naming the line and the key.
    let bytes = std::fs::read(root.join("box_room.map")).expect("box_room.map");
    let bad = "{\"spawn\":[0,0,24]}\n{\"view\":[0,90],\"move\":[2,0,0]}\n";
    let error =
        bevy_replay::replay_in_bevy("box_room.map", &bytes, ControllerConfig::default(), bad)
            .expect_err("a move of 2 is refused");
    assert!(
        error.starts_with("line 2: ") && error.contains("`move`"),
        "{error}"
    );
    let error = bevy_replay::replay_in_bevy(
        "box_room.map",
        &bytes,
        ControllerConfig::default(),
        "{\"spawn\":[0,0,24]}\n{\"wish\":[1,0,0],\"shoot\":true}\n",
    )
    .expect_err("an unknown key is refused");
    assert!(
        error.starts_with("line 2: ") && error.contains("`shoot`"),
        "{error}"
    );
}

#[test]
fn bevy_replay_equals_the_library_replay_on_three_shared_maps() {
    let Some(dir) = std::env::var_os("PLANESHIFT_REAL_MAPS") else {
        println!("skipped: PLANESHIFT_REAL_MAPS is not set");
        return;
    };
    let dir = PathBuf::from(dir);
    for (i, name) in [
        "id-quake-1996/e1m2.map",
        "id-quake-1996/dm4.map",
        "openarena-lostlevels/q3dm6ish.map",
    ]
    .iter()
    .enumerate()
    {
        // Commands from the view (pitch swinging, yaw turning, strafes) and the same turns
        // as world-vector wishes.
        compare(&dir.join(name), 7 + i as u64, true);
        compare(&dir.join(name), 10 + i as u64, false);
    }
}
