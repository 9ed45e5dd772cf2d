/* "Your deck" (web/templates/deck.html): the owner's own cards of one game. Knows no game:
 * every form is built from the part's JSON Schema and the entry's own fields
 * (/host/<id>/deck/data.json); every check is the server's (the same checks as
 * `companion catalog check`), run as the owner types and again on saving. */
(function () {
  "use strict";
  var root = document.getElementById("deck");
  var config = JSON.parse(document.getElementById("page-config").textContent || "{}");
  var gameId = root.dataset.game, deckOf = root.dataset.deck, camera = root.dataset.camera === "yes";
  var base = "/host/" + gameId + "/deck";
  var LANGS = ["en", "it", "pl", "es", "de"];
  var data = null, open = null, timer = null;
  var expanded = {};  // the parts the owner has unfolded stay unfolded across reloads

  var t = TC.t, el = TC.h;  // the shared client's strings and element builder (client.js)
  function post(path, body) {
    return fetch(base + path, {method: "POST", credentials: "same-origin", body: JSON.stringify(body),
      headers: {"Content-Type": "application/json", "X-CSRF-Token": config.csrf_token, "Accept": "application/json"}})
      .then(function (r) { return r.json().catch(function () { return {ok: false, problems: [{message: r.statusText}]}; }); });
  }
  /* the status line under a panel (#deck-notice unless another is named): red when refused */
  function notice(text, bad, id) {
    var n = document.getElementById(id || "deck-notice");
    n.textContent = text;
    n.className = "small " + (bad ? "why" : "ok-text");
  }
  function problems(res) { return (res.problems || []).map(function (p) { return p.message; }).join(" · "); }
  // the page's other panels (deck_dice.js, loaded after this) post and report the same way
  TC.deck = {post: post, notice: notice, problems: problems};

  /* ---------- the list ---------- */

  function load() {
    return fetch(base + "/data.json?game=" + encodeURIComponent(deckOf), {credentials: "same-origin"})
      .then(function (r) { return r.json(); }).then(function (d) {
        data = d;
        if (!d.ok) { notice(problems(d), true); return; }
        render();
      });
  }

  function stateOf(part, entry) {
    var st = data.status.parts.filter(function (p) { return p.part === part.id; })[0] || {};
    var key = String(entry[part.key]);
    var entered = (st.entered_ids || []).map(String).indexOf(key) >= 0;
    var troubled = (data.status.problems || []).some(function (p) { return String(p.entry) === key; });
    if (entered) return entry.demo || troubled ? "entered" : "checked";
    return entry.demo ? "demo" : "fact";
  }

  function entryName(entry) {
    var names = entry.names || {};
    return names[config.lang] || names.en || String(entry.id);
  }

  function render() {
    var st = data.status;
    document.getElementById("deck-title").textContent = st.title;
    var list = document.getElementById("deck-progress");
    list.textContent = "";
    st.parts.forEach(function (p) {
      list.appendChild(el("li", {"data-part": p.part, text: p.progress.text +
        (p.demo ? " · " + t("deck_demo_left", {n: p.demo}) : "")}));
    });
    var probs = document.getElementById("deck-problems");
    probs.textContent = problems(st);
    var parts = document.getElementById("deck-parts");
    parts.textContent = "";
    data.parts.forEach(function (part) {
      var title = (st.parts.filter(function (p) { return p.part === part.id; })[0] || {}).title_text || part.id;
      var section = el("details", {"class": "panel deck-part", "data-part": part.id,
        open: !!expanded[part.id] || !!(open && open.part === part.id),
        ontoggle: function () { expanded[part.id] = section.open; }});
      section.appendChild(el("summary", {text: title}));
      if (Array.isArray(part.entries)) {
        var ul = el("ul", {"class": "deck-entries"});
        part.entries.forEach(function (entry) {
          var state = stateOf(part, entry);
          var li = el("li", {"data-entry": String(entry[part.key]), "class": "deck-entry"}, [
            el("button", {type: "button", "class": "secondary deck-open", onclick: function () { edit(part, entry); }},
              [entryName(entry)]),
            el("span", {"class": "deck-state state-" + state, text: t("deck_state_" + state)}),
            part.pictures.indexOf(String(entry[part.key])) >= 0 ? el("img", {"class": "deck-thumb", alt: "",
              src: base + "/picture/" + deckOf + "/" + entry[part.key] + ".jpg?" + Date.now()}) : null
          ]);
          ul.appendChild(li);
          if (open && open.part === part.id && String(open.entry[part.key]) === String(entry[part.key])) li.appendChild(form(part, open.entry));
        });
        section.appendChild(ul);
        if (part.merge === "by_key" || part.nested) {
          section.appendChild(el("button", {type: "button", "class": "secondary deck-new", onclick: function () {
            var fresh = {}; fresh[part.key] = ""; fresh.names = {};
            edit(part, fresh, true);
          }}, [t("deck_new_entry")]));
          if (open && open.part === part.id && open.fresh) section.appendChild(form(part, open.entry));
        }
      } else if (part.schema && hasFields(part.schema)) {
        // a part that is one object (a board, a game's facts): one form of all of it
        var whole = wholePart(part, title);
        section.appendChild(el("button", {type: "button", "class": "secondary deck-edit-part", onclick: function () {
          edit(whole, part.entries || {});
        }}, [t("deck_edit_part")]));
        if (open && open.part === part.id) section.appendChild(form(open.partDef, open.entry));
      } else {
        section.appendChild(el("p", {"class": "small muted", text: t("deck_whole_part")}));
      }
      parts.appendChild(section);
    });
  }

  /** A part that is one object, seen as one entry whose fields are the part's sections. */
  function wholePart(part, title) {
    return Object.assign({}, part, {entry_schema: part.schema, whole: title, key: "\u0000",
      fields: part.schema["x-order"] || Object.keys(part.schema.properties), stickers: false});
  }

  function edit(part, entry, fresh) {
    open = {part: part.id, entry: JSON.parse(JSON.stringify(entry)), fresh: !!fresh, partDef: part};
    render();
    var f = document.getElementById("deck-form");
    if (f) { f.scrollIntoView({block: "nearest"}); var first = f.querySelector("input, select, textarea"); if (first) first.focus(); }
  }

  /* ---------- the form of one entry ---------- */

  function schemaOf(part, field) {
    var s = part.entry_schema || {};
    return (s.properties || {})[field] || null;
  }

  function isLangMap(v) {
    return v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).every(function (k) { return LANGS.indexOf(k) >= 0; });
  }

  function label(part, field) {
    var sch = schemaOf(part, field);
    return sch && typeof sch.title === "string" ? sch.title : field;
  }

  /* The values a schema allows, with their labels: an enum, or a oneOf of consts with titles. */
  function choices(sch) {
    if (!sch) return null;
    if (Array.isArray(sch["enum"])) return sch["enum"].map(function (v) { return {value: v, label: v === null ? "–" : String(v)}; });
    if (Array.isArray(sch.oneOf) && sch.oneOf.length && sch.oneOf.every(function (o) { return o && "const" in o; })) {
      return sch.oneOf.map(function (o) { return {value: o["const"], label: o.title || String(o["const"])}; });
    }
    return null;
  }

  function choiceSelect(attrs, list, value) {
    var known = list.some(function (c) { return JSON.stringify(c.value) === JSON.stringify(value); });
    if (!known && value !== undefined) list = [{value: value, label: String(value)}].concat(list);  // never changed unseen
    return el("select", attrs, list.map(function (c) {
      return el("option", {value: JSON.stringify(c.value), selected: JSON.stringify(c.value) === JSON.stringify(value)}, [c.label]);
    }));
  }

  /* ---------- structured values: objects with known fields, lists of kinds of things ---------- */

  var LANG_NAMES = {en: "English", it: "Italiano", pl: "Polski", es: "Español", de: "Deutsch"};

  /** The variants of a list's items: a oneOf of objects told apart by a "type" const. */
  function variantsOf(sch) {
    var items = sch && sch.items;
    var list = items && items.oneOf;
    if (!Array.isArray(list) || !list.length) return null;
    var ok = list.every(function (v) { return v && v.properties && v.properties.type && "const" in v.properties.type; });
    return ok ? list : null;
  }
  function hasFields(sch) { return !!(sch && sch.properties && Object.keys(sch.properties).length); }
  /** The editor of a list the schema describes item by item (objects, choices, words or
   *  numbers), else null. */
  function isTuple(sch) {  // a short list of choices of a fixed length (a swap: give, get)
    return !!(sch && choices(sch.items) && sch.minItems && sch.minItems === sch.maxItems && sch.maxItems <= 12);
  }
  function listEditor(sch) {
    if ([].concat(sch.type || []).indexOf("array") < 0 || !sch.items) return null;
    if (hasFields(sch.items)) return objectList;
    if (isTuple(sch.items)) return tupleList;
    if (choices(sch.items)) return choiceSet;
    var itemTypes = [].concat(sch.items.type || []);
    return itemTypes.indexOf("string") >= 0 || itemTypes.indexOf("integer") >= 0 ? scalarList : null;
  }
  /** The kinds of value a field may take when they differ in shape (a list or one word, a
   *  number or a list of numbers): a oneOf whose items are not all consts. */
  function alternativesOf(sch) {
    var list = sch && sch.oneOf;
    if (!Array.isArray(list) || list.length < 2 || choices(sch)) return null;
    return list.every(function (a) { return a && typeof a === "object"; }) ? list : null;
  }
  function fits(alt, value) {
    if (value === undefined) return false;
    if ("const" in alt) return JSON.stringify(alt["const"]) === JSON.stringify(value);
    if (value === null) return false;
    var types = [].concat(alt.type || []);
    if (Array.isArray(value)) return types.indexOf("array") >= 0;
    if (typeof value === "number") return types.indexOf(Number.isInteger(value) ? "integer" : "number") >= 0 || types.indexOf("number") >= 0;
    if (typeof value === "object") return types.indexOf("object") >= 0;
    return types.indexOf(typeof value) >= 0;
  }
  /** One choice list of the kinds, then the editor of the kind chosen. */
  function alternativeEditor(sch, value, name) {
    var alts = alternativesOf(sch);
    var at = alts.map(function (a) { return fits(a, value); }).indexOf(true);
    var box = el("div", {"class": "deck-object", role: "group", "aria-label": name});
    var pick = el("select", {"aria-label": name + ": " + t("deck_kind")}, alts.map(function (a, i) {
      return el("option", {value: String(i), selected: i === Math.max(at, 0)}, [a.title || String(i)]);
    }));
    var holder = el("div");
    var current = null;
    function draw(keep) {
      var alt = alts[Number(pick.value)];
      holder.textContent = "";
      current = "const" in alt ? null : editor(alt, keep, name);
      if (current) holder.appendChild(current.node);
    }
    pick.addEventListener("change", function () { draw(undefined); });
    box.appendChild(pick);
    box.appendChild(holder);
    draw(at >= 0 ? value : undefined);
    return {node: box, read: function () {
      var alt = alts[Number(pick.value)];
      if ("const" in alt) return {value: alt["const"], empty: false};
      var r = current.read();
      return r.bad ? r : {value: r.value, empty: r.empty};
    }};
  }

  function structured(sch) {
    if (alternativesOf(sch)) return true;
    if (variantsOf(sch) || ([].concat(sch.type || []).indexOf("object") >= 0 && hasFields(sch))) return true;
    // a fixed-length list of choices is one choice list a place (a card's corners)
    return !!listEditor(sch) && !(choices(sch.items) && sch.minItems && sch.minItems === sch.maxItems);
  }
  function isLangSchema(sch) {
    return sch && !hasFields(sch) && sch.additionalProperties && sch.additionalProperties.type === "string";
  }

  /** One box per language; a "text" is long (several lines), anything else one line. */
  function langMap(value, name, long) {
    var box = el("div", {"class": "lang-map"});
    LANGS.forEach(function (lang) {
      var input = el(long ? "textarea" : "input", {type: long ? null : "text", "data-lang": lang, rows: long ? 2 : null,
        "aria-label": name + " (" + lang + ")", maxlength: long ? null : 200, placeholder: LANG_NAMES[lang]});
      input.value = (value || {})[lang] || "";
      box.appendChild(el("label", {"class": "lang-row"}, [el("span", {"class": "small muted", text: LANG_NAMES[lang]}), input]));
    });
    return {node: box, read: function () {
      var map = {};
      box.querySelectorAll("[data-lang]").forEach(function (i) { if (i.value.trim()) map[i.dataset.lang] = i.value.trim(); });
      return {value: map, empty: !Object.keys(map).length};
    }};
  }

  /** An editor of any value the schema describes: {node, read() -> {value, empty, bad}}.
   *  ``key`` is the value's key in its object ("text" is long). */
  function editor(sch, value, name, key) {
    sch = sch || {};
    var types = [].concat(sch.type || []);
    var list = choices(sch);
    if (list) {
      var sel = choiceSelect({"aria-label": name}, [{value: null, label: "–"}].concat(list), value === undefined ? null : value);
      return {node: sel, read: function () { var v = JSON.parse(sel.value); return {value: v, empty: v === null}; }};
    }
    if (alternativesOf(sch)) return alternativeEditor(sch, value, name);
    if (isTuple(sch)) return tupleEditor(sch, value, name);
    if (variantsOf(sch)) return variantList(sch, value, name);
    if (hasFields(sch)) return objectEditor(sch, value, name);
    var list = listEditor(sch);
    if (list) return list(sch, value, name);
    if (isLangSchema(sch) || isLangMap(value)) return langMap(value, name, key === "text");
    if (types.indexOf("boolean") >= 0) {
      var box2 = el("input", {type: "checkbox", "aria-label": name, checked: value === true});
      // an unticked box is left out, unless the value was there (a "false" stays "false")
      return {node: box2, read: function () { return {value: box2.checked, empty: !box2.checked && value !== false}; }};
    }
    if (types.indexOf("integer") >= 0 || types.indexOf("number") >= 0) {
      var num = el("input", {type: "number", "aria-label": name, step: types.indexOf("integer") >= 0 ? "1" : "any",
        min: sch.minimum, max: sch.maximum, value: typeof value === "number" ? value : ""});
      return {node: num, read: function () { return {value: num.value === "" ? null : Number(num.value), empty: num.value === ""}; }};
    }
    if (types.indexOf("string") >= 0) {
      var txt = el("input", {type: "text", "aria-label": name, maxlength: sch.maxLength});
      txt.value = typeof value === "string" ? value : "";
      return {node: txt, read: function () { return {value: txt.value, empty: txt.value === ""}; }};
    }
    var area = el("textarea", {rows: 2, "aria-label": name});
    area.value = value === undefined ? "" : JSON.stringify(value);
    return {node: area, read: function () {
      if (area.value.trim() === "" || area.value.trim() === "null") return {value: null, empty: true};
      try { return {value: JSON.parse(area.value), empty: false}; } catch (e) { return {bad: true}; }
    }};
  }

  /** An object's known fields, each labelled by its title; empty fields stay out. */
  function objectEditor(sch, value, name, skip) {
    value = value && typeof value === "object" && !Array.isArray(value) ? value : {};
    var keys = sch["x-order"] || Object.keys(sch.properties);
    var bag = keys.every(function (k) { return [].concat((sch.properties[k] || {}).type || []).indexOf("integer") >= 0; });
    var box = el("div", {"class": "deck-object" + (bag ? " deck-bag" : ""), role: "group", "aria-label": name});
    var subs = [];
    keys.forEach(function (key) {
      if (key === skip) return;
      var sub = sch.properties[key] || {};
      var title = typeof sub.title === "string" ? sub.title : key === "demo" ? t("deck_demo_field") : key;
      var ed = editor(sub, value[key], title, key);
      ed.node.dataset.sub = key;
      subs.push({key: key, ed: ed});
      box.appendChild(el("label", {"class": "deck-sub"}, [el("span", {text: title}), ed.node]));
    });
    // what the schema does not describe is shown too (as its value), never dropped
    Object.keys(value).forEach(function (key) {
      if (keys.indexOf(key) >= 0 || key === skip) return;
      var ed = editor({}, value[key], key, key);
      ed.node.dataset.sub = key;
      subs.push({key: key, ed: ed});
      box.appendChild(el("label", {"class": "deck-sub deck-wide"}, [el("span", {text: key}), ed.node]));
    });
    return {node: box, read: function () {
      var out = {}, bad = false;
      subs.forEach(function (s) {
        var r = s.ed.read();
        if (r.bad) bad = true;
        else if (!r.empty) out[s.key] = r.value;
      });
      return bad ? {bad: true} : {value: out, empty: !Object.keys(out).length};
    }};
  }

  /** A list the owner may grow and shrink: ``build(item, li, remove)`` fills one row's
   *  item and returns the row; ``read(row)`` gives {value} or {bad}. */
  function growingList(value, build, read) {
    var box = el("div", {"class": "deck-variants"});
    var items = el("ol", {"class": "deck-variant-list"});
    var rows = [];
    function addRow(item) {
      var li = el("li", {"class": "deck-variant"});
      var row = build(item, li, function () {
        rows.splice(rows.indexOf(row), 1);
        items.removeChild(li);
      });
      rows.push(row);
      items.appendChild(li);
    }
    (Array.isArray(value) ? value : []).forEach(addRow);
    box.appendChild(items);
    box.appendChild(el("button", {type: "button", "class": "secondary deck-add", onclick: function () { addRow(null); }},
      [t("deck_add_item")]));
    return {node: box, read: function () {
      var out = [], bad = false;
      rows.forEach(function (row) { var r = read(row); if (r.bad) bad = true; else out.push(r.value); });
      return bad ? {bad: true} : {value: out, empty: !out.length};
    }};
  }

  function removeButton(remove) {
    return el("button", {type: "button", "class": "secondary small-btn", onclick: remove}, [t("deck_remove")]);
  }

  /** A list of things of several kinds (an event card's effects): each a kind and its fields. */
  function variantList(sch, value, name) {
    var variants = variantsOf(sch);
    var kinds = variants.map(function (v) { return v.properties.type["const"]; });
    return growingList(value, function (item, li, remove) {
      var row = {value: item || {type: kinds[0]}};
      var kindSel = el("select", {"aria-label": name + ": " + t("deck_kind")}, variants.map(function (v, i) {
        return el("option", {value: kinds[i], selected: kinds[i] === row.value.type}, [v.title || kinds[i]]);
      }));
      if (kinds.indexOf(row.value.type) < 0) kindSel.insertBefore(el("option", {value: row.value.type, selected: true}, [String(row.value.type)]), kindSel.firstChild);
      var fields = el("div");
      function draw() {
        var v = variants[kinds.indexOf(kindSel.value)];
        fields.textContent = "";
        row.ed = v ? objectEditor(v, row.value, v.title || kindSel.value, "type") : editor({}, row.value, name);
        fields.appendChild(row.ed.node);
      }
      kindSel.addEventListener("change", function () {
        var kept = row.ed.read();  // the fields both kinds have keep their values
        row.value = Object.assign({}, kept.value || {}, {type: kindSel.value});
        draw();
      });
      li.appendChild(el("div", {"class": "row"}, [kindSel, removeButton(remove)]));
      li.appendChild(fields);
      row.kind = kindSel;
      draw();
      return row;
    }, function (row) {
      var r = row.ed.read();
      return r.bad ? r : {value: Object.assign({type: row.kind.value}, r.value || {})};
    });
  }

  /** A list of objects of one shape (a board's monasteries, their buildings): each its
   *  fields, with "Add one" and "Remove". */
  function objectList(sch, value, name) {
    return growingList(value, function (item, li, remove) {
      var row = {ed: objectEditor(sch.items, item || {}, name)};
      li.appendChild(row.ed.node);
      li.appendChild(el("div", {"class": "row"}, [removeButton(remove)]));
      return row;
    }, function (row) {
      var r = row.ed.read();
      return r.bad ? r : {value: r.value || {}};
    });
  }

  /** A fixed number of choices in order (a swap: what is given, what is got): a list each. */
  function tupleEditor(sch, value, name) {
    var row = el("div", {"class": "row deck-list", role: "group", "aria-label": name});
    var sels = [];
    for (var i = 0; i < sch.maxItems; i++) {
      var sel = choiceSelect({"aria-label": name + " " + (i + 1)}, choices(sch.items),
        Array.isArray(value) ? value[i] : undefined);
      sels.push(sel);
      row.appendChild(sel);
    }
    return {node: row, read: function () {
      return {value: sels.map(function (x) { return JSON.parse(x.value); }), empty: false};
    }};
  }

  /** A list of such fixed lists (a tile's swaps), with "Add one" and "Remove". */
  function tupleList(sch, value, name) {
    var title = sch.items.title || name;
    return growingList(value, function (item, li, remove) {
      var row = {ed: tupleEditor(sch.items, item, title)};
      li.appendChild(el("div", {"class": "row"}, [row.ed.node, removeButton(remove)]));
      return row;
    }, function (row) { return row.ed.read(); });
  }

  /** A list of values from a choice list (the monasteries a road space reaches): a box each. */
  function choiceSet(sch, value, name) {
    var list = choices(sch.items);
    var box = el("div", {"class": "row deck-set", role: "group", "aria-label": name});
    var have = (Array.isArray(value) ? value : []).map(function (v) { return JSON.stringify(v); });
    var boxes = list.map(function (c) {
      var input = el("input", {type: "checkbox", checked: have.indexOf(JSON.stringify(c.value)) >= 0});
      input._value = c.value;
      box.appendChild(el("label", {"class": "inline"}, [input, " " + c.label]));
      return input;
    });
    return {node: box, read: function () {
      // the values kept in the order they had, the newly ticked ones after them
      var ticked = boxes.filter(function (b) { return b.checked; });
      var rank = function (b) { var i = have.indexOf(JSON.stringify(b._value)); return i < 0 ? have.length + boxes.indexOf(b) : i; };
      var out = ticked.sort(function (a, b) { return rank(a) - rank(b); }).map(function (b) { return b._value; });
      return {value: out, empty: !out.length};
    }};
  }

  /** A short list of words or numbers, written "a, b, c". */
  function scalarList(sch, value, name) {
    var itemTypes = [].concat(sch.items.type || []);
    var numbers = itemTypes.indexOf("string") < 0;
    if (numbers && sch.minItems && sch.minItems === sch.maxItems && sch.maxItems <= 6) {
      var row = el("div", {"class": "row deck-list", role: "group", "aria-label": name});
      var boxes = [];
      for (var i = 0; i < sch.maxItems; i++) {
        var n = el("input", {type: "number", step: "1", min: sch.items.minimum, max: sch.items.maximum,
          "aria-label": name + " " + (i + 1), style: "width: 6em",
          value: Array.isArray(value) && typeof value[i] === "number" ? value[i] : ""});
        boxes.push(n);
        row.appendChild(n);
      }
      return {node: row, read: function () {
        if (boxes.some(function (b) { return b.value !== "" && !/^-?\d+$/.test(b.value); })) return {bad: true};
        var out = boxes.map(function (b) { return b.value === "" ? null : Number(b.value); });
        var empty = out.every(function (v) { return v === null; });
        return {value: empty ? [] : out, empty: empty};
      }};
    }
    var input = el("input", {type: "text", "aria-label": name, inputmode: numbers ? "numeric" : null});
    input.value = (Array.isArray(value) ? value : []).join(", ");
    return {node: input, read: function () {
      var parts = input.value.split(",").map(function (x) { return x.trim(); }).filter(function (x) { return x !== ""; });
      if (numbers && parts.some(function (x) { return !/^-?\d+$/.test(x); })) return {bad: true};
      var out = numbers ? parts.map(Number) : parts;
      return {value: out, empty: !out.length};
    }};
  }

  function fieldInput(part, field, value) {
    var sch = schemaOf(part, field) || {};
    var types = [].concat(sch.type || []);
    var id = "f-" + field;
    function asField(ed) {  // readForm asks it for its value
      ed.node.id = id;
      ed.node.dataset.field = field;
      ed.node.dataset.kind = "editor";
      ed.node._read = ed.read;
      return ed.node;
    }
    if (structured(sch)) return asField(editor(sch, value, label(part, field), field));
    var list = choices(sch);
    if (list) return choiceSelect({id: id, "data-field": field, "data-kind": "json"}, list, value);
    var items = choices(sch.items);
    if (items && types.indexOf("array") >= 0 && sch.minItems && sch.minItems === sch.maxItems && sch.maxItems <= 12) {
      var row = el("div", {"class": "row deck-list", id: id, "data-field": field, "data-kind": "list"});
      for (var i = 0; i < sch.maxItems; i++) {
        row.appendChild(choiceSelect({"data-item": i, "aria-label": label(part, field) + " " + i}, items.slice(),
          Array.isArray(value) ? value[i] : undefined));
      }
      return row;
    }
    if (typeof value === "boolean" || types.indexOf("boolean") >= 0) {
      return el("input", {type: "checkbox", id: id, "data-field": field, "data-kind": "bool", checked: !!value});
    }
    var numeric = types.indexOf("integer") >= 0 || types.indexOf("number") >= 0;
    if (typeof value === "number" || (numeric && typeof value !== "string" && types.indexOf("string") < 0)) {
      return el("input", {type: "number", id: id, "data-field": field, "data-kind": "number", value: value === undefined || value === null ? "" : value,
        step: types.indexOf("integer") >= 0 ? "1" : "any", min: sch.minimum, max: sch.maximum});
    }
    if (isLangMap(value) || field === "names" || field === "text") return asField(langMap(value, label(part, field), field === "text"));
    if (typeof value === "string" || types.indexOf("string") >= 0) {
      var inp = el("input", {type: "text", id: id, "data-field": field, "data-kind": "text", maxlength: sch.maxLength});
      inp.value = value === undefined || value === null ? "" : String(value);
      return inp;
    }
    var area = el("textarea", {id: id, "data-field": field, "data-kind": "json", rows: 3});
    area.value = JSON.stringify(value === undefined ? null : value);
    return area;
  }

  function readForm(f) {
    var entry = JSON.parse(JSON.stringify(open.entry));
    var bad = null;
    f.querySelectorAll("[data-field]").forEach(function (input) {
      var field = input.dataset.field, kind = input.dataset.kind;
      var absent = !(field in open.entry);
      // a field the entry does not have stays out while it is left empty
      if (absent && (kind === "text" || kind === "number") && input.value === "") return;
      if (absent && kind === "json" && (input.value === "null" || input.value === "")) return;
      if (absent && kind === "bool" && !input.checked) return;
      if (kind === "editor") {
        var r = input._read();
        if (r.bad) { bad = field; return; }
        if (!(absent && r.empty)) entry[field] = r.value;
        return;
      }
      if (kind === "list") {
        entry[field] = Array.prototype.map.call(input.querySelectorAll("select"), function (sel) { return JSON.parse(sel.value); });
        return;
      }
      if (kind === "bool") entry[field] = input.checked;
      else if (kind === "number") entry[field] = input.value === "" ? null : Number(input.value);
      else if (kind === "text") {
        var v = input.value;
        entry[field] = (field === open.partDef.key && /^\d+$/.test(v) && typeof open.entry[field] === "number") ? Number(v) : v;
      } else {
        try { entry[field] = JSON.parse(input.value); } catch (e) { bad = field; }
      }
    });
    return {entry: entry, bad: bad};
  }

  function showProblems(f, problems) {
    f.querySelectorAll(".field-why").forEach(function (x) { x.textContent = ""; });
    f.querySelectorAll(".field.has-problem").forEach(function (x) { x.classList.remove("has-problem"); });
    var general = [];
    (problems || []).forEach(function (p) {
      var box = p.field ? f.querySelector(".field[data-name='" + String(p.field).split(/[.\[]/)[0] + "'] .field-why") : null;
      var mine = p.entry === null || p.entry === undefined || String(p.entry) === String(open.entry[open.partDef.key]);
      if (box && mine) { box.textContent = p.message; box.parentNode.classList.add("has-problem"); }
      else general.push(p.message);
    });
    f.querySelector(".form-why").textContent = general.join(" · ");
    f.querySelector(".deck-save").disabled = !!(problems && problems.length);
  }

  function check(f) {
    if (!open || document.getElementById("deck-form") !== f) return;  // closed meanwhile
    var r = readForm(f);
    if (r.bad) { showProblems(f, [{field: r.bad, entry: null, message: t("deck_bad_json", {field: r.bad})}]); return; }
    post("/check", {game: deckOf, part: open.part, entry: r.entry}).then(function (res) {
      if (open && document.getElementById("deck-form") === f) {
        showProblems(f, res.problems);
        f.dataset.checked = res.ok ? "ok" : "problems";
      }
    });
  }

  function form(part, entry) {
    var fields = (part.fields || Object.keys((part.entry_schema || {}).properties || {})).concat(Object.keys(entry))
      .filter(function (k, i, all) { return all.indexOf(k) === i && k !== "demo" && k !== "demo_fields"; });
    var f = el("form", {id: "deck-form", "class": "deck-form", "data-entry": part.whole ? "whole" : String(entry[part.key]), novalidate: true});
    fields.forEach(function (field) {
      var input = fieldInput(part, field, entry[field]);
      // an entry's key names it: changing it would make another entry (one adds a card)
      if (field === part.key && !open.fresh) input.setAttribute("readonly", "");
      var flag = input.getAttribute("type") === "checkbox";  // its label is its tap target
      var wrap = el("div", {"class": "field", "data-name": field}, [
        flag ? el("label", {"class": "inline", "for": "f-" + field}, [input, " " + label(part, field)])
          : el("label", {"for": "f-" + field, text: label(part, field)}),
        flag ? null : input,
        el("div", {"class": "field-why why small", role: "alert"})]);
      f.appendChild(wrap);
    });
    f.appendChild(el("p", {"class": "form-why why"}));
    var row = el("div", {"class": "row"}, [
      el("button", {type: "submit", "class": "deck-save"}, [t("deck_save")]),
      el("button", {type: "button", "class": "secondary deck-close", onclick: function () { open = null; render(); }}, [t("deck_close")])
    ]);
    if (part.stickers && !open.fresh) {
      row.appendChild(el("button", {type: "button", "class": "secondary deck-photo", disabled: !camera, title: camera ? "" : t("deck_no_camera"),
        onclick: function () { photograph(f, part, entry); }}, [t("deck_photo")]));
      row.appendChild(el("a", {"class": "button secondary", target: "_blank",
        href: base + "/stickers.pdf?game=" + encodeURIComponent(deckOf) + "&entries=" + encodeURIComponent(entry[part.key])}, [t("deck_sticker")]));
    }
    f.appendChild(row);
    f.appendChild(el("div", {"class": "deck-picture"}, part.pictures.indexOf(String(entry[part.key])) >= 0 ? [el("img", {alt: entryName(entry),
      src: base + "/picture/" + deckOf + "/" + entry[part.key] + ".jpg?" + Date.now()})] : []));
    f.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { check(f); }, 300);
    });
    f.addEventListener("submit", function (e) {
      e.preventDefault();
      clearTimeout(timer);
      var r = readForm(f);
      if (r.bad) { check(f); return; }
      post("/save", {game: deckOf, part: open.part, entry: r.entry}).then(function (res) {
        if (!res.ok) { if (open) showProblems(f, res.problems); notice(t("deck_not_saved"), true); return; }
        notice(t("deck_saved", {name: open.partDef.whole || entryName(r.entry)}));
        open = null;
        load();
      });
    });
    return f;
  }

  function photograph(f, part, entry) {
    post("/photo", {game: deckOf, part: part.id, entry: {id: entry[part.key]}}).then(function (res) {
      if (!res.ok) { if (open) showProblems(f, res.problems); return; }
      var box = f.querySelector(".deck-picture");
      box.textContent = "";
      box.appendChild(el("img", {alt: entryName(entry), src: res.url + "?" + Date.now()}));
      notice(t("deck_photo_kept"));
      if (part.pictures.indexOf(String(entry[part.key])) < 0) part.pictures.push(String(entry[part.key]));
    });
  }

  document.getElementById("deck-import").addEventListener("change", function (e) {
    var file = e.target.files[0];
    if (!file) return;
    file.text().then(function (text) {
      return fetch(base + "/import?game=" + encodeURIComponent(deckOf), {method: "POST", credentials: "same-origin", body: text,
        headers: {"Content-Type": "application/json", "X-CSRF-Token": config.csrf_token}}).then(function (r) { return r.json(); });
    }).then(function (res) {
      if (!res.ok) { notice(t("deck_import_refused") + " " + problems(res), true); return; }
      notice(t("deck_imported"));
      load();
    });
    e.target.value = "";
  });

  load();
})();
