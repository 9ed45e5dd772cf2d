/* The table display: everything public, large, readable from 2 m. Also the table's manual
 * inputs (reveal the event card, tap in the tax die) and an orientation preview. */
(function () {
  "use strict";
  var h = TC.h, t = TC.t, W = window.WWE;
  var previewRotation = null;

  /** The banner: who must act and what, one block per acting seat in that seat's colour
   *  (the table's own prompts in the accent colour). */
  function banner(m) {
    var note = m.over ? (m.msg.outcome || t("game_over")) : (m.msg.closed ? t("game_closed") : (m.msg.paused ? t("paused") : null));
    if (note) return h("div.turn-seat.neutral", h("span.what", note));
    var bySeat = {}, order = [];
    m.prompts.forEach(function (p) {
      var text = p.text || defaultPromptText(m, p);
      if (!bySeat[p.seat]) { bySeat[p.seat] = []; order.push(p.seat); }
      if (text && bySeat[p.seat].indexOf(text) < 0) bySeat[p.seat].push(text);
    });
    if (!order.length) return h("div.turn-seat.neutral", h("span.what", t("waiting")));
    return order.map(function (seat) {
      var p = m.players[seat];
      var colour = p ? W.colourOf(p) : null;
      return h("div.turn-seat" + (p ? "" : ".neutral"), {dataset: {seat: seat, key: "turn-" + seat},
        style: colour ? {"--pc": colour, "--pc-ink": W.inkOn(colour)} : null},
        h("span.what", bySeat[seat].map(function (text) {
          // a prompt owed by a seat for the table ("The table rolls the tax die") names it
          return p && p.name && text.indexOf(p.name) < 0 ? p.name + ": " + text : text;
        }).join(" · ")));
    });
  }

  function defaultPromptText(m, p) {
    var who = p.seat === "table" ? t("the_table") : ((m.players[p.seat] || {}).name || W.nm("seats", p.seat));
    return t("prompt_" + p.kind, {who: who});
  }

  /** The public part of the orientation preview: incomes and the favor move. (The preview
   *  also carries the active seat's own gains; the table does not show those.) */
  function previewFor(m) {
    var pv = m.preview;
    if (!pv || m.phase !== "orient_event") return null;
    var eff = W.obj(pv.effect);
    return {rotation: pv.rotation, income: W.obj(eff.income), steps: eff.favor, space: eff.space};
  }

  /** ``summary``: the chapter-end table shows beside the cards, with each seat's
   *  punishments: the cards then leave them out (said once, and the cards stay short enough
   *  for one screen); a lost action is still said on its seat's card. */
  function playerCards(m, pv, summary) {
    var final = {};
    W.arr(m.msg.scores).forEach(function (r) { final[r.seat] = r.vp; });
    return m.seats.map(function (s) {
      var p = Object.assign({}, m.players[s] || {});
      if (m.over && final[s] !== undefined) p.vp = final[s];
      var start = s === m.active;       // the start player of the round (the marker)
      var acting = m.prompts.some(function (x) { return x.seat === s; });
      var income = pv && pv.income[s];
      var pun = W.arr(p.punishments);
      var lost = W.obj(m.view.lost_actions)[s];
      // the lost action is said once, with its cause (below); the other flags by name
      var flags = W.arr(p.round_flags).filter(function (x) {
        if (lost && (x === "royal_court" || x === "lose_action")) return false;
        return !(summary && isPunishment(x));
      });
      // this round's card only: last round's would read as played now (issue 69)
      var played = W.arr(p.played).filter(function (c) { return c.round === m.view.round; });
      return h("div.player-card" + (acting ? ".is-acting" : "") + (start ? ".is-start" : ""),
        {style: W.playerStyle(p), dataset: {seat: s, key: "player-" + s}},
        h("div.row", h("span.name.grow", h("span.dot"), p.name || W.nm("seats", s)),
          h("span.small.muted", W.nm("seats", s))),
        h("div.row", h("span.vp", String(p.vp !== undefined ? p.vp : "–")), h("span.small", t("vp")),
          start ? h("b.start-badge", "♜ " + t("start_player")) : null,
          acting ? h("b.acting-badge", "▶ " + t("acting_now")) : null),
        // each count whole on its line: a long language wraps between them, never inside
        h("div.small.counts", h("span", t("houses_n", {n: W.arr(p.houses).length}) + " ·"), " ",
          h("span", t("seals_n", {n: p.seals_left !== undefined ? p.seals_left : 2}) + " ·"), " ",
          h("span", t("cards_in_hand_n", {n: p.hand_count || 0}))),
        // newest first, on one line (the cards lie face up on the table too)
        played.length ? h("div.played.muted", t("played") + ": " + played.slice().reverse().map(function (c) {
          return W.nm("cards", c.card) + (c.performed ? "" : " ✗");
        }).join(", ")) : null,
        pun.length ? h("div.small", "⚠ " + t("next_chapter") + ": " + pun.map(function (x) { return t("punish_" + x); }).join(", ")) : null,
        lost ? h("div.small.action-lost", {dataset: {cause: lost.card || lost.cause}},
          "✗ " + t("action_lost_by", {cause: lostCause(lost)})) : null,
        flags.length ? h("div.small", "⚑ " + flags.map(shortFlag).join(", ")) : null,
        p.connected === false ? h("div.joined.muted", t("phone_offline")) : null,
        income ? h("div.preview", h("span.small", t("income") + ": "),
          Object.keys(income).length ? W.itemChips(income, {}) : t("nothing")) : null);
    });
  }

  /** What takes a seat's action this round: the event card by name, or the Royal Court. */
  function lostCause(lost) {
    return lost.card ? W.nm("events", lost.card) : t("punish_royal_court");
  }

  /** A round flag by its short name on the TV ("Begging"); the phone says what it does. */
  function shortFlag(x) {
    return isPunishment(x) ? t("punish_" + x) : t("flag_" + x);
  }

  /** A round flag that is a chapter-end punishment (Penance, Begging, the Royal Court). */
  function isPunishment(x) {
    return t("punish_" + x) !== "punish_" + x;
  }

  function eventNow(m, pv) {
    var ev = m.view.event;
    if (!ev) return h("p.muted", t("no_event_yet"));
    var extra = [];
    if (m.view.rotation !== null && m.view.rotation !== undefined) extra.push(h("span.small", " · " + t("rotation_n", {n: m.view.rotation})));
    if (pv) {
      extra.push(h("div.preview", t("preview_rotation", {n: pv.rotation}), " · ",
        t("favor_moves_n", {n: pv.steps || 0}), pv.space ? " → " + W.nm("favor", pv.space) : ""));
    }
    return W.eventBox(ev, extra);
  }

  /* ---------- manual inputs on the table ---------- */

  function openPrompt(m, kind) {
    for (var i = 0; i < m.prompts.length; i++) if (m.prompts[i].kind === kind) return m.prompts[i];
    return null;
  }

  function manualInputs(m) {
    var out = [];
    var reveal = openPrompt(m, "reveal_event");
    if (reveal) out.push(window.Manual.eventPicker(m, function (card) {
      return TC.act({type: "reveal_event", card: card});
    }));
    var orient = openPrompt(m, "orient_event");
    if (orient) {
      out.push(h("div", h("div.small", t("orient_preview_hint")),
        window.Manual.rotationButtons(m, previewRotation, function (r) {
          previewRotation = r;
          TC.preview({rotation: r});
        })));
    } else {
      previewRotation = null;
    }
    var tax = openPrompt(m, "roll_tax");  // the camera reads it: the step line says so
    if (tax && !TC.cameraRolls(m.msg)) out.push(window.Manual.dieButtons(m, function (value) {
      return TC.act({type: "roll_tax", value: value});
    }));
    return out.concat(otherTablePrompts(m));
  }

  /** Every other decision the table owes (a plague token's value, which houses go back, a
   *  card the table resolves by hand): the prompt in words and one button per choice, so
   *  no game ever waits on a prompt nobody can answer. */
  function otherTablePrompts(m) {
    var special = ["reveal_event", "orient_event", "roll_tax"];
    return m.prompts.filter(function (p) {
      return p.seat === "table" && special.indexOf(p.kind) < 0;
    }).map(function (p) {
      var cs = m.choices.filter(function (c) { return c.action && c.action.type === p.kind; });
      var text = cs.map(function (c) { return W.obj(c.effect).text; }).filter(Boolean)[0];
      return h("div.choice-group", {dataset: {kind: p.kind}},
        h("h3", p.text || t("action_" + p.kind)),
        text ? h("p", text[TC.lang] || text.en || "") : null,
        h("div.choices", cs.map(function (c) {
          var refused = c.refused;
          return h("button.choice" + (refused ? ".refused.secondary" : ""), {type: "button",
            disabled: !!refused, dataset: {type: p.kind},
            onclick: refused ? null : function () { TC.act(c.action); }},
            h("span", tableChoiceLabel(c)),
            refused ? h("span.why", refused.message || refused.code) : null);
        })));
    });
  }

  function tableChoiceLabel(c) {
    var a = c.action;
    if (a.value !== undefined) return String(a.value);
    if (a.sites) return W.arr(a.sites).map(function (x) { return W.nm("sites", x); }).join(" + ") || t("none");
    if (a.type === "resolve_manual") return t("done");
    return t("action_" + a.type);
  }

  /* ---------- chapter-end summary and final scores ---------- */

  function finalScores(m) {
    if (!m.over) return null;
    var list = W.arr(m.msg.scores);
    if (!list.length && m.view.final) {
      list = Object.keys(m.view.final).map(function (s) { return {seat: s, vp: m.view.final[s]}; })
        .sort(function (a, b) { return b.vp - a.vp; });
    }
    return h("section.panel.scores", {id: "final-scores"}, h("h2", t("final_scores")),
      h("table", h("thead", h("tr", h("th", "#"), h("th", t("player")), h("th", t("vp")),
        h("th", t("tie_breakers")))),
      h("tbody", list.map(function (r, i) {
        var tb = W.arr(r.tiebreak);
        return h("tr", {dataset: {seat: r.seat}}, h("td", String(r.rank || i + 1)), h("td", W.seatLabel(m, r.seat)),
          h("td", h("b", String(r.vp))),
          h("td.small", tb.length ? ["piety", "loyalty", "mk"].map(function (k, n) {
            return W.nm("items", k) + " " + tb[n];
          }).join(" · ") : "–"));
      }))));
  }

  function render(msg) {
    var m = W.model(msg);
    var pv = previewFor(m);
    TC.replace("chapter-round", W.chapterRound(m));
    TC.replace("prompt", banner(m));
    document.getElementById("prompt").dataset.count = String(document.getElementById("prompt").children.length);
    var sum = W.chapterSummary(m);
    TC.replace("players", playerCards(m, pv, !!sum));
    TC.replace("favor", W.favorTrack(m, pv ? pv.space : null));
    TC.replace("favor-demo", W.favorDemo(m));
    TC.replace("event-now", eventNow(m, pv));
    TC.replace("manual", manualInputs(m));
    TC.replace("projects", W.projects(m));
    TC.replace("market", W.market(m));
    TC.replace("permanents", W.permanents(m));
    TC.replace("sites", W.sites(m));
    // one DEMO badge for the whole panel: on the TV the sites are too small for one each
    var demoSites = Object.keys(W.obj(m.view.sites)).some(function (id) { return W.isDemo("sites", id); });
    TC.replace("sites-demo", demoSites ? h("span.demo-badge", {title: t("demo_hint")}, t("demo")) : null);
    var pl = W.plague(m);
    document.getElementById("plague-panel").hidden = !pl.length;
    TC.replace("plague", pl);
    TC.replace("supply", W.supply(m, true));  // one row of icons and counts
    TC.replace("log", W.logList(m));
    document.getElementById("summary").hidden = !sum;
    TC.replace("summary", sum);
    var fin = finalScores(m);
    document.getElementById("final").hidden = !fin;
    TC.replace("final", fin);
    document.getElementById("sites-panel").hidden = !!(sum || fin);
    TC.replace("vp-chart", W.vpChart(m, W.vpSeries(m)));
  }

  /** The TV is never scrolled: the market and the plague stay in the middle column while
   *  it has room for them; else the plague, then the market too, go above the log on the
   *  right (before each fit of the page to the screen, web/static/js/table_display.js). */
  TC.game.arrangeTable = function () {
    var mid = document.querySelector(".table-grid .col-b");
    var right = document.querySelector(".table-grid .col-c");
    var movers = ["market-panel", "plague-panel"].map(function (id) {
      return document.getElementById(id);
    });
    if (!mid || !right || movers.indexOf(null) >= 0) return;
    movers.forEach(function (panel) { mid.appendChild(panel); });
    var before = right.querySelector(".area-log");
    for (var i = movers.length - 1; i >= 0 && TC.roomLeft(mid) < 0; i--) {
      right.insertBefore(movers[i], before);
      before = movers[i];
    }
    // a long chapter's permanent events: under the building sites while they fit there, else
    // in the column with room for them (the VP chart keeps its place and its twelfth)
    var left = document.querySelector(".table-grid .col-a");
    var permanents = document.getElementById("permanents-panel");
    var chart = document.getElementById("chart-panel");
    if (!left || !permanents || !chart) return;
    left.insertBefore(permanents, chart);
    if (TC.roomLeft(left) >= 0) return;
    mid.appendChild(permanents);
    if (TC.roomLeft(mid) >= 0) return;
    right.insertBefore(permanents, right.querySelector(".area-log"));
    if (TC.roomLeft(right) >= 0) return;
    left.insertBefore(permanents, chart);
  };
  TC.start({render: render});  // the lobby and hardware line: web/static/js/table_display.js
})();
