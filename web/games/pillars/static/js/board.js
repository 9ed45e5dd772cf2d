/* The Pillars of the Earth: shared presentation helpers for the table, phone and host pages.
 *
 * `POTE.model(msg)` reads a server `view` message (docs/socket-protocol.md) whose `view` is
 * the engine's public_view or seat_view (engine/pillars/views.py) into one flat model, so the
 * view's shape is read in one place. The renderers draw the public board: players, the
 * board's locations with the architects on them, the market, the cards of the round, the
 * architects' bag and wheel, the event and the tax, the log and the final scores.
 */
(function () {
  "use strict";
  var h = TC.h, t = TC.t;
  var CUBES = ["wood", "stone", "sand", "metal"];
  var ICONS = {wood: "▮", stone: "▪", sand: "◆", metal: "⬣", gold: "●", vp: "★",
    workers: "☗", mill: "⚙"};
  var COLOURS = {blue: "#2f6fd0", red: "#c8352b", green: "#237a35", yellow: "#d9a400"};

  function obj(x) { return x && typeof x === "object" && !Array.isArray(x) ? x : {}; }
  function arr(x) { return Array.isArray(x) ? x : []; }

  /** A catalog id's name in the page's language (the page context carries every id's names). */
  function nm(id) {
    if (id === null || id === undefined) return "";
    return TC.name(obj(TC.config.names)[id], String(id).replace(/_/g, " "));
  }

  function itemName(k) { return t("item_" + k); }
  /** ``n`` of the cube, gold or VP ``k`` in the page language's plural form ("3 piedras"),
   *  written ``shown`` ("+3", "−1") where given. */
  function counted(k, n, shown) {
    return TC.counted(k, n, shown) || (shown === undefined ? n : shown) + " " + itemName(k);
  }

  function model(msg) {
    var v = obj(msg.view);
    var players = {};
    arr(msg.players).forEach(function (p) { players[p.seat] = {name: p.name, connected: p.connected}; });
    Object.keys(obj(v.players)).forEach(function (seat) {
      players[seat] = Object.assign({}, v.players[seat], players[seat] || {});
    });
    return {msg: msg, view: v, seats: arr(v.seats), players: players, prompts: arr(msg.prompts),
      choices: arr(msg.choices), log: arr(msg.log), me: v.me || null, mine: v.mine || null,
      over: !!v.over, cards: obj(v.cards), phase: v.phase};
  }

  function colourOf(p) { return COLOURS[obj(p).colour] || "#777"; }
  function playerStyle(p) { return {"--pc": colourOf(p), "--pc-ink": obj(p).colour === "yellow" ? "#222" : "#fff"}; }
  function who(m, seat) {
    if (seat === "table") return t("the_table");
    return obj(m.players[seat]).name || seat;
  }
  function seatTag(m, seat) {
    return h("span.seat-tag", {style: playerStyle(m.players[seat])}, who(m, seat));
  }

  /** {item: n} as chips: icon, count, the name (short: the name only as a tooltip). */
  function chips(items, opts) {
    opts = opts || {};
    items = obj(items);
    return h("span.items", Object.keys(items).filter(function (k) {
      return typeof items[k] === "number" && (items[k] || opts.zeros);
    }).map(function (k) {
      var n = items[k];
      var sign = opts.sign && n > 0 ? "+" : (n < 0 ? "−" : "");
      // the count's word in the form it asks for ("21 złota", "0 drewna"), the name alone
      // where the thing is not counted
      return h("span.item.cube-" + k + (n ? "" : ".zero"), {title: itemName(k), dataset: {item: k}},
        h("span.icon", ICONS[k] || ""), h("b", sign + Math.abs(n)),
        opts.short ? null : " " + (TC.countWord(k, Math.abs(n)) || itemName(k)));
    }));
  }

  /** {item: n} in words: "2 wood, 1 stone". */
  function itemText(items) {
    items = obj(items);
    return Object.keys(items).filter(function (k) { return typeof items[k] === "number" && items[k]; })
      .map(function (k) { return counted(k, items[k]); })
      .join(", ");
  }

  /** What a craftsman converts: "2 wood → 1 VP, up to 4 times". */
  function conversion(card) {
    card = obj(card);
    if (!card.input) return "";
    var text = t("converts", {input: itemText(card.input) || t("free"), output: itemText(card.output) || "–"});
    if (card.capacity) text += " " + t("times_n", {n: card.capacity});
    if (card.needs) text += " · " + t("needs_card", {card: t("type_" + card.needs)});
    if (card.requires && Object.keys(card.requires).length) text += " · " + t("needs_card", {card: itemText(card.requires)});
    return text;
  }

  /** One card as a small block: name, what it does, DEMO when it is demo data. */
  function cardBox(m, id, extra) {
    var c = obj(m.cards[id]);
    var what = "";
    if (c.part === "craftsmen") what = conversion(c);
    else if (c.part === "materials") what = t("material_yield", {n: c.workers, what: counted(c.cube, c.yield)});
    return h("div.card-box.part-" + (c.part || "x"), {dataset: {card: id, key: "card-" + id}},
      h("div.card-name", nm(id), c.demo ? h("span.demo-badge", {title: t("demo_hint")}, t("demo")) : null),
      what ? h("div.small", what) : null, extra || null);
  }

  function roundLine(m) {
    var v = m.view;
    if (m.over) return t("game_over");
    return t("round_of", {round: v.round, rounds: v.rounds}) + " · " + t("phase_" + v.phase);
  }

  /** "Workers: 12 · free: 7 · placed: 5 · at the mill: 0" (issue 69: as the table has
   *  them), each part whole on its line: a narrow screen wraps between them. */
  function workersLine(w) {
    w = obj(w);
    var text = t("workers_line", {total: w.total || 0, free: w.free || 0, placed: w.placed || 0, mill: w.mill || 0});
    var parts = text.split(" · ");
    if (w.grey) parts.push(t("grey_n", {n: w.grey}));
    var out = [];
    parts.forEach(function (part, i) {
      if (i) out.push(" · ");
      out.push(h("span.nowrap", part));
    });
    return h("div.small.workers", out);
  }

  /* ---------- the public board ---------- */

  function playerCards(m) {
    var final = {};
    arr(obj(m.msg).scores).forEach(function (r) { final[r.seat] = r; });
    return m.seats.map(function (seat) {
      var p = m.players[seat] || {};
      var acting = m.prompts.some(function (x) { return x.seat === seat; });
      var start = seat === m.view.start;
      var w = obj(p.workers);
      return h("div.player-card" + (acting ? ".is-acting" : "") + (start ? ".is-start" : ""),
        {style: playerStyle(p), dataset: {seat: seat, key: "player-" + seat}},
        h("div.row", h("span.name.grow", h("span.dot"), p.name || seat),
          start ? h("b.start-badge", "♜ " + t("start_player")) : null,
          acting ? h("b.acting-badge", "▶") : null),
        h("div.row.big-line", h("span.vp", String(p.vp)), h("span.small", t("vp")),
          // the count's word in the form it asks for ("20 złota"), as on the phone's header
          h("span.gold", ICONS.gold + " " + p.gold), h("span.small.gold-word",
            TC.countWord("gold", p.gold) || itemName("gold"))),
        chips(p.cubes, {short: true, zeros: true}),
        workersLine(w),
        h("div.small.crafts", t("craftsmen") + ": " + arr(p.craftsmen).map(nm).join(", ")),
        arr(p.privileges).length ? h("div.small.crafts", t("privileges") + ": " +
          arr(p.privileges).map(nm).join(", ")) : null,
        p.passed && m.phase === "draft" ? h("div.small.muted", t("passed")) : null,
        p.connected === false ? h("div.small.muted", t("phone_offline")) : null,
        final[seat] && final[seat].final ? h("div.final-rank", "#" + final[seat].rank +
          (final[seat].winner ? " · " + t("winner") : "")) : null);
    });
  }

  /** The board's locations in phase III order, each space empty or holding an architect. */
  function locations(m) {
    return arr(m.view.locations).map(function (loc) {
      return h("div.location", {dataset: {location: loc.id, key: "loc-" + loc.id}},
        h("span.step", String(loc.step)),
        h("span.loc-name", nm(loc.id), loc.demo ? h("span.demo-badge", {title: t("demo_hint")}, t("demo")) : null),
        h("span.spaces", arr(loc.spaces).map(function (sp, i) {
          var p = sp.seat ? m.players[sp.seat] : null;
          var vp = arr(loc.vp)[i];
          return h("span.space" + (p ? ".taken" : ""), {dataset: {space: sp.id, seat: sp.seat || ""},
            style: p ? playerStyle(p) : null, title: p ? p.name : t("free_space")},
          p ? (p.name || sp.seat).slice(0, 2) : (vp ? "+" + vp : "·"));
        })));
    });
  }

  function market(m) {
    var v = m.view, prices = obj(v.prices), stock = obj(v.market);
    return h("table.market", h("thead", h("tr", h("th", ""), h("th", t("in_market")), h("th", t("buy")), h("th", t("sell")), h("th", t("general_supply")))),
      h("tbody", CUBES.map(function (k) {
        var pr = obj(prices[k]);
        return h("tr", {dataset: {cube: k}},
          h("th", h("span.item.cube-" + k, h("span.icon", ICONS[k]), " " + itemName(k))),
          h("td", k === "metal" ? String(v.court_metal || 0) + " " + t("at_court") : String(stock[k] || 0)),
          h("td", pr.buy !== undefined ? ICONS.gold + " " + pr.buy : "–"),
          h("td", pr.sell !== undefined ? ICONS.gold + " " + pr.sell : "–"),
          h("td.muted", String(obj(v.sites)[k] !== undefined ? v.sites[k] : "–")));
      })));
  }

  /** An empty place of the round's cards: while they are laid out nothing is "left" yet. */
  function noCards(m) {
    return h("p.small.muted.supply-empty", t(m.view.phase === "prep" ? "supply_being_laid_out" : "nothing_left"));
  }

  function roundCards(m) {
    var v = m.view, sup = obj(v.supply);
    var mats = arr(sup.materials), crafts = arr(sup.craftsmen);
    if (!mats.length && !crafts.length) return noCards(m);
    return [
      mats.length ? h("h3", t("supply_materials")) : null,
      h("div.cards", mats.map(function (id) { return cardBox(m, id); })),
      crafts.length ? h("h3", t("supply_craftsmen")) : null,
      h("div.cards", crafts.map(function (id) {
        return cardBox(m, id, h("div.small", ICONS.gold + " " + obj(m.cards[id]).cost));
      }))
    ];
  }

  function shiring(m) {
    var ids = arr(m.view.shiring);
    return ids.length ? h("div.cards", ids.map(function (id) { return cardBox(m, id); })) : noCards(m);
  }

  function kingsbridge(m) {
    var ids = arr(m.view.kingsbridge);
    return ids.length ? h("div.cards", ids.map(function (id) { return cardBox(m, id); })) : noCards(m);
  }

  /** The architects: who still has some in the bag, the cost now, the drawn one, the wheel. */
  function architects(m) {
    var a = obj(m.view.architects);
    var bag = obj(a.bag);
    return h("div.architects",
      h("div.row", h("span", t("cost_now") + ": "), h("b.cost", ICONS.gold + " " + (a.cost || 0)),
        a.drawn ? h("span", " · " + t("drawn") + ": ", seatTag(m, a.drawn)) : null),
      h("div.row.bag", t("in_bag") + ": ", m.seats.map(function (seat) {
        return h("span.seat-tag", {style: playerStyle(m.players[seat]), dataset: {seat: seat}},
          (obj(m.players[seat]).name || seat) + " × " + (bag[seat] || 0));
      })),
      arr(a.wheel).length ? h("div.small", t("passed_architects") + ": ", arr(a.wheel).map(function (x) {
        var seat = typeof x === "string" ? x : obj(x).seat;
        return seatTag(m, seat);
      })) : null);
  }

  function eventTax(m) {
    var v = m.view;
    return h("div.event-tax",
      h("div", h("span.small", t("event") + ": "), v.event ? h("b", nm(v.event)) : h("span.muted", t("not_yet"))),
      h("div", h("span.small", t("tax") + ": "), v.tax !== null && v.tax !== undefined ? h("b", ICONS.gold + " " + v.tax) : h("span.muted", t("not_yet"))),
      v.limit ? h("div.small", t("architect_limit", {n: v.limit})) : null,
      h("div.small", t("cathedral_built", {n: v.cathedral || 0})));
  }

  function logList(m) {
    return m.log.slice().reverse().slice(0, 60).map(function (e) {
      return h("li", {dataset: {key: "log-" + e.seq + "-" + e.type}}, e.text || e.type, TC.why(e.rule));
    });
  }

  function finalScores(m) {
    if (!m.over) return null;
    var rows = arr(m.view.scores);
    return h("section.panel.scores", {id: "final-scores"}, h("h2", t("final_scores")),
      h("table", h("thead", h("tr", h("th", "#"), h("th", t("player")), h("th", t("vp")), h("th", itemName("gold")))),
        h("tbody", rows.map(function (r) {
          return h("tr", {dataset: {seat: r.seat}}, h("td", String(r.rank)), h("td", seatTag(m, r.seat), r.winner ? " ★" : ""),
            h("td", h("b", String(r.vp))), h("td", String(r.gold)));
        }))),
      rows.filter(function (r) { return r.winner; }).length > 1 ? h("p", t("shared_win")) : null);
  }

  function promptText(m, p) {
    return p.text || t("prompt_" + p.kind);
  }

  window.POTE = {CUBES: CUBES, workersLine: workersLine, ICONS: ICONS, obj: obj, arr: arr, nm: nm, itemName: itemName, counted: counted,
    model: model, colourOf: colourOf, playerStyle: playerStyle, who: who, seatTag: seatTag,
    chips: chips, itemText: itemText, conversion: conversion, cardBox: cardBox, roundLine: roundLine,
    playerCards: playerCards, locations: locations, market: market, roundCards: roundCards,
    shiring: shiring, kingsbridge: kingsbridge, architects: architects, eventTax: eventTax,
    logList: logList, finalScores: finalScores, promptText: promptText};
})();
