//! `named_bit_set!`: the operations shared by planeshift's named 32-bit sets
//! ([`Contents`](crate::Contents), [`SurfaceFlags`](crate::SurfaceFlags)).
//!
//! Takes a tuple struct over `u32` that has an associated `NAMED: [(&str, Self); N]` table
//! (one bit per entry, each with its own name); gives the set operations, name lookups, the
//! operators and `Display`/`Debug`. Guarantees: every operation is a plain bit operation;
//! `Display` writes the names in table order joined by `|`, then any unnamed bits in hex,
//! and `empty` for no bit.

/// Implements the shared operations for `$set` (see the module docs).
macro_rules! named_bit_set {
    ($set:ident) => {
        impl $set {
            /// Nothing set.
            pub const EMPTY: $set = $set(0);

            /// The raw bits.
            #[must_use]
            pub const fn bits(self) -> u32 {
                self.0
            }

            /// Whether no bit is set.
            #[must_use]
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }

            /// Whether every bit of `other` is set here.
            #[must_use]
            pub const fn contains(self, other: $set) -> bool {
                self.0 & other.0 == other.0
            }

            /// Whether any bit of `mask` is set here.
            #[must_use]
            pub const fn intersects(self, mask: $set) -> bool {
                self.0 & mask.0 != 0
            }

            /// Both sets of bits.
            #[must_use]
            pub const fn union(self, other: $set) -> $set {
                $set(self.0 | other.0)
            }

            /// The bits set in both.
            #[must_use]
            pub const fn intersection(self, other: $set) -> $set {
                $set(self.0 & other.0)
            }

            /// The named bits set here, as names, in table order (bits without a name are
            /// skipped; see `unnamed`).
            pub fn names(self) -> impl Iterator<Item = &'static str> {
                Self::NAMED
                    .into_iter()
                    .filter(move |(_, bit)| self.contains(*bit))
                    .map(|(name, _)| name)
            }

            /// The bits set here that have no name.
            #[must_use]
            pub fn unnamed(self) -> $set {
                let named = Self::NAMED.iter().fold(0, |all, (_, bit)| all | bit.0);
                $set(self.0 & !named)
            }

            /// The bit called `name` (as `names` spells it), if any.
            #[must_use]
            pub fn from_name(name: &str) -> Option<$set> {
                Self::NAMED
                    .iter()
                    .find(|(known, _)| *known == name)
                    .map(|(_, bit)| *bit)
            }
        }

        impl ::std::ops::BitOr for $set {
            type Output = $set;
            fn bitor(self, rhs: $set) -> $set {
                self.union(rhs)
            }
        }

        impl ::std::ops::BitOrAssign for $set {
            fn bitor_assign(&mut self, rhs: $set) {
                self.0 |= rhs.0;
            }
        }

        impl ::std::ops::BitAnd for $set {
            type Output = $set;
            fn bitand(self, rhs: $set) -> $set {
                self.intersection(rhs)
            }
        }

        impl ::std::ops::BitAndAssign for $set {
            fn bitand_assign(&mut self, rhs: $set) {
                self.0 &= rhs.0;
            }
        }

        impl ::std::ops::Not for $set {
            type Output = $set;
            fn not(self) -> $set {
                $set(!self.0)
            }
        }

        /// The names joined by `|`, then any unnamed bits in hex; `empty` for none.
        impl ::std::fmt::Display for $set {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                if self.is_empty() {
                    return f.write_str("empty");
                }
                let mut first = true;
                for name in self.names() {
                    if !first {
                        f.write_str("|")?;
                    }
                    f.write_str(name)?;
                    first = false;
                }
                let rest = self.unnamed();
                if !rest.is_empty() {
                    if !first {
                        f.write_str("|")?;
                    }
                    write!(f, "{:#x}", rest.0)?;
                }
                Ok(())
            }
        }

        impl ::std::fmt::Debug for $set {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, "{}({self})", stringify!($set))
            }
        }
    };
}

pub(crate) use named_bit_set;
