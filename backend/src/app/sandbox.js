// The sandbox proxy of MCP Playground: the one script of the App-view origin. It tells the
// page it is ready, loads the view the page sends it into an inner frame with no origin of
// its own (sandboxed without allow-same-origin, so it can reach no cookie or storage, and
// inherits this document's Content-Security-Policy), and carries messages both ways: from
// the page only, to the view only, and never a `ui/notifications/sandbox-*` of the view's.
(function () {
  "use strict";
  var host = new URL(location.href).searchParams.get("host");
  var inner = null;
  var RESERVED = "ui/notifications/sandbox-";
  var FEATURES = { camera: "camera", microphone: "microphone", geolocation: "geolocation", clipboardWrite: "clipboard-write" };

  function reserved(m) {
    return m !== null && typeof m === "object" && typeof m.method === "string" && m.method.indexOf(RESERVED) === 0;
  }

  function load(params) {
    if (inner || !params || typeof params.html !== "string") return;
    inner = document.createElement("iframe");
    inner.setAttribute("sandbox", "allow-scripts allow-forms");
    var allow = [];
    var asked = params.permissions || {};
    Object.keys(FEATURES).forEach(function (k) {
      if (asked[k] !== undefined) allow.push(FEATURES[k]);
    });
    if (allow.length) inner.setAttribute("allow", allow.join("; "));
    inner.setAttribute("title", "App view");
    inner.srcdoc = params.html;
    document.body.appendChild(inner);
  }

  window.addEventListener("message", function (ev) {
    var m = ev.data;
    if (ev.source === window.parent && ev.origin === host) {
      if (reserved(m)) {
        if (m.method === RESERVED + "resource-ready") load(m.params);
        return;
      }
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(m, "*");
    } else if (inner && ev.source === inner.contentWindow) {
      if (reserved(m)) return;
      window.parent.postMessage(m, host);
    }
  });

  if (host) window.parent.postMessage({ jsonrpc: "2.0", method: RESERVED + "proxy-ready", params: {} }, host);
})();
