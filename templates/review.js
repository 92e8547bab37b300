
/* The review page's one script (referee/render/review.py): steps through the plies. It reads
   the diagrams from the JSON data block and only ever sets attributes and textContent, so no
   text of the record is ever parsed as markup. */
(function () {
  "use strict";
  var root = document.documentElement;
  var data = JSON.parse(document.getElementById("review-data").textContent);
  var last = data.plies.length - 1;
  var image = document.getElementById("diagram");
  var counter = document.getElementById("counter");
  var list = document.getElementById("moves");
  var panels = document.querySelectorAll("[data-panel]");
  var items = document.querySelectorAll("[data-move]");
  var buttons = document.querySelectorAll("[data-step]");
  /* The analysis page's graph (render/analysis.py): a spot a ply, the current one shown. */
  var spots = document.querySelectorAll("[data-spot]");
  var current = Number(root.getAttribute("data-ply"));

  /* Ply k's SVG: the runs of distinct lines it is made of (review.frames). */
  function svg(ply) {
    var runs = data.plies[ply], out = [];
    for (var i = 0; i < runs.length; i += 2) {
      for (var k = runs[i]; k < runs[i] + runs[i + 1]; k++) {
        out.push(data.lines[k]);
      }
    }
    return out.join("\n");
  }

  function plyInAddress() {
    var match = /^#ply=(\d{1,9})$/.exec(window.location.hash);
    return match ? Number(match[1]) : null;
  }

  /* Keep the current entry of the move list whole in view, scrolling the list alone, and
     never show half an entry at the top of the list: an entry above the view comes to the
     top; one below it, to the bottom, under as many whole entries as fit above it. Where the
     list ends too soon for that, room is added under its last entry. `again`: the page's
     layout has changed (loaded, resized), so the entry is placed anew even if it shows. */
  function reveal(item, again) {
    var top = item.offsetTop, bottom = top + item.offsetHeight, view = list.clientHeight;
    if (!again && top >= list.scrollTop && bottom <= list.scrollTop + view) {
      return;
    }
    var first = item;
    if (again || top >= list.scrollTop) {
      while (first.previousElementSibling && bottom - first.previousElementSibling.offsetTop <= view) {
        first = first.previousElementSibling;
      }
    }
    list.style.paddingBottom = "";
    var room = list.scrollHeight - view;
    if (first.offsetTop > room) {
      list.style.paddingBottom = (first.offsetTop - room) + "px";
    }
    list.scrollTop = first.offsetTop;
  }

  function show(ply, address) {
    ply = Math.max(0, Math.min(last, ply));
    if (ply !== current) {
      image.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg(ply));
      image.alt = "The board after ply " + ply + " (in words: see the ply's panel)";
      panels[current].hidden = true;
      panels[ply].hidden = false;
      items[current].removeAttribute("aria-current");
      items[ply].setAttribute("aria-current", "step");
      counter.textContent = "Ply " + ply + " of " + last;
      root.setAttribute("data-ply", String(ply));
      current = ply;
    }
    reveal(items[ply]);
    for (var s = 0; s < spots.length; s++) {
      spots[s].classList.toggle("current", spots[s].getAttribute("data-spot") === String(ply));
    }
    for (var i = 0; i < buttons.length; i++) {
      var step = buttons[i].getAttribute("data-step");
      buttons[i].disabled = (step === "first" || step === "back") ? ply === 0 : ply === last;
    }
    if (address && window.location.hash !== "#ply=" + ply) {
      window.location.replace("#ply=" + ply);
    }
  }

  function target(step) {
    switch (step) {
      case "first": case "Home": return 0;
      case "back": case "ArrowLeft": return current - 1;
      case "forward": case "ArrowRight": return current + 1;
      case "last": case "End": return last;
      default: return null;
    }
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.defaultPrevented) {
      return;
    }
    var ply = target(event.key);
    if (ply !== null) {
      event.preventDefault();
      show(ply, true);
    }
  });
  for (var i = 0; i < buttons.length; i++) {
    buttons[i].addEventListener("click", function (event) {
      show(target(event.currentTarget.getAttribute("data-step")), true);
    });
  }
  /* A click on the board shows it at its actual size (scrolling), another fits it again. */
  image.addEventListener("click", function () {
    image.parentNode.classList.toggle("actual");
  });
  window.addEventListener("hashchange", function () {
    var ply = plyInAddress();
    if (ply !== null) {
      show(ply, true);
    }
  });

  /* The list's entries take their final heights once the page has loaded (its fonts), and
     change with the window's size. */
  window.addEventListener("load", function () {
    reveal(items[current], true);
  });
  window.addEventListener("resize", function () {
    reveal(items[current], true);
  });

  var asked = plyInAddress();
  show(asked === null ? current : asked, asked !== null);
})();
