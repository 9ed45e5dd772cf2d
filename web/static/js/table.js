/* The table display: everything public, large, readable from 2 m. Also the table's manual
 * inputs (reveal the event card, tap in the tax die) and an orientation preview. */
(function () {
  "use strict";
  var h = TC.h, t = TC.t, W = window.WWE;
  var previewRotation = null;

  function promptLine(m) {
    if (m.msg.closed) return t("game_closed");
    if (m.over) return t("game_over");
    if (m.msg.paused) return t("paused");
    var texts = m.prompts.map(function (p) { return p.text || defaultPromptText(m, p); });
    var unique = texts.filter(function (x, i) { return x && texts.indexOf(x) === i; });
    return unique.join(" · ") || t("waiting");
  }

  function defaultPromptText(m, p) {
    var who = p.seat === "table" ? t("the_table") : ((m.players[p.seat] || {}).name || W.nm("seats", p.seat));
    return t("prompt_" + p.kind, {who: who});
  }

  function previewFor(m) {
    var pv = m.preview;
    if (!pv) return null;
    var eff = W.obj(pv.effect || pv);
    return {rotation: pv.rotation, income: W.obj(eff.income), favor: W.obj(eff.favor)};
  }

  function playerCards(m, pv) {
    return m.seats.map(function (s) {
      var p = m.players[s] || {};
      var active = s === m.active;
      var income = pv && pv.income[s];
      var pun = W.arr(p.punish || p.punishments);
      return h("div.player-card" + (active ? ".is-active" : ""), {style: W.playerStyle(p), dataset: {seat: s}},
        h("div.row", h("span.name.grow", h("span.dot"), p.name || W.nm("seats", s)),
          h("span.small.muted", W.nm("seats", s))),
        h("div.row", h("span.vp", String(p.vp !== undefined ? p.vp : "–")), h("span.small", t("vp")),
          active ? h("b.small", "★ " + t("active_player")) : null),
        h("div.small",
          t("houses_n", {n: W.arr(p.houses).length}), " · ",
          t("seals_n", {n: W.arr(p.seals).length !== undefined ? 2 - W.arr(p.seals).length : 2}),
          p.cards_in_hand !== undefined ? [" · ", t("cards_in_hand_n", {n: p.cards_in_hand})] : null),
        pun.length ? h("div.small", "⚠ " + pun.map(function (x) { return t("punish_" + x); }).join(", ")) : null,
        p.connected === false ? h("div.joined.muted", t("phone_offline")) : null,
        income ? h("div.preview", h("span.small", t("income") + ": "),
          typeof income === "object" ? W.itemChips(income, {short: true}) : String(income)) : null);
    });
  }

  function eventNow(m) {
    var ev = m.view.event;
    if (!ev) return null;
    var id = typeof ev === "string" ? ev : (ev.card || ev.id);
    var perm = typeof ev === "object" && ev.permanent;
    return h("div.project", {id: "event-card", dataset: {card: id}},
      h("div.small.muted", perm ? t("permanent_event") : t("event_card")),
      h("b", W.nm("events", id)), W.demoBadge("events", id),
      typeof ev === "object" && ev.rotation !== undefined && ev.rotation !== null
        ? h("span.small", " · " + t("rotation_n", {n: ev.rotation})) : null,
      W.eventText(id) ? h("div.small", W.eventText(id)) : null);
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
          TC.emitWithAck("preview", {rotation: r});
        })));
    } else {
      previewRotation = null;
    }
    var tax = openPrompt(m, "roll_tax");
    if (tax) out.push(window.Manual.dieButtons(m, function (value) {
      return TC.act({type: "roll_tax", value: value});
    }));
    return out;
  }

  /* ---------- chapter-end summary and final scores ---------- */

  function summary(m) {
    var s = m.view.chapter_summary || m.view.summary;
    if (!s) return null;
    var rows = W.obj(s.seats || s);
    return h("section.panel.summary", h("h2", t("chapter_summary", {chapter: W.roman(s.chapter || m.chapter)})),
      h("table", h("thead", h("tr", h("th", t("player")), h("th", t("paid")), h("th", t("missing")),
        h("th", t("vp_lost")), h("th", t("punishments")))),
      h("tbody", Object.keys(rows).map(function (seat) {
        var r = W.obj(rows[seat]);
        return h("tr", h("td", W.seatLabel(m, seat)), h("td", W.itemText(r.paid) || "–"),
          h("td", W.itemText(r.missing) || "–"), h("td", String(r.vp_lost || 0)),
          h("td", W.arr(r.punishments || r.punish).map(function (x) { return t("punish_" + x); }).join(", ") || "–"));
      }))));
  }

  function finalScores(m) {
    var scores = m.msg.scores;
    if (!m.over || !scores) return null;
    var list = Array.isArray(scores) ? scores : W.arr(scores.standings);
    return h("section.panel.scores", {id: "final-scores"}, h("h2", t("final_scores")),
      h("table", h("thead", h("tr", h("th", "#"), h("th", t("player")), h("th", t("vp")),
        h("th", t("tie_breakers")))),
      h("tbody", list.map(function (r, i) {
        var tb = W.obj(r.tiebreak || r.tie_breakers);
        return h("tr", h("td", String(r.rank || i + 1)), h("td", W.seatLabel(m, r.seat)),
          h("td", h("b", String(r.vp))),
          h("td.small", Object.keys(tb).map(function (k) { return W.nm("items", k) + " " + tb[k]; }).join(" · ")));
      }))));
  }

  function render(msg) {
    var m = W.model(msg);
    var pv = previewFor(m);
    TC.replace("chapter-round", W.chapterRound(m));
    TC.replace("prompt", promptLine(m));
    TC.replace("players", playerCards(m, pv));
    var target = pv && pv.favor ? (pv.favor.to || pv.favor.space) : null;
    TC.replace("favor", W.favorTrack(m, target));
    TC.replace("event-now", [eventNow(m),
      pv && pv.favor && pv.favor.steps !== undefined ? h("div.small", t("favor_moves_n", {n: pv.favor.steps})) : null]);
    TC.replace("manual", manualInputs(m));
    TC.replace("projects", W.projects(m));
    TC.replace("market", W.market(m));
    TC.replace("permanents", W.permanents(m));
    TC.replace("sites", W.sites(m));
    var pl = W.plague(m);
    document.getElementById("plague-panel").hidden = !pl.length;
    TC.replace("plague", pl);
    TC.replace("supply", W.supply(m));
    TC.replace("log", W.logList(m));
    var sum = summary(m);
    document.getElementById("summary").hidden = !sum;
    TC.replace("summary", sum);
    var fin = finalScores(m);
    document.getElementById("final").hidden = !fin;
    TC.replace("final", fin);
    TC.replace("vp-chart", W.vpChart(m, W.vpSeries(m)));
    updateJoin(m);
    var hw = W.obj(msg.hardware);
    TC.replace("hw-status", Object.keys(hw).filter(function (k) {
      return W.obj(hw[k]).state && hw[k].state !== "absent";
    }).map(function (k) { return t("hw_" + k) + ": " + hw[k].state; }).join(" · "));
  }

  function updateJoin(m) {
    var all = true;
    document.querySelectorAll(".join-card").forEach(function (card) {
      var p = m.players[card.dataset.seat] || {};
      var on = !!p.connected;
      all = all && on;
      card.classList.toggle("joined", on);
      var st = card.querySelector(".join-state");
      if (st) st.textContent = on ? t("joined") : t("waiting_join");
    });
    var panel = document.getElementById("join-panel");
    if (panel && all && !panel.dataset.userToggled) panel.open = false;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var panel = document.getElementById("join-panel");
    if (panel) panel.addEventListener("toggle", function (e) { if (e.isTrusted) panel.dataset.userToggled = "1"; });
  });

  TC.start({render: render});
  TC.keepAwake();
})();
