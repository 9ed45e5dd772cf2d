/* Monasterium on the shared host page: the status line leads with the year and round; a
 * correction may change prestige or any resource. */
(function () {
  "use strict";
  var M = window.MONA;
  TC.game.hostStatus = function (msg) { return M.roundLine(M.model(msg)); };
  TC.game.adjustItems = function () {
    return ["prestige"].concat(M.RES).map(function (k) { return {value: k, label: M.itemName(k)}; });
  };
})();
