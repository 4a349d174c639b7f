import assert from "node:assert/strict";
import { detectStatus, type StatusLayout, statusLevel, StatusReader } from "./http_status.ts";

const enc = new TextEncoder();

/** Each program's default access-log line (from its documentation), and the status it carries. */
const LINES: [string, string, number][] = [
  // Apache httpd's common log format (its mod_log_config documentation's example).
  [
    "apache common",
    '127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326',
    200,
  ],
  // The combined format (Apache's and nginx's `combined`).
  [
    "nginx combined",
    '127.0.0.1 - - [10/Oct/2023:13:55:36 +0000] "POST /login HTTP/1.1" 401 612 "-" "curl/8.0"',
    401,
  ],
  // Apache escapes a quote inside the request.
  ["an escaped quote", '1.2.3.4 - - [10/Oct/2023:13:55:36 +0000] "GET /a\\"b HTTP/1.1" 404 0 "-" "x"', 404],
  // nginx writes "-" when a connection sent no request.
  ["nginx no request", '10.112.81.15 - - [15/Feb/2013:06:00:31 +0000] "-" 400 0 "-" "-"', 400],
  // Envoy's default format: [%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% …
  [
    "envoy",
    '[2016-04-15T20:17:00.310Z] "POST /api/v1/locations HTTP/2" 204 - 154 0 226 100 "10.0.35.28" ' +
    '"nsq2http" "cc21d9b0-cf5c-432b-8c7e-98aeb7988cd2" "locations" "tcp://10.0.2.1:80"',
    204,
  ],
  // Traefik's common log format (CLF, then requests count, router, server URL, duration).
  [
    "traefik",
    '192.168.1.10 - - [10/Oct/2023:13:55:36 +0000] "GET /api HTTP/1.1" 502 23 "-" "curl/8.0" 42 ' +
    '"router@docker" "http://10.0.0.5:80" 3ms',
    502,
  ],
];

/** Lines that carry no HTTP status (levels and numbers of other kinds). */
const NONE = [
  "2024-05-01 10:00:00,123 ERROR [main] c.x.Y - request 500 failed after 404 ms",
  'Feb  6 12:14:14 host sshd[14389]: Accepted password for "root" 200 from 10.0.1.2 port 22 ssh2',
  '{"level":"info","status":"ok","code":200}',
  '{"status":2000}',
  'said "hello" 2000 times',
];

Deno.test("http_status: each program's default access line gives its status; lines of other kinds give none", () => {
  for (const [name, line, status] of LINES) {
    const b = enc.encode(line);
    const layout = detectStatus(b);
    assert.deepEqual(layout, { kind: "request" }, name);
    assert.equal(new StatusReader(layout!).statusOf(b, 0, b.length), status, name);
  }
  // HAProxy's HTTP log format (its configuration manual's example): after the timers TR/Tw/Tc/Tr/Ta.
  const haproxy = "Feb  6 12:14:14 localhost haproxy[14389]: 10.0.1.2:33317 [06/Feb/2009:12:14:14.655] " +
    'http-in static/srv1 10/0/30/69/109 503 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu} {} "GET /index.html HTTP/1.1"';
  const aborted = haproxy.replace("10/0/30/69/109 503", "-1/-1/-1/-1/+8 200");
  const h = enc.encode(`${haproxy}\n${aborted}\n`);
  assert.deepEqual(detectStatus(h), { kind: "haproxy" });
  const hr = new StatusReader({ kind: "haproxy" });
  assert.deepEqual([haproxy, aborted].map((l) => hr.statusOf(enc.encode(l), 0, enc.encode(l).length)), [
    503,
    200,
  ]);
  // uWSGI's request log.
  const uwsgi =
    "[pid: 88185|app: 0|req: 1/1] 127.0.0.1 () {38 vars in 696 bytes} [Sun Mar 13 22:49:12 2016] " +
    "POST /update_metrics => generated 47 bytes in 129 msecs (HTTP/1.1 500) 9 headers in 378 bytes";
  const u = enc.encode(uwsgi);
  assert.deepEqual(detectStatus(u), { kind: "uwsgi" });
  assert.equal(new StatusReader({ kind: "uwsgi" }).statusOf(u, 0, u.length), 500);
  // JSON access logs: Caddy's (status), Envoy's JSON (response_code), Traefik's (DownstreamStatus), Cloudflare's.
  const json: [string, string, number][] = [
    [
      "status",
      '{"level":"info","ts":1646861401.52,"logger":"http.log.access","msg":"handled request",' +
      '"request":{"method":"GET","uri":"/"},"size":12,"status":304}',
      304,
    ],
    ["response_code", '{"start_time":"2024-01-01T00:00:00Z","method":"GET","response_code":503}', 503],
    ["DownstreamStatus", '{"ClientHost":"1.2.3.4","DownstreamStatus":404,"OriginStatus":200}', 404],
    ["EdgeResponseStatus", '{"ClientIP":"1.2.3.4","EdgeResponseStatus":200,"OriginResponseStatus":0}', 200],
    ["status", '{"time":"2024","status": "418"}', 418],
  ];
  for (const [key, line, status] of json) {
    const b = enc.encode(line);
    const layout = detectStatus(b) as StatusLayout & { key: string };
    assert.deepEqual(layout, { kind: "json", key }, line);
    assert.equal(new StatusReader(layout).statusOf(b, 0, b.length), status, line);
  }
  for (const line of NONE) assert.equal(detectStatus(enc.encode(line)), null, line);
  assert.deepEqual([599, 500, 499, 400, 399, 100, 99, 0].map(statusLevel), [5, 5, 4, 4, 2, 2, -1, -1]);
});

Deno.test("http_status: W3C's sc-status column as the last #Fields: names it (a quoted field may hold blanks; a directive mid-file moves it)", () => {
  const log = [
    "#Software: Microsoft Internet Information Services 10.0",
    "#Fields: date time cs-method cs-uri-stem sc-status time-taken",
    "2024-05-01 10:00:00 GET /a 200 15",
    "2024-05-01 10:00:01 GET /b 503 15",
    "#Fields: date time cs(User-Agent) cs-method sc-status",
    '2024-05-01 10:00:02 "Mozilla/5.0 (X11; Linux)" GET 404',
    '2024-05-01 10:00:03 "x" GET "200"',
    "2024-05-01 10:00:04 - GET -",
  ];
  const b = enc.encode(log.join("\n"));
  const layout = detectStatus(b);
  assert.deepEqual(layout, { kind: "w3c", column: 4 });
  const r = new StatusReader(layout!);
  const got = log.map((l) => r.statusOf(enc.encode(l), 0, enc.encode(l).length));
  assert.deepEqual(got, [0, 0, 200, 503, 0, 404, 200, 0]);
});

Deno.test("http_status: a sample detects a layout only when a tenth of its lines (and two) carry a status", () => {
  const access = '1.2.3.4 - - [10/Oct/2023:13:55:36 +0000] "GET / HTTP/1.1" 200 1 "-" "x"';
  const other = "2024-05-01 10:00:00 INFO nothing to see";
  const sample = (hits: number, of: number) =>
    enc.encode(Array.from({ length: of }, (_, i) => (i < hits ? access : other)).join("\n") + "\n");
  assert.deepEqual(detectStatus(sample(10, 100)), { kind: "request" });
  assert.equal(detectStatus(sample(9, 100)), null);
  assert.equal(detectStatus(sample(1, 5)), null);
  assert.deepEqual(detectStatus(sample(2, 5)), { kind: "request" });
  assert.deepEqual(detectStatus(enc.encode(access)), { kind: "request" }); // a file of one line, no LF
});
