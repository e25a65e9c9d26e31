//! The browser's storage: local storage for what should outlive the tab (the theme, the
//! confirmation policy, the call timeout, arguments and saved servers), the tab's session
//! storage for what only a reload brings back (where the person was).

/// `window.localStorage`, when the page may use it.
pub fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// `window.sessionStorage`: this tab's, kept across reloads only.
pub fn session() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}
