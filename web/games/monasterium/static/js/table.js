/* Monasterium's table display: every die where it lies in its colour, the monasteries, the
 * players' boards, the missions; a roll entered by hand when no dice reader is attached. */
(function () {
  "use strict";
  var h = TC.h, t = TC.t, M = window.MONA;
  var last = null;

  function banner(m) {
    var note = m.over ? TC.winnerLine(M.arr(m.view.scores), function (seat) { return M.who(m, seat); }) : (m.msg.closed ? t("game_closed") : (m.msg.paused ? t("paused") : null));
    if (note) return h("div.turn-seat.neutral", h("span.what", note));
    if (!m.prompts.length) return h("div.turn-seat.neutral", h("span.what", t("waiting")));
    return m.prompts.map(function (p) {
      var seat = p.seat === "table" ? M.obj(p.params).player : p.seat;
      return h("div.turn-seat", {dataset: {seat: p.seat, key: "turn-" + p.seat}, style: M.style(seat)},
        h("span.what", M.promptText(m, p)));
    });
  }

  function render(msg) {
    last = msg;
    var m = M.model(msg);
    TC.replace("round-line", M.roundLine(m));
    var prompt = document.getElementById("prompt");
    TC.replace(prompt, banner(m));
    prompt.dataset.count = String(prompt.children.length);
    TC.replace("players", M.playerCards(m));
    TC.replace("spaces", M.spaces(m));
    TC.replace("hands", M.hands(m));
    TC.replace("monasteries", M.monasteries(m));
    TC.replace("missions", M.missionList(m));
    // the camera reads the table's roll: the step line says so, no second way to enter it
    var tableRolls = m.prompts.some(function (p) { return p.seat === "table"; }) &&
      !TC.cameraRolls(msg);
    var inputs = tableRolls ? M.rollEntry(m, "table", function () { render(last); }) : null;
    document.getElementById("inputs-panel").hidden = !inputs;
    TC.replace("inputs", inputs);
    var fin = M.finalScores(m);
    document.getElementById("final").hidden = !fin;
    TC.replace("final", fin);
    TC.replace("log", M.logList(m));
  }

  TC.start({render: render});
})();
