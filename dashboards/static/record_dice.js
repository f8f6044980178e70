// Fast dice entry in the recorder's lines mode (record_lines.js; docs/recording.md, "Dice"): when the
// pending decision is a set of dice — every legal line is "C dice …", one to three faces — a pad of
// faces 1–6 for each die, so a set of three is entered in three taps (or three keys: the digits set
// the next die), and the line is written the moment the last die has its face, as the engine writes
// it ("C dice 2 5 6", lowest first). And, for friendly games only, "Roll for us": the faces drawn
// from a seeded generator in the page, splitmix64-v1 as engine/rng.py defines it (each die
// 1 + below(6)); the seed is shown and may be typed in, so anyone can roll the same faces again,
// and after a roll the field holds the generator's state, the seed of the next roll.
//
// RecordDice.draw(box, legal, write): draws the pad into ``box`` when ``legal`` is a set of dice
// (true), else empties and hides it (false); ``write(lines)`` writes the set. RecordDice.keys(): the
// buttons the digits 1–6 press now (the next die's faces), or null when no pad is shown.
window.RecordDice = (function () {
  "use strict";

  var el = EmpyreanBoard.el, add = EmpyreanBoard.add;
  var DICE = /^C dice( [1-6]){1,3}$/;
  var TWO64 = BigInt("18446744073709551616"), MASK = TWO64 - BigInt(1);
  var GOLDEN = BigInt("0x9E3779B97F4A7C15"), MUL1 = BigInt("0xBF58476D1CE4E5B9"), MUL2 = BigInt("0x94D049BB133111EB");
  var SEED_RULE = "The seed is a whole number from 0 to " + MASK.toString() + ".";

  // splitmix64-v1 (engine/rng.py): next() and an unbiased below(n) by rejection.
  function SplitMix64(seed) { this.state = seed & MASK; }
  SplitMix64.prototype.next = function () {
    this.state = (this.state + GOLDEN) & MASK;
    var z = this.state;
    z = ((z ^ (z >> BigInt(30))) * MUL1) & MASK;
    z = ((z ^ (z >> BigInt(27))) * MUL2) & MASK;
    return z ^ (z >> BigInt(31));
  };
  SplitMix64.prototype.below = function (n) {
    var big = BigInt(n), limit = TWO64 - (TWO64 % big), x;
    do { x = this.next(); } while (x >= limit);
    return Number(x % big);
  };

  function freshSeed() {
    var words = new Uint32Array(2);
    window.crypto.getRandomValues(words);
    return ((BigInt(words[0]) << BigInt(32)) | BigInt(words[1])).toString();
  }

  var seed = null;      // the seed field's text, kept across decisions (a fresh one at the first pad)
  var lastRoll = "";    // what the last "Roll for us" rolled, said until the next
  var pad = null;       // the pad shown: {size, chosen, rows}

  function sizeOf(legal) {
    if (!legal || !legal.length || !legal.every(function (l) { return DICE.test(l); })) return 0;
    return legal[0].split(" ").length - 2;
  }

  function lineOf(faces) { return "C dice " + faces.slice().sort().join(" "); }

  function draw(box, legal, write) {
    box.textContent = "";
    var size = sizeOf(legal);
    pad = null;
    box.hidden = !size;
    if (!size) return false;
    if (seed === null) seed = freshSeed();
    pad = {size: size, chosen: [], rows: []};
    add(box, el("h3", "", size === 1 ? "The die: tap its face" : "The " + size + " dice: tap each die's face"));
    var chosen = add(box, el("p", "dice-chosen"));
    chosen.setAttribute("aria-live", "polite");
    function said() {
      var faces = [];
      for (var k = 0; k < size; k++) faces.push(pad.chosen[k] || "–");
      chosen.textContent = "Dice: " + faces.join(" ");
    }
    for (var k = 0; k < size; k++) {
      var row = add(box, el("div", "die-row"));
      row.setAttribute("role", "group");
      row.setAttribute("aria-label", "Die " + (k + 1));
      row.setAttribute("data-die", String(k + 1));
      add(row, el("span", "die-label", "Die " + (k + 1)));
      var buttons = [];
      for (var f = 1; f <= 6; f++) {
        var b = add(row, el("button", "face", String(f)));
        b.type = "button";
        b.setAttribute("data-face", String(f));
        b.setAttribute("aria-pressed", "false");
        b.setAttribute("aria-label", "Die " + (k + 1) + ": " + f);
        b.addEventListener("click", tap(k, f, write, said));
        buttons.push(b);
      }
      pad.rows.push(buttons);
    }
    said();

    var friendly = add(box, el("div", "roll-for-us"));
    var label = add(friendly, el("label", "", "Seed "));
    var input = add(label, el("input"));
    input.type = "text";
    input.id = "dice-seed";
    input.inputMode = "numeric";
    input.autocomplete = "off";
    input.spellcheck = false;
    input.value = seed;
    input.addEventListener("input", function () { seed = input.value; });
    var roll = add(friendly, el("button", "roll", "Roll for us"));
    roll.type = "button";
    roll.id = "roll-for-us";
    var problem = add(friendly, el("p", "problem"));
    problem.setAttribute("role", "alert");
    problem.hidden = true;
    add(friendly, el("p", "note", "For friendly games: the page rolls from this seed, so anyone can roll the " +
                     "same dice again. At a tournament, roll real dice and tap their faces."));
    if (lastRoll) add(friendly, el("p", "last-roll", lastRoll));
    roll.addEventListener("click", function () {
      var text = input.value.trim();
      input.removeAttribute("aria-invalid");
      if (!/^[0-9]{1,20}$/.test(text) || BigInt(text) > MASK) {
        problem.textContent = "Seed: " + SEED_RULE;
        problem.hidden = false;
        input.setAttribute("aria-invalid", "true");
        input.focus();
        return;
      }
      var rng = new SplitMix64(BigInt(text)), faces = [];
      for (var k = 0; k < size; k++) faces.push(1 + rng.below(6));
      seed = rng.state.toString();  // the next roll goes on from here
      lastRoll = "Rolled for us from seed " + text + ": " + lineOf(faces) + ".";
      write([lineOf(faces)]);
    });
    return true;
  }

  function tap(k, face, write, said) {
    return function () {
      pad.chosen[k] = face;
      pad.rows[k].forEach(function (b) { b.setAttribute("aria-pressed", String(Number(b.getAttribute("data-face")) === face)); });
      said();
      var next = nextDie();
      if (next === null) {
        write([lineOf(pad.chosen)]);
      } else {
        pad.rows[next][face - 1].focus({preventScroll: true});
      }
    };
  }

  function nextDie() {
    for (var k = 0; k < pad.size; k++) if (!pad.chosen[k]) return k;
    return null;
  }

  function keys() {
    if (!pad) return null;
    var next = nextDie();
    return next === null ? null : pad.rows[next];
  }

  return {draw: draw, keys: keys, SplitMix64: SplitMix64};
})();
