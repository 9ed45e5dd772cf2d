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

  // Every catalog thing in a view carries its `names` ({en, it, ...}) and `demo` flag
  // (docs/engine.md). We collect them by kind as views arrive; `names` from the page
  // context (id -> names) and a per-browser cache fill in ids a view shows bare (played
  // cards, resources).
  var registry = {};
  var cache = readCache();          // kind -> id -> names, every language seen so far
  var pageNames = obj(TC.config.names);

  function readCache() {
    try { return obj(JSON.parse(localStorage.getItem("tc-names-v2") || "{}")); } catch (e) { return {}; }
  }

  function remember(kind, thing) {
    if (!thing || typeof thing !== "object" || !thing.id) return;
    registry[kind] = registry[kind] || {};
    registry[kind][thing.id] = thing;
    if (thing.names) {
      cache[kind] = cache[kind] || {};
      // The server sends each page its language and English; keep every language seen.
      cache[kind][thing.id] = Object.assign({}, cache[kind][thing.id], thing.names);
    }
  }

  function collect(v) {
    arr(obj(v.favor).cycle).forEach(function (x) { remember("favor", x); });
    [v.event].concat(arr(v.permanent), arr(v.council_cards)).forEach(function (x) { remember("events", x); });
    Object.keys(obj(v.projects)).forEach(function (k) { remember("projects", v.projects[k]); });
    Object.keys(obj(v.sites)).forEach(function (k) { remember("sites", v.sites[k]); });
    arr(obj(v.private).hand_cards).forEach(function (x) { remember("cards", x); });
    try { localStorage.setItem("tc-names-v2", JSON.stringify(cache)); } catch (e) { /* private mode */ }
  }

  function thing(kind, id) { return obj(registry[kind])[id] || null; }

  /** The localized catalog name of `id` of `kind` (items, cards, events, projects, sites,
   *  favor, seats, plague), or a readable fallback. */
  function nm(kind, id) {
    if (id === null || id === undefined) return "";
    var th = thing(kind, id);
    if (th && th.names && th.names[TC.lang]) return th.names[TC.lang];
    var known = obj(cache[kind])[id];
    if (known && known[TC.lang]) return known[TC.lang];
    if (pageNames[id] && pageNames[id][TC.lang]) return pageNames[id][TC.lang];
    if (kind === "seats") return t("seat_" + id);
    if (kind === "plague") return t("plague_location", {n: id});
    if (kind === "items") return t(id === "vp" ? "vp" : "item_" + id);
    if (kind === "market") return t("market_" + id);
    var any = (th && th.names) || known || pageNames[id];
    if (any) return TC.name(any, String(id));
    return String(id).replace(/_/g, " ");
  }

  function isDemo(kind, id) {
    var th = thing(kind, id);
    return !!(th && th.demo);
  }

  function demoBadge(kind, id) {
    return isDemo(kind, id) ? h("span.demo-badge", {title: t("demo_hint")}, t("demo")) : null;
  }

  /* ---------- the model ---------- */

  function model(msg) {
    var v = obj(msg.view);
    collect(v);
    var pub = obj(v.seats);
    var players = {};
    var seats = arr(v.order).length ? v.order : Object.keys(pub);
    arr(msg.players).forEach(function (p) { players[p.seat] = Object.assign({}, p); });
    seats.forEach(function (s) { players[s] = Object.assign({seat: s}, obj(pub[s]), players[s] || {}); });
    var priv = v.private ? obj(v.private) : null;
    var me = msg.seat ? Object.assign({}, players[msg.seat] || {}, priv || {}) : null;
    return {
      msg: msg, view: v, seats: seats, players: players, me: me, priv: priv,
      chapter: v.chapter, round: v.round, active: v.active, phase: v.phase,
      over: !!(v.over || msg.scores), prompts: arr(msg.prompts), choices: arr(msg.choices),
      log: arr(msg.log), preview: msg.preview || null
    };
  }

  /* ---------- small pieces ---------- */

  var PALETTE = {blue: "#2f62c9", red: "#c62d2d", green: "#237a35", yellow: "#d5a400"};

  /** A player's colour: catalog colour ids in the board game's tones, else the CSS colour. */
  function colourOf(p) { return p && p.colour ? (PALETTE[p.colour] || p.colour) : "#888"; }

  /** Text on a seat's colour: the shared client's rule (the higher WCAG contrast). */
  var inkOn = TC.inkOn;

  function playerStyle(p) { return p && p.colour ? {"--pc": colourOf(p)} : null; }

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

  /** n of an item in words ("1 wool", "5 monet"), the number as ``shown`` ("+1"). */
  function amount(item, n, shown) {
    return TC.counted(item, n, shown) || (shown === undefined ? n : shown) + " " + nm("items", item);
  }

  /** A choice's cost and effect on resources and VP in words: "−1 gold · +1 grain"
   *  (the rest of an effect, such as favor steps, is not counted here). */
  function deltas(c) {
    function signed(items, sign) {
      items = obj(items);
      return Object.keys(items).filter(function (k) {
        return typeof items[k] === "number" && items[k] && (ITEMS.indexOf(k) >= 0 || k === "vp");
      }).map(function (k) {
        var n = items[k] * sign;
        return amount(k, n, (n > 0 ? "+" : "−") + Math.abs(n));
      });
    }
    c = obj(c);
    return signed(c.cost, -1).concat(signed(c.effect, 1));
  }

  /** {item: n} → "2 stone, 1 gold" in words. */
  function itemText(items) {
    items = obj(items);
    return Object.keys(items).filter(function (k) { return items[k]; }).map(function (k) {
      return amount(k, items[k]);
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
    var covered = arr(f.covered);
    return arr(f.cycle).map(function (sp, i) {
      var id = sp.id;
      var cls = ".favor-space" + (i === f.index ? ".marker" : "") +
        (covered.indexOf(id) >= 0 ? ".covered" : "") + (target === id ? ".target" : "");
      return h("div" + cls, {dataset: {space: id}}, i === f.index ? "◉ " : "", nm("favor", id));
    });
  }

  /** The favor track's DEMO badge, for its heading: among the spaces it looked like one more. */
  function favorDemo(m) {
    return obj(m.view.favor).demo ? h("span.demo-badge", {title: t("demo_hint")}, t("demo")) : null;
  }

  function projects(m) {
    var ps = obj(m.view.projects);
    var ids = Object.keys(ps);
    if (!ids.length) return h("p.muted", t("no_projects"));
    return ids.map(function (id) {
      var p = ps[id];
      var slots = [];
      var i;
      for (i = 0; i < (p.stone_spaces || 0); i++) slots.push(h("span.slot.stone" + (i < p.stone ? ".filled" : "")));
      for (i = 0; i < (p.wood_spaces || 0); i++) slots.push(h("span.slot.wood" + (i < p.wood ? ".filled" : "")));
      if (p.has_spire) slots.push(h("span.slot.spire" + (p.spire ? ".filled" : "")));
      var seals = arr(p.seals).map(function (seat) {
        return h("span.seal", {style: playerStyle(m.players[seat]), title: (m.players[seat] || {}).name || seat});
      });
      var state = p.complete ? t("complete") : (p.covered ? t("covered") : "");
      return h("div.project" + (p.covered ? ".covered" : "") + (p.complete ? ".complete" : ""),
        {dataset: {project: id}},
        h("div.row", h("b.grow", nm("projects", id), demoBadge("projects", id)),
          state ? h("span.small", state) : null),
        h("div.row", h("span.slots", slots),
          h("span.small.muted", (p.stone || 0) + "/" + (p.stone_spaces || 0) + " " + nm("items", "stone") +
            " · " + (p.wood || 0) + "/" + (p.wood_spaces || 0) + " " + nm("items", "wood")),
          seals.length ? h("span", {title: t("donation_seals")}, seals) : null));
    });
  }

  function market(m) {
    var mk = obj(m.view.market);
    var prices = obj(mk.prices);
    var covered = arr(mk.covered);
    return h("div.row", ["wool", "cloth"].map(function (space) {
      var isCovered = covered.indexOf(space) >= 0;
      return h("div.item" + (isCovered ? ".zero" : ""), {dataset: {space: space}},
        nm("items", space), ": ",
        isCovered ? h("b", t("covered")) : h("b", t("price_gold", {n: prices[space]})));
    }));
  }

  function eventBox(e, extra) {
    if (!e) return null;
    return h("div.project", {dataset: {card: e.id}},
      h("div.small.muted", e.permanent ? t("permanent_event") : t("event_card"),
        e.chapter ? " · " + t("chapter_n", {chapter: roman(e.chapter)}) : ""),
      h("b", nm("events", e.id)), demoBadge("events", e.id), extra || null,
      eventText(e) ? h("div.small", eventText(e)) : null);
  }

  /** The permanent events in force: the filed ones and this round's blue card, which acts
   *  from its reveal though it is filed only at the round's end (A-24: `in_force`). */
  function permanents(m) {
    var list = arr(m.view.permanent).slice();
    var now = m.view.event;
    var filed = list.some(function (e) { return now && e.id === now.id; });
    if (now && now.permanent && !filed && arr(m.view.in_force).indexOf(now.id) >= 0) list.push(now);
    if (!list.length) return h("p.muted.none-yet", t("none"));
    return list.map(function (e) { return eventBox(e); });
  }

  function eventText(e) {
    if (!e || !e.text) return "";
    return e.text[TC.lang] || e.text.en || "";
  }

  function sites(m) {
    var s = obj(m.view.sites);
    return Object.keys(s).map(function (id) {
      var site = s[id];
      var rent = obj(site.rent);
      var owner = site.owner || null;
      return h("div.site" + (owner ? ".taken" : ""), {style: playerStyle(m.players[owner]),
        dataset: {site: id}},
        h("div", nm("sites", id), demoBadge("sites", id)),
        h("div.muted", site.material ? nm("items", site.material) : "",
          rent.item ? " → " + amount(rent.item, rent.amount || 1) : ""),
        owner ? h("b", (m.players[owner] || {}).name || nm("seats", owner)) : null);
    });
  }

  function plague(m) {
    var pl = obj(m.view.plague);
    return Object.keys(pl).sort(function (a, b) { return a - b; }).map(function (id) {
      var loc = pl[id];
      var sick = loc.state === "sick";
      var gone = loc.state === "removed";
      return h("div.loc" + (sick ? ".sick" : "") + (gone ? ".cured" : ""),
        {title: nm("plague", id), dataset: {loc: id, state: loc.state}},
        String(id), sick && loc.value ? h("div.small", "✚" + loc.value) : null);
    });
  }

  /** The limited supplies; `short`: icon and count only (the name as title). */
  function supply(m, short) {
    var sup = obj(m.view.supply);
    var limited = {};
    Object.keys(sup).forEach(function (k) { if (sup[k] !== null) limited[k] = sup[k]; });
    return itemChips(limited, {short: !!short});
  }

  function logList(m) {
    // keyed (an action's events share its seq), so an open "Why?" stays on its own line
    var seen = {};
    return m.log.map(function (e) {
      var k = e.seq + "-" + e.type;
      seen[k] = (seen[k] || 0) + 1;
      return h("li", {dataset: {type: e.type, key: "log-" + k + "-" + seen[k]}},
        e.text || e.type, TC.why(e.rule));
    }).reverse();
  }

  /* ---------- VP over the game: an inline SVG line chart (no library) ---------- */

  /** The lines fill the chart's box at any size (the SVG stretches, its strokes do not, so
   *  a wide and low box on a 720p TV at chapter end is used whole); the scale's numbers and
   *  each line's end dot are HTML over it, in the page's type and round at any size. */
  function vpChart(m, series) {
    // series: {seat: [vp, vp, ...]} sampled at the same points.
    var seats = Object.keys(series).filter(function (s) { return series[s].length; });
    if (!seats.length) return null;
    var n = Math.max.apply(null, seats.map(function (s) { return series[s].length; }));
    var max = Math.max(10, Math.max.apply(null, seats.map(function (s) { return Math.max.apply(null, series[s]); })));
    var ns = "http://www.w3.org/2000/svg";
    function el(tag, attrs) {
      var e = document.createElementNS(ns, tag);
      Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
      return e;
    }
    // in percent of the plot: the first point at its left edge, 0 VP at its bottom
    function x(i) { return n <= 1 ? 0 : i * 100 / (n - 1); }
    function y(v) { return 100 - v * 100 / max; }
    var svg = el("svg", {viewBox: "0 0 100 100", preserveAspectRatio: "none", "aria-hidden": "true"});
    var marks = [];
    for (var g = 0; g <= max; g += Math.max(5, Math.ceil(max / 5 / 5) * 5)) {
      svg.appendChild(el("line", {x1: 0, x2: 100, y1: y(g), y2: y(g), stroke: "#8884", "stroke-width": 1,
        "vector-effect": "non-scaling-stroke"}));
      marks.push(h("span.vp-tick", {style: {top: y(g) + "%"}}, String(g)));
    }
    seats.forEach(function (s) {
      var pts = series[s].map(function (v, i) { return x(i) + "," + y(v); }).join(" ");
      var colour = colourOf(m.players[s]);
      svg.appendChild(el("polyline", {points: pts, fill: "none", stroke: colour, "stroke-width": 3,
        "stroke-linejoin": "round", "vector-effect": "non-scaling-stroke"}));
      var lastI = series[s].length - 1;
      marks.push(h("span.vp-end", {style: {left: x(lastI) + "%", top: y(series[s][lastI]) + "%",
        "--pc": colour}}));
    });
    var legend = h("div.row.small", seats.map(function (s) {
      var p = m.players[s] || {};
      return h("span", {style: {"--pc": colourOf(p)}}, h("span.dot"), (p.name || s) + " " +
        series[s][series[s].length - 1]);
    }));
    return h("figure", {style: {margin: 0}}, h("figcaption.small.muted", t("vp_over_game")),
      h("div.vp-plot", {role: "img", "aria-label": t("vp_over_game")}, svg, marks), legend);
  }

  /** VP history for the chart: the engine's when it gives one, else what this page saw
   *  (kept in localStorage per game, keyed by version, so a reload keeps it). */
  function vpSeries(m) {
    var hist = m.view.vp_history || (m.msg.scores && m.msg.scores.vp_history);
    var series = {};
    if (Array.isArray(hist)) {
      // the history is sampled at round ends: the line starts at the game's first VP, goes
      // through every round's end and ends at the score now (round 2 keeps round 1)
      var first = typeof m.view.vp_start === "number" ? m.view.vp_start : 0;
      m.seats.forEach(function (s) {
        series[s] = [first].concat(hist.map(function (p) { return obj(p.vp || p)[s] || 0; }));
      });
      // every line gets the point now when any score moved since (same x for all)
      var now = function (s) { var v = (m.players[s] || {}).vp; return typeof v === "number" ? v : null; };
      if (m.seats.some(function (s) { return now(s) !== null && series[s][series[s].length - 1] !== now(s); })) {
        m.seats.forEach(function (s) { series[s].push(now(s) === null ? series[s][series[s].length - 1] : now(s)); });
      }
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
    var final = arr(m.msg.scores);
    if (m.over && final.length) {
      final.forEach(function (r) { if (series[r.seat]) series[r.seat].push(r.vp); });
    }
    return series;
  }

  /** The latest chapter end, from the public log: who paid what, who lost what, who faces
   *  which punishment, who paid loyalty. Shown until round 2 of the next chapter starts.
   *  ``onlySeat``: one player's row (their phone). */
  function chapterSummary(m, onlySeat) {
    var log = m.log;
    var start = -1;
    for (var i = log.length - 1; i >= 0; i--) if (log[i].type === "chapter_ended") { start = i; break; }
    if (start < 0) return null;
    var rows = {};
    var chapter = obj(log[start].params).chapter;
    for (var j = start + 1; j < log.length; j++) {
      var e = log[j], p = obj(e.params);
      if (e.type === "round_started" && p.round >= 2) return null;
      var r = p.seat ? (rows[p.seat] = rows[p.seat] || {paid: {}, short: {}, vp: 0, punish: [], cancel: [],
        income: {}, incomeSeen: false, begging: false}) : null;
      if (!r) continue;
      if (e.type === "duties_paid") { r.paid = obj(p.paid); r.short = obj(p.short); r.per = p.vp_per; }
      else if (e.type === "income") { r.income[p.item] = (r.income[p.item] || 0) + (p.amount || 0); r.incomeSeen = true; }
      else if (e.type === "vp" && /^income/.test(p.reason || "")) { r.income.vp = (r.income.vp || 0) + (p.delta || 0); r.incomeSeen = true; }
      else if (e.type === "income_lost") { r.begging = true; r.incomeSeen = true; }
      else if (e.type === "vp" && p.reason === "duties") r.vp += p.delta || 0;
      else if (e.type === "punished") r.punish = arr(p.punishments);
      else if (e.type === "protected") r.cancel = arr(p.cancel);
    }
    var seats = m.seats.filter(function (s) { return rows[s] && (!onlySeat || s === onlySeat); });
    if (!seats.length) return null;
    function punishments(r) {
      return r.punish.map(function (x) {
        var cancelled = r.cancel.indexOf(x) >= 0;
        return t("punish_" + x) + (cancelled ? " (" + t("cancelled_by_loyalty") + ")" : "");
      }).join(", ") || "–";
    }
    if (onlySeat) {  // a phone: one player's breakdown, a label per line (narrow screen)
      var mine = rows[onlySeat];
      var tax = null;  // the gold the tax die asked this chapter end
      for (var k = log.length - 1; k >= 0 && tax === null; k--) {
        if (log[k].type === "tax_rolled") tax = obj(log[k].params).value;
      }
      return h("section.panel.summary", {id: "chapter-summary"},
        h("h2", t("chapter_summary", {chapter: roman(chapter)})),
        h("table", {dataset: {seat: onlySeat}}, h("tbody",
          tax === null ? null : h("tr.tax-due", h("th", t("tax_due")), h("td", t("tax_due_value", {n: tax}))),
          h("tr", h("th", t("paid")), h("td", chipsOrDash(mine.paid))),
          h("tr", h("th", t("missing")), h("td", chipsOrDash(mine.short))),
          h("tr", h("th", t("vp_lost")), h("td.vp-lost", String(-mine.vp || 0),
            lossParts(mine, chapter) ? h("span.small", " = " + lossParts(mine, chapter)) : null)),
          h("tr", h("th", t("punishments")), h("td", punishments(mine))),
          incomeRow(mine, roman(chapter + 1)))));
    }
    // the TV: two lines a player, what was handed in and what was missing, and under them
    // what that cost across the row, so the box stays short beside the VP chart in its
    // column (a 720p TV, four long names, German and Polish words too)
    return h("section.panel.summary", {id: "chapter-summary"},
      h("h2", t("chapter_summary", {chapter: roman(chapter)})),
      h("table", h("thead", h("tr", h("th", t("player")), h("th", t("paid")), h("th", t("missing")))),
      h("tbody", seats.map(function (seat) {
        var r = rows[seat];
        return [h("tr.sums", {dataset: {seat: seat, key: "sums-" + seat}}, h("td", seatLabel(m, seat)),
          h("td", chipsOrDash(r.paid)), h("td", chipsOrDash(r.short))),
        h("tr.cost", {dataset: {seat: seat, key: "cost-" + seat}}, h("td", {colspan: 3},
          h("span.muted", t("vp_lost") + ": "), h("b.vp-lost", String(-r.vp || 0)),
          h("span.muted", " · " + t("punishments") + ": "), punishments(r)))];
      }))));
  }

  /** The next chapter's first income, the box's last line once the event card is turned
   *  (Begging takes it all, §5.5): what the punishments did, beside what caused them. */
  function incomeRow(row, next) {
    if (!row.incomeSeen) return null;
    var shown = row.begging ? t("no_income_begging") : chipsOrDash(row.income);
    return h("tr.income", h("th", t("income_round_1", {chapter: next})), h("td", shown));
  }

  /** {item: n} as short chips (icon and count, the name as title), or a dash. */
  /** How the duties' VP loss adds up: "1 Grain × 2 + 2 Piety × 3" (§5.5: 3 VP a missing
   *  piety, 2 a grain, 1 a gold; doubled in chapter IV), or "" when nothing was missing. */
  function lossParts(row, chapter) {
    var per = obj(row.per);  // the engine's VP per missing unit (duties_paid.vp_per)
    var twice = chapter === 4 ? " × 2" : "";
    return Object.keys(per).filter(function (k) { return obj(row.short)[k]; })
      .map(function (k) { return amount(k, row.short[k]) + " × " + per[k] + twice; })
      .join(" + ");
  }

  function chipsOrDash(items) {
    var some = Object.keys(items).filter(function (k) { return items[k]; });
    if (!some.length) return "–";
    var shown = {};
    some.forEach(function (k) { shown[k] = items[k]; });
    return itemChips(shown, {short: true});
  }

  window.WWE = {
    SEATS: SEATS, ITEMS: ITEMS, model: model, nm: nm, isDemo: isDemo, demoBadge: demoBadge,
    thing: thing, eventText: eventText, eventBox: eventBox,
    seatLabel: seatLabel, playerStyle: playerStyle, colourOf: colourOf, inkOn: inkOn, itemChip: itemChip, itemChips: itemChips,
    itemText: itemText, amount: amount, deltas: deltas, chapterRound: chapterRound, roman: roman, favorTrack: favorTrack, favorDemo: favorDemo,
    projects: projects, market: market, permanents: permanents, sites: sites, plague: plague,
    supply: supply, logList: logList, vpChart: vpChart, vpSeries: vpSeries, obj: obj, arr: arr,
    chapterSummary: chapterSummary
  };
})();
