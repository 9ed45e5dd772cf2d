/* World Without End on the shared host page (web/static/js/host.js): the status line leads
 * with the chapter and round, and a correction may change any item or the VP. */
(function () {
  "use strict";
  var W = window.WWE;

  TC.game.hostStatus = function (msg) { return W.chapterRound(W.model(msg)); };
  TC.game.adjustItems = function () {
    return W.ITEMS.concat(["vp"]).map(function (k) { return {value: k, label: W.nm("items", k)}; });
  };
})();
