//! The raw tables of a [`CompiledMap`] (planes, nodes, leaves, brushes, sides, features) and
//! the figures derived from them, for the sweeps, the viewer and planeshift's own tests.
//!
//! Takes a validated world; gives read-only views of its tables. Public only with the
//! unstable `internals` feature: a game reaches the world through sweeps, point contents,
//! models and [`CompiledMap::summary`]. Guarantees: the views index tables that validation
//! has checked, so they never go out of bounds on a loaded map.

use glam::Vec3;

use super::{
    BrushFeatures, CompiledBrush, CompiledLeaf, CompiledMap, CompiledNode, CompiledSide, NodeChild,
    Plane,
};

impl super::Model {
    internal! {
        /// The indices of the model's brushes in the brush table.
        #[must_use]
        pub fn brush_range(&self) -> std::ops::Range<usize> {
            let first = self.first_brush as usize;
            first..first + self.brush_count as usize
        }
    }
}

impl CompiledMap {
    internal! {
        /// The root of model `model`'s tree and its brush range (first, count); `None` for
        /// an unknown model.
        #[must_use]
        pub fn model_tree(&self, model: usize) -> Option<(NodeChild, u32, u32)> {
            let m = self.data.models.get(model)?;
            Some((m.root, m.first_brush, m.brush_count))
        }
    }

    internal! {
        /// The leaf of model `model` containing `p` (points on a plane go to the front), or
        /// `None` when there is no such model.
        #[must_use]
        pub fn leaf_at(&self, model: usize, p: Vec3) -> Option<&CompiledLeaf> {
            self.data.leaves.get(self.leaf_index_at(model, p)?)
        }
    }

    /// The index of the leaf [`Self::leaf_at`] gives.
    pub(crate) fn leaf_index_at(&self, model: usize, p: Vec3) -> Option<usize> {
        let mut child = self.data.models.get(model)?.root;
        // The runtime nodes hold their planes inline: one load per level.
        let nodes = self.runtime_nodes();
        loop {
            match child {
                NodeChild::Leaf(i) => return Some(i as usize),
                NodeChild::Node(i) => {
                    let node = nodes.get(i as usize)?;
                    let distance = node.normal.dot(p) - node.dist;
                    child = node.children[usize::from(distance < 0.0)];
                }
            }
        }
    }

    internal! {
        /// The face planes (f64), corners and edges of brush `brush`, derived at load; `None`
        /// for an unknown brush or a degenerate one a crafted file may hold (see
        /// `compiled::features`); every brush a compile makes has them, whatever its face
        /// count.
        #[must_use]
        pub fn brush_features(&self, brush: usize) -> Option<BrushFeatures<'_>> {
            self.features.get(brush)
        }
    }

    internal! {
        /// The reach κ of brush `brush` (≥ 1): its shifted planes block a shape of
        /// circumradius R only within κ·R of the brush; `None` for an unknown brush.
        #[must_use]
        pub fn brush_reach(&self, brush: usize) -> Option<f32> {
            self.data.brushes.get(brush).map(|b| b.reach)
        }
    }

    internal! {
        /// The plane table; entry `2k + 1` is the negation of entry `2k`.
        #[must_use]
        pub fn planes(&self) -> &[Plane] {
            &self.data.planes
        }
    }

    internal! {
        /// Interior nodes of every model's tree.
        #[must_use]
        pub fn nodes(&self) -> &[CompiledNode] {
            &self.data.nodes
        }
    }

    internal! {
        /// Leaves of every model's tree.
        #[must_use]
        pub fn leaves(&self) -> &[CompiledLeaf] {
            &self.data.leaves
        }
    }

    internal! {
        /// Brush indices listed by leaves.
        #[must_use]
        pub fn leaf_brushes(&self) -> &[u32] {
            &self.data.leaf_brushes
        }
    }

    internal! {
        /// Brushes of every model.
        #[must_use]
        pub fn brushes(&self) -> &[CompiledBrush] {
            &self.data.brushes
        }
    }

    internal! {
        /// Brush sides, bevels included.
        #[must_use]
        pub fn sides(&self) -> &[CompiledSide] {
            &self.data.sides
        }
    }

    internal! {
        /// The sides of `brush`, one of the brush table's. A brush made by the caller whose
        /// range does not fit this map's sides gets an empty slice, never a panic.
        #[must_use]
        pub fn brush_sides(&self, brush: &CompiledBrush) -> &[CompiledSide] {
            let start = brush.first_side as usize;
            self.data
                .sides
                .get(start..start.saturating_add(brush.side_count as usize))
                .unwrap_or_default()
        }
    }

    internal! {
        /// The brushes covering `leaf`, one of the leaf table's. A leaf made by the caller
        /// whose range does not fit this map's leaf brushes gets an empty slice, never a
        /// panic.
        #[must_use]
        pub fn leaf_brush_ids(&self, leaf: &CompiledLeaf) -> &[u32] {
            let start = leaf.first_brush as usize;
            self.data
                .leaf_brushes
                .get(start..start.saturating_add(leaf.brush_count as usize))
                .unwrap_or_default()
        }
    }

    internal! {
        /// The deepest leaf of any model (root leaf = 0).
        #[must_use]
        pub fn max_depth(&self) -> u32 {
            let mut deepest = 0;
            let mut stack: Vec<(NodeChild, u32)> =
                self.data.models.iter().map(|m| (m.root, 0)).collect();
            while let Some((child, depth)) = stack.pop() {
                match child {
                    NodeChild::Leaf(_) => deepest = deepest.max(depth),
                    NodeChild::Node(i) => {
                        if let Some(node) = self.data.nodes.get(i as usize) {
                            stack.extend(node.children.iter().map(|c| (*c, depth + 1)));
                        }
                    }
                }
            }
            deepest
        }
    }

    internal! {
        /// How many brush sides are bevels.
        #[must_use]
        pub fn bevel_count(&self) -> usize {
            self.data.sides.iter().filter(|s| s.bevel).count()
        }
    }

    internal! {
        /// How many leaves block movement under the default mask.
        #[must_use]
        pub fn solid_leaf_count(&self) -> usize {
            self.data
                .leaves
                .iter()
                .filter(|l| l.contents.is_solid())
                .count()
        }
    }
}
