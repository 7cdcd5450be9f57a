//! A tick's input as Quake 3's `usercmd_t`, and the view it gives (`PM_UpdateViewAngles`,
//! `AngleVectors`).
//!
//! Takes a [`MoveInput`]: its [`MoveCommand`](crate::MoveCommand) when it has one (view in
//! degrees, moves in [−1, 1]), otherwise its wish seen from yaw 0; gives the command's
//! `angles` (`ANGLE2SHORT`), `forwardmove`, `rightmove` and `upmove` (jump 127, crouch −127,
//! else the up move; a positive up move while walking jumps, as in the game) and the view
//! vectors. Guarantees: the angles go through 16 bits as the game's do; sine and cosine are
//! computed in f64 here (reduction by π/2 in two parts, Taylor series to the 19th power,
//! error far under an f64 ulp) from the f32 angle, then stored in f32, as Quake 3's
//! `AngleVectors` stores its doubles: the same bits on every machine, equal to a correctly
//! rounded C library's but in the rarest near-ties.

use glam::Vec3;

use crate::controller::tick::MoveInput;

/// Quake 3's largest move (`forwardmove` and the others are signed chars, ±127).
const MOVE_MAX: f32 = 127.0;

/// Quake 3's pitch limit in angle shorts (`PM_UpdateViewAngles`: ±16000, just under 90°).
const PITCH_LIMIT: i32 = 16000;

/// A Quake 3 command (`usercmd_t`), the parts movement reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct UserCmd {
    /// Pitch and yaw as `ANGLE2SHORT` gives them (0..65536).
    pub angles: [i32; 2],
    pub forward: i32,
    pub right: i32,
    pub up: i32,
}

/// `round(m × 127)` held to ±127; not finite: 0.
fn to_move(m: f32) -> i32 {
    if !m.is_finite() {
        return 0;
    }
    (m * MOVE_MAX).round().clamp(-MOVE_MAX, MOVE_MAX) as i32
}

/// `ANGLE2SHORT(a) = (int)(a × 65536 / 360) & 65535`, in f32 as the macro computes a float's;
/// not finite: 0.
fn angle_to_short(degrees: f32) -> i32 {
    if !degrees.is_finite() {
        return 0;
    }
    // Saturating `as`: a huge angle is some short, as the game's undefined cast gives one.
    ((degrees * 65536.0 / 360.0) as i64 & 65535) as i32
}

impl UserCmd {
    /// The command the game's client would send for `input`.
    pub(super) fn from_input(input: &MoveInput) -> UserCmd {
        let (angles, forward, right, up) = match input.command {
            Some(c) => (
                [angle_to_short(c.pitch), angle_to_short(c.yaw)],
                to_move(c.forward),
                to_move(c.side),
                to_move(c.up),
            ),
            // A wish without a view: seen from yaw 0, forward is +x and right is −y.
            None => (
                [0, 0],
                to_move(input.wish.x),
                to_move(-input.wish.y),
                to_move(input.wish.z),
            ),
        };
        let up = if input.jump {
            127
        } else if input.crouch {
            -127
        } else {
            up
        };
        UserCmd {
            angles,
            forward,
            right,
            up,
        }
    }

    /// The view angles in degrees, pitch and yaw (`PM_UpdateViewAngles` with no delta
    /// angles: the short, pitch held to ±16000, times 360/65536 in double, stored as f32).
    pub(super) fn view_angles(&self) -> [f32; 2] {
        let to_degrees = |short: i32| (f64::from(short) * (360.0 / 65536.0)) as f32;
        // `short temp = cmd->angles[i]`: 16 bits, signed.
        let pitch = i32::from(self.angles[0] as u16 as i16).clamp(-PITCH_LIMIT, PITCH_LIMIT);
        let yaw = i32::from(self.angles[1] as u16 as i16);
        [to_degrees(pitch), to_degrees(yaw)]
    }
}

/// Quake 3's `AngleVectors` with roll 0: forward `(cp·cy, cp·sy, −sp)`, right `(sy, −cy, 0)`
/// (the game's `−1·sr·sp·cy + −1·cr·−sy` with sr 0, cr 1), up `(sp·cy, sp·sy, cp)`.
pub(super) fn angle_vectors([pitch, yaw]: [f32; 2]) -> (Vec3, Vec3, Vec3) {
    let (sy, cy) = sin_cos_of_degrees(yaw);
    let (sp, cp) = sin_cos_of_degrees(pitch);
    let forward = Vec3::new(cp * cy, cp * sy, -sp);
    // −1·0·sp·cy is −0 or +0 by the signs; added to sy it is sy.
    let right = Vec3::new(-0.0 * sp * cy + sy, -0.0 * sp * sy + -cy, -0.0 * cp);
    let up = Vec3::new(sp * cy, sp * sy, cp);
    (forward, right, up)
}

/// `angle = degrees × (2π/360)` in double stored as float, then `(float)sin(angle)` and
/// `(float)cos(angle)` (Quake 3 `AngleVectors`).
fn sin_cos_of_degrees(degrees: f32) -> (f32, f32) {
    // A level view (pitch 0, most commands): `sin_cos(+0)` reduces nothing (k = 0, r = +0)
    // and gives exactly (+0, 1).
    if degrees.to_bits() == 0 {
        return (0.0, 1.0);
    }
    let angle = (f64::from(degrees) * (std::f64::consts::PI * 2.0 / 360.0)) as f32;
    let (s, c) = sin_cos(f64::from(angle));
    (s as f32, c as f32)
}

/// π/2 in two parts (fdlibm's `pio2_1`, 33 bits, and `pio2_1t`): `k·PIO2_HI` is exact for
/// the small `k` an angle of a few turns needs.
const PIO2_HI: f64 = 1.570_796_326_734_125_6;
const PIO2_LO: f64 = 6.077_100_506_506_192e-11;

/// The Taylor series' nesting factors, n = 1..=9: `1/((2n)(2n + 1))` for the sine,
/// `1/((2n − 1)(2n))` for the cosine. Divisions of exact small integers made once at compile
/// time: IEEE division, the same bits as the division at run time.
const SIN_STEPS: [f64; 9] = steps(false);
const COS_STEPS: [f64; 9] = steps(true);

/// The sine's (`cosine` false) or the cosine's nesting factors.
const fn steps(cosine: bool) -> [f64; 9] {
    let mut out = [0.0; 9];
    let mut i = 0;
    while i < 9 {
        let n = (i + 1) as f64;
        out[i] = if cosine {
            1.0 / ((2.0 * n - 1.0) * (2.0 * n))
        } else {
            1.0 / ((2.0 * n) * (2.0 * n + 1.0))
        };
        i += 1;
    }
    out
}

/// Sine and cosine of `x` radians (|x| up to a few turns), in f64 with additions and
/// multiplications only.
fn sin_cos(x: f64) -> (f64, f64) {
    let k = (x * std::f64::consts::FRAC_2_PI).round();
    let r = (x - k * PIO2_HI) - k * PIO2_LO;
    let r2 = r * r;
    // Taylor series to r¹⁹ and r¹⁸ (|r| ≤ π/4: the next terms are below 1e-21), nested
    // from the highest term.
    let mut sin = 0.0;
    let mut cos = 0.0;
    for (s, c) in SIN_STEPS.iter().zip(&COS_STEPS).rev() {
        sin = s * (1.0 - r2 * sin);
        cos = c * (1.0 - r2 * cos);
    }
    let sin = r * (1.0 - r2 * sin);
    let cos = 1.0 - r2 * cos;
    match (k as i64).rem_euclid(4) {
        0 => (sin, cos),
        1 => (cos, -sin),
        2 => (-sin, -cos),
        _ => (-cos, sin),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MoveCommand;

    #[test]
    fn sine_and_cosine_round_to_the_platforms_f32() {
        let mut differ = 0;
        for tenth in -3600..=3600 {
            let degrees = tenth as f32 * 0.05;
            let angle = (f64::from(degrees) * (std::f64::consts::PI * 2.0 / 360.0)) as f32;
            let (s, c) = sin_cos_of_degrees(degrees);
            let (rs, rc) = f64::from(angle).sin_cos();
            if s != rs as f32 || c != rc as f32 {
                differ += 1;
            }
        }
        assert_eq!(differ, 0);
    }

    /// The compile-time nesting factors are the run-time divisions, and a level view's
    /// shortcut is what the series gives for +0.
    #[test]
    fn the_series_constants_and_the_level_view_are_the_computed_ones() {
        for n in 1..=9u8 {
            let (i, m) = (usize::from(n - 1), f64::from(n));
            let sin = std::hint::black_box(2.0 * m) * (2.0 * m + 1.0);
            let cos = std::hint::black_box(2.0 * m - 1.0) * (2.0 * m);
            assert_eq!(SIN_STEPS[i].to_bits(), (1.0 / sin).to_bits());
            assert_eq!(COS_STEPS[i].to_bits(), (1.0 / cos).to_bits());
        }
        let (s, c) = sin_cos(0.0);
        assert_eq!(((s as f32).to_bits(), (c as f32).to_bits()), (0, 1.0f32.to_bits()));
        let (s, c) = sin_cos_of_degrees(0.0);
        assert_eq!((s.to_bits(), c.to_bits()), (0, 1.0f32.to_bits()));
    }

    #[test]
    fn commands_go_through_the_games_integers() {
        let input = MoveInput {
            jump: true,
            ..MoveInput::from_command(MoveCommand {
                pitch: -10.0,
                yaw: 270.0,
                forward: 1.0,
                side: -0.5,
                up: 0.0,
            })
        };
        let cmd = UserCmd::from_input(&input);
        assert_eq!(cmd.forward, 127);
        assert_eq!(cmd.right, -64);
        assert_eq!(cmd.up, 127);
        assert_eq!(cmd.angles, [65536 - 1820, 49152]);
        let [pitch, yaw] = cmd.view_angles();
        assert_eq!(yaw, -90.0);
        assert!((pitch + 10.0).abs() < 0.01, "{pitch}");
        let (f, r, _) = angle_vectors([0.0, 90.0]);
        assert_eq!((f.x.abs() < 1e-7, f.y, r.x), (true, 1.0, 1.0));
    }
}
