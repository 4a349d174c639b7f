import assert from "node:assert/strict";
import { LineRedactor, redactLine } from "./redact.ts";

// Every secret below is made up for this test.
const JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ." +
  "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
const GH = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
const GHPAT = "github_pat_" +
  "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV0123456789ab";
const AWS_ID = "AKIA" + "IOSFODNN7EXAMPLE";
const AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const GOOGLE = "AIza" + "SyA-1234567890abcdefghijklmnopqrstu";
const STRIPE = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc";
const SLACK = "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx";
const GITLAB = "glpat-" + "xYz123AbC456dEf789Gh";

/** [input, expected output, secrets masked]. */
const SECRETS: [string, string, number][] = [
  ["GET /api Authorization: Bearer abcdef0123456789abcdef", "GET /api Authorization: Bearer ***", 1],
  ["hdr authorization=Basic dXNlcjpwYXNzd29yZA==", "hdr authorization=Basic ***", 1],
  [
    '{"headers":{"Authorization":"Bearer tok_9f8e7d6c5b4a39281706"}}',
    '{"headers":{"Authorization":"Bearer ***"}}',
    1,
  ],
  ["curl -H 'Proxy-Authorization: Basic Zm9vOmJhcg=='", "curl -H 'Proxy-Authorization: Basic ***'", 1],
  ["login user=bob password=hunter2 ok", "login user=bob password=*** ok", 1],
  ["db passwd=s3cr3t! host=db1", "db passwd=*** host=db1", 1],
  ["mysql -u root pwd=toor", "mysql -u root pwd=***", 1],
  ["cfg secret=abc123xyz loaded", "cfg secret=*** loaded", 1],
  ["session token=0a1b2c3d4e5f expired", "session token=*** expired", 1],
  ["call api_key=AbCdEf123456 quota=5", "call api_key=*** quota=5", 1],
  ["call apikey=AbCdEf123456", "call apikey=***", 1],
  ["oauth client_secret=Zz9Yy8Xx7Ww6 grant=code", "oauth client_secret=*** grant=code", 1],
  [
    "refresh access_token=ya29.a0AfH6SMBx refresh_token=1//0gAbCdEf",
    "refresh access_token=*** refresh_token=***",
    2,
  ],
  ["x-api-key: 5f4dcc3b5aa765d61d8327deb882cf99", "x-api-key: ***", 1],
  ['user="alice" password="correct horse battery"', 'user="alice" password="***"', 1],
  ["DB_PASSWORD='pa55 w0rd'", "DB_PASSWORD='***'", 1],
  ['{"user":"bob","password":"hunter2"}', '{"user":"bob","password":"***"}', 1],
  ['{"level":"info","api_key": "k-123456789"}', '{"level":"info","api_key": "***"}', 1],
  ['{"pin":1234,"secret":987654}', '{"pin":1234,"secret":"***"}', 1],
  ['{"msg":"x","client_secret":"a\\"b"}', '{"msg":"x","client_secret":"***"}', 1],
  ["GET /cb?code=1&token=abc123def456&state=x HTTP/1.1", "GET /cb?code=1&token=***&state=x HTTP/1.1", 1],
  ["GET /reset?password=newpass123 200", "GET /reset?password=*** 200", 1],
  ["POST /login?user=a&pwd=letmein", "POST /login?user=a&pwd=***", 1],
  [
    "connect postgres://app:Sup3rS3cret@db.internal:5432/app",
    "connect postgres://app:***@db.internal:5432/app",
    1,
  ],
  [
    "fetch https://deploy:tok3n-xyz@git.example.com/repo.git",
    "fetch https://deploy:***@git.example.com/repo.git",
    1,
  ],
  ["redis://:r3d1s-pass@cache:6379/0", "redis://:***@cache:6379/0", 1],
  [`auth ok jwt=${JWT} user=7`, "auth ok jwt=eyJ*** user=7", 1],
  [`cookie session=${JWT}`, "cookie session=eyJ***", 1],
  [`aws key ${AWS_ID} region=us-east-1`, "aws key AKIA*** region=us-east-1", 1],
  [`aws_secret_access_key=${AWS_SECRET}`, "aws_secret_access_key=***", 1],
  [`{"SecretAccessKey":"${AWS_SECRET}"}`, '{"SecretAccessKey":"***"}', 1],
  [`git push with ${GH} failed`, "git push with ghp_*** failed", 1],
  [`pat ${GHPAT}`, "pat github_pat_***", 1],
  [`ci GITLAB ${GITLAB} used`, "ci GITLAB glpat-*** used", 1],
  [`slack ${SLACK} posted`, "slack xoxb-*** posted", 1],
  [
    "webhook https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    "webhook https://hooks.slack.com/services/***",
    1,
  ],
  [`charge with ${STRIPE}`, "charge with sk_live_***", 1],
  ["refund rk_test_51HqLyjWDarjtT1zdp7dc0000", "refund rk_test_***", 1],
  [`maps ${GOOGLE} loaded`, "maps AIza*** loaded", 1],
  [
    '{"key":"-----BEGIN RSA PRIVATE KEY-----\\nMIIEowIBAAKCAQEA7\\n-----END RSA PRIVATE KEY-----"}',
    '{"key":"-----BEGIN RSA PRIVATE KEY-----***-----END RSA PRIVATE KEY-----"}',
    1,
  ],
  ["env SECRET_KEY=django-insecure-abc123", "env SECRET_KEY=***", 1],
  ["sent credentials=admin:admin to upstream", "sent credentials=*** to upstream", 1],
  ["cookie csrftoken=zzz999 set", "cookie csrftoken=*** set", 1],
  [`aws key ${AWS_ID} secret ${AWS_SECRET}`, "aws key AKIA*** secret ***", 2],
];

/** Lines that look a little like secrets and must be left alone. */
const LOOKALIKES: string[] = [
  "request_id=550e8400-e29b-41d4-a716-446655440000 done",
  "trace 6ba7b810-9dad-11d1-80b4-00c04fd430c8",
  "deployed commit 3f786850e387550fdab836ed7e6dc881de23001b",
  "git sha=e83c5163316f89bfbde7d9ab23ca2e25604af290",
  "2024-05-01T10:00:00.123456Z INFO started",
  "client 192.168.10.23:51234 connected to 10.0.0.1",
  "ipv6 fe80::1ff:fe23:4567:890a up",
  "payload=SGVsbG8gV29ybGQgdGhpcyBpcyBub3QgYSBzZWNyZXQ= size=32",
  "image sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  "max_tokens=4096 temperature=0.2",
  "token_count=512 prompt_tokens=100",
  "tokens=12 used",
  "secret_name=db-credentials namespace=prod",
  "password_changed_at=2024-05-01",
  "password reset requested for alice",
  "invalid password for user bob",
  "password=",
  "password=null",
  '{"password":null,"user":"x"}',
  '{"token_type":"bearer","expires_in":3600}',
  "Authorization header missing",
  "using Bearer scheme",
  "key=value pairs parsed: 12",
  "apikey rotation scheduled",
  "user alice@example.com logged in",
  "url https://example.com/path?x=1&y=2",
  "url https://user@example.com/repo",
  "ssh git@github.com:org/repo.git",
  "mailto:someone@example.org",
  "AKIA is the prefix of access key ids",
  "ghp_ tokens are GitHub personal tokens",
  "sk_live_ keys must never be logged",
  "eyJhbGciOi is how JWT headers start",
  "AIza prefix belongs to Google API keys",
  "md5=5d41402abc4b2a76b9719d911017c592",
  'etag W/"33a64df551425fcc55e4d42a148795d9f25f89d4"',
  "-----BEGIN CERTIFICATE----- loaded ok",
  "-----BEGIN PUBLIC KEY-----",
  "span_id=00f067aa0ba902b7 trace_id=4bf92f3577b34da6a3ce929d0e0e4736",
  "build 2024.05.01-rc.3 at 10:00:01",
  "port=8443 tls=true",
  "xoxo hugs from the test suite",
  "the secret to good logs is structure",
  "pwdx 1234 shows the cwd",
  "the secret word is not a secret at all: sentence case",
  "tokenizer=bpe vocab=32000",
];

Deno.test("redaction corpus: every secret masked, with the key and shape kept", () => {
  assert.ok(SECRETS.length >= 40, `${SECRETS.length} secret lines`);
  const misses: string[] = [];
  for (const [input, want, n] of SECRETS) {
    const r = redactLine(input);
    if (r.text !== want || r.count !== n) {
      misses.push(`${input}\n   got  ${r.text} (${r.count})\n   want ${want} (${n})`);
    }
  }
  assert.deepEqual(misses, []);
});

Deno.test("redaction corpus: no look-alike is touched", () => {
  assert.ok(LOOKALIKES.length >= 40, `${LOOKALIKES.length} look-alike lines`);
  const falsePositives = LOOKALIKES.map((l) => [l, redactLine(l)] as const).filter(([l, r]) =>
    r.text !== l || r.count
  );
  assert.deepEqual(falsePositives.map(([l, r]) => `${l} -> ${r.text}`), []);
});

Deno.test("LineRedactor masks a PEM block across contiguous lines, and is off with --no-redact", () => {
  const r = new LineRedactor(true, true);
  const out = [
    "2024-05-01 INFO loading key",
    "-----BEGIN PRIVATE KEY-----",
    "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7",
    "aGVsbG8gd29ybGQ=",
    "-----END PRIVATE KEY-----",
    "2024-05-01 INFO key loaded",
  ].map((l) => r.line(l));
  assert.deepEqual(out, [
    "2024-05-01 INFO loading key",
    "-----BEGIN PRIVATE KEY-----",
    "***",
    "***",
    "***-----END PRIVATE KEY-----",
    "2024-05-01 INFO key loaded",
  ]);
  assert.equal(r.count, 3);
  const off = new LineRedactor(false, true);
  assert.equal(off.line("password=hunter2"), "password=hunter2");
  assert.equal(off.count, 0);
});

Deno.test("a token cut short at the end of a cut line is still masked", () => {
  const r = new LineRedactor(true, false);
  assert.equal(r.line("push with ghp_a1B2c3D4e5F6g7", true), "push with ghp_***");
  assert.equal(r.line("push with ghp_a1B2c3D4e5F6g7", false), "push with ghp_a1B2c3D4e5F6g7");
  assert.equal(r.line("trace eyJhbGciOiJIUz", true), "trace eyJ***");
  assert.equal(r.count, 2);
});

Deno.test("a BEGIN PRIVATE KEY mention not followed by a key's body masks nothing after it", () => {
  const r = new LineRedactor(true, true);
  const out = [
    "2024-05-01 WARN refusing key file, header was -----BEGIN PRIVATE KEY-----",
    "2024-05-01 ERROR next line stays readable",
  ].map((l) => r.line(l));
  assert.equal(out[1], "2024-05-01 ERROR next line stays readable");
});

Deno.test("redaction stays fast on adversarial 64 KiB lines", () => {
  for (
    const line of [
      "a.".repeat(32768),
      "a".repeat(65536),
      "token".repeat(13000),
      "x://".repeat(16000),
      "k=".repeat(32768),
    ]
  ) {
    const t = performance.now();
    redactLine(line);
    const ms = performance.now() - t;
    assert.ok(ms < 1000, `${line.slice(0, 8)}…: ${ms.toFixed(0)} ms`);
  }
});
