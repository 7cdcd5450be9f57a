//! What a texture, a brush, a side and an entity mean in each game: the one place a `.map`
//! compile and a `.bsp` import ask (`GameRules`: a built-in game's rules, or a custom game's
//! over its base game).
//!
//! Takes a brush's faces and its entity's class, one face, a class name, or a value read from
//! a compiled file; gives contents (planeshift's [`Contents`] and the game's own value), a
//! side's surface flags, and whether an entity's brushes join the world or are triggers.
//! Guarantees: a pure function of its inputs, the rules and (Quake 3) the shader set; the
//! brush stage (`crate::brush`), the importers (`crate::import`) and the model stage
//! (`crate::compile`) have no rule of their own.
//!
//! - `brushes`: a brush's contents per built-in game (the rules in full in
//!   its docs), over `quake`, `quake2`, `quake3` and `half_life`, which also read the
//!   values a compiled file of that game stores (a Quake 1 family leaf's enum, Quake 2's and
//!   Quake 3's content bits).
//! - `sides`: a side's surface flags per game.
//! - `entities`: the classes whose brushes join the world or are triggers.
//! - Here: `GameRules`, which dispatches to the above or to a custom game
//!   ([`CustomGame`](crate::build::CustomGame), whose docs state its rule in full): its texture and
//!   entity rules first and the base game's where none matches.

pub(crate) mod brushes;
pub(crate) mod entities;
pub(crate) mod half_life;
pub(crate) mod quake;
pub(crate) mod quake2;
pub(crate) mod quake3;
pub(crate) mod sides;

use crate::compiled::ModelKind;
use crate::contents::Contents;
use crate::game::custom::{CustomRules, EntityMeaning};
use crate::game::{FaceCombine, Game, ShaderSet};
use crate::map::{MapEntity, MapFace};
use crate::surface::SurfaceFlags;
use brushes::{BrushMeaning, brush_meaning};
use entities::{entity_brush, model_kind};
pub use entities::{is_trigger_class, is_world_class};
pub use half_life::{half_life_entity_contents, half_life_texture_contents};
pub use quake::is_origin_texture;
pub use quake2::contents_from_quake2;
pub use quake3::contents_from_quake3;
use sides::side_surface;

/// Whose rules give brushes their meaning.
#[derive(Clone, Copy, Debug)]
pub(crate) enum GameRules<'a> {
    /// A built-in game's.
    Builtin(Game),
    /// A checked custom game's, over its base game.
    Custom(&'a CustomRules),
}

impl<'a> GameRules<'a> {
    /// The built-in game whose rules apply where no custom rule does (the game itself for a
    /// built-in one).
    pub(crate) fn base(self) -> Game {
        match self {
            GameRules::Builtin(game) => game,
            GameRules::Custom(rules) => rules.base,
        }
    }

    /// The name the compiled file records.
    pub(crate) fn name(self) -> &'a str {
        match self {
            GameRules::Builtin(game) => game.name(),
            GameRules::Custom(rules) => &rules.name,
        }
    }

    /// What a custom entity rule makes of `classname`'s brushes; `None` for a built-in game
    /// or when no rule matches.
    pub(crate) fn entity_meaning(self, classname: &str) -> Option<EntityMeaning> {
        match self {
            GameRules::Builtin(_) => None,
            GameRules::Custom(rules) => rules.entity_meaning(classname),
        }
    }

    /// Whether brushes of an entity with this classname join the world model.
    pub(crate) fn is_world_class(self, classname: &str) -> bool {
        self.entity_meaning(classname)
            .map_or_else(|| is_world_class(classname), EntityMeaning::joins_world)
    }

    /// Whether brushes of an entity with this classname are triggers (never solid).
    pub(crate) fn is_trigger_class(self, classname: &str) -> bool {
        self.entity_meaning(classname)
            .map_or_else(|| is_trigger_class(classname), |m| m == EntityMeaning::Trigger)
    }

    /// The rules of `game`, or of `custom` when given (a custom game's rules apply over its
    /// own base game, whatever the file's).
    pub(crate) fn of(game: Game, custom: Option<&'a CustomRules>) -> GameRules<'a> {
        custom.map_or(GameRules::Builtin(game), GameRules::Custom)
    }

    /// A brush's contents, and whether it blocks, in an entity of class `classname`: its
    /// textures' contents `textured` unless the class is a trigger, whose brushes are its
    /// volume (origin brushes aside; `entities.rs`).
    pub(crate) fn brush_in_entity(
        self,
        classname: &str,
        textured: Contents,
        origin_texture: bool,
    ) -> (Contents, bool) {
        entity_brush(self.is_trigger_class(classname), textured, origin_texture)
    }

    /// What a brush entity's model is to the game ([`ModelKind`]; never the world): a
    /// custom entity rule's answer when one matches the class, otherwise the base game's
    /// (`entities.rs`). `blocks` is whether any of its brushes blocks.
    pub(crate) fn model_kind(self, entity: Option<&MapEntity>, blocks: bool) -> ModelKind {
        let custom = self
            .entity_meaning(entity.map_or("", |e| e.classname()))
            .map(|meaning| match meaning {
                EntityMeaning::Trigger => ModelKind::Trigger,
                EntityMeaning::Solid { moves: true } if blocks => ModelKind::Mover,
                EntityMeaning::Solid { moves: false } if blocks => ModelKind::Static,
                _ => ModelKind::Volume,
            });
        custom.unwrap_or_else(|| model_kind(self.base(), entity, blocks))
    }

    /// The meaning of a brush made of `faces` in an entity of class `classname` (before a
    /// trigger entity makes it a trigger volume).
    pub(crate) fn brush_meaning(
        self,
        faces: &[MapFace],
        classname: &str,
        shaders: &ShaderSet,
    ) -> BrushMeaning {
        match self {
            GameRules::Builtin(game) => brush_meaning(game, faces, classname, shaders),
            GameRules::Custom(rules) => custom_brush_meaning(rules, faces, classname, shaders),
        }
    }

    /// The surface flags of `face`.
    pub(crate) fn side_surface(self, face: &MapFace, shaders: &ShaderSet) -> SurfaceFlags {
        match self {
            GameRules::Builtin(game) => side_surface(game, face, shaders),
            GameRules::Custom(rules) => rules
                .texture_rule(&face.texture)
                .and_then(|rule| rule.surface)
                .unwrap_or_else(|| side_surface(rules.base, face, shaders)),
        }
    }
}

/// A custom game's brush rule (the three steps in [`CustomGame`](crate::CustomGame)'s
/// docs). The game value is the contents' bits: a custom game has no numbering of its own.
fn custom_brush_meaning(
    rules: &CustomRules,
    faces: &[MapFace],
    classname: &str,
    shaders: &ShaderSet,
) -> BrushMeaning {
    let entity = rules.entity_meaning(classname);
    // The base game's entity rules (Half-Life's `func_water` and kin) apply only to classes
    // no entity rule matches.
    let base_class = if entity.is_some() { "" } else { classname };
    let ruled: Vec<Option<Contents>> = faces
        .iter()
        .map(|f| rules.texture_rule(&f.texture).and_then(|rule| rule.contents))
        .collect();
    let textured = if ruled.iter().all(Option::is_none) {
        // 1. No face's contents come from a rule: the base game's brush rule.
        brush_meaning(rules.base, faces, base_class, shaders).contents
    } else {
        // 2. Each face's contents, combined.
        let per_face = faces.iter().zip(&ruled).map(|(face, ruled)| {
            ruled.unwrap_or_else(|| {
                brush_meaning(rules.base, std::slice::from_ref(face), "", shaders).contents
            })
        });
        let combined = combine(rules.combine, per_face);
        if rules.base == Game::HalfLife {
            half_life_entity_contents(base_class, combined)
        } else {
            combined
        }
    };
    // 3. The entity's class; origin brushes stay pivots.
    let origin =
        textured.contains(Contents::ORIGIN) || faces.iter().all(|f| is_origin_texture(&f.texture));
    let contents = match entity {
        _ if origin => textured,
        Some(EntityMeaning::Liquid(liquid)) => liquid,
        Some(EntityMeaning::Ladder) => Contents::LADDER,
        Some(EntityMeaning::Illusionary) => textured & !Contents::MASK_ANY_BLOCKING,
        _ => textured,
    };
    BrushMeaning {
        contents,
        game_contents: contents.bits(),
    }
}

/// A brush's contents from its faces' by `how` ([`FaceCombine`]); empty faces never vote.
fn combine(how: FaceCombine, faces: impl Iterator<Item = Contents>) -> Contents {
    let mut voting = faces.filter(|c| !c.is_empty());
    match how {
        FaceCombine::First => voting.next().unwrap_or(Contents::EMPTY),
        FaceCombine::Any => {
            let (all, open) = voting.fold((Contents::EMPTY, false), |(all, open), c| {
                (all | c, open || !c.is_solid())
            });
            if open {
                all & !Contents::MASK_ANY_BLOCKING
            } else {
                all
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_combine_first_or_any() {
        let faces = [
            Contents::EMPTY,
            Contents::SOLID,
            Contents::LAVA,
            Contents::PLAYERCLIP,
        ];
        let first = combine(FaceCombine::First, faces.into_iter());
        let any = combine(FaceCombine::Any, faces.into_iter());
        assert_eq!((first, any), (Contents::SOLID, Contents::LAVA));
        let walls = [Contents::WINDOW | Contents::TRANSLUCENT, Contents::SOLID];
        assert_eq!(
            combine(FaceCombine::Any, walls.into_iter()),
            Contents::SOLID | Contents::WINDOW | Contents::TRANSLUCENT
        );
        let none = [Contents::EMPTY; 3];
        assert_eq!(combine(FaceCombine::First, none.into_iter()), Contents::EMPTY);
        assert_eq!(combine(FaceCombine::Any, none.into_iter()), Contents::EMPTY);
    }
}
