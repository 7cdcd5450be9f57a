//! Every tolerance and limit in planeshift, in one place, with its unit and its reason.
//!
//! Takes nothing, gives named constants. Guarantees (checked at compile time below): the
//! build-time epsilons are ordered so that plane merging is finer than face classification,
//! and the world limit leaves many f32 ulps of room for the runtime stop distance.
//!
//! Build-time values are `f64` (the compiler works in double precision, as ericw-tools does);
//! runtime values are `f32`.

/// Largest absolute coordinate accepted in a map, in map units.
///
/// Quake maps live within ±4096 and Quake 3 maps within ±65536. 2^18 leaves room for
/// generous community maps while keeping the f32 runtime's ulp (1/64 unit at 2^18) well below
/// the stop distance. A brush with a point beyond it is rejected with a diagnostic.
pub const MAX_MAP_COORD: f64 = 262_144.0;

/// Largest absolute coordinate of a face's three defining points, in map units.
///
/// Editors may write a face's points far along its plane (NetRadiant's `brushDef` sky slabs in
/// the lost level void2 sit at 128,000,000): only the plane they define matters, and a brush
/// is rejected when its corners, not its defining points, pass [`MAX_MAP_COORD`]. At 2^30 the
/// products of coordinate differences (below 2^62) keep a plane's normal to f64's relative
/// precision, so its distance moves by well under 1e-6 unit at the map's corners.
pub const MAX_PLANE_POINT_COORD: f64 = 1_073_741_824.0;

/// Half the side of the square from which every face winding is cut, in map units.
///
/// It must exceed [`MAX_MAP_COORD`] by a wide margin, so that a winding point still at this
/// distance after clipping proves that the brush is open on that side.
pub const BASE_WINDING_EXTENT: f64 = 4.0 * MAX_MAP_COORD;

/// A unit normal's component smaller than this is zeroed (unitless: about the angle, in
/// radians, that the component tilts the normal by; `geom::plane`).
///
/// ericw-tools uses 1e-6 for plane equality. Zeroing happens when the plane is created,
/// before any validity check, so that narrowing to f32 later never tilts an axial plane
/// (the Source VBSP bug #1903 came from snapping after validation). Comparing a component
/// with ±1 instead would snap normals up to 1.4e-3 rad off an axis (1 − cos θ ≈ θ²/2).
pub const NORMAL_EPSILON: f64 = 1e-6;

/// A face's plane is snapped onto an axis (or loses a small normal component) only when no
/// corner of the face moves by more than this, in map units (`BuildPlane::snapped`).
///
/// Editors write axial faces with rounding noise (a point at 127.99999) that this absorbs;
/// a face the author tilted keeps its tilt: 0.0005 rad over a 64-unit face is 0.016 units.
/// 1/32 of the stop distance ([`SURFACE_CLIP_EPSILON`]), so a snapped face never moves a
/// stop noticeably, and the size of [`BEVEL_ACCEPT_EPSILON`], the other rounding the
/// compiler tolerates in a brush's shape.
pub const SNAP_MOVE_EPSILON: f64 = 1e-3;

/// Two planes whose distances differ by less than this are the same plane, in map units.
///
/// ericw-tools' value. Far below the 1/8-unit features seen in real maps.
pub const DIST_EPSILON: f64 = 1e-4;

/// A point this close to a plane lies on it when windings are clipped, in map units.
///
/// Small, because a winding clipped with a fat epsilon loses thin brushes (a real map has a
/// 0.1-unit-thick brush). Large enough to absorb f64 rounding at [`MAX_MAP_COORD`].
pub const CLIP_EPSILON: f64 = 1e-6;

/// The cross product of a face's point differences must be at least this long, in square map
/// units, or the three points are collinear and the face is dropped.
///
/// Real faces span whole units; 1e-9 only rejects truly collinear or coincident points.
pub const MIN_CROSS_LENGTH: f64 = 1e-9;

/// A brush whose volume is below this is rejected as having no volume, in cubic map units.
///
/// A 0.125-unit micro brush of one square unit has 0.125; this only rejects flat brushes.
pub const MIN_BRUSH_VOLUME: f64 = 1e-3;

const _: () = assert!(CLIP_EPSILON < DIST_EPSILON);
const _: () = assert!(NORMAL_EPSILON < DIST_EPSILON);
const _: () = assert!(SNAP_MOVE_EPSILON <= BEVEL_ACCEPT_EPSILON);
const _: () = assert!(SNAP_MOVE_EPSILON * 16.0 < SURFACE_CLIP_EPSILON as f64);
const _: () = assert!(MAX_MAP_COORD < BASE_WINDING_EXTENT);
const _: () = assert!(MAX_MAP_COORD < MAX_PLANE_POINT_COORD);

/// A fragment vertex within this of a candidate splitter counts as on it, in map units.
///
/// Fragments straddling a plane by less than this are not split, which keeps the tree from
/// making slivers thinner than any real feature. Leaves are homogeneous up to this distance,
/// which is why point-contents tests leave out points this close to a brush plane.
pub const SPLIT_EPSILON: f64 = 1e-3;

/// Width of a plane-table hash bucket along the plane distance, in map units.
///
/// Lookups also search the neighbouring bucket an epsilon reaches, so a distance near a
/// bucket boundary is still found (Quake 2 `FindFloatPlane`), and take the earliest match:
/// the width changes only the speed, never the table. Quake 2's 8 units put thousands of
/// planes in one bucket on a map with curved patches (every facet's axial bevels lie at its
/// own fractional bounds), and each lookup walked them all (am_icyhell: a tenth of the
/// compile); an eighth of a unit keeps a handful, far wider than [`DIST_EPSILON`].
pub const PLANE_HASH_BUCKET: f64 = 0.125;
const _: () = assert!(DIST_EPSILON * 100.0 < PLANE_HASH_BUCKET);

/// Width of a plane-table hash bucket along each normal component (unitless). The table
/// also keys planes by their normal, so a map with a million planes (fine patches: every
/// facet's planes differ) keeps a handful per bucket; a normal within [`NORMAL_EPSILON`] of
/// a bucket boundary is also looked up across it.
pub const PLANE_HASH_NORMAL_BUCKET: f64 = 1.0 / 1024.0;

/// A bevel is accepted only when every vertex of its brush lies at most this far in front
/// of it, in map units. Bevels must never cut into their brush, or point contents and the
/// sweeps would disagree; 1e-3 only absorbs the rounding of snapped normals.
pub const BEVEL_ACCEPT_EPSILON: f64 = 1e-3;

/// Brush edges shorter than this generate no edge bevels, in map units (ericw-tools'
/// `EDGE_LENGTH_EPSILON`). Shorter edges come from rounding, not from the author.
pub const MIN_EDGE_LENGTH: f64 = 0.2;

/// A patch facet's edges shorter than this generate no edge bevels, in map units: a
/// sixteenth of the weld distance ([`PATCH_WELD_EPSILON`]). A facet's corners are computed
/// in f64 from its surface (never rounded from a file, off their planes by about 1e-9), so
/// the direction of an edge this long is still good to about 1e-5; a bevel tilted by that
/// fails the acceptance test (which keeps only planes that support the brush) rather than
/// cutting it. Bevelling the short edges of a curved patch's thin slabs makes them
/// box-exact, so box sweeps cull by their own size near patches.
pub const MIN_PATCH_EDGE_LENGTH: f64 = PATCH_WELD_EPSILON / 16.0;

/// An edge whose direction is within this (the sine of the angle, unitless) of an axis is
/// treated as axis-parallel and crossing it with that axis makes no bevel (ericw-tools'
/// ANGLEEPSILON).
pub const BEVEL_ANGLE_EPSILON: f64 = 1e-6;

/// A bevel whose normal is within this angle of a side's or an earlier bevel's (the sine,
/// unitless) is not added: it would nearly repeat that plane (the two shifted planes differ
/// by at most this × the shape's extent, 0.03 units for a 64-unit box), and f32 normals closer
/// than 4.5e-4 rad compare as one. Bevel normals were snapped onto an axis by comparing a
/// component with ±1 (up to 1.4e-3 rad off), and edges that close to an axis made no edge
/// bevels; with both tests linear in the angle, an edge 1e-4 rad off an axis makes edge
/// bevels this close to the axial ones (measured on `am_icyhell.map`).
pub const BEVEL_SAME_NORMAL_SINE: f64 = 5e-4;

/// The f32 runtime accepts a stored normal whose length is within this of 1 (unitless).
pub const LOAD_NORMAL_TOLERANCE: f32 = 1e-3;

const _: () = assert!(CLIP_EPSILON < SPLIT_EPSILON);
const _: () = assert!(DIST_EPSILON < SPLIT_EPSILON);
const _: () = assert!(SPLIT_EPSILON < MIN_EDGE_LENGTH);

/// Largest plane distance or coordinate accepted in a compiled file, in map units: the
/// farthest a plane through a point within [`MAX_MAP_COORD`] can be from the origin, with
/// room to spare.
pub const MAX_COMPILED_COORD: f32 = 2.0 * MAX_MAP_COORD as f32;

/// Largest size of a sweep's shape, in map units: a sphere's, cylinder's or capsule's radius
/// and half height, and every coordinate of a box's corners or a hull's points (relative to
/// the reference point), must be at most this.
///
/// Quake's largest monster hull is 64 units across and a controller's character at most a
/// few thousand (`ControllerConfig`'s limits, `src/controller/config.rs`); 16,384 leaves
/// room for any moving thing a game sweeps while keeping a shifted plane, a coordinate plus
/// a support distance, within a few percent of [`MAX_COMPILED_COORD`], so nothing a sweep
/// computes overflows or loses the stop distance to rounding more than at the world limit.
pub const MAX_SHAPE_EXTENT: f32 = 16_384.0;

/// Most points a hull shape may have. A sweep reads every point per plane it shifts and per
/// GJK support query, so its cost grows with the count; a character or projectile hull
/// needs a few dozen, and one of more should be simplified first.
pub const MAX_HULL_POINTS: usize = 1024;

/// How far a sweep stops in front of the surface it hits, in map units (the stop distance).
///
/// Quake 1/2's `DIST_EPSILON`. The hit fraction is pulled back so that the end sits this far in
/// front of the binding shifted plane, so the end is never inside solid and the next sweep
/// from it starts outside. 1/32 is 64 f32 ulps at Quake's ±4096 and 8 ulps at ±32768; Quake 3
/// uses 1/8 for network snapping, which a library does not need.
pub const SURFACE_CLIP_EPSILON: f32 = 1.0 / 32.0;

/// Quake 3's stop distance (`cm_local.h` `SURFACE_CLIP_EPSILON` 0.125), which a sweep asks
/// for with [`CompiledMap::trace_stopping`](crate::CompiledMap::trace_stopping) or
/// [`ShapeQuery::with_stop_distance`](crate::movement::ShapeQuery::with_stop_distance): the
/// Quake 3 movement profile sweeps with it, so a player rests 1/8 above the floor as in the
/// game.
pub const QUAKE3_STOP_DISTANCE: f32 = 0.125;

/// The longest stop distance a sweep may ask for, in map units: a sweep pads its segment and
/// its cull by the stop distance, so a long one costs culling; 1 unit is 8 times Quake 3's.
pub const MAX_STOP_DISTANCE: f32 = 1.0;

const _: () = assert!(SURFACE_CLIP_EPSILON < QUAKE3_STOP_DISTANCE);
const _: () = assert!(QUAKE3_STOP_DISTANCE <= MAX_STOP_DISTANCE);

/// Extra reach of a sweep when deciding which side of a node plane it can touch, in map
/// units. Node planes only cull; the margin must exceed the compiler's [`SPLIT_EPSILON`],
/// the f32 rounding of planes at the world limit and [`SURFACE_CLIP_EPSILON`] (Quake 3 adds
/// 1 unit for the same reason).
pub const TREE_CULL_MARGIN: f32 = 0.125;

/// Deepest tree a compiled file may hold. Tree walks recurse, so this bounds their stack
/// use; real maps stay below 100.
pub const MAX_TREE_DEPTH: u32 = 1024;

/// The longest key or value an entity may hold in a compiled file, in bytes. Quake 3 reads
/// at most 1,024 characters a token (`MAX_TOKEN_CHARS`); the limit leaves room for long
/// editor notes while keeping a crafted file from holding one huge string per entity.
pub const MAX_ENTITY_STRING: usize = 65_536;

/// The most key/values an entity may hold in a compiled file. Quake 3 spawns at most 64 per
/// entity (`MAX_SPAWN_VARS`); the limit is generous for editor data and bounds a crafted file.
pub const MAX_ENTITY_PROPERTIES: usize = 4_096;

/// Brushes a sweep remembers as already tested, so that a brush listed in several leaves is
/// clipped once (Quake's `checkcount`, without shared mutable state). A brush beyond this is
/// clipped again, which is correct, only slower.
pub const TRACE_SEEN_BRUSHES: usize = 32;

/// When a sweep reports its contact point, a hit normal's component within this of zero
/// counts as zero (unitless), and hull points within this fraction of the farthest count as
/// farthest, so a box resting on a floor touches at the middle of its bottom rather than at
/// a corner picked by f32 rounding. 1e-4 is about 0.006°.
pub const CONTACT_TIE: f32 = 1e-4;

const _: () = assert!((SURFACE_CLIP_EPSILON as f64) < (TREE_CULL_MARGIN as f64));
const _: () = assert!(MAX_SHAPE_EXTENT * 16.0 <= MAX_COMPILED_COORD);
const _: () = assert!(SPLIT_EPSILON < TREE_CULL_MARGIN as f64);

/// The local reach κ that rounding bevels bring every brush edge and vertex down to
/// (unitless, ≥ 1). A sphere of radius r then stops at most (κ − 1)·r = 0.15·r before the
/// true contact anywhere on the brush (`brush::reach`), and sweeps cull node planes with a
/// reach at most 15 % above the true one. Lower is tighter but costs bevels: 1.05 gives a
/// 1,700-brush map 77 planes a brush and 0.9 s of compile, against 23 and 0.14 s at 1.15
/// (measured).
pub const ROUNDING_REACH: f64 = 1.15;

/// Most rounding bevels added at one vertex; bounds the cost of needle-sharp tips, whose
/// reach then stays above [`ROUNDING_REACH`] (still conservative, culled with the true κ).
pub const MAX_VERTEX_ROUNDING: usize = 12;

/// Largest brush reach a compiled file may hold (unitless). A needle-sharp tip can reach
/// far, but a reach this large only means the brush is never culled.
pub const MAX_BRUSH_REACH: f32 = 1e6;

/// A bevel's generating edge lies on the faces it bevels to within this, in map units: the
/// faces whose surface flags and material the bevel carries (`brush::bevel_source_face`).
/// Loose, because it only chooses among faces through the edge (a corner of a built brush
/// lies within [`CLIP_EPSILON`] of its faces) and a wrong choice changes no geometry.
pub const BEVEL_SOURCE_EPSILON: f64 = 1e-3;

/// Two brush corners closer than this are the same point, in map units. Windings of one
/// brush are cut from the same planes, so a shared corner agrees to rounding (far below
/// [`CLIP_EPSILON`]).
pub const SAME_POINT_EPSILON: f64 = 1e-6;

/// Slack on the unit-scale constraints of a vertex's reach region (unitless): a corner of
/// `{ z : n·z <= 1 }` counts as inside a constraint it exceeds by less than this, and as
/// supported by its vertex when no brush corner lies further along it by more than this
/// fraction of the brush's size.
pub const CORNER_SLACK: f64 = 1e-9;

// ---- Leaks and the outside (src/leak/) ----

/// How far the outside box of the leak analysis reaches beyond the world's bounds, in map
/// units (ericw-tools' `SIDESPACE`). The void between the bounds and the box is the leaves
/// that touch the outside; with the outside filled it becomes a solid shell this thick, and
/// a leak trail ends on the box, this far out. Clamped to [`MAX_MAP_COORD`], so filled
/// brushes stay within the map's limit.
pub const OUTSIDE_MARGIN: f64 = 24.0;

/// How far a point entity's origin is raised before its leaf is looked up, in map units
/// (qbsp3 `FloodEntities`: "so objects on floor are ok"): an item standing on a floor would
/// otherwise sit exactly on the floor's plane.
pub const SEED_RAISE: f64 = 1.0;

/// A portal with fewer than three edges longer than this is tiny and dropped, in map units
/// (qbsp3's `WindingIsTiny`, `EDGE_LENGTH`): slivers cut from portals by nearby planes are
/// rounding, not openings, and no player passes a gap this thin.
pub const PORTAL_TINY_EDGE: f64 = 0.2;

const _: () = assert!(SPLIT_EPSILON < PORTAL_TINY_EDGE);
const _: () = assert!(SEED_RAISE < OUTSIDE_MARGIN);

// ---- Character controller (stage 6) ----

/// Quake 3's `OVERCLIP` (unitless): a velocity clipped against a plane keeps this much more
/// than its inward part removed, so it leaves the plane by 0.1 % of its inward speed and the
/// next sweep does not re-hit the plane it slides on through rounding.
pub const OVERCLIP: f32 = 1.001;

/// Most contact planes one slide move keeps (Quake 3 `MAX_CLIP_PLANES` 5); more means the
/// character is boxed in, and it stops.
pub const MAX_CLIP_PLANES: usize = 5;

/// Most sweeps in one slide move (Quake 3 `numbumps` 4).
pub const MAX_BUMPS: usize = 4;

/// Two contact normals whose dot product exceeds this are the same plane met again (unitless,
/// Quake 3's 0.99) when the velocity no longer enters the new one (the hit is rounding): the
/// character is nudged off it by one unit per second instead of adding a near-duplicate
/// constraint. A near-parallel plane the velocity still enters is a real crease and is
/// added (`controller/slide.rs`).
pub const SAME_PLANE_DOT: f32 = 0.99;

/// Most touch events one tick reports (Quake 3 `MAXTOUCH` 32).
pub const MAX_TOUCHES: usize = 32;

/// A horizontal speed below this stops dead under friction, units/s (Quake 3 `PM_Friction`):
/// the guard against idle creep on slopes.
pub const MIN_MOVE_SPEED: f32 = 1.0;

/// A velocity counts as leaving a constraint plane when its component into the plane is at
/// most this fraction of its speed (unitless). Absorbs f32 rounding in the cone projection.
pub const CONE_SLACK: f32 = 1e-4;

/// Two planes whose normals' cross product is shorter than this are parallel and form no
/// crease (unitless, the sine of the angle between them).
pub const CREASE_MIN_SINE: f32 = 1e-3;

/// A step up must carry the character at least this much farther horizontally than the plain
/// slide to be taken, in units (Source's `COORD_RESOLUTION` 1/32): sliding along a wall, both
/// paths go equally far, and the plain one is kept.
pub const STEP_MIN_GAIN: f32 = 1.0 / 32.0;

/// A snap down or a step counts only when it moves the character more than this, in units
/// (Source `StayOnGround`: half a `COORD_RESOLUTION`).
pub const SNAP_MIN_CHANGE: f32 = 1.0 / 64.0;

/// The smallest unstuck nudge, in units (Source's `CheckStuck` table: 1/8 on each axis).
pub const UNSTUCK_FINE_OFFSET: f32 = 0.125;

/// How far a character looks for a wall it was against last tick, in units: twice the stop
/// distance, plus room for Quake 3's overclip drift off the wall (0.1 % of the inward speed
/// per tick, under 0.003 units at run speed).
pub const WALL_PROBE: f32 = 2.0 * SURFACE_CLIP_EPSILON + 1.0 / 64.0;

/// Longest tick a controller accepts, seconds: Quake 3 never runs one `PmoveSingle` longer
/// than 200 ms.
pub const MAX_TICK: f32 = 0.2;

/// Shortest tick a controller accepts, seconds (10 kHz): far above any game's tick rate,
/// and long enough that a speed times a tick is not lost to rounding against a position.
pub const MIN_TICK: f32 = 1e-4;

/// Largest character height (standing or crouched) a controller accepts, in units: 73
/// Quake players stacked up, room for any giant a game wants, and well within
/// [`MAX_SHAPE_EXTENT`] so every shape made from a config can be swept.
pub const MAX_CHARACTER_HEIGHT: f32 = 4096.0;

/// Largest character half width (box half width, cylinder or capsule radius), in units:
/// half of [`MAX_CHARACTER_HEIGHT`], so a character is at most 4,096 units across.
pub const MAX_CHARACTER_HALF_WIDTH: f32 = MAX_CHARACTER_HEIGHT / 2.0;

/// Largest speed a controller config may hold (run, jump, stop, landing and rise speeds),
/// units/s: over 300 times Quake's run speed and far above any projectile a character
/// could be; at the longest tick ([`MAX_TICK`]) a tick then moves at most 20,000 units,
/// a sweep well within [`MAX_COMPILED_COORD`].
pub const MAX_CONFIG_SPEED: f32 = 100_000.0;

/// Largest gravity a controller config may hold, units/s² (125 times Quake's 800).
pub const MAX_CONFIG_ACCELERATION: f32 = 100_000.0;

/// Largest acceleration or friction rate a controller config may hold, per second (Quake 3
/// uses 10 for ground acceleration and 6 for friction). Both are clamped per tick, so a large
/// rate only means "reach the target speed within a tick".
pub const MAX_CONFIG_RATE: f32 = 1000.0;

/// Longest landing delay before the next jump a controller config may hold, seconds (Quake 3
/// 0.25).
pub const MAX_CONFIG_DELAY: f32 = 60.0;

/// Largest smallest step tread a controller config may ask for, as a fraction of the
/// character's width (Rapier's default is 0.5).
pub const MAX_STEP_TREAD_FRACTION: f32 = 4.0;

/// Most heights the unstuck table climbs through when it looks upwards for a free spot (Quake
/// 1's climb out of a step, one unit at a time up to the step height). Taller step heights
/// space the rungs evenly over the climb instead, so the table's size, and the probes one
/// stuck tick may make, never depend on a config value.
pub const MAX_UNSTUCK_CLIMB_RUNGS: usize = 32;

const _: () = assert!(MIN_TICK < MAX_TICK);
const _: () = assert!(MAX_CHARACTER_HEIGHT <= MAX_SHAPE_EXTENT);
const _: () = assert!(MAX_CONFIG_SPEED * MAX_TICK * 16.0 <= MAX_COMPILED_COORD);
const _: () = assert!(SNAP_MIN_CHANGE < SURFACE_CLIP_EPSILON);
const _: () = assert!(STEP_MIN_GAIN <= SURFACE_CLIP_EPSILON);

// ---- Viewer ----

/// A brush side whose normal has a horizontal part shorter than this is horizontal when the
/// viewer cuts brushes by a horizontal plane (unitless). Near-axial normals are snapped by
/// the compiler, so a floor or ceiling has an exactly zero horizontal part; anything this
/// flat would make a cut line thousands of units away from the brush anyway.
pub const SLICE_FLAT_EPSILON: f32 = 1e-6;

/// A polygon corner this close to a cutting line counts as on it when the viewer clips a
/// brush's horizontal cross-section, in map units. Far below a pixel at any useful zoom and
/// above f32 rounding of plane distances at Quake's ±4096, so a corner on a face is never
/// split into a sliver.
pub const SLICE_CLIP_EPSILON: f32 = 1e-3;

const _: () = assert!((SLICE_CLIP_EPSILON as f64) < MIN_EDGE_LENGTH);

// ---- Exact contacts of spheres, cylinders, capsules and hulls (trace/rounded.rs, trace/gjk.rs) ----

/// A candidate closest point counts as on a brush when it is inside every face plane within
/// this fraction of the coordinates' magnitude (unitless, applied in f64). Absorbs the f32
/// rounding of plane distances, so corners where four planes meet are not lost.
pub const FEATURE_EPSILON: f64 = 1e-6;

/// A shape's contact on a face counts as inside the face's outline only when it is inside
/// every other face plane by this fraction of the coordinates' magnitude (unitless): near an
/// edge, where f32 rounding could misjudge it, the exact refinement decides instead.
pub const FACE_INSIDE_SLACK: f32 = 1e-5;

/// A refined contact is accepted within this of the stop distance, in units. Also how much
/// farther than a shape's support point another point of its core may lie along a face's
/// normal and still count as touching the face (a capsule's two ends against a wall).
pub const ADVANCE_TOLERANCE: f32 = 1.0 / 1024.0;

/// Most advancement steps per brush before a contact search falls back on bisection (a
/// grazing pass); bisection then finds the contact or the miss.
pub const MAX_ADVANCE_STEPS: usize = 32;

/// A sweep against another character's shape stops once its distance is within this of the
/// stop distance, in units (f64): far below the stop distance, so the end stays clear of
/// the other shape, and far above f64 rounding at map coordinates.
pub const BODY_CONTACT_TOLERANCE: f64 = 1e-6;

/// Most Newton steps of a sweep against another character's shape. Each step lands before
/// the contact (the distance is convex in time), so a search cut short stops early, never
/// inside; straight contacts take one step, corners a few.
pub const MAX_BODY_STEPS: usize = 32;

/// What a refined contact's direction from the brush to the shape may be off by through
/// rounding alone, as the sine of the angle (unitless): the Newton steps of the contact
/// search divide by the distance's slope along the sweep, and count it this much steeper
/// than measured, so that rounding can never carry a step past the contact. f64 closest
/// points at ±2^18 are good to about 6e-11 units, so at the stop distance (1/32) or farther
/// their direction is good to 2e-9.
pub const SLOPE_SLACK: f64 = 1e-8;

/// Most faces a brush may have, in the compiler (a brush with more is rejected with a
/// diagnostic) and in a compiled file (validation refuses it). Real maps stay at or below 362
/// (a many-sided cylinder); the cap keeps the per-brush work of deriving corners and edges at
/// load (O(F²) plane tests, `compiled::features`) bounded, so a crafted file cannot make load
/// superlinear in its size.
pub const MAX_BRUSH_FACES: usize = 1024;

/// Plane tests per squared face count that deriving one brush's corners and edges may take
/// (unitless): clipping each face's polygon by the other planes and checking its corners
/// against every plane costs about 12·F² on a many-sided prism (estimated: its caps grow to
/// F corners, its sides stay quadrilaterals) and less on boxes. A brush needing more is
/// degenerate, as only a crafted file can make it, and keeps the plane-shifted hit.
pub const FEATURE_CLIP_BUDGET: usize = 64;

/// Plane tests the whole feature table may take per brush side of a file (unitless), beyond
/// [`FEATURE_WORK_BASE`]. Real maps take about 12·F per side for brushes of F faces (under
/// 500 for the shared corpus's 34-face brushes; a 362-sided prism takes 4,400 per side, which
/// the other brushes' allowance and the base cover); a crafted file of brushes with a
/// thousand faces each would take 12,000, so this bounds load time per byte of file (a side
/// is about three bytes: measured 1.5 µs per byte at most) while no real map comes near it.
pub const FEATURE_WORK_PER_SIDE: usize = 1024;

/// Plane tests the feature table may take whatever the file's size (unitless): 2^25, some
/// tens of milliseconds, enough for a small map of two brushes of a thousand faces each.
pub const FEATURE_WORK_BASE: usize = 1 << 25;

/// GJK stops when its upper and lower bounds on a distance differ by at most this fraction
/// of the coordinates' magnitude, and calls two sets nearer than that touching (unitless,
/// applied in f64). 1e-11 is 4e-8 units at Quake's ±4096 and 3e-6 at [`MAX_MAP_COORD`]:
/// far below [`ADVANCE_TOLERANCE`], and a thousand times above the rounding of support
/// points of that magnitude (2.2e-16 relative), so it is reached, not chased.
pub const GJK_TOLERANCE: f64 = 1e-11;

/// Most support queries in one GJK distance. Polytopes of a few dozen corners converge in
/// under ten; the cap only stops cycling through rounding, and the lower bound returned then
/// is still a true one.
pub const GJK_MAX_ITERATIONS: usize = 32;

/// A GJK triangle whose two edges from its first corner make an angle with a squared sine
/// below this, or a tetrahedron whose squared volume relative to the product of the squared
/// lengths of its edges from its first corner is below this, is too flat to project onto
/// (unitless): its edges and corners, which are well conditioned, give its nearest point.
pub const GJK_FLAT_SINE: f64 = 1e-12;

/// A contact normal whose cosine with a face's normal is within this of 1 is reported as
/// that face (unitless; about 0.08° at 1e-6): the face plane is then a tangent plane at the
/// contact up to that angle, and the contact keeps the face's plane id.
pub const FACE_NORMAL_EPSILON: f64 = 1e-6;

/// On a curved set (a cylinder's rim) GJK also stops when its bounds on a distance differ by
/// at most this, in map units: there each iteration only halves the gap or so, and chasing
/// [`GJK_TOLERANCE`] took all [`GJK_MAX_ITERATIONS`]. A sixteenth of [`ADVANCE_TOLERANCE`]:
/// the contact search steps on the lower bound, so the gap only costs it steps, never
/// safety. It settles only a gap the lower bound proves (above [`GJK_TOLERANCE`]): a small
/// `|v|` alone may be GJK passing near the origin of sets that overlap deeply.
pub const GJK_CURVED_TOLERANCE: f64 = ADVANCE_TOLERANCE as f64 / 16.0;

/// The nearest point of a sloped brush edge to a cylinder (`trace/rounded/cylinder.rs`) is
/// settled once a Newton or bisection step moves it less than this along the edge, in map
/// units (f64): Newton's steps converge quadratically, so the distance is then good to far
/// below f64 rounding at map coordinates (5e-11 units at ±2^18), and the contact search
/// measures a cylinder as exactly as a sphere.
pub const CYLINDER_EDGE_RESOLUTION: f64 = 1e-9;

const _: () = assert!(ADVANCE_TOLERANCE < SURFACE_CLIP_EPSILON);
const _: () = assert!(GJK_TOLERANCE < FEATURE_EPSILON);

// ---- Curved patches (src/patch/) ----

/// How far a patch's facets may lie from its true surface by default, in map units
/// (`CompileOptions::patch_tolerance`).
///
/// Quake 3 subdivides to 16 units per direction, which leaves its collision up to 11 units
/// off the rendered curve (game-semantics.md 4.7). A quarter unit is 8 stop distances: a
/// character's feet stay within a fraction of a unit of a curved floor, and the facet count
/// stays within a few times Quake 3's.
pub const DEFAULT_PATCH_TOLERANCE: f64 = 0.25;

/// The smallest patch tolerance a compile accepts, in map units. Facets grow as the inverse
/// of the tolerance (both directions of a doubly curved piece as its square root), so a
/// hundredth of a unit already costs about 25 times the default's facets; finer is not worth
/// f32 sweeps.
pub const MIN_PATCH_TOLERANCE: f64 = 0.01;

/// The largest patch tolerance a compile accepts, in map units: Quake 3's
/// `SUBDIVIDE_DISTANCE`.
pub const MAX_PATCH_TOLERANCE: f64 = 16.0;

/// How thick a facet's slab is behind the surface, in map units.
///
/// Quake 3's facets have no thickness and collide from the front only; a slab blocks from
/// both sides, so its back is where a patch seen from behind stops a shape. A quarter unit
/// keeps that within half a unit of the true surface (the default tolerance plus this), so a
/// patch is where it is drawn from either side. It is 8 stop distances, so inside tests are
/// robust in f32 at any map coordinate (an f32 ulp at 2^16 is 1/128), longer than
/// [`MIN_EDGE_LENGTH`] (every slab edge gets its edge bevels, so boxes are exact), and a
/// facet of a hundredth of a square unit still has volume. Sweeps are continuous, so no
/// thickness lets a shape through.
pub const PATCH_THICKNESS: f64 = 0.25;

/// Most control points a patch may have per row or per column (Quake 3's `MAX_GRID_SIZE`;
/// q3map2 allows 31). A larger patch is not collided, with a diagnostic.
pub const MAX_PATCH_DIMENSION: usize = 129;

/// Most equal steps one 3×3 piece of a patch is cut into along one direction. 64 steps
/// bring a quarter circle of radius 2,000 within the default tolerance; a piece that needs
/// more is kept at 64 with a diagnostic saying how far from the surface its facets may be.
pub const MAX_PIECE_SUBDIVISIONS: usize = 64;

/// Most grid cells (each one or two facets) of one patch. Real patches need at most a few
/// hundred at the default tolerance; the cap bounds the work and memory of a crafted patch
/// (two facets a cell, each a brush of about thirty sides with bevels).
pub const MAX_PATCH_CELLS: usize = 16_384;

/// Points of a model's patch grids closer than this are one vertex, in map units: a wrapped
/// patch's seam, a collapsed row (a cone's apex) and two patches meeting along a border then
/// share edges, so their facets are mitred together. An eighth of the stop distance and
/// below the finest tolerance, so welding never moves the surface by more than that, and far
/// above the f64 rounding of evaluating one border from two patches.
pub const PATCH_WELD_EPSILON: f64 = 1.0 / 256.0;

/// A grid cell whose four corners lie within this of one plane is one quad facet instead of
/// two triangles, in map units. The straight strips of cylinders and cones are flat to
/// rounding; this is the step (at most) between the fronts of two neighbouring quads, far
/// below the stop distance.
pub const PATCH_PLANAR_EPSILON: f64 = 1e-3;

/// Two facets sharing an edge are mitred (their slabs meet on the plane bisecting them)
/// only when the cosine between their normals is at least this (unitless): up to a right
/// angle. Sharper folds take borders perpendicular to each facet, whose slabs may overlap or
/// leave a wedge behind the edge; the surfaces still meet on it.
pub const PATCH_MITRE_MIN_COS: f64 = 0.0;

/// A border or cap of a facet's slab whose normal is within this angle of another side's
/// (the sine, unitless) is left out: a facet whose consecutive edges are nearly collinear
/// would otherwise have two sides that share a normal once narrowed to f32 (the brush
/// invariant, [`BEVEL_SAME_NORMAL_SINE`]'s reason), and leaving one out moves the slab by at
/// most this times the edge's length behind the surface (a thousandth of a unit for a
/// one-unit edge).
pub const PATCH_SAME_NORMAL_SINE: f64 = 1e-3;

const _: () = assert!(BEVEL_SAME_NORMAL_SINE < PATCH_SAME_NORMAL_SINE);
const _: () = assert!(MIN_PATCH_TOLERANCE <= DEFAULT_PATCH_TOLERANCE);
const _: () = assert!(DEFAULT_PATCH_TOLERANCE <= MAX_PATCH_TOLERANCE);
const _: () = assert!(PATCH_WELD_EPSILON < MIN_PATCH_TOLERANCE);
const _: () = assert!(PATCH_PLANAR_EPSILON < PATCH_WELD_EPSILON);
const _: () = assert!(PATCH_THICKNESS > MIN_EDGE_LENGTH);
const _: () = assert!(MIN_PATCH_EDGE_LENGTH <= MIN_EDGE_LENGTH);
const _: () = assert!(BODY_CONTACT_TOLERANCE * 1024.0 < SURFACE_CLIP_EPSILON as f64);

/// Mesh corners closer than this are one vertex when a mesh's edges are counted, in map
/// units (`mesh/clean.rs`): the weld grid is 1/1024 unit, far below any feature of a level
/// (Quake's T-junction fixes place vertices on float edges, a few ulps off the grid of a
/// hand-made map) and far above f32 rounding of Quake-sized coordinates.
pub const MESH_WELD: f64 = 1.0 / 1024.0;

/// A mesh triangle none of whose altitudes reaches this is degenerate and dropped, in map
/// units (`mesh/clean.rs`): a sliver thinner than the runtime's stop distance
/// ([`SURFACE_CLIP_EPSILON`]) bounds no space a character can tell apart.
pub const MESH_MIN_ALTITUDE: f64 = 1.0 / 64.0;

/// A mesh face's corner this close to a splitting plane lies on it when the solid-leaf BSP
/// sorts faces (`mesh/solid_bsp.rs`), in map units: a Quake face fanned into triangles has
/// its corners on its plane to f32 rounding of the `.bsp`'s vertices (well under 1e-3), and
/// a face this close to a plane never makes a sliver a sweep could notice.
pub const MESH_ON_PLANE_EPSILON: f64 = 0.01;


/// Two mesh faces whose unit normals agree to this in every component share a plane when
/// the mesh stage looks for two-sided surfaces (`mesh/clean.rs`), unitless: about a
/// thousandth of a radian, which moves a 512-unit face by half a unit at its far end, so
/// only faces an author meant to be coplanar meet.
pub const MESH_PLANE_NORMAL_GRID: f64 = 1e-3;
