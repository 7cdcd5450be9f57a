//! The solid-leaf tree's data, shared by its build (`solid_bsp.rs`) and the search for sky
//! and liquid volumes (`volumes.rs`): what a material means, the nodes and where their sides
//! lead, and the faces of a cell's region.
//!
//! Takes nothing; gives the types. Guarantees: plain data, no logic.

use crate::contents::Contents;
use crate::geom::{BuildPlane, Winding};
use crate::surface::SurfaceFlags;

/// What a material means to the game.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MaterialMeaning {
    /// Its name, the texture of the sides it makes.
    pub(crate) name: String,
    /// The contents behind its faces.
    pub(crate) contents: Contents,
    /// The game's own value for them.
    pub(crate) game_contents: u32,
    /// The surface flags of its sides.
    pub(crate) surface: SurfaceFlags,
}

/// Where a node's side leads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Child {
    Node(usize),
    /// Solid, of this material.
    Solid(u32),
    Air,
}

/// One node: its plane and material, children `[front, back]`, and the faces on its plane
/// (which close the part of it they cover between the open cells on either side).
pub(super) struct Node {
    pub(super) plane: BuildPlane,
    pub(super) material: u32,
    pub(super) children: [Child; 2],
    pub(super) on: Vec<Winding>,
}

/// One face of a region's polytope: plane facing out, polygon, material of the face that
/// gave the plane (`None` on the box), and the node whose plane it lies on (`None` on the
/// box).
#[derive(Clone)]
pub(super) struct PolytopeFace {
    pub(super) plane: BuildPlane,
    pub(super) winding: Winding,
    pub(super) material: Option<u32>,
    pub(super) node: Option<usize>,
}
