//! Stepping: when a slide is blocked, try the same move from `step_height` higher and come
//! back down (Quake 1 `SV_WalkMove`, Source `StepMove`, Quake 3 `PM_StepSlideMove`).
//!
//! Takes the slide of this tick and its result; gives the result to keep. Guarantees:
//! - the climb is limited by the ceiling: the raise is what an upward sweep allows;
//! - a step is kept only if it lands on walkable ground, leaves at least the minimum tread
//!   ahead, and goes farther horizontally than the plain slide (Source), so steep tops,
//!   narrow ledges and walls are not climbed and sliding along a wall gains no speed;
//! - stepping needs ground: walkable ground under the feet, or within `step_height` below
//!   them, so a jump rising into a ledge does not step; with `falling_steps` a character
//!   that is not rising steps anyway (Quake 3's rule).

use glam::Vec3;

use super::slide::{Slide, SlideResult, clip_velocity};
use super::tick::TouchList;
use super::tracer::Sweeps;
use crate::tolerance::{SNAP_MIN_CHANGE, STEP_MIN_GAIN};

/// The parameters of one step attempt.
pub(crate) struct StepRules {
    pub step_height: f32,
    pub walkable_normal_z: f32,
    /// Smallest free run ahead at the raised height, in units.
    pub min_tread: f32,
    /// The character stood on walkable ground when the move began.
    pub grounded: bool,
    /// Step in the air whenever not rising, ground below or not (Quake 3
    /// `PM_StepSlideMove` refuses only while `velocity[2] > 0`).
    pub falling_steps: bool,
}

/// The outcome of a step-slide move.
pub(crate) struct StepResult {
    pub slide: SlideResult,
    /// Height gained by stepping up (0 when the plain slide was kept).
    pub climbed: f32,
}

/// Slides from `start`, then tries to step over what blocked the slide.
pub(crate) fn step_slide<T: Sweeps + ?Sized>(
    slide: &Slide<'_, T>,
    rules: &StepRules,
    start: Vec3,
    velocity: Vec3,
    dt: f32,
    touches: &mut TouchList,
) -> StepResult {
    let plain = slide.run(start, velocity, dt, touches);
    let keep_plain = StepResult {
        slide: plain,
        climbed: 0.0,
    };
    if !plain.blocked || rules.step_height <= 0.0 {
        return keep_plain;
    }
    let (world, shape) = (slide.world, slide.shape);
    let falling_step = rules.falling_steps && velocity.z <= 0.0;
    if !rules.grounded && !falling_step {
        // In the air, step only with walkable ground within a step below (Quake 3).
        let below = world.trace(shape, start, start - Vec3::Z * rules.step_height);
        let ground_near = below.hit()
            && !below.all_solid
            && below.normal.is_some_and(|n| n.z >= rules.walkable_normal_z);
        if !ground_near {
            return keep_plain;
        }
    }
    // Up, as far as the ceiling allows.
    let up = world.trace(shape, start, start + Vec3::Z * rules.step_height);
    if up.start_solid || up.all_solid {
        return keep_plain;
    }
    let raised = up.end.z - start.z;
    if raised <= SNAP_MIN_CHANGE {
        return keep_plain;
    }
    let touched_before_step = touches.len();
    let across = slide.run(up.end, velocity, dt, touches);
    // Down by the height gained, onto walkable ground.
    let down = world.trace(shape, across.position, across.position - Vec3::Z * raised);
    let landing = down.normal.filter(|n| n.z >= rules.walkable_normal_z);
    let horizontal = |p: Vec3| (p - start).truncate().length();
    let gain = horizontal(down.end) - horizontal(plain.position);
    // Quake 3 in the air keeps any raised move that got farther, landed or not, so a
    // character falling against a lip inches over it and then lands on it.
    let quake3_air = falling_step && !rules.grounded && !down.all_solid && gain > 0.0;
    let Some(landing) = landing.filter(|_| down.hit() && !down.all_solid) else {
        if quake3_air {
            return StepResult {
                slide: SlideResult {
                    position: down.end,
                    velocity: across.velocity,
                    blocked: across.blocked,
                    walls: across.walls,
                },
                climbed: (down.end.z - start.z).max(0.0),
            };
        }
        touches.truncate(touched_before_step);
        return keep_plain;
    };
    let climbed = down.end.z - start.z;
    if gain <= STEP_MIN_GAIN && !quake3_air {
        touches.truncate(touched_before_step);
        return keep_plain;
    }
    if climbed > SNAP_MIN_CHANGE && !tread_is_wide_enough(slide, rules, up.end, velocity) {
        touches.truncate(touched_before_step);
        return keep_plain;
    }
    // The raised slide's velocity, turned onto the landing plane if it enters it.
    let mut velocity = across.velocity;
    if velocity.dot(landing) < 0.0 {
        velocity = clip_velocity(velocity, landing);
    }
    StepResult {
        slide: SlideResult {
            position: down.end,
            velocity,
            blocked: across.blocked,
            walls: across.walls,
        },
        climbed,
    }
}

/// Whether the raised shape has at least the minimum tread free ahead (Rapier's
/// `min_width`): a riser topped by a ledge narrower than that is a wall, not a stair.
fn tread_is_wide_enough<T: Sweeps + ?Sized>(
    slide: &Slide<'_, T>,
    rules: &StepRules,
    raised: Vec3,
    velocity: Vec3,
) -> bool {
    let Some(ahead) = velocity.truncate().try_normalize() else {
        return true;
    };
    let probe = ahead.extend(0.0) * rules.min_tread;
    let trace = slide.world.trace(slide.shape, raised, raised + probe);
    !trace.hit()
}
