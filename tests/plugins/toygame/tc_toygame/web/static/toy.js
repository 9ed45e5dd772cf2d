/* The toy game on the shared pages: one script for the table, the phone and the host page
 * (TC.config.role says which). It reads the toy engine's views (tc_toygame/rules.py). */
(function () {
  "use strict";
  var h = TC.h, t = TC.t, role = TC.config.role;

  function arr(x) { return Array.isArray(x) ? x : []; }
  function who(msg, seat) {
    var p = arr(msg.players).filter(function (x) { return x.seat === seat; })[0];
    return p ? p.name : seat;
  }
  function log(msg) {
    TC.replace("log", arr(msg.log).slice().reverse().map(function (e) {
      return h("li", e.text || e.type);
    }));
  }

  if (role === "host") {  // the shared host.js draws the page and starts the socket
    TC.game.hostStatus = function (msg) { return t("toy_pot", {n: msg.view.pot}); };
    TC.game.adjustItems = function () { return [{value: "coins", label: t("toy_coins")}]; };
    return;
  }

  function renderTable(msg) {
    var v = msg.view || {};
    TC.replace("toy-pot", String(v.pot));
    TC.replace("toy-plays", [t("toy_plays_n", {n: arr(v.played).length}), " · ",
      v.over ? t("game_over") : t("toy_active", {seat: who(msg, v.active)})]);
    var prompt = arr(msg.prompts)[0];
    TC.replace("prompt", prompt ? prompt.text : (v.over ? t("game_over") : ""));
    // entering a die by hand: the faces of the game's die roles (TC.config.dice); it steps
    // aside while the camera reads the roll (TC.cameraRolls), so no second entry counts
    var dice = arr(TC.config.dice);
    var panel = document.getElementById("toy-die-panel");
    panel.hidden = role !== "table" || !dice.length || !!v.over || TC.cameraRolls(msg);
    TC.replace("toy-die", dice.length ? arr(dice[0].faces).map(function (face) {
      return h("button", {type: "button", dataset: {value: face}, title: t("toy_die_face", {n: face}),
        onclick: function () { TC.act({type: "roll", by: "table", value: face}); }}, String(face));
    }) : []);
    log(msg);
  }

  function renderPhone(msg) {
    var v = msg.view || {};
    var mine = v.active === TC.config.seat.seat && !v.over;
    var prompt = document.getElementById("toy-prompt");
    prompt.textContent = v.over ? t("game_over") : (mine ? t("toy_your_turn")
      : t("toy_active", {seat: who(msg, v.active)}));
    TC.replace("toy-hand", arr(msg.choices).map(function (c) {
      return h("button.toy-card", {type: "button", disabled: !!c.refused,
        title: c.refused ? c.refused.message : null, dataset: {card: c.action.card},
        onclick: function () { TC.act(c.action); }}, TC.name((TC.config.names || {})[c.action.card], c.action.card));
    }));
    TC.replace("toy-coins", String(v.coins));
    log(msg);
  }

  TC.start({render: role === "seat" ? renderPhone : renderTable});
})();
