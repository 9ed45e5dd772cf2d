/* A phone during the guided setup: the player's own starting pieces, from the seat's view of
 * /games/<id>/setup.json. They belong to the setup: open while the table sets up, gone once
 * the table finishes its guided setup; a table that plays without the guide (nobody tapped a
 * step of it) has set up once play begins (the first action): then they fold away to one
 * line at the bottom, still there to look up (and open again if the table takes the guide
 * up). Knows no game. */
(function () {
  "use strict";
  var box = document.getElementById("setup-pieces");
  if (!box) return;
  var url = "/games/" + box.dataset.game + "/setup.json";
  var timer = null;
  var loaded = false, begun = false, guided = false, folded = false;
  var byHand = false;  // the player opened or folded it: the page never overrides that
  box.querySelector("summary").addEventListener("click", function () { byHand = true; });

  function stop() {
    if (timer) { clearInterval(timer); timer = null; }
  }

  /** Folded while play has begun and the table does not follow the guide; open again if
   *  it takes the guide up. Only a change of that state opens or folds the box, and only
   *  while the player has not opened or folded it by hand. */
  function fold() {
    var now = begun && loaded && !guided;
    if (now === folded) return;
    folded = now;
    box.classList.toggle("folded", now);
    if (!byHand) box.open = !now;
  }

  function show(d) {
    if (!d) return;
    var list = document.getElementById("setup-pieces-list");
    var mine = d.mine || [];
    box.hidden = !mine.length || !!d.finished;
    list.textContent = "";
    mine.forEach(function (text) {
      var li = document.createElement("li");
      li.textContent = text;
      list.appendChild(li);
    });
    loaded = mine.length > 0;
    // the table follows the guide (a step tapped by people, not the camera's ticks alone)
    guided = !d.finished && ((d.at || 0) > 0 || (d.steps || []).some(function (s) {
      return s.skipped || (s.done && s.done !== "camera");
    }));
    if (d.finished) stop();
    fold();
  }

  function load() {
    fetch(url, {credentials: "same-origin"}).then(function (r) { return r.ok ? r.json() : null; })
      .then(show).catch(function () {});
  }

  if (window.TC && TC.onView) {
    TC.onView(function (msg) {
      var was = begun;
      begun = (msg.version || 0) > 0;
      // play just began: ask whether the table follows the guide now, then fold (show)
      if (begun && !was) load();
      else fold();
    });
  }
  load();
  timer = setInterval(load, 5000);
})();
