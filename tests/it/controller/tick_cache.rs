//! The tick cache (issue 18): ticks that sweep the brushes gathered around the character
//! give the same states, bit for bit, as ticks that walk the tree for every sweep; most of
//! a tick's sweeps do read the cache; a sweep beyond what was gathered walks the tree and
//! still gives the tree's answer.
//!
//! Takes real maps under `$PLANESHIFT_REAL_MAPS` (e1m2, dm4, kaos with its curved-patch
//! facets; skipped with a message when missing) and the bundled `platforms.map` with its
//! movers moving.

use glam::{Quat, Vec3};
use planeshift::CompiledMap;
use planeshift::Contents;
use planeshift::trace::TickCache;
use planeshift::{
    CharacterController, ControllerConfig, MoveInput,
    movement::{Mover, Tracer, WorldWithMovers},
};
use planeshift::{ModelPlacement, TraceShape};

/// What blocks a player: the mask the tests gather and sweep with.
const PLAYER: Contents = Contents::MASK_PLAYER_SOLID;

use super::*;
use crate::support::{Pcg32, read, real_maps_dir};

/// Bots per map and ticks per bot.
const BOTS: usize = 64;
const TICKS: usize = 500;

/// Seeded inputs, each held 10 to 109 ticks as a player would: running, walking or
/// standing, jumping and crouching now and then.
fn inputs(seed: u64) -> Vec<MoveInput> {
    held_inputs(seed, TICKS, 6, (10, 100))
}

/// The bots, spawned at the map's player spawns in turn.
fn bots(map: &CompiledMap) -> Vec<CharacterController> {
    let spawns: Vec<Vec3> = map.player_spawns().collect();
    assert!(!spawns.is_empty(), "no spawn point");
    (0..BOTS)
        .map(|i| {
            let at = spawns[i % spawns.len()] + Vec3::Z;
            CharacterController::new(ControllerConfig::default(), at).unwrap()
        })
        .collect()
}

/// Bits of every state, (sweeps cached, walked), (ticks gathered, kept).
type Replay = (Vec<[u32; 6]>, (u64, u64), (u64, u64));

/// `world(tick, f)` calls `f` with the world of tick `tick`.
type Worlds<'a> = &'a dyn Fn(usize, &mut dyn FnMut(&dyn Tracer));

/// Every bot's position and velocity after every tick, as bits, the sweeps that read the
/// cache and those that walked the tree, and the ticks that gathered and those that kept
/// an earlier tick's gather.
fn run(mut bots: Vec<CharacterController>, cached: bool, world: Worlds<'_>) -> Replay {
    let inputs: Vec<Vec<MoveInput>> = (0..bots.len()).map(|i| inputs(1800 + i as u64)).collect();
    for bot in &mut bots {
        bot.set_tick_cache(cached);
    }
    let mut out = Vec::with_capacity(bots.len() * TICKS);
    for tick in 0..TICKS {
        world(tick, &mut |world| {
            for (bot, inputs) in bots.iter_mut().zip(&inputs) {
                bot.step(world, &inputs[tick]);
                let s = bot.state();
                let (p, v) = (s.position, s.velocity);
                out.push([p.x, p.y, p.z, v.x, v.y, v.z].map(f32::to_bits));
            }
        });
    }
    let sum = |pairs: &mut dyn Iterator<Item = (u64, u64)>| {
        pairs.fold((0, 0), |(a, b), (c, d)| (a + c, b + d))
    };
    let counts = sum(&mut bots.iter().map(CharacterController::tick_cache_counts));
    let gathers = sum(&mut bots.iter().map(CharacterController::tick_cache_gathers));
    (out, counts, gathers)
}

/// Runs the bots with and without the cache and compares every state; returns the counts.
fn compare(name: &str, bots: Vec<CharacterController>, world: Worlds<'_>) {
    let (with, (cached, walked), (gathered, kept)) = run(bots.clone(), true, world);
    let (without, (off_cached, off_walked), _) = run(bots, false, world);
    assert_eq!(
        (off_cached, off_walked),
        (0, 0),
        "{name}: the switch turns it off"
    );
    let moved = with.windows(2).filter(|w| w[0] != w[1]).count();
    assert!(
        moved > with.len() / 2,
        "{name}: the bots go places ({moved})"
    );
    if let Some(i) = (0..with.len()).find(|&i| with[i] != without[i]) {
        panic!(
            "{name}: tick {} bot {} differs: {:?} cached, {:?} walked",
            i / BOTS,
            i % BOTS,
            with[i],
            without[i]
        );
    }
    let share = cached as f64 / (cached + walked).max(1) as f64;
    println!(
        "{name}: {cached} sweeps cached, {walked} walked ({share:.3}); \
         {gathered} ticks gathered, {kept} kept an earlier gather"
    );
    assert!(
        share > 0.9,
        "{name}: most sweeps read the cache: {cached} cached, {walked} walked"
    );
    assert_eq!(
        gathered + kept,
        (BOTS * TICKS) as u64,
        "{name}: one gather a tick"
    );
    assert!(
        kept > gathered,
        "{name}: most ticks keep an earlier gather: {gathered} gathered, {kept} kept"
    );
}

fn real(dir: &std::path::Path, name: &str) -> CompiledMap {
    crate::support::compile(&read(&dir.join(name))).map
}

#[test]
fn cached_ticks_equal_walked_ticks_on_real_maps() {
    let Some(dir) = real_maps_dir("cached_ticks_equal_walked_ticks_on_real_maps") else {
        return;
    };
    for name in [
        "id-quake-1996/e1m2.map",
        "id-quake-1996/dm4.map",
        "openarena-lostlevels/kaos.map",
    ] {
        let map = real(&dir, name);
        compare(name, bots(&map), &|_, f| f(&map));
    }
}

#[test]
fn cached_ticks_equal_walked_ticks_among_movers() {
    let map = world("platforms");
    let model = |class: &str| {
        map.find_entities(class)
            .find_map(|e| e.model())
            .unwrap_or_else(|| panic!("no {class}"))
    };
    let (rotating, plat) = (model("func_rotating"), model("func_plat"));
    let movers = |tick: usize| {
        let t = tick as f32 * 0.008;
        [
            Mover {
                model: rotating,
                placement: ModelPlacement {
                    offset: Vec3::ZERO,
                    rotation: Quat::from_rotation_z(t * 1.5),
                },
            },
            Mover {
                model: plat,
                placement: ModelPlacement {
                    offset: Vec3::Z * (64.0 * (t * 2.0).sin()),
                    rotation: Quat::IDENTITY,
                },
            },
        ]
    };
    let all: Vec<[Mover; 2]> = (0..TICKS).map(movers).collect();
    compare("platforms", bots(map), &|tick, f| {
        f(&WorldWithMovers {
            map,
            movers: &all[tick],
        })
    });
}

#[test]
fn a_gather_is_kept_only_for_a_region_inside_it_with_the_same_map_and_shapes() {
    let map = world("arena");
    let shape =
        TraceShape::aabb(Vec3::new(-15.0, -15.0, -28.0), Vec3::new(15.0, 15.0, 28.0)).unwrap();
    let center = Vec3::new(1024.0, 1024.0, 40.0);
    let around = |c: Vec3| (c - 40.0, c + 40.0);
    let mut cache = TickCache::new();
    map.gather_near(&[&shape], around(center), PLAYER, &mut cache);
    assert_eq!(cache.gather_counts(), (1, 0));
    // A step away: still inside what was gathered, kept; the sweeps read it.
    let near = center + Vec3::new(3.0, -2.0, 1.0);
    map.gather_near(&[&shape], around(near), PLAYER, &mut cache);
    assert_eq!(cache.gather_counts(), (1, 1));
    let (a, b) = (near, near + Vec3::new(35.0, 30.0, -35.0));
    assert_eq!(
        map.trace_cached(&cache, &shape, a, b, PLAYER),
        map.trace(&shape, a, b, PLAYER)
    );
    assert_eq!(cache.counts(), (1, 0));
    // Far away, another shape, another map: gathered again.
    let far = center + Vec3::new(200.0, 0.0, 0.0);
    map.gather_near(&[&shape], around(far), PLAYER, &mut cache);
    assert_eq!(cache.gather_counts(), (2, 1));
    let ball = TraceShape::sphere(16.0).unwrap();
    map.gather_near(&[&ball], around(far), PLAYER, &mut cache);
    assert_eq!(cache.gather_counts(), (3, 1));
    let other = world("box_room");
    other.gather_near(&[&ball], around(far), PLAYER, &mut cache);
    assert_eq!(cache.gather_counts(), (4, 1));
    // The sweeps of a kept gather give the tree's answers wherever they lie in it.
    let mut rng = Pcg32::new(18);
    for _ in 0..1000 {
        let at = center + Vec3::new(rng.range_f64(-12.0, 12.0) as f32, 0.0, 0.0);
        map.gather_near(&[&shape], around(at), PLAYER, &mut cache);
        let step = |rng: &mut Pcg32| rng.range_f64(-40.0, 40.0) as f32;
        let b = at + Vec3::new(step(&mut rng), step(&mut rng), step(&mut rng));
        assert_eq!(
            map.trace_cached(&cache, &shape, at, b, PLAYER),
            map.trace(&shape, at, b, PLAYER)
        );
    }
}

#[test]
fn a_sweep_beyond_the_gather_walks_the_tree_with_the_same_answer() {
    let map = world("arena");
    let shape =
        TraceShape::aabb(Vec3::new(-15.0, -15.0, -28.0), Vec3::new(15.0, 15.0, 28.0)).unwrap();
    let center = Vec3::new(1024.0, 1024.0, 40.0);
    let mut cache = TickCache::new();
    map.gather_near(
        &[&shape],
        (center - 40.0, center + 40.0),
        PLAYER,
        &mut cache,
    );
    let tree = |a: Vec3, b: Vec3| map.trace(&shape, a, b, PLAYER);
    // Inside: read from the cache.
    let (a, b) = (center, center + Vec3::new(30.0, -20.0, -35.0));
    assert_eq!(map.trace_cached(&cache, &shape, a, b, PLAYER), tree(a, b));
    assert_eq!(cache.counts(), (1, 0));
    // Beyond: far across the room and down through the floor.
    let (a, b) = (center, center + Vec3::new(900.0, -700.0, -400.0));
    assert_eq!(map.trace_cached(&cache, &shape, a, b, PLAYER), tree(a, b));
    assert_eq!(cache.counts(), (1, 1));
    // Another shape than the one gathered for: walks too.
    let ball = TraceShape::sphere(16.0).unwrap();
    let (a, b) = (center, center - Vec3::Z * 40.0);
    assert_eq!(
        map.trace_cached(&cache, &ball, a, b, PLAYER),
        map.trace(&ball, a, b, PLAYER)
    );
    assert_eq!(cache.counts(), (1, 2));
    // Another map than the one gathered from: walks.
    let other = world("box_room");
    assert_eq!(
        other.trace_cached(&cache, &shape, center, center - Vec3::Z * 10.0, PLAYER),
        other.trace(&shape, center, center - Vec3::Z * 10.0, PLAYER)
    );
    assert_eq!(cache.counts(), (1, 3));
}
