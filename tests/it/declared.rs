//! Declared character boxes (`CompileOptions::declared_shapes`): a sweep of a declared box
//! walks the box's own tree and answers exactly as the main trees' walk does, on every
//! shared map (the hand-made and real `.map`s, every real `.bsp`); the options choose the
//! trees; a file of the previous format is refused.

use glam::Vec3;
use planeshift::build::{compile_map_with, import_bsp};
use planeshift::level::{FORMAT_VERSION, MAGIC};
use planeshift::{
    CompileOptions, CompiledMap, Contents, LoadError, QUAKE3_STOP_DISTANCE, TraceShape, compile_map,
};

use crate::support::{Pcg32, box_map, cases, files_in, read, real_maps_dir};
use crate::trace::{property_maps, random_sweep};

/// Sweeps per declared box per map: 60 by default (with about 85 maps and 2 to 4 boxes
/// each, some 18,000 sweeps), 2,000 with `PLANESHIFT_FULL=1` (`support::cases`).
const CASES_PER_BOX: (usize, usize) = (60, 2_000);

/// The longest sweep drawn, in units.
const SWEEP_LENGTH: f32 = 256.0;

/// How far beyond a brush's bounds an aimed sweep may start or end, per axis (units).
const AIM_REACH: f32 = 64.0;

/// Every world the property runs on: the compiled `.map`s, then every real `.bsp` imported.
fn worlds(test: &str) -> Vec<(String, CompiledMap)> {
    let mut out = property_maps(test);
    if let Some(dir) = real_maps_dir(test) {
        for (name, path) in files_in(&dir, "bsp") {
            let world = import_bsp(&read(&path), &CompileOptions::default())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            out.push((name, world.map));
        }
    }
    out
}

fn between(rng: &mut Pcg32, lo: f32, hi: f32) -> f32 {
    rng.range_f64(f64::from(lo), f64::from(hi)) as f32
}

/// A sweep from near a random world brush to a point in or beside it (most of a level's box
/// is open air, where a sweep meets nothing).
fn aimed_sweep(rng: &mut Pcg32, map: &CompiledMap) -> (Vec3, Vec3) {
    let world = &map.models()[0];
    let brushes = &map.brushes()[world.brush_range()];
    if brushes.is_empty() {
        return random_sweep(rng, map, SWEEP_LENGTH);
    }
    let brush = &brushes[rng.below(brushes.len())];
    let mut near = |reach: f32| {
        let (lo, hi) = (brush.mins - reach, brush.maxs + reach);
        Vec3::new(
            between(rng, lo.x, hi.x),
            between(rng, lo.y, hi.y),
            between(rng, lo.z, hi.z),
        )
    };
    let start = near(AIM_REACH);
    let end = near(8.0);
    let length = start.distance(end);
    if length > SWEEP_LENGTH {
        (start, start + (end - start) * (SWEEP_LENGTH / length))
    } else {
        (start, end)
    }
}

#[test]
fn declared_box_sweeps_equal_the_main_trees_on_every_shared_map() {
    let masks = [
        Contents::MASK_PLAYER_SOLID,
        Contents::MASK_ANY_BLOCKING,
        Contents::MASK_SOLID,
    ];
    let per_box = cases(CASES_PER_BOX.0, CASES_PER_BOX.1);
    let (mut sweeps, mut hits, mut maps) = (0usize, 0usize, 0usize);
    let mut all_solid = 0usize;
    for (name, map) in worlds("declared_box_sweeps_equal_the_main_trees_on_every_shared_map") {
        let boxes = map.declared_boxes();
        assert!(boxes.len() >= 2, "{name}: the default boxes are declared");
        let before = map.without_declared();
        assert!(before.declared_boxes().is_empty());
        let mut rng = Pcg32::new(41);
        maps += 1;
        for &(mins, maxs) in &boxes {
            let shape = TraceShape::aabb(mins, maxs).expect("a declared box is a box");
            for case in 0..per_box {
                let (start, end) = if case % 2 == 0 {
                    random_sweep(&mut rng, &map, SWEEP_LENGTH)
                } else {
                    aimed_sweep(&mut rng, &map)
                };
                let mask = masks[case % masks.len()];
                let (now, then) = if case % 4 < 2 {
                    (
                        map.trace(&shape, start, end, mask),
                        before.trace(&shape, start, end, mask),
                    )
                } else {
                    let stop = QUAKE3_STOP_DISTANCE;
                    (
                        map.trace_stopping(&shape, start, end, mask, stop),
                        before.trace_stopping(&shape, start, end, mask, stop),
                    )
                };
                // Bit for bit: fraction, end, plane and normal, contact, contents, solid
                // flags, target, surface and material; an all-solid sweep's contents too,
                // the lowest brush's it is all-solid in whatever the walk
                // (`trace::the_tree_gives_brute_force_results_bit_for_bit`).
                if now.all_solid {
                    assert!(now.contents.intersects(mask), "{name}: {now:?}");
                    all_solid += 1;
                }
                assert_eq!(
                    format!("{now:?}"),
                    format!("{then:?}"),
                    "{name}: box {mins}..{maxs} from {start} to {end}, case {case}"
                );
                sweeps += 1;
                hits += usize::from(now.fraction < 1.0);
            }
        }
    }
    println!(
        "{sweeps} declared-box sweeps on {maps} worlds equal the main trees' ({hits} hit, \
         {all_solid} all-solid)"
    );
    if maps > 0 {
        assert!(
            hits * 4 >= sweeps,
            "most sweeps should meet something: {hits}/{sweeps}"
        );
    }
}

#[test]
fn the_options_choose_the_declared_boxes() {
    let room = box_map(&[([-256.0, -256.0, -16.0], [256.0, 256.0, 0.0], "floor")]);
    let defaults = compile_map(room.as_bytes()).expect("compiles").map;
    let (q3_mins, q3_maxs) = TraceShape::QUAKE3_PLAYER_BOUNDS;
    assert!(defaults.declared_boxes().contains(&(q3_mins, q3_maxs)));
    let none = CompileOptions {
        declared_shapes: Some(Vec::new()),
        ..CompileOptions::default()
    };
    let plain = compile_map_with(room.as_bytes(), &none).expect("compiles");
    assert!(plain.map.declared_boxes().is_empty());
    let giant = (Vec3::new(-40.0, -40.0, -8.0), Vec3::new(40.0, 40.0, 100.0));
    let shapes = vec![
        TraceShape::sphere(16.0).expect("sphere"),
        TraceShape::aabb(giant.0, giant.1).expect("box"),
        TraceShape::aabb(giant.0, giant.1).expect("box"),
    ];
    let chosen = CompileOptions {
        declared_shapes: Some(shapes),
        ..CompileOptions::default()
    };
    let chosen = compile_map_with(room.as_bytes(), &chosen).expect("compiles");
    assert_eq!(chosen.map.declared_boxes(), vec![giant]);
    // The declared box lands on the floor as the undeclared walk does.
    let shape = TraceShape::aabb(giant.0, giant.1).expect("box");
    let down = (Vec3::new(10.0, 20.0, 64.0), Vec3::new(10.0, 20.0, -64.0));
    let a = chosen
        .map
        .trace(&shape, down.0, down.1, Contents::MASK_SOLID);
    let b = plain
        .map
        .trace(&shape, down.0, down.1, Contents::MASK_SOLID);
    assert_eq!(a, b);
    assert!((a.end.z - (8.0 + 1.0 / 32.0)).abs() < 1e-3, "{a:?}");
    // The trees survive the file.
    let reread = CompiledMap::from_bytes(&chosen.map.to_bytes()).expect("reads");
    assert_eq!(reread.declared_boxes(), vec![giant]);
}

#[test]
fn a_file_of_the_format_before_the_declared_trees_is_refused() {
    assert_eq!(FORMAT_VERSION, 8);
    let mut older = MAGIC.to_vec();
    older.extend(postcard::to_allocvec(&7u32).expect("encode"));
    assert_eq!(
        CompiledMap::from_bytes(&older).err(),
        Some(LoadError::VersionMismatch {
            found: 7,
            expected: FORMAT_VERSION
        })
    );
}
