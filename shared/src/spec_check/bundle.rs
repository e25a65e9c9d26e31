//! The official schemas as the build script found them (none when it found no folder).

include!(concat!(env!("OUT_DIR"), "/bundled_schemas.rs"));
