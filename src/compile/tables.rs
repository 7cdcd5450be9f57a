//! The compiled tables a compile fills beside the brushes: materials, entities, and each
//! model's tree appended to the shared node and leaf tables.
//!
//! Takes what the earlier stages made; gives the records of the compiled file. Guarantees:
//! material ids are dense and in order of first use; every entity is kept in file order, a
//! key/value beyond the file's limits left out with a warning; tree indices are offset into
//! the shared tables, children after parents as the tree stored them.

use std::collections::HashMap;

use super::{Diagnostic, DiagnosticKind, Severity};
use crate::bsp::{BspTree, Child};
use crate::compiled::{CompiledLeaf, CompiledNode, EntityRecord, MapData, NodeChild};
use crate::map::MapEntity;

/// The material table being built: each texture name once, in order of first use.
#[derive(Default)]
pub(super) struct MaterialTable {
    pub names: Vec<String>,
    ids: HashMap<String, u32>,
}

impl MaterialTable {
    /// The id of `name`, added when new.
    pub fn id(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(name.to_owned());
        self.ids.insert(name.to_owned(), id);
        id
    }
}

/// The compiled entity table: every entity in file order with its model, key/values beyond
/// the file's limits left out with a diagnostic each.
pub(super) fn entity_records(
    entities: &[MapEntity],
    model_of_entity: &[Option<u32>],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<EntityRecord> {
    use crate::tolerance::{MAX_ENTITY_PROPERTIES, MAX_ENTITY_STRING};
    entities
        .iter()
        .zip(model_of_entity)
        .map(|(entity, &model)| {
            let mut properties = Vec::with_capacity(entity.properties.len());
            for (key, value) in &entity.properties {
                let long = key.len() > MAX_ENTITY_STRING || value.len() > MAX_ENTITY_STRING;
                if long || properties.len() == MAX_ENTITY_PROPERTIES {
                    let why = if long {
                        format!("longer than {MAX_ENTITY_STRING} bytes")
                    } else {
                        format!("beyond {MAX_ENTITY_PROPERTIES} key/values")
                    };
                    let shown: String = key.chars().take(32).collect();
                    diagnostics.push(Diagnostic {
                        loc: entity.loc,
                        severity: Severity::Warning,
                        kind: DiagnosticKind::EntityPropertyDropped,
                        message: format!("entity key \"{shown}\" left out: {why}"),
                    });
                    continue;
                }
                properties.push((key.clone(), value.clone()));
            }
            EntityRecord { properties, model }
        })
        .collect()
}

/// Appends `tree`'s nodes and leaves (brush indices offset by `first_brush`) and returns
/// its root.
pub(super) fn append_tree(data: &mut MapData, tree: &BspTree, first_brush: u32) -> NodeChild {
    let node_base = data.nodes.len() as u32;
    let leaf_base = data.leaves.len() as u32;
    let convert = |child: Child| match child {
        Child::Node(i) => NodeChild::Node(node_base + i),
        Child::Leaf(i) => NodeChild::Leaf(leaf_base + i),
    };
    for node in &tree.nodes {
        data.nodes.push(CompiledNode {
            plane: node.plane.0,
            children: [convert(node.children[0]), convert(node.children[1])],
        });
    }
    for leaf in &tree.leaves {
        let first = data.leaf_brushes.len() as u32;
        data.leaf_brushes
            .extend(leaf.brushes.iter().map(|b| b + first_brush));
        data.leaves.push(CompiledLeaf {
            contents: leaf.contents,
            first_brush: first,
            brush_count: leaf.brushes.len() as u32,
        });
    }
    convert(tree.root)
}
