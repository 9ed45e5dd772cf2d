/* A player's phone: private holdings, action hand, what I may do now (and why not), pending
 * decisions, the chapter-end forecast, manual inputs. Only this seat's data reaches it. */
(function () {
  "use strict";
  var h = TC.h, t = TC.t, W = window.WWE, M = window.Manual;
  var ui = {card: null, discard: null, rotation: null, busy: false, cancel: null};
  var lastPromptKey = "";

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
      if (ack.ok) { ui.card = null; ui.discard = null; ui.rotation = null; ui.cancel = null; }
      return ack;
    });
  }

  /* ---------- cost / effect in words ---------- */

  function delta(items, sign) {
    items = W.obj(items);
    return Object.keys(items).filter(function (k) { return typeof items[k] === "number" && items[k]; })
      .map(function (k) {
        var n = items[k] * sign;
        return (n > 0 ? "+" : "−") + Math.abs(n) + " " + W.nm("items", k);
      });
  }

  function costEffect(c) {
    var parts = delta(c.cost, -1).concat(delta(c.effect, 1));
    var extra = W.obj(c.effect).text || W.obj(c.effect).note;
    if (extra) parts.push(extra);
    return parts.join(" · ");
  }

  function paramsText(params) {
    params = W.obj(params);
    return Object.keys(params).map(function (k) {
      var v = params[k];
      if (k === "project") return W.nm("projects", v);
      if (k === "site") return W.nm("sites", v);
      if (k === "space" || k === "favor") return W.nm("favor", v);
      if (k === "sites" || k === "locations" || k === "cure") {
        return W.arr(v).map(function (x) { return W.nm(k === "sites" ? "sites" : "plague", x); }).join(", ");
      }
      if (v && typeof v === "object") return W.itemText(v);
      if (W.ITEMS.indexOf(v) >= 0) return W.nm("items", v);
      return String(v);
    }).filter(Boolean).join(" · ");
  }

  function choiceButton(c, label, onclick) {
    var refused = c.refused;
    return h("button.choice" + (refused ? ".refused.secondary" : ""), {type: "button",
      disabled: !!refused, onclick: refused ? null : onclick,
      dataset: {type: c.action && c.action.type, card: c.action && c.action.card}},
      h("span", label),
      costEffect(c) ? h("span.ce", costEffect(c)) : null,
      refused ? h("span.why", refused.message || refused.code) : null);
  }

  /* ---------- what I may do now ---------- */

  function playCard(m, choices) {
    var byCard = {};
    var order = [];
    choices.forEach(function (c) {
      var id = c.action.card;
      if (!byCard[id]) { byCard[id] = []; order.push(id); }
      byCard[id].push(c);
    });
    var twelve = choices.some(function (c) { return "discard" in c.action && c.action.discard !== undefined; }) &&
      !(m.view.first_game_chapter || W.obj(m.me).six_card_mode);
    var needsDiscard = choices.some(function (c) { return c.action.discard === null || c.needs_discard; }) && twelve;
    var hand = W.arr(W.obj(m.me).hand);
    var box = h("div.choice-group", {id: "play-card"}, h("h3", t("play_a_card")));
    if (!ui.card || !byCard[ui.card]) {
      box.appendChild(h("div.choices", order.map(function (id) {
        var cs = byCard[id];
        var possible = cs.filter(function (c) { return !c.refused; });
        var shown = possible[0] || cs[0];
        return choiceButton({action: shown.action, cost: possible.length === 1 ? shown.cost : {},
          effect: possible.length === 1 ? shown.effect : {}, refused: possible.length ? null : shown.refused},
          W.nm("cards", id), function () { ui.card = id; rerender(); });
      })));
      return box;
    }
    var cs = byCard[ui.card];
    box.appendChild(h("div.row", h("b.grow", W.nm("cards", ui.card)),
      h("button.secondary", {type: "button", onclick: function () { ui.card = null; rerender(); }}, t("back"))));
    if (needsDiscard) {
      var sel = h("select", {id: "discard-select", "aria-label": t("discard_face_down"),
        onchange: function (e) { ui.discard = e.target.value || null; rerender(); }},
        h("option", {value: ""}, t("choose_discard")),
        hand.filter(function (id) { return id !== ui.card; }).map(function (id) {
          return h("option", {value: id, selected: ui.discard === id}, W.nm("cards", id));
        }));
      box.appendChild(h("label", {for: "discard-select"}, t("discard_face_down")));
      box.appendChild(sel);
    }
    box.appendChild(h("div.choices", cs.map(function (c) {
      var a = c.action;
      var label = a.perform === false ? t("play_without_performing") :
        (paramsText(a.params) || t("perform"));
      return choiceButton(c, label, function () {
        var action = JSON.parse(JSON.stringify(a));
        if (needsDiscard) {
          if (!ui.discard) { TC.toast(t("choose_discard_first")); return; }
          action.discard = ui.discard;
        }
        send(action);
      });
    })));
    return box;
  }

  function orient(m, choices) {
    var byRot = {};
    choices.forEach(function (c) { byRot[c.action.rotation] = c; });
    var box = h("div.choice-group", {id: "orient"}, h("h3", t("orient_event_card")),
      h("p.small", t("orient_hint")));
    box.appendChild(M.rotationButtons(m, ui.rotation, function (r) {
      ui.rotation = r;
      TC.emitWithAck("preview", {rotation: r});
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
    // Either the engine lists every cancel-combination, or one choice with the punishments.
    var box = h("div.choice-group", {id: "protection"}, h("h3", t("loyalty_protection")),
      h("p.small", t("loyalty_protection_hint")));
    box.appendChild(h("div.choices", choices.map(function (c) {
      var cancel = W.arr(c.action.cancel);
      var label = cancel.length ? t("cancel_punishments", {list: cancel.map(function (x) {
        return t("punish_" + x);
      }).join(", ")}) : t("cancel_nothing");
      return choiceButton(c, label, function () { send(c.action); });
    })));
    return box;
  }

  function trade(m, choices) {
    var box = h("div.choice-group", {id: "trade"}, h("h3", t("trade_offer")));
    box.appendChild(h("div.choices", choices.map(function (c) {
      var label = c.action.accept ? t("accept_trade") : t("decline_trade");
      return choiceButton(c, label, function () { send(c.action); });
    })));
    return box;
  }

  function generic(m, type, choices) {
    var box = h("div.choice-group", {dataset: {kind: type}}, h("h3", t("action_" + type)));
    box.appendChild(h("div.choices", choices.map(function (c) {
      var label = paramsText(Object.assign({}, c.action, {type: undefined, by: undefined})) || t("action_" + type);
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
    if (kinds.indexOf("roll_tax") >= 0 || byType.roll_tax) {
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
    var me = W.obj(m.me);
    return W.itemChips(me.res || me.resources || {}, {});
  }

  function myBoard(m) {
    var me = W.obj(m.me);
    var bits = [];
    bits.push(t("houses_n", {n: W.arr(me.houses).length}));
    var seals = W.arr(me.seals);
    bits.push(t("seals_left_n", {n: Math.max(0, 2 - seals.length)}));
    var pun = W.arr(me.punish || me.punishments);
    if (pun.length) bits.push("⚠ " + pun.map(function (x) { return t("punish_" + x); }).join(", "));
    return bits.join(" · ");
  }

  function hand(m) {
    var me = W.obj(m.me);
    var groups = [["hand", "", t("in_hand")], ["played", ".played", t("played")],
      ["discards", ".discarded", t("discarded")], ["aside", ".aside", t("set_aside")]];
    var out = [];
    groups.forEach(function (g) {
      W.arr(me[g[0]]).forEach(function (id) {
        out.push(h("div.acard" + g[1] + (ui.card === id ? ".selected" : ""), {dataset: {card: id, pile: g[0]}},
          h("div", W.nm("cards", id)), h("div.small.muted", g[2])));
      });
    });
    return out.length ? out : h("p.muted", t("no_cards"));
  }

  /* ---------- chapter-end forecast (from the view; the engine's if it gives one) ---------- */

  function forecast(m) {
    var me = W.obj(m.me);
    var f = W.obj(m.view.forecast || me.forecast);
    var res = W.obj(me.res || me.resources);
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
        h("td", need[0] === need[1] ? String(need[0]) : need[0] + "–" + need[1]),
        h("td", String(have)),
        h("td" + (shortWorst ? ".bad" : ".good"), shortWorst ?
          (shortBest === shortWorst ? "−" + shortWorst * d.per : "−" + shortBest * d.per + " … −" + shortWorst * d.per) + " " + t("vp") : "✓"));
    });
    var loyalty = res.loyalty || 0;
    return [
      h("table.forecast", h("thead", h("tr", h("th", t("duty")), h("th", t("needed")), h("th", t("you_have")),
        h("th", t("at_chapter_end")))), h("tbody", rows)),
      h("p.small", worst ? t("forecast_vp_loss", {best: best, worst: worst}) : t("forecast_ok")),
      punish.length ? h("p.small.bad", t("punishments_ahead") + ": " + punish.map(function (p) {
        var maybe = p.slice(-1) === "?";
        return t("punish_" + p.replace("?", "")) + (maybe ? " (" + t("depends_on_die") + ")" : "");
      }).join(", ") + (loyalty ? " · " + t("loyalty_can_cancel_n", {n: loyalty}) : "")) : null,
      last ? h("p.small.muted", t("chapter4_doubled")) : null
    ];
  }

  function publicPanel(m) {
    return [h("h3", t("favor_track")), h("div.favor-track", W.favorTrack(m)),
      h("h3", t("building_projects")), W.projects(m), h("h3", t("market")), W.market(m),
      h("h3", t("permanent_events")), W.permanents(m),
      h("h3", t("players")), h("div", m.seats.map(function (s) {
        var p = m.players[s] || {};
        return h("div", W.seatLabel(m, s), " ", String(p.vp !== undefined ? p.vp : "–"), " ", t("vp"));
      }))];
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
    if (msg.closed) TC.replace(promptEl, t("game_closed"));
    else if (m.over) TC.replace(promptEl, t("game_over"));
    else if (mine.length) TC.replace(promptEl, mine.map(function (p) { return promptText(m, p); }).join(" · "));
    else TC.replace(promptEl, m.prompts.length ? t("waiting_for", {what: m.prompts.map(function (p) {
      return promptText(m, p);
    }).filter(function (x, i, a) { return a.indexOf(x) === i; }).join(" · ")}) : t("waiting"));
    promptEl.classList.toggle("waiting", !mine.length);
    TC.replace("act-now", msg.paused || msg.closed ? null : actNow(m));
    TC.replace("holdings", holdings(m));
    TC.replace("my-board", myBoard(m));
    TC.replace("hand", hand(m));
    TC.replace("forecast", forecast(m));
    TC.replace("public", publicPanel(m));
    TC.replace("log", W.logList(m));
  }

  TC.start({render: render});
  TC.keepAwake();
})();
