//! Trigger volumes: every trigger brush of the shared real maps and the bundled ones is found
//! by the touch query at points inside it and not at points 1 unit outside it, for a point
//! and for Quake's player box; and no sweep is ever blocked by a trigger.

use glam::{DVec3, Vec3};
use planeshift::Contents;
use planeshift::map::{parse_map, write_map};
use planeshift::{CompiledMap, compiled::wide};
use planeshift::{ModelPlacement, TraceShape};

use crate::support::{Pcg32, bundled_maps, compile, in_parallel, read, real_maps};

/// Sweeps through each trigger model per map in the never-blocked test.
const SWEEPS_PER_TRIGGER: usize = 40;

/// What [`check_triggers`] counted on one map.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    triggers: usize,
    brushes: usize,
    inside: usize,
    outside: usize,
    /// Outside samples not asserted: the placed shape reaches the bounds of another brush
    /// of the same trigger, so touching it there would be right.
    outside_skipped: usize,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        self.triggers += o.triggers;
        self.brushes += o.brushes;
        self.inside += o.inside;
        self.outside += o.outside;
        self.outside_skipped += o.outside_skipped;
    }
}

fn player_box() -> TraceShape {
    TraceShape::quake1_player()
}

/// The trigger models of `map`: the models of `trigger_*` entities.
fn trigger_models(map: &CompiledMap) -> Vec<usize> {
    map.entities()
        .filter(|e| e.classname().starts_with("trigger_"))
        .filter_map(|e| e.model())
        .collect()
}

/// Samples every brush of every trigger model of `map` with `shape`: inside (the corners'
/// centroid, and nine tenths of the way from it toward each corner) the model must be
/// touched; 1 unit outside each face (from the face's centroid along its normal, plus the
/// shape's support toward the face) it must not be, unless the shape reaches another brush
/// of the same model there.
fn check_triggers(name: &str, map: &CompiledMap, shape: &TraceShape) -> Counts {
    let mut counts = Counts::default();
    let (low, high) = shape.bounds();
    for model in trigger_models(map) {
        counts.triggers += 1;
        let range = map.models()[model].brush_range();
        assert!(
            !range.is_empty(),
            "{name}: trigger model {model} has brushes"
        );
        for brush in range.clone() {
            assert_eq!(map.brushes()[brush].contents, Contents::TRIGGER, "{name}");
            counts.brushes += 1;
            let features = map.brush_features(brush).expect("features");
            let corners = features.corners;
            let centroid = corners.iter().sum::<DVec3>() / corners.len() as f64;
            let inside = std::iter::once(centroid)
                .chain(corners.iter().map(|c| centroid + (c - centroid) * 0.9));
            for p in inside {
                let at = p.as_vec3();
                let touched: Vec<usize> = map.touching_triggers(shape, at).collect();
                assert!(
                    touched.contains(&model),
                    "{name}: model {model} brush {brush} not touched at {at} inside it ({touched:?})"
                );
                counts.inside += 1;
            }
            for (normal, dist, _) in features.planes.iter().map(wide) {
                let on_face: Vec<&DVec3> = corners
                    .iter()
                    .filter(|c| (normal.dot(**c) - dist).abs() <= features.eps)
                    .collect();
                assert!(on_face.len() >= 3, "{name}: a face with its corners");
                let face = on_face.iter().copied().sum::<DVec3>() / on_face.len() as f64;
                let support = f64::from(shape.support_distance(-normal.as_vec3()));
                let at = (face + normal * (1.0 + support)).as_vec3();
                let reaches_another = range.clone().filter(|&b| b != brush).any(|b| {
                    let other = &map.brushes()[b];
                    (at + low).cmple(other.maxs + 0.5).all()
                        && (other.mins - 0.5).cmple(at + high).all()
                });
                if reaches_another {
                    counts.outside_skipped += 1;
                    continue;
                }
                assert!(
                    !map.touching_triggers(shape, at).any(|m| m == model),
                    "{name}: model {model} brush {brush} touched at {at}, 1 unit outside"
                );
                counts.outside += 1;
            }
        }
    }
    counts
}

/// Every map with its compiled world, split between two threads.
fn for_every_map<T: Send>(test: &str, f: impl Fn(&str, &[u8]) -> T + Sync) -> Vec<(String, T)> {
    let maps: Vec<_> = bundled_maps().into_iter().chain(real_maps(test)).collect();
    in_parallel(2, |thread, _| {
        maps.iter()
            .skip(thread)
            .step_by(2)
            .map(|(name, path)| (name.clone(), f(name, &read(path))))
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect()
}

#[test]
fn every_trigger_volume_is_found_inside_and_not_outside() {
    let results = for_every_map(
        "every_trigger_volume_is_found_inside_and_not_outside",
        |name, src| {
            let map = compile(src).map;
            let map = CompiledMap::from_bytes(&map.to_bytes()).expect("loads");
            (
                check_triggers(name, &map, &TraceShape::point()),
                check_triggers(name, &map, &player_box()),
            )
        },
    );
    let (mut point, mut player) = (Counts::default(), Counts::default());
    let mut maps_with_triggers = 0;
    for (name, (p, b)) in &results {
        if p.triggers > 0 {
            maps_with_triggers += 1;
            println!(
                "{name}: {} triggers, {} brushes; point: {} inside found, {} outside not found ({} skipped); box: {} inside found, {} outside not found ({} skipped)",
                p.triggers,
                p.brushes,
                p.inside,
                p.outside,
                p.outside_skipped,
                b.inside,
                b.outside,
                b.outside_skipped
            );
        }
        point += *p;
        player += *b;
    }
    println!(
        "all {} maps ({maps_with_triggers} with triggers): {} triggers, {} brushes; point {point:?}; box {player:?}",
        results.len(),
        point.triggers,
        point.brushes
    );
    assert!(point.triggers > 0 && point.outside > 0 && player.outside > 0);
}

/// The map without its trigger entities, as `.map` text.
fn without_triggers(src: &[u8]) -> String {
    let mut parsed = parse_map(src).expect("parses");
    parsed
        .entities
        .retain(|e| !e.classname().starts_with("trigger_"));
    write_map(&parsed)
}

/// Seeded sweeps through the trigger volumes of every map: the world answers exactly as the
/// same map compiled without its trigger entities, and the trigger models themselves never
/// stop a sweep under a blocking mask.
#[test]
fn no_sweep_is_ever_blocked_by_a_trigger() {
    let results = for_every_map("no_sweep_is_ever_blocked_by_a_trigger", |name, src| {
        let map = compile(src).map;
        let triggers = trigger_models(&map);
        if triggers.is_empty() {
            return 0;
        }
        let bare = compile(without_triggers(src).as_bytes()).map;
        let shapes = [
            TraceShape::point(),
            player_box(),
            TraceShape::sphere(16.0).expect("sphere"),
            TraceShape::capsule(15.0, 13.0).expect("capsule"),
        ];
        let mut rng = Pcg32::new(0x7419_9e12);
        let mut sweeps = 0;
        for &model in &triggers {
            let m = &map.models()[model];
            let (lo, hi) = (m.mins - 48.0, m.maxs + 48.0);
            let point = |rng: &mut Pcg32| {
                Vec3::new(
                    rng.range_f64(f64::from(lo.x), f64::from(hi.x)) as f32,
                    rng.range_f64(f64::from(lo.y), f64::from(hi.y)) as f32,
                    rng.range_f64(f64::from(lo.z), f64::from(hi.z)) as f32,
                )
            };
            for i in 0..SWEEPS_PER_TRIGGER {
                let shape = &shapes[i % shapes.len()];
                let (start, end) = (point(&mut rng), point(&mut rng));
                for mask in Contents::BLOCKING_MASKS {
                    let with = map.trace(shape, start, end, mask);
                    let without = bare.trace(shape, start, end, mask);
                    assert_eq!(
                        (with.fraction, with.end, with.start_solid, with.normal),
                        (
                            without.fraction,
                            without.end,
                            without.start_solid,
                            without.normal
                        ),
                        "{name}: trigger {model}"
                    );
                    let through =
                        map.trace_model(model, &ModelPlacement::default(), shape, start, end, mask);
                    assert!(
                        !through.hit() && !through.start_solid,
                        "{name}: trigger {model} blocked a sweep: {through:?}"
                    );
                    sweeps += 1;
                }
            }
        }
        sweeps
    });
    let sweeps: usize = results.iter().map(|(_, s)| s).sum();
    println!("{sweeps} sweeps through trigger volumes, none blocked");
    assert!(sweeps > 0);
}

/// `models_overlapping` is the bounds test, and the touch query reports only trigger models.
#[test]
fn area_queries_on_the_arena() {
    let path = bundled_maps()
        .into_iter()
        .find(|(name, _)| name.contains("arena"))
        .expect("arena.map")
        .1;
    let map = compile(&read(&path)).map;
    let trigger = map
        .find_entities("trigger_multiple")
        .find_map(|e| e.model())
        .expect("the arena's trigger");
    let m = &map.models()[trigger];
    let inside: Vec<usize> = map.models_overlapping(m.mins, m.maxs).collect();
    assert!(inside.contains(&trigger));
    let far = Vec3::splat(-100_000.0);
    assert_eq!(map.models_overlapping(far, far).count(), 0);
    let brushes: Vec<usize> = map.brushes_overlapping(trigger, m.mins, m.maxs).collect();
    assert_eq!(
        brushes,
        map.models()[trigger].brush_range().collect::<Vec<_>>()
    );
    assert_eq!(map.brushes_overlapping(99, m.mins, m.maxs).count(), 0);
    // The door's box overlaps its model, but the door is no trigger.
    let door = map
        .find_entities("func_door")
        .find_map(|e| e.model())
        .expect("door");
    let d = &map.models()[door];
    let centre = (d.mins + d.maxs) * 0.5;
    assert!(map.models_overlapping(centre, centre).any(|k| k == door));
    assert!(
        !map.touching_triggers(&TraceShape::point(), centre)
            .any(|k| k == door)
    );
    // The world never reports the trigger bit at the trigger (it is its own model), and a
    // character walks through it.
    let centre = (m.mins + m.maxs) * 0.5;
    assert!(!map.point_contents(centre).intersects(Contents::TRIGGER));
    assert_eq!(
        map.leaf_at(trigger, centre).map(|l| l.contents),
        Some(Contents::TRIGGER)
    );
}

/// A character runs through the arena's trigger_multiple exactly as it runs where the map
/// has no trigger, and the touch query sees it inside on the way.
#[test]
fn a_character_runs_through_a_trigger_as_through_air() {
    let path = bundled_maps()
        .into_iter()
        .find(|(name, _)| name.contains("arena"))
        .expect("arena.map")
        .1;
    let src = read(&path);
    let map = compile(&src).map;
    let bare = compile(without_triggers(&src).as_bytes()).map;
    let trigger = map
        .find_entities("trigger_multiple")
        .find_map(|e| e.model())
        .expect("the arena's trigger");
    let m = &map.models()[trigger];
    let start = Vec3::new((m.mins.x + m.maxs.x) * 0.5, m.mins.y - 96.0, m.mins.z);
    let mut with = crate::controller::player(start);
    let mut without = crate::controller::player(start);
    let input = crate::controller::run(Vec3::Y);
    let mut ticks_inside = 0;
    for tick in 0..120 {
        with.step(&map, &input);
        without.step(&bare, &input);
        // The same movement; only the set of triggers the character is in differs.
        let mut moved = with.state().clone();
        moved.triggers = Default::default();
        assert_eq!(&moved, without.state(), "tick {tick}");
        let inside = map
            .touching_triggers(with.shape(), with.shape_center())
            .any(|k| k == trigger);
        assert_eq!(
            with.state().triggers.contains(trigger),
            inside,
            "tick {tick}"
        );
        if inside {
            ticks_inside += 1;
        }
    }
    assert!(
        with.position().y > m.maxs.y,
        "ran through: {}",
        with.position()
    );
    assert!(ticks_inside > 10, "{ticks_inside} ticks inside the trigger");
}

/// Quake 3 ground truth: q3map2's `.bsp` of each OpenArena map keeps every trigger as a
/// model of brushes (`common/trigger`). Pairing the k-th trigger entity of the `.bsp` with
/// the k-th of the `.map`, random points around each trigger are touched by the query
/// exactly when they lie inside one of the `.bsp` model's brushes (points within 0.01 of a
/// plane, where f32 planes may round either way, are left out).
#[test]
fn trigger_volumes_match_q3map2s_trigger_models() {
    use crate::support::q3bsp::Q3Bsp;
    let Some(dir) = crate::support::real_maps_dir("trigger_volumes_match_q3map2s_trigger_models")
    else {
        return;
    };
    let dir = dir.join("openarena-lostlevels");
    let mut bsps: Vec<_> = std::fs::read_dir(&dir)
        .expect("the OpenArena folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "bsp"))
        .collect();
    bsps.sort();
    assert!(!bsps.is_empty());
    let point = TraceShape::point();
    let (mut triggers, mut inside, mut outside) = (0, 0, 0);
    for path in &bsps {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let bsp = Q3Bsp::parse(&read(path)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let map = compile(&read(&path.with_extension("map"))).map;
        let ours: Vec<usize> = trigger_models(&map);
        let theirs: Vec<usize> = bsp
            .entities
            .iter()
            .filter(|e| e.classname().starts_with("trigger_"))
            .filter_map(|e| e.get("model")?.strip_prefix('*')?.parse().ok())
            .collect();
        assert_eq!(ours.len(), theirs.len(), "{name}: trigger models");
        let mut rng = Pcg32::new(0x51_7a2e);
        for (&model, &k) in ours.iter().zip(&theirs) {
            triggers += 1;
            let q = &bsp.models[k];
            let brushes = &bsp.brushes[q.first_brush..q.first_brush + q.num_brushes];
            for _ in 0..200 {
                let p: [f64; 3] = std::array::from_fn(|a| {
                    rng.range_f64(f64::from(q.mins[a]) - 8.0, f64::from(q.maxs[a]) + 8.0)
                });
                let distances = |b: &crate::support::q3bsp::Q3Brush| {
                    bsp.brush_sides[b.first_side..b.first_side + b.num_sides]
                        .iter()
                        .map(|s| bsp.planes[s.plane].distance(p))
                        .collect::<Vec<f64>>()
                };
                let near = brushes.iter().any(|b| {
                    distances(b).iter().all(|&d| d < 0.01)
                        && distances(b).iter().any(|d| d.abs() < 0.01)
                });
                if near {
                    continue;
                }
                let expected = brushes
                    .iter()
                    .any(|b| distances(b).iter().all(|&d| d <= 0.0));
                let at = Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32);
                let found = map.touching_triggers(&point, at).any(|m| m == model);
                assert_eq!(
                    found, expected,
                    "{name}: trigger *{k} (our model {model}) at {at}"
                );
                if expected {
                    inside += 1;
                } else {
                    outside += 1;
                }
            }
        }
    }
    println!(
        "{} .bsp files, {triggers} trigger models: {inside} points inside touched, {outside} outside not",
        bsps.len()
    );
    assert!(inside > 0 && outside > 0);
}
