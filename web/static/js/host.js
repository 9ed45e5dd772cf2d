/* Host controls: undo, correct a count with a reason, pause/resume, end, new join codes.
 * Every operation is a `host` socket message with an acknowledgement. */
(function () {
  "use strict";
  var h = TC.h, t = TC.t, W = window.WWE;
  var itemsFilled = false;

  function op(payload, done) {
    return TC.emitWithAck("host", payload).then(function (ack) {
      if (ack.ok) TC.toast(done || t("done"), "info");
      return ack;
    });
  }

  function fillItems(m) {
    if (itemsFilled && !m) return;
    var sel = document.getElementById("adj-item");
    var keep = sel.value;
    TC.replace(sel, W.ITEMS.concat(["vp"]).map(function (k) {
      return h("option", {value: k, selected: k === keep}, W.nm("items", k));
    }));
    itemsFilled = true;
  }

  function render(msg) {
    var m = W.model(msg);
    var host = W.obj(msg.host);
    TC.replace("host-state", [W.chapterRound(m), " · ",
      msg.closed ? t("game_closed") : (msg.paused ? t("paused") : t("running")), " · ",
      t("actions_n", {n: msg.version})]);
    TC.replace("last-actions", W.arr(host.last).slice().reverse().map(function (e) {
      return h("li", e.text || e.type);
    }));
    document.getElementById("undo-1").disabled = !host.can_undo;
    document.getElementById("undo-3").disabled = (host.can_undo || 0) < 3;
    document.getElementById("pause").disabled = !!msg.paused || !!msg.closed;
    document.getElementById("resume").disabled = !msg.paused || !!msg.closed;
    fillItems(m);
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
