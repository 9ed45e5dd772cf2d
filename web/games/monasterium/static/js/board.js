/* Monasterium: shared presentation helpers for the table, phone and host pages.
 * `MONA.model(msg)` reads a server `view` message whose `view` is the engine's public_view or
 * seat_view (engine/monasterium/views.py); the renderers draw the dice spaces (every die
 * where it lies, in its colour), the monasteries, the players' boards and the missions. */
(function () {
  "use strict";
  var h = TC.h, t = TC.t;
  var RES = ["influence", "soup", "rosary", "tool", "book"];
  var ICONS = {influence: "♛", soup: "♨", rosary: "✝", tool: "⚒", book: "▤", prestige: "★"};
  var COLOURS = {blue: "#2f6fd0", red: "#c8352b", green: "#237a35", yellow: "#d9a400"};
  var SEAT_COLOUR = {N: "blue", E: "red", S: "green", W: "yellow"};
  var PIPS = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

  function obj(x) { return x && typeof x === "object" && !Array.isArray(x) ? x : {}; }
  function arr(x) { return Array.isArray(x) ? x : []; }
  function itemName(k) { return t("item_" + k); }

  var playerNames = {};  // seat -> player name, from the latest view (a die's tooltip)

  function model(msg) {
    var v = obj(msg.view);
    var players = {};
    arr(msg.players).forEach(function (p) {
      players[p.seat] = {name: p.name, connected: p.connected};
      playerNames[p.seat] = p.name;
    });
    Object.keys(obj(v.players)).forEach(function (s) { players[s] = Object.assign({}, v.players[s], players[s] || {}); });
    return {msg: msg, view: v, seats: arr(v.seats), players: players, prompts: arr(msg.prompts),
      choices: arr(msg.choices), log: arr(msg.log), me: v.me || null, mine: v.mine || null, over: !!v.over};
  }

  function colour(seat) { return COLOURS[SEAT_COLOUR[seat]] || "#777"; }
  function style(seat) {
    return seat ? {"--pc": colour(seat), "--pc-ink": seat === "W" ? "#222" : "#fff"} : null;
  }
  function who(m, seat) { return seat === "table" ? t("the_table") : (obj(m.players[seat]).name || seat); }
  function seatTag(m, seat) { return h("span.seat-tag", {style: style(seat)}, who(m, seat)); }

  function roundLine(m) {
    var v = m.view;
    if (m.over) return t("game_over");
    return t("year_round", {year: v.year, years: v.years, round: v.round, rounds: v.rounds}) +
      " · " + t("phase_" + v.phase);
  }

  function chips(items, opts) {
    opts = opts || {};
    items = obj(items);
    return h("span.items", Object.keys(items).filter(function (k) { return typeof items[k] === "number" && (items[k] || opts.zeros); })
      .map(function (k) {
        return h("span.item" + (items[k] ? "" : ".zero"), {title: itemName(k), dataset: {item: k}},
          h("span.icon", {"aria-hidden": "true"}, ICONS[k] || ""), h("b", String(items[k])), opts.short ? null : " " + itemName(k));
      }));
  }

  /** One die in its colour (white: neutral) with its face. */
  function die(id, d, extra) {
    d = obj(d);
    var owner = d.owner;
    return h("span.die" + (owner ? ".personal" : ".neutral"), {style: owner ? style(owner) : null,
      dataset: {die: id, key: "die-" + id}, title: owner ? t("personal_die_of", {seat: playerNames[owner] || owner}) : t("neutral_die")},
    d.face ? String(d.face) : "?", extra || null);
  }

  function spaces(m) {
    var dice = obj(m.view.dice);
    return [1, 2, 3, 4, 5, 6].map(function (n) {
      var here = Object.keys(dice).filter(function (id) { return dice[id].at === "space" && dice[id].face === n; }).sort();
      return h("div.space", {dataset: {space: n, key: "space-" + n}},
        h("div.space-head", h("span.pip", {"aria-hidden": "true"}, PIPS[n]), " ", n === 6 ? t("joker") : t("column_n", {col: "ABCDE"[n - 1]})),
        h("div.dice", here.map(function (id) { return die(id, dice[id]); })),
        here.length ? null : h("span.small.muted", "–"));
    });
  }

  function hands(m) {
    var dice = obj(m.view.dice);
    return m.seats.map(function (seat) {
      var mine = Object.keys(dice).filter(function (id) {
        return (dice[id].at === "hand" || dice[id].at === "tile") && dice[id].holder === seat;
      }).sort();
      if (!mine.length) return null;
      return h("div.hand-row", {dataset: {seat: seat, key: "hand-" + seat}}, seatTag(m, seat), " ",
        mine.map(function (id) { return die(id, dice[id], dice[id].at === "tile" ? h("sub", dice[id].col) : null); }));
    });
  }

  function monasteries(m) {
    var mons = obj(m.view.monasteries);
    return Object.keys(mons).sort().map(function (id) {
      var x = mons[id];
      var b = obj(x.buildings);
      return h("div.monastery", {dataset: {monastery: id, key: "mon-" + id}},
        h("div.mon-head", h("b", t("monastery_n", {m: id})), h("span.small", " · " + t("glass_left", {n: x.glass}))),
        h("div.row.small", Object.keys(b).sort().map(function (bid) {
          var who = b[bid];
          var kind = bid.split(".")[1].replace(/\d+$/, "");
          return h("span.slot" + (who && who !== "#" ? ".taken" : "") + (who === "#" ? ".blocked" : ""),
            {style: who && who !== "#" ? style(who) : null, title: t("building_" + kind), dataset: {space: bid}},
            t("short_" + kind));
        })),
        h("div.row.small", h("span", t("label_chapel") + ": "), arr(x.chapel).map(function (seat) { return h("span.dot-s", {style: style(seat), title: seat}); }),
          " · ", h("span", t("label_cloister") + ": "), Object.keys(obj(x.cloister)).sort().map(function (c) {
            var who = x.cloister[c];
            return h("span.dot-s" + (who ? "" : ".free"), {style: who ? style(who) : null, title: c});
          })));
    });
  }

  // The 3 x 3 grid means nothing to a player without its name, so the name stands above it
  // (the figcaption names the figure for a screen reader too: the table needs no name of its own).
  function windowGrid(p) {
    return h("figure.window", h("figcaption", t("window")),
      h("table", h("tbody", arr(p.window).map(function (row) {
        return h("tr", arr(row).map(function (cell) { return h("td", cell || "·"); }));
      }))));
  }

  function playerCards(m) {
    return m.seats.map(function (seat) {
      var p = obj(m.players[seat]);
      var acting = m.prompts.some(function (x) { return x.seat === seat; });
      return h("div.player-card" + (acting ? ".is-acting" : ""), {style: style(seat), dataset: {seat: seat, key: "p-" + seat}},
        h("div.row", h("span.name.grow", h("span.dot"), p.name || seat),
          m.view.first === seat ? h("b.start-badge", "♔ " + t("first_player")) : null),
        h("div.row.big-line", h("span.vp", String(p.prestige)), h("span.small", t("prestige")),
          windowGrid(p)),
        chips(p.res, {short: true, zeros: true}),
        h("div.small", t("road_space", {n: p.road}), " · ", t("personal_dice", {n: p.personal}),
          p.reroll_used ? " · " + t("reroll_used") : "",
          arr(p.yellow).length ? " · " + t("yellow_columns", {cols: arr(p.yellow).join(" ")}) : ""),
        p.connected === false ? h("div.small.muted", t("phone_offline")) : null);
    });
  }

  function missionList(m) {
    var cards = obj(m.view.mission_cards);
    return h("ul.missions", arr(m.view.missions).map(function (id) {
      var c = obj(cards[id]);
      var claimed = m.seats.filter(function (s) { return id in obj(obj(m.players[s]).missions); });
      var what = c.type === "C" ? t("mission_" + c.condition)
        : c.area === "any" ? t("mission_any", {n: c.count, m: c.monastery})
        : t("mission_area", {n: c.count, area: t("area_" + c.area), m: c.monastery});
      var pts = Array.isArray(c.points) ? c.points.join("/") : String(c.points);
      return h("li", {dataset: {mission: id}}, h("b", c.type + " "), what, h("span.small", " · ★ " + pts), " ",
        claimed.map(function (s) { return h("span.dot-s", {style: style(s), title: who(m, s)}); }));
    }));
  }

  function logList(m) {
    return m.log.slice().reverse().slice(0, 60).map(function (e) {
      return h("li", {dataset: {key: "log-" + e.seq + "-" + e.type}}, e.text || e.type, TC.why(e.rule));
    });
  }

  function finalScores(m) {
    if (!m.over) return null;
    var fin = obj(m.view.final);
    return h("section.panel.scores", {id: "final-scores"}, h("h2", t("final_scores")),
      h("table", h("thead", h("tr", h("th", "#"), h("th", t("player")), h("th", t("prestige")),
        h("th", t("majorities")), h("th", t("chapels")), h("th", t("cloisters")), h("th", t("resources")))),
      h("tbody", arr(m.view.scores).map(function (r) {
        var f = obj(fin[r.seat]);
        return h("tr", {dataset: {seat: r.seat}}, h("td", String(r.rank)), h("td", seatTag(m, r.seat), r.winner ? " ★" : ""),
          h("td", h("b", String(r.vp))), h("td", String(f.majorities || 0)), h("td", String(f.chapels || 0)),
          h("td", String(f.cloisters || 0)), h("td", String(f.resources || 0)));
      }))));
  }

  /** Entering a roll by hand: one row per die to roll, its six faces; sends when complete. */
  var entered = {};
  function rollEntry(m, by, rerender) {
    var ids = arr(m.view.to_roll);
    if (!ids.length) return null;
    var dice = obj(m.view.dice);
    var key = ids.join(",");
    if (entered.key !== key) entered = {key: key, faces: {}};
    var ready = ids.every(function (id) { return entered.faces[id]; });
    return h("div.roll-entry", {id: "roll-entry"},
      h("h3", t("enter_roll", {n: ids.length})),
      ids.map(function (id) {
        return h("div.roll-row", {dataset: {die: id}}, die(id, {owner: dice[id] && dice[id].owner, face: entered.faces[id]}),
          [1, 2, 3, 4, 5, 6].map(function (f) {
            return h("button.face" + (entered.faces[id] === f ? "" : ".secondary"), {type: "button",
              dataset: {face: f}, "aria-label": t("die_shows", {n: f}),
              onclick: function () { entered.faces[id] = f; rerender(); }}, String(f));
          }));
      }),
      h("div.row", h("button", {type: "button", id: "send-roll", disabled: !ready, onclick: function () {
        TC.act({type: "roll", by: by, faces: entered.faces});
      }}, t("send_roll")),
      h("button.secondary", {type: "button", id: "app-roll", onclick: function () { TC.act({type: "roll", by: by}); }},
        t("app_rolls"))));
  }

  function promptText(m, p) { return p.text || t("prompt_" + p.kind); }

  window.MONA = {RES: RES, obj: obj, arr: arr, itemName: itemName, model: model, style: style, who: who,
    seatTag: seatTag, roundLine: roundLine, chips: chips, die: die, spaces: spaces, hands: hands,
    monasteries: monasteries, windowGrid: windowGrid, playerCards: playerCards, missionList: missionList,
    logList: logList, finalScores: finalScores, rollEntry: rollEntry, promptText: promptText,
    colour: colour};
})();
