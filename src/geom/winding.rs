//! [`Winding`]: a convex polygon lying on a plane, in f64, cut from a huge square.
//!
//! Takes a [`BuildPlane`] and clipping planes, gives the polygon that remains. Guarantees:
//! points stay on the winding's plane up to rounding; clipping keeps convexity; a winding
//! clipped away entirely is reported as `None`, never as a degenerate polygon of fewer than
//! three points.

use glam::DVec3;

use super::BuildPlane;
use crate::tolerance::BASE_WINDING_EXTENT;

/// A convex polygon on a plane, points in order around it.
#[derive(Clone, Debug, PartialEq)]
pub struct Winding {
    /// The corners, in order.
    pub points: Vec<DVec3>,
}

/// What of a winding lies behind a plane ([`Winding::part_behind`]).
#[cfg(feature = "mesh")]
#[derive(Debug)]
pub(crate) enum PartBehind {
    /// All of it.
    Whole,
    /// This part of it.
    Part(Winding),
    /// Nothing.
    Nothing,
}

/// Which side of a plane a point lies on, within an epsilon.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Front,
    Back,
    On,
}

impl Winding {
    /// A square of half-side [`BASE_WINDING_EXTENT`] on `plane`, centred on the point of the
    /// plane nearest the origin (Quake's `BaseWindingForPlane`).
    #[must_use]
    pub fn base_for_plane(plane: &BuildPlane) -> Winding {
        Winding {
            points: base_square(plane.normal, plane.dist).to_vec(),
        }
    }

    /// The part of the winding behind `plane` (where solid is), or `None` when nothing is
    /// left. Points within `epsilon` of the plane count as on it and are kept.
    #[must_use]
    pub fn clipped_behind(&self, plane: &BuildPlane, epsilon: f64) -> Option<Winding> {
        let mut back = Vec::new();
        match cut(&self.points, plane, epsilon, None, Some(&mut back)) {
            Cut::On | Cut::Front => None,
            Cut::Back => Some(self.clone()),
            Cut::Spanning => Winding::from_points(back),
        }
    }

    /// How much of the winding lies behind `plane` ([`clipped_behind`](Self::clipped_behind)'s
    /// answer, told apart): all of it (no copy is made), a part (the clipped winding), or
    /// nothing.
    #[cfg(feature = "mesh")]
    #[must_use]
    pub(crate) fn part_behind(&self, plane: &BuildPlane, epsilon: f64) -> PartBehind {
        let mut back = Vec::new();
        match cut(&self.points, plane, epsilon, None, Some(&mut back)) {
            Cut::On | Cut::Front => PartBehind::Nothing,
            Cut::Back => PartBehind::Whole,
            Cut::Spanning => Winding::from_points(back).map_or(PartBehind::Nothing, PartBehind::Part),
        }
    }

    /// [`clipped_behind`](Self::clipped_behind), reusing the winding when it lies wholly
    /// behind (the same points, without a copy).
    #[must_use]
    pub fn into_clipped_behind(self, plane: &BuildPlane, epsilon: f64) -> Option<Winding> {
        let mut back = Vec::new();
        match cut(&self.points, plane, epsilon, None, Some(&mut back)) {
            Cut::On | Cut::Front => None,
            Cut::Back => Some(self),
            Cut::Spanning => Winding::from_points(back),
        }
    }

    /// The part of the winding behind every one of `planes`, clipped by each in turn
    /// ([`into_clipped_behind`](Self::into_clipped_behind) one after another, the same
    /// points), with two buffers for the whole chain.
    #[must_use]
    pub fn into_clipped_behind_all<'a>(
        self,
        planes: impl IntoIterator<Item = &'a BuildPlane>,
        epsilon: f64,
    ) -> Option<Winding> {
        let mut points = self.points;
        // Room enough from the start that the chain never grows a buffer.
        points.reserve(STACK_POINTS.saturating_sub(points.len()));
        let mut back = Vec::with_capacity(points.capacity());
        for plane in planes {
            back.clear();
            match cut(&points, plane, epsilon, None, Some(&mut back)) {
                Cut::On | Cut::Front => return None,
                Cut::Back => {}
                Cut::Spanning if back.len() < 3 => return None,
                Cut::Spanning => std::mem::swap(&mut points, &mut back),
            }
        }
        Some(Winding { points })
    }

    /// Splits by `plane` into the front and back parts; `None` for an empty part, and the
    /// winding itself (the same points, without a copy) when it lies wholly on one side. A
    /// winding lying on the plane goes to neither, so callers must not split a winding by
    /// its own plane.
    #[must_use]
    pub fn into_split(self, plane: &BuildPlane, epsilon: f64) -> (Option<Winding>, Option<Winding>) {
        let (mut front, mut back) = (Vec::new(), Vec::new());
        match cut(&self.points, plane, epsilon, Some(&mut front), Some(&mut back)) {
            Cut::On => (None, None),
            Cut::Front => (Some(self), None),
            Cut::Back => (None, Some(self)),
            Cut::Spanning => (Winding::from_points(front), Winding::from_points(back)),
        }
    }

    fn from_points(points: Vec<DVec3>) -> Option<Winding> {
        (points.len() >= 3).then_some(Winding { points })
    }

    /// The polygon's area.
    #[must_use]
    pub fn area(&self) -> f64 {
        let Some(&first) = self.points.first() else {
            return 0.0;
        };
        let mut twice = DVec3::ZERO;
        for pair in self.points[1..].windows(2) {
            twice += (pair[0] - first).cross(pair[1] - first);
        }
        twice.length() * 0.5
    }
}

/// Where a winding lies against a plane.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cut {
    /// Every point within the epsilon of the plane.
    On,
    /// Some point in front, none behind.
    Front,
    /// Some point behind, none in front.
    Back,
    /// Points on both sides: the parts were written.
    Spanning,
}

/// Windings of at most this many points are cut with their distances on the stack (a brush
/// face or portal has a handful; longer ones take a heap buffer).
const STACK_POINTS: usize = 32;

/// Classifies `points` against `plane` and, when they span it, writes the part in front to
/// `front` and the part behind to `back` (each when asked), crossings shared by both.
fn cut(
    points: &[DVec3],
    plane: &BuildPlane,
    epsilon: f64,
    front: Option<&mut Vec<DVec3>>,
    back: Option<&mut Vec<DVec3>>,
) -> Cut {
    let count = points.len();
    let mut stack = [0.0f64; STACK_POINTS];
    let mut heap = Vec::new();
    let dists: &mut [f64] = if count <= STACK_POINTS {
        &mut stack[..count]
    } else {
        heap.resize(count, 0.0);
        &mut heap
    };
    let (mut any_front, mut any_back) = (false, false);
    for (d, &p) in dists.iter_mut().zip(points) {
        *d = plane.distance(p);
        any_front |= *d > epsilon;
        any_back |= *d < -epsilon;
    }
    let dists: &[f64] = dists;
    match (any_front, any_back) {
        (false, false) => return Cut::On,
        (true, false) => return Cut::Front,
        (false, true) => return Cut::Back,
        (true, true) => {}
    }
    let side = |d: f64| {
        if d > epsilon {
            Side::Front
        } else if d < -epsilon {
            Side::Back
        } else {
            Side::On
        }
    };
    let mut front = front;
    let mut back = back;
    if let Some(f) = front.as_deref_mut() {
        f.reserve(count + 2);
    }
    if let Some(b) = back.as_deref_mut() {
        b.reserve(count + 2);
    }
    for i in 0..count {
        let p = points[i];
        let here = side(dists[i]);
        if here != Side::Back
            && let Some(f) = front.as_deref_mut()
        {
            f.push(p);
        }
        if here != Side::Front
            && let Some(b) = back.as_deref_mut()
        {
            b.push(p);
        }
        if here == Side::On {
            continue;
        }
        let j = (i + 1) % count;
        let next = side(dists[j]);
        if next == Side::On || next == here {
            continue;
        }
        let q = points[j];
        let t = dists[i] / (dists[i] - dists[j]);
        let mut mid = p + (q - p) * t;
        // Keep axis-aligned splits exact: the crossing lies exactly on the plane there.
        for axis in 0..3 {
            if plane.normal[axis] == 1.0 {
                mid[axis] = plane.dist;
            } else if plane.normal[axis] == -1.0 {
                mid[axis] = -plane.dist;
            }
        }
        if let Some(f) = front.as_deref_mut() {
            f.push(mid);
        }
        if let Some(b) = back.as_deref_mut() {
            b.push(mid);
        }
    }
    Cut::Spanning
}

/// The corners, in winding order, of a square of half-side [`BASE_WINDING_EXTENT`] on the
/// plane `n·x = d` (unit `n`) centred on the plane's point nearest the origin (Quake's
/// `BaseWindingForPlane`); the world axis least aligned with the normal gives a
/// well-conditioned basis.
#[must_use]
pub(crate) fn base_square(n: DVec3, d: f64) -> [DVec3; 4] {
    let a = n.abs();
    let up = if a.z >= a.x && a.z >= a.y {
        DVec3::X
    } else {
        DVec3::Z
    };
    let up = (up - n * up.dot(n)).normalize_or_zero() * BASE_WINDING_EXTENT;
    let right = up.cross(n).normalize_or_zero() * BASE_WINDING_EXTENT;
    let origin = n * d;
    [
        origin - right + up,
        origin + right + up,
        origin + right - up,
        origin - right - up,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_a_base_winding_to_a_box_face_leaves_the_face() {
        let top = BuildPlane::from_normal_dist(DVec3::Z, 16.0).unwrap();
        let mut w = Winding::base_for_plane(&top);
        for (n, d) in [
            (DVec3::X, 8.0),
            (DVec3::NEG_X, 8.0),
            (DVec3::Y, 4.0),
            (DVec3::NEG_Y, 4.0),
        ] {
            let plane = BuildPlane::from_normal_dist(n, d).unwrap();
            w = w.clipped_behind(&plane, 1e-9).unwrap();
        }
        assert!((w.area() - 16.0 * 8.0).abs() < 1e-6);
        assert_eq!(w.points.len(), 4);
        assert!(w.points.iter().all(|p| p.z == 16.0));
    }
}
