/* Table Companion: the shared page client (no framework, no build step).
 *
 * Every page (table, phone, host) includes this file, then its own renderer, which calls
 * TC.start({render}). This file owns what all pages share:
 *   - the page config and the translated UI strings embedded by the Jinja shell,
 *   - the Socket.IO connection (auth from the page), reconnect with a grace period and on
 *     `visibilitychange`, the distinct "reconnecting" and "game closed" states,
 *   - `act` with an acknowledgement, and refusals shown as translated messages,
 *   - the screen Wake Lock where the browser allows it (secure context only).
 */
(function () {
  "use strict";

  function readJSON(id, fallback) {
    var el = document.getElementById(id);
    if (!el) return fallback;
    try { return JSON.parse(el.textContent); } catch (e) { return fallback; }
  }

  var config = readJSON("page-config", {});
  var strings = readJSON("ui-strings", {});
  var lang = config.lang || document.documentElement.lang || "en";
  var pluralRules = (window.Intl && Intl.PluralRules) ? new Intl.PluralRules(lang) : null;
  var RECONNECT_GRACE_MS = 2500;   // a blip shorter than this is not worth a banner
  var ACK_TIMEOUT_MS = 10000;

  /* ---------- strings ---------- */

  function fmt(text, params) {
    if (!params) return text;
    return String(text).replace(/\{(\w+)\}(\.?)/g, function (all, key, dot) {
      if (!Object.prototype.hasOwnProperty.call(params, key)) return all;
      var value = String(params[key]);  // a value ending a sentence takes no second period
      return value + (/[.…!?]$/.test(value) ? "" : dot);
    });
  }

  /** The translated UI string `key`, with `{name}` placeholders filled from params. */
  function t(key, params) {
    var s = strings[key];
    if (s === undefined) s = key;
    if (typeof s === "object") return tn(key, params && params.n, params);
    return fmt(s, params);
  }

  /** A plural UI string. The server turns each plural entry of web/ui_strings.json into
   *  {CLDR category: text with {n}} for the page language (docs/socket-protocol.md). */
  function tn(key, n, params) {
    var forms = strings[key];
    var p = Object.assign({n: n}, params);
    if (!forms || typeof forms !== "object") return fmt(key, p);
    if (Array.isArray(forms)) return fmt(n === 1 ? forms[0] : forms[forms.length - 1], p);
    var cat = pluralRules ? pluralRules.select(n) : (n === 1 ? "one" : "other");
    var text = forms[cat] || forms.other || forms.many || forms.one;
    return fmt(text, p);
  }

  /** `n` of the thing `id` in words by the page language's plural rules ("1 wełnę",
   *  "5 monet"): the game's plural UI string `count_<id>`, with `shown` (the number
   *  as written: "+1", "−2"; else n) in place of {n}. Null when the game counts no such
   *  thing (the caller then writes "n name"). */
  function counted(id, n, shown) {
    var forms = strings["count_" + id];
    if (!forms || typeof forms !== "object" || Array.isArray(forms)) return null;
    var cat = pluralRules ? pluralRules.select(Math.abs(n)) : (Math.abs(n) === 1 ? "one" : "other");
    var text = forms[cat] || forms.other || forms.many || forms.one;
    return fmt(text, {n: shown === undefined ? n : shown});
  }

  /** The word `counted` puts after ``n`` ("złota" for 23, "złoto" for 1): for a count and
   *  its word in separate elements (a phone's header). Null as `counted` is. */
  function countWord(id, n) {
    var text = counted(id, n, "\u0000");
    return text === null ? null : text.replace("\u0000", "").trim();
  }

  /** A localized name from a catalog-style names object {en, it, pl, es, de}. */
  function name(names, fallback) {
    if (!names) return fallback === undefined ? "" : fallback;
    if (typeof names === "string") return names;
    return names[lang] || names.en || fallback || Object.values(names)[0] || "";
  }

  /* ---------- DOM ---------- */

  /** h("div.card.big", {onclick: f, title: "x"}, child, [children], "text") */
  function h(tag, attrs) {
    var parts = tag.split(".");
    var el = document.createElement(parts[0] || "div");
    for (var i = 1; i < parts.length; i++) if (parts[i]) el.classList.add(parts[i]);
    var start = 1;
    if (attrs && typeof attrs === "object" && !(attrs instanceof Node) && !Array.isArray(attrs)) {
      start = 2;
      Object.keys(attrs).forEach(function (k) {
        var v = attrs[k];
        if (v === null || v === undefined || v === false) return;
        if (k.slice(0, 2) === "on") on(el, k.slice(2), v);
        else if (k === "text") el.textContent = v;
        else if (k === "dataset") Object.assign(el.dataset, v);
        else if (k === "style" && typeof v === "object") {
          Object.keys(v).forEach(function (prop) { el.style.setProperty(prop, v[prop]); });
        }
        else el.setAttribute(k, v === true ? "" : v);
      });
    }
    for (var j = start; j < arguments.length; j++) append(el, arguments[j]);
    return el;
  }

  function append(el, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(el, c); }); return; }
    el.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }

  /* ---------- updates in place ----------
   * A renderer builds fresh nodes with h() on every view; `replace` does not swap them in but
   * patches the nodes on the page to look like them (a small DOM diff). What the player is
   * doing survives every update: the focused field and the text typed in it, the caret, the
   * scroll position of every list, the open <details>. Children are matched by `id` or
   * `data-key` where they have one, else by position and tag. Handlers given to h() as
   * `onclick`... move to the kept node. Rules a renderer can rely on:
   *   - an input's typed value is only overwritten when the renderer's `value` changes;
   *   - a <details> keeps the `open` state the player gave it (set `.open` yourself to force);
   *   - nodes are moved, never re-created, when their id/data-key is the same. */

  function dispatch(e) {
    var f = this._tcOn && this._tcOn[e.type];
    if (f) return f.call(this, e);
  }

  function on(el, type, f) {
    el._tcOn = el._tcOn || {};
    el._tcOn[type] = f;
    el.addEventListener(type, dispatch);
  }

  function keyOf(n) {
    return n.nodeType === 1 ? (n.id || n.getAttribute("data-key") || null) : null;
  }

  function syncAttrs(old, nu) {
    var tag = old.nodeName, i, a;
    for (i = old.attributes.length - 1; i >= 0; i--) {
      a = old.attributes[i].name;
      if (tag === "DETAILS" && a === "open") continue;
      if (!nu.hasAttribute(a)) {
        old.removeAttribute(a);
        if (a === "checked") old.checked = false;
        if (a === "selected") old.selected = false;
      }
    }
    for (i = 0; i < nu.attributes.length; i++) {
      a = nu.attributes[i];
      if (tag === "DETAILS" && a.name === "open") continue;
      if (old.getAttribute(a.name) === a.value) continue;
      old.setAttribute(a.name, a.value);
      if (a.name === "value" && (tag === "INPUT" || tag === "TEXTAREA") &&
          old !== document.activeElement && old.value !== a.value) old.value = a.value;
      if (a.name === "checked") old.checked = true;
      if (a.name === "selected") old.selected = true;
    }
  }

  function morphNode(old, nu) {
    if (old.nodeType !== 1) {
      if (old.nodeValue !== nu.nodeValue) old.nodeValue = nu.nodeValue;
      return;
    }
    syncAttrs(old, nu);
    if (nu._tcOn) Object.keys(nu._tcOn).forEach(function (type) { on(old, type, nu._tcOn[type]); });
    else if (old._tcOn) old._tcOn = {};
    if (old.nodeName === "TEXTAREA") return;  // its text is the player's
    morphChildren(old, Array.prototype.slice.call(nu.childNodes));
  }

  function morphChildren(parent, kids) {
    var keyed = {}, c, cur;
    for (c = parent.firstChild; c; c = c.nextSibling) {
      var k = keyOf(c);
      if (k) keyed[k] = c;
    }
    cur = parent.firstChild;
    kids.forEach(function (nu) {
      var key = keyOf(nu), match = null;
      if (key) {
        match = keyed[key] || null;
        if (match && match.nodeName !== nu.nodeName) match = null;
        if (match) delete keyed[key];
      } else if (cur && !keyOf(cur) && cur.nodeType === nu.nodeType && cur.nodeName === nu.nodeName) {
        match = cur;
      }
      if (match === cur && match) cur = cur.nextSibling;
      else if (match) parent.insertBefore(match, cur);
      else { parent.insertBefore(nu, cur); return; }
      morphNode(match, nu);
    });
    while (cur) { c = cur.nextSibling; parent.removeChild(cur); cur = c; }
  }

  /** Make el's children look like `children` (nodes from h(), text, arrays), in place. */
  function replace(el, children) {
    if (typeof el === "string") el = document.getElementById(el);
    if (!el) return;
    var box = document.createElement("div");
    append(box, children);
    morphChildren(el, Array.prototype.slice.call(box.childNodes));
  }

  /* ---------- status banner and toasts ---------- */

  var statusEl, toastEl, toastTimer;
  var toastVersion = null;  // the version the toast was shown at: it closes when that moves

  function setStatus(kind) {
    statusEl = statusEl || document.getElementById("conn-status");
    document.body.dataset.conn = kind;
    if (!statusEl) return;
    var text = {
      connecting: t("connecting"),
      reconnecting: t("reconnecting"),
      closed: t("game_closed"),
      finished: t("game_over"),
      refused: t("cannot_join"),
      signedout: t("cannot_join"),
      ok: ""
    }[kind] || "";
    statusEl.textContent = text;
    statusEl.hidden = !text;
    statusEl.className = "conn-status conn-" + kind;
  }

  /** Show `message`; a refusal's `rule` adds its "Why?" (rules_cited.js), and the toast
   *  stays while that is open. A message belongs to its moment: it closes by itself when
   *  the state moves on (a view of another version), and with its × at any time. */
  function toast(message, kind, rule) {
    toastEl = toastEl || document.getElementById("toast");
    if (!toastEl) { window.alert(message); return; }
    toastEl.textContent = message;
    toastEl.className = "toast show " + (kind || "error");
    toastEl.hidden = false;
    toastVersion = lastView ? lastView.version : null;
    var hide = function () { hideToast(); };
    var close = document.createElement("button");
    close.type = "button";
    close.className = "toast-close";
    close.setAttribute("aria-label", t("close_message"));
    close.textContent = "×";
    close.addEventListener("click", hide);
    var why = rule && window.TC.why ? window.TC.why(rule) : null;
    if (why) {
      toastEl.classList.add("with-rule");
      append(toastEl, [" ", why]);
      why.addEventListener("toggle", function () {
        clearTimeout(toastTimer);
        if (!why.open) hide();  // read and closed: the message no longer covers the buttons
      });
    }
    toastEl.appendChild(close);  // last: the message is read first
    clearTimeout(toastTimer);
    toastTimer = setTimeout(hide, why ? 10000 : 6000);
  }

  function hideToast() {
    clearTimeout(toastTimer);
    if (toastEl) toastEl.hidden = true;
    toastVersion = null;
  }

  /* ---------- wake lock ---------- */

  var wakeLock = null;
  var wantWake = false;

  function requestWakeLock() {
    if (!wantWake || !("wakeLock" in navigator) || !window.isSecureContext) return;
    if (wakeLock || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      document.body.dataset.wake = "on";
      lock.addEventListener("release", function () { wakeLock = null; });
    }).catch(function () { /* denied (battery saver, no gesture yet): the hint stays */ });
  }

  function keepAwake() {
    if (wantWake) { requestWakeLock(); return; }
    wantWake = true;
    var hint = document.getElementById("wake-hint");
    var supported = ("wakeLock" in navigator) && window.isSecureContext;
    var dismissed = false;
    try { dismissed = localStorage.getItem("tc-wake-hint") === "dismissed"; } catch (e) { /* private mode */ }
    if (hint) hint.hidden = supported || dismissed;
    var close = document.getElementById("wake-hint-close");
    if (close) close.addEventListener("click", function () {
      hint.hidden = true;
      try { localStorage.setItem("tc-wake-hint", "dismissed"); } catch (e) { /* private mode */ }
    });
    requestWakeLock();
    // Some browsers only grant the lock after a user gesture.
    document.addEventListener("click", requestWakeLock, {passive: true});
  }

  /* ---------- the socket ---------- */

  var socket = null;
  var lastView = null;
  var graceTimer = null;
  var closed = false;       // no more play: the game is over or was ended
  var endedByHost = false;  // the `closed` message: the server lets this socket go
  var pendingAcks = 0;      // messages sent and not answered yet
  var disconnectWhenAnswered = false;  // `closed` came while answers were owed
  var renderFn = function () {};
  var viewListeners = [];   // shared page parts that follow every view (TC.onView)
  var rules = {};           // rule id -> {ref, text}: the last `rules` message

  /** A game that ended normally stays visible (final scores); one ended by the host is
   *  "closed". Both stop accepting actions. */
  function endState() {
    return lastView && lastView.view && lastView.view.over ? "finished" : "closed";
  }

  /* A view arrives whole ("view") or as the changes since the previous one ("patch",
   * companion/game/patches.py): ["s", path, value], ["d", path], ["t", path, n] (drop the first n
   * of a list), ["a", path, items] (append). A patch on another base asks for the whole view. */
  var lastRaw = null;   // the last view as received, never touched by a renderer
  var lastN = null;     // its number on this socket

  function clone(x) { return JSON.parse(JSON.stringify(x)); }

  function applyOps(doc, ops) {
    ops.forEach(function (op) {
      var path = op[1], parent = doc, i;
      if (op[0] === "s" && !path.length) { doc = op[2]; return; }
      for (i = 0; i < path.length - 1; i++) parent = parent[path[i]];
      var last = path[path.length - 1];
      if (op[0] === "s") parent[last] = op[2];
      else if (op[0] === "d") delete parent[last];
      else {
        var list = path.length ? parent[last] : doc;
        if (op[0] === "t") list.splice(0, op[2]);
        else Array.prototype.push.apply(list, op[2]);
      }
    });
    return doc;
  }

  function onWholeView(msg) {
    lastN = msg.n === undefined ? null : msg.n;
    lastRaw = msg;
    onView(clone(msg));
  }

  function onPatch(p) {
    if (lastRaw === null || p.base !== lastN) {
      if (socket) socket.emit("resync", {});
      return;
    }
    lastRaw = applyOps(clone(lastRaw), p.ops);
    lastN = p.n;
    onView(clone(lastRaw));
  }

  function onView(msg) {
    // Messages on one socket arrive in order, and a host's undo lowers `version`, so the
    // latest message always wins (a version check would ignore an undo).
    lastView = msg;
    if (toastVersion !== null && msg.version !== toastVersion) hideToast();  // stale now
    // A game over by its rules may come back (the host can undo), so follow each view;
    // a game the host ended stays closed.
    var wasClosed = closed;
    closed = endedByHost || !!msg.closed;
    if (wasClosed && !closed) setStatus("ok");
    document.body.dataset.paused = msg.paused ? "yes" : "no";
    try { renderFn(msg); } catch (e) {
      if (window.console) console.error(e);
      toast(t("render_failed"), "error");
    }
    if (closed) setStatus(endState());  // before the shared parts: the TV fits it in
    viewListeners.forEach(function (fn) {
      try { fn(msg); } catch (e) { if (window.console) console.error(e); }
    });
  }

  /** Call fn(msg) after the page's render, for every view (shared parts of a page). */
  function addViewListener(fn) { viewListeners.push(fn); }

  function start(options) {
    renderFn = options.render || renderFn;
    // the table display and the phones stay on during a game (where the browser allows it)
    if (config.role === "table" || config.role === "seat") keepAwake();
    if (!window.io) { setStatus("refused"); return null; }
    setStatus("connecting");
    var auth = Object.assign({}, readJSON("socket-auth", null) || config.auth || {});
    if (!auth.lang) auth.lang = lang;
    socket = window.io(config.socket_url || undefined, {
      auth: auth,
      path: config.socket_path || "/socket.io",
      reconnectionDelay: 500,
      reconnectionDelayMax: 4000
    });
    socket.on("connect", function () {
      clearTimeout(graceTimer); graceTimer = null;
      if (!closed) setStatus("ok");
      else setStatus(endState());
    });
    socket.on("disconnect", function (reason) {
      if (closed) return;
      if (reason === "io server disconnect") {
        // The server sent us away (game ended, seat taken back): it will not take us back
        // by itself. Try once more; a refusal lands in connect_error below.
        socket.connect();
      }
      clearTimeout(graceTimer);
      graceTimer = setTimeout(function () { if (!socket.connected && !closed) setStatus("reconnecting"); },
        RECONNECT_GRACE_MS);
    });
    socket.on("connect_error", function (err) {
      if (closed) return;
      if (!socket.active) {
        // Refused by the server's connect handler (not a network problem).
        var data = err && err.data;
        if (data && (data.code === "game_closed" || data.closed)) {
          closed = endedByHost = true;
          setStatus("closed");
        }
        else if (auth.for_seat) {
          // the host playing for a seat, refused (the seat's phone is back, logged out):
          // the server's reason, and no more tries
          closed = true;
          setStatus("refused");
          socket.disconnect();
        }
        else if (config.role === "seat") {
          // This phone holds no seat (the host gave the seat a new code): say so plainly and
          // stop trying; scanning the seat's code again is the way back.
          closed = true;
          setStatus("signedout");
          socket.disconnect();
          return;
        }
        else setStatus("refused");
        if (data && data.message) toast(data.message, "error");
        return;
      }
      if (!graceTimer) {
        graceTimer = setTimeout(function () { if (!socket.connected) setStatus("reconnecting"); },
          RECONNECT_GRACE_MS);
      }
    });
    // every rule of the game in the page's language, once per socket and language, before
    // its first view: views then cite a rule by its id alone (rules_cited.js)
    socket.on("rules", function (book) {
      if (book && book.rules && typeof book.rules === "object") rules = book.rules;
    });
    socket.on("view", onWholeView);
    socket.on("patch", onPatch);
    socket.on("refused", function (r) { toast(r.message || r.code, "error", r.rule); });
    socket.on("closed", function () {
      closed = true;
      endedByHost = true;
      setStatus(endState());
      if (options.onClosed) options.onClosed();
      // The host's own "End the game" is answered right after this message: let the
      // answers still owed arrive before letting the socket go (else "No answer").
      if (pendingAcks) disconnectWhenAnswered = true;
      else socket.disconnect();
    });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState !== "visible") return;
      // Phones drop the sockets of background tabs; come back at once.
      if (!closed && socket && !socket.connected) socket.connect();
      requestWakeLock();
    });
    window.addEventListener("online", function () {
      if (!closed && socket && !socket.connected) socket.connect();
    });
    return socket;
  }

  /** Send an action; resolves with the ack. Refusals are shown and resolve {ok: false}. */
  function act(action) {
    return emitWithAck("act", {action: action});
  }

  /** A preview (a card turned by hand, a tile tapped): the server takes one per connection
   *  every 0.1 s (companion/blueprints/sockets.py PREVIEW_EVERY) and refuses a faster one
   *  with "Too many attempts". So taps faster than PREVIEW_GAP_MS wait, and only the last
   *  is sent: what the table sees is the tile tapped last, and nothing is refused. */
  var PREVIEW_GAP_MS = 150, previewTimer = null, previewNext = null, previewAt = 0;
  function preview(payload) {
    previewNext = payload;
    if (previewTimer) return;
    previewTimer = setTimeout(function () {
      previewTimer = null;
      previewAt = Date.now();
      var next = previewNext;
      previewNext = null;
      emitWithAck("preview", next);
    }, Math.max(0, previewAt + PREVIEW_GAP_MS - Date.now()));
  }

  function emitWithAck(event, payload) {
    return new Promise(function (resolve) {
      if (!socket || !socket.connected) {
        toast(t("not_connected"), "error");
        resolve({ok: false, code: "not_connected"});
        return;
      }
      pendingAcks += 1;
      socket.timeout(ACK_TIMEOUT_MS).emit(event, payload, function (err, ack) {
        pendingAcks -= 1;
        if (disconnectWhenAnswered && !pendingAcks) {
          disconnectWhenAnswered = false;
          setTimeout(function () { socket.disconnect(); }, 0);
        }
        if (err) {
          toast(t("no_answer"), "error");
          resolve({ok: false, code: "timeout"});
          return;
        }
        ack = ack || {ok: false};
        if (!ack.ok) toast(ack.message || ack.code || t("refused"), "error", ack.rule);
        resolve(ack);
      });
    });
  }

  /** The table steps this phone's player does by hand now: the view's `steps` whose `who`
   *  is this seat (the round's cards to lay out, an architect to draw, the die to roll, a
   *  token to turn; companion/table/table_steps.py), none while paused, closed or over. */
  function myTableSteps(msg) {
    if (!msg || msg.role !== "seat" || msg.closed || msg.paused || (msg.view && msg.view.over)) return [];
    return (Array.isArray(msg.steps) ? msg.steps : []).filter(function (step) {
      return step && step.who === msg.seat && step.text;
    });
  }

  /** The phone's "Your turn" banner, the same at the top of every game's phone (#my-prompt):
   *  ``what`` (the game's words for this seat's own decisions) under "Your turn", the seat's
   *  ``colour`` across the banner and the top bar. A table step this seat owes (the view's
   *  `steps`) makes it this phone's turn too, whatever the game says (with the step's words
   *  where the game has none of its own): the phone of whoever owes a step never says
   *  "Waiting". ``what`` null and no step: not this phone's turn (the classes go; the game
   *  then says who is awaited). Returns whether it is this phone's turn. */
  function turnBanner(el, what, colour) {
    var steps = myTableSteps(lastView).map(function (step) { return step.text; });
    var words = what ? [what] : steps.filter(function (x, i) { return steps.indexOf(x) === i; });
    var mine = (what !== null && what !== undefined) || steps.length > 0;
    el.classList.toggle("my-turn", mine);
    if (mine) el.classList.remove("waiting");
    document.body.classList.toggle("my-turn", mine);
    if (colour) {
      document.body.style.setProperty("--pc", colour);
      document.body.style.setProperty("--pc-ink", inkOn(colour));
    }
    if (mine) {
      replace(el, [h("span.turn-big", t("your_turn")),
        words.length ? h("span.turn-what", words.join(" · ")) : null]);
    }
    return mine;
  }

  /** Black or white, whichever reads better on ``colour`` (#rrggbb). */
  function inkOn(colour) {
    var m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(String(colour));
    if (!m) return "#ffffff";
    var lum = [m[1], m[2], m[3]].map(function (x) {
      var c = parseInt(x, 16) / 255;
      return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    });
    var l = 0.2126 * lum[0] + 0.7152 * lum[1] + 0.0722 * lum[2];
    // the higher WCAG contrast: white (L 1) against #1b1b1b (L 0.0116)
    return 1.05 / (l + 0.05) >= (l + 0.05) / 0.0616 ? "#ffffff" : "#1b1b1b";
  }

  /** The end of a game in one line: the view's `outcome` (the server's words: who won and
   *  why, a tie and its tie-break), else who won (or shared the win) with how many points, from
   *  the scores rows of any game ({seat, rank, vp}: rank 1 wins, docs/engine.md; a row's
   *  own "winner", where a game gives one, decides); ``nameOf(seat)`` names a seat. A game
   *  says its unit by giving "wins_line" and "shared_line" in its own UI strings, each a
   *  text with {names} and {vp} or a plural entry ({n}: the points). */
  function winnerLine(scores, nameOf) {
    // the server's words where it gives them: a tie and how the tie-break broke it or not
    if (lastView && lastView.outcome) return lastView.outcome;
    var rows = (scores || []).filter(function (r) {
      return r.winner === undefined ? r.rank === 1 : r.winner === true;
    });
    if (!rows.length) return t("game_over");
    var names = rows.map(function (r) { return nameOf(r.seat); }).join(", ");
    return t(rows.length > 1 ? "shared_line" : "wins_line",
      {names: names, vp: rows[0].vp, n: rows[0].vp});
  }

  function setLang(newLang) {
    if (socket && socket.connected) socket.emit("set_lang", {lang: newLang});
  }

  window.TC = {
    config: config, lang: lang, t: t, tn: tn, counted: counted, countWord: countWord, fmt: fmt, name: name,
    h: h, replace: replace, on: on, toast: toast, setStatus: setStatus,
    start: start, onView: addViewListener, act: act, emitWithAck: emitWithAck, preview: preview, setLang: setLang,
    keepAwake: keepAwake, winnerLine: winnerLine, turnBanner: turnBanner, inkOn: inkOn,
    game: {},  // hooks a game's scripts set for the shared page scripts (docs/ui.md)
    get socket() { return socket; },
    get rules() { return rules; },
    get view() { return lastView; }
  };
})();
