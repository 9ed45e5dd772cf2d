/* A phone during the guided setup: the player's own starting pieces, from the seat's view of
 * /games/<id>/setup.json, shown until the table finishes the setup. Knows no game. */
(function () {
  "use strict";
  var box = document.getElementById("setup-pieces");
  if (!box) return;
  var url = "/games/" + box.dataset.game + "/setup.json";
  var timer = null;
  function show(d) {
    var list = document.getElementById("setup-pieces-list");
    var mine = (d && d.mine) || [];
    box.hidden = !mine.length || !!d.finished;
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
  load();
  timer = setInterval(load, 5000);
})();
