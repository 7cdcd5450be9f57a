//! Shapes for queries in Bevy's units and axes: what a game sweeps, sized in metres (or
//! whatever its [`MapSpace`] says) and upright along Bevy's up.
//!
//! Takes a shape in Bevy units ([`LevelShape`]); gives the library's [`TraceShape`] in map units ([`LevelShape::to_map`]).
//! Guarantees: the conversion only scales and permutes axes ([`MapSpace`]'s), so a box stays
//! axis-aligned and an upright cylinder or capsule stays upright; a size the library refuses
//! (not finite, not positive, beyond its extent) gives `None`, never a panic.

use glam::Vec3;
use planeshift::TraceShape;

use crate::space::MapSpace;

/// A query shape in Bevy units and axes (Y up by default): upright means along Bevy's up.
#[derive(Clone, Debug, PartialEq)]
pub enum LevelShape {
    /// A point: a ray.
    Point,
    /// A ball of this radius.
    Sphere(f32),
    /// An upright cylinder.
    Cylinder {
        /// Its radius.
        radius: f32,
        /// Half its height.
        half_height: f32,
    },
    /// An upright capsule: a segment of `2 × half_length` grown by `radius`.
    Capsule {
        /// Its radius.
        radius: f32,
        /// Half the length of its inner segment.
        half_length: f32,
    },
    /// An axis-aligned box centred on the query point.
    Cuboid {
        /// Half its size along Bevy's x, y and z.
        half_size: Vec3,
    },
    /// The convex hull of points around the query point.
    Hull(Vec<Vec3>),
}

impl LevelShape {
    /// The library's shape in map units and axes, or `None` for a size it refuses.
    ///
    /// ```
    /// use planeshift_bevy::{LevelShape, MapSpace};
    /// let ball = LevelShape::Sphere(0.5).to_map(&MapSpace::TRENCHBROOM).unwrap();
    /// assert!((ball.radius() - 0.5 * 39.37008).abs() < 1e-4);
    /// ```
    #[must_use]
    pub fn to_map(&self, space: &MapSpace) -> Option<TraceShape> {
        let length = |l: f32| space.length_to_map(l);
        match self {
            LevelShape::Point => Some(TraceShape::point()),
            LevelShape::Sphere(r) => TraceShape::sphere(length(*r)),
            LevelShape::Cylinder {
                radius,
                half_height,
            } => TraceShape::cylinder(length(*radius), length(*half_height)),
            LevelShape::Capsule {
                radius,
                half_length,
            } => TraceShape::capsule(length(*radius), length(*half_length)),
            LevelShape::Cuboid { half_size } => {
                let half = space.to_map(*half_size).abs();
                TraceShape::aabb(-half, half)
            }
            LevelShape::Hull(points) => {
                TraceShape::hull(points.iter().map(|&p| space.to_map(p)).collect())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_convert_to_the_same_size_and_axes_in_map_units() {
        let space = MapSpace::TRENCHBROOM;
        let s = space.units_per_bevy;
        let half_size = Vec3::new(1.0, 2.0, 3.0);
        let cuboid = LevelShape::Cuboid { half_size }.to_map(&space).unwrap();
        // Bevy's x is the map's −y, its y (up) the map's z, its z the map's −x.
        let (mins, maxs) = cuboid.bounds();
        assert!(
            (maxs - Vec3::new(3.0 * s, 1.0 * s, 2.0 * s))
                .abs()
                .max_element()
                < 1e-3
        );
        assert_eq!(mins, -maxs);
        let capsule = LevelShape::Capsule {
            radius: 0.25,
            half_length: 0.5,
        };
        let capsule = capsule.to_map(&space).unwrap();
        let (mins, maxs) = capsule.bounds();
        assert!(
            (maxs.z - (0.5 + 0.25) * s).abs() < 1e-3,
            "upright along z: {maxs}"
        );
        assert!((maxs.x - 0.25 * s).abs() < 1e-3 && mins.z < 0.0);
        assert_eq!(LevelShape::Sphere(f32::NAN).to_map(&space), None);
        assert_eq!(LevelShape::Sphere(-1.0).to_map(&space), None);
        let quake = LevelShape::Sphere(16.0).to_map(&MapSpace::QUAKE).unwrap();
        assert_eq!(quake.radius(), 16.0);
    }
}
