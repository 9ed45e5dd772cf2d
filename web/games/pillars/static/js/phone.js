/* A player's phone: Pillars has no secret holdings (rules reference §16), so the phone is the
 * player's decision menu (every choice with its cost and effect, refused ones with the
 * reason), the cathedral advisor at step 13, and the player's own summary: what they hold
 * and what this round will still bring them. */
(function () {
  "use strict";
  var h = TC.h, t = TC.t, P = window.POTE;
  var busy = false;
  var alloc = {key: "", uses: {}};   // the player's own cathedral allocation being edited

  function send(action) {
    if (busy) return Promise.resolve({ok: false});
    busy = true;
    document.body.classList.add("busy");
    return TC.act(action).then(function (ack) {
      busy = false;
      document.body.classList.remove("busy");
      return ack;
    });
  }

  /* ---------- a choice in words ---------- */

  function costEffect(c) {
    var cost = P.obj(c.cost), eff = P.obj(c.effect), parts = [];
    Object.keys(cost).forEach(function (k) {
      if (typeof cost[k] !== "number" || !cost[k]) return;
      parts.push(k === "workers" ? t("workers_n", {n: cost[k]}) : P.counted(k, cost[k], "−" + cost[k]));
    });
    Object.keys(eff).forEach(function (k) {
      var v = eff[k];
      if (typeof v !== "number") return;
      if (k === "mill") parts.push(t("mill_gold_n", {n: v}));
      else if (k === "build_vp") parts.push(t("then_build_vp", {n: v}));
      else if (k === "wheel") parts.push(t("back_at_cost", {n: v}));
      else if (k === "gold" && c.action.type === "use_exemption") parts.push(v ? P.counted("gold", v, "−" + Math.abs(v)) : t("no_tax"));
      else if (v) parts.push(P.counted(k, v, (v > 0 ? "+" : "−") + Math.abs(v)));
    });
    if (eff.location && c.action.type !== "place") parts.push(P.nm(eff.location));  // a place: its label names it
    if (eff.discard) parts.push(t("then_discard"));
    return parts.join(" · ");
  }

  function label(m, c) {
    var a = c.action;
    switch (a.type) {
      case "take_material": case "take_craftsman": case "discard_craftsman": return P.nm(a.card);
      case "pass": return t("pass_draft");
      case "pass_architect": return t("pass_architect");
      case "refuse_draw": return t("refuse_draw");
      case "place": return P.nm(P.obj(c.effect).location) + " " + a.space.replace(/^\D+/, "");
      case "bishop_choice": return a.choice === "protect" ? t("bishop_protect") : t("bishop_cube", {item: P.itemName(a.cube)});
      case "use_exemption": return a.use ? t("use_exemption_yes") : t("use_exemption_no");
      case "buy": return t("buy_n", {what: P.counted(a.cube, a.amount)});
      case "sell": return t("sell_n", {what: P.counted(a.cube, a.amount)});
      case "leave_market": return t("leave_market");
      case "return_cubes": return t("return_these", {what: P.itemText(a.cubes)});
      case "draw_architect": return P.who(m, a.seat);
      case "build": return t("build_this");
      default: return t("action_" + a.type);
    }
  }

  function choiceButton(m, c, extra) {
    var refused = c.refused;
    var a = c.action;
    var colour = a.type === "draw_architect" ? ".colour" : "";
    return h("button.choice" + colour + (refused ? ".refused.secondary" : ""), {type: "button", disabled: !!refused,
      dataset: {type: a.type, card: a.card || "", space: a.space || "", cube: a.cube || "", key: JSON.stringify(a)},
      style: a.type === "draw_architect" ? P.playerStyle(m.players[a.seat]) : null,
      onclick: refused ? null : function () { send(a); }},
      h("span.label", label(m, c)),
      h("span.ce", costEffect(c)),
      extra || null,
      refused ? h("span.why", refused.message || refused.code) : null);
  }

  function group(title, kind, buttons) {
    if (!buttons.length) return null;
    return h("div.choice-group", {dataset: {kind: kind, key: "g-" + kind}}, title ? h("h3", title) : null,
      h("div.choices", buttons));
  }

  function ofType(m, types) {
    return m.choices.filter(function (c) { return types.indexOf(c.action.type) >= 0; });
  }

  /* ---------- the decisions, by prompt ---------- */

  function draft(m) {
    return [
      group(t("supply_materials"), "materials", ofType(m, ["take_material"]).map(function (c) {
        return choiceButton(m, c);
      })),
      group(t("supply_craftsmen"), "craftsmen", ofType(m, ["take_craftsman"]).map(function (c) {
        return choiceButton(m, c, h("span.small.muted", P.conversion(m.cards[c.action.card])));
      })),
      group(null, "pass", ofType(m, ["pass"]).map(function (c) { return choiceButton(m, c); }))
    ];
  }

  /** What an architect on this space gets at its step of phase III (rules §6, §7). */
  function spaceGives(m, c) {
    var loc = P.obj(c.effect).location, n = parseInt(String(c.action.space).replace(/^\D+/, ""), 10) || 1;
    var v = m.view;
    var spec = P.arr(v.locations).filter(function (l) { return l.id === loc; })[0] || {};
    if (loc === "kingsbridge") {
      var pv = P.arr(v.kingsbridge)[n - 1];
      return pv ? t("gives_card", {card: P.nm(pv)}) : t("gives_kingsbridge");
    }
    if (loc === "shiring") {
      var cr = P.arr(v.shiring)[n - 1];
      return cr ? t("gives_craftsman", {card: P.nm(cr)}) : t("gives_shiring");
    }
    if (loc === "prior") return t("gives_vp", {n: P.arr(spec.vp)[n - 1] || 0});
    if (loc === "court") return t(n === 1 ? "gives_court_metal" : "gives_court");
    var key = "gives_" + loc;
    return t(key) === key ? "" : t(key);
  }

  /** Architect placement: the spaces by location (one button for the first free space of
   *  each location is enough: the spaces of a location act in order). */
  function placement(m) {
    var byLoc = {}, order = [];
    ofType(m, ["place"]).forEach(function (c) {
      var loc = P.obj(c.effect).location || "?";
      if (!byLoc[loc]) { byLoc[loc] = []; order.push(loc); }
      byLoc[loc].push(c);
    });
    return [
      group(t("place_where"), "place", order.map(function (loc) {
        var open = byLoc[loc].filter(function (c) { return !c.refused; });
        var c = open[0] || byLoc[loc][0];
        return choiceButton(m, c, h("span.gives.small", spaceGives(m, c)));
      })),
      group(null, "pass", ofType(m, ["pass_architect", "refuse_draw"]).map(function (c) { return choiceButton(m, c); }))
    ];
  }

  function market(m) {
    var cubes = {};
    ofType(m, ["buy", "sell"]).forEach(function (c) {
      var k = c.action.type + ":" + c.action.cube;
      (cubes[k] = cubes[k] || []).push(c);
    });
    var out = [];
    ["buy", "sell"].forEach(function (kind) {
      P.CUBES.forEach(function (cube) {
        var list = cubes[kind + ":" + cube];
        if (!list) return;
        var open = list.filter(function (c) { return !c.refused; });
        out.push(group(t(kind + "_title", {item: P.itemName(cube)}), kind + "-" + cube,
          (open.length ? open : list.slice(0, 1)).map(function (c) { return choiceButton(m, c); })));
      });
    });
    out.push(group(null, "leave", ofType(m, ["leave_market"]).map(function (c) { return choiceButton(m, c); })));
    return out;
  }

  /** Step 13: the best allocation (exact, from the engine) and the player's own, editable
   *  within each craftsman's capacity, with the VP of both side by side. */
  function cathedral(m) {
    var v = m.view, mine = P.obj(m.mine);
    var best = P.obj(v.advisor);
    var shop = P.arr(v.workshop);
    var key = v.round + ":" + JSON.stringify(mine.cubes) + ":" + mine.gold;
    if (alloc.key !== key) { alloc = {key: key, uses: Object.assign({}, P.obj(best.uses))}; }
    var uses = alloc.uses;
    var need = {}, vp = 0, gold = 0;
    shop.forEach(function (w) {
      var n = uses[w.id] || 0, card = P.obj(m.cards[w.id]);
      Object.keys(P.obj(card.input)).forEach(function (k) { need[k] = (need[k] || 0) + card.input[k] * n; });
      vp += (P.obj(card.output).vp || 0) * n;
      gold += (P.obj(card.output).gold || 0) * n;
    });
    var have = Object.assign({}, P.obj(mine.cubes), {gold: mine.gold});
    var short = Object.keys(need).filter(function (k) { return need[k] > (have[k] || 0); });
    var bestVp = best.vp || 0;
    var rows = shop.map(function (w) {
      var n = uses[w.id] || 0;
      function set(x) { return function () { alloc.uses[w.id] = Math.max(0, Math.min(w.max, x)); render(last); }; }
      return h("div.alloc-row", {dataset: {card: w.id, key: "alloc-" + w.id}},
        h("div.grow", h("b", P.nm(w.id)), h("div.small.muted", P.conversion(m.cards[w.id]))),
        h("button.secondary.step", {type: "button", "aria-label": t("fewer"), disabled: n <= 0, onclick: set(n - 1)}, "−"),
        h("span.count", String(n)),
        h("button.secondary.step", {type: "button", "aria-label": t("more"), disabled: n >= w.max, onclick: set(n + 1)}, "+"));
    });
    var sendUses = {};
    Object.keys(uses).forEach(function (k) { if (uses[k]) sendUses[k] = uses[k]; });
    return [
      h("div.advisor", {id: "advisor"},
        h("div.vs", h("div.box.best", h("div.small", t("advisor")), h("div.vp-big", "★ " + bestVp),
          h("div.small", P.itemText(bestUsesCost(m, best.uses)) || t("nothing"))),
        h("div.box.yours" + (vp < bestVp ? ".worse" : ""), h("div.small", t("your_choice")), h("div.vp-big", {id: "my-alloc-vp"}, "★ " + vp),
          h("div.small", P.itemText(need) || t("nothing")))),
        shop.length ? h("div.alloc", rows) : h("p.small.muted", t("no_conversion")),
        short.length ? h("p.why", t("not_enough", {what: short.map(P.itemName).join(", ")})) : null,
        h("div.choices",
          h("button.choice", {type: "button", id: "build-best", dataset: {type: "build"},
            onclick: function () { send({type: "build", uses: P.obj(best.uses)}); }},
            h("span.label", t("build_best", {n: bestVp}))),
          h("button.choice.secondary", {type: "button", id: "build-mine", disabled: !!short.length,
            onclick: function () { send({type: "build", uses: sendUses}); }},
            h("span.label", t("build_mine", {n: vp})),
            gold ? h("span.ce", P.counted("gold", gold, "+" + gold)) : null)))
    ];
  }

  function bestUsesCost(m, uses) {
    var need = {};
    Object.keys(P.obj(uses)).forEach(function (id) {
      var card = P.obj(m.cards[id]);
      Object.keys(P.obj(card.input)).forEach(function (k) { need[k] = (need[k] || 0) + card.input[k] * uses[id]; });
    });
    return need;
  }

  function decisions(m) {
    var mine = m.prompts.filter(function (p) { return p.seat === m.me; });
    if (!mine.length) return [];
    var kinds = mine.map(function (p) { return p.kind; });
    if (kinds.indexOf("draft") >= 0) return draft(m);
    if (kinds.indexOf("place_architect") >= 0 || kinds.indexOf("place_deferred") >= 0) return placement(m);
    if (kinds.indexOf("market") >= 0) return market(m);
    if (kinds.indexOf("build") >= 0) return cathedral(m);
    // every other decision (bishop, exemption, discard, storage, refusing the drawn
    // architect): one button per choice
    return [group(null, kinds.join(" "), m.choices.map(function (c) { return choiceButton(m, c); }))];
  }

  /** The start player may enter the architect drawn from the bag here too (one tap). */
  function drawInput(m) {
    var draws = ofType(m, ["draw_architect"]);
    if (!draws.length) return null;
    return group(t("which_colour_drawn"), "draw_architect", draws.map(function (c) { return choiceButton(m, c); }));
  }

  /* ---------- my summary ---------- */

  function summary(m) {
    var me = P.obj(m.mine), w = P.obj(me.workers);
    return [
      P.chips(Object.assign({gold: me.gold}, P.obj(me.cubes)), {zeros: true}),
      P.arr(Object.keys(P.obj(me.owed))).some(function (k) { return me.owed[k]; })
        ? h("div.small.why", t("owed") + ": " + P.itemText(me.owed)) : null,
      P.workersLine(w),
      h("h3", t("craftsmen")),
      h("div.cards", P.arr(me.craftsmen).map(function (id) { return P.cardBox(m, id); })),
      P.arr(me.privileges).length ? h("h3", t("privileges")) : null,
      h("div.cards", P.arr(me.privileges).map(function (id) {
        return P.cardBox(m, id, P.arr(me.used_privileges).indexOf(id) >= 0 ? h("div.small.muted", t("used")) : null);
      })),
      P.arr(me.materials).length ? h("h3", t("my_materials")) : null,
      h("div.cards", P.arr(me.materials).map(function (id) { return P.cardBox(m, id); }))
    ];
  }

  function forecast(m) {
    var f = P.obj(m.view.forecast), me = P.obj(m.mine);
    var lines = [];
    if (Object.keys(P.obj(f.cubes)).length) lines.push(h("div", t("production") + ": ", P.chips(f.cubes, {sign: true})));
    if (f.mill_gold) lines.push(h("div", t("mill_gold_n", {n: f.mill_gold})));
    if (f.prior_vp) lines.push(h("div", t("prior_vp_n", {n: f.prior_vp})));
    if (f.tax_exempt) lines.push(h("div", t("tax_exempt")));
    var so = P.obj(me.this_round);
    if (Object.keys(so).some(function (k) { return so[k]; })) {
      lines.push(h("div.small", t("this_round") + ": ", P.chips(so, {sign: true, short: true})));
    }
    var lr = P.obj(me.last_round);
    if (Object.keys(lr).some(function (k) { return lr[k]; })) {
      lines.push(h("div.small.muted", t("last_round") + ": ", P.chips(lr, {sign: true, short: true})));
    }
    return lines.length ? lines : [h("p.small.muted", t("nothing_expected"))];
  }

  var last = null;

  function render(msg) {
    last = msg;
    var m = P.model(msg);
    var me = P.obj(m.mine);
    TC.replace("round-line", P.roundLine(m));
    TC.replace("my-vp", String(me.vp !== undefined ? me.vp : "–"));
    TC.replace("my-gold", String(me.gold !== undefined ? me.gold : "–"));
    // each count's word in the form its number asks for ("23 złota", not "23 złoto")
    if (me.vp !== undefined) TC.replace("my-vp-word", TC.countWord("vp", me.vp) || t("vp"));
    if (me.gold !== undefined) TC.replace("my-gold-word", TC.countWord("gold", me.gold) || P.itemName("gold"));
    var mine = m.prompts.filter(function (p) { return p.seat === m.me; });
    var el = document.getElementById("my-prompt");
    var myTurn = mine.length && !m.over && !msg.closed && !msg.paused;
    el.className = "my-prompt " + (mine.length ? "yours" : "waiting");
    var others = m.prompts.filter(function (p) { return p.seat !== m.me; });
    // "Your turn" and what to do, at the top as in every game (client.js turnBanner)
    if (!TC.turnBanner(el, myTurn ? mine.map(function (p) { return P.promptText(m, p); }).join(" · ") : null,
      P.colourOf(m.players[m.me]))) {
      TC.replace(el, m.over ? t("game_over") : (mine.length ? mine.map(function (p) { return P.promptText(m, p); }).join(" · ")
        : (others.length ? t("waiting_for", {what: others.map(function (p) { return P.promptText(m, p); }).join(" · ")}) : t("waiting"))));
    }
    TC.replace("act-now", decisions(m).concat([drawInput(m)]));
    TC.replace("summary", summary(m));
    TC.replace("forecast", forecast(m));
    TC.replace("public-locations", P.locations(m));
    TC.replace("public-market", P.market(m));
    TC.replace("public-players", P.playerCards(m));
    var fin = P.finalScores(m);
    document.getElementById("final").hidden = !fin;
    TC.replace("final", fin);
    TC.replace("log", P.logList(m));
  }

  TC.start({render: render});
})();
