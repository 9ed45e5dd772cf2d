/* A player's phone in Monasterium: no secret holdings (§16), so the phone is the player's
 * decision menu (every legal action of the die in hand with what it costs and brings; "this
 * die is lost" only when the list is empty), their own roll entered by hand without a
 * reader, and their board: resources, novices left, extra novices, yellow columns, window. */
(function () {
  "use strict";
  var h = TC.h, t = TC.t, M = window.MONA;
  var last = null, busy = false;
  var rerollPick = {};
  var sendPick = {};
  var sendChoices = {};  // a send's action (JSON) -> the engine's choice: its cost and effect

  function send(action) {
    if (busy) return;
    busy = true;
    TC.act(action).then(function () { busy = false; });
  }

  function btn(label, action, extra, cls) {
    return h("button.choice" + (cls || ""), {type: "button", dataset: {type: action.type, key: JSON.stringify(action)},
      onclick: function () { send(action); }}, h("span.label", label), extra ? h("span.ce", extra) : null);
  }

  function effectText(m, a, c) {
    var acts = a.act === "std" ? t("standard_action") : t("row_action", {row: a.act});
    var parts = [acts];
    var eff = M.obj(c && c.effect), cost = M.obj(c && c.cost);
    Object.keys(cost).forEach(function (k) { if (cost[k]) parts.push("−" + cost[k] + " " + M.itemName(k)); });
    M.RES.concat(["prestige"]).forEach(function (k) { if (eff[k]) parts.push("+" + eff[k] + " " + M.itemName(k)); });
    if (eff.steps) parts.push(t("messenger_steps", {n: eff.steps}));
    if (a.monastery && !a.novice) parts.push(t("glass_from", {m: a.monastery}) + " · " + t("window_row", {n: a.row + 1}) + " · " + t("bonus_" + a.bonus));
    return parts.join(" · ");
  }

  function takeChoices(m) {
    return m.choices.filter(function (c) { return c.action.type === "take"; }).map(function (c) {
      var a = c.action;
      var label = a.space === 6 ? t("take_joker", {col: a.column}) : t("take_from", {n: a.dice.length, space: a.space, col: "ABCDE"[a.space - 1]});
      return btn(label, a, a.dice.map(function (d) { return d.indexOf("n") === 0 ? t("neutral_short") : t("personal_short"); }).join(" + "));
    });
  }

  /** The sends of a die: novice, monastery and place chosen in three steps from the legal
   *  combinations (hundreds as buttons would not fit a phone). */
  function sendForm(m, sends, base) {
    if (!sends.length) return null;
    function options(key, pool) {
      var seen = [];
      pool.forEach(function (a) { var v = String(a[key]); if (seen.indexOf(v) < 0) seen.push(v); });
      return seen;
    }
    var novices = options("novice", sends);
    if (novices.indexOf(sendPick.novice) < 0) sendPick = {novice: novices[0]};
    var byNovice = sends.filter(function (a) { return a.novice === sendPick.novice; });
    var mons = options("monastery", byNovice);
    if (mons.indexOf(sendPick.monastery) < 0) sendPick.monastery = mons[0];
    var byMon = byNovice.filter(function (a) { return a.monastery === sendPick.monastery; });
    var places = options("to", byMon);
    if (places.indexOf(sendPick.to) < 0) sendPick.to = places[0];
    var final = byMon.filter(function (a) { return a.to === sendPick.to; })[0];
    var chosen = M.obj(sendChoices[JSON.stringify(final)]);
    var cost = M.obj(chosen.cost);
    var costText = Object.keys(cost).filter(function (k) { return cost[k]; }).map(function (k) {
      return cost[k] + " " + M.itemName(k);
    }).join(", ") || t("free_send");
    function select(id, label, values, current, name) {
      return h("label.send-field", label, h("select", {id: id, onchange: function (e) {
        sendPick[name] = e.target.value; render(last);
      }}, values.map(function (v) { return h("option", {value: v, selected: v === current}, placeName(v, name)); })));
    }
    return h("div.choice-group", {dataset: {kind: "send"}, id: "send-form"}, h("h3", t("send_novice")),
      select("send-novice", t("novice"), novices, sendPick.novice, "novice"),
      select("send-monastery", t("monastery"), mons, sendPick.monastery, "monastery"),
      select("send-to", t("place"), places, sendPick.to, "to"),
      h("p.small", {id: "send-cost"}, t("send_costs", {what: costText})),
      h("p.small", {id: "send-gives"}, t("send_gives", {what: givesText(M.obj(chosen.effect))})),
      h("button.choice", {type: "button", id: "send-go", onclick: function () { send(Object.assign({}, base, final)); }},
        h("span.label", t("send_it"))));
  }

  /** What a send brings: "+1 prestige, +1 tool · opens row I, column B". */
  function givesText(eff) {
    var parts = Object.keys(eff).filter(function (k) { return typeof eff[k] === "number" && eff[k]; }).map(function (k) {
      return "+" + eff[k] + " " + (k === "glass" ? t("glass_tile") : k === "prestige" ? t("prestige") : M.itemName(k));
    });
    if (eff.yellow) parts.push(t("turns_yellow", {col: eff.yellow}));
    if (eff.opens) {
      var rc = String(eff.opens).split(":");
      parts.push(t("opens_alt", {row: rc[0], col: rc[1]}));
    }
    return parts.join(" · ") || t("free_send");
  }

  function placeName(v, kind) {
    if (kind === "novice") {
      var parts = v.split(":");
      return parts[0] === "extra" ? t("extra_novice_row", {row: parts[1]}) : t("novice_at", {row: parts[0], col: parts[1]});
    }
    if (kind === "monastery") return t("monastery_n", {m: v});
    if (v === "chapel") return t("chapel");
    var b = v.split(".")[1] || v;
    var kindName = b.replace(/\d+$/, "");
    return t("building_" + kindName) + " " + b.replace(/^\D+/, "");
  }

  function useChoices(m) {
    var useChoices = m.choices.filter(function (c) { return c.action.type === "use"; });
    sendChoices = {};
    useChoices.forEach(function (c) { if (c.action.novice) sendChoices[JSON.stringify(c.action)] = c; });
    var uses = useChoices.map(function (c) { return c.action; });
    var sends = uses.filter(function (a) { return a.novice; });
    var others = useChoices.filter(function (c) { return !c.action.novice; });
    var out = [];
    if (sends.length) {
      var base = {type: "use", die: sends[0].die, act: sends[0].act};
      var byAct = {};
      sends.forEach(function (a) { (byAct[a.act] = byAct[a.act] || []).push(a); });
      Object.keys(byAct).forEach(function (act) {
        out.push(sendForm(m, byAct[act], {type: "use", die: base.die, act: act, column: byAct[act][0].column}));
      });
    }
    out.push(h("div.choices", others.map(function (c) { return btn(effectText(m, c.action, c), c.action); })));
    var lose = m.choices.filter(function (c) { return c.action.type === "lose"; })[0];
    if (lose) out.push(h("p.why", t("die_lost_note")), btn(t("lose_die"), lose.action, null, ".secondary"));
    return out;
  }

  function placeChoices(m) {
    var mine = m.choices.filter(function (c) { return c.action.type === "place"; });
    var dice = M.obj(m.view.dice);
    var reroll = m.choices.filter(function (c) { return c.action.type === "reroll"; })[0];
    var out = [h("div.choices", mine.map(function (c) {
      return btn(t("place_face", {n: M.obj(c.effect).dice, face: c.action.face}), c.action);
    }))];
    if (reroll) {
      var ids = reroll.action.dice;
      out.push(h("div.choice-group", {id: "reroll"}, h("h3", t("reroll_which")),
        h("div.row", ids.map(function (id) {
          return h("label.inline.pick", h("input", {type: "checkbox", checked: !!rerollPick[id], dataset: {die: id},
            onchange: function (e) { rerollPick[id] = e.target.checked; }}), " ", M.die(id, dice[id]));
        })),
        h("button.secondary", {type: "button", id: "reroll-go", onclick: function () {
          var pick = ids.filter(function (id) { return rerollPick[id]; });
          if (pick.length) { rerollPick = {}; send({type: "reroll", dice: pick}); }
        }}, t("reroll_go"))));
    }
    return out;
  }

  function pendingChoices(m, kind) {
    return [h("div.choices", m.choices.map(function (c) {
      var a = c.action;
      if (a.type === "use") return btn(t("column_n", {col: a.column}) + " · " + effectText(m, a, c), a);
      if (a.type === "extra_die") return btn(a.take ? t("take_die") : t("take_prestige"), a);
      if (a.type === "extra_novice") return btn(a.forfeit ? t("forfeit") : placeName(a.monastery, "monastery") + " · " + placeName(a.to, "to"), a);
      if (a.choice === "tile") return btn(t("glass_from", {m: a.monastery}) + " · " + t("window_row", {n: a.row + 1}) + " · " + t("bonus_" + a.bonus), a);
      return btn(t("bonus_choice_" + a.choice), a);
    }))];
  }

  function decisions(m) {
    var mine = m.prompts.filter(function (p) { return p.seat === m.me; });
    if (m.view.roller === m.me && m.prompts.some(function (p) { return p.kind === "roll" || p.kind === "roll_extra"; })) {
      // the camera or the dice reader records the roll (issue 45: a phone enters only a die
      // it is asked for, above, alone; table_steps.js): no second way to enter it (issue 46)
      if (TC.diceRead(last) || TC.cameraRolls(last)) return [];
      return [M.rollEntry(m, m.me, function () { render(last); })];
    }
    if (!mine.length) return [];
    var kind = mine[0].kind;
    if (kind === "place") return placeChoices(m);
    if (kind === "take") return [h("div.choices", takeChoices(m))];
    if (kind === "use") return useChoices(m);
    return pendingChoices(m, kind);
  }

  function myBoard(m) {
    var p = M.obj(m.mine);
    var rows = ["I", "II", "III", "IV"];
    return [
      M.chips(p.res, {zeros: true}),
      h("div.small", t("road_space", {n: p.road}), " · ", t("personal_dice", {n: p.personal}),
        p.reroll_used ? " · " + t("reroll_used") : ""),
      h("table.novices", {"aria-label": t("novices_left")}, h("thead", h("tr", h("th", ""), ["A", "B", "C", "D", "E"].map(function (c) {
        return h("th" + (M.arr(p.yellow).indexOf(c) >= 0 ? ".yellow" : ""), c);
      }), h("th", "+"))),
      h("tbody", rows.map(function (r) {
        var left = M.arr(M.obj(p.novices)[r]);
        return h("tr", h("th", r), ["A", "B", "C", "D", "E"].map(function (c) {
          return h("td" + (left.indexOf(c) >= 0 ? ".here" : ".gone"), left.indexOf(c) >= 0 ? "●" : (r === "IV" ? "" : "✓"));
        }), h("td", M.arr(p.extras).indexOf(r) >= 0 ? "●" : ""));
      }))),
      h("p.small.muted", t("novices_hint")),
      M.windowGrid(p)
    ];
  }

  function render(msg) {
    last = msg;
    var m = M.model(msg);
    TC.replace("round-line", M.roundLine(m));
    TC.replace("my-vp", String(M.obj(m.mine).prestige === undefined ? "–" : m.mine.prestige));
    // the word in the form its number asks for ("5 prestiżu", not "5 prestiż")
    if (M.obj(m.mine).prestige !== undefined) {
      var word = TC.countWord("prestige", m.mine.prestige);
      if (word) TC.replace("my-vp-word", word);
    }
    var mine = m.prompts.filter(function (p) { return p.seat === m.me || (p.seat === "table" && m.view.roller === m.me); });
    var el = document.getElementById("my-prompt");
    var myTurn = mine.length && !m.over && !msg.closed && !msg.paused;
    el.className = "my-prompt " + (mine.length ? "yours" : "waiting");
    // "Your turn" and what to do, at the top as in every game (client.js turnBanner)
    // on the roller's own phone the table's roll is "your roll", not "the dice of Anna"; while
    // the camera or the reader reads it, "they are read as they lie" and nothing to enter
    var said = function (p) {
      if (p.kind !== "roll" || p.seat !== "table" || m.view.roller !== m.me) return M.promptText(m, p);
      return TC.diceRead(msg) || TC.cameraRolls(msg) ? t("roll_yours_read") : t("roll_yours");
    };
    if (!TC.turnBanner(el, myTurn ? mine.map(said).filter(Boolean).join(" · ") : null,
      M.colour ? M.colour(m.me) : null)) {
      TC.replace(el, m.over ? t("game_over") : (mine.length ? mine.map(function (p) { return M.promptText(m, p); }).join(" · ")
        : t("waiting_for", {what: m.prompts.map(function (p) { return M.promptText(m, p); }).join(" · ") || "–"})));
    }
    TC.replace("act-now", decisions(m));
    TC.replace("my-board", myBoard(m));
    TC.replace("public-spaces", M.spaces(m));
    TC.replace("public-monasteries", M.monasteries(m));
    TC.replace("public-players", M.playerCards(m));
    var fin = M.finalScores(m);
    document.getElementById("final").hidden = !fin;
    TC.replace("final", fin);
    TC.replace("log", M.logList(m));
  }

  TC.start({render: render});
})();
