//! The browser's local storage, where the page keeps what should survive a reload: the
//! theme, the confirmation policy, the call timeout, arguments and saved servers.

/// `window.localStorage`, when the page may use it.
pub fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}
