//! The scene query against an independent reference: the world's own sweep and each
//! character's exact shape-to-shape sweep (`TraceShape::trace_against`), taken one by one.
//! Seeded rays and sweeps of every upright shape among 64 characters (a third of them
//! corpses) on `maps/arena.map`: the stop is the nearest of the reference's, the character
//! named is the reference's, `MASK_SHOT` meets corpses and the player mask passes them,
//! the skipped character is never met.

use glam::Vec3;
use planeshift::HitTarget;
use planeshift::movement::Bodies;
use planeshift::{Contents, TraceShape};
use planeshift::{QueryFilter, Scene};

use crate::controller::world;

/// A xorshift64 for the seeded cases.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
    fn point(&mut self, low: Vec3, high: Vec3) -> Vec3 {
        low + (high - low) * Vec3::new(self.unit(), self.unit(), self.unit())
    }
}

/// Cases per shape (5 shapes), with and without `PLANESHIFT_FULL` (`support::cases`).
fn cases() -> usize {
    crate::support::cases(4_000, 4_000)
}

#[test]
fn scene_traces_equal_the_nearest_of_world_and_characters() {
    let map = world("arena");
    let body = TraceShape::quake3_player();
    let mut rng = Rng(0x5ce7e25);
    let mut bodies = Bodies::new();
    let mut placed = Vec::new();
    for id in 0..64u32 {
        let at = rng.point(
            Vec3::new(200.0, 200.0, 24.0),
            Vec3::new(1800.0, 1800.0, 200.0),
        );
        bodies.insert(id, &body, at);
        let contents = if id % 3 == 0 {
            Contents::CORPSE
        } else {
            Contents::BODY
        };
        bodies.set_contents(id, contents);
        placed.push((id, at, contents));
    }
    let scene = Scene {
        map,
        movers: &[],
        bodies: &bodies,
    };
    let shapes = [
        TraceShape::point(),
        TraceShape::sphere(12.0).expect("sphere"),
        TraceShape::cylinder(14.0, 20.0).expect("cylinder"),
        TraceShape::capsule(10.0, 24.0).expect("capsule"),
        TraceShape::quake3_player(),
    ];
    let (mut checked, mut hit_characters, mut hit_corpses) = (0, 0, 0);
    for shape in &shapes {
        for case in 0..cases() {
            let start = rng.point(
                Vec3::new(100.0, 100.0, 30.0),
                Vec3::new(1900.0, 1900.0, 400.0),
            );
            let end = start + (rng.point(Vec3::splat(-1.0), Vec3::splat(1.0)) * 1200.0);
            let mask = if case % 2 == 0 {
                Contents::MASK_SHOT
            } else {
                Contents::MASK_PLAYER_SOLID
            };
            let skip = (case % 5 == 0).then_some((case % 64) as u32);
            let mut filter = QueryFilter::new(mask);
            if let Some(id) = skip {
                filter = filter.skip_character(id);
            }
            // The reference: the world, then each character alone.
            let world_only = map.trace(shape, start, end, mask);
            let mut nearest: Option<(f32, u32)> = None;
            let mut starts_inside = world_only.start_solid;
            for &(id, at, contents) in &placed {
                if Some(id) == skip || !contents.intersects(mask) {
                    continue;
                }
                let t = shape.trace_against(start, end, &body, at);
                starts_inside |= t.start_solid;
                if t.fraction < 1.0 && nearest.is_none_or(|(f, _)| t.fraction < f) {
                    nearest = Some((t.fraction, id));
                }
            }
            if starts_inside {
                continue;
            }
            checked += 1;
            let got = scene.trace(shape, start, end, &filter);
            let want_character = nearest.filter(|&(f, _)| f < world_only.fraction);
            match want_character {
                Some((fraction, id)) => {
                    assert_eq!(got.target, Some(HitTarget::Character(id)), "case {case}");
                    let want_end = start + (end - start) * fraction;
                    assert!(got.end.distance(want_end) < 1e-3, "case {case}");
                    assert!(Some(id) != skip);
                    hit_characters += 1;
                    if placed[id as usize].2 == Contents::CORPSE {
                        assert_eq!(mask, Contents::MASK_SHOT, "only shots meet corpses");
                        hit_corpses += 1;
                    }
                }
                None => {
                    assert_eq!(got.fraction, world_only.fraction, "case {case}");
                    assert_eq!(got.end, world_only.end, "case {case}");
                    let want = (world_only.fraction < 1.0).then_some(HitTarget::World);
                    if want.is_some() {
                        assert!(
                            matches!(got.target, Some(HitTarget::World | HitTarget::Model(_))),
                            "case {case}"
                        );
                    } else {
                        assert_eq!(got.target, None, "case {case}");
                    }
                }
            }
        }
    }
    println!(
        "scene: {checked} sweeps checked, {hit_characters} hit characters, {hit_corpses} corpses"
    );
    assert!(checked > shapes.len() * cases() / 2, "{checked}");
    assert!(hit_characters > checked / 50 && hit_corpses > 0);
}

/// The real maps the scene suite runs on: four of the shared levels, spread over the
/// sorted list (Quake 1 and Quake 3 both), each with 64 characters.
fn scene_maps() -> Vec<(String, planeshift::CompiledMap)> {
    let all = crate::support::real_maps("scene_queries_on_real_maps");
    let picks = 4.min(all.len());
    (0..picks)
        .filter_map(|i| all.get(i * all.len() / picks))
        .map(|(name, path)| {
            (
                name.clone(),
                crate::support::compile(&crate::support::read(path)).map,
            )
        })
        .collect()
}

/// The character shapes the suite places: the player box and round ones.
fn body_shapes() -> [TraceShape; 3] {
    [
        TraceShape::quake3_player(),
        TraceShape::cylinder(16.0, 28.0).expect("cylinder"),
        TraceShape::capsule(14.0, 16.0).expect("capsule"),
    ]
}

/// Total scene queries (rays and sweeps of every shape, half of them rotated) over the
/// maps, of which about nine in ten start clear and are checked, with and without
/// `PLANESHIFT_FULL` (`support::cases`).
fn scene_cases() -> usize {
    crate::support::cases(120_000, 120_000)
}

#[test]
fn scene_queries_on_real_maps_with_64_characters() {
    use crate::support::{Pcg32, in_parallel};
    use crate::trace::{KINDS, ShapeParams};
    use glam::Quat;
    use planeshift::tolerance::SURFACE_CLIP_EPSILON;
    let maps = scene_maps();
    if maps.is_empty() {
        return;
    }
    let per_map = scene_cases() / maps.len();
    let shapes = body_shapes();
    let mut totals = [0usize; 5];
    for (m, (name, map)) in maps.iter().enumerate() {
        // 64 characters in open space: a seeded point inside the level's bounds where the
        // body overlaps nothing and the point is empty.
        let mut rng = Pcg32::new(0x5ce_0000 + m as u64);
        let world = &map.models()[0];
        let mut placed = Vec::new();
        let mut bodies = Bodies::new();
        let mut tries = 0;
        while placed.len() < 64 && tries < 200_000 {
            tries += 1;
            let at = Vec3::new(
                rng.range_f64(world.mins.x.into(), world.maxs.x.into()) as f32,
                rng.range_f64(world.mins.y.into(), world.maxs.y.into()) as f32,
                rng.range_f64(world.mins.z.into(), world.maxs.z.into()) as f32,
            );
            let id = placed.len() as u32;
            let shape = &shapes[id as usize % shapes.len()];
            if map.overlaps(shape, at, Contents::MASK_ANY_BLOCKING)
                || !map.point_contents(at).is_empty()
                || placed
                    .iter()
                    .any(|&(_, p, s, _): &(u32, Vec3, usize, Contents)| {
                        shapes[s].overlaps_rotated(Quat::IDENTITY, p, shape, at)
                    })
            {
                continue;
            }
            let contents = if id.is_multiple_of(4) {
                Contents::CORPSE
            } else {
                Contents::BODY
            };
            bodies.insert(id, shape, at);
            bodies.set_contents(id, contents);
            placed.push((id, at, id as usize % shapes.len(), contents));
        }
        assert_eq!(placed.len(), 64, "{name}: room for 64 characters");
        let scene = Scene {
            map,
            movers: &[],
            bodies: &bodies,
        };
        let counts = in_parallel(per_map, |thread, count| {
            let mut rng = Pcg32::new(0x5ce_1000 + 16 * m as u64 + thread as u64);
            let mut through = Vec::new();
            let mut counts = [0usize; 5];
            for case in 0..count {
                let kind = KINDS[case % KINDS.len()];
                let params = ShapeParams::random(&mut rng, kind);
                let shape = params.shape();
                let rotation = if case % 2 == 0 {
                    Quat::IDENTITY
                } else {
                    crate::trace_orient::random_rotation(&mut rng)
                };
                // Aimed near a character so that many queries meet one.
                let (_, target, _, _) = placed[rng.below(placed.len())];
                let start = target
                    + Vec3::new(
                        rng.range_f64(-400.0, 400.0) as f32,
                        rng.range_f64(-400.0, 400.0) as f32,
                        rng.range_f64(-120.0, 120.0) as f32,
                    );
                let aim = target
                    + Vec3::new(
                        rng.range_f64(-40.0, 40.0) as f32,
                        rng.range_f64(-40.0, 40.0) as f32,
                        rng.range_f64(-40.0, 40.0) as f32,
                    );
                let end = start + (aim - start) * rng.range_f64(0.5, 2.0) as f32;
                let mask = if case % 3 == 0 {
                    Contents::MASK_PLAYER_SOLID
                } else {
                    Contents::MASK_SHOT
                };
                let skip = (case % 5 == 0).then(|| rng.below(64) as u32);
                let mut filter = QueryFilter::new(mask);
                if let Some(id) = skip {
                    filter = filter.skip_character(id);
                }
                // The reference: the world's sweep, then each character alone.
                let world_only = map.trace_rotated(&shape, rotation, start, end, mask);
                let mut hits: Vec<(f32, u32)> = Vec::new();
                let mut starts_inside = world_only.start_solid;
                for &(id, at, s, contents) in &placed {
                    if Some(id) == skip || !contents.intersects(mask) {
                        continue;
                    }
                    let t = shape.trace_against_rotated(rotation, start, end, &shapes[s], at);
                    starts_inside |= t.start_solid;
                    if t.fraction < 1.0 {
                        hits.push((t.fraction, id));
                    }
                }
                if starts_inside {
                    continue;
                }
                counts[0] += 1;
                hits.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                let got = scene.trace_rotated(&shape, rotation, start, end, &filter);
                let length = (end - start).length().max(f32::MIN_POSITIVE);
                // Fractions closer than this are a tie within the stop distance.
                let tie = 2.0 * SURFACE_CLIP_EPSILON / length;
                let label = format!("{name} case {case} {params:?} {rotation:?}");
                let nearest = hits
                    .first()
                    .copied()
                    .filter(|&(f, _)| f < world_only.fraction);
                let want_fraction = nearest.map_or(world_only.fraction, |(f, _)| f);
                assert!(
                    (got.fraction - want_fraction).abs() * length <= SURFACE_CLIP_EPSILON,
                    "{label}: stop {} want {want_fraction}",
                    got.fraction
                );
                match (nearest, got.target) {
                    (Some((f, id)), Some(HitTarget::Character(k))) => {
                        if k != id {
                            let other = hits.iter().find(|h| h.1 == k).map(|h| h.0);
                            assert!(
                                other.is_some_and(|g| (g - f).abs() <= tie),
                                "{label}: named {k}, nearest {id}"
                            );
                        }
                        assert!(Some(k) != skip, "{label}: the skipped character");
                        counts[1] += 1;
                        if placed[k as usize].3 == Contents::CORPSE {
                            assert_eq!(
                                mask,
                                Contents::MASK_SHOT,
                                "{label}: only shots meet corpses"
                            );
                            counts[2] += 1;
                        }
                    }
                    (Some((f, _)), other) => assert!(
                        (world_only.fraction - f).abs() <= tie,
                        "{label}: want a character, got {other:?}"
                    ),
                    (None, Some(HitTarget::Character(k))) => {
                        let f = hits.iter().find(|h| h.1 == k).map(|h| h.0);
                        assert!(
                            f.is_some_and(|f| (f - world_only.fraction).abs() <= tie),
                            "{label}: named {k} behind the world"
                        );
                    }
                    (None, target) => {
                        assert_eq!(
                            target.is_some(),
                            world_only.fraction < 1.0,
                            "{label}: {target:?}"
                        );
                    }
                }
                // Penetration: every character before the world, in order, then the world.
                if rotation == Quat::IDENTITY && case % 4 == 0 {
                    scene.trace_through(&shape, start, end, &filter, &mut through);
                    let before: Vec<u32> = hits
                        .iter()
                        .filter(|h| h.0 < world_only.fraction - tie)
                        .map(|h| h.1)
                        .collect();
                    let listed: Vec<u32> = through
                        .iter()
                        .filter_map(|h| match h.target {
                            Some(HitTarget::Character(k)) => Some(k),
                            _ => None,
                        })
                        .collect();
                    for id in &before {
                        assert!(listed.contains(id), "{label}: penetration misses {id}");
                    }
                    assert!(
                        through.windows(2).all(|w| w[0].fraction <= w[1].fraction),
                        "{label}: penetration out of order"
                    );
                    counts[3] += 1;
                    counts[4] += listed.len();
                }
            }
            counts
        });
        for c in counts {
            for (t, n) in totals.iter_mut().zip(c) {
                *t += n;
            }
        }
    }
    println!(
        "scene on {} real maps ({}): {} queries checked, {} hit characters ({} corpses), {} penetrating rays listing {} characters",
        maps.len(),
        maps.iter()
            .map(|m| m.0.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        totals[0],
        totals[1],
        totals[2],
        totals[3],
        totals[4]
    );
    assert!(totals[0] > scene_cases() / 2, "{totals:?}");
    assert!(totals[1] > totals[0] / 20 && totals[2] > 0, "{totals:?}");
}

#[test]
fn an_explosion_among_200_characters_reaches_all_of_them() {
    use crate::support::Pcg32;
    use planeshift::level::ModelKind;
    use planeshift::query::{AREA_DISTANCE_TOLERANCE, AreaHit};
    let map = world("arena");
    let shapes = body_shapes();
    let mut rng = Pcg32::new(200);
    let mut bodies = Bodies::new();
    let mut placed = Vec::new();
    for id in 0..200u32 {
        let at = Vec3::new(
            rng.range_f64(300.0, 1700.0) as f32,
            rng.range_f64(300.0, 1700.0) as f32,
            rng.range_f64(24.0, 120.0) as f32,
        );
        let s = id as usize % shapes.len();
        bodies.insert(id, &shapes[s], at);
        if id % 7 == 0 {
            bodies.set_contents(id, Contents::CORPSE);
        }
        placed.push((id, at, s));
    }
    let scene = Scene {
        map,
        movers: &[],
        bodies: &bodies,
    };
    // The distance from `p` to each character's shape, in closed form.
    let distance = |p: Vec3, at: Vec3, s: usize| -> f32 {
        let d = p - at;
        match s {
            0 => {
                let (lo, hi) = TraceShape::QUAKE3_PLAYER_BOUNDS;
                (d - d.clamp(lo, hi)).length()
            }
            1 => {
                let across = (d.truncate().length() - 16.0).max(0.0);
                let up = (d.z.abs() - 28.0).max(0.0);
                (across * across + up * up).sqrt()
            }
            _ => {
                let on_axis = Vec3::new(0.0, 0.0, d.z.clamp(-16.0, 16.0));
                ((d - on_axis).length() - 14.0).max(0.0)
            }
        }
    };
    let filter = QueryFilter::new(Contents::MASK_SHOT | Contents::TRIGGER);
    let mut hits: Vec<AreaHit> = Vec::with_capacity(256);
    let (mut blasts, mut reached, mut models) = (0, 0, 0);
    for _ in 0..400 {
        let centre = Vec3::new(
            rng.range_f64(200.0, 1800.0) as f32,
            rng.range_f64(200.0, 1800.0) as f32,
            rng.range_f64(0.0, 200.0) as f32,
        );
        let radius = rng.range_f64(40.0, 400.0) as f32;
        let sphere = TraceShape::sphere(radius).expect("sphere");
        scene.overlapping(&sphere, centre, &filter, &mut hits);
        blasts += 1;
        // Characters: all and only those within the radius, with their distances.
        let mut want: Vec<(u32, f32)> = placed
            .iter()
            .map(|&(id, at, s)| (id, distance(centre, at, s)))
            .filter(|&(_, d)| d <= radius)
            .collect();
        want.sort_by_key(|w| w.0);
        let got: Vec<(u32, f32)> = hits
            .iter()
            .filter_map(|h| match h.target {
                HitTarget::Character(id) => Some((id, h.distance)),
                _ => None,
            })
            .collect();
        // A character whose distance is within rounding of the radius may go either way.
        let borderline = |id: u32| {
            want.iter()
                .chain(&got)
                .all(|w| w.0 != id || (w.1 - radius).abs() > 1e-3)
        };
        let want_ids: Vec<u32> = want
            .iter()
            .map(|w| w.0)
            .filter(|&id| borderline(id))
            .collect();
        let got_ids: Vec<u32> = got
            .iter()
            .map(|w| w.0)
            .filter(|&id| borderline(id))
            .collect();
        assert_eq!(got_ids, want_ids, "blast at {centre} radius {radius}");
        for (id, d) in &got {
            let exact = distance(centre, placed[*id as usize].1, placed[*id as usize].2);
            assert!((d - exact).abs() <= 1e-3, "character {id}: {d} vs {exact}");
        }
        reached += got.len();
        // Models: exactly those a sphere of the radius overlaps, each with a distance that
        // a sphere just larger overlaps and one just smaller does not.
        for (k, model) in map.models().iter().enumerate().skip(1) {
            if model.kind == ModelKind::Mover {
                continue;
            }
            let placement = planeshift::ModelPlacement::default();
            let overlapping = |r: f32| {
                let probe = TraceShape::sphere(r).map_or(TraceShape::point(), |s| s);
                map.trace_model(k, &placement, &probe, centre, centre, filter.mask)
                    .start_solid
            };
            let hit = hits.iter().find(|h| h.target == HitTarget::Model(k));
            assert_eq!(hit.is_some(), overlapping(radius), "model {k} at {centre}");
            if let Some(hit) = hit {
                models += 1;
                let slack = 2.0 * AREA_DISTANCE_TOLERANCE;
                assert!(
                    overlapping(hit.distance + slack),
                    "model {k}: {}",
                    hit.distance
                );
                assert!(
                    hit.distance <= slack || !overlapping(hit.distance - slack),
                    "model {k}: {}",
                    hit.distance
                );
                if model.kind == ModelKind::Trigger {
                    let touched: Vec<usize> = map.touching_triggers(&sphere, centre).collect();
                    assert!(touched.contains(&k), "trigger {k}");
                }
            }
        }
    }
    println!("explosions: {blasts} blasts reached {reached} characters and {models} models");
    assert!(reached > blasts * 5 && models > 0, "{reached} {models}");
}
