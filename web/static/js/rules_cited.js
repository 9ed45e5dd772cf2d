/* Every rule cited (docs/rules-cited.md): a "Why?" beside each refusal and log line on the
 * phones (tap: the rulebook reference and the rule in the page's language), and the rule of
 * the step owed now in the top bar of the table display. Knows no game: views cite the rule
 * of every log entry, prompt and refused choice by its id (`rule: "income"`, or null), and
 * the socket's `rules` message (client.js: TC.rules) holds each rule's reference and text in
 * the page's language; a refused act's ack carries its rule whole, {id, ref, text}. */
(function () {
  "use strict";
  var h = TC.h;

  /** {id, ref, text} of a rule given whole or by its id; null when there is none. */
  function lookup(rule) {
    if (typeof rule !== "string") return rule || null;
    var book = TC.rules;
    var found = Object.prototype.hasOwnProperty.call(book, rule) ? book[rule] : null;
    return found ? {id: rule, ref: found.ref, text: found.text} : null;
  }

  function ruleLine(rule) {
    return [rule.ref ? h("b.rule-ref", rule.ref) : null, rule.ref ? " " : null, rule.text];
  }

  /** A "Why?" disclosure for `rule`, or null when there is none (the table display is not
   *  tapped: it shows the current step's rule instead). Games put it beside a log line:
   *  h("li", e.text, TC.why(e.rule)); the shared client puts it in a refusal's toast. */
  function why(cited) {
    var rule = lookup(cited);
    if (!rule || !rule.text || TC.config.role === "table") return null;
    return h("details.rule-why", {dataset: {rule: rule.id || ""}},
      h("summary", TC.t("why")),
      h("p.rule-text", ruleLine(rule)));
  }

  /** The table display: the rule of the first decision owed now, in the top bar's free
   *  middle (the board below keeps all its height: the TV never scrolls), else under the
   *  turn banner. */
  function stepRule(msg) {
    var el = document.getElementById("step-rule");
    if (!el) {
      var spacer = document.querySelector(".topbar .spacer");
      var banner = document.getElementById("prompt");
      var before = spacer || (banner && banner.nextSibling);
      if (!before) return;
      el = h("p.step-rule", {id: "step-rule"});
      before.parentNode.insertBefore(el, before);
    }
    var first = (Array.isArray(msg.prompts) ? msg.prompts : [])[0];
    var rule = lookup(first && first.rule);
    el.hidden = !(rule && rule.text) || !!(msg.view && msg.view.over);
    TC.replace(el, rule && rule.text ? [h("span.rule-label", TC.t("rule_of_step")), " ",
      ruleLine(rule)] : []);
  }

  TC.why = why;
  TC.rule = lookup;
  if (TC.config.role === "table") TC.onView(stepRule);
})();
