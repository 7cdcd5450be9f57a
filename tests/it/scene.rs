//! The scene query against an independent reference: the world's own sweep and each
//! character's exact shape-to-shape sweep (`TraceShape::trace_against`), taken one by one.
//! Seeded rays and sweeps of every upright shape among 64 characters (a third of them
//! corpses) on `maps/arena.map`: the stop is the nearest of the reference's, the character
//! named is the reference's, `MASK_SHOT` meets corpses and the player mask passes them,
//! the skipped character is never met.

use glam::Vec3;
use planeshift::controller::Bodies;
use planeshift::scene::{HitTarget, QueryFilter, Scene};
use planeshift::{Contents, TraceShape};

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

/// Cases per shape (5 shapes); `PLANESHIFT_CASES` raises it.
fn cases() -> usize {
    std::env::var("PLANESHIFT_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4_000)
}

#[test]
fn scene_traces_equal_the_nearest_of_world_and_characters() {
    let map = world("arena");
    let body =
        TraceShape::aabb(Vec3::new(-15.0, -15.0, -24.0), Vec3::new(15.0, 15.0, 32.0)).expect("box");
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
        TraceShape::aabb(Vec3::new(-15.0, -15.0, -24.0), Vec3::new(15.0, 15.0, 32.0)).expect("box"),
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
                    assert!(got.trace.end.distance(want_end) < 1e-3, "case {case}");
                    assert!(Some(id) != skip);
                    hit_characters += 1;
                    if placed[id as usize].2 == Contents::CORPSE {
                        assert_eq!(mask, Contents::MASK_SHOT, "only shots meet corpses");
                        hit_corpses += 1;
                    }
                }
                None => {
                    assert_eq!(got.trace.fraction, world_only.fraction, "case {case}");
                    assert_eq!(got.trace.end, world_only.end, "case {case}");
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
