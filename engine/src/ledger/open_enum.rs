//! `open_enum!`: the shape of a closed set of names that a ledger holds as a free string.
//!
//! A value read from a ledger is untrusted and may come from a newer (or older) writer: each
//! such set (kinds, statuses, phases, goals, modes, and the fix-acceptance record's signals,
//! results and verdicts) is an enum of the known snake_case names plus `Other(String)`, which
//! keeps an unknown value exactly as written, so that a ledger loads and saves back
//! byte-identically. Serialized as the bare string either way; its JSON Schema is any string
//! (the known names as examples). Used by the ledger's own types and, for the `verification`
//! record a session keeps in its ledger, by the operations above (`crate::ledger::open_enum`).

/// An enum of known snake_case names plus `Other(String)` for a value this version does not
/// know, serialized as the bare string either way (so it loads and saves back as written).
macro_rules! open_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $s:literal,)+ }) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum $name {
            $($(#[$vm])* $var,)+
            /// A value this version does not know, kept verbatim.
            Other(String),
        }

        impl $name {
            /// The known names, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$($s),+];

            /// The name as written in the ledger.
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$var => $s,)+
                    Self::Other(s) => s,
                }
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                match s {
                    $($s => Self::$var,)+
                    other => Self::Other(other.to_owned()),
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
                ser.serialize_str(self.as_str())
            }
        }

        /// Any string: the known names, or a value this version keeps verbatim.
        impl ::schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn json_schema(_: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                ::schemars::json_schema!({
                    "type": "string",
                    "description": concat!("Known values: ", $("`", $s, "` ",)+ "(another string is kept verbatim)."),
                    "examples": [$($s),+]
                })
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
                <String as ::serde::Deserialize>::deserialize(de).map(|s| Self::from(s.as_str()))
            }
        }
    };
}

pub(crate) use open_enum;
