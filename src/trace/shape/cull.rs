//! [`CullReach`]: how far a shape's shifted planes can reach past the brushes under a tree
//! node, so that the tree walk culls without ever dropping a brush that could block.
//!
//! Takes a shape's dimensions (from [`Oriented::cull_reach`](super::Oriented::cull_reach))
//! and a node's reach figures; gives the reach toward each side of the node. Guarantees:
//! never less than what any brush under that side can block with its shifted planes, plus
//! [`TREE_CULL_MARGIN`].

use glam::Vec3;

use crate::tolerance::TREE_CULL_MARGIN;

/// How far a shape's blocking region can reach past a brush toward a unit direction `n`,
/// measured from the point the tree walk follows (the reference point plus `center`):
/// `max(min(|n|·half + κ·rho, |n|·box_half + |n·box_center|), κ_inexact·radius)`, where κ
/// is the largest reach of the brushes concerned and κ_inexact the largest among those that
/// are not box-exact.
///
/// Why culling with it keeps the tree a pure broadphase: a brush's shifted planes block a
/// shape of circumradius R only within κ·R of the brush (`brush::reach`); on box-exact
/// brushes an axis-aligned box or vertical segment centred on the followed point (`half`)
/// is exact and reaches only its own support, and capsules and cylinders are such a segment
/// plus a ball or disk of radius `rho`, which reaches κ·rho more. Points reach 0, spheres
/// κ·r, other shapes κ·R. Every shape also lies inside its bounding box (`box_center` ±
/// `box_half` about the followed point), so its support is never more than the box's, its
/// shifted planes never reach past the box's, and on a box-exact brush the box's reach is
/// exact: `|n|·box_half + |n·box_center|` bounds the reach too, and the walk takes the
/// smaller of the two (for spheres, capsules and cylinders across axial node planes, and
/// for hulls, which otherwise reach κ·R). `radius` is the circumradius about the reference
/// point, never less than the one about the followed point, so κ_inexact·radius covers both.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CullReach {
    /// From the reference point to the point the walk follows (a box's centre).
    pub(super) center: Vec3,
    pub(super) half: Vec3,
    pub(super) rho: f32,
    pub(super) radius: f32,
    /// The shape's bounding box about the followed point: centre and half extents (only
    /// read where the bounding box's reach can be the smaller: not for points, whose reach
    /// is 0, nor for boxes, whose own reach is their box's; see `Support::BOXED`).
    pub(super) box_center: Vec3,
    pub(super) box_half: Vec3,
}

impl CullReach {
    /// How many words [`Self::key_bits`] gives.
    pub(crate) const KEY_WORDS: usize = 14;

    /// The figures (`center`, `half`, `rho`, `radius` and the bounding box), as bits: two
    /// shapes whose words are equal cull alike, and comparing words is cheaper than
    /// comparing floats.
    pub(crate) fn key_bits(&self) -> [u32; Self::KEY_WORDS] {
        let (c, h, bc, bh) = (self.center, self.half, self.box_center, self.box_half);
        [
            c.x,
            c.y,
            c.z,
            h.x,
            h.y,
            h.z,
            self.rho,
            self.radius,
            bc.x,
            bc.y,
            bc.z,
            bh.x,
            bh.y,
            bh.z,
        ]
        .map(f32::to_bits)
    }

    /// Whether every figure is finite (a tick cache keeps only finite keys: `tick_cache.rs`).
    pub(crate) fn is_finite(&self) -> bool {
        self.center.is_finite()
            && self.half.is_finite()
            && self.rho.is_finite()
            && self.radius.is_finite()
            && self.box_center.is_finite()
            && self.box_half.is_finite()
    }

    /// The reaches toward a node plane's front (`n`) and back (`−n`), for the κ figures of
    /// the brushes under each side, plus [`TREE_CULL_MARGIN`]. Only `|n|` matters once
    /// the followed point is the centre, so one dot product serves both sides. `boxed`: whether
    /// to take the bounding box's reach too (`Support::BOXED`, a constant per shape kind, so
    /// once inlined the walk's loop has no branch on it).
    #[inline(always)]
    pub(crate) fn both_sides(
        &self,
        n: Vec3,
        kappa: [f32; 2],
        kappa_inexact: [f32; 2],
        boxed: bool,
    ) -> [f32; 2] {
        let across = n.abs();
        let spread = across.dot(self.half);
        if !boxed {
            let side = |k: usize| {
                larger(spread + kappa[k] * self.rho, kappa_inexact[k] * self.radius)
                    + TREE_CULL_MARGIN
            };
            return [side(0), side(1)];
        }
        let boxed = across.dot(self.box_half) + n.dot(self.box_center).abs();
        let side = |k: usize| {
            let exact = smaller(spread + kappa[k] * self.rho, boxed);
            larger(exact, kappa_inexact[k] * self.radius) + TREE_CULL_MARGIN
        };
        [side(0), side(1)]
    }

    /// These figures reaching `extra` units farther toward every side: the half extents
    /// (and the bounding box's) grown by `extra`, so `|n|·half` grows by at least `extra`
    /// for any unit `n` (a sweep that stops `extra` farther out than the default).
    pub(crate) fn grown(self, extra: f32) -> CullReach {
        CullReach {
            half: self.half + Vec3::splat(extra),
            box_half: self.box_half + Vec3::splat(extra),
            radius: self.radius + extra,
            ..self
        }
    }

    /// From the reference point to the point the tree walk follows (a box's centre; zero
    /// for the other shapes).
    #[inline]
    pub(crate) fn center(&self) -> Vec3 {
        self.center
    }

    /// The shape's circumradius about its reference point.
    #[inline]
    pub(crate) fn radius(&self) -> f32 {
        self.radius
    }
}

/// The smaller of two finite numbers in one instruction (see [`larger`]).
#[inline]
fn smaller(a: f32, b: f32) -> f32 {
    if a < b { a } else { b }
}

/// The larger of two finite numbers in one instruction (`f32::max` also orders NaNs, which
/// the walk never sees: κ is checked finite at load, shape sizes at construction).
#[inline]
fn larger(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}
