/* The table display's question "Which card is this?" (web/templates/table.html): the camera
 * saw a card at rest in a zone that it does not know by its face (no sticker on it, no
 * taught face like it). The view's hardware.camera.unknown names those zones; this asks
 * /games/<id>/camera/unknown.json for their names and the cards it may be, and a tap on a
 * card's name answers (POST .../camera/unknown): that face is taught as the card's and the
 * game is told, as if the camera had known it. While hardware.camera.faces_checking, a line
 * says the taught faces are being checked (no card is named by its face till then). Knows
 * no game. */
(function () {
  "use strict";
  var panel = document.getElementById("unknown-card");
  if (!panel) return;
  var t = TC.t, el = TC.h;
  var config = JSON.parse(document.getElementById("page-config").textContent || "{}");
  var gameId = panel.dataset.game;
  var shown = "";

  function say(text, bad) {
    var n = document.getElementById("unknown-card-notice");
    n.textContent = text;
    n.className = "small " + (bad ? "why" : "");
  }

  function load() {
    return fetch("/games/" + gameId + "/camera/unknown.json", {credentials: "same-origin"})
      .then(function (r) { return r.json(); }).then(function (d) {
        if (!d.ok) { panel.hidden = true; return; }
        render(d);
      });
  }

  function render(d) {
    var list = document.getElementById("unknown-card-list");
    list.textContent = "";
    panel.hidden = !d.zones.length;
    d.zones.forEach(function (z) {
      var picks = d.cards.map(function (c) {
        return el("button", {type: "button", "class": "secondary unknown-card-pick", dataset: {card: c.id},
          onclick: function () { answer(z.zone, c); }}, [c.name]);
      });
      list.appendChild(el("div.unknown-card-zone", {dataset: {zone: z.zone}}, [
        el("h3", {text: t("unknown_card_where", {zone: z.name})}), el("div.unknown-card-picks", picks)]));
    });
    if (TC.fitTable) TC.fitTable();
  }

  function answer(zone, card) {
    fetch("/games/" + gameId + "/camera/unknown", {method: "POST", credentials: "same-origin",
      body: JSON.stringify({zone: zone, card: card.id}),
      headers: {"Content-Type": "application/json", "X-CSRF-Token": config.csrf_token, "Accept": "application/json"}})
      .then(function (r) { return r.json(); }).then(function (res) {
        if (!res.ok) { say((res.problems || []).map(function (p) { return p.message; }).join(" · ") || t("refused"), true); return; }
        say(t("unknown_card_learnt", {card: card.name}));
        return load();
      });
  }

  TC.onView(function (msg) {
    var camera = (msg.hardware || {}).camera || {};
    var checking = document.getElementById("faces-checking");
    if (checking && checking.hidden === !!camera.faces_checking) {
      checking.hidden = !camera.faces_checking;
      if (TC.fitTable) TC.fitTable();
    }
    var zones = Array.isArray(camera.unknown) ? camera.unknown.join(",") : "";
    if (zones === shown) return;
    shown = zones;
    if (!zones) { panel.hidden = true; return; }
    load();
  });
})();
