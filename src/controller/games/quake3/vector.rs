//! Quake 3's vector helpers as `q_math.c` and `q_shared.h` compute them in f32
//! (`DotProduct`, `VectorNormalize`, `VectorLength`, `CrossProduct`), and `PM_ClipVelocity`.
//!
//! Takes and gives f32 vectors. Guarantees: each operation in the game's order (x, y, z
//! left to right), so the results are the game's to the bit; `sqrt` is IEEE exact in f32,
//! as the game's `(float)sqrt(double)` of a float is.

use glam::Vec3;

/// `DotProduct`: `x·x' + y·y' + z·z'`, left to right.
#[inline]
pub(super) fn dot(a: Vec3, b: Vec3) -> f32 {
    a.x * b.x + a.y * b.y + a.z * b.z
}

/// `VectorLength`.
#[inline]
pub(super) fn length(v: Vec3) -> f32 {
    dot(v, v).sqrt()
}

/// `VectorNormalize`: the unit vector and the length (`1/(float)sqrt(len²)`, the length as
/// `len² · ilength`); the zero vector stays zero with length 0.
#[inline]
pub(super) fn normalize(v: Vec3) -> (Vec3, f32) {
    let squared = dot(v, v);
    if squared == 0.0 {
        return (v, 0.0);
    }
    let inverse = 1.0 / squared.sqrt();
    (v * inverse, squared * inverse)
}

/// `CrossProduct`.
#[inline]
pub(super) fn cross(a: Vec3, b: Vec3) -> Vec3 {
    Vec3::new(
        a.y * b.z - a.z * b.y,
        a.z * b.x - a.x * b.z,
        a.x * b.y - a.y * b.x,
    )
}

/// Quake 3's `OVERCLIP` (1.001f): a clipped velocity leaves the plane slightly.
pub(super) const OVERCLIP: f32 = 1.001;

/// `PM_ClipVelocity`: `v − n·(v·n)`, the part into the plane scaled by `overbounce` (times
/// when moving in, divided when moving out).
#[inline]
pub(super) fn clip_velocity(v: Vec3, normal: Vec3, overbounce: f32) -> Vec3 {
    let backoff = dot(v, normal);
    let backoff = if backoff < 0.0 {
        backoff * overbounce
    } else {
        backoff / overbounce
    };
    Vec3::new(
        v.x - normal.x * backoff,
        v.y - normal.y * backoff,
        v.z - normal.z * backoff,
    )
}

/// `VectorMA(a, s, b)`: `a + s·b` per component.
#[inline]
pub(super) fn ma(a: Vec3, s: f32, b: Vec3) -> Vec3 {
    Vec3::new(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z)
}
