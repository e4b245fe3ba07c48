// apns-mock web inspector: the Live Activities view. Same rule as inspector.js: text from requests goes on the page
// with textContent only (el() and svg() below), never innerHTML.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
// ActivityKit's default Date encoding is seconds since 2001-01-01 (Foundation's reference date).
const REFERENCE_DATE_OFFSET = 978307200;
const HOURS = 3600 * 1000;
const activityState = { selected: null, latestId: 0, following: false };

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, String(value));
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

function dateText(date) {
  return isNaN(date) ? "" : date.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
}

// A value shown as a person reads it: dates as dates. Numbers in a field whose name says it is a time are read as
// ActivityKit's 2001-based seconds when that gives a date between 2010 and 2050, else as Unix seconds, else as Unix
// milliseconds (an aps.timestamp sent in milliseconds).
function describeValue(key, value) {
  if (value === null || value === undefined) return "null";
  if (typeof value === "object") return JSON.stringify(value);
  if (typeof value === "number" && /date|time|eta|at$|since|until|start|end/i.test(key)) {
    const since2001 = new Date((value + REFERENCE_DATE_OFFSET) * 1000);
    const year2001 = since2001.getUTCFullYear();
    if (year2001 >= 2010 && year2001 <= 2050) return dateText(since2001) + "  (" + value + " s since 2001)";
    const unix = new Date(value * 1000);
    if (unix.getUTCFullYear() >= 2010 && unix.getUTCFullYear() <= 2050) return dateText(unix) + "  (" + value + " Unix s)";
    const milliseconds = new Date(value);
    if (milliseconds.getUTCFullYear() >= 2010 && milliseconds.getUTCFullYear() <= 2050) {
      return dateText(milliseconds) + "  (" + value + " Unix ms)";
    }
  }
  if (typeof value === "string" && /^\d{4}-\d\d-\d\dT/.test(value)) return dateText(new Date(value));
  return String(value);
}

// A content-state or attributes value as the app shows it, by its Swift type from the app's schema (a.schema):
// a Date is seconds since 2001-01-01 whatever the key is called, so a Unix-seconds value is shown as the year the
// app decodes (2057, ...) and flagged. Without a schema: describeValue's guess from the key.
const UNIX_EPOCH_DATE_THRESHOLD = 1e9; // ContentStateChecker.unixEpochDateThreshold: 2032-09-09 as a 2001-based Date

function isDateType(type) { return type === "Date" || type === "Date?"; }

function describeField(key, value, type) {
  if (!isDateType(type) || typeof value !== "number") return { text: describeValue(key, value), wrong: false };
  const shown = dateText(new Date((value + REFERENCE_DATE_OFFSET) * 1000));
  if (value >= UNIX_EPOCH_DATE_THRESHOLD) {
    return { text: shown + "  (" + value + " looks like Unix seconds; the app decodes Date as seconds since 2001)", wrong: true };
  }
  return { text: shown, wrong: false };
}

function schemaTypes(fields) {
  return fields ? new Map(fields.map((f) => [f.key, f.type])) : null;
}

// The fields of a content-state or attributes object as a definition list: dates as dates, and the keys the app's
// type does not have (the device's decoder ignores them) marked.
function fieldList(object, fields, typeName, listClass) {
  const types = schemaTypes(fields);
  const list = el("dl", { class: listClass });
  for (const [key, value] of Object.entries(object || {})) {
    if (types && !types.has(key)) {
      list.append(el("dt", { class: "ignored", title: "not a field of " + typeName + ": the device ignores it" }, key),
        el("dd", { class: "ignored" }, describeValue(key, value) + "  (ignored by the device: not in " + typeName + ")"));
      continue;
    }
    const shown = describeField(key, value, types ? types.get(key) : null);
    list.append(el("dt", {}, key), el("dd", { class: shown.wrong ? "misbehaves" : "" }, shown.text));
  }
  return list;
}

function outcomeClass(outcome) {
  return "outcome-" + (deviceHandling(outcome) || "other");
}

// The list loads a page at a time (GET /api/activities?limit&cursor) and then follows what pushes changed
// (changed_since), never the whole list again after every push: a device with 100,000 activities stays one
// page in the browser and one page of work for the server.
const ACTIVITY_PAGE = 200;
Object.assign(activityState, { nextCursor: null, changeSequence: null, total: 0 });

function activityRow(a) {
  const row = el("tr", { "data-token": a.token, class: a.token === activityState.selected ? "selected" : "" },
    el("td", { class: "mono", title: a.token || "" }, shortToken(a.token)),
    el("td", {}, a.attributesType || ""),
    el("td", { class: "state state-" + a.state }, a.state),
    el("td", { class: "mono" }, a.updatedAt ? describeValue("updatedAt", a.updatedAt) : ""));
  row.addEventListener("click", () => showActivity(a.token));
  return row;
}

// The "more" button under the list, made here so the page's markup stays as it is.
function activityMoreButton() {
  let button = document.getElementById("activities-more");
  if (!button) {
    button = el("button", { id: "activities-more", type: "button", class: "more" });
    button.addEventListener("click", () => loadMoreActivities().catch(() => {}));
    document.getElementById("activities").after(button);
  }
  return button;
}

function showActivityCount() {
  const body = document.querySelector("#activities tbody");
  document.getElementById("activities-empty").hidden = body.children.length > 0;
  const button = activityMoreButton();
  button.hidden = activityState.nextCursor === null;
  button.textContent = "Load more (" + body.children.length + " of " + activityState.total + " shown)";
}

async function loadActivities() {
  const data = await (await api("/api/activities?limit=" + ACTIVITY_PAGE)).json();
  document.querySelector("#activities tbody").replaceChildren(...(data.activities || []).map(activityRow));
  activityState.nextCursor = data.nextCursor ?? null;
  activityState.changeSequence = data.changeSequence ?? null;
  activityState.total = data.total ?? 0;
  showActivityCount();
  loadChannels().catch(() => {});
}

async function loadMoreActivities() {
  if (activityState.nextCursor === null) return;
  const params = new URLSearchParams({ limit: String(ACTIVITY_PAGE), cursor: activityState.nextCursor });
  const data = await (await api("/api/activities?" + params)).json();
  const body = document.querySelector("#activities tbody");
  const shown = new Set([...body.children].map((row) => row.getAttribute("data-token")));
  body.append(...(data.activities || []).filter((a) => !shown.has(a.token)).map(activityRow));
  activityState.nextCursor = data.nextCursor ?? null;
  activityState.total = data.total ?? activityState.total;
  showActivityCount();
}

// Redraws only the rows of the activities pushes changed since the last look; a token not shown yet joins the
// list once every page is loaded (else it is on a page still to load). When the server cannot tell the changes
// apart (too many, a reset), the first page is loaded again.
async function refreshChangedActivities() {
  if (activityState.changeSequence === null) return loadActivities();
  const params = new URLSearchParams({ changed_since: String(activityState.changeSequence), limit: String(ACTIVITY_PAGE) });
  const data = await (await api("/api/activities?" + params)).json();
  if (!data.complete) return loadActivities();
  activityState.changeSequence = data.changeSequence;
  const body = document.querySelector("#activities tbody");
  for (const a of data.activities || []) {
    const row = [...body.children].find((r) => r.getAttribute("data-token") === a.token);
    if (row) {
      row.replaceWith(activityRow(a));
    } else if (activityState.nextCursor === null) {
      body.append(activityRow(a));
      activityState.total = Math.max(activityState.total, body.children.length);
    }
  }
  showActivityCount();
  if ((data.activities || []).length > 0) loadChannels().catch(() => {});
}

// Broadcast channels (GET /api/config/channels) with the activities subscribed to each; a subscriber opens its
// activity.
async function loadChannels() {
  const data = await (await api("/api/config/channels")).json();
  const policies = { 0: "0 · no message stored", 1: "1 · most recent stored" };
  const rows = (data.channels || []).map((c) => el("tr", {},
    el("td", { class: "mono" }, c.id),
    el("td", {}, c.bundleID),
    el("td", {}, c.environment),
    el("td", {}, policies[c.storagePolicy] || String(c.storagePolicy)),
    el("td", { class: "mono" }, ...(c.subscribers || []).flatMap((token, index) => {
      const link = el("a", { href: "#", title: token }, shortToken(token));
      link.addEventListener("click", (event) => { event.preventDefault(); showActivity(token); });
      return index === 0 ? [link] : [" ", link];
    }))));
  document.querySelector("#channels tbody").replaceChildren(...rows);
  document.getElementById("channels-empty").hidden = rows.length > 0;
}

// The pushes of one activity on a time axis from its start (or first push) to at least the 12-hour limit, each a
// circle coloured by outcome; vertical lines mark the 8 h end, the 12 h removal and the stale date.
function timelineChart(a, misbehaving) {
  const entries = a.timeline || [];
  const times = entries.map((e) => Date.parse(e.at)).filter((t) => !isNaN(t));
  const start = Date.parse(a.startedAt) || (times.length ? Math.min(...times) : Date.now());
  const stale = a.staleDate ? Date.parse(a.staleDate) : NaN;
  const end = Math.max(start + 12.5 * HOURS, ...times, isNaN(stale) ? 0 : stale);
  const width = 640, height = 96, left = 8, right = 8, axisY = 60;
  const x = (t) => left + ((t - start) / (end - start)) * (width - left - right);
  const chart = svg("svg", { id: "activity-timeline", viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": "timeline of pushes" });
  chart.append(svg("line", { class: "axis", x1: left, y1: axisY, x2: width - right, y2: axisY }));
  for (let hour = 0; start + hour * HOURS <= end; hour += 2) {
    chart.append(svg("text", { class: "tick", x: x(start + hour * HOURS), y: height - 4 }, hour + " h"));
  }
  const limit = (time, cls, label) => {
    if (isNaN(time)) return;
    chart.append(svg("line", { class: "limit " + cls, x1: x(time), y1: 8, x2: x(time), y2: axisY + 8 }),
      x(time) > width * 0.8
        ? svg("text", { class: "limit-label " + cls, x: x(time) - 3, y: 16, "text-anchor": "end" }, label)
        : svg("text", { class: "limit-label " + cls, x: x(time) + 3, y: 16 }, label));
  };
  limit(start + 8 * HOURS, "limit-8h", "8 h: ends");
  limit(start + 12 * HOURS, "limit-12h", "12 h: removed");
  limit(stale, "limit-stale", "stale");
  entries.forEach((entry, index) => {
    const time = Date.parse(entry.at);
    if (isNaN(time)) return;
    const codes = misbehavingCodes(misbehaving, entry);
    const mark = svg("circle", { class: "mark " + outcomeClass(entry.outcome) + (codes ? " misbehaves" : ""),
      cx: x(time), cy: axisY - 12 - (index % 3) * 8, r: 6, "data-outcome": entry.outcome, "data-index": index });
    if (codes) mark.setAttribute("data-misbehaves", codes.join(" "));
    mark.append(svg("title", {}, `${entry.event || "?"} at ${dateText(new Date(time))}: ${entry.outcome}`
      + (codes ? " · " + MISBEHAVES + " (" + codes.join(", ") + ")" : "")));
    chart.append(mark);
  });
  return chart;
}

// The Lock Screen in spirit: the activity's type, its current content state as fields and values, the last alert.
function previewCard(a, alert) {
  const card = el("div", { class: "preview state-" + a.state, id: "activity-preview" },
    el("div", { class: "preview-head" }, el("strong", {}, a.attributesType || "Live Activity"),
      el("span", { class: "state state-" + a.state }, a.state)));
  if (alert) {
    const title = typeof alert === "string" ? alert : alert.title || alert["title-loc-key"] || "";
    const body = typeof alert === "string" ? "" : alert.body || alert["loc-key"] || "";
    card.append(el("div", { class: "preview-alert" }, el("strong", {}, title), body ? " " + body : ""));
  }
  const schema = a.schema || {};
  card.append(fieldList(a.contentState, schema.contentState, (schema.attributesType || "") + ".ContentState", "preview-fields"));
  if (a.staleDate) card.append(el("p", { class: "muted" }, "stale at " + describeValue("staleDate", a.staleDate)));
  return card;
}

// From the newest pushes to this token: the latest alert (the activity keeps content state, not alerts) and, by
// apns-id, the pushes whose warnings mean the device will misbehave (their deviceWillMisbehave codes).
async function recentPushes(token) {
  const params = new URLSearchParams({ token, push_type: "liveactivity", limit: "50" });
  const data = await (await api("/api/deliveries?" + params)).json();
  let alert = null;
  const misbehaving = new Map();
  for (const d of data.deliveries || []) {
    if (d.deviceWillMisbehave && d.deviceWillMisbehave.length) misbehaving.set(String(d.apnsId).toLowerCase(), d.deviceWillMisbehave);
    if (alert) continue;
    try {
      alert = JSON.parse(d.payload || "{}").aps?.alert || null;
    } catch (_) { /* not JSON */ }
  }
  return { alert, misbehaving };
}

function misbehavingCodes(misbehaving, entry) {
  return entry.apnsId ? misbehaving.get(String(entry.apnsId).toLowerCase()) || null : null;
}

async function showActivity(token) {
  activityState.selected = token;
  setHash({ activity: token });
  for (const row of document.querySelectorAll("#activities tbody tr")) {
    row.classList.toggle("selected", row.getAttribute("data-token") === token);
  }
  const response = await api("/api/activities/" + encodeURIComponent(token));
  const detail = document.getElementById("activity-detail");
  if (response.status !== 200) {
    detail.replaceChildren(el("p", { id: "activity-missing" }, "No activity for this token (with --in-memory or after a crash, activities are not kept across restarts)."));
    detail.hidden = false;
    return;
  }
  const a = await response.json();
  const recent = await recentPushes(token).catch(() => ({ alert: null, misbehaving: new Map() }));
  const parts = [el("h2", { id: "activity-title" }, "Activity " + shortToken(token))];
  parts.push(previewCard(a, recent.alert));
  parts.push(...section("Timeline", timelineChart(a, recent.misbehaving)));
  parts.push(definitionList([
    ["state", a.state + (a.stateNote ? " (" + a.stateNote + ")" : "")], ["started", describeValue("startedAt", a.startedAt)],
    ["ended", describeValue("endedAt", a.endedAt)], ["stale date", describeValue("staleDate", a.staleDate)],
    ["dismiss at", describeValue("dismissAt", a.dismissAt)],
    ["last applied timestamp", a.lastAppliedTimestamp ? describeValue("timestamp", a.lastAppliedTimestamp) : ""],
    ["priority-10 pushes, last hour", a.priority10PushesInLastHour + " of " + a.budgetPerHour],
  ].filter(([, value]) => value && value !== "null")));
  parts.push(...section("Attributes", fieldList(a.attributes, (a.schema || {}).attributes, (a.schema || {}).attributesType || "", "")));
  const table = el("table", { id: "activity-pushes" },
    el("thead", {}, el("tr", {}, ...["time", "event", "apns-id", "device outcome"].map((h) => el("th", {}, h)))));
  const body = el("tbody");
  for (const entry of a.timeline || []) {
    const codes = misbehavingCodes(recent.misbehaving, entry);
    body.append(el("tr", { class: codes ? "misbehaves" : "" },
      el("td", { class: "mono" }, describeValue("at", entry.at)),
      el("td", {}, entry.event || ""),
      el("td", { class: "mono" }, entry.apnsId || ""),
      el("td", { class: "outcome " + outcomeClass(entry.outcome) }, entry.explanation || entry.outcome,
        codes ? el("div", { class: "verdict misbehaves" }, MISBEHAVES + ": " + codes.join(", ")) : null)));
  }
  table.append(body);
  parts.push(...section("Pushes", table));
  detail.replaceChildren(...parts);
  detail.hidden = false;
}


// Live: long-poll for the next Live Activity push (whatever the deliveries filter says) and redraw.
async function followActivities() {
  if (activityState.following) return;
  activityState.following = true;
  try {
    const first = await (await api("/api/deliveries?limit=1")).json();
    activityState.latestId = first.latestId || 0;
  } catch (_) { /* retried below */ }
  for (;;) {
    try {
      const params = new URLSearchParams({ push_type: "liveactivity", after_id: String(activityState.latestId), timeout_ms: "25000" });
      const response = await api("/api/deliveries/wait?" + params);
      if (response.status === 200) {
        const d = await response.json();
        activityState.latestId = Math.max(activityState.latestId, d.id || 0);
        const latest = await (await api("/api/deliveries?limit=1")).json();
        activityState.latestId = Math.max(activityState.latestId, latest.latestId || 0);
        if (!document.getElementById("view-activities").hidden) {
          await refreshChangedActivities();
          if (activityState.selected) await showActivity(activityState.selected);
        }
      } else if (response.status !== 204) {
        await sleep(1000);
      }
    } catch (_) {
      await sleep(1500);
    }
  }
}
