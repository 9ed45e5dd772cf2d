/* The table display's shared parts (web/templates/table.html), whatever the game: the lobby
 * with the join codes (each seat's card shows whether its seat is taken; the lobby covers the
 * screen until every seat is or play has begun, then the free seats' codes stay at the side;
 * it hides when the game is over), the camera and dice reader status in the top bar, and the
 * fit of the whole page to the screen. The game's scripts draw everything else and start the
 * socket. */
(function () {
  "use strict";
  var t = TC.t, h = TC.h;

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
      // "elsewhere" with no game at the table (it ended, or the server restarted): free,
      // as the banner says, never "with the game at the table"
      var state = st.state === "elsewhere" && !obj(hw.table).game ? "free" : st.state;
      var label = t("hw_state_" + state);
      if (label === "hw_state_" + state) label = state;  // a state we have no word for
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
    // "Play on without the other phones" is the game's (msg.play_on, kept on the server):
    // a reload of the TV does not bring the lobby back
    lobby.hidden = all || lobbyClosed || !!msg.play_on || !!over;
    // Once play has begun the board shows: the free seats' codes move to the side.
    var side = !lobby.hidden && msg.version > 0;
    lobby.classList.toggle("side", side);
    document.body.classList.toggle("lobby-open", !lobby.hidden && !side);
    document.body.classList.toggle("lobby-side", side);
  }

  /** The turn of a seat with no phone connected: the seat's join code from its lobby card
   *  (a code not used yet), else how its player gets back in, and that the host may play
   *  for it (host page, "Play for ..."). Shown once the lobby is closed. */
  function turnJoin(msg) {
    var box = document.getElementById("turn-join");
    var lobby = document.getElementById("join-panel");
    if (!box) return;
    var owed = {};
    arr(msg.prompts).forEach(function (p) { if (p && p.seat) owed[p.seat] = true; });
    var over = obj(msg.view).over || msg.closed || msg.paused;
    // while the lobby shows (over the board or at its side) its cards hold the codes
    var player = over || !lobby || !lobby.hidden ? null
      : arr(msg.players).filter(function (p) { return owed[p.seat] && !p.connected; })[0];
    box.hidden = !player;
    if (!player) { TC.replace(box, null); return; }
    var card = lobby.querySelector('.join-card[data-seat="' + player.seat + '"]');
    var link = card ? card.querySelector("a.join-link") : null;
    var qr = card ? card.querySelector("svg") : null;
    box.style.setProperty("--pc", player.colour || "#666");
    box.dataset.seat = player.seat;
    var name = player.name;
    TC.replace(box, [
      h("div.turn-join-text",
        h("p.turn-join-who", h("b", t("turn_no_phone", {name: name}))),
        h("p", player.host_plays ? t("turn_host_plays", {name: name})
          : t(link ? "turn_no_phone_scan" : "turn_no_phone_back", {name: name})),
        link ? h("p.url", link.getAttribute("href")) : null),
      qr ? h("div.turn-join-qr", {dataset: {key: "qr-" + player.seat}}) : null]);
    var holder = box.querySelector(".turn-join-qr");
    if (holder && !holder.firstChild) holder.appendChild(qr.cloneNode(true));
  }

  /* ---------- one screen, never scrolled ----------
   * The board is laid out to fit the TV (each game's CSS: columns of panels under
   * `.table-grid .col`, the panels that may give up height marked `.fill` with the least
   * height they keep). When a long language, a longer banner or a fuller step still does not
   * fit, the whole page's type shrinks in steps (down to 80 %) until nothing is cut or below
   * the screen; it grows back once there is room. Below 900 px wide or on a portrait screen
   * the board is one column that scrolls: nothing to fit. */
  var FIT_STEPS = [1, 0.95, 0.9, 0.85, 0.8];

  function cut(el) {
    return el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
  }

  /** Is some part of the screen cut: the page taller than the screen, a panel whose content
   *  overflows it or that reaches below its column, a list that would need scrolling (only
   *  a log and a picker list scroll inside their panel). */
  function overflows() {
    if (document.documentElement.scrollHeight > window.innerHeight + 1) return true;
    var cols = document.querySelectorAll(".table-grid .col");
    for (var i = 0; i < cols.length; i++) {
      var bottom = cols[i].getBoundingClientRect().bottom + 1;
      var panels = cols[i].children;
      for (var j = 0; j < panels.length; j++) {
        var panel = panels[j];
        if (panel.hidden || !panel.offsetParent) continue;
        // a panel that gives up height (.fill) shrinks its list: cut is its heading too
        if (panel.getBoundingClientRect().bottom > bottom || cut(panel)) return true;
      }
      var lists = cols[i].querySelectorAll(".scroll");
      for (var k = 0; k < lists.length; k++) if (lists[k].offsetParent && cut(lists[k])) return true;
    }
    return false;
  }

  function fit() {
    var body = document.body;
    var scrolls = window.innerWidth <= 900 || window.innerWidth <= window.innerHeight;
    body.style.setProperty("--fit", "1");
    // the game may first place its panels for this screen (TC.game.arrangeTable)
    if (typeof TC.game.arrangeTable === "function") TC.game.arrangeTable();
    for (var i = 0; i < FIT_STEPS.length; i++) {
      body.style.setProperty("--fit", String(FIT_STEPS[i]));
      if (scrolls || !overflows()) break;
    }
    body.dataset.fit = body.style.getPropertyValue("--fit");
  }

  /** The height (px) left in a board column `col` beside its panels other than `except`:
   *  each takes its content's height, a panel that gives up height (`.fill`) its least
   *  (its CSS min-height). For a game's `TC.game.arrangeTable`, which may move a panel to
   *  the column with the most room before the page is fitted. */
  function roomLeft(col, except) {
    var used = 0;
    Array.prototype.forEach.call(col.children, function (panel) {
      if (panel === except || panel.hidden || !panel.offsetParent) return;
      used += panel.classList.contains("fill")
        ? parseFloat(getComputedStyle(panel).minHeight) || 0 : panel.scrollHeight;
    });
    var gaps = parseFloat(getComputedStyle(col).rowGap) || 0;
    return col.clientHeight - used - gaps * Math.max(0, col.children.length - 1);
  }

  TC.roomLeft = roomLeft;
  TC.fitTable = fit;  // for a game script that redraws its board between views
  window.addEventListener("load", fit);
  window.addEventListener("resize", fit);

  TC.onView(function (msg) {
    updateJoin(msg);
    turnJoin(msg);
    TC.replace("closed-outcome", msg.outcome || "");
    TC.replace("hw-status", hardwareLine(obj(msg.hardware)));
    fit();
  });

  document.addEventListener("DOMContentLoaded", function () {
    var close = document.getElementById("lobby-close");
    if (close) close.addEventListener("click", function () {
      lobbyClosed = true;
      if (TC.socket) TC.socket.emit("play_on", {}, function () {});  // kept for the game
      if (TC.view) { updateJoin(TC.view); turnJoin(TC.view); }
      fit();
    });
  });
})();
