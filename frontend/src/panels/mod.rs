//! The page's panels, one feature per file.

pub mod app_view;
pub mod asks;
pub mod call;
pub mod catalog_list;
pub mod completion;
pub mod confirm;
pub mod connection;
pub mod form;
pub mod header;
pub mod json;
pub mod modal;
pub mod notices;
pub mod prompts;
pub mod recording;
pub mod relay_banner;
pub mod replay;
pub mod resources;
pub mod result;
pub mod saved;
pub mod sequence;
pub mod tasks;
pub mod timeline;
pub mod tools;
pub mod views;
