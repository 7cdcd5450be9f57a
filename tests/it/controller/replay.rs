//! The replay contract of `examples/fps_movement --replay` (`tools/harness/src/replay.rs`),
//! driven in process: a character dropped above a deep pool goes under, swims (not a free
//! fall), and surfaces when jump is held; the output is the same bytes twice.

pub(crate) use planeshift_harness::replay as replay_contract;

use planeshift::CompileOptions;
use planeshift::ControllerConfig;
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
            None,
        )
        .unwrap()
        .lines
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

/// The pools of 64 × 64 × 64 or more with open sky above on the shared real maps: 7 in
/// ericw-tools' `hl_currents.map`, 4 in Quake's `e2m1.map`, 1 in `e1m2.map`.
const REAL_MAP_POOLS: usize = 12;

/// The real-map check: on every shared map, every water brush at least 64 × 64 × 64
/// whose surface has open sky above (the player box falls 128 units onto it unhindered):
/// a character dropped above its centre through the replay contract reaches water level 2,
/// falls no faster than 150 u/s half a second after going under, swims, and surfaces
/// (level ≤ 1) with jump held.
#[test]
fn real_map_pools_swim_and_surface() {
    use glam::Vec3;
    use planeshift::CharacterController;
    use planeshift::Contents;
    use planeshift::movement::{ShapeQuery, Tracer};

    let config = ControllerConfig::default();
    let probe = CharacterController::new(config, Vec3::ZERO).unwrap();
    let mut input = String::new();
    let mut pools = 0;
    let maps = crate::support::real_maps("real_map_pools_swim_and_surface");
    for (name, path) in &maps {
        let Ok(out) = crate::support::try_compile(&crate::support::read(path)) else {
            continue;
        };
        let world = out.map;
        let water: Vec<_> = world
            .brushes()
            .iter()
            .filter(|b| b.contents.contains(Contents::WATER))
            .filter(|b| (b.maxs - b.mins).min_element() >= 64.0)
            .copied()
            .collect();
        for brush in water {
            let centre = 0.5 * (brush.mins + brush.maxs);
            let top = brush.maxs.z;
            let spawn = Vec3::new(centre.x, centre.y, top + 128.0);
            let below = Vec3::new(centre.x, centre.y, top);
            let fall = Tracer::trace(&world, &ShapeQuery::new(probe.shape()), spawn, below);
            let surface = Vec3::new(centre.x, centre.y, top + 1.0);
            let deep = Vec3::new(centre.x, centre.y, top - 60.0);
            if fall.start_solid
                || fall.hit()
                || world
                    .point_contents(surface)
                    .intersects(Contents::MASK_LIQUID)
                || !world.point_contents(deep).contains(Contents::WATER)
            {
                continue;
            }
            input.clear();
            input.push_str(&format!(
                "{{\"spawn\":[{},{},{}]}}\n",
                spawn.x, spawn.y, spawn.z
            ));
            for _ in 0..250 {
                input.push_str("{\"wish\":[0,0,0],\"jump\":false,\"crouch\":false}\n");
            }
            for _ in 0..625 {
                input.push_str("{\"wish\":[0,0,0],\"jump\":true,\"crouch\":false}\n");
            }
            let lines = replay_contract::replay_world(&world, config, &input, None)
                .unwrap()
                .lines;
            let ticks: Vec<Value> = lines
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            let at = format!("{name}: pool at {centre}");
            let under = ticks[..250]
                .iter()
                .position(|t| t["water_level"].as_u64().unwrap() >= 2)
                .unwrap_or_else(|| panic!("{at}: never under"));
            let later = &ticks[(under + 63).min(249)];
            let vz = later["velocity"][2].as_f64().unwrap();
            assert!(vz.abs() <= 150.0, "{at}: v.z {vz}");
            assert_eq!(later["mode"], "swim", "{at}");
            let surfaced = ticks[250..]
                .iter()
                .any(|t| t["water_level"].as_u64().unwrap() <= 1);
            assert!(surfaced, "{at}: never surfaced");
            assert!(ticks.iter().all(|t| t["stuck"] == false), "{at}");
            let deepest = ticks[..250]
                .iter()
                .map(|t| t["water_level"].as_u64().unwrap())
                .max()
                .unwrap_or(0);
            let surfaced_at = ticks[250..]
                .iter()
                .position(|t| t["water_level"].as_u64().unwrap() <= 1)
                .unwrap_or(0);
            println!(
                "{at}: under at tick {under}, level {deepest} at most, v.z {vz:.1} half a \
                 second later, surfaced {surfaced_at} ticks after jump"
            );
            pools += 1;
        }
    }
    println!("pools checked: {pools}");
    assert!(maps.is_empty() || pools == REAL_MAP_POOLS, "{pools}");
}

/// 600 seeded tick lines: a wish held for 40 ticks, jumps, crouches, now and then an
/// impulse, and some commands of their own duration.
pub(crate) fn seeded_lines(seed: u64) -> Vec<String> {
    let mut rng = crate::support::Pcg32::new(seed);
    let mut wish = [1.0f64, 0.0, 0.0];
    (0..600)
        .map(|tick| {
            if tick % 40 == 0 {
                let a = rng.range_f64(0.0, std::f64::consts::TAU);
                wish = [a.cos(), a.sin(), 0.0];
            }
            let mut line = format!(
                "{{\"wish\":[{},{},{}],\"jump\":{},\"crouch\":{}",
                wish[0],
                wish[1],
                wish[2],
                rng.below(30) == 0,
                rng.below(10) == 0
            );
            if rng.below(50) == 0 {
                line.push_str(",\"impulse\":[150,-80,200]");
            }
            if rng.below(8) == 0 {
                line.push_str(&format!(",\"msec\":{}", 3 + rng.below(20)));
            }
            line.push('}');
            line
        })
        .collect()
}

/// The real-map check: on every shared map, 600 ticks through the replay contract
/// give the same lines, bit for bit, as 300 ticks, the state written out (`--state-out`),
/// read back (`--state-in`) and the other 300.
#[test]
fn a_replay_cut_in_two_by_its_state_equals_the_whole_run() {
    let maps = crate::support::real_maps("a_replay_cut_in_two_by_its_state_equals_the_whole_run");
    let config = ControllerConfig::default();
    let results = crate::support::in_parallel(2, |thread, _| {
        maps.iter()
            .enumerate()
            .skip(thread)
            .step_by(2)
            .map(|(k, (name, path))| {
                let Ok(out) = crate::support::try_compile(&crate::support::read(path)) else {
                    return (name.clone(), None);
                };
                let world = out.map;
                let spawn = world.player_spawns().next().unwrap_or_else(|| {
                    let m = &world.models()[0];
                    glam::Vec3::new(
                        0.5 * (m.mins.x + m.maxs.x),
                        0.5 * (m.mins.y + m.maxs.y),
                        m.maxs.z + 64.0,
                    )
                });
                let ticks = seeded_lines(17 + k as u64);
                let head = format!("{{\"spawn\":[{},{},{}]}}\n", spawn.x, spawn.y, spawn.z);
                let whole = format!("{head}{}\n", ticks.join("\n"));
                let first = format!("{head}{}\n", ticks[..300].join("\n"));
                let second = format!("{}\n", ticks[300..].join("\n"));
                let all = replay_contract::replay_world(&world, config, &whole, None).unwrap();
                let a = replay_contract::replay_world(&world, config, &first, None).unwrap();
                let b =
                    replay_contract::replay_world(&world, config, &second, Some(&a.state)).unwrap();
                (name.clone(), Some((all, a.lines + &b.lines, b.state)))
            })
            .collect::<Vec<_>>()
    });
    let mut checked = 0;
    for (name, result) in results.into_iter().flatten() {
        let Some((all, cut, state)) = result else {
            continue;
        };
        assert_eq!(all.lines.lines().count(), 600, "{name}");
        for (k, (a, b)) in all.lines.lines().zip(cut.lines()).enumerate() {
            assert_eq!(a, b, "{name}: tick {k}");
        }
        assert_eq!(all.state, state, "{name}: the final states");
        checked += 1;
    }
    println!("maps replayed in two: {checked}");
    assert!(
        maps.is_empty() || checked == maps.len(),
        "{checked} of {}",
        maps.len()
    );
}
