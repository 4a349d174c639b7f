/**
 * Lines of each format of `log_format.ts`'s table, written by hand from that program's documentation (the
 * entry's `url`), never copied from a corpus: for each line the level it writes, as logpeek names levels,
 * and the instant its timestamp names (UTC, ISO 8601), or null where the line writes no date. Used by
 * `log_format_test.ts`.
 *
 * @module
 */

/** One sample line: its text, its level (a continuation line: its entry's), its time or null. */
export type SampleLine = [text: string, level: string, time: string | null];

/** Sample lines by format name. */
export const SAMPLES: Record<string, SampleLine[]> = {
  nginx_access: [
    [
      '192.0.2.10 - - [01/Mar/2024:10:15:32 +0000] "GET /index.html HTTP/1.1" 200 612 "-" "curl/8.5.0"',
      "UNKNOWN",
      "2024-03-01T10:15:32.000Z",
    ],
    [
      '192.0.2.11 - alice [01/Mar/2024:10:15:33 +0100] "POST /login HTTP/1.1" 302 0 "https://example.com/" "Mozilla/5.0"',
      "UNKNOWN",
      "2024-03-01T09:15:33.000Z",
    ],
    [
      '198.51.100.7 - - [01/Mar/2024:10:15:34 +0000] "GET /missing HTTP/1.1" 404 153 "-" "Mozilla/5.0"',
      "UNKNOWN",
      "2024-03-01T10:15:34.000Z",
    ],
  ],
  apache_access: [
    [
      '127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326',
      "UNKNOWN",
      "2000-10-10T20:55:36.000Z",
    ],
    [
      '127.0.0.1 - - [10/Oct/2000:13:55:37 -0700] "GET /favicon.ico HTTP/1.0" 404 -',
      "UNKNOWN",
      "2000-10-10T20:55:37.000Z",
    ],
    [
      '192.0.2.5 - - [10/Oct/2000:13:56:00 -0700] "GET / HTTP/1.0" 200 45',
      "UNKNOWN",
      "2000-10-10T20:56:00.000Z",
    ],
  ],
  apache_vhost_combined: [
    [
      'www.example.com:443 192.0.2.10 - - [01/Mar/2024:10:15:32 +0000] "GET / HTTP/1.1" 200 3477 "-" "curl/8.5.0"',
      "UNKNOWN",
      "2024-03-01T10:15:32.000Z",
    ],
    [
      'blog.example.com:80 198.51.100.7 - - [01/Mar/2024:10:15:33 +0000] "GET /feed HTTP/1.1" 304 247 "https://example.com/" "Mozilla/5.0"',
      "UNKNOWN",
      "2024-03-01T10:15:33.000Z",
    ],
  ],
  nginx_error: [
    [
      '2024/03/01 10:15:32 [notice] 1234#1234: using the "epoll" event method',
      "NOTICE",
      "2024-03-01T10:15:32.000Z",
    ],
    [
      '2024/03/01 10:15:33 [error] 1235#1235: *7 open() "/usr/share/nginx/html/missing" failed (2: No such file or directory), client: 192.0.2.10, server: localhost, request: "GET /missing HTTP/1.1", host: "localhost"',
      "ERROR",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      "2024/03/01 10:15:34 [warn] 1234#1234: 1024 worker_connections exceed open file resource limit: 256",
      "WARN",
      "2024-03-01T10:15:34.000Z",
    ],
    [
      "2024/03/01 10:15:35 [crit] 1235#1235: *8 SSL_do_handshake() failed",
      "FATAL",
      "2024-03-01T10:15:35.000Z",
    ],
  ],
  apache_error: [
    [
      "[Fri Sep 09 10:42:29.902022 2011] [core:error] [pid 35708:tid 4328636416] [client 72.15.99.187] File does not exist: /usr/local/apache2/htdocs/favicon.ico",
      "ERROR",
      "2011-09-09T10:42:29.902Z",
    ],
    [
      "[Fri Sep 09 10:42:30.000001 2011] [mpm_event:notice] [pid 35707:tid 4328636416] AH00489: Apache/2.4.58 (Unix) configured -- resuming normal operations",
      "NOTICE",
      "2011-09-09T10:42:30.000Z",
    ],
    [
      "[Fri Sep 09 10:42:31.000002 2011] [ssl:warn] [pid 35707:tid 4328636416] AH01909: www.example.com:443:0 server certificate does NOT include an ID which matches the server name",
      "WARN",
      "2011-09-09T10:42:31.000Z",
    ],
    [
      "[Fri Sep 09 10:42:32.000003 2011] [authz_core:trace3] [pid 35708:tid 4328636416] authz_core.c(817): AH01626: authorization result of Require all granted: granted",
      "TRACE",
      "2011-09-09T10:42:32.000Z",
    ],
  ],
  caddy: [
    [
      '{"level":"info","ts":1709288132.5,"logger":"http.log.access","msg":"handled request","request":{"method":"GET","uri":"/"},"status":200}',
      "INFO",
      "2024-03-01T10:15:32.500Z",
    ],
    [
      '{"level":"warn","ts":1709288133.25,"logger":"tls","msg":"stapling OCSP","error":"no OCSP server"}',
      "WARN",
      "2024-03-01T10:15:33.250Z",
    ],
    [
      '{"level":"error","ts":1709288134.125,"logger":"http.log.error","msg":"dial tcp: connection refused"}',
      "ERROR",
      "2024-03-01T10:15:34.125Z",
    ],
  ],
  iis_w3c: [
    ["#Software: Microsoft Internet Information Services 10.0", "UNKNOWN", null],
    ["#Version: 1.0", "UNKNOWN", null],
    ["#Date: 2024-03-01 10:15:32", "UNKNOWN", null],
    [
      "#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken",
      "UNKNOWN",
      null,
    ],
    [
      "2024-03-01 10:15:32 10.0.0.4 GET /index.htm - 80 - 192.0.2.10 Mozilla/5.0 - 200 0 0 15",
      "UNKNOWN",
      "2024-03-01T10:15:32.000Z",
    ],
    [
      "2024-03-01 10:15:33 10.0.0.4 GET /missing - 80 - 192.0.2.10 Mozilla/5.0 - 404 0 2 1",
      "UNKNOWN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      "2024-03-01 10:15:34 10.0.0.4 POST /api - 443 bob 192.0.2.11 curl/8.5.0 - 500 0 0 120",
      "UNKNOWN",
      "2024-03-01T10:15:34.000Z",
    ],
  ],
  postgresql: [
    [
      "2024-03-01 10:15:32.123 UTC [1234] LOG:  database system is ready to accept connections",
      "INFO",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      '2024-03-01 10:15:33.456 UTC [1240] ERROR:  relation "missing" does not exist at character 15',
      "ERROR",
      "2024-03-01T10:15:33.456Z",
    ],
    [
      "2024-03-01 10:15:33.456 UTC [1240] STATEMENT:  SELECT * FROM missing",
      "ERROR",
      "2024-03-01T10:15:33.456Z",
    ],
    [
      "2024-03-01 10:15:34.789 UTC [1241] WARNING:  there is no transaction in progress",
      "WARN",
      "2024-03-01T10:15:34.789Z",
    ],
    [
      '2024-03-01 10:15:35.000 UTC [1242] FATAL:  password authentication failed for user "app"',
      "FATAL",
      "2024-03-01T10:15:35.000Z",
    ],
    [
      '2024-03-01 10:15:35.000 UTC [1242] DETAIL:  Connection matched pg_hba.conf line 99: "host all all 0.0.0.0/0 scram-sha-256"',
      "FATAL",
      "2024-03-01T10:15:35.000Z",
    ],
    [
      "2024-03-01 10:15:36.000 UTC [1243] DEBUG2:  checkpointer updated shared memory configuration values",
      "DEBUG",
      "2024-03-01T10:15:36.000Z",
    ],
  ],
  mysql_error: [
    [
      "2024-03-01T10:15:32.123456Z 0 [System] [MY-010116] [Server] /usr/sbin/mysqld (mysqld 8.0.36) starting as process 1",
      "INFO",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      "2024-03-01T10:15:33.000001Z 0 [Warning] [MY-010068] [Server] CA certificate ca.pem is self signed.",
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      "2024-03-01T10:15:34.000002Z 0 [Note] [MY-010253] [Server] IPv6 is available.",
      "INFO",
      "2024-03-01T10:15:34.000Z",
    ],
    [
      "2024-03-01T10:15:35.000003Z 8 [Error] [MY-010584] [Repl] Replica SQL for channel '': Error executing row event",
      "ERROR",
      "2024-03-01T10:15:35.000Z",
    ],
  ],
  mariadb_error: [
    [
      "2024-03-01 10:15:32 0 [Note] InnoDB: Buffer pool(s) load completed at 240301 10:15:32",
      "INFO",
      "2024-03-01T10:15:32.000Z",
    ],
    [
      "2024-03-01 10:15:33 0 [Warning] Aborted connection 12 to db: 'app' user: 'app' host: 'localhost' (Got timeout reading communication packets)",
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      "2024-03-01 10:15:34 0 [ERROR] mariadbd: Can't lock aria control file '/var/lib/mysql/aria_log_control'",
      "ERROR",
      "2024-03-01T10:15:34.000Z",
    ],
  ],
  mongodb: [
    [
      '{"t":{"$date":"2024-03-01T10:15:32.123+00:00"},"s":"I",  "c":"NETWORK",  "id":23016,   "ctx":"listener","msg":"Waiting for connections","attr":{"port":27017,"ssl":"off"}}',
      "INFO",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      '{"t":{"$date":"2024-03-01T10:15:33.000+00:00"},"s":"W",  "c":"CONTROL",  "id":22120,   "ctx":"initandlisten","msg":"Access control is not enabled for the database"}',
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      '{"t":{"$date":"2024-03-01T10:15:34.000+00:00"},"s":"E",  "c":"STORAGE",  "id":22435,   "ctx":"initandlisten","msg":"WiredTiger error"}',
      "ERROR",
      "2024-03-01T10:15:34.000Z",
    ],
    [
      '{"t":{"$date":"2024-03-01T10:15:35.000+00:00"},"s":"D1", "c":"COMMAND",  "id":21966,   "ctx":"conn1","msg":"Assertion while executing command"}',
      "DEBUG",
      "2024-03-01T10:15:35.000Z",
    ],
  ],
  redis: [
    [
      "1:C 01 Mar 2024 10:15:32.123 # oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo",
      "WARN",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      "1:M 01 Mar 2024 10:15:32.125 * Running mode=standalone, port=6379.",
      "NOTICE",
      "2024-03-01T10:15:32.125Z",
    ],
    [
      "1:M 01 Mar 2024 10:15:32.126 # WARNING: The TCP backlog setting of 511 cannot be enforced",
      "WARN",
      "2024-03-01T10:15:32.126Z",
    ],
    ["1:M 01 Mar 2024 10:15:33.000 - Accepted 127.0.0.1:50012", "DEBUG", "2024-03-01T10:15:33.000Z"],
    ["1:M 01 Mar 2024 10:15:34.000 . Client closed connection", "DEBUG", "2024-03-01T10:15:34.000Z"],
    ["1:S 01 Mar 2024 10:15:35.000 * Ready to accept connections tcp", "NOTICE", "2024-03-01T10:15:35.000Z"],
  ],
  elasticsearch: [
    [
      "[2024-03-01T10:15:32,123][INFO ][o.e.n.Node               ] [node-1] started",
      "INFO",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      "[2024-03-01T10:15:33,000][WARN ][o.e.c.r.a.DiskThresholdMonitor] [node-1] high disk watermark [90%] exceeded",
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      "[2024-03-01T10:15:34,000][ERROR][o.e.b.Elasticsearch      ] [node-1] fatal exception while booting Elasticsearch",
      "ERROR",
      "2024-03-01T10:15:34.000Z",
    ],
    ["java.lang.IllegalStateException: failed to obtain node locks", "ERROR", null],
    ["\tat org.elasticsearch.env.NodeEnvironment.<init>(NodeEnvironment.java:291)", "ERROR", null],
  ],
  cassandra: [
    [
      "INFO  [main] 2024-03-01 10:15:32,123 CassandraDaemon.java:617 - JVM vendor/version: OpenJDK 64-Bit Server VM/11.0.22",
      "INFO",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      "WARN  [main] 2024-03-01 10:15:33,000 StartupChecks.java:311 - Maximum number of memory map areas per process (vm.max_map_count) 65530 is too low",
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      "ERROR [CompactionExecutor:1] 2024-03-01 10:15:34,000 CassandraDaemon.java:244 - Exception in thread Thread[CompactionExecutor:1,1,main]",
      "ERROR",
      "2024-03-01T10:15:34.000Z",
    ],
    [
      "DEBUG [ScheduledTasks:1] 2024-03-01 10:15:35,000 ColumnFamilyStore.java:918 - Enqueuing flush of local",
      "DEBUG",
      "2024-03-01T10:15:35.000Z",
    ],
  ],
  sqlserver_errorlog: [
    [
      "2024-03-01 10:15:32.12 Server      Microsoft SQL Server 2019 (RTM-CU25) (KB5033688) - 15.0.4355.3 (X64)",
      "UNKNOWN",
      "2024-03-01T10:15:32.120Z",
    ],
    ["2024-03-01 10:15:32.45 Server      (c) Microsoft Corporation.", "UNKNOWN", "2024-03-01T10:15:32.450Z"],
    [
      "2024-03-01 10:15:33.00 spid9s      Starting up database 'master'.",
      "UNKNOWN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      "2024-03-01 10:15:34.00 Logon       Error: 18456, Severity: 14, State: 8.",
      "ERROR",
      "2024-03-01T10:15:34.000Z",
    ],
    [
      "2024-03-01 10:15:34.00 Logon       Login failed for user 'sa'. Reason: Password did not match. [CLIENT: 192.0.2.10]",
      "UNKNOWN",
      "2024-03-01T10:15:34.000Z",
    ],
  ],
  memcached: [
    ["<26 new auto-negotiating client connection", "UNKNOWN", null],
    ["26: Client using the ascii protocol", "UNKNOWN", null],
    ["<26 set foo 0 0 3", "UNKNOWN", null],
    [">26 STORED", "UNKNOWN", null],
    ["<26 connection closed.", "UNKNOWN", null],
  ],
  rabbitmq: [
    [
      "2024-03-01 10:15:32.123456+00:00 [info] <0.230.0> Starting RabbitMQ 3.12.12 on Erlang 26.2.1",
      "INFO",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      "2024-03-01 10:15:33.000001+00:00 [warning] <0.612.0> closing AMQP connection <0.612.0> (192.0.2.10:50712 -> 10.0.0.4:5672, vhost: '/', user: 'guest')",
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      "2024-03-01 10:15:34.000002+00:00 [error] <0.700.0> Error on AMQP connection <0.700.0>: access refused",
      "ERROR",
      "2024-03-01T10:15:34.000Z",
    ],
    [
      "2024-03-01 10:15:35.000003+00:00 [notice] <0.44.0> Application mnesia exited with reason: stopped",
      "NOTICE",
      "2024-03-01T10:15:35.000Z",
    ],
  ],
  kafka: [
    [
      "[2024-03-01 10:15:32,123] INFO [KafkaServer id=0] started (kafka.server.KafkaServer)",
      "INFO",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      "[2024-03-01 10:15:33,000] WARN [ReplicaFetcher replicaId=1, leaderId=0, fetcherId=0] Connection to node 0 could not be established. (org.apache.kafka.clients.NetworkClient)",
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      "[2024-03-01 10:15:34,000] ERROR Error while creating log for topic-0 (kafka.server.ReplicaManager)",
      "ERROR",
      "2024-03-01T10:15:34.000Z",
    ],
    ["java.io.IOException: No space left on device", "ERROR", null],
    ["\tat java.base/sun.nio.ch.FileDispatcherImpl.write0(Native Method)", "ERROR", null],
  ],
  zookeeper: [
    [
      "2024-03-01 10:15:32,123 [myid:1] - INFO  [main:QuorumPeerMain@137] - Starting quorum peer",
      "INFO",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      "2024-03-01 10:15:33,000 [myid:1] - WARN  [QuorumConnectionThread-[myid=1]-1:QuorumCnxManager@401] - Cannot open channel to 2 at election address zk2/10.0.0.5:3888",
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      "2024-03-01 10:15:34,000 [myid:] - ERROR [main:ZooKeeperServerMain@90] - Unexpected exception, exiting abnormally",
      "ERROR",
      "2024-03-01T10:15:34.000Z",
    ],
  ],
  nats: [
    ["[1] 2024/03/01 10:15:32.123456 [INF] Starting nats-server", "INFO", "2024-03-01T10:15:32.123Z"],
    ["[1] 2024/03/01 10:15:32.123999 [INF]   Version:  2.10.11", "INFO", "2024-03-01T10:15:32.123Z"],
    [
      "[1] 2024/03/01 10:15:33.000001 [WRN] Plaintext passwords detected, use nkeys or bcrypt",
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      "[1] 2024/03/01 10:15:34.000002 [ERR] 192.0.2.10:50712 - cid:5 - authentication error",
      "ERROR",
      "2024-03-01T10:15:34.000Z",
    ],
    [
      "[1] 2024/03/01 10:15:35.000003 [DBG] 192.0.2.10:50713 - cid:6 - Client connection created",
      "DEBUG",
      "2024-03-01T10:15:35.000Z",
    ],
  ],
  activemq: [
    [
      "2024-03-01 10:15:32,123 | INFO  | Apache ActiveMQ 5.18.3 (localhost, ID:host-1) is starting | org.apache.activemq.broker.BrokerService | main",
      "INFO",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      "2024-03-01 10:15:33,000 | WARN  | Store limit is 102400 mb, whilst the data directory only has 50000 mb of usable space | org.apache.activemq.broker.BrokerService | main",
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      "2024-03-01 10:15:34,000 | ERROR | Failed to start Apache ActiveMQ | org.apache.activemq.broker.BrokerService | main",
      "ERROR",
      "2024-03-01T10:15:34.000Z",
    ],
  ],
  haproxy: [
    [
      'Mar  1 10:15:32 lb1 haproxy[1234]: 192.0.2.10:50712 [01/Mar/2024:10:15:32.120] http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 "GET /index.html HTTP/1.1"',
      "UNKNOWN",
      "2024-03-01T10:15:32.000Z",
    ],
    [
      'Mar  1 10:15:33 lb1 haproxy[1234]: 192.0.2.11:50713 [01/Mar/2024:10:15:33.001] http-in app/srv2 0/0/1/-1/5002 504 194 - - sH-- 2/2/1/1/0 0/0 "GET /slow HTTP/1.1"',
      "UNKNOWN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      'Mar  1 10:15:34 lb1 haproxy[1234]: 192.0.2.12:50714 [01/Mar/2024:10:15:34.500] http-in app/srv1 0/0/0/3/3 200 512 - - ---- 1/1/0/0/0 0/0 "POST /api HTTP/1.1"',
      "UNKNOWN",
      "2024-03-01T10:15:34.000Z",
    ],
  ],
  envoy_access: [
    [
      '[2024-03-01T10:15:32.123Z] "GET /status HTTP/1.1" 200 - 0 17 3 2 "-" "curl/8.5.0" "7c7d3c0e-1a2b-4c5d-8e9f-0a1b2c3d4e5f" "example.com" "10.0.0.5:8080"',
      "UNKNOWN",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      '[2024-03-01T10:15:33.000Z] "POST /api HTTP/1.1" 503 UF 120 91 5 - "192.0.2.10" "Mozilla/5.0" "8d8e4d1f-2b3c-4d5e-9f0a-1b2c3d4e5f60" "example.com" "10.0.0.6:8080"',
      "UNKNOWN",
      "2024-03-01T10:15:33.000Z",
    ],
  ],
  envoy: [
    [
      "[2024-03-01 10:15:32.123][1][info][main] [source/server/server.cc:404] initializing epoch 0 (base id=0, hot restart version=11.104)",
      "INFO",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      "[2024-03-01 10:15:33.000][1][warning][config] [source/common/config/grpc_stream.h:201] DeltaAggregatedResources gRPC config stream closed",
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      "[2024-03-01 10:15:34.000][14][critical][backtrace] [./source/server/backtrace.h:104] Caught Segmentation fault, suspect faulting address 0x0",
      "FATAL",
      "2024-03-01T10:15:34.000Z",
    ],
    [
      "[2024-03-01 10:15:35.000][14][debug][upstream] [source/common/upstream/cluster_manager_impl.cc:1105] adding TLS cluster service_a",
      "DEBUG",
      "2024-03-01T10:15:35.000Z",
    ],
  ],
  traefik: [
    [
      "2024-03-01T10:15:32Z INF Traefik version 3.0.0 built on 2024-04-29T14:25:59Z version=3.0.0",
      "INFO",
      "2024-03-01T10:15:32.000Z",
    ],
    [
      "2024-03-01T10:15:33Z WRN Traefik can reach the Docker daemon through the socket providerName=docker",
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      '2024-03-01T10:15:34Z ERR Cannot create service error="service not found" entryPointName=web routerName=app@docker',
      "ERROR",
      "2024-03-01T10:15:34.000Z",
    ],
    [
      "2024-03-01T10:15:35Z DBG Filtering disabled container container=db-1",
      "DEBUG",
      "2024-03-01T10:15:35.000Z",
    ],
    ["2024-03-01T10:15:36Z PNC runtime error: invalid memory address", "FATAL", "2024-03-01T10:15:36.000Z"],
  ],
  squid_access: [
    [
      "1709288132.123     45 192.0.2.10 TCP_MISS/200 1514 GET http://example.com/ - HIER_DIRECT/93.184.216.34 text/html",
      "UNKNOWN",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      "1709288133.000      0 192.0.2.10 TCP_DENIED/403 3890 GET http://blocked.example/ - HIER_NONE/- text/html",
      "UNKNOWN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      "1709288134.500    120 192.0.2.11 TCP_TUNNEL/200 5120 CONNECT example.org:443 - HIER_DIRECT/93.184.216.35 -",
      "UNKNOWN",
      "2024-03-01T10:15:34.500Z",
    ],
  ],
  squid_cache: [
    [
      "2024/03/01 10:15:32| Starting Squid Cache version 6.6 for x86_64-pc-linux-gnu...",
      "UNKNOWN",
      "2024-03-01T10:15:32.000Z",
    ],
    [
      "2024/03/01 10:15:33 kid1| WARNING: BCP 177 violation. Detected non-functional IPv6 loopback.",
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      "2024/03/01 10:15:34 kid1| ERROR: failure while accepting a TCP connection on conn5 local=[::]:3128",
      "ERROR",
      "2024-03-01T10:15:34.000Z",
    ],
    ["    current master transaction: master53", "ERROR", null],
    [
      "2024/03/01 10:15:35 kid1| Accepting HTTP Socket connections at conn5 local=[::]:3128 remote=[::] FD 12 flags=9",
      "UNKNOWN",
      "2024-03-01T10:15:35.000Z",
    ],
  ],
  syslog_rfc5424: [
    [
      "<34>1 2003-10-11T22:14:15.003Z mymachine.example.com su - ID47 - 'su root' failed for lonvick on /dev/pts/8",
      "FATAL",
      "2003-10-11T22:14:15.003Z",
    ],
    [
      "<165>1 2003-08-24T05:14:15.000003-07:00 192.0.2.1 myproc 8710 - - %% It's time to make the do-nuts.",
      "NOTICE",
      "2003-08-24T12:14:15.000Z",
    ],
    [
      '<86>1 2024-03-01T10:15:32.123456+00:00 host1 sshd 4242 - [meta sequenceId="1"] Accepted publickey for alice from 192.0.2.10 port 50712 ssh2',
      "INFO",
      "2024-03-01T10:15:32.123Z",
    ],
  ],
  rsyslog_file: [
    [
      "2024-03-01T10:15:32.123456+00:00 host1 sshd[4242]: Accepted publickey for alice from 192.0.2.10 port 50712 ssh2: ED25519 SHA256:abc",
      "UNKNOWN",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      "2024-03-01T10:15:33.000001+00:00 host1 sudo:    alice : TTY=pts/0 ; PWD=/home/alice ; USER=root ; COMMAND=/usr/bin/apt update",
      "UNKNOWN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      "2024-03-01T10:17:01.000002+00:00 host1 CRON[4300]: (root) CMD (cd / && run-parts --report /etc/cron.hourly)",
      "UNKNOWN",
      "2024-03-01T10:17:01.000Z",
    ],
    [
      "2024-03-01T10:17:02.000003+00:00 host1 kernel: [12345.678901] EXT4-fs (sda1): mounted filesystem with ordered data mode",
      "UNKNOWN",
      "2024-03-01T10:17:02.000Z",
    ],
  ],
  syslog_rfc3164: [
    [
      "Mar  1 10:15:32 host1 sshd[4242]: Accepted publickey for alice from 192.0.2.10 port 50712 ssh2: ED25519 SHA256:abc",
      "UNKNOWN",
      "2024-03-01T10:15:32.000Z",
    ],
    [
      "Mar  1 10:15:40 host1 sshd[4250]: Failed password for invalid user admin from 198.51.100.7 port 40022 ssh2",
      "UNKNOWN",
      "2024-03-01T10:15:40.000Z",
    ],
    [
      "Mar  1 10:16:01 host1 sudo:    alice : TTY=pts/0 ; PWD=/home/alice ; USER=root ; COMMAND=/usr/bin/systemctl restart nginx",
      "UNKNOWN",
      "2024-03-01T10:16:01.000Z",
    ],
    [
      "Mar  1 10:17:01 host1 CRON[4300]: (root) CMD (cd / && run-parts --report /etc/cron.hourly)",
      "UNKNOWN",
      "2024-03-01T10:17:01.000Z",
    ],
    [
      "Mar 11 10:17:02 host1 sshd[4251]: error: kex_exchange_identification: Connection closed by remote host",
      "ERROR",
      "2024-03-11T10:17:02.000Z",
    ],
  ],
  journald_json: [
    [
      '{"__CURSOR":"s=1;i=2","__REALTIME_TIMESTAMP":"1709288132123456","__MONOTONIC_TIMESTAMP":"123","_BOOT_ID":"b","PRIORITY":"6","SYSLOG_IDENTIFIER":"sshd","MESSAGE":"Accepted publickey for alice"}',
      "INFO",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      '{"__CURSOR":"s=1;i=3","__REALTIME_TIMESTAMP":"1709288133000000","__MONOTONIC_TIMESTAMP":"124","_BOOT_ID":"b","PRIORITY":"3","SYSLOG_IDENTIFIER":"nginx","MESSAGE":"bind() failed"}',
      "ERROR",
      "2024-03-01T10:15:33.000Z",
    ],
  ],
  docker_json: [
    [
      '{"log":"Listening on port 8080\\n","stream":"stdout","time":"2024-03-01T10:15:32.123456789Z"}',
      "UNKNOWN",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      '{"log":"2024-03-01 10:15:33 ERROR db connection refused\\n","stream":"stderr","time":"2024-03-01T10:15:33.000000001Z"}',
      "ERROR",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      '{"log":"WARN cache miss rate high\\n","stream":"stdout","time":"2024-03-01T10:15:34.000000002Z"}',
      "WARN",
      "2024-03-01T10:15:34.000Z",
    ],
    [
      '{"log":"\\tat com.example.App.main(App.java:12)\\n","stream":"stderr","time":"2024-03-01T10:15:34.000000003Z"}',
      "WARN",
      "2024-03-01T10:15:34.000Z",
    ],
  ],
  cri: [
    ["2024-03-01T10:15:32.123456789Z stdout F Listening on port 8080", "UNKNOWN", "2024-03-01T10:15:32.123Z"],
    [
      "2024-03-01T10:15:33.000000001Z stderr F 2024-03-01 10:15:33 ERROR db connection refused",
      "ERROR",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      '2024-03-01T10:15:34.000000002Z stdout F {"level":"warn","msg":"slow query"}',
      "WARN",
      "2024-03-01T10:15:34.000Z",
    ],
    [
      "2024-03-01T10:15:35.000000003Z stderr F \tat com.example.App.main(App.java:12)",
      "WARN",
      "2024-03-01T10:15:35.000Z",
    ],
  ],
  klog: [
    ["I0301 10:15:32.123456       1 server.go:152] Version: v1.29.2", "INFO", "2024-03-01T10:15:32.123Z"],
    [
      "W0301 10:15:33.000001       1 reflector.go:539] failed to list *v1.Pod: connection refused",
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      "E0301 10:15:34.000002   12345 controller.go:114] error syncing 'default/app': not found",
      "ERROR",
      "2024-03-01T10:15:34.000Z",
    ],
    ["F0301 10:15:35.000003       1 main.go:44] unable to load config", "FATAL", "2024-03-01T10:15:35.000Z"],
  ],
  etcd: [
    [
      '{"level":"info","ts":"2024-03-01T10:15:32.123456Z","caller":"etcdmain/etcd.go:73","msg":"Running: ","args":["etcd"]}',
      "INFO",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      '{"level":"warn","ts":"2024-03-01T10:15:33.000001Z","caller":"etcdserver/util.go:170","msg":"apply request took too long","took":"120ms"}',
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      '{"level":"error","ts":"2024-03-01T10:15:34.000002Z","caller":"rafthttp/peer.go:318","msg":"failed to dial peer"}',
      "ERROR",
      "2024-03-01T10:15:34.000Z",
    ],
  ],
  logrus_text: [
    [
      'time="2024-03-01T10:15:32.123456789Z" level=info msg="Starting up"',
      "INFO",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      'time="2024-03-01T10:15:33.000000001Z" level=warning msg="Running in rootless mode" module=daemon',
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      'time="2024-03-01T10:15:34.000000002Z" level=error msg="Handler for GET /v1.44/containers/x/json returned error: No such container: x"',
      "ERROR",
      "2024-03-01T10:15:34.000Z",
    ],
  ],
  python_logging: [
    ["WARNING:root:Watch out!", "WARN", null],
    ["INFO:myapp.db:connected to db", "INFO", null],
    ["ERROR:myapp:request failed", "ERROR", null],
    ["Traceback (most recent call last):", "ERROR", null],
    ['  File "app.py", line 3, in <module>', "ERROR", null],
    ["ZeroDivisionError: division by zero", "ERROR", null],
    ["CRITICAL:myapp:giving up", "FATAL", null],
  ],
  python_asctime: [
    ["2024-03-01 10:15:32,123 - simple_example - DEBUG - debug message", "DEBUG", "2024-03-01T10:15:32.123Z"],
    ["2024-03-01 10:15:33,000 - simple_example - WARNING - warn message", "WARN", "2024-03-01T10:15:33.000Z"],
    [
      "2024-03-01 10:15:34,000 - simple_example - CRITICAL - critical message",
      "FATAL",
      "2024-03-01T10:15:34.000Z",
    ],
  ],
  java_util_logging: [
    ["Mar 01, 2024 10:15:32 AM com.example.App main", "INFO", "2024-03-01T10:15:32.000Z"],
    ["INFO: started", "INFO", null],
    ["Mar 01, 2024 10:15:33 AM com.example.App load", "WARN", "2024-03-01T10:15:33.000Z"],
    ["WARNING: config file missing, using defaults", "WARN", null],
    ["Mar 01, 2024 1:15:34 PM com.example.App run", "ERROR", "2024-03-01T13:15:34.000Z"],
    ["SEVERE: task failed", "ERROR", null],
    ["java.lang.IllegalStateException: boom", "ERROR", null],
    ["\tat com.example.App.run(App.java:42)", "ERROR", null],
  ],
  spring_boot: [
    [
      "2024-03-01T10:15:32.123Z  INFO 4242 --- [myapp] [           main] o.s.b.d.f.logexample.MyApplication       : Starting MyApplication using Java 17",
      "INFO",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      "2024-03-01T10:15:33.000Z  WARN 4242 --- [myapp] [           main] o.s.b.a.o.j.JpaBaseConfiguration         : spring.jpa.open-in-view is enabled by default",
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      "2024-03-01T10:15:34.000Z ERROR 4242 --- [myapp] [nio-8080-exec-1] o.a.c.c.C.[.[.[/].[dispatcherServlet]    : Servlet.service() threw exception",
      "ERROR",
      "2024-03-01T10:15:34.000Z",
    ],
  ],
  log4j2_default: [
    ["10:15:32.123 [main] ERROR com.example.App - Could not open file", "ERROR", null],
    ["10:15:33.000 [main] WARN  com.example.App - retrying", "WARN", null],
    ["10:15:34.000 [worker-1] FATAL com.example.App - giving up", "FATAL", null],
  ],
  logback_default: [
    ["10:15:32.123 [main] INFO  com.example.App -- Application started", "INFO", null],
    ["10:15:33.000 [main] DEBUG com.example.Db -- pool size 10", "DEBUG", null],
    ["10:15:34.000 [http-1] ERROR com.example.Web -- request failed", "ERROR", null],
  ],
  go_slog_default: [
    ["2024/03/01 10:15:32 INFO hello count=3", "INFO", "2024-03-01T10:15:32.000Z"],
    ["2024/03/01 10:15:33 WARN disk almost full free=1.2GB", "WARN", "2024-03-01T10:15:33.000Z"],
    ['2024/03/01 10:15:34 ERROR request failed err="connection reset"', "ERROR", "2024-03-01T10:15:34.000Z"],
  ],
  go_log: [
    ["2024/03/01 10:15:32 listening on :8080", "UNKNOWN", "2024-03-01T10:15:32.000Z"],
    ["2024/03/01 10:15:33 accepted connection from 192.0.2.10:50712", "UNKNOWN", "2024-03-01T10:15:33.000Z"],
    ["2024/03/01 10:15:34 shutting down", "UNKNOWN", "2024-03-01T10:15:34.000Z"],
  ],
  go_slog_text: [
    ["time=2024-03-01T10:15:32.123Z level=INFO msg=hello count=3", "INFO", "2024-03-01T10:15:32.123Z"],
    [
      'time=2024-03-01T10:15:33.000Z level=WARN msg="disk almost full" free=1.2GB',
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      'time=2024-03-01T10:15:34.000Z level=ERROR msg="request failed" err="connection reset"',
      "ERROR",
      "2024-03-01T10:15:34.000Z",
    ],
    ['time=2024-03-01T10:15:35.000Z level=DEBUG-4 msg="very verbose"', "DEBUG", "2024-03-01T10:15:35.000Z"],
  ],
  go_slog_json: [
    [
      '{"time":"2024-03-01T10:15:32.123456789Z","level":"INFO","msg":"hello","count":3}',
      "INFO",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      '{"time":"2024-03-01T10:15:33.000000001Z","level":"WARN","msg":"disk almost full"}',
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      '{"time":"2024-03-01T10:15:34.000000002Z","level":"ERROR","msg":"request failed","err":"connection reset"}',
      "ERROR",
      "2024-03-01T10:15:34.000Z",
    ],
    [
      '{"time":"2024-03-01T10:15:35.000000003Z","level":"INFO+2","msg":"between info and warn"}',
      "INFO",
      "2024-03-01T10:15:35.000Z",
    ],
  ],
  pino: [
    [
      '{"level":30,"time":1709288132123,"pid":4242,"hostname":"host1","msg":"hello world"}',
      "INFO",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      '{"level":40,"time":1709288133000,"pid":4242,"hostname":"host1","msg":"slow"}',
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      '{"level":50,"time":1709288134000,"pid":4242,"hostname":"host1","err":{"type":"Error","message":"boom"},"msg":"boom"}',
      "ERROR",
      "2024-03-01T10:15:34.000Z",
    ],
  ],
  bunyan: [
    [
      '{"name":"myapp","hostname":"host1","pid":4242,"level":30,"msg":"hi","time":"2024-03-01T10:15:32.123Z","v":0}',
      "INFO",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      '{"name":"myapp","hostname":"host1","pid":4242,"level":50,"msg":"boom","time":"2024-03-01T10:15:33.000Z","v":0}',
      "ERROR",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      '{"name":"myapp","hostname":"host1","pid":4242,"level":20,"msg":"details","time":"2024-03-01T10:15:34.000Z","v":0}',
      "DEBUG",
      "2024-03-01T10:15:34.000Z",
    ],
  ],
  winston: [
    ['{"level":"info","message":"server started"}', "INFO", null],
    ['{"level":"http","message":"GET /health 200"}', "DEBUG", null],
    ['{"level":"error","message":"db down"}', "ERROR", null],
    ['{"level":"silly","message":"tick"}', "TRACE", null],
  ],
  ruby_logger: [
    [
      'I, [2024-03-01T10:15:32.123456 #4242]  INFO -- : Started GET "/" for 127.0.0.1',
      "INFO",
      "2024-03-01T10:15:32.123Z",
    ],
    ["W, [2024-03-01T10:15:33.000001 #4242]  WARN -- MyApp: low disk", "WARN", "2024-03-01T10:15:33.000Z"],
    [
      'E, [2024-03-01T10:15:34.000002 #4242] ERROR -- : ActionController::RoutingError (No route matches [GET] "/x"):',
      "ERROR",
      "2024-03-01T10:15:34.000Z",
    ],
    [
      "D, [2024-03-01T10:15:35.000003 #4242] DEBUG -- : SQL (0.2ms) SELECT 1",
      "DEBUG",
      "2024-03-01T10:15:35.000Z",
    ],
    ["F, [2024-03-01T10:15:36.000004 #4242] FATAL -- : crashed", "FATAL", "2024-03-01T10:15:36.000Z"],
  ],
  laravel: [
    [
      '[2024-03-01 10:15:32] local.ERROR: Undefined variable $x {"exception":"[object] (ErrorException(code: 0): Undefined variable $x at /app/routes/web.php:5)',
      "ERROR",
      "2024-03-01T10:15:32.000Z",
    ],
    ["[stacktrace]", "ERROR", null],
    [
      "#0 /app/vendor/laravel/framework/src/Illuminate/Foundation/Bootstrap/HandleExceptions.php(255): Illuminate\\Foundation\\Bootstrap\\HandleExceptions->handleError()",
      "ERROR",
      null,
    ],
    ['"}', "ERROR", null],
    ['[2024-03-01 10:15:33] production.INFO: User logged in {"id":7}', "INFO", "2024-03-01T10:15:33.000Z"],
    ["[2024-03-01 10:15:34] local.WARNING: Cache miss", "WARN", "2024-03-01T10:15:34.000Z"],
  ],
  monolog: [
    [
      '[2024-03-01T10:15:32.123456+00:00] app.INFO: Adding a new user {"username":"seldaek"} []',
      "INFO",
      "2024-03-01T10:15:32.123Z",
    ],
    [
      "[2024-03-01T10:15:33.000001+00:00] security.WARNING: Login failed [] []",
      "WARN",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      '[2024-03-01T10:15:34.000002+00:00] request.CRITICAL: Uncaught PHP Exception RuntimeException: "boom" [] []',
      "FATAL",
      "2024-03-01T10:15:34.000Z",
    ],
  ],
  php_error: [
    [
      "[01-Mar-2024 10:15:32 UTC] PHP Warning:  Undefined variable $x in /var/www/index.php on line 5",
      "WARN",
      "2024-03-01T10:15:32.000Z",
    ],
    [
      "[01-Mar-2024 10:15:33 UTC] PHP Fatal error:  Uncaught Error: Call to undefined function foo() in /var/www/index.php:7",
      "FATAL",
      "2024-03-01T10:15:33.000Z",
    ],
    ["[01-Mar-2024 10:15:33 UTC] PHP Stack trace:", "FATAL", "2024-03-01T10:15:33.000Z"],
    [
      "[01-Mar-2024 10:15:33 UTC] PHP   1. {main}() /var/www/index.php:0",
      "FATAL",
      "2024-03-01T10:15:33.000Z",
    ],
    [
      "[01-Mar-2024 10:15:34 UTC] PHP Notice:  Trying to access array offset on value of type null in /var/www/a.php on line 3",
      "NOTICE",
      "2024-03-01T10:15:34.000Z",
    ],
    [
      "[01-Mar-2024 10:15:35 UTC] PHP Deprecated:  Function strftime() is deprecated in /var/www/b.php on line 9",
      "INFO",
      "2024-03-01T10:15:35.000Z",
    ],
  ],
  dotnet_console: [
    ["info: Microsoft.Hosting.Lifetime[14]", "INFO", null],
    ["      Now listening on: http://localhost:5000", "INFO", null],
    ["warn: Microsoft.AspNetCore.HttpsPolicy.HttpsRedirectionMiddleware[3]", "WARN", null],
    ["      Failed to determine the https port for redirect.", "WARN", null],
    ["fail: Microsoft.AspNetCore.Server.Kestrel[13]", "ERROR", null],
    [
      '      Connection id "0HN1", Request id "0HN1:00000001": An unhandled exception was thrown by the application.',
      "ERROR",
      null,
    ],
    ["crit: Microsoft.AspNetCore.Hosting.Diagnostics[6]", "FATAL", null],
    ["      Application startup exception", "FATAL", null],
    ["dbug: Microsoft.Extensions.Hosting.Internal.Host[1]", "DEBUG", null],
    ["      Hosting starting", "DEBUG", null],
    ["trce: Microsoft.EntityFrameworkCore.Database.Command[20100]", "TRACE", null],
    ["      Executing DbCommand", "TRACE", null],
  ],
  rust_env_logger: [
    ["[2024-03-01T10:15:32Z INFO  my_app] starting up", "INFO", "2024-03-01T10:15:32.000Z"],
    ["[2024-03-01T10:15:33Z WARN  my_app::db] pool exhausted", "WARN", "2024-03-01T10:15:33.000Z"],
    ["[2024-03-01T10:15:34Z ERROR my_app] fatal: config missing", "ERROR", "2024-03-01T10:15:34.000Z"],
    [
      "[2024-03-01T10:15:35Z DEBUG hyper::proto::h1::io] flushed 120 bytes",
      "DEBUG",
      "2024-03-01T10:15:35.000Z",
    ],
  ],
  erlang_logger: [
    ["2024-03-01T10:15:32.123456+00:00 notice: Application started", "NOTICE", "2024-03-01T10:15:32.123Z"],
    [
      "2024-03-01T10:15:33.000001+00:00 error: Supervisor: {local,my_sup}. Context: child_terminated.",
      "ERROR",
      "2024-03-01T10:15:33.000Z",
    ],
    ["2024-03-01T10:15:34.000002+00:00 warning: Node down", "WARN", "2024-03-01T10:15:34.000Z"],
  ],
  elixir_logger: [
    [
      "10:15:32.123 [info] Running MyAppWeb.Endpoint with Bandit 1.2.0 at 127.0.0.1:4000 (http)",
      "INFO",
      null,
    ],
    ["10:15:33.000 request_id=F1a2b3 [error] ** (RuntimeError) boom", "ERROR", null],
    ["10:15:34.000 [warning] Mix.Config is deprecated", "WARN", null],
  ],
};
