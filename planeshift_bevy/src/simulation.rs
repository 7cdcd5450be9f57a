//! The systems: the level's brush entities, characters into the crowd, the fixed step,
//! the write-back into components and messages, and the rendered transform's interpolation.
//!
//! Takes a [`Level`] entity with a loaded [`LevelAsset`], [`Character`] entities with their
//! [`CharacterInput`], and [`LevelMover`] transforms; gives [`CharacterStatus`],
//! [`CharacterSnapshot`], messages, and each character's `Transform` between its last two
//! fixed positions. Guarantees: one crowd step per fixed step; a jump pressed for one frame
//! reaches exactly one step; a teleport snaps the rendered transform; characters step in
//! increasing id order (ids given in spawn order), so runs repeat bit for bit.

use std::collections::BTreeMap;
use std::sync::Arc;

use bevy_asset::{Assets, Handle};
use bevy_ecs::prelude::*;
use bevy_time::{Fixed, Time};
use bevy_transform::components::Transform;
use glam::Vec3;
use planeshift::movement::Mover;
use planeshift::{
    CharacterController, CompiledMap, Crowd, CrowdConfig, ModelPlacement,
    level::ModelKind,
    movement::{MoverPush, WorldWithMovers},
};

use crate::assets::LevelAsset;
use crate::character::{
    Character, CharacterAction, CharacterInput, CharacterRequest, CharacterSnapshot,
    CharacterStatus,
};
use crate::messages::{
    Jumped, Landed, MoverBlocked, SpawnedOverlapping, Stepped, Touched, TriggerEntered,
    TriggerLeft, TriggerTouched,
};
use crate::space::MapSpace;

/// The level entity: the world it holds comes from this asset.
#[derive(Component, Clone, Debug)]
pub struct Level(pub Handle<LevelAsset>);

/// A brush entity of the level (trigger, mover, static model, volume), spawned as a child of
/// the [`Level`] entity once the level has loaded: a game attaches behaviour by classname.
#[derive(Component, Clone, Debug)]
pub struct BrushEntity {
    /// The entity's `classname`.
    pub classname: String,
    /// Its key/values in file order.
    pub properties: Vec<(String, String)>,
    /// Its model index in the level.
    pub model: usize,
    /// What the model is (trigger, mover, static...).
    pub kind: ModelKind,
}

/// A mover: its entity's `Transform` translation is the model's offset from where the map
/// puts it (Bevy units); the plugin carries and pushes characters as it moves.
#[derive(Component, Clone, Copy, Debug)]
pub struct LevelMover {
    /// The model index.
    pub model: usize,
    /// The model's pivot (its origin), map units.
    pub pivot: Vec3,
}

/// The rendered transform's two ends: the character's origin (the point its shape is placed
/// by, [`ControllerConfig::feet_to_origin`](planeshift::ControllerConfig::feet_to_origin)
/// above its feet) after the previous and the last fixed step, Bevy units. `Transform` is
/// placed between them after the fixed loop.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct FixedPositions {
    /// After the step before the last.
    pub previous: Vec3,
    /// After the last step.
    pub current: Vec3,
}

/// A jump pressed since the last fixed step (kept until a step sees it).
#[derive(Component, Clone, Copy, Debug, Default)]
pub(crate) struct LatchedInput {
    jump: bool,
    crouch: bool,
    snap: bool,
}

/// The plugin's state: the level's world, the crowd, and the id of every character.
#[derive(Resource, Default)]
pub struct Simulation {
    pub(crate) map: Option<Arc<CompiledMap>>,
    pub(crate) level: Option<Entity>,
    pub(crate) crowd: Option<Crowd>,
    pub(crate) crowd_config: CrowdConfig,
    pub(crate) parallel: bool,
    pub(crate) movers_collide: bool,
    pub(crate) ids: BTreeMap<Entity, u32>,
    pub(crate) entities: BTreeMap<u32, Entity>,
    pub(crate) models: BTreeMap<usize, Entity>,
    pub(crate) movers: Vec<Mover>,
    pub(crate) mover_entities: Vec<Entity>,
    pub(crate) next_id: u32,
    /// Each character's view `[pitch, yaw]` (degrees) in its last step, by id.
    pub(crate) views: BTreeMap<u32, [f32; 2]>,
}

impl Simulation {
    /// The level's world, once loaded.
    #[must_use]
    pub fn map(&self) -> Option<&CompiledMap> {
        self.map.as_deref()
    }

    /// The crowd of characters (their controllers and last outcomes by id).
    #[must_use]
    pub fn crowd(&self) -> Option<&Crowd> {
        self.crowd.as_ref()
    }

    /// The crowd id of a character entity.
    #[must_use]
    pub fn id_of(&self, entity: Entity) -> Option<u32> {
        self.ids.get(&entity).copied()
    }

    /// The character entity of a crowd id.
    #[must_use]
    pub fn entity_of(&self, id: u32) -> Option<Entity> {
        self.entities.get(&id).copied()
    }

    /// The view `[pitch, yaw]` (degrees) a character stepped with last: its command's, or
    /// level with the direction of a scripted wish; `None` before its first step.
    #[must_use]
    pub fn view_of(&self, id: u32) -> Option<[f32; 2]> {
        self.views.get(&id).copied()
    }

    /// The brush entity of a model index.
    #[must_use]
    pub fn model_entity(&self, model: usize) -> Option<Entity> {
        self.models.get(&model).copied()
    }
}

/// Takes the level's world once its asset has loaded, and spawns its brush entities.
pub(crate) fn load_level(
    mut commands: Commands,
    mut sim: ResMut<Simulation>,
    levels: Query<(Entity, &Level)>,
    assets: Res<Assets<LevelAsset>>,
    space: Res<MapSpace>,
) {
    let Some((entity, level)) = levels.iter().next() else {
        return;
    };
    if sim.level == Some(entity) && sim.map.is_some() {
        return;
    }
    let Some(asset) = assets.get(&level.0) else {
        return;
    };
    let map = asset.map.clone();
    sim.level = Some(entity);
    sim.models.clear();
    sim.movers.clear();
    sim.mover_entities.clear();
    for (index, model) in map.models().iter().enumerate().skip(1) {
        let Some(e) = map.model_entity(index) else {
            continue;
        };
        let mut spawned = commands.spawn((
            BrushEntity {
                classname: e.classname().to_string(),
                properties: e.properties().to_vec(),
                model: index,
                kind: model.kind,
            },
            Transform::default(),
            ChildOf(entity),
        ));
        if model.kind == ModelKind::Mover {
            spawned.insert(LevelMover {
                model: index,
                pivot: model.origin,
            });
            sim.movers.push(Mover {
                model: index,
                placement: ModelPlacement::default(),
            });
            sim.mover_entities.push(spawned.id());
        }
        sim.models.insert(index, spawned.id());
    }
    let _ = &space;
    sim.map = Some(map);
}

/// Puts new characters into the crowd (ids in spawn order) and takes removed ones out.
pub(crate) fn add_characters(
    mut commands: Commands,
    mut sim: ResMut<Simulation>,
    space: Res<MapSpace>,
    added: Query<(Entity, &Character, &Transform), Without<FixedPositions>>,
    mut removed: RemovedComponents<Character>,
) {
    let sim = &mut *sim;
    let crowd_config = sim.crowd_config;
    let crowd = sim.crowd.get_or_insert_with(|| Crowd::new(crowd_config));
    for entity in removed.read() {
        if let Some(id) = sim.ids.remove(&entity) {
            sim.entities.remove(&id);
            sim.views.remove(&id);
            crowd.remove(id);
        }
    }
    for (entity, character, transform) in &added {
        let origin = character
            .map_origin
            .unwrap_or_else(|| space.to_map(transform.translation));
        match CharacterController::new(character.config, origin) {
            Ok(controller) => {
                let id = sim.next_id;
                sim.next_id += 1;
                crowd.insert(id, controller);
                sim.ids.insert(entity, id);
                sim.entities.insert(id, entity);
                let at = space.to_bevy(origin);
                commands.entity(entity).insert((
                    FixedPositions {
                        previous: at,
                        current: at,
                    },
                    LatchedInput::default(),
                ));
            }
            Err(_) => {
                // An invalid configuration: the character never joins (the game validates
                // with `ControllerConfig::validate`).
                commands.entity(entity).remove::<Character>();
            }
        }
    }
}

/// Before the fixed loop: remembers a jump or crouch pressed this frame until a step sees it.
pub(crate) fn latch_input(mut characters: Query<(&CharacterInput, &mut LatchedInput)>) {
    for (input, mut latched) in &mut characters {
        latched.jump |= input.jump;
        latched.crouch |= input.crouch;
    }
}

/// Applies the requests sent since the last step.
pub(crate) fn apply_requests(
    mut sim: ResMut<Simulation>,
    space: Res<MapSpace>,
    mut requests: MessageReader<CharacterRequest>,
    mut latched: Query<&mut LatchedInput>,
) {
    let sim = &mut *sim;
    let Some(crowd) = sim.crowd.as_mut() else {
        return;
    };
    for request in requests.read() {
        let Some(&id) = sim.ids.get(&request.character) else {
            continue;
        };
        let snap = crowd
            .update(id, |c| match &request.action {
                &CharacterAction::Teleport { to, velocity } => {
                    let velocity = velocity
                        .map_or(c.velocity(), |v| space.dir_to_map(v) * space.units_per_bevy);
                    c.teleport(space.to_map(to), velocity, 0.0);
                    true
                }
                &CharacterAction::Push { delta_v, hold } => {
                    c.apply_impulse(space.dir_to_map(delta_v) * space.units_per_bevy, hold);
                    false
                }
                &CharacterAction::Launch(delta_v) => {
                    c.launch(space.dir_to_map(delta_v) * space.units_per_bevy);
                    false
                }
                &CharacterAction::SetMode(mode) => {
                    c.set_mode(mode);
                    false
                }
                CharacterAction::Restore(state) => {
                    c.set_state((**state).clone());
                    true
                }
            })
            .unwrap_or(false);
        if snap && let Ok(mut l) = latched.get_mut(request.character) {
            l.snap = true;
        }
    }
}

/// Moves each mover to its entity's transform, carrying and pushing characters; a push that
/// cannot finish leaves the mover where it was and writes [`MoverBlocked`].
pub(crate) fn move_movers(
    mut sim: ResMut<Simulation>,
    space: Res<MapSpace>,
    movers: Query<(&LevelMover, &Transform)>,
    mut blocked: MessageWriter<MoverBlocked>,
) {
    let sim = &mut *sim;
    let (Some(map), Some(crowd)) = (sim.map.clone(), sim.crowd.as_mut()) else {
        return;
    };
    for i in 0..sim.movers.len() {
        let Some(&entity) = sim.mover_entities.get(i) else {
            continue;
        };
        let Ok((mover, transform)) = movers.get(entity) else {
            continue;
        };
        let before = sim.movers[i].placement;
        let after = ModelPlacement {
            offset: space.to_map(transform.translation),
            ..before
        };
        if after == before {
            continue;
        }
        sim.movers[i].placement = after;
        let world = WorldWithMovers {
            map: &map,
            movers: &sim.movers,
        };
        if let MoverPush::Blocked { character } =
            crowd.push_mover(&world, mover.model, mover.pivot, &before, &after)
        {
            sim.movers[i].placement = before;
            if let Some(&who) = sim.entities.get(&character) {
                blocked.write(MoverBlocked {
                    mover: entity,
                    character: who,
                });
            }
        }
    }
}

/// One crowd step: every character with its latched input.
pub(crate) fn step_crowd(
    mut sim: ResMut<Simulation>,
    space: Res<MapSpace>,
    mut inputs: Query<(&CharacterInput, &mut LatchedInput)>,
) {
    let sim = &mut *sim;
    let (Some(map), Some(crowd)) = (sim.map.clone(), sim.crowd.as_mut()) else {
        return;
    };
    let mut gathered = Vec::with_capacity(crowd.len());
    let views = &mut sim.views;
    for id in crowd.ids() {
        let input = sim
            .entities
            .get(&id)
            .and_then(|&e| inputs.get_mut(e).ok())
            .map(|(input, mut latched)| {
                let mut m = input.to_move_input(&space);
                views.insert(id, input.view_angles(&space));
                m.jump |= latched.jump;
                m.crouch |= latched.crouch;
                latched.jump = false;
                latched.crouch = false;
                m
            })
            .unwrap_or_default();
        gathered.push((id, input));
    }
    let input = |id: u32| {
        gathered
            .binary_search_by_key(&id, |&(i, _)| i)
            .ok()
            .and_then(|i| gathered.get(i))
            .map(|&(_, m)| m)
            .unwrap_or_default()
    };
    if sim.movers_collide && !sim.movers.is_empty() {
        let world = WorldWithMovers {
            map: &map,
            movers: &sim.movers,
        };
        step(crowd, &world, input, sim.parallel);
    } else {
        step(crowd, &*map, input, sim.parallel);
    }
}

/// The crowd's step, in parallel when asked and built with `parallel`.
fn step<T: planeshift::movement::Tracer + Sync + ?Sized>(
    crowd: &mut Crowd,
    world: &T,
    input: impl FnMut(u32) -> planeshift::MoveInput,
    parallel: bool,
) {
    #[cfg(feature = "parallel")]
    if parallel {
        crowd.step_parallel(world, input);
        return;
    }
    let _ = parallel;
    crowd.step(world, input);
}

/// The messages a step writes, in the order [`write_back`] fills them.
type StepWriters<'w> = (
    MessageWriter<'w, TriggerEntered>,
    MessageWriter<'w, TriggerTouched>,
    MessageWriter<'w, TriggerLeft>,
    MessageWriter<'w, Landed>,
    MessageWriter<'w, Jumped>,
    MessageWriter<'w, Stepped>,
    MessageWriter<'w, Touched>,
    MessageWriter<'w, SpawnedOverlapping>,
);

/// After each step: status, snapshot, fixed positions and messages.
#[allow(clippy::too_many_arguments)]
pub(crate) fn write_back(
    sim: Res<Simulation>,
    space: Res<MapSpace>,
    mut characters: Query<(
        &mut CharacterStatus,
        &mut FixedPositions,
        &mut LatchedInput,
        Option<&mut CharacterSnapshot>,
    )>,
    mut commands: Commands,
    mut writers: StepWriters,
) {
    let Some(crowd) = sim.crowd.as_ref() else {
        return;
    };
    if sim.map.is_none() {
        return;
    }
    for (id, c, outcome) in crowd.iter() {
        let Some(&entity) = sim.entities.get(&id) else {
            continue;
        };
        let Ok((mut status, mut fixed, mut latched, snapshot)) = characters.get_mut(entity) else {
            continue;
        };
        let tick = &outcome.tick;
        *status = CharacterStatus {
            position: space.to_bevy(c.position()),
            eye: space.to_bevy(c.eye_position()),
            view: sim.views.get(&id).copied().unwrap_or(status.view),
            ground: c.ground().state,
            velocity: space.dir_to_bevy(c.velocity()) / space.units_per_bevy,
            water_level: tick.water_level,
            activity: tick.activity,
            mode: c.mode(),
            crouched: c.crouched(),
            stuck: tick.stuck,
            contents: tick.contents,
            steps: status.steps + 1,
        };
        match snapshot {
            Some(mut s) => s.0.clone_from(c.state()),
            None => {
                commands
                    .entity(entity)
                    .insert(CharacterSnapshot(c.state().clone()));
            }
        }
        let at = space.to_bevy(c.position());
        fixed.previous = if latched.snap { at } else { fixed.current };
        fixed.current = at;
        latched.snap = false;
        let trigger = |model: usize| sim.models.get(&model).copied();
        for model in tick.triggers.entered.as_slice().iter().map(|&m| m as usize) {
            writers.0.write(TriggerEntered {
                character: entity,
                model,
                trigger: trigger(model),
            });
        }
        for model in tick.triggers.touched.as_slice().iter().map(|&m| m as usize) {
            writers.1.write(TriggerTouched {
                character: entity,
                model,
                trigger: trigger(model),
            });
        }
        for model in tick.triggers.left.as_slice().iter().map(|&m| m as usize) {
            writers.2.write(TriggerLeft {
                character: entity,
                model,
                trigger: trigger(model),
            });
        }
        if let Some(speed) = tick.landed {
            writers.3.write(Landed {
                character: entity,
                speed: space.length_to_bevy(speed),
            });
        }
        if tick.jumped {
            writers.4.write(Jumped { character: entity });
        }
        if tick.climbed > 0.0 {
            writers.5.write(Stepped {
                character: entity,
                height: space.length_to_bevy(tick.climbed),
            });
        }
        for touch in tick.touches.as_slice() {
            writers.6.write(Touched {
                character: entity,
                normal: space.dir_to_bevy(touch.normal),
                at,
                model: touch.target.model().unwrap_or(0),
                other: touch
                    .target
                    .character()
                    .and_then(|k| sim.entities.get(&k).copied()),
                surface: touch.surface,
                material: touch.material,
            });
        }
        for &other in outcome.overlapped.as_slice() {
            if let Some(&other) = sim.entities.get(&other) {
                writers.7.write(SpawnedOverlapping {
                    character: entity,
                    other,
                });
            }
        }
    }
}

/// After the fixed loop: each character's `Transform` between its last two fixed positions,
/// by how far time has run into the next step.
pub(crate) fn interpolate(
    time: Res<Time<Fixed>>,
    mut characters: Query<(&FixedPositions, &mut Transform), With<Character>>,
) {
    let t = time.overstep_fraction();
    for (fixed, mut transform) in &mut characters {
        transform.translation = fixed.previous.lerp(fixed.current, t);
    }
}
