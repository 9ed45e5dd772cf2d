/* Plain forms: a <select data-reload="/path?key="> reloads the page for the chosen value
 * (the new-game form shows the seats and options of the game picked). No framework. */
(function () {
  "use strict";
  document.querySelectorAll("select[data-reload]").forEach(function (el) {
    el.addEventListener("change", function () {
      window.location.assign(el.getAttribute("data-reload") + encodeURIComponent(el.value));
    });
  });
})();
