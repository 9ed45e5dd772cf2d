/* The Pillars of the Earth on the shared host page (web/static/js/host.js): the status line
 * leads with the round and phase; a correction may change gold, VP or any cube. */
(function () {
  "use strict";
  var P = window.POTE;

  TC.game.hostStatus = function (msg) { return P.roundLine(P.model(msg)); };
  TC.game.adjustItems = function () {
    return ["gold", "vp"].concat(P.CUBES).map(function (k) { return {value: k, label: P.itemName(k)}; });
  };
})();
