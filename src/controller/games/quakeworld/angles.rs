//! QuakeWorld's view vectors (`mathlib.c AngleVectors`) as the game computes them: each
//! angle in degrees is turned to radians in double and stored as a float, its sine and
//! cosine are taken in double and stored as floats.
//!
//! Takes the command's pitch and yaw (already cut to 16 bits, `usercmd.rs`); gives forward
//! and right (roll 0). Guarantees: no platform `sin`/`cos`: [`sin_cos`] reduces by π/2 in
//! two parts and sums Taylor series far past double's precision, so its f32 result is the
//! correctly rounded one but for angles within about 1e-16 of a rounding tie (never met by
//! the 16-bit angles a command carries), and the same on every machine.

use glam::Vec3;

/// π/2 split in two doubles (Cody and Waite): the high part is double's nearest π/2, the
/// low part the rest, so `x − k·HI − k·LO` keeps the reduced angle to about 1e-17 for the
/// few quarter turns a view angle has.
const HALF_PI_HIGH: f64 = std::f64::consts::FRAC_PI_2;
/// The part of π/2 below [`HALF_PI_HIGH`].
const HALF_PI_LOW: f64 = 6.123_233_995_736_766e-17;

/// Sine and cosine of `x` radians in double, to about 1e-17 for `|x|` up to a few turns:
/// reduced to `|r| ≤ π/4` and summed to the `r¹⁹` and `r¹⁸` terms (the next is below
/// 1e-19 there).
pub(super) fn sin_cos(x: f64) -> (f64, f64) {
    let quadrant = (x / HALF_PI_HIGH).round();
    let r = (x - quadrant * HALF_PI_HIGH) - quadrant * HALF_PI_LOW;
    let r2 = r * r;
    // Horner from the highest term: sin r = r (1 − r²/(2·3) (1 − r²/(4·5) (...))).
    let mut sin = 1.0;
    let mut cos = 1.0;
    for k in (1..=9).rev() {
        let k = f64::from(k);
        sin = 1.0 - r2 / ((2.0 * k) * (2.0 * k + 1.0)) * sin;
        cos = 1.0 - r2 / ((2.0 * k - 1.0) * (2.0 * k)) * cos;
    }
    let sin = r * sin;
    // `quadrant` is a small whole number: the cast is exact.
    match (quadrant as i64).rem_euclid(4) {
        0 => (sin, cos),
        1 => (cos, -sin),
        2 => (-sin, -cos),
        _ => (-cos, sin),
    }
}

/// One angle's sine and cosine as `AngleVectors` stores them: `angle = degrees · (π·2/360)`
/// in double stored as a float, then `sin`/`cos` of it in double stored as floats.
fn angle_sin_cos(degrees: f32) -> (f32, f32) {
    let radians = (f64::from(degrees) * (std::f64::consts::PI * 2.0 / 360.0)) as f32;
    let (s, c) = sin_cos(f64::from(radians));
    (s as f32, c as f32)
}

/// Forward and right of `pitch` and `yaw` degrees with no roll, as `AngleVectors` computes
/// them.
pub(super) fn angle_vectors(pitch: f32, yaw: f32) -> (Vec3, Vec3) {
    let (sy, cy) = angle_sin_cos(yaw);
    let (sp, cp) = angle_sin_cos(pitch);
    let forward = Vec3::new(cp * cy, cp * sy, -sp);
    // `right = (−sr·sp·cy + −cr·−sy, −sr·sp·sy + −cr·cy, −sr·cp)` with roll 0 (`sr` 0, `cr`
    // 1): the roll terms are zeros added, so each component is exactly this.
    let right = Vec3::new(sy, -cy, 0.0);
    (forward, right)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sine_and_cosine_match_the_platform_to_double_precision() {
        let mut worst = 0.0f64;
        let mut differ = 0;
        for step in -40_000..=40_000 {
            let x = f64::from(step) * 1.7e-4;
            let (s, c) = sin_cos(x);
            worst = worst.max((s - x.sin()).abs()).max((c - x.cos()).abs());
            differ += usize::from((s as f32) != (x.sin() as f32));
            differ += usize::from((c as f32) != (x.cos() as f32));
        }
        assert!(worst < 4e-16, "worst error {worst}");
        assert_eq!(differ, 0, "f32 results that differ from the platform's");
    }

    #[test]
    fn the_view_vectors_follow_quake_angles() {
        let (forward, right) = angle_vectors(0.0, 90.0);
        assert!((forward - Vec3::Y).length() < 1e-7, "{forward}");
        assert!((right - Vec3::X).length() < 1e-7, "{right}");
        let (down, _) = angle_vectors(90.0, 0.0);
        assert!((down + Vec3::Z).length() < 1e-7, "{down}");
    }
}
