//! Scenarios 44 and 45: bit-exact replays, touch events and ground reports; and the
//! `Tracer` boundary: the controller runs on a scripted world that is not a BSP at all.

use std::cell::Cell;

use glam::Vec3;
use planeshift::movement::{CharacterState, GroundState, ShapeQuery, SpeedFacts, Tracer};
use planeshift::query::Plane;
use planeshift::{CompiledMap, Contents, MoveInput, Trace};

use super::*;

/// Seeded random inputs, each held 20 to 219 ticks, as a player would.
fn inputs(seed: u64, ticks: usize) -> Vec<MoveInput> {
    held_inputs(seed, ticks, 8, (20, 200))
}

fn replay(world: &(impl Tracer + ?Sized), inputs: &[MoveInput]) -> Vec<CharacterState> {
    let mut c = player(Vec3::new(1024.0, 1024.0, 0.0));
    inputs
        .iter()
        .map(|input| {
            c.step(world, input);
            c.state().clone()
        })
        .collect()
}

fn bits(states: &[CharacterState]) -> Vec<[u32; 6]> {
    states
        .iter()
        .map(|s| {
            let (p, v) = (s.position, s.velocity);
            [p.x, p.y, p.z, v.x, v.y, v.z].map(f32::to_bits)
        })
        .collect()
}

/// The world swept brush by brush, without the tree: a different visiting order.
struct BruteForce<'a>(&'a CompiledMap);

impl Tracer for BruteForce<'_> {
    fn trace(&self, query: &ShapeQuery<'_>, start: Vec3, end: Vec3) -> Trace {
        self.0
            .trace_all_brushes(query.shape, start, end, query.mask)
    }
}

#[test]
fn s44_bit_exact_replay() {
    let map = world("arena");
    let inputs = inputs(44, 10_000);
    let first = bits(&replay(map, &inputs));
    assert_eq!(first, bits(&replay(map, &inputs)), "same run twice");
    let reloaded = CompiledMap::from_bytes(&map.to_bytes()).unwrap();
    assert_eq!(
        first,
        bits(&replay(&reloaded, &inputs)),
        "after write and reload"
    );
    let moved = first.windows(2).filter(|w| w[0] != w[1]).count();
    assert!(moved > 5_000, "the run goes places: {moved}");
    // Independent of the order brushes are visited in (2,000 ticks: brute force is slow).
    assert_eq!(
        first[..2_000],
        bits(&replay(&BruteForce(map), &inputs[..2_000]))[..],
        "tree and brute force"
    );
}

#[test]
fn s45_touches_are_chronological_and_ground_is_reported() {
    // corners.map 90° corner: from (300, 200) moving diagonally the y = 128 wall (normal
    // +y) is nearer, so it is hit first.
    let w = world("corners");
    let mut c = player(Vec3::new(300.0, 200.0, 0.0));
    launch(&mut c, Vec3::new(-320.0, -320.0, 0.0));
    let ticks = steps(&mut c, w, run(Vec3::new(-1.0, -1.0, 0.0)), 100);
    let both = ticks
        .iter()
        .flat_map(|t| t.outcome.touches.as_slice())
        .map(|t| t.normal)
        .collect::<Vec<_>>();
    let first_y = both.iter().position(|n| *n == Vec3::Y).unwrap();
    let first_x = both.iter().position(|n| *n == Vec3::X).unwrap();
    assert!(first_y < first_x, "{both:?}");
    for t in &ticks {
        let touches = t.outcome.touches.as_slice();
        for (i, a) in touches.iter().enumerate() {
            assert!(
                touches[i + 1..].iter().all(|b| b.plane != a.plane),
                "{touches:?}"
            );
        }
    }
    // Flat ground: the floor's normal exactly; the 30° case is in `slopes`.
    assert_eq!(c.ground().state, GroundState::Walkable);
    assert_eq!(c.ground().normal, Some(Vec3::Z));
}

/// A scripted world: solid half-spaces `n·x <= dist`, swept exactly with the shape's
/// support distance and the same stop distance as the BSP.
struct HalfSpaces {
    planes: Vec<Plane>,
    calls: Cell<usize>,
}

impl Tracer for HalfSpaces {
    fn trace(&self, query: &ShapeQuery<'_>, start: Vec3, end: Vec3) -> Trace {
        let shape = query.shape;
        self.calls.set(self.calls.get() + 1);
        let mut best = Trace::miss(end);
        for plane in &self.planes {
            let shift = plane.dist + shape.support_distance(-plane.normal);
            let d1 = plane.normal.dot(start) - shift;
            let d2 = plane.normal.dot(end) - shift;
            if d1 <= 0.0 {
                best.start_solid = true;
                best.all_solid |= d2 <= 0.0;
                continue;
            }
            if d2 >= SKIN || d2 >= d1 {
                continue;
            }
            let f = ((d1 - SKIN) / (d1 - d2)).max(0.0);
            if f < best.fraction {
                best.fraction = f;
                best.end = start + (end - start) * f;
                best.normal = Some(plane.normal);
                best.plane = Some(*plane);
                best.contents = Contents::SOLID;
                best.target = Some(planeshift::HitTarget::World);
            }
        }
        if best.all_solid {
            best.fraction = 0.0;
            best.end = start;
        }
        best
    }
}

#[test]
fn runs_on_a_scripted_world() {
    let world = HalfSpaces {
        planes: vec![
            Plane {
                normal: Vec3::Z,
                dist: 0.0,
            },
            Plane {
                normal: -Vec3::X,
                dist: -100.0,
            },
        ],
        calls: Cell::new(0),
    };
    // Dropped from 40 up, then run diagonally into the wall at x = 100.
    let mut c = player(Vec3::new(0.0, 0.0, 40.0));
    let ticks = steps(&mut c, &world, run(heading(45.0)), 250);
    assert!(world.calls.get() > 250);
    assert_eq!(c.ground().state, GroundState::Walkable);
    // Rests one skin up, plus at most the snap threshold (1/64) of Quake 3 overclip drift.
    assert!((feet(&c).z - SKIN).abs() < 1.0 / 64.0, "{}", c.position());
    // Against the wall: one skin off it, plus at most the wall probe of overclip drift.
    let gap = 100.0 - 15.0 - c.position().x;
    assert!(
        (SKIN..=planeshift::tolerance::WALL_PROBE).contains(&gap),
        "{gap}"
    );
    let last = ticks.last().unwrap();
    assert!(
        (last.velocity.y - 226.27417).abs() < 0.01 * 226.3,
        "{}",
        last.velocity
    );
    // One plane met again and again is reported once per tick.
    assert!(ticks.iter().all(|t| t.outcome.touches.len() <= 2));
}

#[test]
fn valley_between_walkable_ground_and_a_steep_bank_is_walked_along() {
    // Regression from the dm17ish soak: walkable ground (n.z 0.709) running down into a
    // steep bank (n.z 0.461). Walking downhill into the bank, the character must slide
    // along the valley, not stop dead against the wall under the bank.
    let ground = Vec3::new(-0.53585446, 0.45785654, 0.7093852);
    let bank = Vec3::new(-0.3527715, 0.81408805, 0.46131656);
    let world = HalfSpaces {
        planes: vec![
            Plane {
                normal: ground,
                dist: 0.0,
            },
            Plane {
                normal: bank,
                dist: 0.0,
            },
        ],
        calls: Cell::new(0),
    };
    let mut c = player(Vec3::new(0.0, 60.0, 120.0));
    steps(&mut c, &world, MoveInput::default(), 200);
    let wish = Vec3::new(-0.98705983, -0.16035253, 0.0);
    for second in 0..3 {
        let start = c.position();
        steps(&mut c, &world, run(wish), 125);
        let moved = (c.position() - start).length();
        assert!(moved > 16.0, "second {second}: moved {moved} from {start}");
    }
}

#[test]
fn wedged_between_a_steep_slope_and_a_wall_is_supported() {
    // A 53° slope (n.z 0.6) running down into a wall: the character slides into the corner,
    // where it can slide no further, so it is supported (Jolt) and can jump out.
    let slope = Vec3::new(0.8, 0.0, 0.6);
    let world = HalfSpaces {
        planes: vec![
            Plane {
                normal: slope,
                dist: 0.0,
            },
            Plane {
                normal: -Vec3::X,
                dist: -100.0,
            },
        ],
        calls: Cell::new(0),
    };
    let mut c = player(Vec3::new(40.0, 0.0, 20.0));
    let ticks = steps(&mut c, &world, MoveInput::default(), 250);
    assert!(
        ticks.iter().any(|t| t.ground == GroundState::Steep),
        "slid down first"
    );
    assert_eq!(c.ground().state, GroundState::Walkable, "{}", c.position());
    assert!(c.velocity().length() < 1.0);
    let jump = MoveInput {
        jump: true,
        ..MoveInput::default()
    };
    assert!(c.step(&world, &jump).jumped);
}

/// Every mode in turn (walk, fly, noclip, frozen, dead), 3-D wishes, knockback, launches
/// and teleports, with Quake 3's and Source's air rules and Quake 2's ladders with Quake 3's
/// held jump key, on `arena.map` and on `movement.map` (pool, ladder shaft): two runs are
/// equal to the bit.
#[test]
fn every_mode_replays_bit_exact() {
    use planeshift::{
        CharacterController, ControllerConfig,
        movement::{Activity, JumpKey, LadderRule, MoveMode},
    };
    let source = ControllerConfig {
        air_accelerate: 10.0,
        air_wish_cap: Some(30.0),
        auto_hop: true,
        coyote_time: 0.1,
        jump_buffer: 0.15,
        air_step_falling: true,
        land_jump_delay: 0.0,
        max_velocity: Some(3500.0),
        ..ControllerConfig::default()
    };
    let quake2 = ControllerConfig {
        ladder_rule: LadderRule::Quake2,
        jump_key: JumpKey::Held,
        ..ControllerConfig::default()
    };
    let modes = [
        MoveMode::Walk,
        MoveMode::Fly,
        MoveMode::Walk,
        MoveMode::Noclip,
        MoveMode::Frozen,
        MoveMode::Walk,
        MoveMode::Dead,
        MoveMode::Walk,
    ];
    let script = inputs(11, 8000);
    let mut climbed = 0;
    for (name, spawn) in [
        ("arena", Vec3::new(1024.0, 1024.0, 24.0)),
        ("movement", Vec3::new(-384.0 - 15.5, 0.0, 24.5)),
    ] {
        let map = world(name);
        for config in [ControllerConfig::default(), source, quake2] {
            let run = || {
                let mut c = CharacterController::new(config, spawn).unwrap();
                let mut out = Vec::with_capacity(script.len());
                for (i, input) in script.iter().enumerate() {
                    c.set_mode(modes[(i / 1000) % modes.len()]);
                    let mut input = *input;
                    input.wish.z = if i % 7 == 0 { 0.5 } else { 0.0 };
                    match i % 400 {
                        0 => {
                            c.apply_impulse(Vec3::new(300.0, -200.0, 100.0), 0.2);
                        }
                        200 => {
                            c.launch(Vec3::new(0.0, 0.0, 120.0));
                        }
                        _ => {}
                    }
                    if c.mode() == MoveMode::Noclip && i % 1000 == 999 {
                        // Back to a free spot before walking again.
                        c.teleport(spawn, Vec3::ZERO, 0.16);
                    }
                    let o = c.step(map, &input);
                    out.push((c.state().clone(), o.water_level, o.activity));
                }
                out
            };
            let (a, b) = (run(), run());
            let states =
                |r: &[(CharacterState, u8, _)]| r.iter().map(|t| t.0.clone()).collect::<Vec<_>>();
            assert_eq!(bits(&states(&a)), bits(&states(&b)), "{name}");
            assert!(a.iter().zip(&b).all(|(x, y)| x.1 == y.1 && x.2 == y.2));
            assert!(a.iter().any(|t| t.0.mode == MoveMode::Dead), "{name}");
            climbed += a.iter().filter(|t| t.2 == Activity::Ladder).count();
        }
    }
    assert!(climbed > 0, "the ladder was climbed");
}

/// A world that answers as the map does but gives its contents no identity, so the
/// controller samples the water level at the start and the end of every tick afresh.
struct NoMemo<'a>(&'a CompiledMap);

impl Tracer for NoMemo<'_> {
    fn trace(&self, query: &ShapeQuery<'_>, start: Vec3, end: Vec3) -> Trace {
        Tracer::trace(self.0, query, start, end)
    }

    fn contents(&self, point: Vec3) -> Contents {
        self.0.point_contents(point)
    }

    fn current(&self, point: Vec3) -> Vec3 {
        self.0.point_current(point)
    }

    /// No map named: nothing gathered, fixed or reused.
    fn speed_facts(&self) -> SpeedFacts<'_> {
        SpeedFacts {
            may_have_ladders: self.0.has_ladders(),
            ..SpeedFacts::NONE
        }
    }
}

/// Reusing the end-of-tick water sample at the next tick's start (and the three samples in
/// one walk) changes nothing: on `arena.map`, from its 64-deep pool, and on
/// `movement.map`, from above its pool, states and outcomes equal to the
/// bit those of a world sampled afresh point by point.
#[test]
fn reused_water_samples_change_nothing() {
    use planeshift::{CharacterController, ControllerConfig};
    for (name, spawn) in [
        ("arena", Vec3::new(256.0, 1536.0, 40.0)),
        ("movement", Vec3::new(-768.0, 0.0, 88.0)),
    ] {
        let map = world(name);
        let script = inputs(16, 6000);
        let run = |w: &dyn Tracer| {
            let mut c = CharacterController::new(ControllerConfig::default(), spawn).unwrap();
            let mut out = Vec::with_capacity(script.len());
            for (i, input) in script.iter().enumerate() {
                let mut input = *input;
                input.wish.z = if i % 5 == 0 { -0.5 } else { 0.0 };
                let o = c.step(w, &input);
                out.push((
                    c.state().clone(),
                    o.water_level,
                    o.liquid,
                    o.contents,
                    o.activity,
                ));
            }
            out
        };
        let (memo, fresh) = (run(map), run(&NoMemo(map)));
        let states = |r: &[(CharacterState, u8, Contents, Contents, _)]| {
            bits(&r.iter().map(|t| t.0.clone()).collect::<Vec<_>>())
        };
        assert_eq!(states(&memo), states(&fresh), "{name}");
        assert!(
            memo.iter()
                .zip(&fresh)
                .all(|(a, b)| a.1 == b.1 && a.2 == b.2 && a.3 == b.3 && a.4 == b.4),
            "{name}"
        );
        let wet = memo.iter().filter(|t| t.1 > 0).count();
        assert!(wet > 100, "{name}: the run gets wet ({wet} ticks)");
    }
}

/// The tick memos (the overlap test that skips the map where the shape was proven free of
/// it, the ground probe, snap sweep and wall probes reused from the same place, the unstuck
/// search that skips the offsets found inside the map) change nothing: 64 characters
/// walking into each other on `arena.map`, one spawned inside a pillar (stuck every tick),
/// and 12 characters alone on `arena.map`, `stairs.map` and `slopes.map` walking, standing
/// still and pushing into walls, give states and
/// outcomes equal to the bit those of a world that names no fixed solid (`NoMemo`, which
/// turns every memo off).
#[test]
fn tick_memos_change_nothing() {
    use planeshift::{CharacterController, ControllerConfig, Crowd, CrowdConfig};
    let map = world("arena");
    let centre = Vec3::new(1024.0, 1024.0, 24.0);
    let grid = |i: usize| Vec3::new((i % 8) as f32 - 3.5, (i / 8) as f32 - 3.5, 0.0) * 36.0;
    let spawns: Vec<Vec3> = (0..64).map(|i| centre + grid(i)).collect();
    let crowd_run = |w: &dyn Tracer| {
        let mut crowd = Crowd::new(CrowdConfig::default());
        for (id, at) in spawns.iter().enumerate() {
            let c = CharacterController::new(ControllerConfig::default(), *at).unwrap();
            crowd.insert(id as u32, c);
        }
        let wish = |id: u32| MoveInput {
            wish: (centre - spawns[id as usize])
                .truncate()
                .extend(0.0)
                .normalize_or_zero(),
            ..MoveInput::default()
        };
        let mut out = Vec::new();
        for _ in 0..120 {
            crowd.step(w, wish);
            for (_, c, o) in crowd.iter() {
                let t = &o.tick;
                out.push((c.state().clone(), t.unstuck_probes, t.stuck, t.touches));
            }
        }
        out
    };
    let (memo, fresh) = (crowd_run(map), crowd_run(&NoMemo(map)));
    let states = |r: &[(CharacterState, Option<usize>, bool, _)]| {
        bits(&r.iter().map(|t| t.0.clone()).collect::<Vec<_>>())
    };
    assert_eq!(states(&memo), states(&fresh), "crowd");
    assert!(
        memo.iter()
            .zip(&fresh)
            .all(|(a, b)| a.1 == b.1 && a.2 == b.2 && a.3 == b.3)
    );
    let stuck = memo.iter().filter(|t| t.2).count();
    assert!(
        stuck >= 100,
        "one character is stuck in the pillar ({stuck} ticks)"
    );

    for k in 0..12u64 {
        let name = ["arena", "stairs", "slopes"][k as usize % 3];
        let map = world(name);
        let spawn = map
            .player_spawns()
            .next()
            .unwrap_or(Vec3::new(256.0, 1024.0, 40.0));
        let script = inputs(100 + k, 3000);
        let run = |w: &dyn Tracer| {
            let start = spawn + Vec3::new(16.0 * (k / 3) as f32, 0.0, 1.0);
            let mut c = CharacterController::new(ControllerConfig::default(), start).unwrap();
            let mut out = Vec::with_capacity(script.len());
            for (i, input) in script.iter().enumerate() {
                let mut input = *input;
                if (i / 200) % 3 == 0 {
                    input.wish = Vec3::ZERO;
                }
                let o = c.step(w, &input);
                out.push((c.state().clone(), o.touches, o.snapped, o.unstuck_probes));
            }
            out
        };
        let (memo, fresh) = (run(map), run(&NoMemo(map)));
        let states = |r: &[(CharacterState, _, f32, Option<usize>)]| {
            bits(&r.iter().map(|t| t.0.clone()).collect::<Vec<_>>())
        };
        assert_eq!(states(&memo), states(&fresh), "{name}, alone {k}");
        // `NoMemo` touches no triggers: the trigger set is left out.
        let moved = |s: &CharacterState| CharacterState {
            triggers: Default::default(),
            ..s.clone()
        };
        for (i, (a, b)) in memo.iter().zip(&fresh).enumerate() {
            assert_eq!(moved(&a.0), moved(&b.0), "{name}, alone {k}, tick {i}");
            assert_eq!(a.1, b.1, "{name}, alone {k}, tick {i}");
            assert_eq!(a.2.to_bits(), b.2.to_bits(), "{name}, alone {k}, tick {i}");
            assert_eq!(a.3, b.3, "{name}, alone {k}, tick {i}");
        }
    }
}
