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

struct Query {
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
    fn new(shape: &OracleShape) -> Query {
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
    fn pose(&self, at: DVec3) -> Pose {
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
struct Entry {
    poly: ConvexPolyhedron,
    /// Brush bounds grown by [`CULL_MARGIN`].
    lo: DVec3,
    hi: DVec3,
    /// Index of the brush in the slice given to [`Oracle::new`].
    brush: usize,
}

/// Exact queries against a set of brushes.
pub struct Oracle {
    entries: Vec<Entry>,
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
    fn brush_distance(q: &Query, pose: &Pose, e: &Entry) -> f64 {
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
    fn brush_touches(q: &Query, pose: &Pose, e: &Entry) -> bool {
        Self::brush_distance(q, pose, e) <= TOUCH
    }

    /// The first fraction at which the shape moving from `start` by `motion` touches one brush
    /// (not touching at `start`), by golden-section search for the minimum of the distance
    /// along the move (a convex function of the fraction) and bisection before it.
    fn bisect_first_touch(q: &Query, e: &Entry, start: DVec3, motion: DVec3) -> Option<f64> {
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

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use glam::DVec3;
    use planeshift::brush::{Brush, brushes_from_map};
    use planeshift::map::parse_map;

    use super::{Oracle, OracleShape, TOUCH, from_parry, to_parry, y_to_z};
    use crate::support::{Pcg32, bundled_maps, read, real_maps};

    /// The solid world brushes of a map file.
    fn world(path: &std::path::Path) -> Vec<Brush> {
        let map = parse_map(&read(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        brushes_from_map(&map)
            .brushes
            .into_iter()
            .filter(Brush::is_solid_world)
            .collect()
    }

    fn box_room() -> Oracle {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/box_room.map");
        let oracle = Oracle::new(&world(&path));
        assert_eq!(oracle.len(), 6);
        assert!(oracle.rejected().is_empty());
        oracle
    }

    fn v(x: f64, y: f64, z: f64) -> DVec3 {
        DVec3::new(x, y, z)
    }

    #[track_caller]
    fn assert_hit(got: Option<f64>, want: f64) {
        let got = got.unwrap_or_else(|| panic!("expected a hit at {want}, got none"));
        assert!((got - want).abs() <= 1e-9, "hit at {got}, expected {want}");
    }

    const PLAYER: OracleShape = OracleShape::Box {
        mins: DVec3::new(-16.0, -16.0, -24.0),
        maxs: DVec3::new(16.0, 16.0, 32.0),
    };

    #[test]
    fn oracle_box_room_hand_cases() {
        let o = box_room();
        let (high, low, east) = (
            v(0.0, 0.0, 100.0),
            v(0.0, 0.0, -100.0),
            v(400.0, 0.0, 100.0),
        );
        let sphere = OracleShape::Sphere { radius: 16.0 };
        assert_hit(o.first_hit(&sphere, high, low), (100.0 - 16.0) / 200.0);
        assert_hit(o.first_hit(&sphere, high, east), (256.0 - 16.0) / 400.0);
        assert_hit(o.first_hit(&PLAYER, high, low), (100.0 - 24.0) / 200.0);
        assert_hit(o.first_hit(&PLAYER, high, east), (256.0 - 16.0) / 400.0);
        assert_hit(
            o.first_hit(&PLAYER, high, v(0.0, 0.0, 400.0)),
            (256.0 - 132.0) / 300.0,
        );
        // Not centred: the box's +x face is 20 from the reference point.
        let lopsided = OracleShape::Box {
            mins: v(-4.0, -8.0, -30.0),
            maxs: v(20.0, 8.0, 2.0),
        };
        assert_hit(o.first_hit(&lopsided, high, east), (256.0 - 20.0) / 400.0);
        assert_hit(o.first_hit(&lopsided, high, low), (100.0 - 30.0) / 200.0);
        let cylinder = OracleShape::Cylinder {
            radius: 16.0,
            half_height: 28.0,
        };
        assert_hit(o.first_hit(&cylinder, high, low), (100.0 - 28.0) / 200.0);
        assert_hit(o.first_hit(&cylinder, high, east), (256.0 - 16.0) / 400.0);
        let capsule = OracleShape::Capsule {
            radius: 16.0,
            half_height: 20.0,
        };
        assert_hit(o.first_hit(&capsule, high, low), (100.0 - 36.0) / 200.0);
        assert_hit(o.first_hit(&capsule, high, east), (256.0 - 16.0) / 400.0);
        assert_hit(o.first_hit(&OracleShape::Point, high, low), 100.0 / 200.0);
        assert_hit(o.first_hit(&OracleShape::Point, high, east), 256.0 / 400.0);
        let tetra = OracleShape::Hull {
            points: vec![
                v(0.0, 0.0, -10.0),
                v(30.0, 0.0, 5.0),
                v(-5.0, 12.0, 5.0),
                v(-5.0, -12.0, 5.0),
            ],
        };
        assert_hit(o.first_hit(&tetra, high, low), (100.0 - 10.0) / 200.0);
        assert_hit(o.first_hit(&tetra, high, east), (256.0 - 30.0) / 400.0);
        // A flat hull (a square in the XY plane) is still exact.
        let flat = OracleShape::Hull {
            points: vec![
                v(-8.0, -8.0, 0.0),
                v(8.0, -8.0, 0.0),
                v(8.0, 8.0, 0.0),
                v(-8.0, 8.0, 0.0),
            ],
        };
        assert_hit(o.first_hit(&flat, high, east), (256.0 - 8.0) / 400.0);
        // Diagonal move into the corner region: the sphere hits the +x wall first.
        assert_hit(
            o.first_hit(&sphere, high, v(300.0, 150.0, 100.0)),
            (256.0 - 16.0) / 300.0,
        );

        // Misses: moves that stay inside the room.
        for shape in [
            &sphere,
            &PLAYER,
            &cylinder,
            &capsule,
            &OracleShape::Point,
            &tetra,
        ] {
            assert_eq!(o.first_hit(shape, high, v(100.0, -50.0, 120.0)), None);
            assert_eq!(o.first_hit(shape, high, high), None, "{shape:?} not moving");
        }
        // Touching at the start is a hit at 0, whichever way the move goes.
        let resting = v(0.0, 0.0, 16.0);
        assert_eq!(o.first_hit(&sphere, resting, v(50.0, 0.0, 16.0)), Some(0.0));
        assert_eq!(o.first_hit(&sphere, resting, v(0.0, 0.0, 80.0)), Some(0.0));
        assert_eq!(o.first_hit(&sphere, resting, resting), Some(0.0));
        assert_eq!(
            o.first_hit(&PLAYER, v(0.0, 0.0, 24.0), v(99.0, 0.0, 24.0)),
            Some(0.0)
        );
        assert_eq!(
            o.first_hit(&OracleShape::Point, v(5.0, 5.0, 0.0), high),
            Some(0.0)
        );
        // Ending exactly in contact is a hit at 1.
        assert_hit(o.first_hit(&sphere, high, resting), 1.0);

        // Overlap.
        assert!(o.overlaps(&sphere, v(0.0, 0.0, 10.0)));
        assert!(!o.overlaps(&sphere, v(0.0, 0.0, 20.0)));
        assert!(o.overlaps(&sphere, resting), "touching counts");
        assert!(!o.overlaps(&sphere, v(0.0, 0.0, 16.0 + 1e-6)));
        assert!(o.overlaps(&cylinder, v(0.0, 0.0, 27.0)));
        assert!(!o.overlaps(&cylinder, v(0.0, 0.0, 29.0)));
        assert!(o.overlaps(&cylinder, v(241.0, 0.0, 100.0)));
        assert!(!o.overlaps(&cylinder, v(239.0, 0.0, 100.0)));
        assert!(!o.overlaps(&PLAYER, v(0.0, 0.0, 24.5)));
        assert!(o.overlaps(&PLAYER, v(0.0, 0.0, 23.5)));
        assert!(o.overlaps(&OracleShape::Point, v(0.0, 0.0, -0.5)));
        assert!(!o.overlaps(&OracleShape::Point, v(0.0, 0.0, 0.5)));
        // A sphere in the corner of floor and walls, clear of each by 1 along the axes.
        assert!(!o.overlaps(&sphere, v(239.0, 239.0, 17.0)));

        // Distance.
        let d = o.distance(&sphere, v(0.0, 0.0, 50.0), 1000.0);
        assert!((d - 34.0).abs() <= 1e-9, "{d}");
        assert_eq!(o.distance(&sphere, v(0.0, 0.0, 50.0), 20.0), 20.0);
        assert_eq!(o.distance(&sphere, v(0.0, 0.0, 10.0), 20.0), 0.0);
        let d = o.distance(&PLAYER, v(200.0, 0.0, 100.0), 1000.0);
        assert!((d - 40.0).abs() <= 1e-9, "{d}");
        let d = o.distance(&capsule, v(0.0, 0.0, 50.0), 1000.0);
        assert!((d - 14.0).abs() <= 1e-9, "{d}");
        let d = o.distance(&cylinder, v(0.0, 0.0, 128.0), 1000.0);
        assert!((d - 100.0).abs() <= 1e-6, "{d}");
        let d = o.distance(&OracleShape::Point, v(250.0, 0.0, 128.0), 1000.0);
        assert!((d - 6.0).abs() <= 1e-9, "{d}");
        // Towards an inner corner of floor and wall: sqrt(2) * 8 from both.
        let d = o.distance(&OracleShape::Point, v(248.0, 0.0, 8.0), 1000.0);
        assert!((d - 8.0).abs() <= 1e-9, "{d}");
    }

    #[test]
    fn oracle_cylinder_stands_upright() {
        let r = y_to_z();
        let z = from_parry(r * to_parry(DVec3::Y));
        assert!((z - DVec3::Z).length() < 1e-15, "{z}");
        // A tall thin cylinder: lying down it would reach 100 along x or y, not z.
        let o = box_room();
        let pole = OracleShape::Cylinder {
            radius: 2.0,
            half_height: 100.0,
        };
        assert!(!o.overlaps(&pole, v(0.0, 0.0, 128.0)));
        assert!(!o.overlaps(&pole, v(250.0, 250.0, 128.0)));
        assert!(o.overlaps(&pole, v(0.0, 0.0, 99.0)));
        assert_hit(
            o.first_hit(&pole, v(0.0, 0.0, 128.0), v(0.0, 0.0, 0.0)),
            28.0 / 128.0,
        );
        assert_hit(
            o.first_hit(&pole, v(0.0, 0.0, 128.0), v(0.0, 400.0, 128.0)),
            254.0 / 400.0,
        );
        // The edge of the flat bottom reaches the floor/wall corner region before a round one would.
        let d = o.distance(&pole, v(250.0, 0.0, 128.0), 1000.0);
        assert!((d - 4.0).abs() <= 1e-6, "{d}");
    }

    /// Every map, bundled and real: the oracle represents every solid world brush.
    #[test]
    fn oracle_represents_every_brush() {
        let mut maps = bundled_maps();
        maps.extend(real_maps("oracle_represents_every_brush"));
        let (mut total, mut fallbacks) = (0, 0);
        for (name, path) in &maps {
            let brushes = world(path);
            let start = Instant::now();
            let o = Oracle::new(&brushes);
            println!(
                "{name}: {} brushes, {} represented, {} by hull fallback, {} rejected, {:.1} ms",
                brushes.len(),
                o.len(),
                o.hull_fallbacks(),
                o.rejected().len(),
                start.elapsed().as_secs_f64() * 1e3
            );
            for (i, why) in o.rejected().iter().zip(o.rejection_reasons()) {
                println!("  brush {i} ({:?}): {why}", brushes[*i].loc);
            }
            assert!(
                o.rejected().is_empty(),
                "{name}: rejected {:?}",
                o.rejected()
            );
            assert_eq!(o.len(), brushes.len());
            total += o.len();
            fallbacks += o.hull_fallbacks();
        }
        println!(
            "{} maps, {total} brushes, {fallbacks} hull fallbacks",
            maps.len()
        );
    }

    /// A segment's first entry into a brush grown by `grow` along every plane (negative
    /// shrinks), by exact clipping against the brush planes.
    fn point_reference(brushes: &[Brush], start: DVec3, end: DVec3, grow: f64) -> Option<f64> {
        let mut best: Option<f64> = None;
        'brushes: for b in brushes {
            let (mut t0, mut t1) = (0.0f64, 1.0f64);
            for side in &b.sides {
                let f0 = side.plane.normal.dot(start) - side.plane.dist - grow;
                let f1 = side.plane.normal.dot(end) - side.plane.dist - grow;
                if f0 > 0.0 && f1 > 0.0 {
                    continue 'brushes;
                }
                if f0 > 0.0 {
                    t0 = t0.max(f0 / (f0 - f1));
                } else if f1 > 0.0 {
                    t1 = t1.min(f0 / (f0 - f1));
                }
            }
            if t0 <= t1 && best.is_none_or(|t| t0 < t) {
                best = Some(t0);
            }
        }
        best
    }

    /// The corners of a box or the points of a hull, and candidate face normals and edge
    /// directions (supersets are fine: every axis is a valid separating-axis candidate).
    fn polytope(shape: &OracleShape) -> (Vec<DVec3>, Vec<DVec3>, Vec<DVec3>) {
        match shape {
            OracleShape::Box { mins, maxs } => {
                let mut pts = Vec::new();
                for i in 0..8 {
                    pts.push(DVec3::new(
                        if i & 1 == 0 { mins.x } else { maxs.x },
                        if i & 2 == 0 { mins.y } else { maxs.y },
                        if i & 4 == 0 { mins.z } else { maxs.z },
                    ));
                }
                let axes = vec![DVec3::X, DVec3::Y, DVec3::Z];
                (pts, axes.clone(), axes)
            }
            OracleShape::Hull { points } => {
                let mut normals = Vec::new();
                let mut edges = Vec::new();
                for i in 0..points.len() {
                    for j in i + 1..points.len() {
                        if let Some(e) = (points[j] - points[i]).try_normalize() {
                            edges.push(e);
                        }
                        for k in j + 1..points.len() {
                            let n = (points[j] - points[i]).cross(points[k] - points[i]);
                            if let Some(n) = n.try_normalize() {
                                normals.push(n);
                            }
                        }
                    }
                }
                (points.clone(), normals, edges)
            }
            _ => unreachable!("not a polytope"),
        }
    }

    /// First contact of a box or hull sweep with brushes grown by `grow` along every axis,
    /// by the separating-axis theorem over time (exact for convex polytopes).
    fn sat_reference(
        brushes: &[Brush],
        shape: &OracleShape,
        start: DVec3,
        end: DVec3,
        grow: f64,
    ) -> Option<f64> {
        let (pts, normals, edges) = polytope(shape);
        let motion = end - start;
        let mut best: Option<f64> = None;
        for b in brushes {
            let verts = b.vertices();
            let mut axes: Vec<DVec3> = b.sides.iter().map(|s| s.plane.normal).collect();
            axes.extend(&normals);
            for side in &b.sides {
                let w = &side.winding.points;
                for i in 0..w.len() {
                    let be = w[(i + 1) % w.len()] - w[i];
                    for se in &edges {
                        if let Some(n) = be.cross(*se).try_normalize() {
                            axes.push(n);
                        }
                    }
                }
            }
            let (mut t0, mut t1) = (0.0f64, 1.0f64);
            for n in axes {
                let (bmin, bmax) = verts
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |a, p| {
                        (a.0.min(n.dot(*p)), a.1.max(n.dot(*p)))
                    });
                let (smin, smax) = pts.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |a, p| {
                    (a.0.min(n.dot(start + *p)), a.1.max(n.dot(start + *p)))
                });
                let (bmin, bmax) = (bmin - grow, bmax + grow);
                let vn = n.dot(motion);
                // Overlap while smin + t vn <= bmax and smax + t vn >= bmin.
                if vn == 0.0 {
                    if smin > bmax || smax < bmin {
                        t0 = 2.0;
                    }
                } else if vn > 0.0 {
                    t0 = t0.max((bmin - smax) / vn);
                    t1 = t1.min((bmax - smin) / vn);
                } else {
                    t0 = t0.max((bmax - smin) / vn);
                    t1 = t1.min((bmin - smax) / vn);
                }
                if t0 > t1 {
                    break;
                }
            }
            if t0 <= t1 && best.is_none_or(|t| t0 < t) {
                best = Some(t0);
            }
        }
        best
    }

    /// The shape grown (positive) or shrunk (negative) by `by` in every direction, near enough
    /// for bracketing (growing contains the `by`-neighbourhood, shrinking stays inside the
    /// shape); `None` for a point shrunk and for hulls, which the tests bracket otherwise.
    fn resized(shape: &OracleShape, by: f64) -> Option<OracleShape> {
        Some(match shape {
            OracleShape::Point if by > 0.0 => OracleShape::Sphere { radius: by },
            OracleShape::Point | OracleShape::Hull { .. } => return None,
            OracleShape::Sphere { radius } => OracleShape::Sphere {
                radius: radius + by,
            },
            OracleShape::Cylinder {
                radius,
                half_height,
            } => OracleShape::Cylinder {
                radius: radius + by,
                half_height: half_height + by,
            },
            OracleShape::Capsule {
                radius,
                half_height,
            } => OracleShape::Capsule {
                radius: radius + by,
                half_height: *half_height,
            },
            OracleShape::Box { mins, maxs } => OracleShape::Box {
                mins: *mins - by,
                maxs: *maxs + by,
            },
        })
    }

    fn random_shape(rng: &mut Pcg32, kind: usize) -> OracleShape {
        let mut r = |lo: f64, hi: f64| rng.range_f64(lo, hi);
        match kind {
            0 => OracleShape::Point,
            1 => OracleShape::Sphere {
                radius: r(1.0, 32.0),
            },
            2 => OracleShape::Cylinder {
                radius: r(1.0, 32.0),
                half_height: r(1.0, 40.0),
            },
            3 => OracleShape::Capsule {
                radius: r(1.0, 32.0),
                half_height: r(0.0, 40.0),
            },
            4 => {
                let mins = DVec3::new(r(-32.0, -1.0), r(-32.0, -1.0), r(-40.0, -1.0));
                let maxs = DVec3::new(r(1.0, 32.0), r(1.0, 32.0), r(1.0, 40.0));
                OracleShape::Box { mins, maxs }
            }
            _ => {
                let n = 4 + (r(0.0, 7.0) as usize);
                let points = (0..n)
                    .map(|_| DVec3::new(r(-24.0, 24.0), r(-24.0, 24.0), r(-32.0, 32.0)))
                    .collect();
                OracleShape::Hull { points }
            }
        }
    }

    /// A start near a random brush and a move of up to 256 units, a third of them along an axis
    /// and a third from integer coordinates (the degenerate cases of real levels).
    fn random_move(rng: &mut Pcg32, brushes: &[Brush]) -> (DVec3, DVec3) {
        let b = &brushes[rng.below(brushes.len())];
        let (lo, hi) = (b.mins - 96.0, b.maxs + 96.0);
        let mut start = DVec3::new(
            rng.range_f64(lo.x, hi.x),
            rng.range_f64(lo.y, hi.y),
            rng.range_f64(lo.z, hi.z),
        );
        let mut motion = DVec3::new(
            rng.range_f64(-1.0, 1.0),
            rng.range_f64(-1.0, 1.0),
            rng.range_f64(-1.0, 1.0),
        ) * rng.range_f64(0.0, 256.0);
        match rng.below(3) {
            0 => {
                let axis = rng.below(3);
                let len = motion.length();
                motion = DVec3::ZERO;
                motion[axis] = if rng.below(2) == 0 { len } else { -len };
            }
            1 => {
                start = start.round();
                motion = motion.round();
            }
            _ => {}
        }
        (start, start + motion)
    }

    /// The brushes whose bounds meet the swept bounds of `shape` grown by 1: a cull for the
    /// references, independent of the oracle's.
    fn near(brushes: &[Brush], shape: &OracleShape, start: DVec3, end: DVec3) -> Vec<Brush> {
        let (lo, hi) = shape.local_bounds();
        let (slo, shi) = (start.min(end) + lo - 1.0, start.max(end) + hi + 1.0);
        brushes
            .iter()
            .filter(|b| b.mins.cmple(shi).all() && slo.cmple(b.maxs).all())
            .cloned()
            .collect()
    }

    /// Reference first contact by bisection of GJK distances over `brushes` (no casts).
    fn bisect_reference(
        brushes: &[Brush],
        shape: &OracleShape,
        start: DVec3,
        end: DVec3,
    ) -> Option<f64> {
        let o = Oracle::new(brushes);
        let q = super::Query::new(shape);
        let pose = q.pose(start);
        let mut best: Option<f64> = None;
        for e in &o.entries {
            let t = if Oracle::brush_touches(&q, &pose, e) {
                Some(0.0)
            } else {
                Oracle::bisect_first_touch(&q, e, start, end - start)
            };
            if let Some(t) = t
                && best.is_none_or(|b| t < b)
            {
                best = Some(t);
            }
        }
        best
    }

    fn maps_for_random_tests(test: &str) -> Vec<(String, Vec<Brush>)> {
        let mut maps: Vec<(String, Vec<Brush>)> = bundled_maps()
            .iter()
            .map(|(n, p)| (n.clone(), world(p)))
            .collect();
        // Two real maps of different families, when present.
        for (name, path) in real_maps(test) {
            if name.ends_with("e1m2.map") || name.ends_with("kaos.map") {
                maps.push((name, world(&path)));
            }
        }
        maps
    }

    /// Bracket of the exact references (plane clipping, separating axes), in map units.
    const EXACT_EPS: f64 = 1e-5;
    /// Bracket of checks that go through GJK distances, which near contact are good to about
    /// 1e-5 on long brushes (parry's GJK classifies tiny gaps either way).
    const GJK_EPS: f64 = 1e-4;

    /// The oracle's contact must come no earlier than the one of the shape (or brushes) grown
    /// by a margin and no later than the one shrunk by it (`None` = never).
    #[track_caller]
    fn check_bracket(what: &str, got: Option<f64>, early: Option<f64>, late: Option<f64>) {
        let inf = |t: Option<f64>| t.unwrap_or(f64::INFINITY);
        assert!(
            inf(early) <= inf(got) + 1e-12 && inf(got) <= inf(late) + 1e-12,
            "{what}: oracle {got:?} outside [{early:?}, {late:?}]"
        );
    }

    /// Random sweeps of every shape on bundled and real maps, checked against references that
    /// use no shape casts: plane clipping for points, the separating-axis theorem over time for
    /// boxes and hulls, bisection of GJK distances for round shapes; and against the static
    /// queries at the contact position.
    #[test]
    fn oracle_sweeps_match_references() {
        let mut rng = Pcg32::new(0x5eed_0ac1);
        let cases_per_kind = 60;
        let mut worst = [0.0f64; 6];
        let mut hits = [0usize; 6];
        let mut fallbacks = 0;
        for (name, brushes) in maps_for_random_tests("oracle_sweeps_match_references") {
            let o = Oracle::new(&brushes);
            for kind in 0..6 {
                for case in 0..cases_per_kind {
                    let shape = random_shape(&mut rng, kind);
                    let (start, end) = random_move(&mut rng, &brushes);
                    let what = format!("{name} case {case}: {shape:?} {start} -> {end}");
                    let got = o.first_hit(&shape, start, end);
                    let near = near(&brushes, &shape, start, end);
                    let (early, exact, late) = match kind {
                        0 => (
                            point_reference(&near, start, end, EXACT_EPS),
                            point_reference(&near, start, end, 0.0),
                            point_reference(&near, start, end, -EXACT_EPS),
                        ),
                        4 | 5 => (
                            sat_reference(&near, &shape, start, end, EXACT_EPS),
                            sat_reference(&near, &shape, start, end, 0.0),
                            sat_reference(&near, &shape, start, end, -EXACT_EPS),
                        ),
                        _ => (
                            bisect_reference(&near, &resized(&shape, GJK_EPS).unwrap(), start, end),
                            bisect_reference(&near, &shape, start, end),
                            bisect_reference(
                                &near,
                                &resized(&shape, -GJK_EPS).unwrap(),
                                start,
                                end,
                            ),
                        ),
                    };
                    check_bracket(&what, got, early, late);
                    if let (Some(a), Some(b)) = (got, exact) {
                        hits[kind] += 1;
                        worst[kind] = worst[kind].max((a - b).abs() * (end - start).length());
                    }
                    // At the contact, the shape touches: grown it overlaps, shrunk it does not.
                    let Some(t) = got else { continue };
                    let at = start + (end - start) * t;
                    if let Some(grown) = resized(&shape, GJK_EPS) {
                        assert!(
                            o.overlaps(&grown, at),
                            "{what}: grown shape free at contact"
                        );
                    }
                    if t > 0.0
                        && let Some(shrunk) = resized(&shape, -GJK_EPS)
                    {
                        assert!(
                            !o.overlaps(&shrunk, at),
                            "{what}: shrunk shape stuck at contact"
                        );
                    }
                    if kind == 0 {
                        assert!(near.iter().any(|b| b.contains(at, EXACT_EPS)), "{what}");
                        assert!(
                            t == 0.0 || !near.iter().any(|b| b.contains(at, -EXACT_EPS)),
                            "{what}: point inside at contact"
                        );
                    }
                }
            }
            fallbacks += o.cast_fallbacks();
        }
        println!("hits per kind {hits:?}");
        println!("worst |oracle - reference| in map units per kind {worst:?}");
        println!("cast fallbacks: {fallbacks}");
        let continued = super::GJK_CONTINUED.load(std::sync::atomic::Ordering::Relaxed);
        println!("GJK distance runs continued past parry's limit (all tests so far): {continued}");
    }

    /// Overlap and distance agree with each other, with resized shapes and with an unculled
    /// scan; points agree with the brush planes.
    #[test]
    fn oracle_overlap_and_distance_agree() {
        let mut rng = Pcg32::new(0x0d15_7a9c);
        let (mut overlapping, mut total) = (0, 0);
        for (name, brushes) in maps_for_random_tests("oracle_overlap_and_distance_agree") {
            let o = Oracle::new(&brushes);
            for kind in 0..6 {
                for case in 0..100 {
                    let shape = random_shape(&mut rng, kind);
                    let (at, _) = random_move(&mut rng, &brushes);
                    let what = format!("{name} case {case}: {shape:?} at {at}");
                    let overlaps = o.overlaps(&shape, at);
                    let d = o.distance(&shape, at, 64.0);
                    assert_eq!(overlaps, d <= TOUCH, "{what}: distance {d}");
                    let q = super::Query::new(&shape);
                    let pose = q.pose(at);
                    let brute = o
                        .entries
                        .iter()
                        .map(|e| Oracle::brush_distance(&q, &pose, e))
                        .fold(64.0f64, f64::min);
                    assert_eq!(d, brute, "{what}: culled {d} vs unculled {brute}");
                    if kind == 0 {
                        let inside = |grow: f64| brushes.iter().any(|b| b.contains(at, grow));
                        assert!(!inside(-EXACT_EPS) || overlaps, "{what}");
                        assert!(inside(EXACT_EPS) || !overlaps, "{what}");
                    }
                    if let Some(grown) = resized(&shape, GJK_EPS) {
                        assert!(o.overlaps(&grown, at) || !overlaps, "{what}");
                        let dg = o.distance(&grown, at, 64.0);
                        assert!(dg <= d, "{what}: grown {dg} > {d}");
                        assert!(d >= 64.0 || dg >= d - 2.0 * GJK_EPS, "{what}: {dg} vs {d}");
                    }
                    if let Some(shrunk) = resized(&shape, -GJK_EPS) {
                        assert!(!o.overlaps(&shrunk, at) || overlaps, "{what}");
                    }
                    overlapping += usize::from(overlaps);
                    total += 1;
                }
            }
        }
        println!("{overlapping} of {total} placements overlap");
    }

    /// The bounds of a brush that is an axis-aligned box, else `None`.
    fn axial_box(b: &Brush) -> Option<(DVec3, DVec3)> {
        let axial = b.sides.len() == 6
            && b.sides.iter().all(|s| {
                let n = s.plane.normal.abs();
                n.max_element() == 1.0 && n.element_sum() == 1.0
            });
        axial.then_some((b.mins, b.maxs))
    }

    /// Signed distance from `p` to the box `lo..hi` (negative inside).
    fn box_sd(p: DVec3, lo: DVec3, hi: DVec3) -> f64 {
        let out = (lo - p).max(p - hi);
        if out.max_element() > 0.0 {
            out.max(DVec3::ZERO).length()
        } else {
            out.max_element()
        }
    }

    /// Exact signed distance from `shape` with its reference point at `c` to the box `lo..hi`,
    /// through the Minkowski sum of box and shape (exact for these shapes and boxes).
    fn shape_box_sd(shape: &OracleShape, c: DVec3, lo: DVec3, hi: DVec3) -> f64 {
        match shape {
            OracleShape::Point => box_sd(c, lo, hi),
            OracleShape::Sphere { radius } => box_sd(c, lo, hi) - radius,
            OracleShape::Box { mins, maxs } => box_sd(c, lo - *maxs, hi - *mins),
            OracleShape::Capsule {
                radius,
                half_height,
            } => {
                let h = DVec3::new(0.0, 0.0, *half_height);
                box_sd(c, lo - h, hi + h) - radius
            }
            OracleShape::Cylinder {
                radius,
                half_height,
            } => {
                let out = (lo - c).max(c - hi);
                let (ox, oy) = (out.x, out.y);
                let dxy = if ox > 0.0 || oy > 0.0 {
                    ox.max(0.0).hypot(oy.max(0.0))
                } else {
                    ox.max(oy)
                } - radius;
                let dz = out.z - half_height;
                if dxy <= 0.0 && dz <= 0.0 {
                    dxy.max(dz)
                } else {
                    dxy.max(0.0).hypot(dz.max(0.0))
                }
            }
            OracleShape::Hull { .. } => unreachable!("no closed form"),
        }
    }

    /// First fraction at which the (convex in t) signed distance `sd` drops to `level`.
    fn first_at_most(sd: impl Fn(f64) -> f64, level: f64) -> Option<f64> {
        if sd(0.0) <= level {
            return Some(0.0);
        }
        let g = (5f64.sqrt() - 1.0) / 2.0;
        let (mut a, mut b) = (0.0f64, 1.0f64);
        let mut inside = (sd(1.0) <= level).then_some(1.0);
        let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
        let (mut fc, mut fd) = (sd(c), sd(d));
        for _ in 0..200 {
            if inside.is_some() || b - a <= 1e-15 {
                break;
            }
            if fc <= level {
                inside = Some(c);
            } else if fd <= level {
                inside = Some(d);
            } else if fc < fd {
                (b, d, fd) = (d, c, fc);
                c = b - g * (b - a);
                fc = sd(c);
            } else {
                (a, c, fc) = (c, d, fd);
                d = a + g * (b - a);
                fd = sd(d);
            }
        }
        let (mut lo, mut hi) = (0.0f64, inside?);
        while lo < hi {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if sd(mid) <= level {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        Some(hi)
    }

    /// Against brushes that are axis-aligned boxes, where every shape but the hull has a closed
    /// form: sweeps, overlaps and distances of the oracle against exact signed distances.
    #[test]
    fn oracle_matches_closed_forms_on_axial_boxes() {
        let mut rng = Pcg32::new(0xa1a1_b0c5);
        let mut worst_hit = [0.0f64; 5];
        let mut worst_dist = [0.0f64; 5];
        let mut hits = [0usize; 5];
        let mut boxes_total = 0;
        for (name, brushes) in maps_for_random_tests("oracle_matches_closed_forms_on_axial_boxes") {
            let boxes: Vec<Brush> = brushes
                .iter()
                .filter(|b| axial_box(b).is_some())
                .cloned()
                .collect();
            if boxes.is_empty() {
                continue;
            }
            boxes_total += boxes.len();
            let bounds: Vec<(DVec3, DVec3)> = boxes.iter().filter_map(axial_box).collect();
            let o = Oracle::new(&boxes);
            for kind in 0..5 {
                for case in 0..80 {
                    let shape = random_shape(&mut rng, kind);
                    let (start, end) = random_move(&mut rng, &boxes);
                    let what = format!("{name} case {case}: {shape:?} {start} -> {end}");
                    let (lo, hi) = shape.local_bounds();
                    let (slo, shi) = (start.min(end) + lo - 65.0, start.max(end) + hi + 65.0);
                    let bounds: Vec<(DVec3, DVec3)> = bounds
                        .iter()
                        .filter(|(bl, bh)| bl.cmple(shi).all() && slo.cmple(*bh).all())
                        .copied()
                        .collect();
                    let sd = |t: f64| {
                        let c = start + (end - start) * t;
                        bounds
                            .iter()
                            .map(|(lo, hi)| shape_box_sd(&shape, c, *lo, *hi))
                            .fold(f64::INFINITY, f64::min)
                    };
                    // The minimum over boxes of convex functions is not convex: take the
                    // earliest contact over boxes, each convex on its own.
                    let first = |level: f64| {
                        bounds
                            .iter()
                            .filter_map(|(lo, hi)| {
                                first_at_most(
                                    |t| shape_box_sd(&shape, start + (end - start) * t, *lo, *hi),
                                    level,
                                )
                            })
                            .reduce(f64::min)
                    };
                    let got = o.first_hit(&shape, start, end);
                    let exact = first(0.0);
                    check_bracket(&what, got, first(EXACT_EPS), first(-EXACT_EPS));
                    if let (Some(a), Some(b)) = (got, exact) {
                        hits[kind] += 1;
                        worst_hit[kind] =
                            worst_hit[kind].max((a - b).abs() * (end - start).length());
                    }
                    let d0 = sd(0.0);
                    let got_d = o.distance(&shape, start, 64.0);
                    let want_d = d0.clamp(0.0, 64.0);
                    worst_dist[kind] = worst_dist[kind].max((got_d - want_d).abs());
                    assert!(
                        (got_d - want_d).abs() <= GJK_EPS,
                        "{what}: distance {got_d} vs {want_d}"
                    );
                    let overlaps = o.overlaps(&shape, start);
                    assert!(d0 > -GJK_EPS || overlaps, "{what}: sd {d0} but free");
                    assert!(d0 < GJK_EPS || !overlaps, "{what}: sd {d0} but overlapping");
                }
            }
        }
        println!("{boxes_total} axial box brushes; hits per kind {hits:?}");
        println!("worst sweep error (map units) per kind {worst_hit:?}");
        println!("worst distance error (map units) per kind {worst_dist:?}");
    }

    /// How fast the queries are on the largest map at hand (printed, not asserted).
    #[test]
    fn oracle_query_speed() {
        let mut maps = maps_for_random_tests("oracle_query_speed");
        maps.sort_by_key(|(_, b)| b.len());
        let Some((name, brushes)) = maps.pop() else {
            return;
        };
        let o = Oracle::new(&brushes);
        let mut rng = Pcg32::new(7);
        for kind in 0..6 {
            let shape = random_shape(&mut rng, kind);
            let moves: Vec<_> = (0..2000).map(|_| random_move(&mut rng, &brushes)).collect();
            let t = Instant::now();
            let hits = moves
                .iter()
                .filter(|(s, e)| o.first_hit(&shape, *s, *e).is_some())
                .count();
            let sweep = t.elapsed().as_secs_f64() / moves.len() as f64;
            let t = Instant::now();
            let over = moves.iter().filter(|(s, _)| o.overlaps(&shape, *s)).count();
            let overlap = t.elapsed().as_secs_f64() / moves.len() as f64;
            let t = Instant::now();
            let dist: f64 = moves
                .iter()
                .map(|(s, _)| o.distance(&shape, *s, 32.0))
                .sum();
            let distance = t.elapsed().as_secs_f64() / moves.len() as f64;
            println!(
                "{name} ({} brushes) kind {kind}: first_hit {:.1} us ({hits} hits), overlaps {:.1} us ({over}), distance {:.1} us (sum {dist:.0})",
                brushes.len(),
                sweep * 1e6,
                overlap * 1e6,
                distance * 1e6
            );
        }
    }
}
