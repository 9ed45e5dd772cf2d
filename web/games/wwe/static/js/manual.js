/* Manual inputs for what the camera and the dice reader would otherwise record (issue 3 §8):
 * pick the revealed event card (search by name or number), choose its orientation, tap in
 * the tax die. Used by the table display and by the phones. */
(function () {
  "use strict";
  var h = TC.h, t = TC.t, W = window.WWE;

  /** Event cards of the current chapter, numbered 1..n in catalog order: the engine's
   *  reveal_event choices (already revealed ones come refused, with the reason). */
  function eventCandidates(m) {
    return m.choices.filter(function (c) { return c.action && c.action.type === "reveal_event"; })
      .map(function (c, i) {
        return {id: c.action.card, refused: c.refused || null, number: i + 1,
          name: W.nm("events", c.action.card)};
      });
  }

  // What the player typed in the search field: kept across views (the page patches itself
  // in place, client.js), so the filtered list stays filtered while the game goes on.
  var picker = {query: "", list: [], send: null};

  function norm(s) { return String(s).toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, ""); }

  function pickerResults() {
    var q = norm(picker.query.trim());
    return picker.list.filter(function (c) {
      return !q || norm(c.name).indexOf(q) >= 0 || String(c.number) === q || norm(c.id).indexOf(q) >= 0;
    }).map(function (c) {
      // a card that cannot be picked says why on its face (a TV or phone shows no tooltip)
      return h("button.secondary" + (c.refused ? ".refused" : ""), {type: "button",
        disabled: !!c.refused, dataset: {card: c.id, key: c.id},
        onclick: function () { picker.send(c.id); }},
      h("span", (c.number ? c.number + " · " : "") + c.name),
      c.refused ? h("span.why", c.refused.message || c.refused.code) : null);
    });
  }

  /** One DEMO badge for the list, on its heading, its meaning said beside it on a phone
   *  (not one "(DEMO)" a card; the TV, short of height, shows the badge alone, as on its
   *  other panels). */
  function pickerDemo(list) {
    var demo = list.filter(function (c) { return W.isDemo("events", c.id); })[0];
    if (!demo) return null;
    return h("span.demo-note", W.demoBadge("events", demo.id),
      h("span.demo-hint.small", " " + t("demo_hint")));
  }

  function eventPicker(m, send) {
    var list = eventCandidates(m);
    if (!list.length) return h("p.small.muted", {id: "event-picker"}, t("pick_event_on_phone"));
    var round = m.chapter + "." + m.view.round;
    if (picker.round !== round) picker.query = "";  // a new card to pick: a fresh search
    picker.round = round;
    picker.list = list;
    picker.send = send;
    return h("div.picker", {id: "event-picker"},
      h("h3", t("which_event_revealed"), " ", pickerDemo(list)),
      h("input", {type: "search", id: "event-search", placeholder: t("search_event"),
        autocomplete: "off", "aria-label": t("search_event"), value: picker.query,
        oninput: function (e) {
          picker.query = e.target.value;
          TC.replace("event-results", pickerResults());
        }}),
      h("div.picker-list", {id: "event-results"}, pickerResults()));
  }

  /** What rotation r means: from the engine's orient_event choice when this page has it
   *  (favor steps, landing space, every seat's income), else from the public card data. */
  function rotationInfo(m, r) {
    var out = {favor: null, space: null, income: {}, refused: null, choice: null};
    var c = m.choices.filter(function (x) {
      return x.action && x.action.type === "orient_event" && x.action.rotation === r;
    })[0];
    if (c) {
      var e = W.obj(c.effect);
      out.favor = e.favor; out.space = e.space; out.income = W.obj(e.income); out.refused = c.refused || null;
      out.choice = c;
      return out;
    }
    var card = W.obj(m.view.event);
    var values = W.arr(W.obj(m.view.council).side_values);
    if (values.length === 4 && card.arrow !== undefined && card.arrow !== null) out.favor = values[(card.arrow + r) % 4];
    W.arr(card.corners).forEach(function (item, k) {
      var seat = W.SEATS[(k + r) % 4];
      if (m.players[seat]) out.income[seat] = cornerItems(item);
    });
    return out;
  }

  function cornerItems(corner) {
    if (corner === "vp") return {vp: 1};
    if (String(corner).indexOf("gold") === 0) { var g = {}; g.gold = Number(corner.slice(4)) || 1; return g; }
    var o = {}; o[corner] = 1; return o;
  }

  function cornerName(item) {
    if (item === "gold1") return W.amount("gold", 1);
    if (item === "gold2") return W.amount("gold", 2);
    return W.nm("items", item);
  }

  function rotationButtons(m, selected, onPick, seat) {
    return h("div.rot-grid", {id: "rotation-buttons"}, [0, 1, 2, 3].map(function (r) {
      var info = rotationInfo(m, r);
      var mine = seat ? info.income[seat] : null;
      return h("button" + (selected === r ? "" : ".secondary") + (info.refused ? ".refused" : ""),
        {type: "button", dataset: {rotation: r}, title: info.refused ? info.refused.message : "",
          onclick: function () { onPick(r); }},
        h("div", h("b", "↻ " + r)),
        info.favor !== null ? h("div.small", t("favor_short", {n: info.favor}) +
          (info.space ? " → " + W.nm("favor", info.space) : "")) : null,
        // this seat's whole gain and cost (income, the favor space's gift or price), as its
        // confirm button says it; else (another seat's screen) its income alone
        seat && info.choice && W.deltas(info.choice).length
          ? h("div.small.gets", W.deltas(info.choice).join(" · "))
          : mine ? h("div.small.gets", t("you_get", {what: W.itemText(mine) || "–"})) : null,
        info.refused ? h("div.small.why", info.refused.message || info.refused.code) : null);
    }));
  }

  function dieFaces(m) {
    var faces = m.choices.filter(function (c) { return c.action && c.action.type === "roll_tax"; })
      .map(function (c) { return c.action.value; });
    if (!faces.length) faces = W.arr((W.arr(TC.config.dice).filter(function (d) { return d.id === "tax"; })[0] || {}).faces);
    if (!faces.length) faces = [2, 3, 4, 5];
    return faces.filter(function (f, i) { return faces.indexOf(f) === i; }).sort(function (a, b) { return a - b; });
  }

  function dieButtons(m, send) {
    return h("div", {id: "die-input"}, h("h3", t("tax_die_result")),
      h("div.die-grid", dieFaces(m).map(function (v) {
        return h("button", {type: "button", dataset: {value: v}, onclick: function () { send(v); }}, String(v));
      })));
  }

  window.Manual = {eventCandidates: eventCandidates, eventPicker: eventPicker,
    rotationInfo: rotationInfo, rotationButtons: rotationButtons, cornerName: cornerName,
    cornerItems: cornerItems,
    dieFaces: dieFaces, dieButtons: dieButtons};
})();
