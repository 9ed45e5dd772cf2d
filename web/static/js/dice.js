/* Host dice page: the reader's status, polled every 2 s from /host/<id>/dice/status.json.
 * The roles form is a plain POST (the server checks and saves it). Warnings arrive
 * translated by the server (`message`). */
(function () {
  "use strict";
  var t = TC.t;
  var game = document.getElementById("dice-page").dataset.game;
  var POLL_MS = 2000;
  var COUNTERS = ["crc_errors", "garbage", "malformed", "gaps", "missed_rolls", "reconnects",
    "device_errors"];

  function label(prefix, value) {
    var key = prefix + value, text = t(key);
    return text === key ? String(value) : text;
  }

  function dieText(id, d) {
    d = d || {};
    return id + (d.face !== undefined && d.face !== null ? " = " + d.face : "") +
      (d.state ? " (" + label("hwp_die_", String(d.state).toLowerCase()) + ")" : "");
  }

  function render(st) {
    var r = st.reader || {};
    if (st.source) TC.replace("dice-source", label("dice_source_", st.source));
    TC.replace("dice-state", label("hwp_reader_", r.state || st.state || "absent"));
    TC.replace("dice-detail", st.detail || "");
    TC.replace("dice-port", r.port || "–");
    TC.replace("dice-firmware", r.firmware || "–");
    var dice = r.dice || {};
    TC.replace("dice-dice", Object.keys(dice).map(function (id) { return dieText(id, dice[id]); }).join(", ") || "–");
    TC.replace("dice-last_roll", r.last_roll === null || r.last_roll === undefined ? "–" : String(r.last_roll));
    COUNTERS.forEach(function (k) { TC.replace("dice-" + k, String(r[k] || 0)); });
    TC.replace("dice-applied", st.last_applied ? String(st.last_applied.value) : "–");
    var w = st.warning;
    TC.replace("dice-warning", w ? (w.message || w.code) : "");
  }

  function poll() {
    fetch("/host/" + game + "/dice/status.json", {credentials: "same-origin"})
      .then(function (res) { return res.ok ? res.json() : null; })
      .then(function (st) { if (st) render(st); })
      .catch(function () { /* the next poll tries again */ })
      .then(function () { setTimeout(poll, POLL_MS); });
  }

  poll();
})();
