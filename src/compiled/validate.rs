//! `validate`: the checks that make a [`MapData`] safe to use, and [`LoadError`].
//!
//! Takes deserialised tables, gives `Ok` or the first problem found. After `Ok`: every index
//! is in range, every range fits its table, every number is finite and bounded, every normal
//! has unit length, no brush has more than `MAX_BRUSH_FACES` faces (so deriving its
//! features at load is bounded), plane pairs are exact negations, and the node graph is a forest whose
//! child indices exceed their parents' (so every walk terminates and visits each node once)
//! and whose depth is at most `MAX_TREE_DEPTH` (so recursive walks cannot exhaust the stack).
//!
//! What may be shared, table by table (a crafted file must not make one entry stand for
//! many, or work at load or per sweep could grow faster than the file):
//!
//! | reference | shared? |
//! |---|---|
//! | node or side → plane | yes: that is the plane table |
//! | leaf_brushes entry → brush | yes: a brush spans many leaves; but once per leaf |
//! | leaf → `leaf_brushes` range | no: the ranges of non-empty leaves are disjoint |
//! | brush → `sides` range | no: the ranges of non-empty brushes are disjoint |
//! | model → `brushes` range | no: the ranges of non-empty models are disjoint |
//! | model or node → child node | no: one parent each, roots included (a tree, not a DAG) |
//! | model or node → child leaf | no: one parent each, so each leaf is reached once |
//! | entity ↔ model | no: an entity names at most one model, and that model names it back |
//!
//! Entity strings, material names and the game's name are at most `MAX_ENTITY_STRING` bytes,
//! and an entity holds at most `MAX_ENTITY_PROPERTIES` key/values. Every side names a
//! material in the table; model 0, and only model 0, is the world.
//!
//! A leaf reached from a model's root lists only that model's brushes. Every check runs
//! in time linear in the tables' lengths (ranges are claimed entry by entry in a table of
//! owners and stop at the first overlap), so validation is linear in the file's size.

use glam::Vec3;

use super::{MapData, ModelKind, NodeChild};
use crate::tolerance::{
    LOAD_NORMAL_TOLERANCE, MAX_BRUSH_FACES, MAX_BRUSH_REACH, MAX_COMPILED_COORD,
    MAX_ENTITY_PROPERTIES, MAX_ENTITY_STRING, MAX_TREE_DEPTH,
};

/// Why a compiled file cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The file does not start with the planeshift magic.
    #[error("not a planeshift compiled map (bad magic)")]
    BadMagic,
    /// The file was written by another format version.
    #[error(
        "compiled map format version {found}, this build reads version {expected}: recompile the map"
    )]
    VersionMismatch {
        /// Version in the file.
        found: u32,
        /// Version this build reads.
        expected: u32,
    },
    /// The body does not match its checksum: the file was damaged after it was written.
    #[error(
        "corrupt compiled map: checksum {found:016x} does not match the stored {expected:016x}"
    )]
    ChecksumMismatch {
        /// Checksum stored in the file.
        expected: u64,
        /// Checksum of the body as read.
        found: u64,
    },
    /// The data cannot be decoded (truncated or garbled); the decoder's error is the source.
    #[error("corrupt compiled map: the data does not decode")]
    Decode(#[source] postcard::Error),
    /// Bytes follow the data.
    #[error("corrupt compiled map: {0} trailing bytes")]
    TrailingBytes(usize),
    /// An index or range points outside its table.
    #[error("corrupt compiled map: {table}[{index}]: {reason}")]
    BadIndex {
        /// The table holding the bad reference.
        table: &'static str,
        /// The entry's index in that table.
        index: usize,
        /// What is wrong.
        reason: String,
    },
    /// A value is not finite, out of range or inconsistent.
    #[error("corrupt compiled map: {table}[{index}]: {reason}")]
    BadValue {
        /// The table holding the bad value.
        table: &'static str,
        /// The entry's index.
        index: usize,
        /// What is wrong.
        reason: &'static str,
    },
}

/// A [`LoadError::BadIndex`] in `table` at `index`.
pub(super) fn bad_index(table: &'static str, index: usize, reason: String) -> LoadError {
    LoadError::BadIndex {
        table,
        index,
        reason,
    }
}

/// A [`LoadError::BadValue`] in `table` at `index`.
pub(super) fn bad_value(table: &'static str, index: usize, reason: &'static str) -> LoadError {
    LoadError::BadValue {
        table,
        index,
        reason,
    }
}

fn check_index(
    table: &'static str,
    index: usize,
    what: &str,
    value: u32,
    len: usize,
) -> Result<(), LoadError> {
    if (value as usize) < len {
        Ok(())
    } else {
        Err(bad_index(
            table,
            index,
            format!("{what} {value} out of range (len {len})"),
        ))
    }
}

fn check_range(
    table: &'static str,
    index: usize,
    first: u32,
    count: u32,
    len: usize,
) -> Result<(), LoadError> {
    if u64::from(first) + u64::from(count) <= len as u64 {
        Ok(())
    } else {
        Err(bad_index(
            table,
            index,
            format!("range {first}+{count} exceeds len {len}"),
        ))
    }
}

/// Which entry of an owning table claimed each entry of a referenced table, so that ranges
/// can be checked for overlap in time linear in the referenced table's length.
struct Claims {
    owner: Vec<u32>,
    /// The owning table's name, for messages.
    table: &'static str,
}

impl Claims {
    const FREE: u32 = u32::MAX;

    fn new(table: &'static str, len: usize) -> Self {
        Claims {
            owner: vec![Self::FREE; len],
            table,
        }
    }

    /// Claims `first..first + count` (already checked to fit) for entry `index`; refuses a
    /// range overlapping one claimed before. Each entry is claimed at most once, so all
    /// claims together cost at most the referenced table's length.
    fn claim(&mut self, index: usize, first: u32, count: u32) -> Result<(), LoadError> {
        let start = first as usize;
        let range = start..start + count as usize;
        let Some(owners) = self.owner.get_mut(range) else {
            return Err(bad_index(
                self.table,
                index,
                format!("range {first}+{count} does not fit"),
            ));
        };
        for owner in owners {
            if *owner != Self::FREE {
                return Err(bad_index(
                    self.table,
                    index,
                    format!(
                        "range {first}+{count} overlaps the range of {}[{}]",
                        self.table, *owner
                    ),
                ));
            }
            *owner = index as u32;
        }
        Ok(())
    }
}

fn bounded(v: Vec3) -> bool {
    v.is_finite() && v.abs().max_element() <= MAX_COMPILED_COORD
}

/// Checks every table of `data`.
///
/// # Errors
/// The first problem found, as a [`LoadError`].
pub(crate) fn validate(data: &MapData) -> Result<(), LoadError> {
    if !data.planes.len().is_multiple_of(2) {
        return Err(bad_value(
            "planes",
            data.planes.len(),
            "odd plane count: planes come in pairs",
        ));
    }
    for (i, plane) in data.planes.iter().enumerate() {
        if !plane.normal.is_finite() || (plane.normal.length() - 1.0).abs() > LOAD_NORMAL_TOLERANCE
        {
            return Err(bad_value("planes", i, "normal is not unit length"));
        }
        if !plane.dist.is_finite() || plane.dist.abs() > MAX_COMPILED_COORD {
            return Err(bad_value(
                "planes",
                i,
                "distance is not finite or too large",
            ));
        }
        if i % 2 == 1 {
            let pair = data.planes[i - 1];
            if plane.normal != -pair.normal || plane.dist != -pair.dist {
                return Err(bad_value("planes", i, "not the negation of its pair"));
            }
        }
    }
    let mut referenced = vec![false; data.nodes.len()];
    let mut leaf_referenced = vec![false; data.leaves.len()];
    let mut reference =
        |table: &'static str, index: usize, child: NodeChild, parent: Option<u32>| match child {
            NodeChild::Leaf(leaf) => {
                check_index(table, index, "leaf", leaf, data.leaves.len())?;
                if std::mem::replace(&mut leaf_referenced[leaf as usize], true) {
                    return Err(bad_index(
                        table,
                        index,
                        format!("leaf {leaf} has two parents"),
                    ));
                }
                Ok(())
            }
            NodeChild::Node(node) => {
                check_index(table, index, "node", node, data.nodes.len())?;
                if parent.is_some_and(|p| node <= p) {
                    return Err(bad_index(
                        table,
                        index,
                        format!("child node {node} does not follow its parent"),
                    ));
                }
                if std::mem::replace(&mut referenced[node as usize], true) {
                    return Err(bad_index(
                        table,
                        index,
                        format!("node {node} has two parents"),
                    ));
                }
                Ok(())
            }
        };
    for (i, model) in data.models.iter().enumerate() {
        reference("models", i, model.root, None)?;
    }
    for (i, node) in data.nodes.iter().enumerate() {
        check_index("nodes", i, "plane", node.plane, data.planes.len())?;
        for child in node.children {
            reference("nodes", i, child, Some(i as u32))?;
        }
    }
    for (i, &brush) in data.leaf_brushes.iter().enumerate() {
        check_index("leaf_brushes", i, "brush", brush, data.brushes.len())?;
    }
    let mut leaf_claims = Claims::new("leaves", data.leaf_brushes.len());
    // The last leaf that listed each brush, to find a brush listed twice by one leaf.
    let mut listed_by = vec![u32::MAX; data.brushes.len()];
    for (i, leaf) in data.leaves.iter().enumerate() {
        check_range(
            "leaves",
            i,
            leaf.first_brush,
            leaf.brush_count,
            data.leaf_brushes.len(),
        )?;
        leaf_claims.claim(i, leaf.first_brush, leaf.brush_count)?;
        let start = leaf.first_brush as usize;
        for &brush in &data.leaf_brushes[start..start + leaf.brush_count as usize] {
            if std::mem::replace(&mut listed_by[brush as usize], i as u32) == i as u32 {
                return Err(bad_index(
                    "leaves",
                    i,
                    format!("brush {brush} listed twice"),
                ));
            }
        }
    }
    let mut brush_claims = Claims::new("brushes", data.sides.len());
    for (i, brush) in data.brushes.iter().enumerate() {
        check_range(
            "brushes",
            i,
            brush.first_side,
            brush.side_count,
            data.sides.len(),
        )?;
        brush_claims.claim(i, brush.first_side, brush.side_count)?;
        if brush.face_count < 4
            || brush.face_count > brush.box_side_count
            || brush.box_side_count > brush.side_count
        {
            return Err(bad_value(
                "brushes",
                i,
                "side counts out of order (need 4 <= faces <= box sides <= sides)",
            ));
        }
        if brush.face_count as usize > MAX_BRUSH_FACES {
            return Err(bad_value("brushes", i, "more faces than MAX_BRUSH_FACES"));
        }
        if !(brush.reach.is_finite() && (1.0..=MAX_BRUSH_REACH).contains(&brush.reach)) {
            return Err(bad_value(
                "brushes",
                i,
                "reach is not a finite number of at least 1",
            ));
        }
        if !bounded(brush.mins) || !bounded(brush.maxs) || brush.mins.cmpgt(brush.maxs).any() {
            return Err(bad_value("brushes", i, "bounds are not finite or inverted"));
        }
    }
    for (i, side) in data.sides.iter().enumerate() {
        check_index("sides", i, "plane", side.plane, data.planes.len())?;
        check_index("sides", i, "material", side.material, data.materials.len())?;
    }
    validate_names(data)?;
    if data.models.is_empty() {
        return Err(bad_value("models", 0, "no world model"));
    }
    let mut model_claims = Claims::new("models", data.brushes.len());
    for (i, model) in data.models.iter().enumerate() {
        check_range(
            "models",
            i,
            model.first_brush,
            model.brush_count,
            data.brushes.len(),
        )?;
        model_claims.claim(i, model.first_brush, model.brush_count)?;
        if !bounded(model.mins) || !bounded(model.maxs) || !bounded(model.origin) {
            return Err(bad_value("models", i, "bounds or origin not finite"));
        }
        if (i == 0) != (model.kind == ModelKind::World) {
            return Err(bad_value(
                "models",
                i,
                "the world is model 0, and only model 0 is the world",
            ));
        }
    }
    validate_entities(data)?;
    // Children follow their parents and have one parent each, so this walk terminates and
    // reaches every node and leaf at most once over all models.
    for (i, model) in data.models.iter().enumerate() {
        let first = u64::from(model.first_brush);
        let brushes = first..first + u64::from(model.brush_count);
        let mut stack = vec![(model.root, 0u32)];
        while let Some((child, depth)) = stack.pop() {
            if depth > MAX_TREE_DEPTH {
                return Err(bad_value("models", i, "tree deeper than MAX_TREE_DEPTH"));
            }
            match child {
                NodeChild::Node(n) => {
                    let node = &data.nodes[n as usize];
                    stack.extend(node.children.iter().map(|c| (*c, depth + 1)));
                }
                NodeChild::Leaf(l) => {
                    let leaf = &data.leaves[l as usize];
                    let start = leaf.first_brush as usize;
                    let listed = &data.leaf_brushes[start..start + leaf.brush_count as usize];
                    if let Some(brush) = listed.iter().find(|&&b| !brushes.contains(&u64::from(b)))
                    {
                        return Err(bad_index(
                            "leaves",
                            l as usize,
                            format!("brush {brush} is not a brush of model {i}"),
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

/// The material names and the game's name: at most `MAX_ENTITY_STRING` bytes each.
fn validate_names(data: &MapData) -> Result<(), LoadError> {
    if let Some(i) = data
        .materials
        .iter()
        .position(|m| m.len() > MAX_ENTITY_STRING)
    {
        return Err(bad_value(
            "materials",
            i,
            "a name longer than MAX_ENTITY_STRING",
        ));
    }
    if data.game.len() > MAX_ENTITY_STRING {
        return Err(bad_value("game", 0, "a name longer than MAX_ENTITY_STRING"));
    }
    Ok(())
}

/// The entity table: string sizes, and entities and models naming each other.
fn validate_entities(data: &MapData) -> Result<(), LoadError> {
    for (i, entity) in data.entities.iter().enumerate() {
        if entity.properties.len() > MAX_ENTITY_PROPERTIES {
            return Err(bad_value(
                "entities",
                i,
                "more key/values than MAX_ENTITY_PROPERTIES",
            ));
        }
        let long = |s: &String| s.len() > MAX_ENTITY_STRING;
        if entity.properties.iter().any(|(k, v)| long(k) || long(v)) {
            return Err(bad_value(
                "entities",
                i,
                "a key or value longer than MAX_ENTITY_STRING",
            ));
        }
        if let Some(model) = entity.model {
            check_index("entities", i, "model", model, data.models.len())?;
            if data.models[model as usize].entity != Some(i as u32) {
                return Err(bad_index(
                    "entities",
                    i,
                    format!("model {model} does not name this entity"),
                ));
            }
        }
    }
    for (i, model) in data.models.iter().enumerate() {
        if let Some(entity) = model.entity {
            check_index("models", i, "entity", entity, data.entities.len())?;
            if data.entities[entity as usize].model != Some(i as u32) {
                return Err(bad_index(
                    "models",
                    i,
                    format!("entity {entity} does not name this model"),
                ));
            }
        }
    }
    Ok(())
}
