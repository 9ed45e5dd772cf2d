/* The guided setup on the TV (web/templates/setup.html): one step a screen, its diagram,
 * what the camera ticked, and every step as a list to go back to (a skipped one resumes).
 * Knows no game: the steps come translated from /games/<id>/setup.json; the progress is the
 * server's, so another screen (or this one reloaded) carries on where it was. */
(function () {
  "use strict";
  var root = document.getElementById("setup");
  var config = JSON.parse(document.getElementById("page-config").textContent || "{}");
  var url = "/games/" + root.dataset.game + "/setup";
  var mayAct = root.dataset.mayAct === "yes";
  var state = null, busy = false;
  var lastSharpness = null, trend = "setup_focus_turn";  // the ring's meter: which way it goes

  var t = TC.t, el = TC.h;  // the shared client's strings and element builder (client.js)

  function mark(step) {  // a sign in the list, its words for screen readers
    if (step.done === "camera") return {sign: "✓", words: t("setup_seen")};
    if (step.done) return {sign: "✓", words: t("setup_marked_done")};
    if (step.skipped) return {sign: "↷", words: t("setup_skipped")};
    return {sign: "", words: ""};
  }

  function focusWords(f) {  // "turn the ring slowly… sharper… sharp: stop"
    if (f.sharpness === null) return t("setup_focus_no_marker");
    if (f.lens === "scan") {
      return t(f.scanning ? "setup_focus_scanning" : f.sharp ? "setup_focus_held" : "setup_focus_scan_ask");
    }
    if (!f.sharp && lastSharpness !== null) {
      if (f.sharpness > lastSharpness + 0.01) trend = "setup_focus_sharper";
      else if (f.sharpness < lastSharpness - 0.01) trend = "setup_focus_softer";
    }
    lastSharpness = f.sharpness;
    return t(f.sharp ? "setup_focus_sharp" : trend);
  }

  function renderFocus(s, step) {  // only on the camera's step, while the camera runs here
    var f = s.focus, box = document.getElementById("setup-focus");
    var shown = !!f && step.camera === "marker" && s.camera === "here" && !s.finished;
    box.hidden = !shown;
    root.dataset.focus = !shown ? "" : f.sharpness === null ? "unseen" : f.sharp ? "sharp" : "soft";
    if (!shown) return;
    document.getElementById("setup-focus-meter").value = f.level || 0;
    document.getElementById("setup-focus-words").textContent = focusWords(f);
    var scan = document.getElementById("setup-focus-scan");
    scan.hidden = f.lens !== "scan" || !mayAct;
    scan.disabled = busy || f.scanning;
  }

  function render() {
    var s = state, step = s.steps[s.at];
    root.dataset.at = step.id;
    root.dataset.finished = s.finished ? "yes" : "no";
    document.getElementById("setup-count").textContent = t("setup_step_of", {n: s.at + 1, total: s.steps.length});
    document.getElementById("setup-text").textContent = step.text;
    var drawn = document.getElementById("setup-drawn");  // the cards the game drew for this step
    drawn.textContent = "";
    (step.drawn || []).forEach(function (name) { drawn.appendChild(el("li", {text: name})); });
    drawn.hidden = !(step.drawn || []).length;
    document.getElementById("setup-rule").textContent = step.rule || "";  // "Rulebook, «Preparar»"
    var pic = document.getElementById("setup-picture");
    pic.hidden = !step.picture;
    if (step.picture) pic.src = root.dataset.pictures + step.picture + ".svg";
    var cam = document.getElementById("setup-camera");
    cam.textContent = step.done === "camera" ? "✓ " + t("setup_seen")
      : !step.camera ? "" : s.camera === "here" ? t("setup_camera_watches")
      : s.camera === "elsewhere" ? t("setup_camera_elsewhere") : "";
    cam.className = "setup-camera" + (step.done === "camera" ? " seen" : "");
    renderFocus(s, step);
    ["setup-back", "setup-skip", "setup-done"].forEach(function (id) {
      document.getElementById(id).disabled = !mayAct || busy;
    });
    document.getElementById("setup-back").disabled = !mayAct || busy || s.at === 0;
    document.getElementById("setup-finished").hidden = !s.finished;
    document.getElementById("setup-step").hidden = s.finished;
    document.getElementById("setup-buttons").hidden = s.finished;  // the finished box has its own
    document.getElementById("setup-count").hidden = s.finished;
    document.getElementById("setup-again").hidden = !mayAct;
    var list = document.getElementById("setup-list");
    list.textContent = "";
    s.steps.forEach(function (x, i) {
      var label = x.text.length > 70 ? x.text.slice(0, 68) + "…" : x.text;
      var m = mark(x);
      var kids = [el("span", {"class": "setup-mark", "aria-hidden": "true", text: m.sign}),
        m.words ? el("span", {"class": "sr-only", text: m.words + ": "}) : null, label];
      var item = mayAct
        ? el("button", {type: "button", "class": "setup-goto secondary", "data-step": x.id,
            "aria-current": i === s.at && !s.finished ? "step" : null,
            onclick: function () { send({op: "goto", step: x.id}); }}, kids)
        : el("span", {"aria-current": i === s.at && !s.finished ? "step" : null}, kids);
      list.appendChild(el("li", {"data-step": x.id, "data-by": x.done || null, title: m.words || null,
        "class": (x.done ? "done" : x.skipped ? "skipped" : "") +
        (i === s.at && !s.finished ? " current" : "")}, [item]));
    });
  }

  function load() {
    return fetch(url + ".json", {credentials: "same-origin"}).then(function (r) { return r.json(); })
      .then(function (d) { if (d && d.steps) { state = d; render(); } });
  }

  function send(body) {
    if (!mayAct || busy) return;
    busy = true;
    fetch(url, {method: "POST", credentials: "same-origin", body: JSON.stringify(body),
      headers: {"Content-Type": "application/json", "X-CSRF-Token": config.csrf_token, "Accept": "application/json"}})
      .then(function (r) { return r.json(); })
      .then(function (d) {
        busy = false;
        var error = document.getElementById("setup-error");
        error.hidden = !(d && d.ok === false);
        error.textContent = d && d.ok === false ? d.message || "" : "";
        if (d && d.steps) { state = d; render(); }
      })
      .catch(function () { busy = false; });
  }

  document.getElementById("setup-done").addEventListener("click", function () { send({op: "done"}); });
  document.getElementById("setup-skip").addEventListener("click", function () { send({op: "skip"}); });
  document.getElementById("setup-back").addEventListener("click", function () { send({op: "back"}); });
  document.getElementById("setup-focus-scan").addEventListener("click", function () { send({op: "focus"}); });
  document.getElementById("setup-again").addEventListener("click", function () { send({op: "goto", step: state.steps[0].id}); });
  function poll() {  // the camera's ticks and another screen's taps; the meter each second
    load().catch(function () {}).then(function () {
      setTimeout(poll, root.dataset.focus ? 1000 : 2000);
    });
  }
  poll();
})();
