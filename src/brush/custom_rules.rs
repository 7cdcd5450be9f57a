//! The rules a compile applies ([`GameRules`]): a built-in game's, or a custom game's over
//! its base game.
//!
//! Takes a brush's faces and its entity's class, or one face; gives the brush's contents
//! and game value, the side's surface flags, and whether the entity's brushes join the world
//! or are triggers. For a built-in game these are exactly the rules of `solidity.rs` and
//! `surface_rules.rs`; for a custom game ([`CustomGame`](crate::CustomGame), whose docs
//! state the rule in full), its texture and entity rules first and the base game's where
//! none matches. Guarantees: a pure function of the faces, the class, the rules and (Quake
//! 3 base) the shader set.

use super::solidity::{
    BrushMeaning, brush_meaning, half_life_entity_contents, is_origin_texture, is_trigger_class,
    is_world_class,
};
use super::surface_rules::side_surface;
use crate::contents::Contents;
use crate::game::custom::{CustomRules, EntityMeaning};
use crate::game::{FaceCombine, Game, ShaderSet};
use crate::map::MapFace;
use crate::surface::SurfaceFlags;

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
