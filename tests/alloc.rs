//! A tick allocates nothing: characters stepped in every mode (walk, swim, ladder by both
//! rules, noclip, fly, dead, frozen), with knockback, launches and teleports, and riding
//! movers, on the bundled maps with water, ladders and movers and on the shared real maps,
//! and a crowd of characters that meet each other, count zero heap allocations per tick once
//! warmed up.
//!
//! Takes the maps (`maps/`, and `$PLANESHIFT_REAL_MAPS` when present); gives a pass or the
//! tick that allocated. Its own test target, because it installs a counting global
//! allocator: the count is per thread (a thread-local cell with no destructor), so tests
//! running beside it in other threads do not disturb it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::{Path, PathBuf};

use glam::{Quat, Vec3};
use planeshift::CompiledMap;
use planeshift::Contents;
use planeshift::ModelPlacement;
use planeshift::{
    CharacterController, ControllerConfig, MoveInput,
    movement::{Activity, JumpKey, LadderRule, MoveMode, Mover, WorldWithMovers},
};

/// Counts every allocation, reallocation and zeroed allocation of the thread making it.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: never touch a thread-local being torn down.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting touches only
// a thread-local `Cell` with a const initialiser and no destructor, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract is passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by this thread so far.
fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// Ticks run before counting: nothing is expected to allocate then either, but a first
/// call may warm a lazily built table.
const WARM_UP: usize = 200;

/// Ticks counted per character.
const COUNTED: usize = 3000;

/// The bit of `seen` for ticks run dead (above every `Activity` bit).
const DEAD: u32 = 1 << 16;

fn compile(path: &Path) -> CompiledMap {
    let bytes = std::fs::read(path).unwrap();
    planeshift::compile_map(&bytes)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .map
}

fn bundled(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("maps")
        .join(format!("{name}.map"))
}

/// The shared real maps with water or many brushes, when the folder is there.
fn real_maps() -> Vec<PathBuf> {
    let dir = std::env::var_os("PLANESHIFT_REAL_MAPS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/maps"));
    [
        "id-quake-1996/e1m2.map",
        "id-quake-1996/e2m1.map",
        "openarena-lostlevels/kaos.map",
        "ericw-tools/hl_currents.map",
    ]
    .iter()
    .map(|m| dir.join(m))
    .filter(|p| p.is_file())
    .collect()
}

/// SplitMix64, for seeded inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// What the game does before a tick: the input, and sometimes a mode change or an impulse.
#[derive(Clone, Copy)]
struct Script {
    input: MoveInput,
    mode: MoveMode,
    impulse: u8,
}

/// Seeded inputs in every mode, made before counting starts.
fn script(seed: u64, ticks: usize) -> Vec<Script> {
    let modes = [
        MoveMode::Walk,
        MoveMode::Fly,
        MoveMode::Walk,
        MoveMode::Dead,
        MoveMode::Walk,
        MoveMode::Noclip,
        MoveMode::Frozen,
        MoveMode::Walk,
    ];
    let mut rng = Rng(seed);
    let mut out = Vec::with_capacity(ticks);
    let mut input = MoveInput::default();
    for tick in 0..ticks {
        if tick % 60 == 0 {
            let angle = rng.unit() * std::f32::consts::TAU;
            let rise = rng.unit() - 0.5;
            input.wish = Vec3::new(angle.cos(), angle.sin(), rise);
            input.crouch = rng.unit() < 0.15;
        }
        input.jump = rng.unit() < 0.05;
        out.push(Script {
            input,
            mode: modes[(tick / 400) % modes.len()],
            impulse: (rng.next() % 97) as u8,
        });
    }
    out
}

/// The configurations stepped: Quake 3's defaults; Source's air rules with every option;
/// Quake 2's ladders with Quake 3's held jump key.
fn configs() -> [ControllerConfig; 3] {
    [
        ControllerConfig::default(),
        ControllerConfig {
            air_accelerate: 10.0,
            air_wish_cap: Some(30.0),
            auto_hop: true,
            coyote_time: 0.1,
            jump_buffer: 0.15,
            air_step_falling: true,
            land_jump_delay: 0.0,
            max_velocity: Some(3500.0),
            current_push: 50.0,
            ..ControllerConfig::default()
        },
        ControllerConfig {
            ladder_rule: LadderRule::Quake2,
            jump_key: JumpKey::Held,
            ..ControllerConfig::default()
        },
    ]
}

/// Runs `script` from `spawn`, counting the allocations of every tick after the warm-up
/// (and of the game's calls between ticks); `movers` (a model and its pivot) are moved and
/// ridden each tick. Returns the first tick that allocated, with the count; adds the moves
/// that ran (bit `Activity as u8`) to `seen`.
fn run(
    map: &CompiledMap,
    config: ControllerConfig,
    spawn: Vec3,
    script: &[Script],
    mover: Option<usize>,
    seen: &mut u32,
) -> Option<(usize, u64)> {
    let mut c = CharacterController::new(config, spawn).unwrap();
    c.set_material_friction(&[(planeshift::level::MaterialId(0), 0.5)]);
    let pivot = mover.map_or(Vec3::ZERO, |m| map.models()[m].origin);
    let placement = |tick: usize| {
        let t = tick as f32 * config.tick;
        ModelPlacement {
            offset: Vec3::new(0.0, 0.0, 32.0 * (t * 0.7).sin()),
            rotation: Quat::from_rotation_z(0.3 * t),
        }
    };
    let mut movers = [Mover {
        model: mover.unwrap_or(0),
        placement: placement(0),
    }];
    // One outcome written over every tick (`step_into`), as a game keeps it: its trigger
    // lists keep their capacity.
    let mut outcome = planeshift::MoveOutcome::default();
    for (tick, s) in script.iter().enumerate() {
        let before = allocations();
        c.set_mode(s.mode);
        match s.impulse {
            0 => {
                c.apply_impulse(Vec3::new(300.0, -200.0, 100.0), 0.2);
            }
            1 => {
                c.launch(Vec3::new(0.0, 0.0, 300.0));
            }
            2 if c.mode() == MoveMode::Noclip => {
                c.teleport(spawn, Vec3::new(400.0, 0.0, 0.0), 0.16);
            }
            _ => {}
        }
        match mover {
            Some(model) => {
                let (was, now) = (placement(tick), placement(tick + 1));
                movers[0].placement = now;
                let world = WorldWithMovers {
                    map,
                    movers: &movers,
                };
                c.ride(&world, model, pivot, &was, &now);
                c.step_into(&world, &s.input, &mut outcome);
            }
            None => c.step_into(map, &s.input, &mut outcome),
        }
        if c.mode() == MoveMode::Noclip && tick % 400 == 399 {
            // Back to a free spot before walking again.
            c.teleport(spawn, Vec3::ZERO, 0.0);
        }
        let made = allocations() - before;
        if tick >= WARM_UP && made > 0 {
            return Some((tick, made));
        }
        *seen |= 1 << (outcome.activity as u8);
        if c.mode() == MoveMode::Dead {
            *seen |= DEAD;
        }
    }
    None
}

#[test]
fn a_tick_allocates_nothing_in_any_mode() {
    // (map, spawn origins, the mover to ride); spawns in water, at a ladder, on a mover.
    let mut cases: Vec<(PathBuf, Vec<Vec3>, Option<&str>)> = vec![
        (
            bundled("arena"),
            vec![
                Vec3::new(1024.0, 1024.0, 24.0),
                Vec3::new(256.0, 1536.0, 40.0),
            ],
            None,
        ),
        (
            bundled("movement"),
            vec![
                Vec3::new(-768.0, 0.0, 88.0),
                Vec3::new(-384.0 - 15.0 - 0.5, 0.0, 24.5),
            ],
            None,
        ),
        (
            bundled("platforms"),
            vec![Vec3::new(354.0, 0.0, 48.0)],
            Some("func_rotating"),
        ),
        (
            bundled("platforms"),
            vec![Vec3::new(1152.0, 0.0, 48.0)],
            Some("func_plat"),
        ),
    ];
    for path in real_maps() {
        let bytes = std::fs::read(&path).unwrap();
        let parsed = planeshift::map::parse_map(&bytes).unwrap();
        let spawns: Vec<Vec3> = parsed
            .player_spawns()
            .map(|o| o.as_vec3())
            .take(2)
            .collect();
        cases.push((path, spawns, None));
    }
    let mut ticks = 0;
    let mut seen = 0;
    for (path, spawns, mover) in &cases {
        let map = compile(path);
        let mover = mover.map(|class| {
            map.find_entities(class)
                .find_map(|e| e.model())
                .unwrap_or_else(|| panic!("no {class}"))
        });
        for (k, spawn) in spawns.iter().enumerate() {
            for (n, config) in configs().into_iter().enumerate() {
                let script = script((k * 3 + n) as u64, WARM_UP + COUNTED);
                let found = run(&map, config, *spawn, &script, mover, &mut seen);
                assert_eq!(
                    found,
                    None,
                    "{}: spawn {spawn}, config {n}: (tick, allocations)",
                    path.display()
                );
                ticks += COUNTED;
            }
        }
    }
    println!("{ticks} ticks counted, none allocated");
    // Every move ran.
    for activity in [
        Activity::Walk,
        Activity::Swim,
        Activity::Ladder,
        Activity::Noclip,
        Activity::Fly,
        Activity::Frozen,
    ] {
        assert!(
            seen & (1 << (activity as u8)) != 0,
            "{activity:?} never ran"
        );
    }
    assert!(seen & DEAD != 0, "never dead");
    // The counter counts: a box on the heap is one allocation.
    let before = allocations();
    let boxed = std::hint::black_box(Box::new(7u64));
    assert_eq!(allocations() - before, 1);
    drop(boxed);
}

/// A crowd's tick allocates nothing either: 32 characters packed 40 units apart on the
/// arena's floor (they meet each other), walking with seeded inputs turned a different way
/// each, counted after the warm-up.
#[test]
fn a_crowd_tick_allocates_nothing() {
    use planeshift::HitTarget;
    use planeshift::{Crowd, CrowdConfig};
    let map = compile(&bundled("arena"));
    let mut crowd = Crowd::new(CrowdConfig::default());
    for i in 0..32u32 {
        let (x, y) = ((i % 8) as f32, (i / 8) as f32);
        let at = Vec3::new(1024.0 + x * 40.0, 1024.0 + y * 40.0, 24.0);
        crowd.insert(
            i,
            CharacterController::new(ControllerConfig::default(), at).unwrap(),
        );
    }
    let script = script(3, WARM_UP + COUNTED);
    let mut met = 0;
    for (tick, s) in script.iter().enumerate() {
        let before = allocations();
        crowd.step(&map, |id| MoveInput {
            wish: Quat::from_rotation_z(id as f32).mul_vec3(s.input.wish),
            ..s.input
        });
        let made = allocations() - before;
        assert!(
            tick < WARM_UP || made == 0,
            "crowd tick {tick}: {made} allocations"
        );
        met += crowd
            .iter()
            .filter(|(_, _, o)| {
                o.tick
                    .touches
                    .as_slice()
                    .iter()
                    .any(|t| matches!(t.target, HitTarget::Character(_)))
            })
            .count();
    }
    println!(
        "{COUNTED} crowd ticks of 32 counted, none allocated; {met} character ticks met another"
    );
    assert!(met > 0, "the crowd never met");
}

/// Rotated sweeps and overlaps of every kind, through the world (`trace_rotated`,
/// `overlaps_rotated`) and against an upright character (`trace_against_rotated`,
/// `overlaps_rotated`), allocate nothing: no hull is built per query.
#[test]
fn a_rotated_sweep_allocates_nothing() {
    use planeshift::TraceShape;
    let world = compile(&bundled("arena"));
    let hull = TraceShape::hull(vec![
        Vec3::new(-12.0, -8.0, -20.0),
        Vec3::new(14.0, -6.0, -18.0),
        Vec3::new(0.0, 15.0, -22.0),
        Vec3::new(3.0, 2.0, 30.0),
        Vec3::new(-9.0, 6.0, 24.0),
    ])
    .unwrap();
    let shapes = [
        TraceShape::quake3_player(),
        TraceShape::cylinder(16.0, 28.0).unwrap(),
        TraceShape::capsule(12.0, 20.0).unwrap(),
        hull,
        TraceShape::point(),
    ];
    let other = TraceShape::cylinder(16.0, 28.0).unwrap();
    let mut rng = Rng(0x0123_4567);
    let before = allocations();
    let mut hits = 0;
    for case in 0..4000 {
        let shape = &shapes[case % shapes.len()];
        let rotation = Quat::from_euler(
            glam::EulerRot::ZYX,
            rng.unit() * 6.3,
            rng.unit() * 6.3,
            rng.unit() * 6.3,
        );
        let start = Vec3::new(rng.unit(), rng.unit(), rng.unit() * 0.25) * 2048.0;
        let end = start + (Vec3::new(rng.unit(), rng.unit(), rng.unit()) - 0.5) * 512.0;
        let t = world.trace_rotated(shape, rotation, start, end, Contents::MASK_ANY_BLOCKING);
        hits += usize::from(t.hit());
        let _ = world.overlaps_rotated(shape, rotation, t.end, Contents::MASK_ANY_BLOCKING);
        let at = start + (end - start) * rng.unit();
        let b = shape.trace_against_rotated(rotation, start, end, &other, at);
        hits += usize::from(b.hit());
        let _ = shape.overlaps_rotated(rotation, b.end, &other, at);
    }
    assert_eq!(allocations() - before, 0, "rotated sweeps allocated");
    assert!(hits > 400, "{hits}");
}

/// Scene queries among 64 characters (traces upright and rotated, overlaps, point contents,
/// penetration and area queries into reused buffers) allocate nothing.
#[test]
fn a_scene_query_allocates_nothing() {
    use planeshift::HitTarget;
    use planeshift::TraceShape;
    use planeshift::movement::Bodies;
    use planeshift::{QueryFilter, Scene};
    let world = compile(&bundled("arena"));
    let body = TraceShape::quake3_player();
    let mut rng = Rng(0x5ce7e);
    let mut bodies = Bodies::new();
    for id in 0..64 {
        let at = Vec3::new(
            200.0 + rng.unit() * 1600.0,
            200.0 + rng.unit() * 1600.0,
            25.0,
        );
        bodies.insert(id, &body, at);
    }
    let scene = Scene {
        map: &world,
        movers: &[],
        bodies: &bodies,
    };
    let shapes = [
        TraceShape::point(),
        TraceShape::sphere(8.0).unwrap(),
        TraceShape::capsule(10.0, 20.0).unwrap(),
        body.clone(),
    ];
    let (mut through, mut area) = (Vec::with_capacity(128), Vec::with_capacity(128));
    let filter = QueryFilter::new(Contents::MASK_SHOT | Contents::TRIGGER).skip_character(3);
    let before = allocations();
    let mut characters = 0;
    for case in 0..4000 {
        let shape = &shapes[case % shapes.len()];
        let rotation = Quat::from_rotation_z(rng.unit() * 6.3) * Quat::from_rotation_x(rng.unit());
        let start = Vec3::new(
            rng.unit() * 2048.0,
            rng.unit() * 2048.0,
            20.0 + rng.unit() * 60.0,
        );
        let end = start + (Vec3::new(rng.unit(), rng.unit(), 0.5) - 0.5) * 1024.0;
        let hit = scene.trace(shape, start, end, &filter);
        characters += usize::from(matches!(hit.target, Some(HitTarget::Character(_))));
        let _ = scene.trace_rotated(shape, rotation, start, end, &filter);
        let _ = scene.overlap_rotated(shape, rotation, hit.end, &filter);
        let _ = scene.point_contents(end);
        scene.trace_through(&TraceShape::point(), start, end, &filter, &mut through);
        scene.overlapping(&shapes[1], end, &filter, &mut area);
    }
    assert_eq!(allocations() - before, 0, "scene queries allocated");
    assert!(characters > 100, "{characters}");
}
