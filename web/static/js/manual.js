/* Manual inputs for what the camera and the dice reader would otherwise record (issue 3 §8):
 * pick the revealed event card (search by name or number), choose its orientation, tap in
 * the tax die. Used by the table display and by the phones. */
(function () {
  "use strict";
  var h = TC.h, t = TC.t, W = window.WWE;

  /** Event cards of the current chapter not revealed yet, numbered 1..n in catalog order. */
  function eventCandidates(m) {
    var fromChoices = m.choices.filter(function (c) { return c.action && c.action.type === "reveal_event"; });
    var events = W.obj(W.names().events);
    var chapterIds = Object.keys(events).filter(function (id) {
      return !m.chapter || W.obj(events[id]).chapter === undefined || events[id].chapter === m.chapter;
    });
    var revealed = W.arr(W.obj(m.view.revealed)[String(m.chapter)]);
    var list;
    if (fromChoices.length) {
      list = fromChoices.map(function (c) {
        return {id: c.action.card, refused: c.refused || null};
      });
    } else {
      list = chapterIds.map(function (id) {
        return {id: id, refused: revealed.indexOf(id) >= 0 ? {message: t("already_revealed")} : null};
      });
    }
    list.forEach(function (c) {
      var i = chapterIds.indexOf(c.id);
      c.number = i >= 0 ? i + 1 : null;
      c.name = W.nm("events", c.id);
    });
    return list;
  }

  function eventPicker(m, send) {
    var list = eventCandidates(m);
    var box = h("div.picker", {id: "event-picker"});
    var input = h("input", {type: "search", id: "event-search", placeholder: t("search_event"),
      autocomplete: "off", "aria-label": t("search_event")});
    var results = h("div.picker-list", {id: "event-results"});
    function norm(s) { return String(s).toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, ""); }
    function show() {
      var q = norm(input.value.trim());
      TC.replace(results, list.filter(function (c) {
        return !q || norm(c.name).indexOf(q) >= 0 || String(c.number) === q || norm(c.id).indexOf(q) >= 0;
      }).map(function (c) {
        return h("button.secondary" + (c.refused ? ".refused" : ""), {type: "button",
          disabled: !!c.refused, dataset: {card: c.id},
          title: c.refused ? (c.refused.message || c.refused.code) : "",
          onclick: function () { send(c.id); }},
        (c.number ? c.number + " · " : "") + c.name, W.isDemo("events", c.id) ? " (" + t("demo") + ")" : "");
      }));
    }
    input.addEventListener("input", show);
    show();
    box.appendChild(h("h3", t("which_event_revealed")));
    box.appendChild(input);
    box.appendChild(results);
    return box;
  }

  /** What rotation r means, from the catalog (favor value, corner facing each seat). */
  function rotationInfo(m, r) {
    var ev = m.view.event;
    var id = ev && (typeof ev === "string" ? ev : (ev.card || ev.id));
    var card = W.obj(W.obj(W.names().events)[id]);
    var values = W.arr(W.obj(W.obj(W.names().council)).side_values);
    var out = {favor: null, corners: {}};
    if (values.length === 4 && card.arrow !== undefined) out.favor = values[(card.arrow + r) % 4];
    W.arr(card.corners).forEach(function (item, k) { out.corners[W.SEATS[(k + r) % 4]] = item; });
    return out;
  }

  function cornerName(item) {
    if (item === "gold1") return "1 " + W.nm("items", "gold");
    if (item === "gold2") return "2 " + W.nm("items", "gold");
    return W.nm("items", item);
  }

  function rotationButtons(m, selected, onPick, seat) {
    return h("div.rot-grid", {id: "rotation-buttons"}, [0, 1, 2, 3].map(function (r) {
      var info = rotationInfo(m, r);
      return h("button" + (selected === r ? "" : ".secondary"), {type: "button", dataset: {rotation: r},
        onclick: function () { onPick(r); }},
        h("div", h("b", "↻ " + r)),
        info.favor !== null ? h("div.small", t("favor_moves_n", {n: info.favor})) : null,
        seat && info.corners[seat] ? h("div.small", t("you_get", {what: cornerName(info.corners[seat])})) : null);
    }));
  }

  function dieFaces(m) {
    var faces = W.arr(W.obj(m.view.tax_die).faces);
    if (!faces.length) faces = W.arr(W.obj(W.names().tax_die).faces);
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
    dieFaces: dieFaces, dieButtons: dieButtons};
})();
