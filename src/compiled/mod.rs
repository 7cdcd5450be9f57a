//! Stage 4: the compiled world, [`CompiledMap`]: the f32 runtime data and its file format.
//!
//! Takes the f64 build results (plane table, trees, brushes with bevels), gives a
//! [`CompiledMap`] that can be written to and read from a `.pbsp` file. This is the only
//! f64 → f32 narrowing in the crate.
//!
//! The file is the 8-byte magic [`MAGIC`], then the format version ([`FORMAT_VERSION`]) and
//! the 64-bit FNV-1a checksum of the body, both as postcard integers, then the body: the
//! data in postcard. Guarantees: a `CompiledMap` can only be obtained from the
//! compiler or from [`CompiledMap::from_bytes`], and both run the validation in `validate.rs`, so every index,
//! count, normal length and number in a usable map has been checked; a corrupt file is a
//! typed [`LoadError`], never a panic and never an out-of-bounds access.

mod clip_hulls;
mod currents;
mod declared;
mod entities;
mod features;
mod game_patches;
mod materials;
mod tables;
mod validate;

use std::sync::atomic::{AtomicU64, Ordering};

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::contents::Contents;
use crate::surface::SurfaceFlags;

use features::FeatureTable;
#[cfg(test)]
#[cfg(test)]
pub(crate) use features::corners_and_edges;
internal! {
    pub use features::{BrushFeatures, Edge, FacePlane, StoredPlane, wide};
}
pub(crate) use clip_hulls::{
    ClipHulls, HULL_ABSENT, HULL_CONTENTS_EMPTY, HULL_CONTENTS_SOLID, HullNode, HullPlane,
};
pub use clip_hulls::{HULL_COUNT, MAX_CLIP_HULL_DEPTH};
pub(crate) use declared::{DeclaredHull, DeclaredHulls, DeclaredLeaf, DeclaredNode};
pub use entities::Entity;
pub(crate) use game_patches::GameCollide;
pub use game_patches::{GamePatch, GamePatches};
pub(crate) use entities::EntityRecord;
pub use materials::MaterialId;
pub use validate::LoadError;
pub(crate) use validate::validate;

/// The first eight bytes of every compiled file.
pub const MAGIC: [u8; 8] = *b"PLNSHIFT";

/// The version of the data layout; bumped on any change to it (2: the compile time is no
/// longer stored, so that a map always compiles to the same bytes; 3: every entity is
/// stored, and a model names its entity instead of copying its key/values; 4: sides keep
/// their surface flags and material, brushes their game's contents value, models their
/// kind, and the file its game; 5: the statistics count the map's patches and their facet
/// brushes, and a brush says whether it is a patch facet; 6: a Quake 1 family level keeps its own hull
/// trees, walked by `ShapeQuery::through_clip_hull`; 7: a Quake 3 level keeps its world's
/// patch control grids, collided as the game collides by `ShapeQuery::with_game_patches`; 8: the
/// declared character boxes' own trees, `CompileOptions::declared_shapes`).
pub const FORMAT_VERSION: u32 = 8;

/// The default file extension of compiled maps.
pub const EXTENSION: &str = "pbsp";

internal! {
    /// The 64-bit FNV-1a hash of `bytes`: the checksum stored in compiled files.
    #[must_use]
    pub fn checksum(bytes: &[u8]) -> u64 {
        const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
        const PRIME: u64 = 0x0100_0000_01b3;
        bytes.iter().fold(OFFSET_BASIS, |hash, &b| {
            (hash ^ u64::from(b)).wrapping_mul(PRIME)
        })
    }
}

internal! {
    /// A whole file around an already serialised `body`: magic, version, checksum, body.
    #[must_use]
    pub fn frame(body: &[u8]) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        // Integers always serialise.
        out.extend(postcard::to_allocvec(&(FORMAT_VERSION, checksum(body))).unwrap_or_default());
        out.extend_from_slice(body);
        out
    }
}

/// A plane in f32: points with `normal·x == dist`; solid lies behind (`normal·x < dist`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plane {
    /// Unit normal.
    pub normal: Vec3,
    /// Offset along the normal.
    pub dist: f32,
}

impl Plane {
    /// Signed distance of `p`: positive in front.
    #[must_use]
    pub fn distance(&self, p: Vec3) -> f32 {
        self.normal.dot(p) - self.dist
    }
}

internal! {
    /// A child reference in the tree.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub enum NodeChild {
        /// An interior node, by index into [`CompiledMap::nodes`].
        Node(u32),
        /// A leaf, by index into [`CompiledMap::leaves`].
        Leaf(u32),
    }
}

internal! {
    /// An interior node.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct CompiledNode {
        /// Index into [`CompiledMap::planes`].
        pub plane: u32,
        /// `[front, back]`. A child node always has a greater index than its parent.
        pub children: [NodeChild; 2],
    }
}

internal! {
    /// A leaf: contents, and the brushes covering it.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct CompiledLeaf {
        /// OR of the covering brushes' contents.
        pub contents: Contents,
        /// First index into [`CompiledMap::leaf_brushes`].
        pub first_brush: u32,
        /// How many.
        pub brush_count: u32,
    }
}

impl CompiledBrush {
    /// How far below and above its bounds this brush can block a shape with bounds
    /// `shape_bounds` and circumradius `radius`: by the shape's bounds when the brush has
    /// all six axial planes (`axial_bounded`: box-exact brushes do, and most brushes the
    /// compiler makes; `CompiledMap::brush_axial_bounded`), and within κ·R of itself
    /// always. The one rule the per-brush cull (`sweep_state::brush_grow`) and the
    /// declared boxes' lists (`compile/declared.rs`, [`DeclaredHulls::derive`]) share.
    #[inline]
    pub(crate) fn grow(
        &self,
        axial_bounded: bool,
        (shape_mins, shape_maxs): (Vec3, Vec3),
        radius: f32,
    ) -> (Vec3, Vec3) {
        if axial_bounded {
            (shape_maxs, -shape_mins)
        } else {
            let r = Vec3::splat(self.reach * radius);
            (r, r)
        }
    }
}

internal! {
    /// A convex brush: sides (faces, then bevels) and bounds.
    #[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
    pub struct CompiledBrush {
        /// What it is made of.
        pub contents: Contents,
        /// The game's own contents value (Quake 2's and Quake 3's bits; Quake's and
        /// Half-Life's `CONTENTS_*` enum as `i32` bits), as the brush's faces say.
        pub game_contents: u32,
        /// First index into [`CompiledMap::sides`].
        pub first_side: u32,
        /// How many sides, bevels included: first the faces, then Quake's box bevels (axial and
        /// edge × axis), then the rounding bevels.
        pub side_count: u32,
        /// How many of the sides are faces (points need no more: bevels never change them).
        pub face_count: u32,
        /// How many of the sides are faces or box bevels (boxes need no more on box-exact
        /// brushes).
        pub box_side_count: u32,
        /// Smallest corner of the bounds.
        pub mins: Vec3,
        /// Largest corner of the bounds.
        pub maxs: Vec3,
        /// Whether the brush's sides (faces and bevels) make box sweeps exact: its planes
        /// shifted by any axis-aligned box's support bound exactly the Minkowski sum. Sweeps
        /// use this to cull more tightly; a wrong `true` can only make a rounded shape's
        /// over-reach at this brush's edges depend on the tree.
        pub box_exact: bool,
        /// The brush's reach κ (≥ 1, see `brush::reach`): a shape of circumradius R is blocked by
        /// its shifted planes only within κ·R of it. Sweeps cull with it; a value below the true
        /// reach can only make over-reach stops depend on the tree (never let a shape into
        /// solid), which is why a loaded value only has to be at least 1.
        pub reach: f32,
        /// A facet of a curved patch: it splits the tree only where many crowd a region, so
        /// a leaf listing it may lie partly outside it, and point contents test it.
        pub patch: bool,
    }
}

internal! {
    /// One side of a compiled brush.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct CompiledSide {
        /// Index into [`CompiledMap::planes`]; the normal points out of the brush.
        pub plane: u32,
        /// Whether the side is a bevel (never a face of the brush, only a tight corner).
        pub bevel: bool,
        /// The face's surface flags; a bevel carries the movement flags
        /// ([`SurfaceFlags::MOVEMENT`]) of the face it bevels.
        pub surface: SurfaceFlags,
        /// Index into the material table: the face's texture, or for a bevel the texture of
        /// the face it bevels.
        pub material: u32,
    }
}

/// A model: the world (index 0) or one brush entity (Quake's `*1`, `*2`, ...).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Model {
    /// The root of the model's tree.
    pub(crate) root: NodeChild,
    /// First index into the brush table.
    pub(crate) first_brush: u32,
    /// How many brushes.
    pub(crate) brush_count: u32,
    /// Smallest corner of the model's brushes (zero for an empty model).
    pub mins: Vec3,
    /// Largest corner.
    pub maxs: Vec3,
    /// The rotation pivot: the centre of an `origin` brush, else the `origin` key, else
    /// zero. Geometry is stored in map space, as written.
    pub origin: Vec3,
    /// The index of the entity it was compiled from ([`CompiledMap::model_entity`]).
    pub(crate) entity: Option<u32>,
    /// What the model is to a game.
    pub kind: ModelKind,
}

/// What a model is to a game: whether the world sweep includes it, whether the game moves
/// it, whether it is a touch volume. Decided at compile time from the entity's class and
/// the game (the compiler's entity rules).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum ModelKind {
    /// Model 0, the world.
    #[default]
    World,
    /// A brush entity that blocks and never moves (`func_wall`, Quake 3's `func_static`):
    /// [`CompiledMap::trace`] and [`CompiledMap::point_contents`] include it with the world,
    /// and a hit on it reports its model.
    Static,
    /// A brush entity the game places and moves (doors, platforms, trains, rotating
    /// things, breakables, toggled walls): sweep it with [`CompiledMap::trace_model`].
    Mover,
    /// A trigger volume (`trigger_*`): it never blocks; [`CompiledMap::touching_triggers`]
    /// finds it.
    Trigger,
    /// A brush entity that blocks nothing (`func_illusionary`, Half-Life's `func_water`
    /// and `func_ladder`, an entity whose game would not spawn it): its brushes keep their
    /// contents for [`CompiledMap::models_overlapping`] and [`CompiledMap::trace_model`].
    Volume,
}

impl Model {
    /// The index of the entity the model was compiled from, in
    /// [`CompiledMap::entities`]: `worldspawn` for the world, the brush entity for a
    /// submodel; `None` for a world without a `worldspawn` entity.
    #[must_use]
    pub fn entity(&self) -> Option<usize> {
        self.entity.map(|e| e as usize)
    }
}

/// Counts of what a compiled world holds ([`CompiledMap::summary`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WorldSummary {
    /// Planes in the plane table (each stored with its negation).
    pub planes: usize,
    /// Interior nodes of every model's tree.
    pub nodes: usize,
    /// Leaves of every model's tree.
    pub leaves: usize,
    /// Leaves that block movement under the default mask.
    pub solid_leaves: usize,
    /// Brushes of every model.
    pub brushes: usize,
    /// Brush sides, bevels included.
    pub sides: usize,
    /// Brush sides that are bevels.
    pub bevels: usize,
    /// Models: the world and each brush entity.
    pub models: usize,
    /// Entities of the map, point and brush.
    pub entities: usize,
    /// The deepest leaf of any model's tree (a root leaf is 0).
    pub max_depth: u32,
}

/// Compile-time figures kept in the file so that `bspc info` can report them. Only figures
/// of the map itself: nothing measured (no wall-clock time), so the same map always compiles
/// to the same bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompileStats {
    /// Brush blocks in the source map.
    pub brushes: u32,
    /// Solid world brushes written as brush blocks.
    pub world_brushes: u32,
    /// Curved patches in the source map (`patchDef2`, `patchDef3`).
    pub patches: u32,
    /// Facet brushes made from the patches (each a thin slab of one facet).
    pub patch_facets: u32,
}

/// The runtime nodes: planes inline and the largest reach under each child, bottom-up
/// (children always follow their parents, so a reverse pass sees children first).
fn runtime_nodes(data: &MapData) -> Vec<RuntimeNode> {
    // (κ of all brushes, κ of brushes that are not box-exact) under a leaf.
    let leaf_reach = |leaf: u32| -> [f32; 2] {
        let leaf = &data.leaves[leaf as usize];
        let start = leaf.first_brush as usize;
        data.leaf_brushes[start..start + leaf.brush_count as usize]
            .iter()
            .fold([0.0f32; 2], |[all, inexact], &b| {
                let brush = &data.brushes[b as usize];
                let (k, exact) = (brush.reach, brush.box_exact);
                [all.max(k), if exact { inexact } else { inexact.max(k) }]
            })
    };
    let mut nodes: Vec<RuntimeNode> = data
        .nodes
        .iter()
        .map(|n| {
            let plane = data.planes[n.plane as usize];
            RuntimeNode {
                normal: plane.normal,
                dist: plane.dist,
                children: n.children,
                kappa: [0.0; 2],
                kappa_inexact: [0.0; 2],
            }
        })
        .collect();
    for index in (0..nodes.len()).rev() {
        for k in 0..2 {
            let [all, inexact] = match nodes[index].children[k] {
                NodeChild::Leaf(leaf) => leaf_reach(leaf),
                NodeChild::Node(n) => {
                    let child = &nodes[n as usize];
                    [
                        child.kappa[0].max(child.kappa[1]),
                        child.kappa_inexact[0].max(child.kappa_inexact[1]),
                    ]
                }
            };
            nodes[index].kappa[k] = all;
            nodes[index].kappa_inexact[k] = inexact;
        }
    }
    nodes
}

/// Whether `brush` has a side on each axial plane of its bounds, or inside them (see
/// [`CompiledMap::brush_axial_bounded`]); `sides` and `planes` are a validated world's.
pub(crate) fn axial_bounded(brush: &CompiledBrush, sides: &[CompiledSide], planes: &[Plane]) -> bool {
    let start = brush.first_side as usize;
    let Some(sides) = sides.get(start..start.saturating_add(brush.side_count as usize)) else {
        return false;
    };
    let mut found = [false; 6];
    for side in sides {
        let Some(plane) = planes.get(side.plane as usize) else {
            continue;
        };
        for axis in 0..3 {
            let mut unit = Vec3::ZERO;
            unit[axis] = 1.0;
            if plane.normal == unit && plane.dist <= brush.maxs[axis] {
                found[2 * axis] = true;
            }
            if plane.normal == -unit && -plane.dist >= brush.mins[axis] {
                found[2 * axis + 1] = true;
            }
        }
    }
    found.iter().all(|f| *f)
}

/// The serialised body: every table of the world.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct MapData {
    pub planes: Vec<Plane>,
    pub nodes: Vec<CompiledNode>,
    pub leaves: Vec<CompiledLeaf>,
    pub leaf_brushes: Vec<u32>,
    pub brushes: Vec<CompiledBrush>,
    pub sides: Vec<CompiledSide>,
    pub models: Vec<Model>,
    pub entities: Vec<EntityRecord>,
    /// Texture names, each once, in order of first use.
    pub materials: Vec<String>,
    /// The game profile's name (`Game::name`, or a custom game's).
    pub game: String,
    pub stats: CompileStats,
    /// A Quake 1 family level's own hull trees (empty otherwise).
    pub clip_hulls: ClipHulls,
    /// A Quake 3 level's world patches as the game collides with them (empty otherwise).
    pub game_patches: GamePatches,
    /// The declared character boxes' own trees (`compile/declared.rs`).
    pub declared: DeclaredHulls,
}

/// All three points of [`CompiledMap::points_contents`].
const ALL_POINTS: u8 = 0b111;

/// A validated compiled world. `Send + Sync`; read-only after creation.
#[derive(Clone, Debug)]
pub struct CompiledMap {
    data: MapData,
    /// Derived at load: the nodes with their planes inline and, per child, the largest reach κ of
    /// all brushes and of the brushes that are not box-exact under it, so that sweeps can
    /// cull with node planes and stay a pure broadphase.
    runtime_nodes: Vec<RuntimeNode>,
    /// Derived at load: every brush's f64 face planes, corners and edges, for exact contacts.
    features: FeatureTable,
    /// Derived at load: the models of kind [`ModelKind::Static`], which the world sweep
    /// includes, each with the largest reach κ of its brushes (for culling).
    static_models: Vec<(u32, f32)>,
    /// Derived at load: whether a brush holds [`Contents::LADDER`] or a side the ladder
    /// surface flag.
    has_ladders: bool,
    /// Derived at load: the trigger models (a brush holds [`Contents::TRIGGER`]), in
    /// increasing order, which the touch query tests.
    trigger_models: Vec<u32>,
    /// Derived at load: per leaf, whether it lists a patch facet (detail, which may cover
    /// only part of the leaf), so point contents test facets one by one only in such a leaf.
    patch_leaves: Vec<bool>,
    /// Derived at load: whether each brush is box-exact or has a side on each of the six
    /// axial planes of its bounds (or inside them), so that any shape's shifted planes stay
    /// within its bounds grown by the shape's bounds (see [`Self::brush_axial_bounded`]).
    axial_bounded: Vec<bool>,
    /// Derived at load: the collision of each of [`MapData::game_patches`], as the game
    /// makes it.
    game_collides: Vec<GameCollide>,
    /// Given at load, one per loaded world in the process (a clone keeps it: the same
    /// contents): lets a character reuse point samples taken in this world.
    contents_id: u64,
}

/// The next [`CompiledMap::contents_id`].
static NEXT_CONTENTS_ID: AtomicU64 = AtomicU64::new(1);

/// A node as sweeps read it: plane inline, and the reach figures of each child.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RuntimeNode {
    pub normal: Vec3,
    pub dist: f32,
    /// `[front, back]`.
    pub children: [NodeChild; 2],
    /// Largest reach κ of the brushes under each child (0 when none).
    pub kappa: [f32; 2],
    /// Largest κ of the brushes under each child that are not box-exact (0 when none).
    pub kappa_inexact: [f32; 2],
}

impl PartialEq for CompiledMap {
    fn eq(&self, other: &Self) -> bool {
        self.data == other.data
    }
}

impl CompiledMap {
    /// Validates `data` and wraps it.
    pub(crate) fn from_data(mut data: MapData) -> Result<CompiledMap, LoadError> {
        validate(&data)?;
        data.clip_hulls.validate()?;
        data.declared.validate(data.brushes.len())?;
        let game_collides = data.game_patches.collides(&data.materials)?;
        let runtime_nodes = runtime_nodes(&data);
        let features = FeatureTable::build(&data.brushes, &data.sides, &data.planes);
        let static_models = data
            .models
            .iter()
            .enumerate()
            .filter(|(_, m)| m.kind == ModelKind::Static)
            .map(|(index, m)| {
                let brushes = &data.brushes[m.brush_range()];
                let reach = brushes.iter().fold(1.0f32, |k, b| k.max(b.reach));
                (index as u32, reach)
            })
            .collect();
        let trigger_models = data
            .models
            .iter()
            .enumerate()
            .filter(|(_, m)| {
                data.brushes[m.brush_range()]
                    .iter()
                    .any(|b| b.contents.intersects(Contents::TRIGGER))
            })
            .map(|(index, _)| index as u32)
            .collect();
        let has_ladders = data
            .brushes
            .iter()
            .any(|b| b.contents.contains(Contents::LADDER))
            || data
                .sides
                .iter()
                .any(|s| s.surface.contains(SurfaceFlags::LADDER));
        let axial_bounded = data
            .brushes
            .iter()
            .map(|b| b.box_exact || axial_bounded(b, &data.sides, &data.planes))
            .collect::<Vec<bool>>();
        data.declared.derive(&data.brushes, &axial_bounded);
        let mut map = CompiledMap {
            data,
            runtime_nodes,
            features,
            static_models,
            has_ladders,
            trigger_models,
            patch_leaves: Vec::new(),
            axial_bounded,
            game_collides,
            contents_id: NEXT_CONTENTS_ID.fetch_add(1, Ordering::Relaxed),
        };
        map.patch_leaves = map
            .data
            .leaves
            .iter()
            .map(|leaf| {
                map.leaf_brush_ids(leaf)
                    .iter()
                    .any(|&b| map.data.brushes.get(b as usize).is_some_and(|b| b.patch))
            })
            .collect();
        Ok(map)
    }

    /// The world's identity for point samples: two maps with the same id answer
    /// [`Self::point_contents`] alike everywhere (a clone keeps its original's id; every load
    /// gets a new one).
    pub(crate) fn contents_id(&self) -> u64 {
        self.contents_id
    }

    /// Whether any brush holds [`Contents::LADDER`] or any side is flagged
    /// [`SurfaceFlags::LADDER`]: the world has something to climb.
    #[must_use]
    pub fn has_ladders(&self) -> bool {
        self.has_ladders
    }

    /// The trigger models, in increasing order: those with a brush of [`Contents::TRIGGER`].
    pub(crate) fn trigger_models(&self) -> &[u32] {
        &self.trigger_models
    }

    /// The models the world sweep includes with the world (those of kind
    /// [`ModelKind::Static`]), each with the largest reach κ of its brushes.
    pub(crate) fn static_models(&self) -> &[(u32, f32)] {
        &self.static_models
    }

    /// Whether brush `brush` is box-exact ([`CompiledBrush::box_exact`]: it has its axial
    /// bevels) or has a side on each of the six axial planes of its bounds (or inside them,
    /// checked at load): then the region where its planes, shifted by any shape's support, block
    /// the shape's reference point lies within the brush's bounds grown by the shape's
    /// bounds (on the axial sides the shift is exactly the shape's extent along the axis).
    /// The compiler gives most brushes these sides (Quake's axial bevels; a curved patch's
    /// facets, or a brush with a face a hair off an axis, may lack one); a brush that lacks
    /// one, in a crafted file too, gets `false`, and sweeps cull it by its reach instead.
    pub(crate) fn brush_axial_bounded(&self, brush: usize) -> bool {
        self.axial_bounded.get(brush).copied().unwrap_or(false)
    }

    /// The declared character boxes' own trees.
    pub(crate) fn declared(&self) -> &DeclaredHulls {
        &self.data.declared
    }

    internal! {
        /// The declared boxes' bounds `(mins, maxs)`, each with its own tree
        /// (`CompileOptions::declared_shapes`), in declaration order.
        #[must_use]
        pub fn declared_boxes(&self) -> Vec<(Vec3, Vec3)> {
            self.data.declared.hulls.iter().map(|h| (h.mins, h.maxs)).collect()
        }
    }

    internal! {
        /// This world without its declared boxes' trees: every sweep walks the main trees,
        /// as an undeclared shape does (the reference the declared trees must match).
        #[must_use]
        pub fn without_declared(&self) -> CompiledMap {
            let mut map = self.clone();
            map.data.declared = DeclaredHulls::default();
            map
        }
    }

    /// The nodes as sweeps read them.
    pub(crate) fn runtime_nodes(&self) -> &[RuntimeNode] {
        &self.runtime_nodes
    }

    /// The file bytes: magic, version, checksum, data.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        // Serialising plain owned data into a Vec cannot fail.
        let body = postcard::to_allocvec(&self.data).unwrap_or_default();
        frame(&body)
    }

    /// Reads and validates a compiled file.
    ///
    /// # Errors
    /// [`LoadError`] for a wrong magic, another format version, undecodable data, trailing
    /// bytes, or any table that fails validation.
    pub fn from_bytes(bytes: &[u8]) -> Result<CompiledMap, LoadError> {
        let body = bytes.strip_prefix(&MAGIC[..]).ok_or(LoadError::BadMagic)?;
        let (version, rest) = postcard::take_from_bytes::<u32>(body).map_err(LoadError::Decode)?;
        if version != FORMAT_VERSION {
            return Err(LoadError::VersionMismatch {
                found: version,
                expected: FORMAT_VERSION,
            });
        }
        let (expected, body) = postcard::take_from_bytes::<u64>(rest).map_err(LoadError::Decode)?;
        let found = checksum(body);
        if found != expected {
            return Err(LoadError::ChecksumMismatch { expected, found });
        }
        let (data, rest) = postcard::take_from_bytes::<MapData>(body).map_err(LoadError::Decode)?;
        if !rest.is_empty() {
            return Err(LoadError::TrailingBytes(rest.len()));
        }
        Self::from_data(data)
    }

    /// Counts of what the world holds, for reports (`bspc info`).
    #[must_use]
    pub fn summary(&self) -> WorldSummary {
        let data = &self.data;
        WorldSummary {
            planes: data.planes.len(),
            nodes: data.nodes.len(),
            leaves: data.leaves.len(),
            solid_leaves: self.solid_leaf_count(),
            brushes: data.brushes.len(),
            sides: data.sides.len(),
            bevels: self.bevel_count(),
            models: data.models.len(),
            entities: data.entities.len(),
            max_depth: self.max_depth(),
        }
    }

    /// The world's patches as the game collides with them (a Quake 3 `.bsp`'s; empty for
    /// other sources).
    pub(crate) fn game_collides(&self) -> &[GameCollide] {
        &self.game_collides
    }

    /// Whether the level keeps its world's curved patches as Quake 3 collides with them
    /// (an imported Quake 3 `.bsp` with patches): then
    /// [`ShapeQuery::with_game_patches`](crate::movement::ShapeQuery::with_game_patches)
    /// traces those.
    #[must_use]
    pub fn has_game_patches(&self) -> bool {
        !self.game_collides.is_empty()
    }

    /// The level's own hull trees (a Quake 1 family `.bsp`'s; empty for other sources).
    #[must_use]
    pub(crate) fn clip_hulls(&self) -> &ClipHulls {
        &self.data.clip_hulls
    }

    /// Whether the level keeps hull `hull` (0 to 3) of model 0, as an imported Quake 1
    /// family `.bsp` does ([`ShapeQuery::through_clip_hull`](crate::movement::ShapeQuery::through_clip_hull)).
    #[must_use]
    pub fn has_clip_hull(&self, hull: usize) -> bool {
        self.data.clip_hulls.head(0, hull).is_some()
    }

    /// The models; index 0 is the world.
    #[must_use]
    pub fn models(&self) -> &[Model] {
        &self.data.models
    }

    /// The name of the game whose rules the map was compiled by (`quake3`, or a custom
    /// game's name).
    #[must_use]
    pub fn game_name(&self) -> &str {
        &self.data.game
    }

    /// Figures recorded by the compiler.
    #[must_use]
    pub fn stats(&self) -> CompileStats {
        self.data.stats
    }

    /// The contents at each of `points`, as [`Self::point_contents`] gives them, in one
    /// walk of each tree: the points go down together while every node puts them on the
    /// same side, as the controller's water-level samples (the feet, waist and eyes above
    /// one spot) mostly do.
    #[must_use]
    pub fn points_contents(&self, points: [Vec3; 3]) -> [Contents; 3] {
        let mut out = [Contents::EMPTY; 3];
        if let Some(world) = self.data.models.first() {
            self.leaves_contents(world.root, &points, ALL_POINTS, &mut out);
        }
        for &(m, _) in &self.static_models {
            let model = &self.data.models[m as usize];
            let mut inside = 0;
            for (k, p) in points.iter().enumerate() {
                if p.cmpge(model.mins).all() && p.cmple(model.maxs).all() {
                    inside |= 1 << k;
                }
            }
            if inside != 0 {
                self.leaves_contents(model.root, &points, inside, &mut out);
            }
        }
        out
    }

    /// Adds to `out[k]` the contents of the leaf under `child` holding `points[k]`, for each
    /// `k` in the bit set `active`; each point goes the way [`Self::leaf_at`] sends it.
    fn leaves_contents(
        &self,
        mut child: NodeChild,
        points: &[Vec3; 3],
        mut active: u8,
        out: &mut [Contents; 3],
    ) {
        let nodes = self.runtime_nodes();
        loop {
            match child {
                NodeChild::Leaf(i) => {
                    // A leaf listing patch facets is read point by point (they may cover
                    // only part of it), as `point_contents` reads it.
                    for (k, o) in out.iter_mut().enumerate() {
                        if active & (1 << k) != 0 {
                            *o |= self.leaf_contents_at(i as usize, points[k]);
                        }
                    }
                    return;
                }
                NodeChild::Node(i) => {
                    let Some(node) = nodes.get(i as usize) else {
                        return;
                    };
                    let mut back = 0;
                    for (k, p) in points.iter().enumerate() {
                        if active & (1 << k) != 0 && node.normal.dot(*p) - node.dist < 0.0 {
                            back |= 1 << k;
                        }
                    }
                    let front = active & !back;
                    if front == 0 {
                        child = node.children[1];
                    } else {
                        if back != 0 {
                            // The points part: at most twice for three points.
                            self.leaves_contents(node.children[1], points, back, out);
                        }
                        child = node.children[0];
                        active = front;
                    }
                }
            }
        }
    }

    /// The contents at `p` in the world model and its static models
    /// ([`ModelKind::Static`]).
    #[must_use]
    pub fn point_contents(&self, p: Vec3) -> Contents {
        let world = self
            .leaf_index_at(0, p)
            .map_or(Contents::EMPTY, |leaf| self.leaf_contents_at(leaf, p));
        self.static_models.iter().fold(world, |all, &(m, _)| {
            let model = &self.data.models[m as usize];
            let inside = p.cmpge(model.mins).all() && p.cmple(model.maxs).all();
            match inside.then(|| self.leaf_index_at(m as usize, p)).flatten() {
                Some(leaf) => all | self.leaf_contents_at(leaf, p),
                None => all,
            }
        })
    }

    /// The contents at `p` in leaf `index`: the leaf's contents when every brush it lists
    /// covers it; a patch facet, which may cover only part of it, counts only when `p` is
    /// strictly inside it.
    fn leaf_contents_at(&self, index: usize, p: Vec3) -> Contents {
        let Some(leaf) = self.data.leaves.get(index) else {
            return Contents::EMPTY;
        };
        if !self.patch_leaves.get(index).copied().unwrap_or(false) {
            return leaf.contents;
        }
        self.leaf_brush_ids(leaf)
            .iter()
            .fold(Contents::EMPTY, |all, &b| {
                let brush = &self.data.brushes[b as usize];
                let inside = !brush.patch
                    || (p.cmpgt(brush.mins).all()
                        && p.cmplt(brush.maxs).all()
                        && self.brush_sides(brush)[..brush.face_count as usize]
                            .iter()
                            .all(|side| self.data.planes[side.plane as usize].distance(p) < 0.0));
                if inside { all | brush.contents } else { all }
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The brushes of plain maps have their six axial sides (the sweeps' leaf cull relies on
    /// it to bound any shape by its bounds; a patch's facets, and brushes with a face within
    /// a snapping angle of an axis, may lack one and are culled by their reach); one without
    /// its sides does not count.
    #[test]
    fn compiled_brushes_are_axial_bounded_and_a_brush_without_sides_is_not() {
        for name in ["arena.map", "slopes.map", "stairs.map", "thin_walls.map"] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("maps")
                .join(name);
            let src = std::fs::read(path).unwrap_or_default();
            let map = crate::compile::compile_map(&src).map(|c| c.map);
            let Ok(map) = map else {
                panic!("{name} compiles");
            };
            assert!(!map.brushes().is_empty(), "{name}");
            for (index, brush) in map.brushes().iter().enumerate() {
                assert!(map.brush_axial_bounded(index), "{name}: brush {index}");
                // By its sides, not only by being box-exact.
                assert!(
                    axial_bounded(brush, map.sides(), map.planes()),
                    "{name}: brush {index}"
                );
            }
            let mut bare = map.brushes()[0];
            bare.side_count = bare.face_count.min(3);
            assert!(!axial_bounded(&bare, map.sides(), map.planes()), "{name}");
            assert!(!map.brush_axial_bounded(map.brushes().len()));
        }
    }

    /// A level's hull trees go through the file unchanged, and a tree that leads back to
    /// itself or names a missing plane is refused at load, never walked.
    #[test]
    fn clip_hulls_survive_the_file_and_bad_ones_are_refused() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("maps")
            .join("arena.map");
        let src = std::fs::read(path).unwrap_or_default();
        let Ok(map) = crate::compile::compile_map(&src).map(|c| c.map) else {
            panic!("arena.map compiles");
        };
        assert!(!map.has_clip_hull(1));
        let mut data = map.data.clone();
        data.clip_hulls = ClipHulls {
            planes: vec![HullPlane {
                normal: Vec3::Z,
                dist: 0.0,
                axis: 2,
            }],
            nodes: vec![HullNode {
                plane: 0,
                children: [HULL_CONTENTS_EMPTY, HULL_CONTENTS_SOLID],
            }],
            heads: vec![[0; HULL_COUNT]],
        };
        let Ok(with_hulls) = CompiledMap::from_data(data.clone()) else {
            panic!("a valid hull loads");
        };
        let Ok(reread) = CompiledMap::from_bytes(&with_hulls.to_bytes()) else {
            panic!("the file reads back");
        };
        assert_eq!(reread.clip_hulls(), with_hulls.clip_hulls());
        assert!(reread.has_clip_hull(1));
        assert_eq!(reread.clip_hull_contents(1, Vec3::new(0.0, 0.0, -1.0)), Some(-2));
        let mut cyclic = data.clone();
        cyclic.clip_hulls.nodes[0].children[1] = 0;
        assert!(matches!(
            CompiledMap::from_data(cyclic),
            Err(LoadError::BadIndex { .. })
        ));
        let mut missing = data;
        missing.clip_hulls.nodes[0].plane = 7;
        assert!(matches!(
            CompiledMap::from_data(missing),
            Err(LoadError::BadIndex { .. })
        ));
    }
}
