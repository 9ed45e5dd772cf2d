/* The table display: the shared board, large, readable from 2 m, on one TV screen. Also what
 * the table itself records when the camera or the dice reader does not: the cards laid out,
 * the architect drawn from the bag (one tap: its colour), the event card, the tax die. */
(function () {
  "use strict";
  var h = TC.h, t = TC.t, P = window.POTE;

  /** Who must act and what: one block per acting seat in that seat's colour. */
  function banner(m) {
    var note = m.over ? TC.winnerLine(P.arr(m.view.scores), function (seat) { return P.who(m, seat); }) : (m.msg.closed ? t("game_closed") : (m.msg.paused ? t("paused") : null));
    if (note) return h("div.turn-seat.neutral", h("span.what", note));
    var bySeat = {}, order = [];
    m.prompts.forEach(function (p) {
      if (!bySeat[p.seat]) { bySeat[p.seat] = []; order.push(p.seat); }
      var text = P.promptText(m, p);
      if (bySeat[p.seat].indexOf(text) < 0) bySeat[p.seat].push(text);
    });
    if (!order.length) return h("div.turn-seat.neutral", h("span.what", t("waiting")));
    return order.map(function (seat) {
      var p = m.players[seat];
      return h("div.turn-seat" + (p ? "" : ".neutral"), {dataset: {seat: seat, key: "turn-" + seat},
        style: p ? P.playerStyle(p) : null}, h("span.what", bySeat[seat].join(" · ")));
    });
  }

  /* ---------- what the table records by hand ---------- */

  var GROUP_TITLES = {reveal_privilege: "lay_privileges", reveal_craftsman: "lay_craftsmen",
    reveal_material: "lay_materials", draw_architect: "which_colour_drawn",
    reveal_event: "which_event", roll_tax: "tax_die_result"};

  function choiceLabel(m, c) {
    var a = c.action;
    if (a.type === "draw_architect") return P.who(m, a.seat);
    if (a.type === "roll_tax") return String(a.face);
    if (a.card) return P.nm(a.card);
    return t("action_" + a.type);
  }

  /** Every decision the table owes, one group of buttons per kind of input (a craftsman
   *  by where it lies: Shiring or the supply). "Let the app draw" is the table step's
   *  button above (table_steps.js), also on the host page. */
  function tableInputs(m) {
    if (!m.prompts.some(function (p) { return p.seat === "table"; })) return [];
    var groups = {}, order = [];
    m.choices.forEach(function (c) {
      var type = c.action.type;
      if (type === "deal") return;
      if (type === "roll_tax" && TC.cameraRolls(m.msg)) return;  // the camera reads the die
      var key = type + (c.action.to ? ":" + c.action.to : "");
      if (!groups[key]) { groups[key] = []; order.push(key); }
      groups[key].push(c);
    });
    return order.map(function (key) {
      var type = key.split(":")[0], to = key.split(":")[1];
      var seen = {};
      var list = groups[key].filter(function (c) {  // the tax die's faces 3 and 4 come twice
        var k = choiceLabel(m, c);
        if (seen[k]) return false;
        seen[k] = true;
        return true;
      });
      var title = to ? t("lay_craftsman_to_" + to) : t(GROUP_TITLES[type] || "action_" + type);
      return h("div.choice-group", {dataset: {kind: type, to: to || "", key: "input-" + key}},
        h("h3", title),
        h("div.choices" + (type === "draw_architect" || type === "roll_tax" ? ".big-buttons" : ""), list.map(function (c) {
          var a = c.action;
          var style = a.type === "draw_architect" ? P.playerStyle(m.players[a.seat]) : null;
          return h("button.choice" + (a.type === "draw_architect" ? ".colour" : ".secondary"),
            {type: "button", disabled: !!c.refused, style: style,
              dataset: {type: a.type, card: a.card || "", seat: a.seat || "", face: a.face || "", to: a.to || ""},
              title: c.refused ? (c.refused.message || c.refused.code) : "",
              onclick: c.refused ? null : function () { TC.act(a); }}, choiceLabel(m, c));
        })));
    });
  }

  /** The TV is never scrolled: after the draft the supply is spent, and the architects,
   *  Kingsbridge and Shiring (what the architects go for) move under it, so the right
   *  column keeps its room for what the table enters; then the log goes to the column
   *  with the most height left (it shows its newest lines, the rest scrolls inside). */
  function arrange(m) {
    var spent = ["prep", "draft"].indexOf(m.view.phase) < 0 && !m.over;
    var col = document.querySelector(".pote " + (spent ? ".col-b" : ".col-c"));
    ["architects-panel", "places-panel"].forEach(function (name) {
      var panel = document.querySelector(".pote ." + name);
      if (col && panel && panel.parentElement !== col) col.appendChild(panel);
    });
    var log = document.querySelector(".pote .area-log");
    var best = null, room = -Infinity;
    // the supply has the middle column until it is spent
    document.querySelectorAll(".pote .col-a, .pote .col-c" + (spent ? ", .pote .col-b" : ""))
      .forEach(function (c) {
        var left = TC.roomLeft(c, log);
        if (left > room) { room = left; best = c; }
      });
    if (best && log && log.parentElement !== best) best.appendChild(log);
  }

  function render(msg) {
    var m = P.model(msg);
    TC.replace("round-line", P.roundLine(m));
    var prompt = document.getElementById("prompt");
    TC.replace(prompt, banner(m));
    prompt.dataset.count = String(prompt.children.length);
    TC.replace("players", P.playerCards(m));
    TC.replace("locations", P.locations(m));
    TC.replace("architects", P.architects(m));
    TC.replace("market", P.market(m));
    TC.replace("round-cards", P.roundCards(m));
    TC.replace("shiring", P.shiring(m));
    TC.replace("kingsbridge", P.kingsbridge(m));
    TC.replace("event-tax", P.eventTax(m));
    var inputs = tableInputs(m);
    document.getElementById("inputs-panel").hidden = !inputs.length;
    TC.replace("inputs", inputs);
    var fin = P.finalScores(m);
    document.getElementById("final").hidden = !fin;
    TC.replace("final", fin);
    TC.replace("log", P.logList(m));
    last = m;
  }

  var last = null;
  // before each fit of the page to the screen (web/static/js/table_display.js)
  TC.game.arrangeTable = function () { if (last) arrange(last); };
  TC.start({render: render});
})();
