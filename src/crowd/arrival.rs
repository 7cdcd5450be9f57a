//! What happens when a character arrives (added, respawned, teleported) onto others: the
//! policy a game chooses ([`Arrival`]), the telefrags it reports ([`Telefrag`]), and the
//! floods that separate a pile of arrivals in one tick ([`Floods`]).
//!
//! Takes the arrival's start, shape and step; gives, one character after another, the grid
//! spots around that start in breadth-first order (the order a fresh flood from the start
//! would find them), so the k-th arrival onto one point resumes where the (k-1)-th stopped
//! instead of flooding again past the k-1 spots already taken. Guarantees: a pile of n
//! characters on one point costs O(n) flood steps and free checks in all, not O(n²); a
//! spot is handed out only after the caller's check said it is free; the floods never
//! depend on hash-map iteration (the set of spots seen is only asked whether it holds one),
//! and their buffers are kept between ticks.

use std::collections::HashSet;

use glam::Vec3;

use crate::trace::TraceShape;

/// What a crowd does with a character that arrives inside others (inserted or respawned
/// with [`Crowd::insert`](super::Crowd::insert), moved with
/// [`Crowd::update`](super::Crowd::update)): the tick after, before anyone moves.
///
/// # Examples
/// ```
/// use glam::Vec3;
/// use planeshift::movement::{Arrival, MoveMode};
/// use planeshift::{CharacterController, ControllerConfig, Crowd, CrowdConfig, MoveInput};
/// let map = planeshift::compile_map(&std::fs::read("maps/box_room.map")?)?.map;
/// let config = ControllerConfig::default();
/// let at = Vec3::new(0.0, 0.0, 24.0 + 1.0 / 32.0);
/// // Quake 3: a player spawned onto another kills it (`G_KillBox`).
/// let mut crowd = Crowd::new(CrowdConfig { arrival: Arrival::Telefrag, ..CrowdConfig::default() });
/// crowd.insert(1, CharacterController::new(config, at)?);
/// crowd.step(&map, |_| MoveInput::default());
/// crowd.insert(2, CharacterController::new(config, at)?); // a respawn onto 1
/// crowd.step(&map, |_| MoveInput::default());
/// assert_eq!(crowd.telefrags().len(), 1);
/// assert_eq!((crowd.telefrags()[0].by, crowd.telefrags()[0].victim), (2, 1));
/// assert_eq!(crowd.get(1).unwrap().mode(), MoveMode::Dead); // a corpse: passed through
/// assert_eq!(crowd.overlapping_pairs(), 0);
/// // The default: the arrival is put at the nearest free spot, the tick it arrives.
/// let mut crowd = Crowd::new(CrowdConfig::default());
/// for id in 0..5u32 {
///     crowd.insert(id, CharacterController::new(config, at)?);
/// }
/// crowd.step(&map, |_| MoveInput::default());
/// assert_eq!(crowd.overlapping_pairs(), 0);
/// assert!(crowd.telefrags().is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arrival {
    /// The arrivals are placed at the nearest free spots reachable through the world from
    /// where they arrived (the lower id stays), however many arrived on one point, or over
    /// the pile's heads, layer by layer, when the floor they can reach is full: the default.
    #[default]
    Separate,
    /// Quake 3 `G_KillBox`: every solid character an arrival overlaps is killed (its mode
    /// becomes [`MoveMode::Dead`](crate::controller::MoveMode::Dead), a corpse the others
    /// pass through) and listed in [`Crowd::telefrags`](super::Crowd::telefrags); the
    /// arrivals are taken in increasing id order, and one killed before its turn kills
    /// nobody. The game respawns the victims.
    Telefrag,
}

/// One kill of [`Arrival::Telefrag`]: `by` arrived onto `victim`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Telefrag {
    /// The arrival.
    pub by: u32,
    /// The character it overlapped, now dead.
    pub victim: u32,
}

/// A grid cell of a flood, in spacings from its start.
pub(crate) type Cell = (i32, i32, i32);

/// One flood: the spots found from one start for one shape, in breadth-first order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Flood {
    /// What the flood is for: its start's bits, its spacing's and step's bits, the shape.
    start: [u32; 3],
    spacing: [u32; 3],
    step: u32,
    shape: Option<TraceShape>,
    /// The spots found, in the order found; the first is the start itself.
    pub(crate) spots: Vec<(Cell, Vec3)>,
    /// The cells of `spots`.
    pub(crate) seen: HashSet<Cell>,
    /// The next spot to expand.
    pub(crate) head: usize,
    /// The next spot to offer as a candidate.
    pub(crate) cursor: usize,
    /// Characters served.
    pub(crate) served: usize,
}

impl Flood {
    fn matches(&self, start: Vec3, spacing: Vec3, step: f32, shape: &TraceShape) -> bool {
        self.start == start.to_array().map(f32::to_bits)
            && self.spacing == spacing.to_array().map(f32::to_bits)
            && self.step == step.to_bits()
            && self.shape.as_ref() == Some(shape)
    }
}

/// The floods of one tick, kept (with their buffers) between ticks.
#[derive(Clone, Debug, Default)]
pub(crate) struct Floods {
    floods: Vec<Flood>,
    /// Floods in use this tick (`floods[..active]`).
    active: usize,
}

impl Floods {
    /// Forgets the last tick's floods (the world and the bodies may have changed). A tick's
    /// floods are looked up one after another: a tick with k distinct piles costs O(k) per
    /// arrival to find its flood (a few spawn points: a few).
    pub(crate) fn clear(&mut self) {
        self.active = 0;
    }

    /// The flood from `start` for `shape` with this `spacing` and `step`: the one already
    /// begun this tick, or a new one holding only the start.
    pub(crate) fn get(
        &mut self,
        start: Vec3,
        spacing: Vec3,
        step: f32,
        shape: &TraceShape,
    ) -> &mut Flood {
        let found = self.floods[..self.active]
            .iter()
            .position(|f| f.matches(start, spacing, step, shape));
        let k = match found {
            Some(k) => k,
            None => {
                if self.active == self.floods.len() {
                    self.floods.push(Flood::default());
                }
                let f = &mut self.floods[self.active];
                f.start = start.to_array().map(f32::to_bits);
                f.spacing = spacing.to_array().map(f32::to_bits);
                f.step = step.to_bits();
                match &mut f.shape {
                    Some(s) => s.clone_from(shape),
                    None => f.shape = Some(shape.clone()),
                }
                f.spots.clear();
                f.seen.clear();
                f.spots.push(((0, 0, 0), start));
                f.seen.insert((0, 0, 0));
                // The start is where the pile is: never a candidate.
                f.head = 0;
                f.cursor = 1;
                f.served = 0;
                self.active += 1;
                self.active - 1
            }
        };
        &mut self.floods[k]
    }
}
