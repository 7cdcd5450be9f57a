//! Leaks and the outside: which point entity reaches the void around a map, by which way,
//! and (on request) the void of a sealed map filled as solid. Beside stage 2: it reads the
//! parsed map and its brushes, in f64.
//!
//! Takes a [`MapFile`] and its [`Brush`]es, gives [`Outside`]: the first leaking entity in
//! file order with its trail to the void ([`Leak`], whose [`Leak::pointfile_text`] is a
//! `.pts` file), and for a sealed map the brushes that fill its void
//! ([`Outside::fill_brushes`]). The classic compilers' method (qbsp3 `portals.c`, q3map2
//! `portals.cpp`, ericw-tools `outside.cc`):
//!
//! 1. The sealing brushes of the world ([`seals_map`]) make a BSP tree of their own
//!    ([`build_tree`]); a leaf seals when a brush covers it.
//! 2. The tree's portals inside a box around the world (its bounds grown by
//!    [`OUTSIDE_MARGIN`]), and portals from the box's faces to the outside (`portals.rs`).
//! 3. Seeds: every entity but `worldspawn` that has no brushes or patches and whose `origin`
//!    is not (0, 0, 0), raised [`SEED_RAISE`]; a seed in a sealing leaf is ignored.
//! 4. A breadth-first flood from the outside through open leaves (`flood.rs`): the first seed
//!    (in file order) whose leaf it reaches, or that lies beyond the box, leaks. Its trail is
//!    its raised origin, then the centres of the portals on a shortest way out (fewest
//!    portals), ending on the box.
//! 5. For the fill, a flood from every seed; each open leaf it does not reach becomes a
//!    convex brush of `SOLID | OUTSIDE` (its region: the ancestors' half-spaces and the box).
//!
//! Guarantees: each trail segment runs inside one open leaf (a convex region no sealing brush
//! enters beyond [`SPLIT_EPSILON`]), so the trail is open space; its last point lies on the
//! box, outside the world's bounds. No seeds means no leak and no fill. Brush entities are
//! not seeds, as q3map2 has it: a mover may travel a path that starts outside the map.
//! Nothing here panics on any map: degenerate regions become [`Diagnostic`]s.

mod flood;
mod pointfile;
mod portals;

use std::collections::HashSet;

use glam::DVec3;

use crate::brush::{Brush, BrushOwner, Diagnostic, DiagnosticKind, Severity, brush_from_planes};
use crate::bsp::{BrushInput, BspTree, Child, PlaneTable, build_tree};
use crate::contents::Contents;
use crate::map::{MapFile, SourceLoc};
use crate::tolerance::{MAX_MAP_COORD, MIN_BRUSH_VOLUME, SEED_RAISE};
use portals::{OutsideBox, Parents, make_portals};

#[cfg(doc)]
use crate::tolerance::{OUTSIDE_MARGIN, SPLIT_EPSILON};

/// A point entity that reaches the void around the map: the map leaks there.
///
/// ```
/// let src = br#"{ "classname" "worldspawn" }
/// { "classname" "info_player_start" "origin" "0 0 24" }"#;
/// let leak = planeshift::compile_map(src)?.leak.expect("nothing seals the map");
/// assert_eq!((leak.entity, leak.classname.as_str()), (1, "info_player_start"));
/// assert_eq!(leak.trail[0], glam::DVec3::new(0.0, 0.0, 25.0));
/// assert!(leak.pointfile_text().lines().count() >= 2);
/// # Ok::<(), planeshift::CompileError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Leak {
    /// The entity's index in [`MapFile::entities`] (file order; 0 is usually `worldspawn`).
    pub entity: usize,
    /// Its `classname` (empty when it has none).
    pub classname: String,
    /// Its `origin` key, as written.
    pub origin: DVec3,
    /// The way out, in map units: the origin raised by 1 unit (where the flood starts), then
    /// the centre of each portal crossed on a shortest way to the void (fewest portals),
    /// ending outside the world's bounds. At least two distinct points; each segment is open
    /// space as far as the sealing brushes go.
    pub trail: Vec<DVec3>,
}

impl Leak {
    /// The trail as a pointfile (`.pts`): one `x y z` line per point, from the entity to the
    /// void, which TrenchBroom (File ▸ Load Point File) and Quake's `pointfile` command load.
    /// Only the trail's corners are written, as ericw-tools' qbsp does.
    #[must_use]
    pub fn pointfile_text(&self) -> String {
        pointfile::text(&self.trail)
    }
}

/// What the leak analysis found (see the module doc).
#[derive(Clone, Debug)]
pub struct Outside {
    /// The first leaking entity in file order, or `None` (a sealed map, or no seeds).
    pub leak: Option<Leak>,
    /// Seeds in open space (point entities with an origin not inside a sealing brush).
    pub seeds: usize,
    /// Leaves of the sealing tree.
    pub leaves: usize,
    /// Of those, the leaves that seal (a sealing brush covers them).
    pub sealing_leaves: usize,
    /// Portals between leaves and to the outside.
    pub portals: usize,
    /// Everything the fill needs: the tree, its planes and the leaves' fates.
    fill: Option<FillPlan>,
}

/// The open leaves no seed reaches, with what their regions need.
#[derive(Clone, Debug)]
struct FillPlan {
    tree: BspTree,
    planes: PlaneTable,
    outside: OutsideBox,
    leaves: Vec<u32>,
    loc: SourceLoc,
}

/// Whether `brush` seals the map: a world brush of solid or sky (what stops the flood in
/// every compiler: qbsp3 `Portal_EntityFlood` CONTENTS_SOLID, ericw-tools `seals_map` solid
/// or sky) that is not detail, translucent or a window (q3map2's `PortalPassable`: only
/// opaque structural brushes seal), not an origin brush, and not from a `func_detail` or
/// `func_detail_wall` entity (`in_detail_entity`; ericw-tools' detail). Clips (player,
/// monster, bot) and liquids never seal, nor do a curved patch's facets (q3map2's patches
/// are never structural). Quake 2's qbsp3 lets solid detail seal; here it does not, so such
/// a map may report a leak qbsp3 would not.
#[must_use]
pub fn seals_map(brush: &Brush, in_detail_entity: bool) -> bool {
    const SEALS: Contents = Contents(Contents::SOLID.0 | Contents::SKY.0);
    const NEVER: Contents = Contents(
        Contents::DETAIL.0 | Contents::TRANSLUCENT.0 | Contents::WINDOW.0 | Contents::ORIGIN.0,
    );
    brush.owner == BrushOwner::World
        && brush.patch.is_none()
        && !in_detail_entity
        && brush.contents.intersects(SEALS)
        && !brush.contents.intersects(NEVER)
}

/// The classes whose brushes join the world as detail (ericw-tools).
const DETAIL_CLASSES: [&str; 2] = ["func_detail", "func_detail_wall"];

/// The brushes of `map` (`brushes`, from the brush stage) that seal it ([`seals_map`]).
#[must_use]
pub fn sealing_brushes<'a>(map: &MapFile, brushes: &'a [Brush]) -> Vec<&'a Brush> {
    let detail: HashSet<SourceLoc> = map
        .entities
        .iter()
        .filter(|e| DETAIL_CLASSES.iter().any(|c| c.eq_ignore_ascii_case(e.classname())))
        .flat_map(|e| e.brushes.iter().map(|b| b.loc))
        .collect();
    brushes
        .iter()
        .filter(|b| seals_map(b, detail.contains(&b.loc)))
        .collect()
}

/// A point entity the flood starts from.
struct Seed {
    entity: usize,
    origin: DVec3,
}

/// The seeds of `map` in file order (step 3 of the module doc).
fn seeds(map: &MapFile) -> Vec<Seed> {
    map.entities
        .iter()
        .enumerate()
        .filter(|(_, e)| !e.classname().eq_ignore_ascii_case("worldspawn"))
        .filter(|(_, e)| e.brushes.is_empty() && e.patches.is_empty())
        .filter_map(|(entity, e)| {
            let origin = e.origin()?;
            (origin != DVec3::ZERO).then_some(Seed { entity, origin })
        })
        .collect()
}

/// The tree builder's view of `brushes`, their planes added to `planes`.
pub(crate) fn tree_inputs<'a>(
    brushes: impl IntoIterator<Item = &'a Brush>,
    planes: &mut PlaneTable,
) -> Vec<BrushInput> {
    brushes
        .into_iter()
        .map(|b| BrushInput {
            sides: b
                .sides
                .iter()
                .map(|s| (planes.find_or_add(s.plane), s.winding.clone()))
                .collect(),
            contents: b.contents,
            detail: b.patch.is_some(),
        })
        .collect()
}

/// Finds the first leak of `map` (whose brushes are `brushes`, from the brush stage) and
/// prepares the fill of its void (see the module doc).
#[must_use]
pub fn find_outside(map: &MapFile, brushes: &[Brush]) -> Outside {
    // 1. The sealing tree.
    let mut planes = PlaneTable::new();
    let inputs = tree_inputs(sealing_brushes(map, brushes), &mut planes);
    let tree = build_tree(&inputs, &planes);
    let sealing: Vec<bool> = tree.leaves.iter().map(|l| !l.brushes.is_empty()).collect();
    let open: Vec<bool> = sealing.iter().map(|s| !s).collect();

    // 2. The box and the portals.
    let seeds = seeds(map);
    let world = brushes.iter().filter(|b| b.owner == BrushOwner::World);
    let limit = DVec3::splat(MAX_MAP_COORD);
    let raised = |s: &Seed| s.origin + DVec3::Z * SEED_RAISE;
    let (mins, maxs) = if world.clone().next().is_some() {
        world.fold((DVec3::INFINITY, DVec3::NEG_INFINITY), |(lo, hi), b| {
            (lo.min(b.mins), hi.max(b.maxs))
        })
    } else {
        // Nothing to seal: the box goes around the seeds, which all leak.
        seeds.iter().fold((limit, -limit), |(lo, hi), s| {
            let p = raised(s).clamp(-limit, limit);
            (lo.min(p), hi.max(p))
        })
    };
    let outside = if mins.cmple(maxs).all() {
        OutsideBox::around(mins, maxs)
    } else {
        OutsideBox::around(DVec3::ZERO, DVec3::ZERO)
    };
    let parents = Parents::of(&tree);
    let portals = make_portals(&tree, &planes, &parents, &outside);

    // 3 and 4. Seeds, and the first that reaches the outside.
    let next = flood::ways_out(&portals, &open);
    let mut seed_leaves = Vec::new();
    let mut open_seeds = 0;
    let mut leak = None;
    for seed in &seeds {
        let start = raised(seed);
        let trail_out = if outside.contains(start) {
            let leaf = flood::leaf_at(&tree, &planes, &sealing, start);
            if sealing[leaf as usize] {
                continue;
            }
            seed_leaves.push(leaf);
            flood::way_out(&portals, &next, leaf)
        } else {
            // Beyond the box: in the void already; the trail goes to the box.
            vec![start.clamp(outside.mins, outside.maxs)]
        };
        open_seeds += 1;
        if leak.is_none() && !trail_out.is_empty() {
            let entity = &map.entities[seed.entity];
            let mut trail = vec![start];
            trail.extend(trail_out);
            leak = Some(Leak {
                entity: seed.entity,
                classname: entity.classname().to_owned(),
                origin: seed.origin,
                trail,
            });
        }
    }

    // 5. What the seeds reach, for the fill.
    let fill = if leak.is_none() && !seed_leaves.is_empty() {
        let reached = flood::reached_from(&portals, &open, &seed_leaves);
        let leaves = (0..tree.leaves.len() as u32)
            .filter(|&l| open[l as usize] && !reached[l as usize])
            .collect();
        let loc = map
            .entities
            .iter()
            .find(|e| e.classname().eq_ignore_ascii_case("worldspawn"))
            .map_or(SourceLoc { line: 1, column: 1 }, |e| e.loc);
        Some((leaves, loc))
    } else {
        None
    };
    let leaves = tree.leaves.len();
    let sealing_leaves = sealing.iter().filter(|&&s| s).count();
    Outside {
        leak,
        seeds: open_seeds,
        leaves,
        sealing_leaves,
        portals: portals.portals.len(),
        fill: fill.map(|(leaves, loc)| FillPlan {
            tree,
            planes,
            outside,
            leaves,
            loc,
        }),
    }
}

impl Outside {
    /// The brushes that fill the void of a sealed map: one per open leaf of the sealing tree
    /// that no seed reaches, its region within the outside box, contents
    /// `SOLID | OUTSIDE`, owned by the world. Empty when the map leaks or has no seeds.
    /// A region that cannot be a brush is left open with a diagnostic in `diagnostics`: one
    /// note counting the slivers under [`MIN_BRUSH_VOLUME`] (where brushes nearly meet), a
    /// warning for each region with more faces than a brush may have.
    #[must_use]
    pub fn fill_brushes(&self, diagnostics: &mut Vec<Diagnostic>) -> Vec<Brush> {
        let Some(plan) = &self.fill else {
            return Vec::new();
        };
        let parents = Parents::of(&plan.tree);
        let box_planes = plan.outside.planes();
        let mut out = Vec::new();
        let mut slivers = 0usize;
        for &leaf in &plan.leaves {
            let mut region = parents.region(&plan.tree, &plan.planes, Child::Leaf(leaf));
            region.extend(box_planes);
            let contents = Contents::SOLID | Contents::OUTSIDE;
            match brush_from_planes(&region, contents, OUTSIDE_TEXTURE, plan.loc) {
                Ok(Some(brush)) => out.push(brush),
                Ok(None) => {}
                Err((DiagnosticKind::NoVolume, _)) => slivers += 1,
                Err((kind, reason)) => diagnostics.push(Diagnostic {
                    loc: plan.loc,
                    severity: Severity::Warning,
                    kind,
                    message: format!("outside fill: a region of the void left open: {reason}"),
                }),
            }
        }
        if slivers > 0 {
            diagnostics.push(Diagnostic {
                loc: plan.loc,
                severity: Severity::Note,
                kind: DiagnosticKind::NoVolume,
                message: format!(
                    "outside fill: {slivers} sliver(s) of the void under {MIN_BRUSH_VOLUME} \
                     cubic units left open (where brushes nearly meet)"
                ),
            });
        }
        out
    }
}

/// The texture name the fill's brush sides carry (no texture of any game uses it).
pub const OUTSIDE_TEXTURE: &str = "__outside";
