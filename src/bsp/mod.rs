//! Stage 3: brushes to a [`BspTree`] per model, over one shared [`PlaneTable`], in f64.
//!
//! Takes [`BrushInput`]s (planes from the table, windings, contents, whether detail), gives
//! trees whose leaves are homogeneous in every brush but detail ones (patch facets). See `tree.rs` for the guarantees and the splitter heuristic and
//! `planes.rs` for the plane table's.

mod fragment;
mod planes;
mod tree;

pub use planes::{PlaneId, PlaneTable};
pub use tree::{
    BrushInput, BspTree, Child, Leaf, MAX_DETAIL_PER_LEAF, MAX_SPLIT_CANDIDATES, Node, build_tree,
};
