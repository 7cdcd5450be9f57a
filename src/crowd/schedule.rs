//! The parallel crowd step ([`super::Crowd::step_parallel`], feature `parallel`): the
//! characters of a crowd stepped on every core, giving exactly the bits of the sequential
//! step ([`super::Crowd::step`]).
//!
//! Takes the crowd's members (in increasing id order, each body at the same index of
//! [`Bodies`]), their inputs and the world; gives each member's tick, or `false` with every
//! member back as it was (the caller then steps them in order).
//!
//! The sequential step runs Quake 3's server order: in increasing id order, each character
//! sees the lower ids where they moved and the higher ids where they stood. A character's
//! tick reads only the bodies its sweeps reach, so:
//! 1. each character that meets others gets a *scheduled reach*, the box its sweeps are
//!    expected to stay in: its body grown by its travel at its current speed, by
//!    [`SCHEDULE_SLACK_ACROSS`] across and by its step height and [`SCHEDULE_SLACK_UP_DOWN`]
//!    up and down;
//! 2. two characters are *neighbours* when their scheduled reaches meet (found on a grid of
//!    [`SCHEDULE_CELL`] cells, sorted, in parallel); a character's *wave* is one more than the highest wave of its
//!    lower-id neighbours (0 without any);
//! 3. the waves run one after another, the characters of a wave in parallel: no two
//!    neighbours share a wave, so each character sees its lower-id neighbours moved (earlier
//!    waves) and its higher-id neighbours standing (later waves), as in id order. It sweeps
//!    against its neighbours' bodies only ([`ReachWorld`]);
//! 4. pushes ([`super::CrowdConfig::push`]) go only to characters touched, hence neighbours:
//!    a character takes its lower-id neighbours' shoves before its tick, in id order, and its
//!    higher-id neighbours' after the last wave, in id order, as the sequential step applies
//!    them.
//!
//! The neighbours and the waves are planned afresh every tick (in parallel where it pays);
//! the plan's buffers are kept, but rayon's scheduling and the per-cell pair lists allocate:
//! the parallel step is not allocation-free (`tests/alloc.rs` covers [`super::Crowd::step`]).
//!
//! Guarantee: the answer never rests on the reach estimate. Every query a tick makes is
//! checked to lie inside the character's scheduled reach, and its body to end inside it;
//! then no body outside its neighbours could have been met, in either order. If any check
//! fails (a long unstuck search, a shove beyond the neighbours, more shoves than one list
//! holds), every character is put back to its saved state and the caller redoes the tick
//! in id order ([`super::CrowdSchedule::redone`]). Sweeps of bodies give the same answer
//! whatever order the bodies are visited in (`bodies.rs`), so a neighbour list in place of
//! the grid changes no bit.

use std::cell::Cell;

use glam::Vec3;
use rayon::prelude::*;

use super::bodies::{
    Bodies, Candidates, MAX_CONTACTS, Slot, WorldWithBodies, boxes_overlap, meets,
};
use super::members::{CrowdSchedule, Member, body_contents, is_solid, shoves};
use crate::controller::character::CharacterController;
use crate::controller::tick::{CharacterState, MoveInput};
use crate::controller::tracer::Tracer;
use crate::filter::QueryFilter;
use crate::trace::Upright;

/// How far a character's scheduled reach extends beyond its travel at its current speed,
/// up and down, in units, beyond its step height: the snap down, a jump's rise, the
/// crouch's stand-up test. Larger links more characters into longer chains of waves;
/// smaller redoes more ticks in order. No answer depends on it (nor on
/// [`SCHEDULE_SLACK_ACROSS`]).
pub(crate) const SCHEDULE_SLACK_UP_DOWN: f32 = 8.0;

/// How far a character's scheduled reach extends beyond its travel at its current speed,
/// across, in units: the few units of a tick's acceleration and its probes.
pub(crate) const SCHEDULE_SLACK_ACROSS: f32 = 16.0;

/// The neighbour search's grid cell, in units: a bit more than a running character's
/// scheduled reach across, so a reach covers one to four cells.
const SCHEDULE_CELL: f32 = 64.0;

/// Cells of the neighbour search one task takes (each a few dozen pair tests).
const NEIGHBOUR_CELLS_PER_TASK: usize = 64;

/// Waves with fewer characters run on the calling thread (handing them out costs more).
const MIN_PARALLEL_WAVE: usize = 8;

/// The shoves one character gave in a tick: `(target id, velocity change)` in the order the
/// sequential step gives them. At most [`MAX_CONTACTS`]; more redo the tick in order.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Shoves {
    items: [(u32, Vec3); MAX_CONTACTS],
    len: usize,
}

impl Shoves {
    /// Adds one; `false` when full.
    fn push(&mut self, target: u32, shove: Vec3) -> bool {
        match self.items.get_mut(self.len) {
            Some(slot) => {
                *slot = (target, shove);
                self.len += 1;
                true
            }
            None => false,
        }
    }

    /// The shoves given to `target`, in order.
    fn to(&self, target: u32) -> impl Iterator<Item = Vec3> + '_ {
        self.items[..self.len]
            .iter()
            .filter(move |(t, _)| *t == target)
            .map(|&(_, shove)| shove)
    }
}

/// A member in the neighbour search: its scheduled reach, the cell of the reach's low
/// corner, and its index.
type Entry = ((Vec3, Vec3), (i32, i32), u32);

/// One character's tick in the parallel step, written by its own task.
#[derive(Clone, Debug, Default)]
struct Scratch {
    /// Its state before the tick (restored when the tick is redone in order).
    saved: Option<CharacterState>,
    /// Its body after the tick.
    slot: Option<Slot>,
    shoves: Shoves,
    /// A query or its body left its scheduled reach, or its shoves overflowed.
    escaped: bool,
}

/// The parallel step's plan and buffers (kept between ticks: after the first ticks a step
/// allocates only what rayon's scheduling does).
#[derive(Clone, Debug, Default)]
pub(crate) struct Schedule {
    /// Each member's scheduled reach (meaningless when it does not meet others).
    reach: Vec<(Vec3, Vec3)>,
    /// Whether each member meets others (a solid character of a colliding crowd).
    meets: Vec<bool>,
    /// Neighbours, compressed rows: member `i`'s are `neighbours[offsets[i]..offsets[i+1]]`,
    /// increasing.
    offsets: Vec<u32>,
    neighbours: Vec<u32>,
    /// Each member's wave.
    wave: Vec<u32>,
    /// How many members each wave holds.
    wave_sizes: Vec<u32>,
    /// The counting sort's next place in each row (and the islands' parents).
    cursor: Vec<u32>,
    /// The grid cells each meeting member's scheduled reach covers, `(cell, member)`.
    cells: Vec<(u64, u32)>,
    /// The cell of each member's scheduled reach's low corner.
    low_cells: Vec<(i32, i32)>,
    /// The sorted `cells` entries' members with their reach and low cell.
    entries: Vec<Entry>,
    /// Where each cell's entries start in the sorted `cells`, and the end.
    groups: Vec<u32>,
    /// Neighbour pairs found in each cell.
    found: Vec<Vec<(u32, u32)>>,
    /// Neighbour pairs `(lower, higher)` member.
    edges: Vec<(u32, u32)>,
    /// Each member's body as the waves run (after its tick once its wave has run).
    current: Vec<Option<Slot>>,
    /// Each member's shoves once its wave has run.
    given: Vec<Shoves>,
    scratch: Vec<Scratch>,
    /// The inputs, by member.
    pub(crate) inputs: Vec<MoveInput>,
    pub(crate) stats: CrowdSchedule,
}

impl Schedule {
    /// Member `i`'s neighbours.
    fn near(&self, i: usize) -> &[u32] {
        &self.neighbours[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// Plans the waves for `members` (bodies as they stand after separation).
    fn plan(&mut self, members: &[Member], bodies: &Bodies, collide: bool) {
        let n = members.len();
        self.reach.clear();
        self.meets.clear();
        self.current.clear();
        self.cells.clear();
        self.low_cells.clear();
        for (i, m) in members.iter().enumerate() {
            let c = &m.controller;
            let body = bodies.slot(i).copied();
            debug_assert!(body.is_some_and(|b| b.id == m.id));
            let meets = collide && is_solid(c.mode()) && body.is_some();
            self.meets.push(meets);
            self.current.push(body);
            let reach = match body.filter(|_| meets) {
                Some(body) => scheduled_reach(c, body.bounds()),
                None => (Vec3::ZERO, Vec3::ZERO),
            };
            self.reach.push(reach);
            let (low, high) = (cell_of(reach.0), cell_of(reach.1));
            self.low_cells.push(low);
            if meets {
                for x in low.0..=high.0 {
                    for y in low.1..=high.1 {
                        self.cells.push((cell_key((x, y)), i as u32));
                    }
                }
            }
        }
        self.neighbours_by_cells();
        // Waves, and the members by wave (a counting sort).
        self.wave.clear();
        let mut waves = 0;
        for i in 0..n {
            let w = self
                .near(i)
                .iter()
                .take_while(|&&j| (j as usize) < i)
                .map(|&j| self.wave[j as usize] + 1)
                .max()
                .unwrap_or(0);
            self.wave.push(w);
            waves = waves.max(w as usize + 1);
        }
        self.wave_sizes.clear();
        self.wave_sizes.resize(waves, 0);
        for &w in &self.wave {
            self.wave_sizes[w as usize] += 1;
        }
        let widest = self.wave_sizes.iter().max().map_or(0, |&w| w as usize);
        self.stats = CrowdSchedule {
            characters: n,
            pairs: self.neighbours.len() / 2,
            largest_island: self.largest_island(),
            waves,
            widest,
            threads: rayon::current_num_threads(),
            redone: false,
        };
        // Every member's entries are written by its wave before they are read.
        self.given.resize(n, Shoves::default());
        self.scratch.resize(n, Scratch::default());
    }

    /// The neighbours (members whose scheduled reaches meet), from [`Self::cells`]: the
    /// entries sorted by cell, each pair of a cell tested once, and kept in the first cell
    /// both reaches cover (so each pair once); then rows for both ends, increasing.
    fn neighbours_by_cells(&mut self) {
        let n = self.reach.len();
        self.cells.par_sort_unstable();
        self.groups.clear();
        for (k, entry) in self.cells.iter().enumerate() {
            if k == 0 || self.cells[k - 1].0 != entry.0 {
                self.groups.push(k as u32);
            }
        }
        self.groups.push(self.cells.len() as u32);
        self.edges.clear();
        // Each entry with its member's reach and low cell, in cell order: the pair tests
        // then read memory in sequence.
        let (reach, low_cells) = (&self.reach, &self.low_cells);
        self.entries.clear();
        self.entries.par_extend(
            self.cells
                .par_iter()
                .map(|&(_, i)| (reach[i as usize], low_cells[i as usize], i)),
        );
        let (cells, entries) = (&self.cells, &self.entries);
        let pairs_of = |group: &[u32]| {
            let range = group[0] as usize..group[1] as usize;
            let (key, group) = (cells[range.start].0, &entries[range]);
            // Sort and sweep up the column: a cell is a column, and a piled crowd stacks in
            // it, so each reach is tested only against those whose heights meet it (the
            // same pairs as testing all, in another order; rows are sorted below).
            let mut by_height: Vec<_> = group.iter().collect();
            by_height.sort_unstable_by(|a, b| a.0.0.z.total_cmp(&b.0.0.z));
            let mut found = Vec::new();
            for (a, &&(ri, li, i)) in by_height.iter().enumerate() {
                for &&(rj, lj, j) in &by_height[a + 1..] {
                    if rj.0.z > ri.1.z {
                        break;
                    }
                    if boxes_overlap(ri, rj) && cell_key((li.0.max(lj.0), li.1.max(lj.1))) == key {
                        found.push((i, j));
                    }
                }
            }
            found
        };
        self.found.clear();
        self.groups
            .par_windows(2)
            .with_min_len(NEIGHBOUR_CELLS_PER_TASK)
            .map(pairs_of)
            .collect_into_vec(&mut self.found);
        for found in &self.found {
            self.edges.extend_from_slice(found);
        }
        // Rows: count, place, sort.
        self.offsets.clear();
        self.offsets.resize(n + 1, 0);
        for &(i, j) in &self.edges {
            self.offsets[i as usize + 1] += 1;
            self.offsets[j as usize + 1] += 1;
        }
        for i in 0..n {
            self.offsets[i + 1] += self.offsets[i];
        }
        self.neighbours.clear();
        self.neighbours.resize(self.edges.len() * 2, 0);
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.offsets[..n]);
        for &(i, j) in &self.edges {
            for (from, to) in [(i, j), (j, i)] {
                let at = &mut self.cursor[from as usize];
                self.neighbours[*at as usize] = to;
                *at += 1;
            }
        }
        for i in 0..n {
            self.neighbours[self.offsets[i] as usize..self.offsets[i + 1] as usize].sort_unstable();
        }
    }

    /// The most members linked through neighbours (union-find over the pairs).
    fn largest_island(&mut self) -> usize {
        let n = self.reach.len();
        self.cursor.clear();
        self.cursor.extend(0..n as u32);
        fn root(parent: &mut [u32], mut i: u32) -> u32 {
            while parent[i as usize] != i {
                let up = parent[parent[i as usize] as usize];
                parent[i as usize] = up;
                i = up;
            }
            i
        }
        for &(i, j) in &self.edges {
            let (a, b) = (root(&mut self.cursor, i), root(&mut self.cursor, j));
            if a != b {
                self.cursor[a.max(b) as usize] = a.min(b);
            }
        }
        let mut size = vec![0usize; n];
        let mut largest = usize::from(n > 0);
        for i in 0..n as u32 {
            let r = root(&mut self.cursor, i) as usize;
            size[r] += 1;
            largest = largest.max(size[r]);
        }
        largest
    }

    /// Steps `members` (inputs in [`Self::inputs`]) through `world` by waves; `true` when
    /// every tick stayed in its reach (then `bodies` are moved and the shoves given), else
    /// `false` with every member back in its saved state and `bodies` untouched.
    pub(crate) fn run<T: Tracer + Sync + ?Sized>(
        &mut self,
        members: &mut [Member],
        bodies: &mut Bodies,
        world: &T,
        collide: bool,
        push: Option<f32>,
    ) -> bool {
        self.plan(members, bodies, collide);
        let mut scratch = std::mem::take(&mut self.scratch);
        {
            // Each member with its scratch, bucketed by wave once (each member is in exactly
            // one wave, so the mutable borrows are disjoint): a wave hands out only its own.
            let mut waves: Vec<Vec<(usize, &mut Member, &mut Scratch)>> = self
                .wave_sizes
                .iter()
                .map(|&size| Vec::with_capacity(size as usize))
                .collect();
            for (i, (m, s)) in members.iter_mut().zip(scratch.iter_mut()).enumerate() {
                if let Some(wave) = waves.get_mut(self.wave[i] as usize) {
                    wave.push((i, m, s));
                }
            }
            for wave in &mut waves {
                {
                    let plan = &*self;
                    let bodies = &*bodies;
                    let one = |(i, m, s): &mut (usize, &mut Member, &mut Scratch)| {
                        plan.step_one(*i, m, s, world, bodies, push);
                    };
                    if wave.len() < MIN_PARALLEL_WAVE {
                        wave.iter_mut().for_each(one);
                    } else {
                        wave.par_iter_mut().for_each(one);
                    }
                }
                for (i, _, s) in wave.iter() {
                    self.current[*i] = s.slot;
                    self.given[*i] = s.shoves;
                }
            }
        }
        self.scratch = scratch;
        if self.scratch.iter().any(|s| s.escaped) {
            for (m, s) in members.iter_mut().zip(&self.scratch) {
                if let Some(state) = &s.saved {
                    m.controller.set_state(state.clone());
                }
            }
            self.stats.redone = true;
            return false;
        }
        for (i, s) in self.scratch.iter().enumerate() {
            if let Some(slot) = &s.slot {
                bodies.place(i, slot);
            }
        }
        if push.is_some() {
            let plan = &*self;
            members.par_iter_mut().enumerate().for_each(|(i, m)| {
                if !plan.meets[i] {
                    return;
                }
                for &k in plan.near(i).iter().filter(|&&k| k as usize > i) {
                    for shove in plan.given[k as usize].to(m.id) {
                        m.controller.apply_impulse(shove, 0.0);
                    }
                }
            });
        }
        true
    }

    /// Member `i`'s tick, with its lower-id neighbours' shoves first.
    fn step_one<T: Tracer + ?Sized>(
        &self,
        i: usize,
        m: &mut Member,
        s: &mut Scratch,
        world: &T,
        bodies: &Bodies,
        push: Option<f32>,
    ) {
        // Into the kept state, so its trigger list keeps its capacity.
        match &mut s.saved {
            Some(saved) => saved.clone_from(m.controller.state()),
            None => s.saved = Some(m.controller.state().clone()),
        }
        s.shoves = Shoves::default();
        s.escaped = false;
        let input = &self.inputs[i];
        if !self.meets[i] {
            m.controller.step_into(world, input, &mut m.outcome.tick);
        } else {
            for &k in self.near(i).iter().take_while(|&&k| (k as usize) < i) {
                for shove in self.given[k as usize].to(m.id) {
                    m.controller.apply_impulse(shove, 0.0);
                }
            }
            let wanted = m.controller.velocity();
            let view = WorldWithBodies {
                world,
                bodies,
                mover: Some(m.id),
                ghosts: &m.ghosts,
            };
            let me = bodies.movement_filter_at(i, m.id);
            let neighbours = Neighbours {
                me: &me,
                ghosts: &m.ghosts,
                reach: self.reach[i],
                near: self.near(i),
                current: &self.current,
                escaped: Cell::new(false),
            };
            let tracer = view.seen(&me, neighbours);
            m.controller.step_into(&tracer, input, &mut m.outcome.tick);
            s.escaped = tracer.candidates.escaped.get();
            if let Some(share) = push {
                shoves(&m.outcome.tick.touches, wanted, share, |target, shove| {
                    s.escaped |= !s.shoves.push(target, shove);
                });
            }
        }
        let c = &m.controller;
        let slot = Slot::placed(m.id, c.shape(), c.shape_center(), body_contents(c.mode()));
        if self.meets[i] {
            let (reach, (low, high)) = (self.reach[i], slot.bounds());
            s.escaped |= !(reach.0.cmple(low).all() && high.cmple(reach.1).all());
        }
        s.slot = Some(slot);
    }
}

/// The box member `c`'s tick is scheduled in: its body `body` grown by its travel at its
/// current speed, by [`SCHEDULE_SLACK_ACROSS`] across and by its step height and
/// [`SCHEDULE_SLACK_UP_DOWN`] up and down.
fn scheduled_reach(c: &CharacterController, body: (Vec3, Vec3)) -> (Vec3, Vec3) {
    let travel = c.velocity().abs() * c.config().tick;
    let up_down = c.config().step_height + SCHEDULE_SLACK_UP_DOWN;
    let grow = travel + Vec3::new(SCHEDULE_SLACK_ACROSS, SCHEDULE_SLACK_ACROSS, up_down);
    (body.0 - grow, body.1 + grow)
}

/// The neighbour search's cell of a point (`as` saturates far outside the world).
fn cell_of(p: Vec3) -> (i32, i32) {
    (
        (p.x / SCHEDULE_CELL).floor() as i32,
        (p.y / SCHEDULE_CELL).floor() as i32,
    )
}

/// A cell as one sortable key.
fn cell_key(cell: (i32, i32)) -> u64 {
    (u64::from(cell.0 as u32) << 32) | u64::from(cell.1 as u32)
}

/// The neighbours of one character, for its tick in a wave: sweeps meet the neighbours'
/// bodies as they stand in the wave order, and any query beyond the scheduled reach is
/// recorded (the tick is then redone in order).
struct Neighbours<'a> {
    /// The character's filter ([`WorldWithBodies::filter`]), computed once for the tick.
    me: &'a QueryFilter,
    /// The characters it passes through.
    ghosts: &'a [u32],
    reach: (Vec3, Vec3),
    near: &'a [u32],
    current: &'a [Option<Slot>],
    escaped: Cell<bool>,
}

/// The neighbours as a tick's [`Candidates`]: a query beyond the scheduled reach is
/// recorded.
impl Candidates for Neighbours<'_> {
    fn for_each(&self, area: (Vec3, Vec3), mut f: impl FnMut(u32, &Upright, Vec3)) {
        if !(self.reach.0.cmple(area.0).all() && area.1.cmple(self.reach.1).all()) {
            self.escaped.set(true);
        }
        for &k in self.near {
            if let Some(slot) = &self.current[k as usize]
                && slot.solid
                && boxes_overlap(slot.bounds(), area)
                && meets(self.me, self.ghosts, slot)
            {
                f(slot.id, &slot.parts, slot.at);
            }
        }
    }
}
