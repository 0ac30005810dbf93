// The play page's script (issue 15): plain JavaScript, no build step, no framework.
// It relies only on the map's SVG contract: [data-province] shapes and [data-coast] elements
// with data-x/data-y anchors, units as g.unit[data-unit][data-power], order arrows in
// g.orders. The server reads and checks the orders
// (POST .../check); this script only offers the legal ones and draws them.
(function () {
  "use strict";
  // the start form: the power list shows the chosen map's powers only
  var variantEl = document.getElementById("variant");
  var powerEl = document.getElementById("power");
  if (variantEl && powerEl) {
    var showPowers = function () {
      var groups = powerEl.querySelectorAll("optgroup");
      for (var i = 0; i < groups.length; i++) {
        var mine = groups[i].getAttribute("data-variant") === variantEl.value;
        groups[i].hidden = !mine;
        groups[i].disabled = !mine;
      }
      var picked = powerEl.options[powerEl.selectedIndex];
      if (picked && picked.parentNode.disabled) { powerEl.value = ""; }
    };
    variantEl.addEventListener("change", showPowers);
    showPowers();
    return;
  }
  var board = document.getElementById("board");
  // at phone width a map scrolls sideways in its frame: open each one with the player's home
  // centres in view (Youngstown's Asian powers are far off to the right)
  var homes = board ? (board.getAttribute("data-home") || "").split(" ").filter(Boolean) : [];
  function showHome(frame) {
    var map = frame.querySelector("svg");
    if (!map || frame.scrollWidth <= frame.clientWidth + 1 || !homes.length) { return; }
    var box = map.viewBox && map.viewBox.baseVal;
    if (!box || !box.width) { return; }
    var xs = homes.map(function (code) {
      var el = map.querySelector('[data-province="' + code + '"]');
      return el ? parseFloat(el.getAttribute("data-x")) : NaN;
    }).filter(function (x) { return !isNaN(x); });
    if (!xs.length) { return; }
    var middle = (Math.min.apply(null, xs) + Math.max.apply(null, xs)) / 2;
    var scale = map.getBoundingClientRect().width / box.width;
    frame.scrollLeft = Math.max(0, middle * scale - frame.clientWidth / 2);
  }
  document.querySelectorAll(".board").forEach(showHome);
  var dataEl = document.getElementById("play-data");
  if (!dataEl || !board) { return; }
  var data = JSON.parse(dataEl.textContent);
  var words = data.words;
  var svg = board.querySelector("svg");
  var textarea = document.getElementById("orders");
  var form = document.getElementById("orders-form");
  var menu = document.getElementById("menu");
  var options = document.getElementById("options");
  var hint = document.getElementById("hint");
  var draftList = document.getElementById("draft");
  var kind = data.phase.slice(-1);
  var NS = "http://www.w3.org/2000/svg";
  var state = { unit: null, action: null, other: null };
  var baseHint = hint.textContent;

  function prov(loc) { return loc.split("/")[0]; }
  function anchor(loc) {
    var el = svg.querySelector('[data-coast="' + loc + '"]') ||
             svg.querySelector('[data-province="' + prov(loc) + '"]');
    return el ? [parseFloat(el.getAttribute("data-x")), parseFloat(el.getAttribute("data-y"))] : null;
  }
  function locOfUnit(g) { return g.getAttribute("data-unit").split(" ")[1]; }
  // every legal order of a unit (or home centre): [canonical, line in the game's notation]
  function choicesFor(loc) { return data.choices[loc] || []; }

  // -- the draft: one line per unit, keyed by the unit's location (the order's second word)
  var draft = {};
  function keyOf(canonical) { return canonical === "WAIVE" ? "WAIVE" + Math.random() : canonical.split(" ")[1]; }
  function setOrder(choice) {
    draft[keyOf(choice[0])] = choice;
    clearSelection();
    check();
  }

  // -- drawing the draft on the map
  var layer = document.createElementNS(NS, "g");
  layer.setAttribute("class", "orders draft");
  svg.appendChild(layer);
  function line(a, b, dashed, colour) {
    if (!a || !b) { return; }
    var p = document.createElementNS(NS, "line");
    p.setAttribute("x1", a[0]); p.setAttribute("y1", a[1]);
    p.setAttribute("x2", b[0]); p.setAttribute("y2", b[1]);
    p.setAttribute("stroke", colour || "#111"); p.setAttribute("stroke-width", dashed ? 2 : 3.5);
    p.setAttribute("stroke-linecap", "round");
    if (dashed) { p.setAttribute("stroke-dasharray", "5 4"); }
    layer.appendChild(p);
    var head = document.createElementNS(NS, "circle");
    head.setAttribute("cx", b[0]); head.setAttribute("cy", b[1]); head.setAttribute("r", 4);
    head.setAttribute("fill", colour || "#111");
    layer.appendChild(head);
  }
  function ring(a, colour) {
    if (!a) { return; }
    var c = document.createElementNS(NS, "circle");
    c.setAttribute("cx", a[0]); c.setAttribute("cy", a[1]); c.setAttribute("r", 17);
    c.setAttribute("fill", "none"); c.setAttribute("stroke", colour); c.setAttribute("stroke-width", 3);
    layer.appendChild(c);
  }
  function draw(canonicals) {
    while (layer.firstChild) { layer.removeChild(layer.firstChild); }
    canonicals.forEach(function (o) {
      var w = o.split(" ");
      var at = anchor(w[1] || "");
      if (w[2] === "-" || w[2] === "R") { line(at, anchor(w[3])); }
      else if (w[2] === "H") { ring(at, "#111"); }
      else if (w[2] === "S" && w.length >= 7) { line(at, anchor(w[6]), true, "#2a6"); }
      else if (w[2] === "S") { line(at, anchor(w[4]), true, "#2a6"); }
      else if (w[2] === "C") { line(at, anchor(w[6]), true, "#26a"); }
      else if (w[2] === "D") { ring(at, "#c22"); }
      else if (w[2] === "B") { ring(at, "#2a6"); }
    });
  }

  // -- the server reads the draft (any notation), adds convoys, says what it refused
  var pending = null;
  function check() {
    var lines = Object.keys(draft).map(function (k) { return draft[k][1]; });
    if (lines.length) { textarea.value = lines.join("\n") + "\n"; }
    send();
  }
  function send() {
    var body = new URLSearchParams();
    body.set("token", form.querySelector('input[name="token"]').value);
    body.set("orders", textarea.value);
    if (pending) { pending.abort(); }
    pending = new AbortController();
    hint.textContent = words.checking;
    return fetch(data.check, { method: "POST", body: body, signal: pending.signal,
                               credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (answer) {
        pending = null;
        textarea.value = answer.lines.join("\n") + (answer.lines.length ? "\n" : "");
        draft = {};
        answer.orders.forEach(function (o, i) { draft[keyOf(o)] = [o, answer.shown[i]]; });
        listDraft(answer);
        draw(answer.orders);
        hint.textContent = baseHint;
      })
      .catch(function () { hint.textContent = baseHint; });
  }
  function listDraft(answer) {
    while (draftList.firstChild) { draftList.removeChild(draftList.firstChild); }
    answer.shown.forEach(function (t, i) {
      var li = document.createElement("li");
      li.textContent = t;
      li.setAttribute("data-order", answer.orders[i]);
      draftList.appendChild(li);
    });
    answer.refusals.forEach(function (r) {
      var li = document.createElement("li");
      li.className = "refused";
      li.textContent = r.line + ": " + r.reason;
      draftList.appendChild(li);
    });
  }

  // -- choosing
  function clearSelection() {
    state = { unit: null, action: null, other: null };
    menu.hidden = true; options.hidden = true;
    while (options.firstChild) { options.removeChild(options.firstChild); }
    svg.querySelectorAll(".selected").forEach(function (e) { e.classList.remove("selected"); });
    hint.textContent = baseHint;
  }
  function offer(list, label) {
    while (options.firstChild) { options.removeChild(options.firstChild); }
    if (label) { var s = document.createElement("span"); s.textContent = label; options.appendChild(s); }
    list.forEach(function (item) {
      var b = document.createElement("button");
      b.type = "button"; b.textContent = item.label;
      b.setAttribute("data-order", item.choice[0]);
      b.addEventListener("click", function () { setOrder(item.choice); });
      options.appendChild(b);
    });
    options.hidden = false;
    var first = options.querySelector("button");
    if (first) { first.focus(); }
  }
  function showMenu(loc) {
    var mine = choicesFor(loc).map(function (c) { return c[0].split(" ")[2]; });
    var show = { hold: mine.indexOf("H") >= 0, move: mine.indexOf("-") >= 0,
                 support: mine.indexOf("S") >= 0, convoy: mine.indexOf("C") >= 0,
                 retreat: mine.indexOf("R") >= 0, disband: mine.indexOf("D") >= 0, cancel: true };
    menu.querySelectorAll("button").forEach(function (b) {
      b.hidden = !show[b.getAttribute("data-action")];
    });
    menu.hidden = false;
  }
  function selectUnit(g) {
    var loc = locOfUnit(g);
    if (!choicesFor(loc).length) { return false; }
    clearSelection();
    state.unit = loc;
    g.classList.add("selected");
    if (kind === "A") {  // a removal
      offer(choicesFor(loc).map(function (c) { return { choice: c, label: c[1] }; }));
      return true;
    }
    state.action = kind === "R" ? "retreat" : "move";
    showMenu(loc);
    hint.textContent = words.pick_target;
    return true;
  }
  // the unit's orders whose words match: e.g. ["-", "SPA"] for every move to Spain's coasts
  function matching(test) {
    return choicesFor(state.unit).filter(function (c) { return test(c[0].split(" ")); });
  }
  function clickProvince(code) {
    if (kind === "A" && !state.unit) {  // a build in a free home centre
      var builds = choicesFor(code);
      if (builds.length) {
        offer(builds.map(function (c) { return { choice: c, label: c[1] }; }), words.pick_build);
      }
      return;
    }
    if (!state.unit) { return; }
    var found = [];
    if (state.action === "move" || state.action === "retreat") {
      var verb = state.action === "move" ? "-" : "R";
      found = matching(function (w) { return w[2] === verb && prov(w[3]) === code; });
      // a land move rather than the same move by convoy, when both are legal
      var plain = found.filter(function (c) { return c[0].indexOf(" VIA") < 0; });
      if (plain.length) { found = plain; }
    } else if (state.action === "support" && !state.other) {
      state.other = code;
      hint.textContent = words.pick_support_target;
      return;
    } else if (state.action === "support") {
      found = matching(function (w) {
        if (w[2] !== "S" || prov(w[4]) !== state.other) { return false; }
        return code === state.other ? w.length === 5 : (w[5] === "-" && prov(w[6]) === code);
      });
    } else if (state.action === "convoy" && !state.other) {
      state.other = code;
      hint.textContent = words.pick_convoy_target;
      return;
    } else if (state.action === "convoy") {
      found = matching(function (w) { return w[2] === "C" && prov(w[4]) === state.other && prov(w[6]) === code; });
    }
    if (!found.length) { hint.textContent = words.unreachable; return; }
    if (found.length === 1) { setOrder(found[0]); return; }
    // two coasts reachable: the player says which
    offer(found.map(function (c) { return { choice: c, label: c[1] }; }), words.pick_coast);
  }
  function activate(target) {
    var unit = target.closest("g.unit");
    if (unit && state.unit && (state.action === "move" || state.action === "retreat")) {
      var there = prov(locOfUnit(unit));
      var verb = state.action === "move" ? "-" : "R";
      if (matching(function (w) { return w[2] === verb && prov(w[3]) === there; }).length) {
        clickProvince(there); return;  // a move into the province of a unit that leaves it
      }
    }
    if (unit && unit.classList.contains("mine") && (!state.unit || state.action === "move" || state.action === "retreat")
        && unit.getAttribute("data-unit").split(" ")[1] !== state.unit && selectUnit(unit)) { return; }
    var el = target.closest("[data-province]");
    var code = el ? el.getAttribute("data-province") : null;
    if (!code && unit) { code = prov(locOfUnit(unit)); }
    if (code) { clickProvince(code); }
  }

  // -- wiring: units and provinces are focusable; Enter or Space acts as a click
  svg.querySelectorAll("g.unit").forEach(function (g) {
    // the player's units that have an order to give now (in a retreat phase: the dislodged
    // ones, drawn beside the unit that took their province)
    var own = g.getAttribute("data-power") === data.power && choicesFor(locOfUnit(g)).length > 0;
    if (!own) { return; }
    g.classList.add("mine");
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    g.setAttribute("aria-label", g.getAttribute("data-unit"));
  });
  svg.querySelectorAll("[data-province]").forEach(function (el) {
    el.setAttribute("tabindex", "-1");
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", el.getAttribute("data-province"));
  });
  // the provinces join the tab order once a unit is chosen (75 stops would bury the units)
  function focusable(on) {
    svg.querySelectorAll("[data-province]").forEach(function (el) { el.setAttribute("tabindex", on ? "0" : "-1"); });
  }
  svg.addEventListener("click", function (e) { activate(e.target); focusable(!!state.unit || kind === "A"); });
  svg.addEventListener("keydown", function (e) {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); activate(e.target); focusable(!!state.unit || kind === "A"); }
    if (e.key === "Escape") { clearSelection(); focusable(kind === "A"); }
  });
  focusable(kind === "A");
  menu.addEventListener("click", function (e) {
    var b = e.target.closest("button");
    if (!b || !state.unit) { return; }
    var action = b.getAttribute("data-action");
    if (action === "cancel") { clearSelection(); return; }
    if (action === "hold" || action === "disband") {
      var verb = action === "hold" ? "H" : "D";
      var c = matching(function (w) { return w[2] === verb; });
      if (c.length) { setOrder(c[0]); }
      return;
    }
    state.action = action; state.other = null;
    hint.textContent = action === "support" ? words.pick_supported
      : action === "convoy" ? words.pick_army : words.pick_target;
  });
  var checkButton = document.getElementById("check");
  checkButton.hidden = false;
  checkButton.addEventListener("click", function () { send(); });
  if (kind === "A" && data.choices.WAIVE) {
    var waive = document.createElement("button");
    waive.type = "button"; waive.textContent = words.waive;
    waive.addEventListener("click", function () { setOrder(data.choices.WAIVE[0]); });
    menu.parentNode.insertBefore(waive, menu);
  }
  if (textarea.value.trim()) { send(); }
}());
