/* Liar's dice lite on the shared pages: one script for the table, the phones and the host
 * page (TC.config.role says which). It reads the views of tc_liarsdice/rules.py. */
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
  function bidLine(v) {
    return v.bid ? t("liars_bid", {count: v.bid.count, face: v.bid.face}) : t("liars_no_bid");
  }

  if (role === "host") {  // the shared host.js draws the page; a correction changes points
    TC.game.hostStatus = function (msg) { return bidLine(msg.view || {}); };
    TC.game.adjustItems = function () { return [{value: "points", label: t("liars_points")}]; };
    return;
  }

  function renderTable(msg) {
    var v = msg.view || {};
    TC.replace("liars-bid", bidLine(v));
    TC.replace("liars-last", v.last ? t("liars_last", v.last) : "");
    TC.replace("liars-points", arr(v.seats).map(function (seat) {
      return h("li", {dataset: {key: seat}}, who(msg, seat) + ": " + (v.points || {})[seat]);
    }));
    var prompt = arr(msg.prompts)[0];
    TC.replace("prompt", v.over ? TC.winnerLine(msg.scores, function (s) { return who(msg, s); })
      : (prompt ? prompt.text : ""));
    log(msg);
  }

  function renderPhone(msg) {
    var v = msg.view || {};
    var mine = v.active === TC.config.seat.seat && !v.over;
    TC.replace("liars-prompt", v.over ? TC.winnerLine(msg.scores, function (s) { return who(msg, s); })
      : [h("div", mine ? t("liars_your_turn") : t("liars_turn", {seat: who(msg, v.active)})),
        h("div.small", bidLine(v))]);
    TC.replace("liars-dice", arr(v.dice).join("  "));
    TC.replace("liars-moves", arr(msg.choices).filter(function (c) { return !c.refused; })
      .map(function (c) {
        var a = c.action;
        return h("button", {type: "button", dataset: {key: JSON.stringify(a)},
          onclick: function () { TC.act(a); }},
          a.type === "call" ? t("liars_call") : a.count + " × " + a.face);
      }));
    log(msg);
  }

  TC.start({render: role === "seat" ? renderPhone : renderTable});
})();
