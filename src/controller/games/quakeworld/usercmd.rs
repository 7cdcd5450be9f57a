//! A planeshift command as QuakeWorld's client would have sent it: the `usercmd_t` the
//! server's `SV_RunCmd` runs.
//!
//! Takes a [`MoveCommand`] (pitch and yaw in degrees, moves in [−1, 1]), the jump and
//! crouch keys and the command's milliseconds; gives [`UserCmd`]. The conversion is the
//! client's (`cl_input.c CL_BaseMove`, `CL_FinishMove`, `MakeChar`) and the wire's
//! (`MSG_WriteAngle16`/`MSG_ReadAngle16`): the pitch clamped to [−70, 80], both angles cut
//! to 1/65536 of a turn and read back signed; the moves at the "always run" speeds
//! (forward 400, side 350, up 200), truncated, rounded down to a multiple of 4 and clamped
//! to ±508; jump is button 2; crouch holds `+movedown` (QuakeWorld has no crouching: it
//! swims down). Guarantees: any input gives a command (a move that is not finite counts
//! as none, an angle that is not finite as 0), and the same bits on every machine.

use crate::controller::MoveCommand;

/// `cl_forwardspeed` (and `cl_backspeed`) with "always run": units a second of a full
/// forward key.
const FORWARD_SPEED: f32 = 400.0;
/// `cl_sidespeed` with "always run".
const SIDE_SPEED: f32 = 350.0;
/// `cl_upspeed`.
const UP_SPEED: f32 = 200.0;
/// `MakeChar`'s bound, 127 × 4: the protocol sends a move as a byte of quarters.
const MOVE_LIMIT: i32 = 127 * 4;
/// The client's pitch bounds in degrees (`cl_input.c CL_AdjustAngles`): up, down.
const PITCH_UP_LIMIT: f32 = -70.0;
/// See [`PITCH_UP_LIMIT`].
const PITCH_DOWN_LIMIT: f32 = 80.0;
/// `BUTTON_JUMP` (`pmove.c`): `usercmd_t.buttons` bit 2.
pub(super) const BUTTON_JUMP: u8 = 2;

/// QuakeWorld's `usercmd_t` as the server reads it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct UserCmd {
    /// Milliseconds the command lasts.
    pub msec: u8,
    /// Pitch and yaw in degrees, each a multiple of 360/65536 in [−180, 180).
    pub angles: [f32; 2],
    /// `forwardmove`, a multiple of 4 in ±508.
    pub forward_move: i16,
    /// `sidemove` (+ right), a multiple of 4 in ±508.
    pub side_move: i16,
    /// `upmove`, a multiple of 4 in ±508.
    pub up_move: i16,
    /// `buttons`: `BUTTON_JUMP` (2) when jump is held.
    pub buttons: u8,
}

impl UserCmd {
    /// The command the client sends for `command`, `jump`, `crouch`, lasting `msec`.
    #[must_use]
    pub fn from_command(command: &MoveCommand, jump: bool, crouch: bool, msec: u8) -> UserCmd {
        let pitch = finite_or_zero(command.pitch).clamp(PITCH_UP_LIMIT, PITCH_DOWN_LIMIT);
        let up = key_move(command.up, UP_SPEED) - if crouch { UP_SPEED as i32 } else { 0 };
        UserCmd {
            msec,
            angles: [wire_angle(pitch), wire_angle(finite_or_zero(command.yaw))],
            forward_move: make_char(key_move(command.forward, FORWARD_SPEED)),
            side_move: make_char(key_move(command.side, SIDE_SPEED)),
            up_move: make_char(up),
            buttons: if jump { BUTTON_JUMP } else { 0 },
        }
    }
}

fn finite_or_zero(v: f32) -> f32 {
    if v.is_finite() { v } else { 0.0 }
}

/// A move in [−1, 1] times its key speed, truncated as the client's float-to-short
/// assignment truncates; 0 when not finite.
fn key_move(m: f32, speed: f32) -> i32 {
    // A saturating cast: anything out of range is clamped by `make_char` after.
    (finite_or_zero(m).clamp(-1.0, 1.0) * speed) as i32
}

/// `cl_input.c MakeChar`: rounded down to a multiple of 4, clamped to ±[`MOVE_LIMIT`].
fn make_char(i: i32) -> i16 {
    // In ±508 after the clamp: the cast is exact.
    (i & !3).clamp(-MOVE_LIMIT, MOVE_LIMIT) as i16
}

/// An angle as the server reads it back: `CL_FinishMove` cuts it to 1/65536 of a turn
/// (`(int)(a·65536.0/360) & 65535`, in double), the wire carries 16 bits, and
/// `MSG_ReadAngle16` reads them as a signed short times 360/65536.
fn wire_angle(degrees: f32) -> f32 {
    let turns = (f64::from(degrees) * 65536.0 / 360.0) as i64;
    // The low 16 bits, read as a signed short: the cast wraps as the wire does.
    let short = (turns & 0xFFFF) as u16 as i16;
    // |short| ≤ 32768 and 360/65536 is a power-of-two fraction of 45: exact in f32.
    (f64::from(short) * (360.0 / 65536.0)) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_angles_become_the_clients_command() {
        let command = MoveCommand {
            pitch: 85.0,
            yaw: 270.0,
            forward: 1.0,
            side: -1.0,
            up: 0.0,
        };
        let cmd = UserCmd::from_command(&command, true, false, 8);
        assert_eq!(cmd.forward_move, 400);
        assert_eq!(cmd.side_move, -352);
        assert_eq!(cmd.up_move, 0);
        assert_eq!(cmd.buttons, BUTTON_JUMP);
        assert_eq!(cmd.angles, [(14563.0f64 * 360.0 / 65536.0) as f32, -90.0]);
        let right = UserCmd::from_command(
            &MoveCommand {
                side: 1.0,
                ..MoveCommand::default()
            },
            false,
            true,
            8,
        );
        assert_eq!((right.side_move, right.up_move, right.buttons), (348, -200, 0));
    }
}
