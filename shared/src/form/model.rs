//! The form model: what a tool's `inputSchema` becomes, a tree of fields the page renders
//! one widget per leaf value. Pure data; built by `build`, rendered by the page.

use serde_json::Value;

/// One field: a value of some kind, with its labels and help.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub title: Option<String>,
    pub description: Option<String>,
    pub default: Option<Value>,
    pub examples: Vec<Value>,
    /// `type: [T, "null"]`, `anyOf: [T, {type: null}]` or an enum with `null`: the page
    /// offers an explicit null choice.
    pub nullable: bool,
    /// Keywords this field has that the form does not express; validation still checks them.
    pub notes: Vec<String>,
    pub kind: Kind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    String(StringSpec),
    Number(NumberSpec),
    Boolean,
    Null,
    /// A fixed set of values (`enum`, or `oneOf`/`anyOf` of `const` with titles).
    Enum(Vec<Choice>),
    Const(Value),
    Object(ObjectSpec),
    Array(ArraySpec),
    /// `oneOf`/`anyOf` (or a list of types): a person picks a variant.
    Variants(Vec<Variant>),
    /// A `$ref` back to a schema already being expanded: built when the page needs it.
    Recursive {
        pointer: String,
    },
    /// Anything the form cannot express: a JSON editor for this value only.
    Json {
        reason: String,
    },
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct StringSpec {
    pub format: Option<String>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: Option<String>,
    /// Long text: a textarea rather than a one-line input.
    pub multiline: bool,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct NumberSpec {
    pub integer: bool,
    pub minimum: Option<f64>,
    pub maximum: Option<f64>,
    pub exclusive_minimum: Option<f64>,
    pub exclusive_maximum: Option<f64>,
    pub multiple_of: Option<f64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub value: Value,
    pub label: String,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ObjectSpec {
    pub properties: Vec<Property>,
    /// Values of keys not in `properties` (`additionalProperties` as a schema or `true`);
    /// `None` when extra keys are not offered.
    pub additional: Option<Box<Field>>,
    /// `patternProperties`: regex → field, shown as such; their keys are added like extras.
    pub pattern_properties: Vec<(String, Field)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    pub name: String,
    pub required: bool,
    pub field: Field,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ArraySpec {
    /// Fixed leading positions (`prefixItems`, or draft-07's array form of `items`).
    pub prefix: Vec<Field>,
    /// Items after the prefix; `None` when no more are allowed.
    pub items: Option<Box<Field>>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub unique: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    pub label: String,
    pub field: Field,
}

impl Field {
    pub fn new(kind: Kind) -> Self {
        Field {
            title: None,
            description: None,
            default: None,
            examples: Vec::new(),
            nullable: false,
            notes: Vec::new(),
            kind,
        }
    }

    pub fn json(reason: impl Into<String>) -> Self {
        Field::new(Kind::Json { reason: reason.into() })
    }

    /// The label to show: the title, else the given fallback (usually the property name).
    pub fn label<'a>(&'a self, fallback: &'a str) -> &'a str {
        self.title.as_deref().unwrap_or(fallback)
    }
}
