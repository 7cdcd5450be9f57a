//! A compiled `.bsp` goes where a `.map` goes (issue 26): the `fps_movement` replay
//! (`tools/harness/src/replay.rs` `replay`, which loads its level by `compile_level`)
//! runs on shared `.bsp` files of three games as on a `.map`.

use planeshift::ControllerConfig;
use planeshift::{
    CompileOptions,
    build::{SourceFormat, compile_level},
};
use serde_json::Value;

use crate::controller::replay::replay_contract;
use crate::support::{read, real_maps_dir, repo_root};

/// The replay's input: spawn at `spawn`, then `ticks` ticks running along +x then +y.
fn run_input(spawn: glam::Vec3, ticks: usize) -> String {
    let mut input = format!("{{\"spawn\":[{},{},{}]}}\n", spawn.x, spawn.y, spawn.z);
    for tick in 0..ticks {
        let wish = if tick < ticks / 2 {
            "[1,0,0]"
        } else {
            "[0,1,0]"
        };
        input.push_str(&format!(
            "{{\"wish\":{wish},\"jump\":false,\"crouch\":false}}\n"
        ));
    }
    input
}

/// Replays a run from the level's first spawn point; gives the tick lines.
fn replay_level(name: &str, bytes: &[u8]) -> (SourceFormat, Vec<Value>) {
    const TICKS: usize = 400;
    let compiled =
        compile_level(bytes, &CompileOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    let spawn = compiled
        .map
        .player_spawns()
        .next()
        .unwrap_or_else(|| panic!("{name}: a spawn point"));
    let input = run_input(spawn, TICKS);
    let config = ControllerConfig::default();
    let run = || {
        replay_contract::replay(bytes, &CompileOptions::default(), config, &input, None)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .lines
    };
    let lines = run();
    assert_eq!(lines, run(), "{name}: replays are bit-identical");
    let ticks: Vec<Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(ticks.len(), TICKS, "{name}");
    (compiled.format, ticks)
}

#[test]
fn the_replay_runs_on_a_bsp_as_on_a_map() {
    let mut levels = vec![(
        "q2_tool_defaults.map".to_owned(),
        read(&repo_root().join("maps/q2_tool_defaults.map")),
    )];
    if let Some(dir) = real_maps_dir("the_replay_runs_on_a_bsp_as_on_a_map") {
        for name in [
            "id-quake-1996/dm4.bsp",
            "qbsp/example-quake2.bsp",
            "openarena-lostlevels/q3dm6ish.bsp",
        ] {
            levels.push((name.to_owned(), read(&dir.join(name))));
        }
    }
    for (name, bytes) in &levels {
        let (format, ticks) = replay_level(name, bytes);
        assert_eq!(
            format == SourceFormat::Map,
            name.ends_with(".map"),
            "{name}"
        );
        let stuck = ticks.iter().filter(|t| t["stuck"] == true).count();
        let grounded = ticks.iter().filter(|t| t["ground"] == "walkable").count();
        let start = &ticks[0]["position"];
        let end = &ticks[ticks.len() - 1]["position"];
        let moved = (0..2)
            .map(|i| (end[i].as_f64().unwrap_or(0.0) - start[i].as_f64().unwrap_or(0.0)).abs())
            .sum::<f64>();
        println!(
            "replay {name} ({}): stuck {stuck}, grounded {grounded}/{}, moved {moved:.0}",
            format.name(),
            ticks.len()
        );
        assert_eq!(stuck, 0, "{name}");
        assert!(grounded > ticks.len() / 2, "{name}: grounded {grounded}");
        assert!(moved > 64.0, "{name}: the character ran ({moved})");
    }
}
