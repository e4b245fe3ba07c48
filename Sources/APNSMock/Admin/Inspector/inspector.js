// apns-mock web inspector. Everything that comes from a request is put on the page with textContent (the el()
// helper below); nothing is ever assigned to innerHTML, so a payload with <script> or <img onerror> is only text.
"use strict";

const MAX_ROWS = 500;
const state = { latestId: 0, generation: 0, selectedId: null, rows: new Map(), token: null };

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (name === "class") node.className = value;
    else node.setAttribute(name, value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

function setStatus(text, cls) {
  const status = document.getElementById("status");
  status.textContent = text;
  status.className = "status " + (cls || "");
}

// The status dot: "live", or "store degraded" (the reason in its tooltip) while /api/health says degraded.
async function setLive() {
  let reason = null;
  try {
    const health = await (await api("/api/health")).json();
    if (health.status === "degraded") reason = health.degradedReason || health.storeError || "see /api/health";
  } catch (error) { /* the next long poll tells whether the server is reachable */ }
  setStatus(reason ? "store degraded" : "live", reason ? "degraded" : "live");
  document.getElementById("status").title = reason || "";
}

async function api(path) {
  const headers = state.token ? { Authorization: "Bearer " + state.token } : {};
  const response = await fetch(path, { headers, cache: "no-store" });
  if (response.status === 401) {
    document.getElementById("auth").hidden = false;
    throw new Error("unauthorized");
  }
  return response;
}

// The verdict a person sees: accepted / rejected, or the third one when APNs said 200 but the simulated device
// dropped, ignored or throttled the push (its outcome code says which).
function deviceHandling(code) {
  if (!code) return null;
  if (code === "applied" || code === "dismissed") return "applied";
  if (code === "throttled") return "throttled";
  if (code.startsWith("ignored")) return "ignored";
  if (code.startsWith("dropped")) return "dropped";
  return null;
}

const DEVICE_LABELS = { dropped: "dropped by device", ignored: "ignored", throttled: "throttled" };
const MISBEHAVES = "device will misbehave";

// A fourth look for a push APNs accepted (the status stays 200) whose warnings mean the device will misbehave: the
// server lists their codes in deviceWillMisbehave (docs/admin-api.md), so the page needs no list of its own.
function verdictOf(d) {
  const handling = d.liveActivity ? deviceHandling(d.liveActivity.code) : null;
  if (d.accepted && handling && handling !== "applied") {
    return { cls: "device " + handling, label: d.status + " · " + DEVICE_LABELS[handling], word: DEVICE_LABELS[handling] };
  }
  if (d.accepted && d.deviceWillMisbehave && d.deviceWillMisbehave.length) {
    return { cls: "misbehaves", label: d.status + " · " + MISBEHAVES, word: MISBEHAVES };
  }
  const status = d.status === null ? "no answer" : d.status;
  return d.accepted ? { cls: "accepted", label: status + " accepted", word: "accepted" }
    : { cls: "rejected", label: status + " rejected", word: "rejected" };
}

function filterQuery() {
  const params = new URLSearchParams();
  const q = document.getElementById("filter-q").value.trim();
  const accepted = document.getElementById("filter-verdict").value;
  const token = document.getElementById("filter-token").value.trim();
  if (q) params.set("q", q);
  if (accepted === "true" || accepted === "false") params.set("accepted", accepted);
  else if (accepted) params.set("device", accepted);
  if (token) params.set("token", token);
  return params;
}

function pretty(text) {
  if (text === null || text === undefined) return "";
  if (typeof text === "object") return JSON.stringify(text, null, 2);
  try { return JSON.stringify(JSON.parse(text), null, 2); } catch (_) { return String(text); }
}

function shortToken(token) {
  if (!token) return "";
  return token.length > 16 ? token.slice(0, 8) + "…" + token.slice(-6) : token;
}

function localTime(iso) {
  const date = new Date(iso);
  return isNaN(date) ? String(iso) : date.toLocaleTimeString([], { hour12: false }) + "." + String(date.getMilliseconds()).padStart(3, "0");
}

// ---- Deliveries list ---------------------------------------------------------------------------------------

// The explanation column: the mock's explanation, or the device's; for a push the device will misbehave on, the
// first warning that says why (the device's "applied" would read as all well).
function explanationOf(d, verdict) {
  if (verdict.cls === "misbehaves") {
    const warning = (d.warnings || []).find((w) => d.deviceWillMisbehave.includes(w.code));
    if (warning) return "⚠ " + warning.code + ": " + warning.message;
  }
  return d.explanation || (d.liveActivity ? d.liveActivity.explanation : "");
}

function deliveryRow(d, isNew) {
  const verdict = verdictOf(d);
  const explanation = explanationOf(d, verdict);
  const row = el("tr", { "data-id": d.id, class: isNew ? "new" : "" },
    el("td", { class: "mono" }, d.id),
    el("td", { class: "mono" }, localTime(d.receivedAt)),
    el("td", { class: "verdict " + verdict.cls }, verdict.label),
    el("td", {}, d.reason || (d.injected ? "injected: " + d.injected.effect : "")),
    el("td", {}, d.pushType || ""),
    el("td", { class: "mono", title: d.deviceToken || "" }, shortToken(d.deviceToken)),
    el("td", { class: "explanation", title: explanation }, explanation));
  row.addEventListener("click", () => showDelivery(d.id));
  return row;
}

function addDeliveries(list, isNew) {
  const body = document.querySelector("#deliveries tbody");
  for (const d of list) {
    if (state.rows.has(d.id)) continue;
    const row = deliveryRow(d, isNew);
    if (String(d.id) === String(state.selectedId)) row.classList.add("selected");
    state.rows.set(d.id, row);
    // Newest first: insert before the first row with a smaller id.
    let before = null;
    for (const existing of body.children) {
      if (Number(existing.getAttribute("data-id")) < d.id) { before = existing; break; }
    }
    body.insertBefore(row, before);
    if (d.id > state.latestId) state.latestId = d.id;
  }
  while (body.children.length > MAX_ROWS) {
    const last = body.lastElementChild;
    state.rows.delete(Number(last.getAttribute("data-id")));
    last.remove();
  }
  document.getElementById("empty").hidden = body.children.length > 0;
}

async function reload() {
  const generation = ++state.generation;
  const params = filterQuery();
  params.set("limit", "200");
  const response = await api("/api/deliveries?" + params);
  const data = await response.json();
  if (generation !== state.generation) return;
  await setLive();
  document.querySelector("#deliveries tbody").replaceChildren();
  state.rows.clear();
  state.latestId = data.latestId;
  addDeliveries(data.deliveries.slice().reverse(), false);
  state.latestId = Math.max(state.latestId, data.latestId);
}

async function catchUp(generation) {
  const params = filterQuery();
  params.set("after_id", String(state.latestId));
  params.set("order", "asc");
  params.set("limit", "500");
  const data = await (await api("/api/deliveries?" + params)).json();
  if (generation !== state.generation) return;
  addDeliveries(data.deliveries, true);
}

// Long poll: wait for the next matching delivery, then fetch everything after the last one shown.
async function follow() {
  for (;;) {
    const generation = state.generation;
    try {
      const params = filterQuery();
      params.set("after_id", String(state.latestId));
      params.set("timeout_ms", "25000");
      const response = await api("/api/deliveries/wait?" + params);
      await setLive();
      if (generation !== state.generation) continue;
      if (response.status === 200) await catchUp(generation);
      else if (response.status !== 204) await sleep(1000);
    } catch (error) {
      setStatus(error.message === "unauthorized" ? "token needed" : "server unreachable, retrying", "down");
      await sleep(1500);
    }
  }
}

// ---- Delivery detail ---------------------------------------------------------------------------------------

function section(title, ...content) { return [el("h2", {}, title), ...content]; }

function definitionList(pairs) {
  const list = el("dl");
  for (const [name, value] of pairs) {
    if (value === null || value === undefined || value === "") continue;
    list.append(el("dt", {}, name), el("dd", { class: "mono" }, value));
  }
  return list;
}

async function showDelivery(id) {
  state.selectedId = id;
  setHash({ delivery: id });
  for (const [rowId, row] of state.rows) row.classList.toggle("selected", String(rowId) === String(id));
  const response = await api("/api/deliveries/" + encodeURIComponent(id));
  const detail = document.getElementById("detail");
  if (response.status !== 200) {
    detail.replaceChildren(el("p", { id: "detail-missing" }, "No delivery " + id + " (deleted, or past the retention limit)."));
    detail.hidden = false;
    return;
  }
  const d = await response.json();
  const verdict = verdictOf(d);
  const parts = [
    el("h2", { class: "verdict " + verdict.cls, id: "detail-verdict" }, (d.status === null ? "no answer" : d.status) + " " + (d.reason || (d.status === null ? "" : "OK")) + " — " + verdict.word),
  ];
  if (d.injected) {
    parts.push(el("p", { id: "detail-injected", class: "warning" }, "Injected fault #" + d.injected.index + " (" + d.injected.effect + "): ",
      el("code", {}, JSON.stringify(d.injected.fault)), " — the rules would have answered " + d.injected.rulesAnswer));
  }
  if (d.explanation) parts.push(el("p", { id: "detail-explanation" }, d.explanation));
  if (d.ruleId) parts.push(el("p", {}, "Rule: ", el("code", {}, d.ruleId), d.strict ? " (strict mode)" : ""));
  // The server's text for the rule that decided (HowToFix): the same words as `apns-mock explain` and `push`.
  if (d.fix) parts.push(el("p", { class: "fix", id: "detail-fix" }, "How to fix: " + d.fix));
  const misbehaving = new Set(d.deviceWillMisbehave || []);
  if (misbehaving.size) {
    parts.push(el("p", { class: "misbehaves-note", id: "detail-misbehaves" },
      "APNs answered " + d.status + ", but the device will misbehave: " + [...misbehaving].join(", ") + " (below)."));
  }
  if (d.warnings && d.warnings.length) {
    parts.push(...section("Warnings", el("ul", {}, ...d.warnings.map((w) =>
      el("li", { class: misbehaving.has(w.code) ? "warning misbehaves" : "warning" }, el("code", {}, w.code), " ", w.message)))));
  }
  if (d.liveActivity) {
    parts.push(...section("Live Activity outcome", definitionList([["outcome", d.liveActivity.code], ["explanation", d.liveActivity.explanation]])));
  }
  parts.push(...section("Delivery", definitionList([
    ["id", d.id], ["received", d.receivedAt], ["apns-id", d.apnsId], ["apns-unique-id", d.apnsUniqueId],
    ["device token", d.deviceToken], ["topic", d.topic], ["push type", d.pushType],
    ["request", d.method + " " + d.path], ["answered in", d.latencyMicroseconds + " µs"],
    ["client", d.clientAddress + " (connection " + d.connectionId + ")"], ["environment", d.environment],
    ["TLS", d.tls ? [d.tls.version, d.tls.cipher, "ALPN " + (d.tls.alpn || "none"), d.tls.serverName ? "SNI " + d.tls.serverName : ""].filter(Boolean).join(", ") : "cleartext (h2c)"],
  ])));
  const headerTable = el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "name"), el("th", {}, "value"))));
  const headerBody = el("tbody");
  for (const h of d.headers || []) headerBody.append(el("tr", {}, el("td", { class: "mono" }, h.name), el("td", { class: "mono" }, h.value)));
  headerTable.append(headerBody);
  parts.push(...section("Headers (in arrival order)", headerTable));
  if (d.providerToken) {
    parts.push(...section("Provider token (JWT)",
      el("p", { class: "muted" }, "fingerprint " + d.providerToken.fingerprint + " — the token itself is not stored"),
      el("pre", { id: "detail-jwt-header" }, pretty(d.providerToken.header)),
      el("pre", { id: "detail-jwt-claims" }, pretty(d.providerToken.claims))));
  }
  if (d.clientCertificate) {
    const c = d.clientCertificate;
    parts.push(...section("Client certificate", definitionList([
      ["subject", c.subject], ["bundle ID", c.bundleId], ["environment", (c.environments || []).join(", ")],
      ["topics", (c.topics || []).join(", ")], ["trusted", c.trusted ? "yes" : "no"], ["problem", c.problem],
      ["sha256", c.sha256],
    ])));
  }
  const payload = d.payload !== undefined ? pretty(d.payload) : "(binary, base64) " + d.payloadBase64;
  parts.push(...section("Payload", el("pre", { id: "detail-payload" }, payload)));
  detail.replaceChildren(...parts);
  detail.hidden = false;
}

// ---- Live Activities: activities.js ------------------------------------------------------------------------

// ---- Deep links: #delivery=ID, #activity=TOKEN (a CI log or `explain` can point at a page) -------------------

function setHash(link) {
  const params = new URLSearchParams(location.hash.slice(1));
  params.delete("delivery");
  params.delete("activity");
  for (const [name, value] of Object.entries(link)) params.set(name, String(value));
  history.replaceState(null, "", "#" + params.toString());
}

function openDeepLink() {
  const params = new URLSearchParams(location.hash.slice(1));
  const delivery = params.get("delivery");
  const activity = params.get("activity");
  if (activity) {
    showTab("activities");
    showActivity(activity).catch(() => {});
  } else if (delivery) {
    showTab("deliveries");
    showDelivery(delivery).catch(() => {});
  }
}

// ---- Wiring ------------------------------------------------------------------------------------------------

function showTab(name) {
  for (const tab of ["deliveries", "activities"]) {
    document.getElementById("view-" + tab).hidden = tab !== name;
    document.getElementById("tab-" + tab).classList.toggle("active", tab === name);
  }
  if (name === "activities") loadActivities().catch(() => {});
}

function start() {
  const hash = new URLSearchParams(location.hash.slice(1));
  state.token = hash.get("token") || sessionStorage.getItem("apns-mock-token");
  document.getElementById("tab-deliveries").addEventListener("click", () => showTab("deliveries"));
  document.getElementById("tab-activities").addEventListener("click", () => showTab("activities"));
  document.getElementById("auth-save").addEventListener("click", () => {
    state.token = document.getElementById("auth-token").value;
    sessionStorage.setItem("apns-mock-token", state.token);
    document.getElementById("auth").hidden = true;
    reload().catch(() => {});
  });
  let debounce = null;
  const changed = () => { clearTimeout(debounce); debounce = setTimeout(() => reload().catch(() => {}), 250); };
  for (const id of ["filter-q", "filter-token"]) document.getElementById(id).addEventListener("input", changed);
  document.getElementById("filter-verdict").addEventListener("change", changed);
  document.getElementById("filters").addEventListener("submit", (event) => event.preventDefault());
  document.getElementById("clear").addEventListener("click", async () => {
    if (!confirm("Delete every stored delivery?")) return;
    const headers = state.token ? { Authorization: "Bearer " + state.token } : {};
    await fetch("/api/deliveries", { method: "DELETE", headers });
    document.getElementById("detail").hidden = true;
    await reload();
  });
  window.addEventListener("hashchange", openDeepLink);
  openDeepLink();
  followActivities();
  reload().catch(() => {}).finally(follow);
}

document.addEventListener("DOMContentLoaded", start);
