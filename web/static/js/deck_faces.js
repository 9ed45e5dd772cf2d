/* "Your deck" (web/templates/deck.html), the cards the camera knows by their face: the
 * game's cards that may go without a sticker, each with the picture of its face taken from
 * the camera or imported from a scan or photo, taken again or removed; then the pairs too
 * alike for the camera at the table and the cards whose turn it cannot tell (they look the
 * same turned half round) (/host/<id>/deck/faces.json, /card_face,
 * /card_face/upload, /card_face/forget). Knows no game. */
(function () {
  "use strict";
  var root = document.getElementById("deck");
  var panel = document.getElementById("deck-faces");
  if (!root || !panel) return;
  var gameId = root.dataset.game, deckOf = root.dataset.deck, camera = root.dataset.camera === "yes";
  var base = "/host/" + gameId + "/deck";
  var config = JSON.parse(document.getElementById("page-config").textContent || "{}");
  var t = TC.t, el = TC.h;
  var post = TC.deck.post, problems = TC.deck.problems;  // deck.js, loaded before this
  var fileInput = document.getElementById("deck-faces-file");
  var names = {};
  var again = null, CHECK_AGAIN_MS = 2000;  /* the too-alike check under way: asked again */
  function say(text, bad) { TC.deck.notice(text, bad, "deck-faces-notice"); }

  /* Only the last answer asked for is shown: the 2 s ask of the check under way may cross
   * the one after a face kept, and an older answer would show the deck as it was. */
  var asked = 0;
  function load(fresh) {
    var mine = ++asked;
    return fetch(base + "/faces.json?game=" + encodeURIComponent(deckOf), {credentials: "same-origin"})
      .then(function (r) { return r.json(); }).then(function (d) {
        if (mine !== asked) return;
        if (!d.ok) { say(problems(d), true); return; }
        render(d, fresh);
      });
  }

  /* The cards as last drawn. The check's 2 s ask draws the rows again only when the cards
   * changed (another host page taught one): a row drawn anew under the owner's finger lost
   * the tap (its press on the old button, its release on the new), and on a Pi the check
   * runs for minutes. A picture kept or removed here draws them afresh (`fresh`): its URL
   * stays the same when a face is taken again. */
  var drawn = null;
  function render(d, fresh) {
    var cards = JSON.stringify(d.cards);
    if (fresh || cards !== drawn) drawRows(d);
    drawn = cards;
    document.getElementById("deck-faces-progress").textContent =
      TC.tn("deck_faces_progress", d.taught, {total: d.cards.length});
    drawAlike(d);
  }

  function drawRows(d) {
    var list = document.getElementById("deck-faces-list");
    list.textContent = "";
    panel.hidden = !d.cards.length;
    var parts = {};
    d.cards.forEach(function (card) { parts[card.part] = true; });
    var several = Object.keys(parts).length > 1, part = null;
    d.cards.forEach(function (card) {
      names[card.id] = card.name_text;
      if (several && card.part !== part) {  /* each kind of card under its title */
        part = card.part;
        list.appendChild(el("li.deck-faces-part", {dataset: {part: part}}, [el("h3", {text: card.part_title})]));
      }
      list.appendChild(row(card));
    });
  }

  function drawAlike(d) {
    var alike = document.getElementById("deck-faces-alike");
    alike.textContent = "";
    clearTimeout(again);
    if (!d.taught) return;
    if (d.checking) {  /* judged on the server's own thread: asked again until it ends */
      alike.appendChild(el("p.muted.deck-faces-checking", {text: t("deck_faces_checking")}));
      again = setTimeout(function () { load(false); }, CHECK_AGAIN_MS);
      return;
    }
    var turns = d.turn_alike || [];
    if (!d.alike.length && !turns.length) {
      alike.appendChild(el("p.ok-text", {text: t("deck_faces_none_alike")}));
      return;
    }
    if (d.alike.length) {
      alike.appendChild(el("p.why", {text: t("deck_faces_alike")}));
      alike.appendChild(el("ul", d.alike.map(function (pair) {
        return el("li.deck-faces-pair", {dataset: {pair: pair.join(",")},
          text: (names[pair[0]] || pair[0]) + " · " + (names[pair[1]] || pair[1])});
      })));
    }
    if (turns.length) {  /* a face alike turned half round: the camera cannot give its turn */
      alike.appendChild(el("p.why", {text: t("deck_faces_turn_alike")}));
      alike.appendChild(el("ul", turns.map(function (id) {
        return el("li.deck-faces-turn", {dataset: {card: id}, text: names[id] || id});
      })));
    }
  }

  function row(card) {
    var picture = card.url ? el("img", {src: card.url + "?" + Date.now(), alt: card.name_text})
      : el("span.deck-face-none.muted", {text: t("deck_dice_untaught")});
    /* drawn again while an answer is awaited (the check's 2 s ask): the buttons stay off, or
     * a click would open the file chooser and then do nothing (run() refuses while busy) */
    var take = el("button", {type: "button", "class": "deck-face-take" + (card.taught ? " secondary" : ""),
      disabled: busy || !camera, title: camera ? "" : t("deck_no_camera"),
      onclick: function () { photograph(card); }}, [card.taught ? t("deck_dice_retake") : t("deck_dice_take")]);
    var upload = el("button", {type: "button", "class": "secondary deck-face-upload", disabled: busy,
      onclick: function () { choose(card); }}, [t("deck_faces_upload")]);
    var items = [el("strong", {text: card.name_text}),
      el("span.small.muted.deck-face-state", {text: card.taught ? t("deck_faces_taught") : t("deck_faces_sticker")}),
      el("div.deck-face-picture", [picture]), take, upload];
    if (card.taught) {
      items.push(el("button", {type: "button", "class": "secondary deck-face-forget", disabled: busy,
        onclick: function () { forget(card); }}, [t("deck_dice_forget")]));
    }
    return el("li.deck-face", {dataset: {card: card.id}}, items);
  }

  /* One picture at a time (as for the dice): while an answer is awaited the buttons are
   * off, so no late answer keeps the card laid afterwards under this card's name. */
  var busy = false;
  function buttons(off) {
    panel.classList.toggle("taking", off);
    Array.prototype.forEach.call(panel.querySelectorAll(".deck-face-take"), function (b) { b.disabled = off || !camera; });
    Array.prototype.forEach.call(panel.querySelectorAll(".deck-face-upload, .deck-face-forget"), function (b) { b.disabled = off; });
  }
  function run(card, request, kept) {
    if (busy) return;
    busy = true;
    buttons(true);
    function done() { busy = false; buttons(false); }
    request().then(function (res) {
      if (!res.ok) { say(problems(res), true); return null; }
      say(t(kept, {card: card.name_text}));
      return load(true);
    }).then(done, function () { say(t("no_answer"), true); done(); });
  }

  function photograph(card) {
    say(t("deck_faces_taking", {card: card.name_text}));
    run(card, function () { return post("/card_face", {game: deckOf, entry: card.id}); }, "deck_faces_kept");
  }

  var uploading = null;
  function choose(card) { uploading = card; fileInput.value = ""; fileInput.click(); }
  fileInput.addEventListener("change", function () {
    var card = uploading, file = fileInput.files[0];
    if (!card || !file) return;
    run(card, function () {
      return fetch(base + "/card_face/upload?game=" + encodeURIComponent(deckOf) + "&entry=" + encodeURIComponent(card.id),
        {method: "POST", credentials: "same-origin", body: file,
         headers: {"Content-Type": file.type || "application/octet-stream", "X-CSRF-Token": config.csrf_token,
                   "Accept": "application/json"}})
        .then(function (r) { return r.json().catch(function () { return {ok: false, problems: [{message: r.statusText}]}; }); });
    }, "deck_faces_kept");
  });

  function forget(card) {
    run(card, function () { return post("/card_face/forget", {game: deckOf, entry: card.id}); }, "deck_faces_forgotten");
  }

  load(true);
})();
