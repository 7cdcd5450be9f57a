//! A game's own world behind the seam ([`Tracer`]): solid axis-aligned boxes (a floor, a
//! step, a wall), no map at all. Takes only the trait's required sweep; gives a character
//! that walks on the floor, steps up the step and stops at the wall. The world (its type,
//! its constant and its `impl`) is the part a game writes, and stays under 60 lines.

use glam::Vec3;
// Only public paths, as a game sees them (the tests build with `internals`, which would
// also allow the stage modules' paths).
use planeshift::movement::{GroundState, ShapeQuery, Tracer};
use planeshift::query::Plane;
use planeshift::{CharacterController, ControllerConfig, MoveInput, Trace};

// ---- the game's world: from here to the end marker, under 60 lines ----
/// Solid boxes, each `(mins, maxs)`.
struct Boxes(Vec<(Vec3, Vec3)>);

/// The stop distance a sweep keeps from what it hits.
const STOP: f32 = 1.0 / 32.0;

impl Tracer for Boxes {
    fn trace(&self, query: &ShapeQuery<'_>, start: Vec3, end: Vec3) -> Trace {
        let mut best = Trace::miss(end);
        'boxes: for &(mins, maxs) in &self.0 {
            let (mut enter, mut leave, mut hit) = (-1.0_f32, 1.0_f32, None);
            let (mut starts_out, mut ends_out) = (false, false);
            for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
                for (normal, dist) in [(axis, maxs.dot(axis)), (-axis, -mins.dot(axis))] {
                    // The face moved out by the shape's reach towards it.
                    let shift = dist + query.shape.support_distance(-normal);
                    let (d1, d2) = (normal.dot(start) - shift, normal.dot(end) - shift);
                    starts_out |= d1 > 0.0;
                    ends_out |= d2 > 0.0;
                    if d1 > 0.0 && (d2 >= STOP || d2 >= d1) {
                        continue 'boxes; // Outside this face all the way.
                    }
                    if d1 > d2 && d1 > 0.0 {
                        let f = ((d1 - STOP) / (d1 - d2)).max(0.0);
                        if f > enter {
                            (enter, hit) = (f, Some(Plane { normal, dist }));
                        }
                    } else if d1 < d2 {
                        leave = leave.min((d1 + STOP) / (d1 - d2));
                    }
                }
            }
            if !starts_out {
                best.start_solid = true;
                best.all_solid |= !ends_out;
            } else if enter < leave && enter < best.fraction {
                (best.fraction, best.end) = (enter, start.lerp(end, enter));
                (best.plane, best.normal) = (hit, hit.map(|p| p.normal));
            }
        }
        if best.all_solid {
            (best.fraction, best.end) = (0.0, start);
        }
        best
    }
}
// ---- end of the game's world ----

#[test]
fn a_character_walks_steps_and_stops_in_a_world_of_a_few_boxes() {
    let source = include_str!("own_world.rs");
    let (from, to) = (
        source.find("// ---- the game's world").unwrap(),
        source.find("// ---- end of the game's world").unwrap(),
    );
    let lines = source[from..to].lines().count();
    assert!(lines < 60, "the game's world takes {lines} lines");

    let far = 4096.0;
    let world = Boxes(vec![
        // The floor, its top at z = 0.
        (Vec3::new(-far, -far, -64.0), Vec3::new(far, far, 0.0)),
        // A step 16 high from x = 128 on (a player climbs 18).
        (Vec3::new(128.0, -far, 0.0), Vec3::new(far, far, 16.0)),
        // A wall at x = 384.
        (Vec3::new(384.0, -far, 16.0), Vec3::new(448.0, far, 512.0)),
    ]);
    let config = ControllerConfig::default();
    let mut c = CharacterController::new(config, Vec3::new(0.0, 0.0, 24.0 + STOP)).unwrap();
    let idle = MoveInput::default();
    for _ in 0..20 {
        c.step(&world, &idle);
    }
    assert_eq!(c.ground().state, GroundState::Walkable, "standing");
    let feet = |c: &CharacterController| c.position().z - config.feet_to_origin;
    assert!(feet(&c).abs() < 0.1, "on the floor: {}", feet(&c));

    let run = MoveInput {
        wish: Vec3::X,
        ..MoveInput::default()
    };
    // A quarter second: walking on the floor, not yet at the step.
    for _ in 0..30 {
        c.step(&world, &run);
    }
    assert!(
        c.position().x > 40.0 && c.position().x < 128.0 - 15.0,
        "walks: {}",
        c.position()
    );
    assert!(c.velocity().x > 100.0);
    // On: up the step, then against the wall.
    let mut climbed = 0.0;
    for _ in 0..250 {
        climbed += c.step(&world, &run).climbed;
    }
    assert!((climbed - 16.0).abs() < 0.1, "stepped up 16: {climbed}");
    assert!((feet(&c) - 16.0).abs() < 0.1, "on the step: {}", feet(&c));
    assert_eq!(c.ground().state, GroundState::Walkable);
    let stop = 384.0 - config.shape.half_width() - STOP;
    assert!(
        (c.position().x - stop).abs() < 0.01,
        "against the wall: {}",
        c.position()
    );
    assert!(c.velocity().x.abs() < 1e-3, "stopped: {}", c.velocity());
}
