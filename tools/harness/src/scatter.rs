//! Where scattered bots start (`--scatter`): seeded random spots on the floor inside the
//! level, that is in the open space its spawn points reach.
//!
//! Takes a compiled world, its spawn points, a controller configuration, which trigger
//! models kill (the soak's deadly `trigger_hurt`s, `game.rs`) and a seeded generator of
//! numbers in [0, 1); gives `count` origins or a message saying how many fit. Guarantees:
//! every spot's shape is free of the map and of the spots placed before, stands on a
//! walkable floor (or on a bot placed before), and lies in a cell of [`reached_from`]'s
//! flood, so no bot starts on the outer faces of a sealed level's hull (a roof seen from
//! the void) and walks off into the void; no bot is dropped into what kills it: its fall
//! from the drawn point to the floor touches no killing trigger and no lava or slime (a
//! pit with a hurt volume, a lava floor), so the soak's deaths are bots that walked into
//! them; no bot starts inside what its movement collides with (`inside.rs`: QuakeWorld's
//! profile walks the level's clip hull 1, solid over clip brushes the box is free of).
//! Same world, spawns and numbers: the same spots.

use glam::{IVec3, Vec3};
use planeshift::movement::{Bodies, ShapeQuery, Tracer, WorldWithBodies};
use planeshift::{CharacterController, ControllerConfig};
use planeshift::{CompiledMap, Contents, TraceShape};

use super::inside::{Inside, inside_at};

/// Random spots tried per bot before giving up.
const SCATTER_TRIES: usize = 200;

/// The steepest floor a bot is scattered onto: the walkable slope's normal z (Quake's 0.7).
const SCATTER_FLOOR_NORMAL_Z: f32 = 0.7;

/// The flood's cell size, in units: a Quake player's width, so a doorway or corridor a
/// player fits through has a row of cell centres through it (one narrower is missed, which
/// only leaves out spots, never takes one outside).
const REACH_CELL: f32 = 32.0;

/// The most cells the flood's grid holds: on a level whose bounds would need more at
/// [`REACH_CELL`], cells grow until it fits (4 MB of flags at most and at most six short
/// point sweeps per cell reached, so a bounded set-up; a larger cell only misses openings
/// narrower than itself, so fewer spots, never one outside).
const MAX_REACH_CELLS: f32 = 4.0e6;

/// What stops the flood: what stops a player (solid, windows, sky, player clip).
const REACH_MASK: Contents = Contents::MASK_PLAYER_SOLID;

/// The liquids that hurt (Quake's and Quake 3's lava and slime damage whoever is in them):
/// no bot is dropped through or into them.
const HURTING_LIQUID: Contents = Contents(Contents::LAVA.0 | Contents::SLIME.0);

/// The open space reached from a set of points: a grid over the world's bounds whose cells
/// are flooded from the seeds' cells, a step to a neighbour taken when a point sweeps from
/// one centre to the other without touching what stops a player.
pub struct Reached {
    low: Vec3,
    cell: f32,
    size: IVec3,
    flags: Vec<bool>,
}

impl Reached {
    /// The cell holding `p`, or `None` for a point that is not finite.
    fn cell_at(&self, p: Vec3) -> Option<IVec3> {
        let c = ((p - self.low) / self.cell).floor();
        c.is_finite().then(|| c.as_ivec3())
    }

    /// The index of the cell holding `p`, or `None` outside the grid.
    fn index(&self, p: Vec3) -> Option<usize> {
        self.cell_at(p).and_then(|c| self.index_of(c))
    }

    fn index_of(&self, c: IVec3) -> Option<usize> {
        if c.cmplt(IVec3::ZERO).any() || c.cmpge(self.size).any() {
            return None;
        }
        let (x, y, z) = (c.x as usize, c.y as usize, c.z as usize);
        let (sx, sy) = (self.size.x as usize, self.size.y as usize);
        Some((z * sy + y) * sx + x)
    }

    fn centre(&self, c: IVec3) -> Vec3 {
        self.low + (c.as_vec3() + 0.5) * self.cell
    }

    /// The cells the flood reached, in index order.
    pub fn cells(&self) -> Vec<IVec3> {
        let (sx, sy) = (self.size.x as usize, self.size.y as usize);
        self.flags
            .iter()
            .enumerate()
            .filter(|(_, reached)| **reached)
            .map(|(i, _)| {
                IVec3::new(
                    (i % sx) as i32,
                    (i / sx % sy) as i32,
                    (i / (sx * sy)) as i32,
                )
            })
            .collect()
    }

    /// Whether the flood reached the cell holding `p`.
    pub fn contains(&self, p: Vec3) -> bool {
        self.index(p)
            .and_then(|i| self.flags.get(i).copied())
            .unwrap_or(false)
    }
}

/// The space of `world` reached from `seeds` (spawn points; a seed inside solid or outside
/// the world's bounds seeds nothing).
pub fn reached_from(world: &CompiledMap, seeds: &[Vec3]) -> Result<Reached, String> {
    let model = world
        .models()
        .first()
        .ok_or("a map without a world model")?;
    let (low, high) = (model.mins, model.maxs);
    let extent = (high - low).max(Vec3::ONE);
    let volume = extent.x * extent.y * extent.z;
    let cell = REACH_CELL.max((volume / MAX_REACH_CELLS).cbrt());
    let size = (extent / cell).ceil().as_ivec3().max(IVec3::ONE);
    let count = size.x as usize * size.y as usize * size.z as usize;
    let mut reached = Reached {
        low,
        cell,
        size,
        flags: vec![false; count],
    };
    let point = TraceShape::point();
    let mut queue: Vec<IVec3> = Vec::new();
    for &seed in seeds {
        if !world
            .point_contents(seed)
            .intersection(REACH_MASK)
            .is_empty()
        {
            continue;
        }
        // The seed's own cell centre may be in a wall beside it: the step from the seed to
        // its centre must be clear too.
        let Some((c, i)) = reached
            .cell_at(seed)
            .and_then(|c| Some((c, reached.index_of(c)?)))
        else {
            continue;
        };
        if !reached.flags[i]
            && !world
                .trace(&point, seed, reached.centre(c), REACH_MASK)
                .hit()
        {
            reached.flags[i] = true;
            queue.push(c);
        }
    }
    const STEPS: [IVec3; 6] = [
        IVec3::X,
        IVec3::NEG_X,
        IVec3::Y,
        IVec3::NEG_Y,
        IVec3::Z,
        IVec3::NEG_Z,
    ];
    while let Some(c) = queue.pop() {
        let from = reached.centre(c);
        for step in STEPS {
            let next = c + step;
            let Some(i) = reached.index_of(next) else {
                continue;
            };
            if reached.flags[i] {
                continue;
            }
            let to = reached.centre(next);
            let sweep = world.trace(&point, from, to, REACH_MASK);
            if !sweep.hit() && !sweep.start_solid {
                reached.flags[i] = true;
                queue.push(next);
            }
        }
    }
    Ok(reached)
}

/// `count` origins on the floor of `world` inside the space its `spawns` reach, seeded:
/// random points inside the world's bounds whose shape is free of the map and of the bots
/// placed, dropped onto a walkable floor or a bot placed before, kept when the spot's
/// centre is in the reached space and the drop met no trigger model `kills` names and no
/// lava or slime.
pub fn scatter_points(
    world: &CompiledMap,
    spawns: &[Vec3],
    config: &ControllerConfig,
    kills: &dyn Fn(usize) -> bool,
    count: usize,
    unit: &mut dyn FnMut() -> f32,
) -> Result<Vec<Vec3>, String> {
    let probe = CharacterController::new(*config, Vec3::ZERO).map_err(|e| e.to_string())?;
    let (shape, offset) = (
        probe.shape().clone(),
        probe.shape_center() - probe.position(),
    );
    let model = world
        .models()
        .first()
        .ok_or("a map without a world model")?;
    let low = model.mins;
    // The spawns' shape centres seed the flood (an origin may sit at the floor).
    let seeds: Vec<Vec3> = spawns.iter().map(|s| *s + offset).collect();
    let inside = reached_from(world, &seeds)?;
    // Tries are drawn in the reached cells only (uniform over the reached space), not in the
    // world's bounds, most of which is solid or void on a real level.
    let cells = inside.cells();
    if cells.is_empty() {
        return Err("no open space reached from the spawn points".into());
    }
    let mut placed = Bodies::new();
    let mut spots = Vec::with_capacity(count);
    for _ in 0..count.saturating_mul(SCATTER_TRIES) {
        if spots.len() == count {
            break;
        }
        let pick = ((unit() * cells.len() as f32) as usize).min(cells.len() - 1);
        let cell = cells[pick];
        let center = inside.centre(cell) + (Vec3::new(unit(), unit(), unit()) - 0.5) * inside.cell;
        if !inside.contains(center) || Tracer::overlaps(world, &ShapeQuery::new(&shape), center) {
            continue;
        }
        if !placed.overlapping(&shape, center, None).is_empty() {
            continue;
        }
        // Dropped onto the floor or onto the head of a bot placed before (a crowd denser
        // than the floor holds stacks, and walks apart).
        let others = WorldWithBodies {
            world,
            bodies: &placed,
            mover: None,
            ghosts: &[],
        };
        let down = others.trace(&ShapeQuery::new(&shape), center, center.with_z(low.z));
        let floor = down.normal.is_some_and(|n| n.z >= SCATTER_FLOOR_NORMAL_Z);
        if down.all_solid || !floor || !inside.contains(down.end) {
            continue;
        }
        // Not dropped into what kills: a hurt volume on the way down or at the floor (a
        // pit's), lava or slime (through it or standing in it).
        let deadly = world
            .touching_triggers_along(&shape, center, down.end)
            .any(|(model, _)| kills(model))
            || world.trace(&shape, center, down.end, HURTING_LIQUID).hit()
            || world.overlaps(&shape, down.end, HURTING_LIQUID);
        // Where its movement can stand: QuakeWorld's profile walks the level's clip hull 1,
        // whose clip brushes and grown edges the box may be free of (`inside.rs`).
        let stands = inside_at(world, config, &shape, down.end - offset, down.end);
        if deadly || stands == Inside::Solid {
            continue;
        }
        placed.insert(spots.len() as u32, &shape, down.end);
        spots.push(down.end - offset);
    }
    if spots.len() < count {
        return Err(format!(
            "found floor for {} of {count} scattered bots",
            spots.len()
        ));
    }
    Ok(spots)
}
