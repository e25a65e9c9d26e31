//! The official schemas of every revision, minified by the build script.

include!(concat!(env!("OUT_DIR"), "/bundled_schemas.rs"));
