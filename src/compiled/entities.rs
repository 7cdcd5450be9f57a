//! The entities of a compiled world: every entity of the map, point and brush, in file
//! order, with its key/values and its model.
//!
//! Takes the entity table of a validated [`CompiledMap`]; gives [`Entity`] views and the
//! look-ups a game spawns from ([`CompiledMap::entities`], [`CompiledMap::find_entities`],
//! [`CompiledMap::entity_by_targetname`], [`CompiledMap::player_spawns`]). Origins and angles
//! are parsed on access by the same rules as the `.map` reader's
//! [`MapEntity::origin`](crate::map::MapEntity::origin) and
//! [`MapEntity::angles`](crate::map::MapEntity::angles). Guarantees: validation has checked that
//! every model reference is in range and that an entity and its model point at each other,
//! and that every string is at most `MAX_ENTITY_STRING` bytes and every entity has at most
//! `MAX_ENTITY_PROPERTIES` key/values (`src/tolerance.rs`), so no look-up can go out of bounds or cost more than
//! the file's size.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::CompiledMap;
use crate::map::{PLAYER_SPAWN_CLASSES, angles_of, origin_of, property};

/// One entity as the file stores it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct EntityRecord {
    /// Key/values in file order.
    pub properties: Vec<(String, String)>,
    /// The model its brushes became: 0 for the world's `worldspawn`, k ≥ 1 for a brush
    /// entity, `None` for a point entity or one whose brushes went into the world
    /// (`func_group`, `func_detail`).
    pub model: Option<u32>,
}

/// One entity of a compiled world ([`CompiledMap::entities`]): its key/values as the map
/// wrote them and, for a brush entity, its model.
///
/// ```
/// let src = br#"{ "classname" "worldspawn" }
/// { "classname" "info_player_start" "origin" "64 32 24" "angle" "90" }"#;
/// let world = planeshift::compile_map(src)?.map;
/// let start = world.find_entities("info_player_start").next().unwrap();
/// assert_eq!(start.origin(), Some(glam::Vec3::new(64.0, 32.0, 24.0)));
/// assert_eq!(start.angles(), Some(glam::Vec3::new(0.0, 90.0, 0.0)));
/// assert_eq!((start.index(), start.model()), (1, None));
/// # Ok::<(), planeshift::CompileError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Entity<'a> {
    index: usize,
    record: &'a EntityRecord,
}

impl<'a> Entity<'a> {
    /// The entity's position in the map's entity list (file order, from 0).
    #[must_use]
    pub fn index(&self) -> usize {
        self.index
    }

    /// The `classname` value, or `""` when there is none.
    #[must_use]
    pub fn classname(&self) -> &'a str {
        self.get("classname").unwrap_or("")
    }

    /// The first value of `key`, compared case-sensitively as the engines do.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&'a str> {
        property(&self.record.properties, key)
    }

    /// Every key/value, in file order (a key may repeat; [`Entity::get`] reads the first).
    #[must_use]
    pub fn properties(&self) -> &'a [(String, String)] {
        &self.record.properties
    }

    /// The `origin` key as exactly three finite numbers, or `None` (for a brush entity this
    /// is the key as written; [`Model::origin`](crate::level::Model::origin) is its rotation pivot).
    #[must_use]
    pub fn origin(&self) -> Option<Vec3> {
        origin_of(&self.record.properties).map(|v| v.as_vec3())
    }

    /// The orientation as `(pitch, yaw, roll)` in degrees: the `angles` key, else the `angle`
    /// key as a yaw (−1 is straight up, pitch −90; −2 straight down, pitch 90), else `None`.
    #[must_use]
    pub fn angles(&self) -> Option<Vec3> {
        angles_of(&self.record.properties).map(|v| v.as_vec3())
    }

    /// The model its brushes became, an index into [`CompiledMap::models`]: 0 for
    /// `worldspawn`, k ≥ 1 for a brush entity (Quake's `*k`); `None` for a point entity and
    /// for classes merged into the world (`func_group`, `func_detail`).
    #[must_use]
    pub fn model(&self) -> Option<usize> {
        self.record.model.map(|m| m as usize)
    }
}

impl CompiledMap {
    /// Every entity of the map, point and brush, in file order.
    ///
    /// ```
    /// let world = planeshift::compile_map(br#"{ "classname" "worldspawn" "message" "hi" }"#)?.map;
    /// let classes: Vec<&str> = world.entities().map(|e| e.classname()).collect();
    /// assert_eq!(classes, ["worldspawn"]);
    /// assert_eq!(world.entities().next().and_then(|e| e.get("message")), Some("hi"));
    /// # Ok::<(), planeshift::CompileError>(())
    /// ```
    pub fn entities(&self) -> impl ExactSizeIterator<Item = Entity<'_>> + Clone + '_ {
        self.data
            .entities
            .iter()
            .enumerate()
            .map(|(index, record)| Entity { index, record })
    }

    /// Entity `index` (file order), or `None` past the end.
    #[must_use]
    pub fn entity(&self, index: usize) -> Option<Entity<'_>> {
        self.data
            .entities
            .get(index)
            .map(|record| Entity { index, record })
    }

    /// The entities whose `classname` is `classname` (compared exactly), in file order.
    ///
    /// ```
    /// let src = br#"{ "classname" "worldspawn" }
    /// { "classname" "info_player_deathmatch" "origin" "0 0 24" }
    /// { "classname" "info_player_deathmatch" "origin" "128 0 24" }"#;
    /// let world = planeshift::compile_map(src)?.map;
    /// assert_eq!(world.find_entities("info_player_deathmatch").count(), 2);
    /// # Ok::<(), planeshift::CompileError>(())
    /// ```
    pub fn find_entities<'a>(
        &'a self,
        classname: &'a str,
    ) -> impl Iterator<Item = Entity<'a>> + Clone + 'a {
        self.entities().filter(move |e| e.classname() == classname)
    }

    /// The first entity whose `targetname` is `name`: where a teleporter or jump pad's
    /// `target` leads.
    ///
    /// ```
    /// let src = br#"{ "classname" "worldspawn" }
    /// { "classname" "target_position" "targetname" "apex" "origin" "0 0 256" }"#;
    /// let world = planeshift::compile_map(src)?.map;
    /// let apex = world.entity_by_targetname("apex").and_then(|e| e.origin());
    /// assert_eq!(apex, Some(glam::Vec3::new(0.0, 0.0, 256.0)));
    /// # Ok::<(), planeshift::CompileError>(())
    /// ```
    #[must_use]
    pub fn entity_by_targetname(&self, name: &str) -> Option<Entity<'_>> {
        self.entities().find(|e| e.get("targetname") == Some(name))
    }

    /// The origins of the player spawn points (`info_player_start` and
    /// `info_player_deathmatch`), in file order; spawns without a valid origin are skipped,
    /// as [`MapFile::player_spawns`](crate::map::MapFile::player_spawns) does.
    pub fn player_spawns(&self) -> impl Iterator<Item = Vec3> + '_ {
        self.entities()
            .filter(|e| PLAYER_SPAWN_CLASSES.contains(&e.classname()))
            .filter_map(|e| e.origin())
    }

    /// The entity that model `model` was compiled from (the world's is `worldspawn`), or
    /// `None` for an unknown model or a world without a `worldspawn` entity.
    #[must_use]
    pub fn model_entity(&self, model: usize) -> Option<Entity<'_>> {
        let index = self.data.models.get(model)?.entity? as usize;
        self.entity(index)
    }
}
