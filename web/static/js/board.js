/* World Without End: shared presentation helpers for the table, phone and host pages.
 *
 * `WWE.model(msg)` turns a server `view` message (docs/socket-protocol.md) whose `view` is the
 * engine's public_view or seat_view (docs/engine.md) into one flat model the renderers use,
 * so the engine's view shape is read in exactly one place. The renderers below draw the
 * public parts (players, favor track, projects, market, sites, plague, permanent events,
 * log, VP chart); table.js and phone.js compose them.
 */
(function () {
  "use strict";
  var h = TC.h, t = TC.t;
  var SEATS = ["N", "E", "S", "W"];
  var ITEMS = ["stone", "wood", "grain", "piety", "metal", "wool", "cloth", "loyalty", "mk", "gold"];
  var ITEM_ICONS = {stone: "▪", wood: "▮", grain: "✿", piety: "✝", metal: "◆", wool: "☁",
    cloth: "▤", loyalty: "♛", mk: "✚", gold: "●", vp: "★"};

  function obj(x) { return x && typeof x === "object" && !Array.isArray(x) ? x : {}; }
  function arr(x) { return Array.isArray(x) ? x : []; }

  /* ---------- catalog names ---------- */

  // The view carries the catalog names the page needs (`names`), keyed by kind then id.
  var names = {};

  function setNames(n) { if (n && typeof n === "object") names = n; }

  /** The localized catalog name of `id` of `kind` (items, cards, events, projects, sites,
   *  favor, seats, plague, market), or a readable fallback. */
  function nm(kind, id) {
    if (id === null || id === undefined) return "";
    var table = obj(names[kind]);
    var entry = table[id];
    if (entry && typeof entry === "object" && entry.names) entry = entry.names;
    if (entry) return TC.name(entry, String(id));
    if (kind === "seats") return t("seat_" + id);
    if (kind === "items" && id === "vp") return t("vp");
    if (kind === "items") return t("item_" + id);
    return String(id).replace(/_/g, " ");
  }

  function isDemo(kind, id) {
    var entry = obj(names[kind])[id];
    return !!(entry && typeof entry === "object" && entry.demo);
  }

  function demoBadge(kind, id) {
    return isDemo(kind, id) ? h("span.demo-badge", {title: t("demo_hint")}, t("demo")) : null;
  }

  /* ---------- the model ---------- */

  function model(msg) {
    var v = obj(msg.view);
    if (v.names) setNames(v.names);
    var players = {};
    arr(msg.players).forEach(function (p) { players[p.seat] = Object.assign({}, p); });
    var vp = obj(v.players);
    var seats = arr(v.seats).length ? v.seats : SEATS.filter(function (s) { return players[s] || vp[s]; });
    seats.forEach(function (s) {
      players[s] = Object.assign({seat: s}, obj(vp[s]), players[s] || {});
      if (!players[s].name && vp[s] && vp[s].name) players[s].name = vp[s].name;
    });
    var me = msg.seat ? Object.assign({}, obj(v.me), players[msg.seat] || {}, obj(v.me)) : null;
    return {
      msg: msg, view: v, seats: seats, players: players, me: me,
      chapter: v.chapter, round: v.round, active: v.active,
      over: !!(v.over || msg.scores), prompts: arr(msg.prompts), choices: arr(msg.choices),
      log: arr(msg.log), preview: msg.preview || v.preview || null
    };
  }

  /* ---------- small pieces ---------- */

  function playerStyle(p) { return p && p.colour ? {"--pc": p.colour} : null; }

  function seatLabel(m, seat) {
    var p = m.players[seat];
    return h("span.seat-tag", {style: playerStyle(p)}, p && p.name ? p.name : nm("seats", seat));
  }

  function itemChip(item, n, opts) {
    opts = opts || {};
    return h("span.item" + (n ? "" : ".zero"), {title: nm("items", item), dataset: {item: item}},
      h("span", {"aria-hidden": "true"}, ITEM_ICONS[item] || ""),
      opts.short ? null : h("span", nm("items", item)),
      h("b", n === null || n === undefined ? "∞" : String(n)));
  }

  /** {item: n} → chips, in the catalog's item order. */
  function itemChips(items, opts) {
    items = obj(items);
    var keys = ITEMS.concat(["vp"]).filter(function (k) { return k in items; })
      .concat(Object.keys(items).filter(function (k) { return ITEMS.indexOf(k) < 0 && k !== "vp"; }));
    return h("span.items", keys.map(function (k) { return itemChip(k, items[k], opts); }));
  }

  /** {item: n} → "2 Stone, 1 Gold" in words. */
  function itemText(items) {
    items = obj(items);
    return Object.keys(items).filter(function (k) { return items[k]; }).map(function (k) {
      return items[k] + " " + nm("items", k);
    }).join(", ");
  }

  function chapterRound(m) {
    if (!m.chapter) return "";
    return t("chapter_round", {chapter: roman(m.chapter), round: m.round || "–"});
  }

  function roman(n) { return ["", "I", "II", "III", "IV", "V"][n] || String(n); }

  /* ---------- public board renderers ---------- */

  function favorTrack(m, target) {
    var f = obj(m.view.favor);
    var spaces = arr(f.spaces).length ? f.spaces : arr(f.cycle).map(function (id, i) {
      return {id: id, index: i};
    });
    var covered = arr(f.covered).concat(arr(obj(m.view.covers).favor));
    var at = f.space !== undefined ? f.space : (spaces[f.index] || {}).id;
    return spaces.map(function (sp) {
      var id = typeof sp === "string" ? sp : sp.id;
      var cls = ".favor-space" + (id === at ? ".marker" : "") +
        (covered.indexOf(id) >= 0 || sp.covered ? ".covered" : "") + (target === id ? ".target" : "");
      return h("div" + cls, {dataset: {space: id}}, nm("favor", id), demoBadge("favor", id));
    });
  }

  function projects(m) {
    var ps = m.view.projects;
    var list = Array.isArray(ps) ? ps : Object.keys(obj(ps)).map(function (id) {
      return Object.assign({id: id}, ps[id]);
    });
    if (!list.length) return h("p.muted", t("no_projects"));
    return list.map(function (p) {
      var cap = obj(p.capacity || p.cap);
      var stoneCap = p.stone_cap !== undefined ? p.stone_cap : cap.stone;
      var woodCap = p.wood_cap !== undefined ? p.wood_cap : cap.wood;
      var slots = [];
      var i;
      for (i = 0; i < (stoneCap || 0); i++) slots.push(h("span.slot.stone" + (i < p.stone ? ".filled" : "")));
      for (i = 0; i < (woodCap || 0); i++) slots.push(h("span.slot.wood" + (i < p.wood ? ".filled" : "")));
      if (p.spire !== undefined && p.spire !== false && (p.has_spire || p.spire_space || p.spire !== null)) {
        slots.push(h("span.slot.spire" + (p.spire ? ".filled" : "")));
      }
      var seals = arr(p.seals).map(function (s) {
        var seat = typeof s === "string" ? s : s.seat;
        return h("span.seal", {style: playerStyle(m.players[seat]), title: nm("seats", seat)});
      });
      var state = p.complete ? t("complete") : (p.covered ? t("covered") : "");
      return h("div.project" + (p.covered ? ".covered" : "") + (p.complete ? ".complete" : ""),
        {dataset: {project: p.id}},
        h("div.row", h("b.grow", nm("projects", p.id), demoBadge("projects", p.id)),
          state ? h("span.small", state) : null),
        h("div.row", h("span.slots", slots),
          stoneCap !== undefined ? h("span.small.muted", (p.stone || 0) + "/" + stoneCap + " " +
            nm("items", "stone") + " · " + (p.wood || 0) + "/" + woodCap + " " + nm("items", "wood")) : null,
          seals.length ? h("span", {title: t("donation_seals")}, seals) : null));
    });
  }

  function market(m) {
    var v = m.view;
    var mk = obj(v.market);
    var prices = obj(v.prices || mk.prices);
    var covered = arr(obj(v.covers).market).concat(arr(mk.covered));
    return h("div.row", ["wool", "cloth"].map(function (space) {
      var price = prices[space] !== undefined ? prices[space] : (obj(mk[space]).price);
      var isCovered = covered.indexOf(space) >= 0 || obj(mk[space]).covered;
      return h("div.item" + (isCovered ? ".zero" : ""), {dataset: {space: space}},
        nm("market", space) || nm("items", space), ": ",
        isCovered ? h("b", t("covered")) : h("b", t("price_gold", {n: price})));
    }));
  }

  function permanents(m) {
    var v = m.view;
    var list = arr(v.permanent || v.slots || v.permanents);
    if (!list.length) return h("p.muted", t("none"));
    return list.map(function (e) {
      var id = typeof e === "string" ? e : (e.card || e.id);
      return h("div.project", h("b", nm("events", id)), demoBadge("events", id),
        eventText(id) ? h("div.small", eventText(id)) : null);
    });
  }

  function eventText(id) {
    var entry = obj(names.events)[id];
    return entry && entry.text ? TC.name(entry.text, "") : "";
  }

  function sites(m) {
    var s = m.view.sites;
    var list = Array.isArray(s) ? s : Object.keys(obj(s)).map(function (id) {
      var owner = s[id];
      return typeof owner === "object" && owner !== null ? Object.assign({id: id}, owner) : {id: id, owner: owner};
    });
    return list.map(function (site) {
      var info = obj(obj(names.sites)[site.id]);
      var rent = obj(site.rent || info.rent);
      var owner = site.owner || site.seat || null;
      return h("div.site" + (owner ? ".taken" : ""), {style: playerStyle(m.players[owner]),
        dataset: {site: site.id}},
        h("div", nm("sites", site.id)),
        h("div.muted", (site.material || info.material) ? nm("items", site.material || info.material) : "",
          rent.item ? " → " + (rent.amount || 1) + " " + nm("items", rent.item) : ""),
        owner ? h("b", (m.players[owner] || {}).name || nm("seats", owner)) : null);
    });
  }

  function plague(m) {
    var pl = m.view.plague;
    var list = Array.isArray(pl) ? pl : Object.keys(obj(pl)).map(function (id) {
      var st = pl[id];
      return typeof st === "object" && st !== null ? Object.assign({id: id}, st) : {id: id, state: st};
    });
    return list.map(function (loc) {
      var sick = loc.state === "sick" || loc.sick || loc.face_up;
      var cured = loc.state === "cured" || loc.state === "removed" || loc.cured || loc.removed;
      return h("div.loc" + (sick ? ".sick" : "") + (cured ? ".cured" : ""),
        {title: nm("plague", loc.id), dataset: {loc: loc.id}},
        String(loc.id), sick && loc.value ? h("div.small", "✚" + loc.value) : null);
    });
  }

  function supply(m) {
    return itemChips(obj(m.view.supply), {short: false});
  }

  function logList(m) {
    return m.log.slice().reverse().map(function (e) {
      return h("li", {dataset: {type: e.type}}, e.text || e.type);
    });
  }

  /* ---------- VP over the game: an inline SVG line chart (no library) ---------- */

  function vpChart(m, series) {
    // series: {seat: [vp, vp, ...]} sampled at the same points.
    var seats = Object.keys(series).filter(function (s) { return series[s].length; });
    if (!seats.length) return null;
    var W = 600, H = 220, P = 28;
    var n = Math.max.apply(null, seats.map(function (s) { return series[s].length; }));
    var max = Math.max(10, Math.max.apply(null, seats.map(function (s) { return Math.max.apply(null, series[s]); })));
    var ns = "http://www.w3.org/2000/svg";
    function el(tag, attrs) {
      var e = document.createElementNS(ns, tag);
      Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
      return e;
    }
    var svg = el("svg", {viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": t("vp_over_game")});
    function x(i) { return P + (n <= 1 ? 0 : i * (W - 2 * P) / (n - 1)); }
    function y(v) { return H - P - v * (H - 2 * P) / max; }
    for (var g = 0; g <= max; g += Math.max(5, Math.ceil(max / 5 / 5) * 5)) {
      svg.appendChild(el("line", {x1: P, x2: W - P, y1: y(g), y2: y(g), stroke: "#8884", "stroke-width": 1}));
      var lbl = el("text", {x: 2, y: y(g) + 4, "font-size": 11, fill: "currentColor"});
      lbl.textContent = String(g);
      svg.appendChild(lbl);
    }
    seats.forEach(function (s) {
      var pts = series[s].map(function (v, i) { return x(i) + "," + y(v); }).join(" ");
      var colour = (m.players[s] || {}).colour || "#888";
      svg.appendChild(el("polyline", {points: pts, fill: "none", stroke: colour, "stroke-width": 3,
        "stroke-linejoin": "round"}));
      var last = series[s][series[s].length - 1];
      var tx = el("text", {x: x(series[s].length - 1) - 4, y: y(last) - 6, "font-size": 13,
        fill: colour, "text-anchor": "end", "font-weight": "bold"});
      tx.textContent = ((m.players[s] || {}).name || s) + " " + last;
      svg.appendChild(tx);
    });
    return h("figure", {style: {margin: 0}}, h("figcaption.small.muted", t("vp_over_game")), svg);
  }

  /** VP history for the chart: the engine's when it gives one, else what this page saw
   *  (kept in localStorage per game, keyed by version, so a reload keeps it). */
  function vpSeries(m) {
    var hist = m.view.vp_history || (m.msg.scores && m.msg.scores.vp_history);
    var series = {};
    if (Array.isArray(hist) && hist.length) {
      m.seats.forEach(function (s) {
        series[s] = hist.map(function (p) { return obj(p.vp || p)[s] || 0; });
      });
      return series;
    }
    var key = "tc-vp-" + m.msg.game;
    var seen = {};
    try { seen = JSON.parse(localStorage.getItem(key) || "{}"); } catch (e) { seen = {}; }
    var point = {};
    m.seats.forEach(function (s) { point[s] = (m.players[s] || {}).vp || 0; });
    Object.keys(seen).forEach(function (v) { if (Number(v) > m.msg.version) delete seen[v]; });
    seen[m.msg.version] = point;
    try { localStorage.setItem(key, JSON.stringify(seen)); } catch (e) { /* private mode */ }
    var versions = Object.keys(seen).map(Number).sort(function (a, b) { return a - b; });
    var last = null;
    var pts = versions.map(function (v) { return seen[v]; }).filter(function (p) {
      var s = JSON.stringify(p);
      var keep = s !== last;
      last = s;
      return keep;
    });
    m.seats.forEach(function (s) { series[s] = pts.map(function (p) { return p[s] || 0; }); });
    return series;
  }

  window.WWE = {
    SEATS: SEATS, ITEMS: ITEMS, model: model, nm: nm, isDemo: isDemo, demoBadge: demoBadge,
    names: function () { return names; }, setNames: setNames, eventText: eventText,
    seatLabel: seatLabel, playerStyle: playerStyle, itemChip: itemChip, itemChips: itemChips,
    itemText: itemText, chapterRound: chapterRound, roman: roman, favorTrack: favorTrack,
    projects: projects, market: market, permanents: permanents, sites: sites, plague: plague,
    supply: supply, logList: logList, vpChart: vpChart, vpSeries: vpSeries, obj: obj, arr: arr
  };
})();
