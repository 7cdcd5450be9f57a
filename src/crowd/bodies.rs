//! Characters as obstacles: [`Bodies`], the characters' shapes behind a broadphase, and
//! [`WorldWithBodies`], the tracer that sweeps through a world and them (Quake 3
//! `sv_world.c SV_Trace`: the world, then the entities the move's bounds reach).
//!
//! Takes each character's id, shape and position, and any [`Tracer`] for the world (a map,
//! a map with movers); gives sweeps that stop at the first of the world and the other
//! characters, with the character hit named by its id. Guarantees:
//! - the broadphase is a uniform grid in the horizontal plane, hashed: a body sits in the
//!   cell of its centre (and in the coarse cell of 8 × 8 fine ones holding it, which
//!   `along.rs` walks for long sweeps), a query scans the cells its box reaches (grown by
//!   the largest body), so the cost of a sweep grows with the bodies near it, not the crowd;
//! - results never depend on the order bodies were added or are visited: the earliest
//!   impact wins, the world before a character at the same fraction, and among characters
//!   the lowest id (also among bodies a sweep starts and ends inside), so the parallel
//!   crowd step's neighbour lists (`schedule.rs`) answer as the grid does;
//! - a sweep meets a character exactly (`trace/body.rs`) and never ends inside one; the
//!   mover itself, non-solid bodies and the ghosts it names (characters it already
//!   overlapped, which it passes through until they part) are never met;
//! - no allocation per sweep; adding or removing a body may reallocate, moving one does not.

use glam::Vec3;

use crate::contents::Contents;
use crate::controller::ids::IdSet;
use crate::controller::tracer::{ShapeQuery, SpeedFacts, Tracer, WorldPart};
use crate::filter::{CollisionGroups, QueryFilter};
use crate::tolerance::SURFACE_CLIP_EPSILON;
use crate::trace::{HitTarget, Trace, TraceShape, Upright, UprightSweep, uprights_overlap};

use super::lanes::{BoundsLanes, space_order};

/// The broadphase's cell size, in units: about two Quake players across, so a tick's sweeps
/// reach one to four cells and a packed crowd puts a few characters in each (measured on the
/// 64-bot soak: 128 cost more in crowds, 32 no less).
pub(super) const CELL: f32 = 64.0;

/// The most bodies that every look is a scan of all of them, four at a time (`lanes.rs`),
/// rather than a look through the grid ([`Bodies::visit_any`]) or an estimate and a walk of
/// the cells a sweep crosses (`along.rs`): the scan tests the boxes around each block of
/// four (space order keeps them small) and then only the blocks the look meets, so its cost
/// grows with the crowd, the grid's with the cells the look covers. Measured with callgrind:
/// a crowd bench character's gather of its neighbours (64 colliding) costs 950 instructions
/// scanned against 1,330 through the grid; the scene bench's hitscans cost, per ray on arena
/// and e1m2, 4,608 and 5,384 scanned against 4,929 and 5,596 estimated and walked with 128
/// characters, 4,981 and 5,566 against 5,170 and 5,697 with 200; with 400 the walk wins,
/// 5,652 and 5,937 against 5,916 and 6,238.
pub(super) const WHOLE_SCAN_MAX_BODIES: usize = 256;

/// The fewest hash buckets; the table then grows to twice the number of bodies.
const MIN_BUCKETS: usize = 16;

/// The hash table's bucket count for `bodies` bodies: at least twice as many, a power of two.
fn table_size(bodies: usize) -> usize {
    (2 * bodies).next_power_of_two().max(MIN_BUCKETS)
}

/// End of a bucket's list.
pub(super) const NONE: u32 = u32::MAX;

/// Most characters one report lists (overlaps, ghosts): a character overlaps a few at most.
pub const MAX_CONTACTS: usize = 8;

/// Character ids, sorted, at most [`MAX_CONTACTS`].
pub type CharacterIds = IdSet<MAX_CONTACTS>;

/// One body.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot {
    pub(crate) id: u32,
    pub(super) parts: Upright,
    /// The shape's reference point.
    pub(super) at: Vec3,
    /// The world-space bounds, kept with the position.
    bounds: (Vec3, Vec3),
    pub(crate) solid: bool,
    /// What the body is made of: [`Contents::BODY`] when solid, [`Contents::CORPSE`] for a
    /// dead character, empty for one that meets no one (noclip, a spectator).
    pub(crate) contents: Contents,
    /// The body's collision groups.
    pub(crate) groups: CollisionGroups,
    /// What blocks this character when it moves (its movement mask): which other bodies it
    /// meets, by their contents.
    pub(crate) mask: Contents,
    /// The grid cell of the bounds' centre.
    pub(super) cell: (i32, i32),
    /// The next slot in the same coarse bucket (`along.rs`).
    pub(super) next_coarse: u32,
}

impl Slot {
    /// The world-space bounds.
    pub(crate) fn bounds(&self) -> (Vec3, Vec3) {
        self.bounds
    }

    /// Body `id`, `shape` at `at`, made of `contents` (solid when they hold
    /// [`Contents::BODY`]), outside any grid (the parallel crowd step's copy of a
    /// character's body, `schedule.rs`), in every group, moving with the player's mask
    /// ([`Bodies::place`] keeps the groups and mask the body had).
    #[cfg(feature = "parallel")]
    pub(crate) fn placed(id: u32, shape: &TraceShape, at: Vec3, contents: Contents) -> Slot {
        let parts = Upright::of(shape);
        Slot {
            id,
            parts,
            at,
            bounds: world_bounds(&parts, at),
            solid: contents.intersects(Contents::BODY),
            contents,
            groups: CollisionGroups::ALL,
            mask: Contents::MASK_PLAYER_SOLID,
            cell: (0, 0),
            next_coarse: NONE,
        }
    }
}

/// A body in the fine grid's bucket chains: what a look through the grid reads of every
/// body it passes (its bounds and cell, 40 bytes against a [`Slot`]'s 108), kept apart from
/// the slots and laid out chain by chain ([`Bodies::relayout`]), so a look through a
/// crowded cell reads a few lines in a row instead of a line per body, scattered over the
/// crowd's slots in id order.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    /// The body's world-space bounds (its slot's).
    pub(super) bounds: (Vec3, Vec3),
    /// The grid cell of the bounds' centre (its slot's).
    pub(super) cell: (i32, i32),
    /// The next node in the same bucket.
    pub(super) next: u32,
    /// The body's slot, in increasing id order.
    pub(super) slot: u32,
}

/// The world-space bounds of `parts` at `at`.
fn world_bounds(parts: &Upright, at: Vec3) -> (Vec3, Vec3) {
    let (low, high) = parts.bounds();
    (at + low, at + high)
}

/// `floor(v)` as an integer with comparisons only (no call into the platform's `floorf`
/// on targets without a rounding instruction); `as` saturates out of range values.
fn floor_i32(v: f32) -> i32 {
    let truncated = v as i32;
    if (truncated as f32) > v {
        truncated - 1
    } else {
        truncated
    }
}

/// The grid cell of a point.
pub(super) fn cell_of(p: Vec3) -> (i32, i32) {
    // In range: positions are validated finite and within the world limit, far inside i32
    // cells; `as` saturates anything else.
    (floor_i32(p.x / CELL), floor_i32(p.y / CELL))
}

/// Fine cells per coarse cell along x and y, as a shift: a coarse cell is 8 × 8 fine ones
/// (512 units), a few across a level, so a long sweep (a hitscan across a room) looks at a
/// handful of coarse cells where it would look at dozens of fine ones (`along.rs` picks the
/// cheaper by its estimate; measured on the scene bench's hitscans, where 256-unit cells
/// cost about the same and 1,024 more).
pub(super) const COARSE_SHIFT: u32 = 3;

/// The coarse cell holding fine cell `cell` (an arithmetic shift: the floor for negative
/// cells too).
pub(super) fn coarse_of(cell: (i32, i32)) -> (i32, i32) {
    (cell.0 >> COARSE_SHIFT, cell.1 >> COARSE_SHIFT)
}

/// The bucket of a cell (a multiplicative hash of both coordinates).
pub(super) fn bucket_of(cell: (i32, i32), buckets: usize) -> usize {
    let h = (cell.0 as u32).wrapping_mul(0x9e37_79b1) ^ (cell.1 as u32).wrapping_mul(0x85eb_ca77);
    (h as usize) & (buckets - 1)
}

/// Whether the closed boxes overlap (touching counts).
pub(crate) fn boxes_overlap(a: (Vec3, Vec3), b: (Vec3, Vec3)) -> bool {
    a.0.cmple(b.1).all() && b.0.cmple(a.1).all()
}

/// The characters' shapes and positions, by id, behind a broadphase.
///
/// # Examples
/// ```
/// use glam::Vec3;
/// use planeshift::TraceShape;
/// use planeshift::movement::Bodies;
/// let player = TraceShape::quake3_player();
/// let mut bodies = Bodies::new();
/// bodies.insert(7, &player, Vec3::new(0.0, 0.0, 24.0));
/// bodies.insert(3, &player, Vec3::new(500.0, 0.0, 24.0));
/// let near = bodies.overlapping(&player, Vec3::new(20.0, 0.0, 24.0), None);
/// assert_eq!(near.as_slice(), &[7]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Bodies {
    /// Sorted by id.
    pub(super) slots: Vec<Slot>,
    /// The first node of each bucket.
    pub(super) buckets: Vec<u32>,
    /// The fine grid's bucket chains ([`Node`]), each chain's nodes in a row after a
    /// [`Self::relayout`].
    pub(super) nodes: Vec<Node>,
    /// Each slot's node.
    node_of: Vec<u32>,
    /// Links into the fine grid since the nodes were last laid out.
    relinked: usize,
    /// [`Self::relayout`]'s buffers: the nodes' last layout, the chains' heads in order.
    relayout_nodes: Vec<Node>,
    relayout_heads: Vec<(u64, u32)>,
    /// The first slot of each coarse bucket ([`COARSE_SHIFT`]), as many as `buckets`.
    pub(super) coarse_buckets: Vec<u32>,
    /// How many slots each coarse bucket holds.
    coarse_counts: Vec<u32>,
    /// How many coarse buckets hold a slot (at most the coarse cells that do: an estimate's
    /// density, `along.rs`).
    pub(super) coarse_occupied: u32,
    /// A box holding every body's bounds (grows as bodies move; exact again when the table
    /// is rebuilt): a sweep that misses it meets no body.
    pub(super) extent: (Vec3, Vec3),
    /// The largest horizontal half extent of any body's bounds about its centre (grows as
    /// bodies change; recomputed when the table is rebuilt).
    pub(super) reach: f32,
    /// The largest vertical half extent, likewise.
    reach_z: f32,
    /// Every body's bounds, axis by axis in space order (`lanes.rs`): the look along a
    /// sweep that tests every body (`along.rs`). Laid out again when the table is rebuilt
    /// and when a quarter more bodies were added.
    pub(super) lanes: BoundsLanes,
}

impl Bodies {
    /// No bodies.
    #[must_use]
    pub fn new() -> Bodies {
        Bodies::default()
    }

    /// How many bodies.
    #[must_use]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The ids, increasing.
    pub fn ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.slots.iter().map(|s| s.id)
    }

    fn index(&self, id: u32) -> Option<usize> {
        self.slots.binary_search_by_key(&id, |s| s.id).ok()
    }

    /// Adds (or replaces) body `id`: `shape` with its reference point at `at`, solid
    /// ([`Contents::BODY`], every group, moving with [`Contents::MASK_PLAYER_SOLID`] until
    /// [`Self::set_contents`], [`Self::set_groups`] or [`Self::set_mask`] say otherwise).
    pub fn insert(&mut self, id: u32, shape: &TraceShape, at: Vec3) {
        if self.index(id).is_some() {
            self.update(id, shape, at, true);
            return;
        }
        let parts = Upright::of(shape);
        let slot = Slot {
            id,
            parts,
            at,
            bounds: world_bounds(&parts, at),
            solid: true,
            contents: Contents::BODY,
            groups: CollisionGroups::ALL,
            mask: Contents::MASK_PLAYER_SOLID,
            cell: (0, 0),
            next_coarse: NONE,
        };
        let place = self.slots.partition_point(|s| s.id < id);
        self.slots.insert(place, slot);
        if place + 1 == self.slots.len() && table_size(self.slots.len()) == self.buckets.len() {
            // Appended (ids usually come increasing) into a table of the right size: no
            // index moved, so linking the new body is the whole update (adding n bodies
            // in order costs O(n), not O(n²)).
            self.add_to_table(place);
            if self.lanes.wants_order() {
                self.order_lanes();
            }
        } else {
            self.rebuild();
        }
    }

    /// Removes body `id`; whether it was there.
    pub fn remove(&mut self, id: u32) -> bool {
        let Some(i) = self.index(id) else {
            return false;
        };
        self.slots.remove(i);
        self.rebuild();
        true
    }

    /// Moves body `id` (reshaping it, and making it solid or not: a solid body is made of
    /// [`Contents::BODY`], a non-solid one of nothing and is never met); whether it was
    /// there.
    pub fn update(&mut self, id: u32, shape: &TraceShape, at: Vec3, solid: bool) -> bool {
        let contents = if solid {
            Contents::BODY
        } else {
            Contents::EMPTY
        };
        self.update_as(id, shape, at, contents)
    }

    /// [`Self::update`] with the body's contents given: solid when they hold
    /// [`Contents::BODY`] (a corpse, [`Contents::CORPSE`], is met by queries whose mask
    /// names it, never by moving characters).
    pub(crate) fn update_as(
        &mut self,
        id: u32,
        shape: &TraceShape,
        at: Vec3,
        contents: Contents,
    ) -> bool {
        let solid = contents.intersects(Contents::BODY);
        let Some(i) = self.index(id) else {
            return false;
        };
        let parts = Upright::of(shape);
        let slot = &mut self.slots[i];
        slot.parts = parts;
        slot.at = at;
        slot.bounds = world_bounds(&parts, at);
        slot.solid = solid;
        slot.contents = contents;
        self.grow_to(i);
        true
    }

    /// Moves the body at `index` (in increasing id order) to `slot`, a body of the same id
    /// built by [`Slot::placed`]: [`Self::update`] with the parts already computed.
    #[cfg(feature = "parallel")]
    pub(crate) fn place(&mut self, index: usize, slot: &Slot) {
        let Some(old) = self.slots.get(index) else {
            return;
        };
        debug_assert_eq!(old.id, slot.id);
        self.slots[index] = Slot {
            cell: old.cell,
            next_coarse: old.next_coarse,
            groups: old.groups,
            mask: old.mask,
            ..*slot
        };
        self.grow_to(index);
    }

    /// After slot `i` changed shape or place: the reaches and the extent take its new
    /// bounds in, and it moves to its new cell's buckets when its cells changed.
    fn grow_to(&mut self, i: usize) {
        let slot = self.slots[i];
        self.reach = self.reach.max(horizontal_reach(&slot.parts));
        self.reach_z = self.reach_z.max(vertical_reach(&slot.parts));
        self.extent = (
            self.extent.0.min(slot.bounds.0),
            self.extent.1.max(slot.bounds.1),
        );
        self.lanes.set(i, slot.bounds);
        if let Some(node) = self
            .node_of
            .get(i)
            .and_then(|&n| self.nodes.get_mut(n as usize))
        {
            node.bounds = slot.bounds;
        }
        let cell = cell_of(slot.at + slot.parts.center);
        if cell != slot.cell {
            let coarse_moved = coarse_of(cell) != coarse_of(slot.cell);
            self.unlink(i);
            if coarse_moved {
                self.unlink_coarse(i);
            }
            self.link(i, cell);
            if coarse_moved {
                self.link_coarse(i);
            }
        }
    }

    /// Makes body `id` of `contents` (solid when they hold [`Contents::BODY`]: a dead
    /// character is [`Contents::CORPSE`], which shots meet and movement passes); whether it
    /// was there.
    pub fn set_contents(&mut self, id: u32, contents: Contents) -> bool {
        let Some(slot) = self.index(id).and_then(|i| self.slots.get_mut(i)) else {
            return false;
        };
        slot.contents = contents;
        slot.solid = contents.intersects(Contents::BODY);
        true
    }

    /// Puts body `id` in `groups`; whether it was there.
    pub fn set_groups(&mut self, id: u32, groups: CollisionGroups) -> bool {
        let Some(slot) = self.index(id).and_then(|i| self.slots.get_mut(i)) else {
            return false;
        };
        slot.groups = groups;
        true
    }

    /// Gives body `id` the movement mask `mask`: when it moves (as the mover of a
    /// [`WorldWithBodies`]) it meets the bodies whose contents meet `mask`; whether it was
    /// there.
    pub fn set_mask(&mut self, id: u32, mask: Contents) -> bool {
        let Some(slot) = self.index(id).and_then(|i| self.slots.get_mut(i)) else {
            return false;
        };
        slot.mask = mask;
        true
    }

    /// Body `id`'s contents and groups.
    #[must_use]
    pub fn filter_of(&self, id: u32) -> Option<(Contents, CollisionGroups)> {
        self.index(id)
            .map(|i| (self.slots[i].contents, self.slots[i].groups))
    }

    /// The filter body `id` moves with: its mask and groups, skipping itself. The default
    /// player filter when there is no such body.
    pub(crate) fn movement_filter(&self, id: Option<u32>) -> QueryFilter {
        let slot = id
            .and_then(|id| self.index(id))
            .and_then(|i| self.slots.get(i));
        match slot {
            Some(slot) => Self::filter_of_slot(slot),
            None => QueryFilter::new(Contents::MASK_PLAYER_SOLID),
        }
    }

    /// [`Self::movement_filter`] of body `id`, looked for first at `index` in increasing id
    /// order (a crowd's member index, which is its body's): no search over a crowd of
    /// thousands (a search's loads miss the cache) when it is there.
    pub(crate) fn movement_filter_at(&self, index: usize, id: u32) -> QueryFilter {
        match self.slots.get(index) {
            Some(slot) if slot.id == id => Self::filter_of_slot(slot),
            _ => self.movement_filter(Some(id)),
        }
    }

    fn filter_of_slot(slot: &Slot) -> QueryFilter {
        QueryFilter::new(slot.mask)
            .groups(slot.groups)
            .skip_character(slot.id)
    }

    /// Calls `f` with the id, contents, groups, parts and reference point of every body,
    /// solid or not, whose bounds overlap the box `area` (the scene's queries,
    /// `scene/query.rs`), each once, in no particular order.
    pub(crate) fn for_each_body_in(
        &self,
        area: (Vec3, Vec3),
        mut f: impl FnMut(u32, Contents, CollisionGroups, &Upright, Vec3),
    ) {
        self.visit_any(area, |_, slot| {
            f(slot.id, slot.contents, slot.groups, &slot.parts, slot.at);
        });
    }

    /// Body `id`'s parts and reference point.
    pub(crate) fn parts(&self, id: u32) -> Option<(Upright, Vec3)> {
        self.index(id)
            .map(|i| (self.slots[i].parts, self.slots[i].at))
    }

    /// The body at `index` in increasing id order (a crowd keeps its members in the same
    /// order, so this is member `index`'s body).
    #[cfg(feature = "parallel")]
    pub(crate) fn slot(&self, index: usize) -> Option<&Slot> {
        self.slots.get(index)
    }

    /// The largest horizontal and vertical half extents of any body, in units (upper
    /// bounds).
    pub(crate) fn reach(&self) -> (f32, f32) {
        (self.reach, self.reach_z)
    }

    /// Where body `id`'s reference point is, and whether it is solid.
    #[must_use]
    pub fn get(&self, id: u32) -> Option<(Vec3, bool)> {
        self.index(id)
            .map(|i| (self.slots[i].at, self.slots[i].solid))
    }

    /// The solid bodies that `shape` placed at `at` overlaps (touching counts), but `skip`,
    /// in increasing id order (the lowest [`MAX_CONTACTS`] of them, and
    /// `CharacterIds::dropped` when there were more). No allocation.
    #[must_use]
    pub fn overlapping(&self, shape: &TraceShape, at: Vec3, skip: Option<u32>) -> CharacterIds {
        let parts = Upright::of(shape);
        let (low, high) = parts.bounds();
        let mut found = CharacterIds::default();
        self.visit((at + low, at + high), |slot| {
            if Some(slot.id) != skip && uprights_overlap(&parts, at, &slot.parts, slot.at) {
                found.insert(slot.id);
            }
        });
        found
    }

    /// Calls `f` with every solid body `shape` placed at `at` overlaps but `skip`, in no
    /// particular order (all of them, unlike [`Self::overlapping`]).
    pub(crate) fn for_each_overlapping(
        &self,
        shape: &TraceShape,
        at: Vec3,
        skip: Option<u32>,
        mut f: impl FnMut(u32),
    ) {
        let parts = Upright::of(shape);
        let (low, high) = parts.bounds();
        self.visit((at + low, at + high), |slot| {
            if Some(slot.id) != skip && uprights_overlap(&parts, at, &slot.parts, slot.at) {
                f(slot.id);
            }
        });
    }

    /// Counts the pairs of solid bodies that overlap (touching counts).
    #[must_use]
    pub fn overlapping_pairs(&self) -> usize {
        let mut pairs = 0;
        for a in self.slots.iter().filter(|s| s.solid) {
            self.visit(a.bounds(), |b| {
                if b.id > a.id && uprights_overlap(&a.parts, a.at, &b.parts, b.at) {
                    pairs += 1;
                }
            });
        }
        pairs
    }

    /// Calls `f` on every solid body whose bounds overlap the box `area`, each once, in no
    /// particular order.
    fn visit(&self, area: (Vec3, Vec3), mut f: impl FnMut(&Slot)) {
        self.visit_indexed(area, |_, slot| f(slot));
    }

    /// [`Self::visit`], also giving each body's index in increasing id order.
    pub(crate) fn visit_indexed(&self, area: (Vec3, Vec3), mut f: impl FnMut(usize, &Slot)) {
        self.visit_any(area, |i, slot| {
            if slot.solid {
                f(i, slot);
            }
        });
    }

    /// Calls `f` on every body, solid or not, whose bounds overlap the box `area`, each
    /// once, in no particular order, with its index in increasing id order.
    pub(crate) fn visit_any(&self, area: (Vec3, Vec3), mut f: impl FnMut(usize, &Slot)) {
        let grow = Vec3::new(self.reach, self.reach, 0.0);
        let (low, high) = (cell_of(area.0 - grow), cell_of(area.1 + grow));
        let columns = i64::from(high.0) - i64::from(low.0) + 1;
        let rows = i64::from(high.1) - i64::from(low.1) + 1;
        let mut consider = |i: usize, slot: &Slot| {
            if boxes_overlap(slot.bounds(), area) {
                f(i, slot);
            }
        };
        if self.slots.len() <= WHOLE_SCAN_MAX_BODIES {
            // A few hundred bodies: their bounds across the ground plane, four at a time.
            self.lanes
                .for_each_overlapping(area.0.truncate(), area.1.truncate(), |i| {
                    if let Some(slot) = self.slots.get(i) {
                        consider(i, slot);
                    }
                });
            return;
        }
        if columns.saturating_mul(rows) > self.slots.len() as i64 || self.buckets.is_empty() {
            for (i, slot) in self.slots.iter().enumerate() {
                consider(i, slot);
            }
            return;
        }
        for x in low.0..=high.0 {
            for y in low.1..=high.1 {
                let mut n = self.buckets[bucket_of((x, y), self.buckets.len())];
                while let Some(node) = self.nodes.get(n as usize) {
                    if node.cell == (x, y)
                        && boxes_overlap(node.bounds, area)
                        && let Some(slot) = self.slots.get(node.slot as usize)
                    {
                        f(node.slot as usize, slot);
                    }
                    n = node.next;
                }
            }
        }
    }

    /// Lays the fine grid's nodes out again when many moved cells since they were last
    /// laid out (an eighth of the bodies): a crowd calls it once a tick.
    pub(crate) fn keep_compact(&mut self) {
        if self.relinked.saturating_mul(8) > self.slots.len() {
            self.relayout();
        }
    }

    /// Lays the fine grid's nodes out chain by chain, the chains in the space order of
    /// their first node's cell (so a look's neighbouring cells lie near in memory too),
    /// each chain's nodes in a row in its order (so a look visits the bodies in the same
    /// order as before). No allocation once the buffers have held the crowd.
    fn relayout(&mut self) {
        let mut heads = std::mem::take(&mut self.relayout_heads);
        heads.clear();
        for (b, &head) in self.buckets.iter().enumerate() {
            if let Some(node) = self.nodes.get(head as usize) {
                heads.push((space_order(node.cell), b as u32));
            }
        }
        heads.sort_unstable();
        let mut nodes = std::mem::take(&mut self.relayout_nodes);
        nodes.clear();
        for &(_, b) in &heads {
            let Some(head) = self.buckets.get_mut(b as usize) else {
                continue;
            };
            let mut n = *head;
            *head = nodes.len() as u32;
            while let Some(&node) = self.nodes.get(n as usize) {
                n = node.next;
                let next = if n == NONE {
                    NONE
                } else {
                    nodes.len() as u32 + 1
                };
                if let Some(of) = self.node_of.get_mut(node.slot as usize) {
                    *of = nodes.len() as u32;
                }
                nodes.push(Node { next, ..node });
            }
        }
        self.relayout_nodes = std::mem::replace(&mut self.nodes, nodes);
        self.relayout_heads = heads;
        self.relinked = 0;
    }

    /// Rebuilds the hash table (after an insertion or a removal).
    fn rebuild(&mut self) {
        let size = table_size(self.slots.len());
        self.buckets.clear();
        self.buckets.resize(size, NONE);
        self.nodes.clear();
        self.node_of.clear();
        self.coarse_buckets.clear();
        self.coarse_buckets.resize(size, NONE);
        self.coarse_counts.clear();
        self.coarse_counts.resize(size, 0);
        self.coarse_occupied = 0;
        self.reach = 0.0;
        self.reach_z = 0.0;
        self.extent = (Vec3::MAX, Vec3::MIN);
        self.lanes.clear();
        for i in 0..self.slots.len() {
            self.add_to_table(i);
        }
        self.order_lanes();
        self.relayout();
    }

    /// Lays the bodies' bounds out in lanes in space order (`lanes.rs`), by their cells.
    fn order_lanes(&mut self) {
        let slots = &self.slots;
        self.lanes.order(
            |i| slots.get(i).map_or(0, |s| space_order(s.cell)),
            |i| slots.get(i).map_or((Vec3::ZERO, Vec3::ZERO), Slot::bounds),
        );
    }

    /// Links slot `i` into its cell's buckets and takes its reaches and bounds into the
    /// table's.
    fn add_to_table(&mut self, i: usize) {
        let slot = self.slots[i];
        self.reach = self.reach.max(horizontal_reach(&slot.parts));
        self.reach_z = self.reach_z.max(vertical_reach(&slot.parts));
        self.extent = (
            self.extent.0.min(slot.bounds.0),
            self.extent.1.max(slot.bounds.1),
        );
        self.lanes.set(i, slot.bounds);
        // Slots are added in increasing index (appended, or all again by a rebuild).
        debug_assert_eq!(self.node_of.len(), i);
        self.node_of.push(self.nodes.len() as u32);
        self.nodes.push(Node {
            bounds: slot.bounds,
            cell: slot.cell,
            next: NONE,
            slot: i as u32,
        });
        self.link(i, cell_of(slot.at + slot.parts.center));
        self.link_coarse(i);
    }

    /// Links slot `i` (whose `cell` is set) into its coarse cell's bucket.
    fn link_coarse(&mut self, i: usize) {
        let b = bucket_of(coarse_of(self.slots[i].cell), self.coarse_buckets.len());
        self.slots[i].next_coarse = self.coarse_buckets[b];
        self.coarse_buckets[b] = i as u32;
        if self.coarse_counts[b] == 0 {
            self.coarse_occupied += 1;
        }
        self.coarse_counts[b] += 1;
    }

    /// Unlinks slot `i` from its coarse cell's bucket (before its `cell` changes).
    fn unlink_coarse(&mut self, i: usize) {
        let b = bucket_of(coarse_of(self.slots[i].cell), self.coarse_buckets.len());
        self.coarse_counts[b] = self.coarse_counts[b].saturating_sub(1);
        if self.coarse_counts[b] == 0 {
            self.coarse_occupied -= 1;
        }
        unchain(&mut self.slots, &mut self.coarse_buckets[b], i, |s| {
            &mut s.next_coarse
        });
    }

    fn link(&mut self, i: usize, cell: (i32, i32)) {
        let b = bucket_of(cell, self.buckets.len());
        self.slots[i].cell = cell;
        let n = self.node_of[i];
        let node = &mut self.nodes[n as usize];
        node.cell = cell;
        node.next = self.buckets[b];
        self.buckets[b] = n;
        self.relinked += 1;
    }

    fn unlink(&mut self, i: usize) {
        let b = bucket_of(self.slots[i].cell, self.buckets.len());
        let n = self.node_of[i] as usize;
        unchain(&mut self.nodes, &mut self.buckets[b], n, |node| {
            &mut node.next
        });
    }
}

/// Removes entry `i` of `slots` from the bucket chain that starts at `head` and runs
/// through the link `link` names (a node's `next`, a slot's `next_coarse`).
fn unchain<E>(slots: &mut [E], head: &mut u32, i: usize, link: fn(&mut E) -> &mut u32) {
    let Some(next) = slots.get_mut(i).map(|slot| *link(slot)) else {
        return;
    };
    let i = i as u32;
    if *head == i {
        *head = next;
        return;
    }
    let mut at = *head;
    while let Some(slot) = slots.get_mut(at as usize) {
        let after = link(slot);
        if *after == i {
            *after = next;
            return;
        }
        at = *after;
    }
}

/// The horizontal half extent of a body's bounds about its centre.
pub(crate) fn horizontal_reach(parts: &Upright) -> f32 {
    let (low, high) = parts.bounds();
    let half = (high - low) * 0.5;
    half.x.max(half.y)
}

/// The vertical half extent of a body's bounds.
fn vertical_reach(parts: &Upright) -> f32 {
    let (low, high) = parts.bounds();
    0.5 * (high.z - low.z)
}

/// A world and the characters in it, seen by one of them: sweeps stop at the first of the
/// world and the other characters' shapes (Quake 3 `SV_Trace` with `CONTENTS_BODY` in the
/// player's mask).
///
/// # Examples
/// ```
/// use glam::Vec3;
/// use planeshift::{CharacterController, ControllerConfig, MoveInput};
/// use planeshift::movement::{Bodies, WorldWithBodies};
/// let map = planeshift::compile_map(&std::fs::read("maps/box_room.map")?)?.map;
/// let config = ControllerConfig::default();
/// let mut a = CharacterController::new(config, Vec3::new(-100.0, 0.0, 24.0 + 1.0 / 32.0))?;
/// let b = CharacterController::new(config, Vec3::new(0.0, 0.0, 24.0 + 1.0 / 32.0))?;
/// let mut bodies = Bodies::new();
/// bodies.insert(2, b.shape(), b.shape_center());
/// let world = WorldWithBodies { world: &map, bodies: &bodies, mover: Some(1), ghosts: &[] };
/// let run = MoveInput { wish: Vec3::X, ..MoveInput::default() };
/// for _ in 0..125 {
///     a.step(&world, &run);
/// }
/// // Stopped flush against the other box, one stop distance short.
/// assert!((a.position().x - (-30.0 - 1.0 / 32.0)).abs() < 1e-3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct WorldWithBodies<'a, T: Tracer + ?Sized> {
    /// The world (a map, a map with movers...).
    pub world: &'a T,
    /// The characters.
    pub bodies: &'a Bodies,
    /// The character sweeping, never met.
    pub mover: Option<u32>,
    /// Characters passed through (ones the mover overlapped when its tick began, until they
    /// part; Quake 3 leaves overlapping players to `G_KillBox`).
    pub ghosts: &'a [u32],
}

/// Whether a mover with filter `me` that passes through `ghosts` meets the body in `slot`:
/// the test of [`WorldWithBodies`]'s queries and of [`Near::gather`].
pub(super) fn meets(me: &QueryFilter, ghosts: &[u32], slot: &Slot) -> bool {
    me.meets_character(slot.id, slot.contents, slot.groups) && !ghosts.contains(&slot.id)
}

/// The bodies a mover's query may meet within a box: [`WorldWithBodies::trace_with`] and
/// [`WorldWithBodies::overlaps_with`] take them from the grid ([`GridCandidates`]), from the
/// bodies gathered for a tick ([`NearCandidates`]) or from a tick's neighbours
/// (`schedule.rs`), and test nothing more than the exact shapes.
pub(crate) trait Candidates {
    /// Calls `f` with the id, parts and reference point of every solid body whose bounds
    /// overlap the closed box `area` and that the mover meets ([`meets`]: its filter and
    /// ghosts), each once, in no particular order; of no other body.
    fn for_each(&self, area: (Vec3, Vec3), f: impl FnMut(u32, &Upright, Vec3));
}

/// The grid's [`Candidates`] for a mover with filter `me` that passes through `ghosts`.
pub(crate) struct GridCandidates<'a> {
    pub(super) bodies: &'a Bodies,
    pub(super) me: &'a QueryFilter,
    pub(super) ghosts: &'a [u32],
}

impl Candidates for GridCandidates<'_> {
    #[inline]
    fn for_each(&self, area: (Vec3, Vec3), mut f: impl FnMut(u32, &Upright, Vec3)) {
        self.bodies.visit(area, |slot| {
            if meets(self.me, self.ghosts, slot) {
                f(slot.id, &slot.parts, slot.at);
            }
        });
    }
}

impl<T: Tracer + ?Sized> WorldWithBodies<'_, T> {
    /// The filter this view's mover moves with ([`Bodies::movement_filter`]), which
    /// [`Self::trace_with`] and [`Self::overlaps_with`] take (a crowd's tick computes it
    /// once for all of a character's sweeps).
    pub(crate) fn filter(&self) -> QueryFilter {
        self.bodies.movement_filter(self.mover)
    }

    /// The grid's candidates for this mover, whose filter is `me` ([`Self::filter`]).
    pub(crate) fn grid<'b>(&'b self, me: &'b QueryFilter) -> GridCandidates<'b> {
        GridCandidates {
            bodies: self.bodies,
            me,
            ghosts: self.ghosts,
        }
    }

    /// The first impact of the world (`world`, its answer) and the bodies `candidates`
    /// gives for the sweep's box. The answer is the same whatever order `candidates` gives
    /// them in: the earliest impact, the world first at a tie, then the lowest id; among
    /// bodies the sweep starts and ends inside, the lowest id.
    fn trace_with(
        &self,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        world: Trace,
        candidates: &impl Candidates,
    ) -> Trace {
        let mut best = world;
        if best.all_solid || self.bodies.is_empty() {
            return best;
        }
        let parts = Upright::of(shape);
        let (low, high) = parts.bounds();
        let margin = Vec3::splat(SURFACE_CLIP_EPSILON);
        let area = (
            start.min(end) + low - margin,
            start.max(end) + high + margin,
        );
        let sweep = UprightSweep::new(shape, &parts, start, end);
        candidates.for_each(area, |id, other, at| {
            // Once a body holds the sweep all solid, only a lower id all solid replaces it.
            let best_character = best.target.and_then(HitTarget::character);
            let lower = best_character.is_none_or(|other| id < other);
            if best.all_solid && !lower {
                return;
            }
            // A plain miss (`None`) neither comes earlier nor starts inside: it changes
            // nothing below.
            let Some(mut hit) = sweep.against(other, at) else {
                return;
            };
            hit.target = Some(HitTarget::Character(id));
            let start_solid = best.start_solid || hit.start_solid;
            let earlier = hit.fraction < best.fraction
                || (hit.fraction == best.fraction
                    && hit.fraction < 1.0
                    && best_character.is_some_and(|other| id < other));
            let take = if best.all_solid {
                hit.all_solid
            } else {
                hit.all_solid || earlier
            };
            if take {
                best = hit;
            }
            best.start_solid = start_solid;
        });
        best
    }

    /// Whether `shape` at `at` overlaps the world (`world`, its answer) or a body
    /// `candidates` gives for its box.
    fn overlaps_with(
        &self,
        shape: &TraceShape,
        at: Vec3,
        world: bool,
        candidates: &impl Candidates,
    ) -> bool {
        if world {
            return true;
        }
        let parts = Upright::of(shape);
        let (low, high) = parts.bounds();
        let area = (at + low, at + high);
        let mut any = false;
        candidates.for_each(area, |_, other, other_at| {
            any = any || uprights_overlap(&parts, at, other, other_at);
        });
        any
    }
}

/// A world with bodies in it as one mover sees it: the world, the mover's filter and where
/// its bodies come from. [`WorldWithBodies`] (the grid, the filter looked up per query) and
/// [`CrowdView`] (a tick's filter and candidates) are the two; the one [`Tracer`] impl below
/// answers for both.
pub(crate) trait SeenBodies {
    /// The world the bodies stand in.
    type World: Tracer + ?Sized;

    /// The world.
    fn world(&self) -> &Self::World;

    /// The filter the mover moves with ([`WorldWithBodies::filter`]).
    fn mover_filter(&self) -> QueryFilter;

    /// `world`, the world's answer, against the bodies the mover meets
    /// ([`WorldWithBodies::trace_with`]).
    fn trace_bodies(
        &self,
        me: &QueryFilter,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        world: Trace,
    ) -> Trace;

    /// `world`, the world's answer, or a body the mover meets at `at`
    /// ([`WorldWithBodies::overlaps_with`]).
    fn overlaps_bodies(&self, me: &QueryFilter, shape: &TraceShape, at: Vec3, world: bool) -> bool;
}

/// A world with bodies, seen by its mover: sweeps stop at the first of the world and the
/// bodies the mover meets. The world is swept under the mover's own mask
/// ([`Bodies::set_mask`]), whatever the query's; a rotated query meets the bodies with its
/// shape upright. [`WorldPart::Fixed`] is the world's fixed part, [`WorldPart::Moving`] the
/// bodies alone, and [`WorldPart::Model`] asks the world alone as the query asks. Bodies hold
/// no contents, currents or triggers: those are the world's, and so are its speed facts but
/// that the bodies move.
impl<V: SeenBodies + ?Sized> Tracer for V {
    fn trace(&self, query: &ShapeQuery<'_>, start: Vec3, end: Vec3) -> Trace {
        let world = self.world();
        if let WorldPart::Model(_) = query.part {
            return world.trace(query, start, end);
        }
        let me = self.mover_filter();
        let mine = query.with_mask(me.mask).of_part(WorldPart::All);
        let shape = query.shape;
        match query.part {
            WorldPart::Fixed => world.trace(&mine, start, end),
            WorldPart::Moving => self.trace_bodies(&me, shape, start, end, Trace::miss(end)),
            _ => {
                let hit = world.trace(&mine, start, end);
                self.trace_bodies(&me, shape, start, end, hit)
            }
        }
    }

    fn overlaps(&self, query: &ShapeQuery<'_>, at: Vec3) -> bool {
        let world = self.world();
        if let WorldPart::Model(_) = query.part {
            return world.overlaps(query, at);
        }
        let me = self.mover_filter();
        let mine = query.with_mask(me.mask).of_part(WorldPart::All);
        match query.part {
            WorldPart::Fixed => world.overlaps(&mine, at),
            WorldPart::Moving => self.overlaps_bodies(&me, query.shape, at, false),
            _ => {
                let hit = world.overlaps(&mine, at);
                self.overlaps_bodies(&me, query.shape, at, hit)
            }
        }
    }

    fn contents(&self, point: Vec3) -> Contents {
        self.world().contents(point)
    }

    fn current(&self, point: Vec3) -> Vec3 {
        self.world().current(point)
    }

    fn touch_triggers(
        &self,
        query: &ShapeQuery<'_>,
        start: Vec3,
        end: Vec3,
        touched: &mut crate::controller::TriggerList,
        inside: &mut crate::controller::TriggerList,
    ) {
        self.world()
            .touch_triggers(query, start, end, touched, inside);
    }

    fn speed_facts(&self) -> SpeedFacts<'_> {
        SpeedFacts {
            moves_nothing: false,
            ..self.world().speed_facts()
        }
    }
}

/// The filter looked up for each query, the bodies from the grid.
impl<T: Tracer + ?Sized> SeenBodies for WorldWithBodies<'_, T> {
    type World = T;

    fn world(&self) -> &T {
        self.world
    }

    fn mover_filter(&self) -> QueryFilter {
        self.filter()
    }

    fn trace_bodies(
        &self,
        me: &QueryFilter,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        world: Trace,
    ) -> Trace {
        self.trace_with(shape, start, end, world, &self.grid(me))
    }

    fn overlaps_bodies(&self, me: &QueryFilter, shape: &TraceShape, at: Vec3, world: bool) -> bool {
        self.overlaps_with(shape, at, world, &self.grid(me))
    }
}

impl<'a, T: Tracer + ?Sized> WorldWithBodies<'a, T> {
    /// This view for a mover whose filter is `me` ([`Self::filter`]), its bodies taken from
    /// `candidates`.
    pub(crate) fn seen<'b, C: Candidates>(
        &self,
        me: &'b QueryFilter,
        candidates: C,
    ) -> CrowdView<'b, T, C>
    where
        'a: 'b,
    {
        CrowdView {
            view: WorldWithBodies {
                world: self.world,
                bodies: self.bodies,
                mover: self.mover,
                ghosts: self.ghosts,
            },
            me,
            candidates,
        }
    }
}

/// [`WorldWithBodies`] seen by one mover through a tick: its filter, computed once (a
/// crowd's tick computes it once for all of a character's sweeps), and where its bodies come
/// from (the bodies gathered for its tick, a wave's neighbours).
pub(crate) struct CrowdView<'a, T: Tracer + ?Sized, C: Candidates> {
    pub(crate) view: WorldWithBodies<'a, T>,
    pub(crate) me: &'a QueryFilter,
    pub(crate) candidates: C,
}

impl<T: Tracer + ?Sized, C: Candidates> SeenBodies for CrowdView<'_, T, C> {
    type World = T;

    fn world(&self) -> &T {
        self.view.world
    }

    fn mover_filter(&self) -> QueryFilter {
        *self.me
    }

    fn trace_bodies(
        &self,
        _me: &QueryFilter,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        world: Trace,
    ) -> Trace {
        self.view
            .trace_with(shape, start, end, world, &self.candidates)
    }

    fn overlaps_bodies(
        &self,
        _me: &QueryFilter,
        shape: &TraceShape,
        at: Vec3,
        world: bool,
    ) -> bool {
        self.view.overlaps_with(shape, at, world, &self.candidates)
    }
}

/// The bodies near one character, gathered once for its tick: every solid body whose
/// bounds meet `area` and that the character meets (its tick's filter and ghosts). A query
/// of the character's view inside `area` scans them instead of the grid (no other body can
/// be met there), testing only their bounds (the filter was tested when they were
/// gathered); a query beyond it asks the grid. Most ticks of a spread-out crowd gather none,
/// and their sweeps then skip the grid altogether.
#[derive(Clone, Debug, Default)]
pub(crate) struct Near {
    area: (Vec3, Vec3),
    /// The gathered bodies' bounds, apart from the rest (a query scans them all).
    bounds: Vec<(Vec3, Vec3)>,
    /// The gathered bodies' ids, parts and reference points, in the order of `bounds`.
    bodies: Vec<NearBody>,
}

/// What a query reads of a gathered body whose bounds it meets.
#[derive(Clone, Copy, Debug)]
struct NearBody {
    id: u32,
    parts: Upright,
    at: Vec3,
}

impl Near {
    /// Gathers the solid bodies of `bodies` whose bounds meet `area` and that a mover with
    /// filter `me` and `ghosts` meets, as [`WorldWithBodies`]'s own test (the buffers keep
    /// their capacity): not the mover itself, which every query's area holds.
    pub(crate) fn gather(
        &mut self,
        bodies: &Bodies,
        area: (Vec3, Vec3),
        me: &QueryFilter,
        ghosts: &[u32],
    ) {
        self.area = area;
        self.bounds.clear();
        self.bodies.clear();
        let (near_bounds, near_bodies) = (&mut self.bounds, &mut self.bodies);
        let take = |slot: &Slot| {
            if meets(me, ghosts, slot) {
                near_bounds.push(slot.bounds);
                near_bodies.push(NearBody {
                    id: slot.id,
                    parts: slot.parts,
                    at: slot.at,
                });
            }
        };
        bodies.visit(area, take);
    }
}

/// [`Candidates`] from the bodies gathered for a tick ([`Near`]) when a query's box lies
/// inside the gathered area, else from the grid.
pub(crate) struct NearCandidates<'a> {
    near: &'a Near,
    grid: GridCandidates<'a>,
}

impl Candidates for NearCandidates<'_> {
    #[inline]
    fn for_each(&self, area: (Vec3, Vec3), mut f: impl FnMut(u32, &Upright, Vec3)) {
        let near = self.near;
        if near.area.0.cmple(area.0).all() && area.1.cmple(near.area.1).all() {
            for (bounds, body) in near.bounds.iter().zip(&near.bodies) {
                if boxes_overlap(*bounds, area) {
                    f(body.id, &body.parts, body.at);
                }
            }
        } else {
            self.grid.for_each(area, f);
        }
    }
}

/// [`WorldWithBodies`] with the bodies near the mover gathered for its tick ([`Near`]):
/// the same answers, fewer grid lookups.
pub(crate) type NearWorld<'a, T> = CrowdView<'a, T, NearCandidates<'a>>;

impl<'a, T: Tracer + ?Sized> WorldWithBodies<'a, T> {
    /// This view for a mover whose filter is `me`, with the bodies gathered for its tick.
    pub(crate) fn near<'b>(&self, me: &'b QueryFilter, near: &'b Near) -> NearWorld<'b, T>
    where
        'a: 'b,
    {
        let candidates = NearCandidates {
            near,
            grid: GridCandidates {
                bodies: self.bodies,
                me,
                ghosts: self.ghosts,
            },
        };
        self.seen(me, candidates)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player() -> TraceShape {
        TraceShape::quake3_player()
    }

    #[test]
    fn the_grid_finds_what_brute_force_finds() {
        // 300 bodies moved about at random: every query answers what a scan of all of them
        // answers, whatever the cells and buckets; added in decreasing id order (every
        // insertion rebuilds the table) and in increasing order (most only link).
        for increasing in [false, true] {
            grid_against_brute_force(increasing);
        }
    }

    fn grid_against_brute_force(increasing: bool) {
        let shape = player();
        let mut rng = crate::test_rng::XorShift::new(0x2545_f491_4f6c_dd1du64);
        let mut bodies = Bodies::new();
        let mut places = Vec::new();
        let ids: Vec<u32> = if increasing {
            (0..300).collect()
        } else {
            (0..300).rev().collect()
        };
        for id in ids {
            let at = Vec3::new(rng.unit() * 1500.0, rng.unit() * 1500.0, rng.unit() * 50.0);
            bodies.insert(id * 3, &shape, at);
            places.push((id * 3, at));
        }
        let check = |bodies: &Bodies, places: &[(u32, Vec3)], probe: Vec3, round: usize| {
            let found = bodies.overlapping(&shape, probe, None).as_slice().to_vec();
            let mut expected: Vec<u32> = places
                .iter()
                .filter(|(id, at)| {
                    bodies.get(*id).is_some_and(|(_, solid)| solid)
                        && uprights_overlap(&Upright::of(&shape), probe, &Upright::of(&shape), *at)
                })
                .map(|(id, _)| *id)
                .collect();
            expected.sort_unstable();
            assert_eq!(
                found, expected,
                "round {round} (increasing ids: {increasing})"
            );
            found.len()
        };
        // As added: every body where it was put (probes on the bodies themselves).
        let met: usize = (0..places.len())
            .map(|k| check(&bodies, &places, places[k].1 + Vec3::X * 7.0, 0))
            .sum();
        assert!(met >= places.len(), "each probe meets its own body");
        for round in 0..2000 {
            let k = round % places.len();
            let (id, at) = places[k];
            let moved = at + Vec3::new(rng.unit(), rng.unit(), 0.0) * 200.0;
            assert!(bodies.update(id, &shape, moved, round % 7 != 0));
            places[k] = (id, moved);
            let probe = Vec3::new(rng.unit() * 1500.0, rng.unit() * 1500.0, 0.0);
            check(&bodies, &places, probe, round);
        }
        assert!(bodies.remove(3) && !bodies.remove(3));
        assert_eq!(bodies.len(), 299);
    }
}
