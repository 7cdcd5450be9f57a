//! Network snapping: the state quantized at the end of a tick, identically wherever the tick
//! runs, so a client predicting from what the server sent steps from the same numbers
//! (Quake 3 `bg_pmove.c PmoveSingle`'s `trap_SnapVector`; Quake 2 `pmove.c
//! PM_SnapPosition`).
//!
//! Takes the state at the end of a tick and the [`NetworkSnap`] rule of the configuration;
//! gives the quantized state. Guarantees: only IEEE operations on f32 (multiplication by a
//! power of two, truncation, rounding to nearest even), so the same bits on every machine;
//! Quake 2's origin is never moved into solid: its eight roundings are tried in Quake 2's
//! order and the first free one kept, else the origin stays unsnapped (it ended the tick
//! free).

use glam::Vec3;

use super::character::CharacterController;
use super::config::NetworkSnap;
use super::tick::MoveMode;
use super::tracer::Sweeps;

/// Quake 2's grid: an origin or velocity component is a whole number of eighths.
const QUAKE2_GRID: f32 = 8.0;

/// Quake 2's order of the away-from-zero roundings to try (`jitterbits`): bit `i` rounds
/// axis `i` away from zero instead of toward it; z alone first, then x, y, and the rest.
const QUAKE2_JITTER: [u8; 8] = [0, 4, 1, 2, 3, 5, 6, 7];

impl CharacterController {
    /// Quantizes the end-of-tick state as [`ControllerConfig::network_snap`] says.
    ///
    /// [`ControllerConfig::network_snap`]: super::ControllerConfig::network_snap
    pub(crate) fn snap_for_network<T: Sweeps + ?Sized>(&mut self, world: &T) {
        match self.config.network_snap {
            NetworkSnap::None => {}
            NetworkSnap::Quake3Velocity => {
                let v = self.state.velocity;
                self.state.velocity = Vec3::new(
                    v.x.round_ties_even(),
                    v.y.round_ties_even(),
                    v.z.round_ties_even(),
                );
            }
            NetworkSnap::Quake2Grid => {
                self.state.velocity = (self.state.velocity * QUAKE2_GRID).trunc() / QUAKE2_GRID;
                let origin = self.state.position;
                let base = (origin * QUAKE2_GRID).trunc() / QUAKE2_GRID;
                // Away from zero on each axis that was not already on the grid.
                let away = Vec3::select(
                    base.cmpeq(origin),
                    Vec3::ZERO,
                    Vec3::new(1.0, 1.0, 1.0).copysign(origin) / QUAKE2_GRID,
                );
                let offset = self.offset();
                let noclip = self.state.mode == MoveMode::Noclip;
                let free = QUAKE2_JITTER
                    .iter()
                    .map(|bits| {
                        let pick = |axis: u8, v: f32| if bits & (1 << axis) != 0 { v } else { 0.0 };
                        base + Vec3::new(pick(0, away.x), pick(1, away.y), pick(2, away.z))
                    })
                    .find(|p| noclip || !world.overlaps(self.shape(), *p + offset));
                if let Some(p) = free {
                    self.state.position = p;
                }
            }
        }
    }
}
