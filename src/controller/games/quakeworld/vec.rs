//! The game's vector macros (`mathlib.h DotProduct`, `CrossProduct`, `VectorMA`,
//! `VectorScale`, `mathlib.c VectorNormalize`) in their order of float operations.
//!
//! Takes and gives [`Vec3`]s. Guarantees: each is the C macro's sequence of f32 operations
//! (left to right, no fused multiply-add), so results match the game's to the bit;
//! `normalize` of a zero vector leaves it zero, as the game's.

use glam::Vec3;

/// `DotProduct`: `x₀y₀ + x₁y₁ + x₂y₂`, left to right.
pub(super) fn dot(a: Vec3, b: Vec3) -> f32 {
    a.x * b.x + a.y * b.y + a.z * b.z
}

/// `CrossProduct`.
pub(super) fn cross(a: Vec3, b: Vec3) -> Vec3 {
    Vec3::new(
        a.y * b.z - a.z * b.y,
        a.z * b.x - a.x * b.z,
        a.x * b.y - a.y * b.x,
    )
}

/// `VectorMA`: `a + s·b`, per component.
pub(super) fn ma(a: Vec3, s: f32, b: Vec3) -> Vec3 {
    Vec3::new(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z)
}

/// `VectorScale`: `v·s`, per component.
pub(super) fn scale(v: Vec3, s: f32) -> Vec3 {
    Vec3::new(v.x * s, v.y * s, v.z * s)
}

/// `VectorNormalize`: `v` times `1/|v|` (the length's square summed left to right, its root
/// IEEE exact) and the length; a zero vector stays zero.
pub(super) fn normalize(v: Vec3) -> (Vec3, f32) {
    let length = (v.x * v.x + v.y * v.y + v.z * v.z).sqrt();
    if length == 0.0 {
        return (v, length);
    }
    let inverse = 1.0 / length;
    (Vec3::new(v.x * inverse, v.y * inverse, v.z * inverse), length)
}
