//! `validate`: the checks that make a [`MapData`] safe to use, and [`LoadError`].
//!
//! Takes deserialised tables, gives `Ok` or the first problem found. After `Ok`: every index
//! is in range, every range fits its table, every number is finite and bounded, every normal
//! has unit length, no brush has more than `MAX_BRUSH_FACES` faces (so deriving its
//! features at load is bounded), plane pairs are exact negations, and the node graph is a forest whose
//! child indices exceed their parents' (so every walk terminates and visits each node once)
//! and whose depth is at most `MAX_TREE_DEPTH` (so recursive walks cannot exhaust the stack).

use glam::Vec3;

use super::{MapData, NodeChild};
use crate::tolerance::{
    LOAD_NORMAL_TOLERANCE, MAX_BRUSH_FACES, MAX_BRUSH_REACH, MAX_COMPILED_COORD, MAX_TREE_DEPTH,
};

/// Why a compiled file cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoadError {
    /// The file does not start with the planeshift magic.
    BadMagic,
    /// The file was written by another format version.
    VersionMismatch {
        /// Version in the file.
        found: u32,
        /// Version this build reads.
        expected: u32,
    },
    /// The body does not match its checksum: the file was damaged after it was written.
    ChecksumMismatch {
        /// Checksum stored in the file.
        expected: u64,
        /// Checksum of the body as read.
        found: u64,
    },
    /// The data cannot be decoded (truncated or garbled).
    Decode(String),
    /// Bytes follow the data.
    TrailingBytes(usize),
    /// An index or range points outside its table.
    BadIndex {
        /// The table holding the bad reference.
        table: &'static str,
        /// The entry's index in that table.
        index: usize,
        /// What is wrong.
        reason: String,
    },
    /// A value is not finite, out of range or inconsistent.
    BadValue {
        /// The table holding the bad value.
        table: &'static str,
        /// The entry's index.
        index: usize,
        /// What is wrong.
        reason: &'static str,
    },
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::BadMagic => write!(f, "not a planeshift compiled map (bad magic)"),
            LoadError::VersionMismatch { found, expected } => write!(
                f,
                "compiled map format version {found}, this build reads version {expected}: recompile the map"
            ),
            LoadError::ChecksumMismatch { expected, found } => write!(
                f,
                "corrupt compiled map: checksum {found:016x} does not match the stored {expected:016x}"
            ),
            LoadError::Decode(e) => write!(f, "corrupt compiled map: {e}"),
            LoadError::TrailingBytes(n) => write!(f, "corrupt compiled map: {n} trailing bytes"),
            LoadError::BadIndex {
                table,
                index,
                reason,
            } => write!(f, "corrupt compiled map: {table}[{index}]: {reason}"),
            LoadError::BadValue {
                table,
                index,
                reason,
            } => write!(f, "corrupt compiled map: {table}[{index}]: {reason}"),
        }
    }
}

impl std::error::Error for LoadError {}

fn bad_index(table: &'static str, index: usize, reason: String) -> LoadError {
    LoadError::BadIndex {
        table,
        index,
        reason,
    }
}

fn bad_value(table: &'static str, index: usize, reason: &'static str) -> LoadError {
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
    let mut reference =
        |table: &'static str, index: usize, child: NodeChild, parent: Option<u32>| match child {
            NodeChild::Leaf(leaf) => check_index(table, index, "leaf", leaf, data.leaves.len()),
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
    for (i, leaf) in data.leaves.iter().enumerate() {
        check_range(
            "leaves",
            i,
            leaf.first_brush,
            leaf.brush_count,
            data.leaf_brushes.len(),
        )?;
    }
    for (i, &brush) in data.leaf_brushes.iter().enumerate() {
        check_index("leaf_brushes", i, "brush", brush, data.brushes.len())?;
    }
    for (i, brush) in data.brushes.iter().enumerate() {
        check_range(
            "brushes",
            i,
            brush.first_side,
            brush.side_count,
            data.sides.len(),
        )?;
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
    }
    if data.models.is_empty() {
        return Err(bad_value("models", 0, "no world model"));
    }
    for (i, model) in data.models.iter().enumerate() {
        check_range(
            "models",
            i,
            model.first_brush,
            model.brush_count,
            data.brushes.len(),
        )?;
        if !bounded(model.mins) || !bounded(model.maxs) || !bounded(model.origin) {
            return Err(bad_value("models", i, "bounds or origin not finite"));
        }
    }
    // Children follow their parents and have one parent each, so this walk terminates.
    for (i, model) in data.models.iter().enumerate() {
        let mut stack = vec![(model.root, 0u32)];
        while let Some((child, depth)) = stack.pop() {
            if depth > MAX_TREE_DEPTH {
                return Err(bad_value("models", i, "tree deeper than MAX_TREE_DEPTH"));
            }
            if let NodeChild::Node(n) = child {
                let node = &data.nodes[n as usize];
                stack.extend(node.children.iter().map(|c| (*c, depth + 1)));
            }
        }
    }
    if !data.stats.seconds.is_finite() || data.stats.seconds < 0.0 {
        return Err(bad_value(
            "stats",
            0,
            "compile time is not a finite duration",
        ));
    }
    Ok(())
}
