//! What one tick takes, gives and keeps: [`MoveInput`], [`MoveOutcome`] with its
//! [`TouchList`], and [`CharacterState`] with its [`WallContacts`].
//!
//! Takes nothing; gives plain data with fixed capacity (no allocation per tick). Guarantees:
//! a touch list holds each (model, plane) once, in hit order, at most `MAX_TOUCHES` (32); wall
//! contacts hold distinct normals, at most `MAX_CLIP_PLANES` (5).

use glam::Vec3;

use super::ground::Ground;
use crate::compiled::Plane;
use crate::contents::Contents;
use crate::tolerance::{CONE_SLACK, MAX_CLIP_PLANES, MAX_TOUCHES, SAME_PLANE_DOT};
use crate::trace::Trace;

/// What the player asks for in one tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveInput {
    /// Wanted horizontal direction and strength, in the world frame: x and y, length at most
    /// 1 (longer is normalized; z and non-finite values are ignored).
    pub wish: Vec3,
    /// The jump key is down. A jump happens when it goes down (no pogo).
    pub jump: bool,
    /// The crouch key is down.
    pub crouch: bool,
}

/// A plane the character hit during a tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Touch {
    /// The plane's unit normal, facing the character.
    pub normal: Vec3,
    /// The plane (world space).
    pub plane: Plane,
    /// Contents of the brush hit.
    pub contents: Contents,
    /// The model hit (0 is the world).
    pub model: usize,
}

/// The planes hit in one tick, in the order they were hit, each once (same model and plane),
/// at most `MAX_TOUCHES` (32) (Quake 3's `touchents`). Fixed capacity: no allocation.
#[derive(Clone, Copy, PartialEq)]
pub struct TouchList {
    items: [Touch; MAX_TOUCHES],
    len: usize,
}

impl Default for TouchList {
    fn default() -> Self {
        let none = Touch {
            normal: Vec3::ZERO,
            plane: Plane {
                normal: Vec3::ZERO,
                dist: 0.0,
            },
            contents: Contents::EMPTY,
            model: 0,
        };
        TouchList {
            items: [none; MAX_TOUCHES],
            len: 0,
        }
    }
}

impl std::fmt::Debug for TouchList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl TouchList {
    /// The touches, first hit first.
    #[must_use]
    pub fn as_slice(&self) -> &[Touch] {
        &self.items[..self.len]
    }

    /// How many touches.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing was touched.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(super) fn push(&mut self, trace: &Trace) {
        let (Some(normal), Some(plane)) = (trace.normal, trace.plane) else {
            return;
        };
        let touch = Touch {
            normal,
            plane,
            contents: trace.contents,
            model: trace.model.unwrap_or(0),
        };
        let seen = self
            .as_slice()
            .iter()
            .any(|t| t.model == touch.model && t.plane == touch.plane);
        if !seen && self.len < MAX_TOUCHES {
            self.items[self.len] = touch;
            self.len += 1;
        }
    }

    pub(super) fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }
}

/// The walls the character is against, as unit normals (at most `MAX_CLIP_PLANES` (5)). The
/// wish is kept from pushing into them, so the speed along a wall is the wish's share along
/// it: never more than the wish, and the same at every tick rate (Quake's accelerate would
/// otherwise keep adding speed along a wall the player pushes into at an angle, on every
/// other tick). A wall is kept from one tick to the next only while a short probe towards it
/// still hits it, so walking past a wall's end frees the wish at once.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WallContacts {
    normals: [Vec3; MAX_CLIP_PLANES],
    len: usize,
}

impl WallContacts {
    /// The walls' unit normals.
    #[must_use]
    pub fn normals(&self) -> &[Vec3] {
        &self.normals[..self.len]
    }

    pub(super) fn push(&mut self, normal: Vec3) {
        let known = self
            .normals()
            .iter()
            .any(|n| n.dot(normal) > SAME_PLANE_DOT);
        if !known && self.len < MAX_CLIP_PLANES {
            self.normals[self.len] = normal;
            self.len += 1;
        }
    }

    pub(super) fn merge(&mut self, other: &WallContacts) {
        for n in other.normals() {
            self.push(*n);
        }
    }

    /// `wish` (horizontal) without the parts that push into the walls.
    pub(super) fn clip_wish(&self, wish: Vec3) -> Vec3 {
        let mut clipped = wish;
        let flat = |n: &Vec3| n.truncate().normalize_or_zero().extend(0.0);
        for n in self.normals().iter().map(flat) {
            let into = clipped.dot(n);
            if into < 0.0 {
                clipped -= n * into;
            }
        }
        // Two walls at an angle: what is left must enter neither (beyond rounding).
        let slack = CONE_SLACK * wish.length();
        if self
            .normals()
            .iter()
            .map(flat)
            .any(|n| clipped.dot(n) < -slack)
        {
            Vec3::ZERO
        } else {
            clipped
        }
    }
}

/// What one tick did, besides moving the character.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveOutcome {
    /// The planes hit, in order.
    pub touches: TouchList,
    /// Height gained by stepping up a riser this tick (0 if none).
    pub climbed: f32,
    /// Height the character was snapped down onto ground this tick (0 if none).
    pub snapped: f32,
    /// The character jumped this tick.
    pub jumped: bool,
    /// The character landed this tick, and how fast it was falling (units/s, positive).
    pub landed: Option<f32>,
    /// The shape overlapped solid and was moved out; the number of positions tried.
    pub unstuck_probes: Option<usize>,
    /// The shape overlapped solid and no free position was in reach: the character did not
    /// move this tick.
    pub stuck: bool,
}

/// The moving state of a character: everything a replay needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterState {
    /// The origin (the feet are `feet_to_origin` below it).
    pub position: Vec3,
    /// Velocity, units/s.
    pub velocity: Vec3,
    /// The ground found at the end of the last tick.
    pub ground: Ground,
    /// Whether the crouched shape is in use.
    pub crouched: bool,
    /// The jump key was down last tick.
    pub jump_held: bool,
    /// Seconds left before a jump is allowed after a hard landing.
    pub land_timer: f32,
    /// The walls the last move ended against.
    pub walls: WallContacts,
}
