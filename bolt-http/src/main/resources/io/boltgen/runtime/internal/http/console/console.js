// The boltgen console: reads /openapi.json from the server that serves this page, lists every method, and
// sends Connect unary calls (POST, application/json) to it, and streams by Connect's streaming protocol
// (application/connect+json, enveloped messages): a stream of requests is typed as a JSON array and sent whole, each
// in its envelope (a browser's fetch cannot send a body as it is written). No framework, nothing fetched from
// elsewhere.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  let spec = null;
  let current = null; // { path, operation }
  let running = null; // the AbortController of the call being sent, stopped by the next send or selection

  function stopRunning() {
    if (running) {
      running.abort();
      running = null;
    }
  }

  function resolve(schema) {
    let s = schema || {};
    for (let depth = 0; s.$ref && depth < 32; depth++) {
      const name = decodeURIComponent(s.$ref.replace("#/components/schemas/", ""));
      s = (spec.components && spec.components.schemas && spec.components.schemas[name]) || {};
    }
    return s;
  }

  function schemaName(schema) {
    return schema && schema.$ref ? decodeURIComponent(schema.$ref.replace("#/components/schemas/", "")) : "";
  }

  // An example value built from a schema, for a method whose document gives none.
  function exampleOf(schema, seen) {
    const name = schemaName(schema);
    if (name) {
      if (seen.has(name)) {
        return undefined; // a recursive message: stop here
      }
      seen = new Set(seen).add(name);
    }
    const s = resolve(schema);
    if (s.example !== undefined) {
      return s.example;
    }
    if (s.examples && s.examples.length) {
      return s.examples[0];
    }
    if (s.enum && s.enum.length) {
      return s.enum.find((v) => v !== null);
    }
    const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
    if (s.oneOf || s.anyOf) {
      return exampleOf((s.oneOf || s.anyOf)[0], seen);
    }
    switch (type) {
      case "object": {
        if (s.properties) {
          const value = {};
          for (const [key, property] of Object.entries(s.properties)) {
            const v = exampleOf(property, seen);
            if (v !== undefined) {
              value[key] = v;
            }
          }
          return value;
        }
        return {};
      }
      case "array":
        return [];
      case "string":
        return s.format === "int64" || s.format === "uint64" ? "0" : "";
      case "integer":
      case "number":
        return 0;
      case "boolean":
        return false;
      default:
        return undefined;
    }
  }

  function operationOf(path) {
    return spec.paths[path].post;
  }

  // The JSON media of a request or answer: application/json (unary) or application/connect+json (a stream).
  function jsonMediaType(content) {
    return content ? Object.keys(content).find((type) => type.endsWith("json")) || null : null;
  }

  function jsonSchemaOf(content) {
    const type = jsonMediaType(content);
    return type ? content[type] : null;
  }

  // "server", "client" or "bidi" for a streaming method, else null.
  function streamingOf(operation) {
    return operation["x-boltgen-streaming"] || null;
  }

  function exampleRequest(operation) {
    const media = jsonSchemaOf(operation.requestBody && operation.requestBody.content);
    if (!media) {
      return {};
    }
    if (media.example !== undefined) {
      return media.example;
    }
    if (media.examples) {
      const first = Object.values(media.examples)[0];
      if (first && first.value !== undefined) {
        return first.value;
      }
    }
    const built = exampleOf(media.schema, new Set());
    return built === undefined ? {} : built;
  }

  function render() {
    const list = $("methods");
    list.textContent = "";
    const filter = $("filter").value.trim().toLowerCase();
    let lastService = null;
    for (const path of Object.keys(spec.paths)) {
      if (!spec.paths[path].post || (filter && !path.toLowerCase().includes(filter))) {
        continue;
      }
      const slash = path.lastIndexOf("/");
      const service = path.substring(1, slash);
      if (service !== lastService) {
        const li = document.createElement("li");
        li.className = "service";
        li.textContent = service;
        list.appendChild(li);
        lastService = service;
      }
      const li = document.createElement("li");
      li.className = "rpc" + (current && current.path === path ? " selected" : "");
      li.dataset.path = path;
      li.textContent = path.substring(slash + 1);
      const streaming = streamingOf(operationOf(path));
      if (streaming) {
        const badge = document.createElement("span");
        badge.className = "stream";
        badge.textContent = streaming + " stream";
        li.appendChild(badge);
      }
      li.title = operationOf(path).summary || path;
      li.addEventListener("click", () => select(path));
      list.appendChild(li);
    }
  }

  function select(path) {
    stopRunning();
    const operation = operationOf(path);
    current = { path, operation };
    $("method").hidden = false;
    $("method-path").textContent = "POST " + path;
    $("method-summary").textContent = operation.summary || "";
    $("method-description").textContent = operation.description || "";
    const streaming = streamingOf(operation);
    $("request-type").textContent = jsonMediaType(operation.requestBody && operation.requestBody.content)
        || "application/json";
    const requests = streaming === "client" || streaming === "bidi";
    $("send").disabled = false;
    $("copy-curl").disabled = false;
    $("stream-note").hidden = !requests;
    $("stream-note").textContent = !requests ? "" : "A " + (streaming === "bidi" ? "bidirectional" : "client")
        + " stream: type its requests as a JSON array; they are sent together, each in its envelope, and the answers"
        + " shown as they come." + (streaming === "bidi" ? " Connect carries a bidirectional stream over HTTP/2"
        + " only: a browser speaks it to a TLS port (over plain HTTP/1.1 the server answers 505); curl's"
        + " --http2-prior-knowledge speaks it to a plain one." : "");
    const example = exampleRequest(operation);
    $("request").value = JSON.stringify(requests ? [example] : example, null, 2);
    const requestMedia = jsonSchemaOf(operation.requestBody && operation.requestBody.content);
    const responseMedia = jsonSchemaOf(operation.responses && operation.responses["200"]
        && operation.responses["200"].content);
    $("request-schema-name").textContent = requestMedia ? schemaName(requestMedia.schema) : "";
    $("request-schema").textContent = requestMedia ? JSON.stringify(resolve(requestMedia.schema), null, 2) : "";
    $("response-schema-name").textContent = responseMedia ? schemaName(responseMedia.schema) : "";
    $("response-schema").textContent = responseMedia ? JSON.stringify(resolve(responseMedia.schema), null, 2) : "";
    $("status").textContent = "not sent yet";
    $("status").className = "";
    $("elapsed").textContent = "";
    $("response-headers").textContent = "";
    $("response-body").textContent = "";
    $("curl").hidden = true;
    render();
    history.replaceState(null, "", "#" + path);
  }

  function requestHeaders() {
    const headers = {
      "Content-Type": streamingOf(current.operation) ? "application/connect+json" : "application/json",
      "Connect-Protocol-Version": "1",
    };
    for (const line of $("headers").value.split("\n")) {
      const colon = line.indexOf(":");
      if (colon > 0) {
        headers[line.substring(0, colon).trim()] = line.substring(colon + 1).trim();
      }
    }
    return headers;
  }

  // One message of Connect's streaming protocol: a flag byte, the length in 4 bytes (big-endian), the message.
  function envelope(json) {
    const message = new TextEncoder().encode(json);
    const out = new Uint8Array(5 + message.length);
    new DataView(out.buffer).setUint32(1, message.length);
    out.set(message, 5);
    return out;
  }

  // A stream's requests as sent, each compact JSON: a server stream's one; a client or bidirectional stream's array
  // of them. Text that is not JSON (or not an array) is sent as typed, one message: the server says what is wrong.
  function requestMessages() {
    const text = $("request").value;
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      return [text];
    }
    const streaming = streamingOf(current.operation);
    if ((streaming === "client" || streaming === "bidi") && Array.isArray(parsed)) {
      return parsed.map((message) => JSON.stringify(message));
    }
    return [JSON.stringify(parsed)];
  }

  // The request as sent: a stream's messages, each in its envelope; a unary call's text as typed.
  function requestBody() {
    if (!streamingOf(current.operation)) {
      return $("request").value;
    }
    const envelopes = requestMessages().map(envelope);
    const out = new Uint8Array(envelopes.reduce((total, e) => total + e.length, 0));
    let offset = 0;
    for (const e of envelopes) {
      out.set(e, offset);
      offset += e.length;
    }
    return out;
  }

  // Reads a server stream's enveloped answer as it arrives, showing each message, then the end of the stream; stops
  // when another send or selection took over (its controller is no longer the running one).
  async function readStream(response, started, mine) {
    let messages = 0;
    let end = null;
    let pending = new Uint8Array(0);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const body = $("response-body");
    for (;;) {
      const { done, value } = await reader.read();
      if (running !== mine) {
        return;
      }
      if (value) {
        const joined = new Uint8Array(pending.length + value.length);
        joined.set(pending);
        joined.set(value, pending.length);
        pending = joined;
      }
      let offset = 0;
      while (pending.length - offset >= 5) {
        const length = new DataView(pending.buffer, pending.byteOffset + offset).getUint32(1);
        if (pending.length - offset < 5 + length) {
          break;
        }
        const flags = pending[offset];
        const text = decoder.decode(pending.subarray(offset + 5, offset + 5 + length));
        offset += 5 + length;
        let shown = text;
        try {
          shown = JSON.stringify(JSON.parse(text), null, 2);
        } catch (e) {
          // not JSON: shown as it came
        }
        if (flags & 2) {
          end = text;
          body.append((messages > 0 ? "\n" : "") + "end of stream: " + shown);
        } else {
          body.append((messages > 0 ? "\n" : "") + shown);
          messages++;
        }
      }
      pending = pending.slice(offset); // what is left: the start of the next envelope
      if (done) {
        break;
      }
    }
    let error = null;
    try {
      error = end === null ? null : JSON.parse(end).error || null;
    } catch (e) {
      error = { code: "unparsable end of stream" };
    }
    const count = messages + (messages === 1 ? " message" : " messages");
    if (end === null) {
      $("status").textContent = response.status + ": the stream ended without its end message, after " + count;
      $("status").className = "bad";
    } else {
      $("status").textContent = response.status + " " + (error ? error.code : "OK") + ", " + count;
      $("status").className = error ? "bad" : "ok";
    }
    $("elapsed").textContent = (performance.now() - started).toFixed(1) + " ms";
  }

  async function send() {
    if (!current || $("send").disabled) {
      return;
    }
    const body = requestBody();
    stopRunning();
    const mine = new AbortController();
    running = mine;
    $("status").textContent = "sending…";
    $("status").className = "";
    const started = performance.now();
    try {
      const response = await fetch(current.path, { method: "POST", headers: requestHeaders(), body,
        signal: mine.signal });
      const lines = [];
      response.headers.forEach((value, name) => lines.push(name + ": " + value));
      $("response-headers").textContent = lines.join("\n");
      $("response-body").textContent = "";
      const type = response.headers.get("content-type") || "";
      if (type.startsWith("application/connect+")) {
        await readStream(response, started, mine);
        return;
      }
      const text = await response.text();
      const elapsed = performance.now() - started;
      $("status").textContent = response.status + " " + (response.statusText || (response.ok ? "OK" : ""));
      $("status").className = response.ok ? "ok" : "bad";
      $("elapsed").textContent = elapsed.toFixed(1) + " ms";
      let pretty = text;
      try {
        pretty = JSON.stringify(JSON.parse(text), null, 2);
      } catch (e) {
        // not JSON: shown as it came
      }
      $("response-body").textContent = pretty;
    } catch (e) {
      if (running !== mine) {
        return; // stopped: another send or selection took over
      }
      $("status").textContent = "failed: " + e.message;
      $("status").className = "bad";
    } finally {
      if (running === mine) {
        running = null;
      }
    }
  }

  function shellQuote(text) {
    return "'" + text.replace(/'/g, "'\\''") + "'";
  }

  function curlCommand() {
    const url = location.origin + current.path;
    const parts = ["curl", "-s", shellQuote(url)];
    for (const [name, value] of Object.entries(requestHeaders())) {
      parts.push("-H", shellQuote(name + ": " + value));
    }
    const streaming = streamingOf(current.operation);
    if (!streaming) {
      let body = $("request").value;
      try {
        body = JSON.stringify(JSON.parse(body)); // one line
      } catch (e) {
        // sent as typed
      }
      parts.push("-d", shellQuote(body));
      return parts.join(" ");
    }
    // each envelope's five bytes by printf, in octal, then its message; the answer's envelopes go to the terminal as
    // they come (a bidirectional stream over HTTP/2, which curl speaks to a plain port with prior knowledge)
    const printed = requestMessages().map((message) => {
      const prefix = envelope(message).subarray(0, 5);
      const octal = Array.from(prefix, (b) => "\\" + b.toString(8).padStart(3, "0")).join("");
      return "printf '" + octal + "'; printf '%s' " + shellQuote(message) + ";";
    });
    parts.push("--data-binary", "@-", "--output", "-");
    if (streaming === "bidi" && location.protocol === "http:") {
      parts.push("--http2-prior-knowledge");
    }
    return "{ " + printed.join(" ") + " } | " + parts.join(" ");
  }

  async function copyCurl() {
    if (!current || $("copy-curl").disabled) {
      return;
    }
    const command = curlCommand();
    $("curl").textContent = command;
    $("curl").hidden = false;
    try {
      await navigator.clipboard.writeText(command);
    } catch (e) {
      // no clipboard (plain HTTP in some browsers): the command is shown to copy by hand
    }
  }

  async function start() {
    try {
      const response = await fetch("openapi.json");
      if (!response.ok) {
        throw new Error("GET /openapi.json answered " + response.status);
      }
      spec = await response.json();
    } catch (e) {
      $("loading").textContent = "Cannot read /openapi.json: " + e.message;
      return;
    }
    $("loading").hidden = true;
    $("server").textContent = (spec.info && spec.info.description) || "";
    $("filter").addEventListener("input", render);
    $("send").addEventListener("click", send);
    $("reset").addEventListener("click", () => current && select(current.path));
    $("copy-curl").addEventListener("click", copyCurl);
    render();
    const wanted = decodeURIComponent(location.hash.substring(1));
    const first = Object.keys(spec.paths).find((p) => spec.paths[p].post);
    if (spec.paths[wanted]) {
      select(wanted);
    } else if (first) {
      select(first);
    }
  }

  start();
})();
