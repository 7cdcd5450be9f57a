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
    /// Per axis: `half` and the bounding box's reach `box_half + |box_center|`, what an
    /// axial node plane's reaches read ([`Self::both_sides_axial`]).
    pub(super) axial_half: [f32; 3],
    pub(super) axial_box: [f32; 3],
}

impl CullReach {
    /// The figures for a shape whose part `half` (a box or vertical segment about the
    /// followed point, `center` from the reference point) reaches exactly, with `rho` of
    /// round part, circumradius `radius`, and bounding box `(centre, half extents)` about the
    /// followed point.
    pub(super) fn new(
        center: Vec3,
        half: Vec3,
        rho: f32,
        radius: f32,
        (box_center, box_half): (Vec3, Vec3),
    ) -> CullReach {
        CullReach {
            center,
            half,
            rho,
            radius,
            box_center,
            box_half,
            axial_half: half.to_array(),
            axial_box: (box_half + box_center.abs()).to_array(),
        }
    }

    /// How many words [`Self::key_bits`] gives.
    pub(crate) const KEY_WORDS: usize = 14;

    /// The figures the others derive from (`center`, `half`, `rho`, `radius` and the
    /// bounding box), as bits: two shapes whose words are equal cull alike (the per-axis
    /// figures follow from these), and comparing words is cheaper than comparing floats.
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
        self.sides_from(
            across.dot(self.half),
            || across.dot(self.box_half) + n.dot(self.box_center).abs(),
            kappa,
            kappa_inexact,
            boxed,
        )
    }

    /// [`Self::both_sides`] for a node plane whose normal is exactly ±1 on `axis` (0, 1, 2)
    /// and ±0 on the other two, bit for bit: there `|n|·half` is `half[axis]` (`1·h + 0·h'`
    /// adds exact zeros to `h ≥ 0`) and `|n·box_center|` is `|box_center[axis]|` (the sum
    /// differs at most in the sign of a zero, which the absolute value drops).
    #[inline(always)]
    pub(crate) fn both_sides_axial(
        &self,
        axis: usize,
        kappa: [f32; 2],
        kappa_inexact: [f32; 2],
        boxed: bool,
    ) -> [f32; 2] {
        // `axis` is below 3 (the walk checks it); were it not, an infinite reach culls
        // nothing.
        let pick = |v: &[f32; 3]| v.get(axis).copied().unwrap_or(f32::INFINITY);
        self.sides_from(
            pick(&self.axial_half),
            || pick(&self.axial_box),
            kappa,
            kappa_inexact,
            boxed,
        )
    }

    /// The two reaches from the segment's spread `|n|·half` and the bounding box's reach
    /// (only asked for when `boxed`).
    #[inline(always)]
    fn sides_from(
        &self,
        spread: f32,
        box_reach: impl FnOnce() -> f32,
        kappa: [f32; 2],
        kappa_inexact: [f32; 2],
        boxed: bool,
    ) -> [f32; 2] {
        if !boxed {
            let side = |k: usize| {
                larger(spread + kappa[k] * self.rho, kappa_inexact[k] * self.radius)
                    + TREE_CULL_MARGIN
            };
            return [side(0), side(1)];
        }
        let boxed = box_reach();
        let side = |k: usize| {
            let exact = smaller(spread + kappa[k] * self.rho, boxed);
            larger(exact, kappa_inexact[k] * self.radius) + TREE_CULL_MARGIN
        };
        [side(0), side(1)]
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

#[cfg(test)]
mod tests {
    use super::*;

    /// On an axial normal (±1 on one axis, ±0 on the others, every sign of zero) the axial
    /// reaches are the general ones' very bits, boxed or not, for seeded shape figures.
    #[test]
    fn axial_reaches_are_the_general_ones_bit_for_bit() {
        let mut rng = crate::test_rng::XorShift::new(0x2545_f491_4f6c_dd1d);
        let mut size = |scale: f32| (rng.unit() * 0.5 + 0.5) * scale;
        for case in 0..512 {
            let reach = CullReach::new(
                Vec3::new(size(8.0) - 4.0, size(8.0) - 4.0, size(16.0) - 8.0),
                Vec3::new(size(16.0), size(16.0), size(32.0)) * f32::from(case % 3 != 0),
                size(16.0) * f32::from(case % 2 == 0),
                size(48.0),
                (
                    Vec3::new(size(2.0) - 1.0, -0.0, size(8.0) - 4.0),
                    Vec3::new(size(16.0), size(16.0), size(28.0)),
                ),
            );
            let kappa = [size(2.0), size(1.8)];
            let kappa_inexact = [kappa[0] * f32::from(case % 4 == 0), 0.0];
            for axis in 0..3 {
                for sign in [1.0f32, -1.0] {
                    for zeros in 0..4 {
                        let zero = |bit: usize| if zeros & bit == 0 { 0.0 } else { -0.0 };
                        let mut n = [zero(1), zero(2), zero(1)];
                        n[(axis + 2) % 3] = zero(2);
                        n[(axis + 1) % 3] = zero(1);
                        n[axis] = sign;
                        let n = Vec3::from_array(n);
                        for boxed in [false, true] {
                            let general = reach.both_sides(n, kappa, kappa_inexact, boxed);
                            let axial = reach.both_sides_axial(axis, kappa, kappa_inexact, boxed);
                            assert_eq!(general.map(f32::to_bits), axial.map(f32::to_bits), "{n}");
                        }
                    }
                }
            }
        }
    }
}
