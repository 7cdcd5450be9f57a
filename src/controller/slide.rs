//! Sliding: move a shape along its velocity, and on each hit keep going along whatever the
//! blocking planes leave free (Quake 3 `PM_SlideMove`, with the clip cascade replaced by an
//! exact projection onto the cone of allowed velocities, the approach of Avian's kinematic
//! character controller).
//!
//! Takes the world ([`Tracer`](super::Tracer)), a shape, a position and a velocity; gives the new position, the
//! clipped velocity and the planes touched. Guarantees:
//! - at most [`MAX_BUMPS`] sweeps and [`MAX_CLIP_PLANES`] contact planes; more stops dead;
//! - after every hit the velocity is the one closest to the wanted velocity that enters none
//!   of the planes met, nor turns back against the original direction of motion: one
//!   plane gives a slide, two a crease, three or more a stop (Quake 3's three-plane rule);
//! - the position only ever moves to a sweep's end, which is never inside solid.

use glam::Vec3;

use super::tick::{TouchList, WallContacts};
use super::tracer::Sweeps;
use crate::tolerance::{
    CONE_SLACK, CREASE_MIN_SINE, MAX_BUMPS, MAX_CLIP_PLANES, OVERCLIP, SAME_PLANE_DOT,
};
use crate::trace::TraceShape;

/// Constraint capacity: each contact plane (with the wall under it, for a steep plane met
/// walking), plus the ground plane and the original direction.
const MAX_CONSTRAINTS: usize = 2 * MAX_CLIP_PLANES + 2;

/// The planes one slide move must not enter, as unit normals. The first ones may be seeds
/// (the ground plane, the original direction of motion) that are not counted as contacts.
#[derive(Clone, Copy)]
pub(crate) struct Constraints {
    normals: [Vec3; MAX_CONSTRAINTS],
    /// Whether each normal is a contact (nudged off by `OVERCLIP`) or a seed direction.
    contact: [bool; MAX_CONSTRAINTS],
    len: usize,
    contacts: usize,
}

impl Constraints {
    fn new() -> Self {
        Constraints {
            normals: [Vec3::ZERO; MAX_CONSTRAINTS],
            contact: [false; MAX_CONSTRAINTS],
            len: 0,
            contacts: 0,
        }
    }

    fn push(&mut self, normal: Vec3, contact: bool) -> bool {
        if self.len == MAX_CONSTRAINTS {
            return false;
        }
        self.normals[self.len] = normal;
        self.contact[self.len] = contact;
        self.len += 1;
        self.contacts += usize::from(contact);
        true
    }

    /// Adds the vertical wall under a steep contact plane; it does not count as a contact.
    fn push_wall_under(&mut self, wall: Vec3) -> bool {
        let pushed = self.push(wall, true);
        self.contacts -= usize::from(pushed);
        pushed
    }

    fn normals(&self) -> &[Vec3] {
        &self.normals[..self.len]
    }
}

/// What a slide move is asked to do.
pub(crate) struct Slide<'a, T: Sweeps + ?Sized> {
    pub world: &'a T,
    pub shape: &'a TraceShape,
    /// The walkable ground's normal when walking: it seeds the constraints, so the move
    /// follows the ground and creases with walls along it.
    pub ground: Option<Vec3>,
    /// Ground whose normal z is at least this is walkable; other planes are walls.
    pub walkable_normal_z: f32,
    /// Walking treats steep planes that face up as vertical walls (Jolt, Source): a walking
    /// character cannot gain height on a slope it could not stand on.
    pub walking: bool,
}

/// What a slide move did.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SlideResult {
    pub position: Vec3,
    pub velocity: Vec3,
    /// Some sweep was stopped, so the velocity was clipped (or zeroed).
    pub blocked: bool,
    /// The walls met on the way, as horizontal normals.
    pub walls: WallContacts,
}

impl<T: Sweeps + ?Sized> Slide<'_, T> {
    /// Moves from `position` with `velocity` for `dt` seconds, touching planes in order.
    pub(crate) fn run(
        &self,
        position: Vec3,
        velocity: Vec3,
        dt: f32,
        touches: &mut TouchList,
    ) -> SlideResult {
        let mut position = position;
        let mut velocity = velocity;
        let mut blocked = false;
        let mut walls = WallContacts::default();
        let mut constraints = Constraints::new();
        if let Some(ground) = self.ground {
            constraints.push(ground, true);
        }
        // Never turn back against the original motion (Quake 3 seeds this plane).
        let original = velocity.normalize_or_zero();
        if original != Vec3::ZERO {
            constraints.push(original, false);
        }
        let mut time_left = dt;
        for _ in 0..MAX_BUMPS {
            if velocity == Vec3::ZERO || time_left <= 0.0 {
                break;
            }
            let target = position + velocity * time_left;
            let trace = self.world.trace(self.shape, position, target);
            if trace.all_solid {
                // Trapped: keep sideways speed, drop the vertical (Quake 3).
                velocity.z = 0.0;
                blocked = true;
                break;
            }
            if trace.fraction > 0.0 {
                position = trace.end;
            }
            if trace.fraction >= 1.0 {
                break;
            }
            blocked = true;
            touches.push(&trace);
            time_left -= time_left * trace.fraction;
            let Some(hit) = trace.normal else {
                velocity = Vec3::ZERO;
                break;
            };
            let normal = hit;
            if hit.z.abs() < self.walkable_normal_z && hit.truncate() != glam::Vec2::ZERO {
                walls.push(hit);
            }
            if constraints.contacts >= MAX_CLIP_PLANES {
                velocity = Vec3::ZERO;
                break;
            }
            // The same plane again (rounding): the velocity already leaves it, so nudge off
            // it rather than add a duplicate. A plane the velocity still enters is a new
            // constraint however close to one met: a wall bending by a few degrees (two
            // planes 5.6° apart on `e2m2.bsp`) is a crease, and the one-unit nudge never
            // left it (the character stopped dead, every tick).
            let met_before = constraints
                .normals()
                .iter()
                .zip(&constraints.contact)
                .any(|(n, &contact)| contact && n.dot(normal) > SAME_PLANE_DOT);
            if met_before && velocity.dot(normal) >= -CONE_SLACK * velocity.length() {
                velocity += normal;
                continue;
            }
            let wall = self.wall_under(hit);
            let pushed = constraints.push(normal, true)
                && wall.is_none_or(|w| constraints.push_wall_under(w));
            if !pushed {
                velocity = Vec3::ZERO;
                break;
            }
            velocity = project_onto_cone(velocity, &constraints);
            if velocity.dot(original) <= 0.0 {
                velocity = Vec3::ZERO;
            }
        }
        SlideResult {
            position,
            velocity,
            blocked,
            walls,
        }
    }

    /// While walking, a steep plane facing up also acts as the vertical wall under it: the
    /// character may slide down along it (say, along a valley between walkable ground and a
    /// steep bank) but not up it.
    fn wall_under(&self, normal: Vec3) -> Option<Vec3> {
        let steep = self.walking && normal.z > 0.0 && normal.z < self.walkable_normal_z;
        steep
            .then(|| normal.truncate().try_normalize())
            .flatten()
            .map(|flat| flat.extend(0.0))
    }
}

/// Clips `velocity` against one plane with Quake 3's overbounce: the part into the plane is
/// removed, and 0.1 % more, so the result leaves the plane slightly.
#[must_use]
pub(crate) fn clip_velocity(velocity: Vec3, normal: Vec3) -> Vec3 {
    let into = velocity.dot(normal);
    let removed = if into < 0.0 {
        into * OVERCLIP
    } else {
        into / OVERCLIP
    };
    velocity - normal * removed
}

/// The velocity closest to `velocity` that enters no constraint plane (`n·u ≥ 0` for all),
/// then nudged off the contact planes it rests on by [`OVERCLIP`].
///
/// The allowed velocities form a convex cone, so the closest one lies on one of its faces:
/// the velocity itself, its projection on one plane, its projection on the crease line of
/// two planes, or zero. Trying each (at most 7 + 21 candidates) and keeping the nearest
/// allowed one is exact, and covers Quake 3's slide, crease and three-plane stop at once.
#[must_use]
fn project_onto_cone(velocity: Vec3, constraints: &Constraints) -> Vec3 {
    let normals = constraints.normals();
    let slack = CONE_SLACK * velocity.length();
    let allowed = |u: Vec3| normals.iter().all(|n| n.dot(u) >= -slack);
    if allowed(velocity) {
        return velocity;
    }
    let mut best = Vec3::ZERO;
    let mut best_gap = velocity.length_squared();
    let mut consider = |u: Vec3| {
        let gap = (u - velocity).length_squared();
        if gap < best_gap && allowed(u) {
            best = u;
            best_gap = gap;
        }
    };
    for n in normals {
        let into = velocity.dot(*n);
        if into < 0.0 {
            consider(velocity - *n * into);
        }
    }
    for (i, a) in normals.iter().enumerate() {
        for b in &normals[i + 1..] {
            let crease = a.cross(*b);
            let sine = crease.length();
            if sine < CREASE_MIN_SINE {
                continue;
            }
            let direction = crease / sine;
            consider(direction * direction.dot(velocity));
        }
    }
    // Leave each contact plane the result rests on by Quake 3's overclip margin.
    let mut nudge = Vec3::ZERO;
    for (n, &contact) in normals.iter().zip(&constraints.contact) {
        let into = velocity.dot(*n);
        if contact && into < 0.0 && best.dot(*n) <= slack {
            nudge -= *n * (into * (OVERCLIP - 1.0));
        }
    }
    let nudged = best + nudge;
    // A tiny crease result can be outweighed by the margin; never let it turn back.
    if best == Vec3::ZERO || nudged.dot(velocity) < 0.0 {
        best
    } else {
        nudged
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cone(normals: &[(Vec3, bool)]) -> Constraints {
        let mut c = Constraints::new();
        for &(n, contact) in normals {
            c.push(n.normalize(), contact);
        }
        c
    }

    #[test]
    fn one_plane_slides() {
        let v = Vec3::new(100.0, -100.0, 0.0);
        let u = project_onto_cone(v, &cone(&[(Vec3::Y, true)]));
        assert!((u.x - 100.0).abs() < 1e-4);
        assert!(u.y > 0.0 && u.y < 0.2, "leaves the plane slightly: {u}");
    }

    #[test]
    fn two_planes_crease_and_three_stop() {
        let v = Vec3::new(-50.0, -100.0, -10.0);
        let floor_wall = cone(&[(Vec3::Z, true), (Vec3::Y, true)]);
        let u = project_onto_cone(v, &floor_wall);
        assert!((u.x + 50.0).abs() < 0.1 && u.y >= 0.0 && u.z >= 0.0, "{u}");
        let corner = cone(&[(Vec3::Z, true), (Vec3::Y, true), (Vec3::X, true)]);
        assert_eq!(project_onto_cone(v, &corner), Vec3::ZERO);
    }

    #[test]
    fn never_turns_back() {
        // A wedge opening towards +y, entered moving -y: the crease points back out, which
        // the original direction forbids.
        let v = Vec3::new(0.0, -100.0, 0.0);
        let wedge = cone(&[
            (Vec3::new(0.9, 0.44, 0.0), true),
            (Vec3::new(-0.9, 0.44, 0.0), true),
            (Vec3::new(0.0, -1.0, 0.0), false),
        ]);
        assert_eq!(project_onto_cone(v, &wedge), Vec3::ZERO);
    }

    #[test]
    fn projection_properties_over_random_cones() {
        // 20,000 seeded cases of 1 to 7 random planes: the result enters no plane, is no
        // longer than the velocity, never opposes it, and is the velocity itself when that
        // is allowed. Against brute force: no allowed candidate on a finer search is closer.
        let mut rng = crate::test_rng::XorShift::new(0x2545_f491_4f6c_dd1du64);
        for case in 0..20_000 {
            let v = Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 300.0;
            let mut c = Constraints::new();
            let planes = 1 + case % 7;
            for _ in 0..planes {
                let n = Vec3::new(rng.unit(), rng.unit(), rng.unit());
                if let Some(n) = n.try_normalize() {
                    c.push(n, true);
                }
            }
            let u = project_onto_cone(v, &c);
            let slack = 1e-3 * v.length();
            for n in c.normals() {
                assert!(n.dot(u) >= -slack, "case {case}: {u} enters {n}");
            }
            assert!(u.length() <= v.length() * OVERCLIP + slack, "case {case}");
            assert!(
                u.dot(v) >= -slack,
                "case {case}: {u} opposes {v}: {:?}",
                c.normals()
            );
            if c.normals().iter().all(|n| n.dot(v) >= 0.0) {
                assert_eq!(u, v);
            }
            // The nearest allowed point is at least as close as any allowed point on the
            // segment from zero to each single-plane projection (a cheap lower bound check).
            let gap = (u - v).length();
            for n in c.normals() {
                let p = v - *n * v.dot(*n).min(0.0);
                for k in 0..=8 {
                    let q = p * (k as f32 / 8.0);
                    if c.normals().iter().all(|m| m.dot(q) >= 0.0) {
                        assert!(
                            gap <= (q - v).length() + slack,
                            "case {case}: {q} is closer"
                        );
                    }
                }
            }
        }
    }
}
