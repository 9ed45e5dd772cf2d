/* A phone during the guided setup: the player's own starting pieces, from the seat's view of
 * /games/<id>/setup.json, shown until the table finishes the setup or play begins (the
 * first action recorded): they belong to the setup, not to every phase. Knows no game. */
(function () {
  "use strict";
  var box = document.getElementById("setup-pieces");
  if (!box) return;
  var url = "/games/" + box.dataset.game + "/setup.json";
  var timer = null;
  var playing = false;  // an action was recorded: the setup is behind the table
  function show(d) {
    var list = document.getElementById("setup-pieces-list");
    var mine = (d && d.mine) || [];
    box.hidden = playing || !mine.length || !!d.finished;
    list.textContent = "";
    mine.forEach(function (text) {
      var li = document.createElement("li");
      li.textContent = text;
      list.appendChild(li);
    });
    if (d && d.finished && timer) { clearInterval(timer); timer = null; }
  }
  function load() {
    fetch(url, {credentials: "same-origin"}).then(function (r) { return r.ok ? r.json() : null; })
      .then(show).catch(function () {});
  }
  if (window.TC && TC.onView) TC.onView(function (msg) {
    playing = (msg.version || 0) > 0;
    if (playing) {
      box.hidden = true;
      if (timer) { clearInterval(timer); timer = null; }
    }
  });
  load();
  timer = setInterval(load, 5000);
})();
