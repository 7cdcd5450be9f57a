//! The map space: how Quake's Z-up map units become Bevy's Y-up world.
//!
//! Takes nothing; gives [`MapSpace`], the one conversion every part of the plugin uses.
//! Guarantees: the default is bevy_trenchbroom's (`(−y, z, −x) / 39.37008`), so collision
//! lines up with a bevy_trenchbroom scene of the same file; [`MapSpace::QUAKE`] is the identity,
//! bit for bit (what the replay contract uses); directions only permute and negate axes, so
//! they convert without rounding in either space.

use bevy_ecs::resource::Resource;
use bevy_transform::components::Transform;
use glam::{Quat, Vec3};

/// Quake map units in one metre, as bevy_trenchbroom counts them (one unit is an inch).
pub const QUAKE_UNITS_PER_METRE: f32 = 39.37008;

/// How positions and directions go between the map (Quake units, Z up) and Bevy.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct MapSpace {
    /// Map units per Bevy unit.
    pub units_per_bevy: f32,
    /// Bevy's Y-up axes (`(−y, z, −x)`) when true; the map's own axes when false.
    pub y_up: bool,
}

impl Default for MapSpace {
    fn default() -> Self {
        MapSpace::TRENCHBROOM
    }
}

impl MapSpace {
    /// bevy_trenchbroom's space: Y up, metres.
    pub const TRENCHBROOM: MapSpace = MapSpace {
        units_per_bevy: QUAKE_UNITS_PER_METRE,
        y_up: true,
    };
    /// The map's own space: Z up, map units; every conversion is the identity.
    pub const QUAKE: MapSpace = MapSpace {
        units_per_bevy: 1.0,
        y_up: false,
    };

    /// A direction from map axes to Bevy axes (no scaling).
    ///
    /// ```
    /// use planeshift_bevy::MapSpace;
    /// use glam::Vec3;
    /// assert_eq!(MapSpace::TRENCHBROOM.dir_to_bevy(Vec3::Z), Vec3::Y);
    /// ```
    #[must_use]
    pub fn dir_to_bevy(&self, v: Vec3) -> Vec3 {
        if self.y_up {
            Vec3::new(-v.y, v.z, -v.x)
        } else {
            v
        }
    }

    /// A direction from Bevy axes to map axes (no scaling): the inverse of
    /// [`Self::dir_to_bevy`].
    #[must_use]
    pub fn dir_to_map(&self, v: Vec3) -> Vec3 {
        if self.y_up {
            Vec3::new(-v.z, -v.x, v.y)
        } else {
            v
        }
    }

    /// A point in map units to Bevy.
    ///
    /// ```
    /// use planeshift_bevy::MapSpace;
    /// use glam::Vec3;
    /// let p = MapSpace::TRENCHBROOM.to_bevy(Vec3::new(39.37008, 0.0, 0.0));
    /// assert_eq!(p, Vec3::new(0.0, 0.0, -1.0));
    /// ```
    #[must_use]
    pub fn to_bevy(&self, p: Vec3) -> Vec3 {
        if self.units_per_bevy == 1.0 {
            self.dir_to_bevy(p)
        } else {
            self.dir_to_bevy(p) / self.units_per_bevy
        }
    }

    /// A point in Bevy to map units: the inverse of [`Self::to_bevy`].
    #[must_use]
    pub fn to_map(&self, p: Vec3) -> Vec3 {
        if self.units_per_bevy == 1.0 {
            self.dir_to_map(p)
        } else {
            self.dir_to_map(p) * self.units_per_bevy
        }
    }

    /// A length in Bevy units as map units (a radius, a range).
    #[must_use]
    pub fn length_to_map(&self, l: f32) -> f32 {
        l * self.units_per_bevy
    }

    /// The rotation that turns Bevy's forward (−Z) to a map yaw (degrees counter-clockwise
    /// from the map's +x, seen from above) and Bevy's up to the map's: a spawn point's
    /// facing as a `Transform` rotation.
    #[must_use]
    pub fn facing(&self, yaw_degrees: f32) -> Quat {
        let (sin, cos) = yaw_degrees.to_radians().sin_cos();
        let forward = self.dir_to_bevy(Vec3::new(cos, sin, 0.0));
        let up = self.dir_to_bevy(Vec3::Z);
        Transform::IDENTITY.looking_to(forward, up).rotation
    }

    /// A speed or length in map units to Bevy units.
    #[must_use]
    pub fn length_to_bevy(&self, l: f32) -> f32 {
        l / self.units_per_bevy
    }
}
