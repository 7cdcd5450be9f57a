//! The pointfile (`.pts`): a leak's trail as text that editors and engines load.
//!
//! Takes the trail's points, gives one line `x y z` per point, in map units, from the leaking
//! entity to the void. Guarantees: every number is finite and written in plain decimal (no
//! exponent), so TrenchBroom's `PointTrace.cpp` (which reads every triple of numbers and
//! needs at least two distinct points), Quake's `pointfile` command and ericw-tools' readers
//! all take it. Only the polyline's corners are written, as ericw-tools does without
//! `-leakdist`: TrenchBroom resamples the line every 64 units itself; id's qbsp wrote a point
//! every 2 units, for Quake's particle trail.

use std::fmt::Write;

use glam::DVec3;

/// The largest f32, as f64.
const F32_MAX: f64 = f32::MAX as f64;

/// The pointfile text of `points` (see the module doc). Coordinates are rounded to f32,
/// whose shortest decimal form is what editors keep.
pub(crate) fn text(points: &[DVec3]) -> String {
    let mut out = String::with_capacity(points.len() * 24);
    for p in points {
        // f32's range keeps an entity written at 1e300 finite.
        let p = p.clamp(DVec3::splat(-F32_MAX), DVec3::splat(F32_MAX)).as_vec3();
        // Writing into a String cannot fail.
        let _ = writeln!(out, "{} {} {}", p.x + 0.0, p.y + 0.0, p.z + 0.0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_plain_line_per_point() {
        let text = text(&[DVec3::new(-0.0, 1.5, 1e9), DVec3::new(2.25, -3.0, 0.1)]);
        assert_eq!(text, "0 1.5 1000000000\n2.25 -3 0.1\n");
    }
}
