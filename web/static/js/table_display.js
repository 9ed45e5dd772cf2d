/* The table display's shared parts (web/templates/table.html), whatever the game: the join
 * codes (each seat's card shows whether its phone is connected; the panel folds away once
 * every phone is, and hides when the game is over) and the camera and dice reader status in
 * the top bar. The game's scripts draw everything else and start the socket. */
(function () {
  "use strict";
  var t = TC.t;

  function obj(x) { return x && typeof x === "object" && !Array.isArray(x) ? x : {}; }
  function arr(x) { return Array.isArray(x) ? x : []; }

  /** Camera and dice reader, when present: their state and their latest warning (the
   *  server's translated `message` when it gives one, else the English template filled). */
  function hardwareLine(hw) {
    return Object.keys(hw).filter(function (k) {
      return obj(hw[k]).state && hw[k].state !== "absent";
    }).map(function (k) {
      var st = hw[k];
      var warn = arr(st.warnings).slice(-1)[0] || st.warning || null;
      var text = warn ? (warn.message || TC.fmt(warn.template || warn.code || "", obj(warn.params))) : "";
      var label = t("hw_state_" + st.state);
      if (label === "hw_state_" + st.state) label = st.state;  // a state we have no word for
      return t("hw_" + k) + ": " + label + (text ? " ⚠ " + text : "");
    }).join(" · ");
  }

  function updateJoin(msg) {
    var connected = {};
    arr(msg.players).forEach(function (p) { connected[p.seat] = !!p.connected; });
    var all = true;
    document.querySelectorAll(".join-card").forEach(function (card) {
      var on = !!connected[card.dataset.seat];
      all = all && on;
      card.classList.toggle("joined", on);
      var st = card.querySelector(".join-state");
      if (st) st.textContent = on ? t("joined") : t("waiting_join");
    });
    var panel = document.getElementById("join-panel");
    var over = obj(msg.view).over || msg.closed;
    if (panel && over) panel.hidden = true;
    else if (panel && all && !panel.dataset.userToggled) panel.open = false;
  }

  TC.onView(function (msg) {
    updateJoin(msg);
    TC.replace("hw-status", hardwareLine(obj(msg.hardware)));
  });

  document.addEventListener("DOMContentLoaded", function () {
    var panel = document.getElementById("join-panel");
    if (panel) panel.addEventListener("toggle", function (e) { if (e.isTrusted) panel.dataset.userToggled = "1"; });
  });
})();
