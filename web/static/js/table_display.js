/* The table display's shared parts (web/templates/table.html), whatever the game: the lobby
 * with the join codes (each seat's card shows whether its seat is taken; the lobby covers the
 * screen until every seat is or play has begun, then the free seats' codes stay at the side;
 * it hides when the game is over) and the camera and dice reader status in the top bar. The game's scripts draw everything else and start the socket. */
(function () {
  "use strict";
  var t = TC.t;

  function obj(x) { return x && typeof x === "object" && !Array.isArray(x) ? x : {}; }
  function arr(x) { return Array.isArray(x) ? x : []; }

  /** Camera and dice reader, when present: their state and their latest warning (the
   *  server's translated `message` when it gives one, else the English template filled). */
  function hardwareLine(hw) {
    return Object.keys(hw).filter(function (k) {
      return k !== "table" && obj(hw[k]).state && hw[k].state !== "absent";
    }).map(function (k) {
      var st = hw[k];
      var warn = arr(st.warnings).slice(-1)[0] || st.warning || null;
      var text = warn ? (warn.message || TC.fmt(warn.template || warn.code || "", obj(warn.params))) : "";
      if (k === "dice" && st.source === "phones") return t("hw_dice_phones");
      var label = t("hw_state_" + st.state);
      if (label === "hw_state_" + st.state) label = st.state;  // a state we have no word for
      var name = k === "dice" && st.source === "camera" ? t("hw_dice_camera") : t("hw_" + k);
      return name + ": " + label + (text ? " ⚠ " + text : "");
    }).join(" · ");
  }

  /** The lobby covers the board until every seat is taken (claimed when the page loaded, or
   *  seen connected since) or the table plays on without some phones. Nothing on the TV
   *  brings it back: that needs the host (a new join code, then the table page reloaded). */
  var taken = {};
  var lobbyClosed = false;

  function updateJoin(msg) {
    var lobby = document.getElementById("join-panel");
    if (!lobby) return;
    var connected = {};
    arr(msg.players).forEach(function (p) { connected[p.seat] = !!p.connected; });
    var all = true;
    lobby.querySelectorAll(".join-card").forEach(function (card) {
      var seat = card.dataset.seat;
      if (connected[seat] || card.classList.contains("joined")) taken[seat] = true;
      var on = !!taken[seat];
      all = all && on;
      card.classList.toggle("joined", on);
      var st = card.querySelector(".join-state");
      if (st) st.textContent = on ? t("joined") : t("waiting_join");
    });
    var over = obj(msg.view).over || msg.closed;
    lobby.hidden = all || lobbyClosed || !!over;
    // Once play has begun the board shows: the free seats' codes move to the side.
    var side = !lobby.hidden && msg.version > 0;
    lobby.classList.toggle("side", side);
    document.body.classList.toggle("lobby-open", !lobby.hidden && !side);
    document.body.classList.toggle("lobby-side", side);
  }

  TC.onView(function (msg) {
    updateJoin(msg);
    TC.replace("hw-status", hardwareLine(obj(msg.hardware)));
  });

  document.addEventListener("DOMContentLoaded", function () {
    var close = document.getElementById("lobby-close");
    if (close) close.addEventListener("click", function () {
      lobbyClosed = true;
      if (TC.view) updateJoin(TC.view);
    });
  });
})();
