/* What the table owes by hand now (the view's `steps`, companion/table/table_steps.py), the same
 * on every page, whatever the game: who does it, what records it (the camera or the dice
 * reader, when running) and the fallback where nothing does ("Let the app draw").
 *   - the table display: a panel under the turn banner (#table-steps) with the progress and
 *     the fallback button;
 *   - a phone: one line (#table-steps) above the game's panels;
 *   - the host page: a panel (#table-steps) whose button sends the fallback (host op
 *     `table_step`), for a TV that is not a touch screen.
 */
(function () {
  "use strict";
  var h = TC.h, t = TC.t;

  function arr(x) { return Array.isArray(x) ? x : []; }

  function progress(step) {
    if (!step.of) return null;
    var bar = h("span.step-bar", {role: "progressbar", "aria-label": t("step_done_of", {done: step.done, of: step.of}), "aria-valuemin": "0",
      "aria-valuemax": String(step.of), "aria-valuenow": String(step.done)},
      h("span.step-fill", {style: {width: Math.round(100 * step.done / step.of) + "%"}}));
    return h("span.step-progress", bar, h("span.small", t("step_done_of", {done: step.done, of: step.of})));
  }

  function devices(step) {
    return arr(step.devices).map(function (d) {
      return h("div.step-device" + (d.present ? ".on" : ".off"), {dataset: {device: d.device}},
        (d.present ? "✓ " : "– ") + d.text);
    });
  }

  function nothingRecords(step) {
    return !arr(step.devices).some(function (d) { return d.present; });
  }

  function fallbackButton(step, send) {
    if (!step.fallback) return null;
    return h("button.step-fallback" + (nothingRecords(step) ? "" : ".secondary"), {type: "button",
      dataset: {kind: step.kind}, onclick: send}, step.fallback_text);
  }

  /** "Let the app draw the rest": one tap for every part of the step still owed (the
   *  server sends the fallback once per part, each recorded on its own). Only where more
   *  than one part is left. */
  function restButton(step, send) {
    if (!step.fallback || !step.rest_text || !(step.of - step.done > 1)) return null;
    return h("button.step-rest.secondary", {type: "button", dataset: {kind: step.kind}, onclick: send},
      step.rest_text);
  }

  function buttons(step, send) {
    var one = fallbackButton(step, function () { send(false); });
    var rest = restButton(step, function () { send(true); });
    return one && rest ? h("div.step-buttons", one, rest) : one;
  }

  function tableStep(step) {
    return h("div.table-step", {dataset: {kind: step.kind, key: "step-" + step.kind}},
      h("div.step-what", h("span.step-icon", {"aria-hidden": "true"}, "▸ "), step.text, progress(step)),
      devices(step),
      step.by_hand ? h("div.step-hand.small", step.by_hand) : null,
      buttons(step, function (rest) {
        TC.emitWithAck("table_step", {kind: step.kind, rest: rest});
      }));
  }

  function hostStep(step) {
    return h("div.table-step", {dataset: {kind: step.kind, key: "step-" + step.kind}},
      h("div.step-what", step.text, progress(step)), devices(step),
      step.fallback ? h("p.small.muted", t("step_host_hint")) : null,
      buttons(step, function (rest) {
        TC.emitWithAck("host", {op: "table_step", kind: step.kind, rest: rest});
      }));
  }

  /** One line: what is awaited and who does it, and what records it (or that the device
   *  is with the game at the table, and what to do instead). */
  function phoneLine(step) {
    var on = arr(step.devices).filter(function (d) { return d.present; })[0];
    var away = arr(step.devices).filter(function (d) { return d.elsewhere; })[0];
    var how = on ? on.text : (step.fallback ? t("step_phone_fallback", {button: step.fallback_text}) : step.by_hand);
    if (!on && away) how = away.text + (how ? " " + how : "");
    return h("div.step-line", {dataset: {kind: step.kind, key: "step-" + step.kind}},
      h("b", "▸ " + step.text), how ? " " + how : null);
  }

  var PLACES = {row: ["top", "middle", "bottom"], column: ["left", "centre", "right"]};

  function placeText(place) {
    if (!place || place.length !== 2) return "";
    function third(v) { return Math.min(2, Math.max(0, Math.floor(v * 3))); }
    return t("place_of", {row: t("place_" + PLACES.row[third(place[1])]),
      column: t("place_" + PLACES.column[third(place[0])])});
  }

  /** The dice the camera could not read (hardware.dice.pending), those it has not learnt
   *  yet among them (by their name): on the phone of the player who rolled, a row of faces
   *  for each of them only; elsewhere who is entering them. */
  function missingDice(msg) {
    var dice = (msg.hardware && msg.hardware.dice) || {};
    var pending = dice.pending;
    if (!pending || pending.game !== msg.game || msg.closed || msg.paused) return null;
    var mine = msg.role === "seat" && (!pending.who || pending.who === msg.seat);
    if (!mine) {
      var who = (msg.players || []).filter(function (p) { return p.seat === pending.who; })[0];
      return h("div.dice-missing.small", {dataset: {key: "dice-missing"}},
        t("dice_missing_wait", {name: who ? who.name : pending.who || ""}));
    }
    return h("div.dice-missing", {dataset: {key: "dice-missing"}},
      h("p", h("b", t("dice_missing"))),
      arr(pending.missing).map(function (die) {
        var place = placeText(die.place);
        var label = die.untaught ? t("dice_missing_untaught", {name: die.name})
          : die.colour ? t("dice_missing_die", {colour: t("dice_" + die.colour), place: place})
          : t("dice_missing_plain", {place: place});
        return h("div.dice-die", {dataset: {die: die.die}}, h("div", label),
          h("div.row.dice-faces", {role: "group", "aria-label": label}, arr(die.faces).map(function (face) {
            return h("button.dice-face" + (die.face === face ? "" : ".secondary"), {type: "button",
              "aria-pressed": die.face === face ? "true" : "false", dataset: {face: String(face)},
              onclick: function () { TC.emitWithAck("dice_face", {die: die.die, face: face}); }},
              String(face));
          })));
      }));
  }

  /** The camera is the dice source and reads this game's roll now (its tray ready, or it
   *  asks the rolling player for the dice it could not read): the games' own "enter the
   *  dice" panels step aside on the TV and on the other phones, so no screen offers a second
   *  way to enter the same dice; the step line and `missingDice` say what is awaited and from
   *  whom. A camera that cannot read (no tray, lost, at another game) hides nothing. */
  TC.cameraRolls = function (msg) {
    var hw = (msg && msg.hardware) || {};
    var dice = hw.dice || {};
    if (dice.source !== "camera" || msg.closed || (hw.table && hw.table.here === false)) return false;
    var pending = dice.pending;
    return dice.state === "ok" || !!(pending && pending.game === msg.game);
  };

  /** The chosen dice source (the reader, or the camera's tray) records this game's rolls
   *  now: the server's `hardware.dice.reads`, the same rule its `act` door keeps. A phone then
   *  offers no roll by hand; it enters only the dice it is asked for (`missingDice`). */
  TC.diceRead = function (msg) {
    var dice = ((msg && msg.hardware) || {}).dice || {};
    return !!dice.reads && !msg.closed;
  };

  /** The camera reads this step's dice (`TC.cameraRolls`): neither its "or tap it in" nor
   *  its "Let the app roll" is offered on any screen (the host who wants the dice by hand
   *  chooses the phones as the dice source); a die it cannot read is asked of the roller
   *  alone (`missingDice`). */
  function cameraReads(step, msg) {
    return TC.cameraRolls(msg) && arr(step.devices).some(function (d) {
      return d.device === "dice" && d.present;
    });
  }

  /** The host's choice of what reads the dice (host op `dice_source`), kept on the server. */
  function showDiceSource(msg) {
    var el = document.getElementById("dice-source");
    if (!el) return;
    var dice = (msg.hardware && msg.hardware.dice) || {};
    var panel = document.getElementById("dice-source-panel");
    panel.hidden = !dice.source || msg.closed;
    document.getElementById("dice-source-note").textContent = t("dice_source_note");
    TC.replace(el, ["serial", "camera", "phones"].map(function (source) {
      var on = dice.source === source;
      return h("button" + (on ? "" : ".secondary"), {type: "button", "aria-pressed": on ? "true" : "false",
        dataset: {source: source, key: "source-" + source},
        onclick: function () { TC.emitWithAck("host", {op: "dice_source", source: source}); }},
        (on ? "✓ " : "") + t("dice_source_" + source));
    }));
  }

  /** Where the camera and the dice reader are when another game has them: the same notice
   *  on the TV, the phones and the host page (whose button moves them to this game). */
  function showWhere(msg) {
    var el = document.getElementById("hw-away");
    if (!el) return;
    var where = (msg.hardware && msg.hardware.table) || {};
    var text = msg.closed ? "" : (where.message || "");
    el.textContent = text;
    var panel = document.getElementById("hw-away-panel");  // the host page's
    (panel || el).hidden = !text;
    // another game in play has them: its host's PIN moves them (the host page)
    var pin = document.getElementById("take-table-pin-field");
    if (pin) pin.hidden = !where.game;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var take = document.getElementById("take-table");
    if (take) take.addEventListener("click", function () {
      var pin = document.getElementById("take-table-pin");
      var op = {op: "take_table"};
      if (pin && pin.value.trim()) op.pin = pin.value.trim();
      TC.emitWithAck("host", op).then(function (ack) { if (ack.ok && pin) pin.value = ""; });
    });
  });

  TC.onView(function (msg) {
    showWhere(msg);
    showDiceSource(msg);
    var el = document.getElementById("table-steps");
    if (!el) return;
    var steps = msg.closed || msg.paused ? [] : arr(msg.steps);
    var role = msg.role;
    var draw = role === "seat" ? phoneLine : (role === "host" ? hostStep : tableStep);
    var missing = missingDice(msg);
    el.hidden = !steps.length && !missing;
    var panel = document.getElementById("table-steps-panel");  // the host page's
    if (panel) panel.hidden = el.hidden;
    TC.replace(el, steps.map(function (step) {
      return draw(cameraReads(step, msg) ? Object.assign({}, step, {by_hand: "", fallback: null}) : step);
    }).concat(missing ? [missing] : []));
  });
})();
