//! The replay contract of `examples/fps_movement --replay` (`examples/fps_movement/replay.rs`),
//! driven in process: a character dropped above a deep pool goes under, swims (not a free
//! fall), and surfaces when jump is held; the output is the same bytes twice.

#[allow(dead_code)]
#[path = "../../../examples/fps_movement/replay.rs"]
mod replay_contract;

use planeshift::compile::CompileOptions;
use planeshift::controller::ControllerConfig;
use serde_json::Value;

#[test]
fn dropped_into_a_pool_swims_and_surfaces() {
    let list = [
        ([-512.0, -512.0, -16.0], [512.0, 512.0, 0.0], "floor"),
        ([-512.0, -512.0, 0.0], [512.0, 512.0, 256.0], "*water0"),
    ];
    let map = crate::support::box_map(&list);
    let mut input = String::from("{\"spawn\":[0,0,400]}\n");
    for _ in 0..250 {
        input.push_str("{\"wish\":[0,0,0],\"jump\":false,\"crouch\":false}\n");
    }
    for _ in 0..500 {
        input.push_str("{\"wish\":[0,0,0],\"jump\":true,\"crouch\":false}\n");
    }
    let run = || {
        replay_contract::replay(
            map.as_bytes(),
            &CompileOptions::default(),
            ControllerConfig::default(),
            &input,
        )
        .unwrap()
    };
    let out = run();
    assert_eq!(out, run(), "replays are bit-identical");
    let ticks: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(ticks.len(), 750);
    let under = ticks
        .iter()
        .position(|t| t["water_level"].as_u64().unwrap() >= 2)
        .expect("never under");
    let later = &ticks[under + 63];
    let vz = later["velocity"][2].as_f64().unwrap();
    assert!(vz.abs() <= 150.0, "v.z {vz} half a second under");
    assert_eq!(later["mode"], "swim");
    assert!(
        later["contents"]
            .as_array()
            .unwrap()
            .contains(&Value::from("water"))
    );
    let last = &ticks[749];
    assert!(last["water_level"].as_u64().unwrap() <= 1, "{last}");
    assert!(ticks.iter().all(|t| t["stuck"] == false));
}
