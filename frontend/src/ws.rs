//! The only module that touches the WebSocket to the relay: open it (the session cookie the
//! relay set goes with the same-origin handshake; the page never sees a secret), send
//! [`ClientMsg`]s, hand every [`ServerMsg`] to a callback.

use shared::relay::{ClientMsg, ServerMsg};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{CloseEvent, MessageEvent, WebSocket};

/// What the socket reports besides messages.
#[derive(Debug, Clone, PartialEq)]
pub enum SocketState {
    Opening,
    Open,
    /// Closed or never opened, with the reason for a person.
    Lost(String),
    /// None to open: the page is an exported recording.
    Offline,
}

/// An open socket; dropping it closes it.
pub struct RelaySocket {
    ws: WebSocket,
    _handlers: Vec<Closure<dyn FnMut(web_sys::Event)>>,
}

impl Drop for RelaySocket {
    fn drop(&mut self) {
        let _ = self.ws.close();
    }
}

impl RelaySocket {
    /// Opens `/api/ws` on the page's own host.
    pub fn open(
        on_message: impl Fn(ServerMsg) + 'static,
        on_state: impl Fn(SocketState) + 'static,
    ) -> Result<Self, String> {
        let location = web_sys::window().ok_or("no window")?.location();
        let host = location.host().map_err(|_| "no host")?;
        let scheme = if location.protocol().ok().as_deref() == Some("https:") { "wss" } else { "ws" };
        let url = format!("{scheme}://{host}/api/ws");
        let ws = WebSocket::new(&url).map_err(|e| format!("cannot open the relay socket: {e:?}"))?;
        let on_state = std::rc::Rc::new(on_state);
        on_state(SocketState::Opening);

        // A browser does not tell a refused handshake (no session cookie) from a relay that is
        // gone: both close with 1006 before opening. Only one that opened was reached.
        let opened = std::rc::Rc::new(std::cell::Cell::new(false));
        let mut handlers: Vec<Closure<dyn FnMut(web_sys::Event)>> = Vec::new();
        let s = on_state.clone();
        let o = opened.clone();
        handlers.push(Closure::new(move |_: web_sys::Event| {
            o.set(true);
            s(SocketState::Open)
        }));
        ws.set_onopen(Some(handlers[0].as_ref().unchecked_ref()));

        handlers.push(Closure::new(move |e: web_sys::Event| {
            let Some(text) = e.dyn_ref::<MessageEvent>().and_then(|m| m.data().as_string()) else { return };
            // One message, or a burst of them in one socket message.
            match ServerMsg::read_all(&text) {
                Ok(msgs) => msgs.into_iter().for_each(&on_message),
                Err(err) => web_sys::console::error_1(&format!("unreadable relay message: {err}").into()),
            }
        }));
        ws.set_onmessage(Some(handlers[1].as_ref().unchecked_ref()));

        let s = on_state.clone();
        handlers.push(Closure::new(move |e: web_sys::Event| {
            let reason = match e.dyn_ref::<CloseEvent>() {
                _ if !opened.get() => "the relay refused this page or is not running: open the URL that mcp-playground printed (a restarted relay prints a new one)".to_owned(),
                Some(c) if c.code() == 1000 => "the relay closed the connection".to_owned(),
                Some(c) if !c.reason().is_empty() => format!("the relay connection closed: {} ({})", c.reason(), c.code()),
                Some(c) => format!(
                    "the relay connection closed (code {}): is mcp-playground still running? If it restarted, open the URL it printed",
                    c.code()
                ),
                None => "the relay connection closed".to_owned(),
            };
            s(SocketState::Lost(reason));
        }));
        ws.set_onclose(Some(handlers[2].as_ref().unchecked_ref()));

        Ok(Self { ws, _handlers: handlers })
    }

    /// Sends one message; false when the socket is not open.
    pub fn send(&self, msg: &ClientMsg) -> bool {
        let text = serde_json::to_string(msg).expect("client messages serialize");
        self.ws.ready_state() == WebSocket::OPEN && self.ws.send_with_str(&text).is_ok()
    }
}
