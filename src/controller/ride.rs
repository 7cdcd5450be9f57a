//! Riding and being pushed by movers: what happens to a character when a platform, door or
//! train it stands on or stands in the way of moves (Quake 3 `g_mover.c G_MoverPush` and
//! `G_TryPushingEntity`, for one character; `crowd.rs` pushes a whole crowd).
//!
//! Takes the world with the mover at its new placement, the mover's old and new placements
//! and its pivot; gives a [`Ride`]: not involved, carried, pushed, or blocked. Guarantees: a
//! carried or pushed character is moved by a sweep (walls and other characters stop it)
//! and ends free of every solid, the mover included; when no free spot is in reach on the
//! side the mover pushes toward, the answer is [`Ride::Blocked`] and the state is exactly
//! what it was before the call, so a character is never left inside a mover silently.

use glam::Vec3;

use super::character::CharacterController;
use super::ground::GroundState;
use super::movers::carried_point;
use super::tracer::{ShapeQuery, Sweeps, Tick, Tracer, WorldPart};
use crate::trace::{HitTarget, ModelPlacement};

/// What a mover's move did to a character (Quake 3 `G_MoverPush`'s outcomes, for one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ride {
    /// Neither standing on the mover nor overlapped by its new placement (whatever else it
    /// touches: a wall, another mover, another character): nothing changed.
    NotInvolved,
    /// Standing on the mover: carried with it (translation and rotation about its pivot).
    Carried,
    /// Overlapped by the mover's new placement: pushed by the mover's move, out of it.
    Pushed,
    /// No free spot in reach on the side the mover pushes toward (a wall, a ceiling or
    /// another character in the way): the state is exactly as before the call, free of the
    /// mover's previous placement. The game does what Quake 3 does: puts the mover back
    /// (with every character it moved this frame) and runs its blocked handler, or keeps a
    /// crusher moving and kills the character.
    Blocked,
}

impl CharacterController {
    /// Carries the character with model `model` as it moves from `before` to `after`
    /// (rotating about `pivot`, the model's origin), if the character stands on it, or
    /// pushes it by the same move if the model's new placement overlaps it. Call it after
    /// moving the mover and before [`Self::step`], with `world` holding the mover at
    /// `after`.
    ///
    /// The move is a sweep, so walls and other characters stop it; if the mover then still
    /// overlaps the character, the nearest free spot on the side the mover moves toward is
    /// taken (the unstuck table), and if there is none the answer is [`Ride::Blocked`] with
    /// the state unchanged.
    ///
    /// # Examples
    /// ```
    /// use glam::Vec3;
    /// use planeshift::ModelPlacement;
    /// use planeshift::{CharacterController, ControllerConfig, MoveInput, movement::{Mover, Ride, WorldWithMovers}};
    /// let map = planeshift::compile_map(&std::fs::read("maps/crusher.map")?)?.map;
    /// let lift = map.find_entities("func_plat").find_map(|e| e.model()).unwrap();
    /// let pivot = map.models()[lift].origin;
    /// // Standing on the lift's top (z 16) under a ceiling 104 above it.
    /// let mut player = CharacterController::new(ControllerConfig::default(), Vec3::new(0.0, 0.0, 40.0 + 1.0 / 32.0))?;
    /// let at = |z: f32| ModelPlacement { offset: Vec3::Z * z, ..ModelPlacement::default() };
    /// let movers = [Mover { model: lift, placement: at(0.0) }];
    /// player.step(&WorldWithMovers { map: &map, movers: &movers }, &MoveInput::default());
    /// let mut rides = Vec::new();
    /// for k in 1..=6 {
    ///     let movers = [Mover { model: lift, placement: at(10.0 * k as f32) }];
    ///     let world = WorldWithMovers { map: &map, movers: &movers };
    ///     rides.push(player.ride(&world, lift, pivot, &at(10.0 * (k - 1) as f32), &at(10.0 * k as f32)));
    /// #   if rides.last() == Some(&Ride::Blocked) { break; }
    /// }
    /// // 104 units of headroom: four rises of 10 fit, the fifth leaves 54 < 56.
    /// assert_eq!(rides, [Ride::Carried, Ride::Carried, Ride::Carried, Ride::Carried, Ride::Blocked]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn ride<T: Tracer + ?Sized>(
        &mut self,
        world: &T,
        model: usize,
        pivot: Vec3,
        before: &ModelPlacement,
        after: &ModelPlacement,
    ) -> Ride {
        self.ride_as(world, model, pivot, before, after, false)
    }

    /// [`Self::ride`], carrying the character as a rider also when `carried` (it stands on
    /// a character the mover carries).
    pub(crate) fn ride_as<T: Tracer + ?Sized>(
        &mut self,
        world: &T,
        model: usize,
        pivot: Vec3,
        before: &ModelPlacement,
        after: &ModelPlacement,
        carried: bool,
    ) -> Ride {
        let ground = self.state.ground;
        let standing_on = carried
            || (ground.state != GroundState::Air
                && ground.target == Some(HitTarget::Model(model))
                && model != 0);
        if !standing_on && !self.overlaps_model(world, model) {
            return Ride::NotInvolved;
        }
        // The move changes the position only: that is what a block puts back.
        let saved = self.state.position;
        let start = self.state.position;
        let target = carried_point(pivot, before, after, start);
        if !target.is_finite() {
            return Ride::Blocked;
        }
        // The world as given, under a player's mask and without a tick's scratch.
        let world = Tick::plain(world);
        let carried = self.view(&world).trace(self.shape(), start, target);
        if !carried.all_solid {
            self.state.position = carried.end;
        }
        if world.overlaps(self.shape(), self.shape_center()) {
            let found = self.unstuck_toward(&world, target - start);
            match found {
                Some(center) => self.state.position = center - self.offset(),
                None => {
                    self.state.position = saved;
                    return Ride::Blocked;
                }
            }
        }
        if standing_on {
            Ride::Carried
        } else {
            Ride::Pushed
        }
    }

    /// Whether the shape in use overlaps model `model` where `world` places it now (this
    /// mover, not whatever else the character touches: Quake 3 `G_MoverPush` tests
    /// against the pusher).
    pub(crate) fn overlaps_model<T: Tracer + ?Sized>(&self, world: &T, model: usize) -> bool {
        let query = ShapeQuery::new(self.shape()).of_part(WorldPart::Model(model));
        world.overlaps(&query, self.shape_center())
    }

    /// Moves the character by `by` (separation, whose sweep found the spot free).
    pub(crate) fn nudge(&mut self, by: Vec3) {
        self.state.position += by;
    }
}
