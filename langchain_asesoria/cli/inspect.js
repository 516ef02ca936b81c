"use strict";
(function () {
  const rows = JSON.parse(document.getElementById("chunk-data").textContent);
  const panel = document.getElementById("panel");
  const doc = document.getElementById("doc");
  const pieces = new Map();
  doc.querySelectorAll("span[data-c]").forEach(function (el) {
    el.dataset.c.split(" ").forEach(function (id) {
      if (!pieces.has(id)) pieces.set(id, []);
      pieces.get(id).push(el);
    });
  });
  let lit = [];
  let pinned = null;

  function table(id) {
    const section = document.createElement("section");
    const title = document.createElement("h2");
    title.textContent = "Chunk " + id + (pinned === id ? " (pinned)" : "");
    section.appendChild(title);
    const body = document.createElement("table");
    (rows[id] || []).forEach(function (row) {
      const tr = body.insertRow();
      const th = document.createElement("th");
      th.textContent = row[0];
      tr.appendChild(th);
      tr.insertCell().textContent = row[1];
    });
    section.appendChild(body);
    return section;
  }

  function show(ids) {
    lit.forEach(function (el) { el.classList.remove("hl"); });
    lit = [];
    panel.replaceChildren();
    ids.forEach(function (id) {
      (pieces.get(id) || []).forEach(function (el) { el.classList.add("hl"); lit.push(el); });
      panel.appendChild(table(id));
    });
  }

  function idsAt(target) {
    const el = target.closest("[data-c]");
    return el ? el.dataset.c.split(" ") : null;
  }

  doc.addEventListener("mouseover", function (event) {
    const ids = idsAt(event.target);
    if (ids && pinned === null) show(ids);
  });
  doc.addEventListener("click", function (event) {
    const ids = idsAt(event.target);
    if (!ids) return;
    pinned = pinned === ids[ids.length - 1] ? null : ids[ids.length - 1];
    show(pinned === null ? ids : [pinned]);
    history.replaceState(null, "", pinned === null ? "#" : "#chunk=" + pinned);
  });

  const wanted = /^#chunk=(\d+)$/.exec(window.location.hash);
  if (wanted && rows[wanted[1]]) {
    pinned = wanted[1];
    show([pinned]);
    const first = pieces.get(pinned)[0].getBoundingClientRect();
    if (first.top < 0 || first.bottom > window.innerHeight) {
      pieces.get(pinned)[0].scrollIntoView({ block: "center" });
    }
  }
})();
