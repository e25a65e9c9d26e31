//! Enums written with their tag inside (`{"type": "message", "frame": …}`, serde's internally
//! tagged form) and read with the tag first, as they are always written.
//!
//! serde reads an internally tagged enum by buffering the whole object (its private
//! `Content`) until it has found the tag, then reading the variant again from the buffer.
//! In the page that buffering was 58 KB of the first Wasm chunk and, for a flood of
//! 100,000 messages, 138 ms of copying. [`tag_first!`] keeps the JSON exactly as it is
//! and reads it in one pass: the first key must be the tag; the variant's fields follow.
//! What serde itself writes, and what the relay, the page and the recorder write, always
//! has the tag first; an object whose tag comes later is refused with that reason.

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::MapAccessDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, Error as _, MapAccess, VariantAccess, Visitor};

/// Declares an enum that serializes as serde's internally tagged form and deserializes
/// with the tag first. Write it as a serde enum with the `tag` first in its `#[serde]`
/// attribute, that attribute first, and only unit, newtype and struct variants:
///
/// ```ignore
/// tag_first! {
///     #[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
///     /// Docs and derives other than serde's.
///     #[derive(Debug, Clone)]
///     pub enum Event { Started { pid: u32 }, Info(Details), Stopped }
/// }
/// ```
///
/// Reading goes through a private copy of the enum, externally tagged (which serde reads
/// without buffering), fed by [`TagFirst`], then moved into the real one field by field.
macro_rules! tag_first {
    // A newtype variant's binding: the type only ties it to the variant's repetition.
    (@bind $t:ty, $i:ident) => { $i };
    (
        #[serde(tag = $tag:literal $(, $($serde:tt)*)?)]
        $(#[$attr:meta])*
        $vis:vis enum $name:ident {
            $(
                $(#[$vattr:meta])*
                $variant:ident
                $( { $( $(#[$fattr:meta])* $field:ident : $fty:ty ),* $(,)? } )?
                $( ( $inner:ty ) )?
            ),* $(,)?
        }
    ) => {
        $(#[$attr])*
        #[derive(::serde::Serialize)]
        #[serde(tag = $tag $(, $($serde)*)?)]
        $vis enum $name {
            $( $(#[$vattr])* $variant $( { $( $(#[$fattr])* $field : $fty ),* } )? $( ( $inner ) )? ),*
        }

        const _: () = {
            #[derive(::serde::Deserialize)]
            #[serde($($($serde)*)?)]
            enum Wire {
                $( $(#[$vattr])* $variant $( { $( $(#[$fattr])* $field : $fty ),* } )? $( ( $inner ) )? ),*
            }

            impl ::core::convert::From<Wire> for $name {
                fn from(wire: Wire) -> Self {
                    match wire {
                        $(
                            Wire::$variant $( { $( $field ),* } )? $( ($crate::relay::tag_first::tag_first!(@bind $inner, inner)) )?
                                => $name::$variant $( { $( $field ),* } )? $( ($crate::relay::tag_first::tag_first!(@bind $inner, inner)) )?,
                        )*
                    }
                }
            }

            impl<'de> ::serde::Deserialize<'de> for $name {
                fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                    $crate::relay::tag_first::read::<D, Wire>(d, $tag).map(Self::from)
                }
            }
        };
    };
}

pub(crate) use tag_first;

/// Reads `W`, an externally tagged enum, from an object whose first key is `tag`.
pub fn read<'de, D: Deserializer<'de>, W: de::Deserialize<'de>>(d: D, tag: &'static str) -> Result<W, D::Error> {
    d.deserialize_map(Object::<W> { tag, wire: PhantomData })
}

/// The visitor of the whole object.
struct Object<W> {
    tag: &'static str,
    wire: PhantomData<W>,
}

impl<'de, W: de::Deserialize<'de>> Visitor<'de> for Object<W> {
    type Value = W;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "an object with `{}` first", self.tag)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<W, A::Error> {
        W::deserialize(TagFirst { map, tag: self.tag })
    }
}

/// The rest of an object as an externally tagged enum: the tag's value names the variant,
/// the entries after it are the variant's fields.
pub struct TagFirst<A> {
    map: A,
    tag: &'static str,
}

impl<'de, A: MapAccess<'de>> Deserializer<'de> for TagFirst<A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_enum(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, A: MapAccess<'de>> EnumAccess<'de> for TagFirst<A> {
    type Error = A::Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(mut self, seed: V) -> Result<(V::Value, Self), A::Error> {
        match self.map.next_key_seed(Key(self.tag))? {
            Some(true) => {}
            Some(false) => return Err(A::Error::custom(format_args!("`{}` must be the first field", self.tag))),
            None => return Err(A::Error::missing_field(self.tag)),
        }
        let variant = self.map.next_value_seed(seed)?;
        Ok((variant, self))
    }
}

impl<'de, A: MapAccess<'de>> VariantAccess<'de> for TagFirst<A> {
    type Error = A::Error;

    /// A variant without fields: nothing may follow the tag.
    fn unit_variant(mut self) -> Result<(), A::Error> {
        match self.map.next_key::<String>()? {
            None => Ok(()),
            Some(extra) => Err(A::Error::custom(format_args!("unknown field `{extra}`, there are no fields"))),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        seed.deserialize(MapAccessDeserializer::new(self.map))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value, A::Error> {
        Err(A::Error::custom("a tagged object has no tuple variants"))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        visitor.visit_map(self.map)
    }
}

/// Whether a key is the tag, read without copying it.
struct Key(&'static str);

impl<'de> DeserializeSeed<'de> for Key {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a field name")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<bool, E> {
        Ok(key == self.0)
    }
}

#[cfg(test)]
mod tests;
