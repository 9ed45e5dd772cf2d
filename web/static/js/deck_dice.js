/* "Your deck" (web/templates/deck.html), the dice the camera learns: the game's dice whose
 * faces are not pips (a tax die), each face with the picture the camera took of it, taken
 * again or removed (/host/<id>/deck/dice.json, /die_face, /die_face/forget). Knows no game. */
(function () {
  "use strict";
  var root = document.getElementById("deck");
  var panel = document.getElementById("deck-dice");
  if (!root || !panel) return;
  var gameId = root.dataset.game, deckOf = root.dataset.deck, camera = root.dataset.camera === "yes";
  var base = "/host/" + gameId + "/deck";
  var t = TC.t, el = TC.h;
  var post = TC.deck.post, problems = TC.deck.problems;  // deck.js, loaded before this
  function say(text, bad) { TC.deck.notice(text, bad, "deck-dice-notice"); }

  function load() {
    return fetch(base + "/dice.json?game=" + encodeURIComponent(deckOf), {credentials: "same-origin"})
      .then(function (r) { return r.json(); }).then(function (d) {
        if (!d.ok) { say(problems(d), true); return; }
        render(d.dice);
      });
  }

  function render(dice) {
    var list = document.getElementById("deck-dice-list");
    list.textContent = "";
    panel.hidden = !dice.length;
    dice.forEach(function (die) {
      var total = die.faces.length;
      var state = die.taught === total ? t("deck_dice_read") : t("deck_dice_by_hand");
      var faces = die.faces.map(function (f) { return face(die, f); });
      list.appendChild(el("div.deck-die", {dataset: {role: die.role}}, [
        el("h3", {text: die.name_text}),
        el("p.small.deck-die-state", {text: t("deck_dice_progress", {taught: die.taught, total: total}) + " · " + state}),
        el("ul.deck-die-faces", faces)]));
    });
  }

  function face(die, f) {
    var label = t("deck_dice_face", {face: f.face});
    var picture = f.url ? el("img", {src: f.url + "?" + Date.now(), alt: die.name_text + " · " + label})
      : el("span.deck-die-none.muted", {text: t("deck_dice_untaught")});
    var take = el("button", {type: "button", "class": "deck-die-take" + (f.taught ? " secondary" : ""),
      disabled: !camera, title: camera ? "" : t("deck_no_camera"),
      onclick: function () { photograph(die, f); }}, [f.taught ? t("deck_dice_retake") : t("deck_dice_take")]);
    var row = [el("strong", {text: label}), el("div.deck-die-picture", [picture]), take];
    if (f.taught) {
      row.push(el("button", {type: "button", "class": "secondary deck-die-forget",
        onclick: function () { forget(die, f); }}, [t("deck_dice_forget")]));
    }
    return el("li.deck-die-face", {dataset: {face: String(f.face)}}, row);
  }

  /* One picture at a time: while the camera's answer is awaited every "take" button is
   * off, so a second press (or a slow server) never sends a request that is answered after
   * the die in the tray was changed, keeping the wrong picture for a face. */
  var taking = false;
  function takeButtons(off) {
    panel.classList.toggle("taking", off);
    Array.prototype.forEach.call(panel.querySelectorAll(".deck-die-take"), function (b) {
      b.disabled = off || !camera;
    });
  }

  function photograph(die, f) {
    if (taking) return;
    taking = true;
    takeButtons(true);
    say(t("deck_dice_taking", {face: f.face}));
    function done() { taking = false; takeButtons(false); }
    post("/die_face", {game: deckOf, role: die.role, face: f.face}).then(function (res) {
      if (!res.ok) { say(problems(res), true); return null; }
      say(t("deck_dice_kept", {face: f.face}));
      return load();
    }).then(done, done);
  }

  function forget(die, f) {
    post("/die_face/forget", {game: deckOf, role: die.role, face: f.face}).then(function (res) {
      if (!res.ok) { say(problems(res), true); return; }
      say(t("deck_dice_forgotten", {face: f.face}));
      load();
    });
  }

  load();
})();
