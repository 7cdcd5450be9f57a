//! A player's command as Quake 3 sends it: view angles and forward/side/up moves, turned
//! into the tick's wish once the tick knows how the character moves.
//!
//! Takes a [`MoveCommand`] (pitch and yaw in degrees, Quake's convention: pitch positive
//! looks down, yaw 0 along +x and counter-clockwise seen from above; moves in [−1, 1]);
//! gives the view vectors (Quake 3 `AngleVectors` with no roll) and two wishes, scaled as
//! Quake 3's `PM_CmdScale` scales them so a diagonal move is no faster than a straight one:
//! the walking wish (`PM_WalkMove`, `PM_AirMove`: forward and right flattened and
//! renormalized, the up move left to the jump and crouch keys) and the whole-view wish
//! (`PM_WaterMove`, `PM_FlyMove`, noclip and ladders: look up to swim up, plus the up move
//! along world z).
//!
//! Guarantees: the walking wish depends on the yaw and the moves only, never on the pitch,
//! so pitch never changes ground speed, to the bit; non-finite angles or moves give no wish;
//! the sine and cosine are computed here with additions and multiplications only (no
//! platform `sin`/`cos`, whose last bit differs between C libraries), so a command gives the
//! same wish on every machine.

use glam::Vec3;

/// A player's command for one tick: where the view looks and which move keys are held.
///
/// The jump and crouch buttons stay on [`MoveInput`](crate::controller::MoveInput)
/// (`jump`, `crouch`); put the command in [`MoveInput::command`](crate::controller::MoveInput::command)
/// (or build the input with [`MoveInput::from_command`](crate::controller::MoveInput::from_command)).
///
/// # Examples
/// ```
/// use glam::Vec3;
/// use planeshift::MoveCommand;
/// // Looking 60° down while running forward: the view points down, the run does not.
/// let run = MoveCommand { pitch: 60.0, yaw: 90.0, forward: 1.0, ..MoveCommand::default() };
/// let (forward, _right, _up) = run.view_vectors();
/// assert!(forward.z < -0.8);
/// assert_eq!(run.walk_wish(), Vec3::new(0.0, 1.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveCommand {
    /// Degrees below the horizon (Quake's pitch: positive looks down, −90 straight up).
    pub pitch: f32,
    /// Degrees counter-clockwise from +x seen from above (Quake's yaw).
    pub yaw: f32,
    /// Forward (+) or back (−) along the view, in [−1, 1] (Quake 3 `forwardmove` / 127).
    pub forward: f32,
    /// Right (+) or left (−), in [−1, 1] (Quake 3 `rightmove` / 127).
    pub side: f32,
    /// Up (+) or down (−) along world z, in [−1, 1] (Quake 3 `upmove` / 127); used where the
    /// character swims, flies or climbs; walking takes jump and crouch from the buttons.
    pub up: f32,
}

impl MoveCommand {
    /// Whether every angle and move is finite and every move is in [−1, 1].
    #[must_use]
    pub fn is_valid(&self) -> bool {
        let in_range = |m: f32| (-1.0..=1.0).contains(&m);
        self.pitch.is_finite()
            && self.yaw.is_finite()
            && in_range(self.forward)
            && in_range(self.side)
            && in_range(self.up)
    }

    /// The view's forward, right and up vectors (Quake 3 `AngleVectors` with no roll):
    /// forward `(cos p cos y, cos p sin y, −sin p)`, right `(sin y, −cos y, 0)`, up
    /// `(sin p cos y, sin p sin y, cos p)`. Zero vectors when an angle is not finite.
    #[must_use]
    pub fn view_vectors(&self) -> (Vec3, Vec3, Vec3) {
        if !(self.pitch.is_finite() && self.yaw.is_finite()) {
            return (Vec3::ZERO, Vec3::ZERO, Vec3::ZERO);
        }
        let (sp, cp) = sin_cos_degrees(self.pitch);
        let (sy, cy) = sin_cos_degrees(self.yaw);
        (
            Vec3::new(cp * cy, cp * sy, -sp),
            Vec3::new(sy, -cy, 0.0),
            Vec3::new(sp * cy, sp * sy, cp),
        )
    }

    /// The wish of walking and of the air (`PM_WalkMove`, `PM_AirMove`): forward and right
    /// flattened onto the horizontal and renormalized (computed from the yaw alone, which
    /// is what flattening and renormalizing give, without the rounding of a short vector
    /// looking nearly straight up or down), times the moves, times `PM_CmdScale`'s
    /// `max(|f|, |s|) / √(f² + s²)`. At most 1 long; zero when not valid.
    #[must_use]
    pub fn walk_wish(&self) -> Vec3 {
        if !self.is_valid() {
            return Vec3::ZERO;
        }
        let (sy, cy) = sin_cos_degrees(self.yaw);
        let forward = Vec3::new(cy, sy, 0.0);
        let right = Vec3::new(sy, -cy, 0.0);
        let scale = cmd_scale(self.forward, self.side, 0.0);
        (forward * self.forward + right * self.side) * scale
    }

    /// The wish along the whole view (`PM_WaterMove`, `PM_FlyMove`, noclip, ladders):
    /// `forward·f + right·s + z·u`, times `PM_CmdScale`'s `max(|f|, |s|, |u|) / √(f² + s² + u²)`.
    /// Zero when not valid.
    #[must_use]
    pub fn view_wish(&self) -> Vec3 {
        if !self.is_valid() {
            return Vec3::ZERO;
        }
        let (forward, right, _) = self.view_vectors();
        let scale = cmd_scale(self.forward, self.side, self.up);
        (forward * self.forward + right * self.side + Vec3::Z * self.up) * scale
    }
}

/// Quake 3 `PM_CmdScale` over moves in [−1, 1] instead of ±127, without the speed (the
/// controller multiplies by its own): the largest move over the moves' length, 0 without
/// a move.
fn cmd_scale(forward: f32, side: f32, up: f32) -> f32 {
    let max = forward.abs().max(side.abs()).max(up.abs());
    if max == 0.0 {
        return 0.0;
    }
    let total = (forward * forward + side * side + up * up).sqrt();
    max / total
}

/// Sine and cosine of an angle in degrees, the same bits on every machine: the angle is
/// reduced exactly to the nearest multiple of 90° (`%` and a subtraction of a multiple of
/// 90 are exact in f32 for these magnitudes, and a remainder is exact in IEEE 754 for any),
/// the rest (at most 45°) goes through Taylor polynomials to the x⁹ and x⁸ terms (error
/// below 2e-9 at 45°, far under f32's half ulp), and the quadrant swaps and negates. Whole
/// multiples of 90° give exact 0 and ±1.
pub(crate) fn sin_cos_degrees(degrees: f32) -> (f32, f32) {
    let turn = degrees % 360.0;
    let quadrant = (turn / 90.0).round();
    let rest = turn - quadrant * 90.0;
    let x = rest * (std::f32::consts::PI / 180.0);
    let x2 = x * x;
    let sin = x * (1.0 - x2 / 6.0 * (1.0 - x2 / 20.0 * (1.0 - x2 / 42.0 * (1.0 - x2 / 72.0))));
    let cos = 1.0 - x2 / 2.0 * (1.0 - x2 / 12.0 * (1.0 - x2 / 30.0 * (1.0 - x2 / 56.0)));
    // `quadrant` is in −4..=4 (turn is within ±360).
    match (quadrant as i32).rem_euclid(4) {
        // `0.0 - v` rather than `-v`: no negative zero at whole quarter turns.
        0 => (sin, cos),
        1 => (cos, 0.0 - sin),
        2 => (0.0 - sin, 0.0 - cos),
        _ => (0.0 - cos, sin),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sine_and_cosine_match_the_platform_within_an_ulp_or_two() {
        let mut worst = 0.0f64;
        for tenth in -7200..=7200 {
            let degrees = tenth as f32 * 0.1;
            let (s, c) = sin_cos_degrees(degrees);
            let (rs, rc) = f64::from(degrees).to_radians().sin_cos();
            worst = worst
                .max((f64::from(s) - rs).abs())
                .max((f64::from(c) - rc).abs());
        }
        assert!(worst < 3e-7, "worst error {worst}");
        for quarter in -8..=8 {
            let (s, c) = sin_cos_degrees(quarter as f32 * 90.0);
            assert!(s.abs() == 0.0 || s.abs() == 1.0, "{quarter}: {s}");
            assert!(c.abs() == 0.0 || c.abs() == 1.0, "{quarter}: {c}");
            assert_eq!(s.abs() + c.abs(), 1.0);
        }
    }

    #[test]
    fn a_diagonal_move_is_no_faster_than_a_straight_one() {
        let straight = MoveCommand {
            forward: 1.0,
            ..MoveCommand::default()
        };
        let diagonal = MoveCommand {
            forward: 1.0,
            side: 1.0,
            yaw: 30.0,
            ..MoveCommand::default()
        };
        assert_eq!(straight.walk_wish(), Vec3::X);
        assert!((diagonal.walk_wish().length() - 1.0).abs() < 1e-6);
        let swim = MoveCommand {
            forward: 1.0,
            side: 1.0,
            up: 1.0,
            ..MoveCommand::default()
        };
        assert!((swim.view_wish().length() - 1.0).abs() < 1e-6);
        let half = MoveCommand {
            forward: 0.5,
            ..MoveCommand::default()
        };
        assert_eq!(half.walk_wish(), Vec3::X * 0.5);
    }

    #[test]
    fn the_view_follows_quake_angles() {
        let (f, r, u) = MoveCommand {
            yaw: 90.0,
            ..MoveCommand::default()
        }
        .view_vectors();
        assert_eq!((f, r, u), (Vec3::Y, Vec3::X, Vec3::Z));
        let (f, _, _) = MoveCommand {
            pitch: 90.0,
            ..MoveCommand::default()
        }
        .view_vectors();
        assert_eq!(f, -Vec3::Z);
        let bad = MoveCommand {
            forward: 1.5,
            ..MoveCommand::default()
        };
        assert_eq!(bad.walk_wish(), Vec3::ZERO);
    }
}
