/* A player's phone: private holdings, action hand, what I may do now (and why not), pending
 * decisions, the chapter-end forecast, manual inputs. Only this seat's data reaches it. */
(function () {
  "use strict";
  var h = TC.h, t = TC.t, W = window.WWE, M = window.Manual;
  var ui = {card: null, discard: null, rotation: null, busy: false, cancel: null, confirm: null};
  var lastPromptKey = "";
  var lastDecision = "";

  function myPrompts(m) {
    return m.prompts.filter(function (p) { return p.seat === m.msg.seat; });
  }

  function promptText(m, p) {
    return p.text || t("prompt_" + p.kind, {who: (m.players[p.seat] || {}).name || W.nm("seats", p.seat)});
  }

  function send(action) {
    if (ui.busy) return Promise.resolve({ok: false});
    ui.busy = true;
    document.body.classList.add("busy");
    return TC.act(action).then(function (ack) {
      ui.busy = false;
      document.body.classList.remove("busy");
      if (ack.ok) { ui.card = null; ui.discard = null; ui.rotation = null; ui.cancel = null; ui.confirm = null; ui.discardMissing = false; }
      return ack;
    });
  }

  /* ---------- cost / effect in words ---------- */

  function costEffect(c) {
    var parts = W.deltas(c);
    var extra = W.obj(c.effect).text || W.obj(c.effect).note;
    if (extra && typeof extra === "object") extra = TC.name(extra, "");  // {lang: text}
    if (extra) parts.push(extra);
    return parts.join(" · ");
  }

  /** A play_card / decision parameter set in words ("Bridge: 1 Stone, 1 Wood"). */
  function paramsText(params, m) {
    params = W.obj(params);
    var parts = [];
    var items = {};
    Object.keys(params).forEach(function (k) {
      var v = params[k];
      if (v === null || v === undefined) return;
      if (k === "project") parts.push(W.nm("projects", v));
      else if (k === "site") parts.push(W.nm("sites", v));
      else if (k === "sites") parts.push(W.arr(v).map(function (x) { return W.nm("sites", x); }).join(" + ") || t("none"));
      else if (k === "space") parts.push(W.nm("favor", v));
      else if (k === "location") parts.push(W.nm("plague", v));
      else if (k === "locations") parts.push(t("cure_at", {list: W.arr(v).map(function (x) { return W.nm("plague", x); }).join(", ")}));
      else if (k === "mode") { if (v === "help") parts.push(t("medicine_help")); }
      else if (k === "item") parts.push(W.nm("items", v));
      else if (k === "seat") parts.push(m && m.players[v] ? m.players[v].name : W.nm("seats", v));
      else if (k === "value") parts.push(String(v));
      else if (typeof v === "number" && W.ITEMS.indexOf(k) >= 0) { if (v) items[k] = v; }
      else if (typeof v === "string") parts.push(v);
    });
    var it = W.itemText(items);
    if (it) parts.push(it);
    return parts.join(": ");
  }

  /** Why a legal move would do nothing (R4.1.2: a card may be played for no effect), or "". */
  function idleWhy(c) {
    var idle = W.obj(W.obj(c.effect).no_effect);
    return idle.code ? (idle.message || idle.code) : "";
  }

  /** This round's action is lost (R4.1.4: the Royal Court, an event card): the engine's
   *  reason on every play it offers (each card, played without effect), else null. */
  function lostWhy(choices) {
    var plays = choices.filter(function (c) { return c.action && c.action.type === "play_card" && !c.refused; });
    var why = plays.length ? W.obj(W.obj(plays[0].effect).no_effect) : {};
    var all = plays.every(function (c) {
      return String(W.obj(W.obj(c.effect).no_effect).code || "").indexOf("action_lost_") === 0;
    });
    return plays.length && all ? why : null;
  }

  function choiceButton(c, label, onclick) {
    var refused = c.refused, idle = !refused && idleWhy(c);
    return h("button.choice" + (refused ? ".refused.secondary" : "") + (idle ? ".no-effect.secondary" : ""), {type: "button",
      disabled: !!refused, onclick: refused ? null : onclick,
      dataset: {type: c.action && c.action.type, card: c.action && c.action.card, idle: idle ? "yes" : ""}},
      h("span", label),
      costEffect(c) ? h("span.ce", costEffect(c)) : null,
      idle ? h("span.why", t("does_nothing", {why: idle})) : null,
      refused ? h("span.why", refused.message || refused.code) : null);
  }

  /** A move that would do nothing asks once more: the first tap says so, the second sends. */
  function confirmIdle(c, key, send) {
    if (!idleWhy(c) || ui.confirm === key) { ui.confirm = null; send(); return; }
    ui.confirm = key;
    rerender();
  }

  /* ---------- what I may do now ---------- */

  /** Possible choices as buttons; refused ones folded away with their reasons. */
  function choiceList(possible, refused, label, onPick) {
    // Variants that come to the same thing (same words, same cost and effect: a card whose
    // parameters change nothing) collapse into one button.
    var seen = {};
    possible = possible.filter(function (c) {
      var key = label(c) + "|" + costEffect(c);
      if (seen[key]) return false;
      seen[key] = true;
      return true;
    });
    // The moves that do something first; those that would do nothing apart, below.
    function button(c) {
      var key = JSON.stringify(c.action);
      var asking = ui.confirm === key;
      var b = choiceButton(c, asking ? t("confirm_does_nothing") : label(c), function () {
        confirmIdle(c, key, function () { onPick(c); });
      });
      if (asking) b.classList.add("confirming");
      return b;
    }
    var doing = possible.filter(function (c) { return !idleWhy(c); });
    var idle = possible.filter(function (c) { return idleWhy(c); });
    var out = [h("div.choices", doing.map(button))];
    if (idle.length) out.push(h("h4.idle-head", t("would_do_nothing")), h("div.choices.idle", idle.map(button)));
    if (refused.length) {
      out.push(h("details.not-possible", h("summary.small", t("not_possible_n", {n: refused.length})),
        h("div.choices", refused.map(function (c) {
          return h("div.refused-choice", choiceButton(c, label(c)), TC.why(c.refused.rule));
        }))));
    }
    return out;
  }

  function playCard(m, choices) {
    var byCard = {};
    var order = [];
    choices.forEach(function (c) {
      var id = c.action.card;
      if (!byCard[id]) { byCard[id] = []; order.push(id); }
      byCard[id].push(c);
    });
    var lost = lostWhy(choices);
    var box = h("div.choice-group", {id: "play-card"}, h("h3", t(lost ? "give_up_a_card" : "play_a_card")));
    // Said before the tap: this round's action is lost, why (cited), and what is left.
    if (lost) box.appendChild(h("p.lost-why", {id: "action-lost"}, h("b", t("action_lost")), " ",
      lost.message || lost.code, " ", TC.why(lost.rule)));
    // The camera saw this seat's card go down: pre-select it (the player still confirms).
    var seen = W.obj(W.obj(W.obj(m.msg.hardware).camera).selected)[m.msg.seat];
    if (!ui.card && seen && byCard[seen] && ui.cameraCard !== seen) { ui.card = seen; ui.cameraCard = seen; }
    if (!ui.card || !byCard[ui.card]) {
      ui.card = null;
      var cards = order.map(function (id) {
        var cs = byCard[id];
        var ok = cs.filter(function (c) { return !c.refused && c.action.perform !== false; });
        var shown = ok.length === 1 ? ok[0] : null;
        // Several ways to play it: what they do, the first two different ones and how many.
        var ways = ok.map(costEffect).filter(function (x, i, a) { return x && a.indexOf(x) === i; });
        var summary = ok.length > 1 && ways.length ? ways.slice(0, 2).join(" / ") +
          (ways.length > 2 ? " / …" : "") + " (" + t("ways_n", {n: ok.length}) + ")" : "";
        return {action: {type: "play_card", card: id}, cost: shown ? shown.cost : {},
          effect: shown ? shown.effect : {}, refused: ok.length ? null : (cs.filter(function (c) {
            return c.refused && c.action.perform !== false; })[0] || {}).refused || null, id: id,
          summary: summary};
      });
      // A card with no performable option can still be played without effect (R4.1.2):
      // it says so and why, apart from the cards that do something.
      function cardButton(c) {
        var b = choiceButton({action: c.action, cost: c.cost, effect: c.effect, refused: null},
          W.nm("cards", c.id), function () { ui.card = c.id; ui.discard = null; rerender(); showChosen(); });
        if (c.summary) b.appendChild(h("span.ce", c.summary));
        if (c.refused) {
          b.classList.add("secondary");
          b.appendChild(h("span.why", c.refused.message || c.refused.code));
        }
        return b;
      }
      var doing = cards.filter(function (c) { return !idleWhy(c); });
      var idle = cards.filter(function (c) { return idleWhy(c); });
      box.appendChild(h("div.choices", doing.map(cardButton)));
      if (idle.length) {
        box.appendChild(h("h4.idle-head", t("would_do_nothing")));
        box.appendChild(h("div.choices.idle", idle.map(cardButton)));
      }
      return box;
    }
    var cs = byCard[ui.card];
    var discards = W.arr(W.obj(cs[0].effect).discard_options);
    box.appendChild(h("div.row", h("b.grow", W.nm("cards", ui.card)),
      h("button.secondary", {type: "button", id: "card-back", onclick: function () { ui.card = null; ui.discardMissing = false; rerender(); }}, t("back"))));
    if (discards.length) {
      if (discards.indexOf(ui.discard) < 0) ui.discard = null;
      box.appendChild(h("label", {for: "discard-select"}, t("discard_face_down")));
      box.appendChild(h("select", {id: "discard-select", "aria-describedby": "discard-needed",
        "aria-invalid": ui.discardMissing ? "true" : null,
        onchange: function (e) {
          ui.discard = e.target.value || null;
          if (ui.discard && ui.discardMissing) { ui.discardMissing = false; rerender(); }
        }},
        h("option", {value: ""}, t("choose_discard")),
        discards.map(function (id) {
          return h("option", {value: id, selected: ui.discard === id}, W.nm("cards", id));
        })));
      // Said beside the list it is about, not in a toast over the buttons below it.
      if (ui.discardMissing) box.appendChild(h("p.bad.small", {id: "discard-needed", role: "alert"},
        t("choose_discard_first")));
    }
    function pick(c) {
      var action = JSON.parse(JSON.stringify(c.action));
      if (discards.length) {
        if (!ui.discard) {
          ui.discardMissing = true;
          // a play that does nothing stays confirmed: once the card is chosen, one tap sends
          if (idleWhy(c) && !lost) ui.confirm = JSON.stringify(c.action);
          rerender();
          // the list to choose from at the dock's top, the buttons to tap again below it
          var sel = document.getElementById("discard-select");
          if (sel) { sel.focus({preventScroll: true}); sel.scrollIntoView({block: "start"}); }
          return;
        }
        action.discard = ui.discard;
      }
      ui.discardMissing = false;
      send(action);
    }
    var possible = cs.filter(function (c) { return !c.refused; });
    var refused = cs.filter(function (c) { return c.refused; });
    if (lost) {  // nothing to choose but the card given up (and the face-down one)
      box.appendChild(h("div.choices", possible.map(function (c) {
        return h("button.choice", {type: "button", id: "give-up", onclick: function () { pick(c); }},
          h("span", t("give_up_card", {card: W.nm("cards", ui.card)})));
      })));
      return box;
    }
    // Played without being carried out, by choice or because it cannot be: one control.
    // A card that can do nothing offers both plays; the one saying why stays.
    var idleOne = possible.some(function (c) { return c.action.perform !== false && idleWhy(c); });
    possible = possible.filter(function (c) { return !(idleOne && c.action.perform === false); });
    box.appendChild(h("div", choiceList(possible, refused, function (c) {
      if (c.action.perform === false || idleWhy(c)) return t("play_without_performing");
      return paramsText(c.action.params, m) || t("perform");
    }, pick)));
    return box;
  }

  /** The card just chosen, its name to its buttons, in sight in the dock: what was read
   *  above it (the lost action, an open "Why?") may scroll away now. */
  function showChosen() {
    var back = document.getElementById("card-back");
    if (back) back.parentNode.scrollIntoView({block: "start"});
  }

  function orient(m, choices) {
    // the turn this phone chose and the TV previews (the server keeps it: `preview`): a
    // reload, or another phone of the seat, shows it and its "Confirm" again
    var kept = W.obj(m.msg.preview);
    if (ui.rotation === null && kept.seat === m.msg.seat && typeof kept.rotation === "number") {
      ui.rotation = kept.rotation;
    }
    var byRot = {};
    choices.forEach(function (c) { byRot[c.action.rotation] = c; });
    var box = h("div.choice-group", {id: "orient"}, h("h3", t("orient_event_card")),
      W.eventBox(m.view.event), h("p.small", t("orient_hint")));
    box.appendChild(M.rotationButtons(m, ui.rotation, function (r) {
      ui.rotation = r;
      TC.preview({action: {type: "orient_event", rotation: r}});
      rerender();
    }, m.msg.seat));
    if (ui.rotation !== null) {
      var c = byRot[ui.rotation] || {action: {type: "orient_event", rotation: ui.rotation}};
      box.appendChild(h("div.choices", choiceButton(c, t("confirm_rotation", {n: ui.rotation}),
        function () { send({type: "orient_event", rotation: ui.rotation}); })));
    }
    return box;
  }

  function protection(m, choices) {
    var box = h("div.choice-group", {id: "protection"}, h("h3", t("loyalty_protection")),
      h("p.small", m.chapter >= 4 ? t("loyalty_doubling_hint") : t("loyalty_protection_hint")));
    var duty = W.obj(W.obj(m.view.duties)[m.msg.seat]);
    if (duty.short) box.appendChild(h("p.small", t("missing") + ": " + (W.itemText(duty.short) || "–")));
    // Every punishment some choice can cancel: a choice shows what those it leaves will do.
    var all = [];
    choices.forEach(function (c) {
      W.arr(c.action.cancel).forEach(function (x) { if (all.indexOf(x) < 0) all.push(x); });
    });
    box.appendChild(h("div.choices", choices.map(function (c) {
      var cancel = W.arr(c.action.cancel);
      var label = cancel.length ? t("cancel_punishments", {list: cancel.map(function (x) {
        return W.ITEMS.indexOf(x) >= 0 ? t("doubling_of", {item: W.nm("items", x)}) : t("punish_" + x);
      }).join(", ")}) : t("cancel_nothing");
      var left = all.filter(function (x) { return cancel.indexOf(x) < 0 && W.ITEMS.indexOf(x) < 0; });
      var b = choiceButton(c, label, function () { send(c.action); });
      if (left.length) b.appendChild(h("span.ce", "⚠ " + left.map(function (x) { return t("will_" + x); }).join(" · ")));
      return b;
    })));
    return box;
  }

  function trade(m, choices) {
    var box = h("div.choice-group", {id: "trade"}, h("h3", t("trade_offer")));
    box.appendChild(h("div.choices", choices.map(function (c) {
      var tr = W.obj(W.obj(c.effect).trade);
      var times = c.action.count || 1;
      function scaled(items) {
        var out = {};
        Object.keys(W.obj(items)).forEach(function (k) { out[k] = items[k] * times; });
        return out;
      }
      var what = tr.give ? t("trade_give_get", {give: W.itemText(scaled(tr.give)), get: W.itemText(scaled(tr.get))}) : "";
      var label = c.action.accept ? (what || t("accept_trade")) : t("decline_trade");
      return choiceButton(c, label, function () { send(c.action); });
    })));
    return box;
  }

  function generic(m, type, choices) {
    var box = h("div.choice-group", {dataset: {kind: type}}, h("h3", t("action_" + type)));
    box.appendChild(h("div.choices", choices.map(function (c) {
      var rest = Object.assign({}, c.action);
      delete rest.type; delete rest.by;
      var label = paramsText(rest, m) || t("action_" + type);
      if (type === "cure" && c.action.location === null) label = t("cure_nobody");
      if (type === "place_free_house" && c.action.site === null) label = t("decline");
      return choiceButton(c, label, function () { send(c.action); });
    })));
    return box;
  }

  function actNow(m) {
    var out = [];
    var mine = myPrompts(m);
    var kinds = mine.map(function (p) { return p.kind; });
    var byType = {};
    m.choices.forEach(function (c) {
      var type = c.action && c.action.type;
      if (!type) return;
      (byType[type] = byType[type] || []).push(c);
    });
    if (kinds.indexOf("reveal_event") >= 0 || byType.reveal_event) {
      out.push(M.eventPicker(m, function (card) { return send({type: "reveal_event", card: card}); }));
    }
    // the camera or the dice reader records the tax die (issue 45: the phone enters it only
    // when asked for it, above, alone; table_steps.js): no second way (issue 46)
    if ((kinds.indexOf("roll_tax") >= 0 || byType.roll_tax) && !TC.diceRead(m.msg) && !TC.cameraRolls(m.msg)) {
      out.push(M.dieButtons(m, function (v) { return send({type: "roll_tax", value: v}); }));
    }
    Object.keys(byType).forEach(function (type) {
      var cs = byType[type];
      if (type === "reveal_event" || type === "roll_tax") return;
      if (type === "play_card") out.push(playCard(m, cs));
      else if (type === "orient_event") out.push(orient(m, cs));
      else if (type === "choose_protection") out.push(protection(m, cs));
      else if (type === "answer_trade") out.push(trade(m, cs));
      else out.push(generic(m, type, cs));
    });
    if (kinds.indexOf("orient_event") >= 0 && !byType.orient_event) out.push(orient(m, []));
    return out;
  }

  /* ---------- my things ---------- */

  function holdings(m) {
    return W.itemChips(W.obj(W.obj(m.priv).resources), {});
  }

  function myBoard(m) {
    var me = W.obj(m.me);
    var bits = [];
    bits.push(t("houses_n", {n: W.arr(me.houses).length}) + (W.arr(me.houses).length ? " (" +
      W.arr(me.houses).map(function (x) { return W.nm("sites", x); }).join(", ") + ")" : ""));
    bits.push(t("seals_left_n", {n: me.seals_left !== undefined ? me.seals_left : 2}));
    var pun = W.arr(me.punishments);
    if (pun.length) bits.push("⚠ " + t("next_chapter") + ": " + pun.map(function (x) { return t("punish_" + x); }).join(", "));
    var flags = W.arr(me.round_flags);
    if (flags.length) bits.push("⚑ " + flags.map(function (x) { return t("flag_" + x); }).join(", "));
    return bits.join(" · ");
  }

  function hand(m) {
    var me = W.obj(m.me);
    var out = [];
    function card(id, cls, pile, label) {
      out.push(h("div.acard" + cls + (ui.card === id && pile === "hand" ? ".selected" : ""),
        {dataset: {card: id, pile: pile}}, h("div", W.nm("cards", id)), h("div.small.muted", label)));
    }
    W.arr(me.hand).forEach(function (id) { card(id, "", "hand", t("in_hand")); });
    W.arr(me.played).forEach(function (p) {
      card(p.card, ".played", "played", p.performed ? t("played") : t("played_not_performed"));
    });
    W.arr(me.discards).forEach(function (id) { card(id, ".discarded", "discards", t("discarded")); });
    W.arr(me.aside).forEach(function (id) { card(id, ".aside", "aside", t("set_aside")); });
    return out.length ? out : h("p.muted", t("no_cards"));
  }

  /* ---------- chapter-end forecast (from the view; the engine's if it gives one) ---------- */

  function minus(n) { return n ? "−" + n : "0"; }

  function forecast(m) {
    var f = {};
    var res = W.obj(W.obj(m.priv).resources);
    var last = m.chapter >= 4;
    var faces = M.dieFaces(m);
    var taxMin = Math.min.apply(null, faces), taxMax = Math.max.apply(null, faces);
    var duties = f.duties || [
      {item: "piety", need: 2, per: last ? 6 : 3, punish: "penance"},
      {item: "grain", need: 2, per: last ? 4 : 2, punish: "begging"},
      {item: "gold", need: [taxMin, taxMax], per: last ? 2 : 1, punish: "royal_court"}
    ];
    var worst = 0, best = 0, punish = [];
    var rows = duties.map(function (d) {
      var have = res[d.item] || 0;
      var need = Array.isArray(d.need) ? d.need : [d.need, d.need];
      var shortBest = Math.max(0, need[0] - have), shortWorst = Math.max(0, need[1] - have);
      best += shortBest * d.per; worst += shortWorst * d.per;
      if (shortWorst && !last) punish.push(d.punish + (shortBest ? "" : "?"));
      return h("tr", h("td", W.nm("items", d.item)),
        h("td", have + " / " + (need[0] === need[1] ? String(need[0]) : need[0] + "–" + need[1])),
        h("td" + (shortWorst ? ".bad" : ".good"), shortWorst ?
          (shortBest === shortWorst ? "−" + shortWorst * d.per : minus(shortBest * d.per) + " … −" + shortWorst * d.per) + " " + t("vp") : "✓"));
    });
    var loyalty = res.loyalty || 0;
    return [
      h("table.forecast", h("thead", h("tr", h("th", t("duty")), h("th", t("you_have") + " / " + t("needed")),
        h("th", t("at_chapter_end")))), h("tbody", rows)),
      h("p.small", worst ? t(best === worst ? "forecast_vp_loss_exact" : "forecast_vp_loss", {best: best, worst: worst}) : t("forecast_ok")),
      punish.length ? h("p.small.bad", t("punishments_ahead") + ": " + punish.map(function (p) {
        var maybe = p.slice(-1) === "?";
        return t("punish_" + p.replace("?", "")) + (maybe ? " (" + t("depends_on_die") + ")" : "");
      }).join(", ") + (loyalty ? " · " + t("loyalty_can_cancel_n", {n: loyalty}) : "")) : null,
      last ? h("p.small.muted", t("chapter4_doubled")) : null
    ];
  }

  function publicPanel(m) {
    return [h("h3", t("favor_track"), W.favorDemo(m)), h("div.favor-track", W.favorTrack(m)),
      h("h3", t("building_projects")), W.projects(m), h("h3", t("market")), W.market(m),
      h("h3", t("permanent_events")), W.permanents(m),
      h("h3", t("houses_on_sites")), h("div.sites", W.sites(m)),
      Object.keys(W.obj(m.view.plague)).length ? [h("h3", t("plague")), h("div.plague", W.plague(m))] : null,
      h("h3", t("players")), h("div", m.seats.map(function (s) {
        var p = m.players[s] || {};
        return h("div", W.seatLabel(m, s), " ", String(p.vp !== undefined ? p.vp : "–"), " ", t("vp"));
      }))];
  }

  /** Folds the dock down to this one button, so the page under it (the log's "Why?") can
   *  be read; tapped again, the choices come back. */
  function foldButton() {
    return h("button.secondary.dock-fold", {type: "button", id: "dock-fold",
      "aria-expanded": ui.folded ? "false" : "true", "aria-controls": "act-now",
      onclick: function () { ui.folded = !ui.folded; rerender(); }},
      ui.folded ? "▴ " + t("show_choices") : "▾ " + t("hide_choices"));
  }

  var current = null;
  function rerender() { if (current) render(current); }

  function render(msg) {
    current = msg;
    var m = W.model(msg);
    var mine = myPrompts(m);
    var key = mine.map(function (p) { return p.kind; }).join(",") + ":" + msg.version;
    if (key !== lastPromptKey && mine.length && navigator.vibrate && lastPromptKey) navigator.vibrate(80);
    if (!mine.length) { ui.card = null; ui.rotation = null; }
    lastPromptKey = key;
    TC.replace("chapter-round", W.chapterRound(m));
    TC.replace("my-vp", String(W.obj(m.me).vp !== undefined ? m.me.vp : "–"));
    var promptEl = document.getElementById("my-prompt");
    var myTurn = !!mine.length && !msg.closed && !m.over && !msg.paused;
    // In the second person: what I must do, not "Ala plays an action card".
    var lost = lostWhy(m.choices);
    var todo = mine.map(function (p) {
      return p.kind === "play_card" && lost ? t("action_lost_give_up") : t("action_" + p.kind);
    }).filter(function (x, i, a) { return a.indexOf(x) === i; });
    // "Your turn" as in every game, also for a table step this seat owes (client.js)
    var yours = TC.turnBanner(promptEl, myTurn ? todo.join(" · ") : null, W.colourOf(m.players[msg.seat]));
    if (msg.closed) TC.replace(promptEl, t("game_closed"));
    else if (m.over) TC.replace(promptEl, t("game_over"));
    else if (!yours) TC.replace(promptEl, m.prompts.length ? t("waiting_for", {what: m.prompts.map(function (p) {
      return promptText(m, p);
    }).filter(function (x, i, a) { return a.indexOf(x) === i; }).join(" · ")}) : t("waiting"));
    promptEl.classList.toggle("waiting", !yours);
    // A new decision starts unfolded, at the top of the dock; the same one keeps its scroll.
    var decision = mine.map(function (p) { return p.kind; }).join(",") + ":" + m.chapter + "." + m.round + ":" + m.phase;
    if (decision !== lastDecision) ui.folded = false;
    var choices = msg.paused || msg.closed ? [] : actNow(m);
    TC.replace("act-now", choices.length ? [foldButton()].concat(choices) : null);
    // The choices sit in a dock pinned to the bottom of the screen (at most 40% of it, and
    // it folds away): keep the page's end above it.
    var dock = document.getElementById("act-now");
    dock.classList.toggle("folded", !!ui.folded && !!choices.length);
    if (decision !== lastDecision) dock.scrollTop = 0;
    lastDecision = decision;
    document.querySelector("main").style.paddingBottom = dock.offsetHeight ? (dock.offsetHeight + 12) + "px" : "";
    TC.replace("holdings", holdings(m));
    TC.replace("my-board", myBoard(m));
    TC.replace("hand", hand(m));
    TC.replace("forecast", forecast(m));
    TC.replace("my-summary", W.chapterSummary(m, msg.seat));  // what I paid and lost
    TC.replace("public", publicPanel(m));
    TC.replace("log", W.logList(m));
  }

  TC.start({render: render});
})();
