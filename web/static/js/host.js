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

  function render(msg) {
    var host = obj(msg.host);
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
