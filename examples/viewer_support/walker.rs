//! The walking character as the viewer sees it: the [`Walker`] trait (one fixed tick of
//! movement, then position, velocity, ground state, shape, touched planes) and
//! [`StandInWalker`], a minimal Quake-style mover used until the library's
//! `planeshift::controller` lands.
//!
//! Takes a world and a wish direction per tick; gives the character's state and the planes
//! it touched. Guarantees: movement only ever goes through `CompiledMap::trace`, so the
//! character never ends a tick inside solid (the sweep's own guarantee); non-finite input is
//! ignored.
//!
//! Wiring the real controller is one `impl Walker for CharacterController` forwarding
//! `step`, `position`, `velocity`, `ground`, `shape` and `crouched` (see the viewer's section
//! in the README).

use glam::Vec3;
use planeshift::compiled::{CompiledMap, Plane};
use planeshift::contents::Contents;
use planeshift::trace::TraceShape;

/// Seconds per movement tick: the viewer steps the character at this fixed rate, driven by
/// real time.
pub const TICK: f32 = 0.008;

/// What the player asks for in one tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WalkInput {
    /// Horizontal wish direction in the world frame, length at most 1.
    pub wish: Vec3,
    /// Jump held.
    pub jump: bool,
    /// Crouch held.
    pub crouch: bool,
}

/// Something the viewer can walk around a world.
pub trait Walker {
    /// Advances one [`TICK`]; appends the planes touched during the tick to `touched`.
    fn step(&mut self, world: &CompiledMap, input: &WalkInput, touched: &mut Vec<Plane>);
    /// Where the reference point is.
    fn position(&self) -> Vec3;
    /// Velocity in units per second.
    fn velocity(&self) -> Vec3;
    /// "walkable", "steep" or "air".
    fn ground(&self) -> &'static str;
    /// The shape that collides now (crouched or standing).
    fn shape(&self) -> &TraceShape;
    /// Whether the character is crouched.
    fn crouched(&self) -> bool;
}

/// Quake's movement numbers, for the stand-in only (units, seconds).
mod quake {
    pub const GRAVITY: f32 = 800.0;
    pub const MAX_SPEED: f32 = 320.0;
    pub const CROUCH_SPEED: f32 = 120.0;
    pub const ACCELERATE: f32 = 10.0;
    pub const AIR_ACCELERATE: f32 = 1.0;
    pub const FRICTION: f32 = 6.0;
    pub const STOP_SPEED: f32 = 100.0;
    pub const JUMP_SPEED: f32 = 270.0;
    /// How far below the feet the ground is looked for.
    pub const GROUND_PROBE: f32 = 0.25;
    /// A surface is walkable when its normal's z is at least this (Quake's 0.7).
    pub const MIN_WALK_NORMAL: f32 = 0.7;
    /// Sweeps per tick before giving up on the rest of the move.
    pub const MAX_BUMPS: usize = 4;
    /// Velocity is pushed this much past a plane it is clipped against (Quake 3's OVERCLIP).
    pub const OVERCLIP: f32 = 1.001;
    /// A spawn point is raised this much so that feet resting exactly on the floor do not
    /// start in solid (Quake adds 1 to spawn origins for the same reason).
    pub const SPAWN_LIFT: f32 = 1.0;
}

/// A minimal slide-move character: gravity, ground friction and acceleration, jumping,
/// crouching, and up to four slides per tick. No stairs; not the library's controller.
pub struct StandInWalker {
    position: Vec3,
    velocity: Vec3,
    ground: Option<Vec3>,
    crouched: bool,
    standing: TraceShape,
    crouching: TraceShape,
}

impl StandInWalker {
    /// A character standing at `position` with Quake's player box (crouched: 40 tall).
    pub fn new(position: Vec3) -> Option<Self> {
        Some(StandInWalker {
            position: position + Vec3::Z * quake::SPAWN_LIFT,
            velocity: Vec3::ZERO,
            ground: None,
            crouched: false,
            standing: TraceShape::aabb(
                Vec3::new(-16.0, -16.0, -24.0),
                Vec3::new(16.0, 16.0, 32.0),
            )?,
            crouching: TraceShape::aabb(
                Vec3::new(-16.0, -16.0, -24.0),
                Vec3::new(16.0, 16.0, 16.0),
            )?,
        })
    }

    fn probe_ground(&mut self, world: &CompiledMap) {
        let below = self.position - Vec3::Z * quake::GROUND_PROBE;
        let t = world.trace(self.shape(), self.position, below, Contents::MASK_SOLID);
        self.ground = t.normal.filter(|_| t.hit() && self.velocity.z <= 0.0);
    }
}

impl Walker for StandInWalker {
    fn step(&mut self, world: &CompiledMap, input: &WalkInput, touched: &mut Vec<Plane>) {
        if !input.wish.is_finite() {
            return;
        }
        if input.crouch != self.crouched {
            // Standing up needs room.
            if input.crouch || !world.overlaps(&self.standing, self.position, Contents::MASK_SOLID)
            {
                self.crouched = input.crouch;
            }
        }
        self.probe_ground(world);
        let walkable = self.ground.filter(|n| n.z >= quake::MIN_WALK_NORMAL);
        let wish = Vec3::new(input.wish.x, input.wish.y, 0.0).clamp_length_max(1.0);
        let top = if self.crouched {
            quake::CROUCH_SPEED
        } else {
            quake::MAX_SPEED
        };
        if walkable.is_some() {
            let speed = self.velocity.length();
            if speed > 0.0 {
                let drop = speed.max(quake::STOP_SPEED) * quake::FRICTION * TICK;
                self.velocity *= ((speed - drop) / speed).max(0.0);
            }
            accelerate(&mut self.velocity, wish, top, quake::ACCELERATE);
            if input.jump {
                self.velocity.z = quake::JUMP_SPEED;
                self.ground = None;
            } else {
                self.velocity.z = 0.0;
            }
        } else {
            accelerate(&mut self.velocity, wish, top, quake::AIR_ACCELERATE);
            self.velocity.z -= quake::GRAVITY * TICK;
        }
        // Slide: sweep, stop at the hit, clip the velocity against the plane, sweep the rest.
        let mut time = TICK;
        for _ in 0..quake::MAX_BUMPS {
            let target = self.position + self.velocity * time;
            let t = world.trace(self.shape(), self.position, target, Contents::MASK_SOLID);
            if t.all_solid {
                self.velocity = Vec3::ZERO;
                break;
            }
            self.position = t.end;
            let Some(plane) = t.plane.filter(|_| t.hit()) else {
                break;
            };
            touched.push(plane);
            let into = self.velocity.dot(plane.normal);
            if into < 0.0 {
                self.velocity -= plane.normal * into * quake::OVERCLIP;
            }
            time *= 1.0 - t.fraction;
        }
        self.probe_ground(world);
    }

    fn position(&self) -> Vec3 {
        self.position
    }

    fn velocity(&self) -> Vec3 {
        self.velocity
    }

    fn ground(&self) -> &'static str {
        match self.ground {
            Some(n) if n.z >= quake::MIN_WALK_NORMAL => "walkable",
            Some(_) => "steep",
            None => "air",
        }
    }

    fn shape(&self) -> &TraceShape {
        if self.crouched {
            &self.crouching
        } else {
            &self.standing
        }
    }

    fn crouched(&self) -> bool {
        self.crouched
    }
}

/// Quake's acceleration: add speed along `wish` up to `top`.
fn accelerate(velocity: &mut Vec3, wish: Vec3, top: f32, rate: f32) {
    let Some(dir) = wish.try_normalize() else {
        return;
    };
    let wanted = top * wish.length();
    let add = wanted - velocity.dot(dir);
    if add > 0.0 {
        *velocity += dir * add.min(rate * wanted * TICK);
    }
}
