/* Host controls: undo, correct a count with a reason, pause/resume, end, new join codes.
 * Every operation is a `host` socket message with an acknowledgement.
 *
 * The page knows no game. The game's host scripts (its manifest.json "host") load first and
 * may set, on TC.game:
 *   hostStatus(msg)   -> what leads the status line (text or nodes), e.g. the round;
 *   adjustItems(msg)  -> [{value, label}] the counts a correction may change (msg may be
 *                        null before the first view); without it only "vp".
 */
(function () {
  "use strict";
  var h = TC.h, t = TC.t, game = TC.game;
  var itemsFilled = false;

  function obj(x) { return x && typeof x === "object" && !Array.isArray(x) ? x : {}; }
  function arr(x) { return Array.isArray(x) ? x : []; }

  function op(payload, done) {
    return TC.emitWithAck("host", payload).then(function (ack) {
      if (ack.ok) TC.toast(done || t("done"), "info");
      return ack;
    });
  }

  function fillItems(msg) {
    if (itemsFilled && !msg) return;
    var sel = document.getElementById("adj-item");
    var keep = sel.value;
    var items = game.adjustItems ? arr(game.adjustItems(msg)) : [{value: "vp", label: t("vp")}];
    TC.replace(sel, items.map(function (item) {
      return h("option", {value: item.value, selected: item.value === keep}, item.label);
    }));
    itemsFilled = true;
  }

  /* ---------- corrections of the board (the game's `corrections`, docs/engine.md) ---------- */

  var corrections = [];

  /** A catalog id by its name in the page language (a project, a favor space, a resource);
   *  anything else as it is. */
  function named(x) {
    if (x === null || x === undefined) return "–";
    var n = obj(TC.config.names)[x];
    return n ? TC.name(n, String(x)) : String(x);
  }

  /** A value on the board in words, after its schema: labelled fields, choices by their
   *  titles, ids by their names, flags as ✓ / –. */
  function describe(schema, value) {
    schema = obj(schema);
    if (Array.isArray(value)) return value.length ? value.map(function (v) { return describe(schema.items, v); }).join(", ") : "–";
    if (value && typeof value === "object") {
      var props = obj(schema.properties);
      return Object.keys(value).map(function (k) {
        return (obj(props[k]).title || named(k)) + ": " + describe(props[k], value[k]);
      }).join(" · ");
    }
    if (typeof value === "boolean") return value ? "✓" : "–";
    if (typeof value === "number" && !arr(schema.oneOf).length) return String(value);  // a count, not an id
    var choice = arr(schema.oneOf).filter(function (o) { return JSON.stringify(obj(o)["const"]) === JSON.stringify(value); })[0];
    return named(choice && choice.title ? choice.title : value);
  }

  function corrKey(c) { return c.part + (c.key === null || c.key === undefined ? "" : ":" + c.key); }

  /** One input for a JSON Schema value: a number, a choice, a set of numbers, or JSON. */
  function valueInput(schema, current) {
    schema = obj(schema);
    var choices = arr(schema.oneOf).filter(function (o) { return "const" in obj(o); });
    if (schema["enum"] || choices.length) {
      var options = choices.length ? choices.map(function (o) { return {v: o["const"], label: named(o.title || o["const"])}; })
        : arr(schema["enum"]).map(function (v) { return {v: v, label: named(v)}; });
      return h("select", {id: "corr-value", "aria-label": t("new_value"), dataset: {kind: "json"}}, options.map(function (o) {
        return h("option", {value: JSON.stringify(o.v), selected: JSON.stringify(o.v) === JSON.stringify(current)}, o.label);
      }));
    }
    if (schema.type === "integer" || schema.type === "number") {
      return h("input", {id: "corr-value", "aria-label": t("new_value"), type: "number", value: current, min: schema.minimum, max: schema.maximum,
        step: schema.type === "integer" ? 1 : "any", dataset: {kind: "number"}});
    }
    if (schema.type === "boolean") {
      return h("input", {id: "corr-value", "aria-label": t("new_value"), type: "checkbox", checked: !!current, dataset: {kind: "bool"}});
    }
    var props = obj(schema.properties);
    var simple = schema.type === "object" && Object.keys(props).length && Object.keys(props).every(function (k) {
      return props[k].type === "integer" || props[k].type === "boolean";
    });
    if (simple) {  // counts and flags side by side (a project's stone, wood, on the board ...)
      return h("div.row", {id: "corr-value", dataset: {kind: "numbers"}}, Object.keys(props).map(function (k) {
        var flag = props[k].type === "boolean";
        return h("label.inline", props[k].title || named(k), " ", flag
          ? h("input", {type: "checkbox", dataset: {prop: k, flag: "1"}, checked: !!obj(current)[k]})
          : h("input", {type: "number", dataset: {prop: k}, value: obj(current)[k], min: props[k].minimum,
            max: props[k].maximum, step: 1, style: {width: "5em"}}));
      }));
    }
    return h("textarea", {id: "corr-value", "aria-label": t("new_value"), rows: 3, dataset: {kind: "json"}, style: {width: "100%"}}, JSON.stringify(current));
  }

  function readValue() {
    var el = document.getElementById("corr-value");
    if (!el) return undefined;
    var kind = el.dataset.kind;
    if (kind === "number") return el.value === "" ? null : Number(el.value);
    if (kind === "bool") return el.checked;
    if (kind === "numbers") {
      var out = {};
      el.querySelectorAll("input[data-prop]").forEach(function (i) {
        out[i.dataset.prop] = i.dataset.flag ? i.checked : (i.value === "" ? null : Number(i.value));
      });
      return out;
    }
    try { return JSON.parse(el.value); } catch (e) { return undefined; }
  }

  function selected() {
    var key = document.getElementById("corr-part").value;
    return corrections.filter(function (c) { return corrKey(c) === key; })[0] || null;
  }

  function showCorrection() {
    var c = selected();
    TC.replace("corr-now", c ? describe(c.schema, c.current) : "");
    TC.replace("corr-input", c ? valueInput(c.schema, c.current) : null);
    TC.replace("corr-preview", null);
  }

  function fillCorrections(msg) {
    corrections = arr(obj(msg.host).corrections);
    document.getElementById("board-correct").hidden = !corrections.length;
    var sel = document.getElementById("corr-part");
    var keep = sel.value;
    var before = sel.dataset.shown;
    var shown = corrections.map(corrKey).join("|");
    if (before === shown) {  // the same parts: only the "now" values may have changed
      var c = selected();
      TC.replace("corr-now", c ? describe(c.schema, c.current) : "");
      return;
    }
    sel.dataset.shown = shown;
    TC.replace(sel, corrections.map(function (c) {  // "Building project (Bridge)", in words
      var label = c.label || c.title + (c.key === null || c.key === undefined ? "" : " · " + named(c.key));
      return h("option", {value: corrKey(c), selected: corrKey(c) === keep}, label);
    }));
    showCorrection();
  }

  function correction() {
    var c = selected();
    if (!c) return null;
    return Object.assign({}, c.action, {value: readValue(),
      reason: document.getElementById("corr-reason").value.trim()});
  }

  /** The seats with no phone connected: each with "Play for ..." (the seat's private screen
   *  on this device, GET /host/<id>/play/<seat>), the seat whose turn it is first and said. */
  function noPhone(msg) {
    var owed = {};
    arr(msg.prompts).forEach(function (p) { if (p && p.seat) owed[p.seat] = true; });
    var seats = arr(msg.players).filter(function (p) { return !p.connected; });
    var over = msg.closed || obj(msg.view).over;
    document.getElementById("no-phone").hidden = !seats.length || !!over;
    seats.sort(function (a, b) { return (owed[b.seat] ? 1 : 0) - (owed[a.seat] ? 1 : 0); });
    TC.replace("no-phone-list", seats.map(function (p) {
      var turn = !!owed[p.seat];
      return h("li.no-phone-seat", {dataset: {key: "np-" + p.seat, seat: p.seat, turn: turn ? "1" : "0"},
        style: {"--pc": p.colour || "#666"}},
        h("span.dot"), " ",
        h("span.grow", turn ? h("b", t("no_phone_turn", {name: p.name})) : t("no_phone_idle", {name: p.name}),
          p.host_plays ? h("span.small.muted", " · " + t("host_screen_open", {name: p.name})) : null),
        " ",
        h("a.button" + (turn ? "" : ".secondary"), {href: "/host/" + msg.game + "/play/" + encodeURIComponent(p.seat),
          id: "play-for-" + p.seat}, t("play_for", {name: p.name})));
    }));
  }

  function render(msg) {
    var host = obj(msg.host);
    noPhone(msg);
    fillCorrections(msg);
    var lead = game.hostStatus ? game.hostStatus(msg) : null;
    TC.replace("host-state", [lead, lead ? " · " : null,
      msg.closed ? t("game_closed") : (msg.paused ? t("paused") : t("running")), " · ",
      t("actions_n", {n: msg.version})]);
    TC.replace("last-actions", arr(host.last).slice().reverse().map(function (e) {
      return h("li", e.text || e.type);
    }));
    document.getElementById("undo-1").disabled = !host.can_undo;
    document.getElementById("undo-3").disabled = (host.can_undo || 0) < 3;
    document.getElementById("pause").disabled = !!msg.paused || !!msg.closed;
    document.getElementById("resume").disabled = !msg.paused || !!msg.closed;
    fillItems(msg);
  }

  document.getElementById("undo-1").addEventListener("click", function () {
    op({op: "undo", count: 1}, t("undone"));
  });
  document.getElementById("undo-3").addEventListener("click", function () {
    op({op: "undo", count: 3}, t("undone"));
  });
  document.getElementById("pause").addEventListener("click", function () { op({op: "pause"}); });
  document.getElementById("resume").addEventListener("click", function () { op({op: "resume"}); });
  document.getElementById("end").addEventListener("click", function () {
    if (window.confirm(t("confirm_end"))) op({op: "end"});
  });
  document.getElementById("adjust-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var delta = parseInt(document.getElementById("adj-delta").value, 10);
    var reason = document.getElementById("adj-reason").value.trim();
    if (!delta || !reason) { TC.toast(t("adjust_needs_reason")); return; }
    op({op: "adjust", seat: document.getElementById("adj-seat").value,
      item: document.getElementById("adj-item").value, delta: delta, reason: reason},
    t("correction_recorded")).then(function (ack) {
      if (ack.ok) document.getElementById("adj-reason").value = "";
    });
  });
  document.getElementById("corr-part").addEventListener("change", showCorrection);
  document.getElementById("corr-preview-btn").addEventListener("click", function () {
    var action = correction();
    if (!action) return;
    TC.emitWithAck("host", {op: "correct_preview", action: action}).then(function (ack) {
      if (!ack.ok) { TC.replace("corr-preview", h("p.why", ack.message || ack.code)); return; }
      // each changed field of the corrected part, in words, before and after (the server's)
      var preview = obj(ack.preview);
      TC.replace("corr-preview", [
        preview.what ? h("p.corr-what", h("b", preview.what)) : null,
        h("table.list", {id: "corr-diff"}, h("thead", h("tr", h("th", ""), h("th", t("before")), h("th", t("after")))),
          h("tbody", arr(preview.changed).map(function (row) {
            return h("tr", {dataset: {key: row.key}}, h("th", row.field || row.label),
              h("td", row.before), h("td", row.after));
          })))]);
    });
  });
  document.getElementById("correct-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var action = correction();
    if (!action) return;
    if (!action.reason) { TC.toast(t("adjust_needs_reason")); return; }
    op({op: "correct", action: action}, t("correction_recorded")).then(function (ack) {
      if (ack.ok) { document.getElementById("corr-reason").value = ""; TC.replace("corr-preview", null); }
    });
  });
  document.querySelectorAll(".new-code").forEach(function (b) {
    b.addEventListener("click", function () {
      if (!window.confirm(t("confirm_new_code"))) return;
      op({op: "new_join_code", seat: b.dataset.seat}).then(function (ack) {
        if (ack.ok) window.location.reload();
      });
    });
  });

  fillItems(null);
  TC.start({render: render});
})();
