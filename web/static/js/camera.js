/* Host camera page: the MJPEG preview (an <img>), the camera status polled every 2 s from
 * /host/<id>/camera/status.json, and the calibration wizard's last step (a CSRF POST).
 * Warnings arrive translated by the server (`message`). */
(function () {
  "use strict";
  var t = TC.t, h = TC.h;
  var page = document.getElementById("camera-page");
  var game = page.dataset.game;
  var POLL_MS = 2000;

  function label(prefix, value) {
    var key = prefix + value, text = t(key);
    return text === key ? String(value) : text;  // a value we have no word for
  }

  function number(value, digits) {
    return (value === null || value === undefined) ? "–" : Number(value).toFixed(digits);
  }

  function render(st) {
    TC.replace("cam-state", label("hw_state_", st.state || "absent"));
    TC.replace("cam-fps", number(st.fps, 1));
    TC.replace("cam-decode", number(st.decode_ms, 1));
    TC.replace("cam-calibration", st.calibration ? label("hwp_calibration_", st.calibration) : "–");
    TC.replace("cam-detail", st.detail || "");
    document.getElementById("cam-detail-row").hidden = !st.detail;
    document.getElementById("cam-faces-checking").hidden = !st.faces_checking;
    var sel = st.selected || {}, names = st.selected_names || {};
    TC.replace("cam-selected", Object.keys(sel).map(function (seat) {
      return label("seat_", seat) + ": " + (names[seat] || sel[seat]) + " ";
    }));
    var would = st.would || [];
    document.getElementById("cam-would-title").hidden = !would.length;
    TC.replace("cam-would", would.slice().reverse().map(function (w) { return h("li", w.text || ""); }));
    var warnings = st.warnings || [];
    document.getElementById("cam-warnings-title").hidden = !warnings.length;
    TC.replace("cam-warnings", warnings.slice().reverse().map(function (w) {
      return h("li", (w.message || TC.fmt(w.template || w.code || "", w.params || {})) + (w.count ? " (×" + w.count + ")" : ""));
    }));
  }

  function poll() {
    fetch("/host/" + game + "/camera/status.json", {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (st) { if (st) render(st); })
      .catch(function () { /* the next poll tries again */ })
      .then(function () { setTimeout(poll, POLL_MS); });
  }

  var img = document.getElementById("cam-preview");
  if (img) {
    img.addEventListener("error", function () {
      img.hidden = true;
      document.getElementById("cam-none").hidden = false;
    });
  }

  var form = document.getElementById("calibrate-form");
  var result = document.getElementById("calibrate-result");
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var button = document.getElementById("calibrate");
    button.disabled = true;
    result.className = "";
    result.textContent = t("hwp_calibrating");
    fetch(form.action, {
      method: "POST", credentials: "same-origin",
      headers: {"X-CSRF-Token": TC.config.csrf_token, "Accept": "application/json"}
    }).then(function (r) {
      return r.json().catch(function () { return {ok: false, message: t("no_answer")}; });
    }).then(function (body) {
      result.className = body.ok ? "result-ok" : "form-errors";
      result.textContent = body.message || (body.ok ? t("done") : t("no_answer"));
    }).catch(function () {
      result.className = "form-errors";
      result.textContent = t("no_answer");
    }).then(function () { button.disabled = false; });
  });

  poll();
})();
