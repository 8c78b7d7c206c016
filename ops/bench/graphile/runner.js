// The peer side of ops/bench/jobs: graphile-worker on the same workload as ours, on the
// same database (its schema is `graphile_worker`). Not part of the product.
//
//   node runner.js migrate
//       installs graphile-worker's schema and the table that collects start times
//   node runner.js enqueue <jobs> <jobs-per-transaction> <connections>
//   node runner.js paced <jobs> <per-second>
//       as `bench-jobs enqueue|paced`; prints `seconds=<wall time>`
//   node runner.js fill <jobs>
//       an untimed backlog: <jobs> jobs through graphile-worker's batch API (add_jobs,
//       what its addJobs() calls), 1000 per statement; the same rows as `enqueue` makes
//   node runner.js work
//       one worker process, until SIGTERM; then writes the start time of every job it ran
//       to bench_graphile_starts and exits
//
// Reads DATABASE_URL, BENCH_CONCURRENCY (default 16), BENCH_LOOKAHEAD (default 80) and
// BENCH_GRAPHILE_BATCHING (`on`, the default, or `off`). PGOPTIONS reaches every
// connection (node-postgres reads it), as it reaches ours (sqlx reads it): the script's
// extra rows set `synchronous_commit=off` for both systems' workers that way.
//
// Enqueueing, comparable to ours: ours is `Enqueue::push` on the caller's transaction, one
// INSERT per job. graphile-worker's way to add a job inside the caller's transaction is
// its SQL API, `graphile_worker.add_job(...)`; we send exactly the statement its JS
// `addJob()` sends, but on the caller's own client between BEGIN and COMMIT, one statement
// per job, with the same number of jobs per transaction and connections as ours.
//
// Working, comparable to ours: a no-op task, `concurrentJobs` 16 per process (our canary
// queue's CONCURRENCY), a 1 s poll beside LISTEN/NOTIFY (our POLL_INTERVAL). Its pool gets
// concurrentJobs + 2 = 18 connections, the size graphile-worker recommends (it warns
// below the concurrency); ours sizes its pool by every queue's concurrency (jobs::fleet::
// pool_size), but a no-op canary job uses none, so ours works with at most 4 fetches and
// the results writer. The same look-ahead: one of our processes holds at most its 16
// slots plus 4 per slot taken ahead of them, 80 jobs, fetched in one query, and writes
// results in batches of whatever has finished; graphile-worker's equivalents are
// `localQueue.size` 80 (BENCH_LOOKAHEAD: a batch of up to 80 fetched in one query once
// its local queue is empty) and `completeJobBatchDelay` 0, which
// BENCH_GRAPHILE_BATCHING=off turns back to its defaults (one fetch and one completion
// query per job).
//
// Delay from due to start: graphile-worker deletes a job once it succeeds, so the row
// cannot be read afterwards. The task records the job's `run_at` (its due time, as the
// database gave it) and the moment the task function is entered (this machine's clock,
// the same clock PostgreSQL reads); both go to bench_graphile_starts when the process
// stops, and the script takes the same percentiles over them as over ours. `locked_at`
// would be the wrong end: with the local queue it is when the batch was fetched, not when
// the job started. `run_at` arrives as a JS Date, cut to the millisecond, and the start
// time is cut the same way (Date.now()), so the difference has no bias, only ±1 ms of
// noise. Ours is taken at the same point: our canary handler's entry, which it writes in
// its result (`stamp_start`).
"use strict";

const { performance } = require("node:perf_hooks");
const { Pool } = require("pg");
const { Logger, run, runMigrations } = require("graphile-worker");

const connectionString = process.env.DATABASE_URL;
if (!connectionString) die("DATABASE_URL is not set");
const concurrency = Number(process.env.BENCH_CONCURRENCY || 16);
const lookahead = Number(process.env.BENCH_LOOKAHEAD || 80);
const batching = (process.env.BENCH_GRAPHILE_BATCHING || "on") !== "off";

// Warnings and errors only, like FILIA_LOG=warn for ours.
const logger = new Logger(() => (level, message) => {
  if (level === "error" || level === "warning") console.error(`graphile-worker ${level}: ${message}`);
});

// What graphile-worker's addJob() sends (see makeAddJob in its dist/helpers.js).
const ADD_JOB = `select * from graphile_worker.add_job(
  identifier => $1::text, payload => $2::json, queue_name => $3::text, run_at => $4::timestamptz,
  max_attempts => $5::int, job_key => $6::text, priority => $7::int, flags => $8::text[],
  job_key_mode => $9::text)`;
const ADD_JOB_ARGS = ["noop", "{}", null, null, null, null, null, null, null];

function die(message) {
  console.error(`runner.js: ${message}`);
  process.exit(2);
}

function count(index, what) {
  const value = Number(process.argv[index]);
  if (!Number.isInteger(value) || value < 1) die(`${what} must be a whole number of at least 1`);
  return value;
}

async function openPool(connections) {
  const pool = new Pool({ connectionString, max: connections });
  // Open every connection before the clock starts, as ours does.
  const clients = await Promise.all(Array.from({ length: connections }, () => pool.connect()));
  clients.forEach((client) => client.release());
  return pool;
}

async function transaction(pool, jobs) {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    for (let i = 0; i < jobs; i++) await client.query(ADD_JOB, ADD_JOB_ARGS);
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

async function enqueue() {
  const total = count(3, "jobs");
  const perTx = count(4, "jobs-per-transaction");
  const connections = count(5, "connections");
  const pool = await openPool(connections);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (;;) {
        const first = next;
        next += perTx;
        if (first >= total) return;
        await transaction(pool, Math.min(perTx, total - first));
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await pool.end();
  console.log(`seconds=${seconds.toFixed(6)}`);
}

async function paced() {
  const total = count(3, "jobs");
  const perSecond = count(4, "per-second");
  const pool = await openPool(8);
  const period = 1000 / perSecond;
  const pending = [];
  const started = performance.now();
  for (let n = 0; n < total; n++) {
    const wait = started + n * period - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(transaction(pool, 1));
  }
  await Promise.all(pending);
  const seconds = (performance.now() - started) / 1000;
  await pool.end();
  console.log(`seconds=${seconds.toFixed(6)}`);
}

// graphile-worker's batch API: add_jobs over an array of job specs (identifier, payload,
// queue_name, run_at, max_attempts, job_key, priority, flags), as its addJobs() sends.
const ADD_JOBS = `select count(*) from graphile_worker.add_jobs(array(
  select ('noop', '{}'::json, null, null, null, null, null, null)::graphile_worker.job_spec
  from generate_series(1, $1::int)))`;

async function fill() {
  const total = count(3, "jobs");
  const pool = await openPool(1);
  const started = performance.now();
  for (let done = 0; done < total; done += 1000) {
    await pool.query(ADD_JOBS, [Math.min(1000, total - done)]);
  }
  const seconds = (performance.now() - started) / 1000;
  await pool.end();
  console.log(`seconds=${seconds.toFixed(6)}`);
}

async function migrate() {
  await runMigrations({ connectionString, logger });
  const pool = new Pool({ connectionString, max: 1 });
  await pool.query(
    `CREATE TABLE IF NOT EXISTS bench_graphile_starts (
       run_at TIMESTAMPTZ NOT NULL, started_at TIMESTAMPTZ NOT NULL)`,
  );
  await pool.end();
}

async function work() {
  // Epoch milliseconds, two per job: due, started.
  const starts = [];
  const runner = await run({
    logger,
    noHandleSignals: true,
    crontab: "",
    taskList: {
      noop: async (_payload, helpers) => {
        starts.push(helpers.job.run_at.getTime(), Date.now());
      },
    },
    preset: {
      worker: {
        connectionString,
        concurrentJobs: concurrency,
        maxPoolSize: concurrency + 2,
        pollInterval: 1000,
        ...(batching ? { localQueue: { size: lookahead }, completeJobBatchDelay: 0 } : {}),
      },
    },
  });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await runner.stop();
    const pool = new Pool({ connectionString, max: 1 });
    for (let i = 0; i < starts.length; i += 20000) {
      const chunk = starts.slice(i, i + 20000);
      await pool.query(
        `INSERT INTO bench_graphile_starts (run_at, started_at)
         SELECT to_timestamp(d / 1000.0), to_timestamp(s / 1000.0)
         FROM unnest($1::float8[], $2::float8[]) AS t(d, s)`,
        [chunk.filter((_, j) => j % 2 === 0), chunk.filter((_, j) => j % 2 === 1)],
      );
    }
    await pool.end();
    process.exit(0);
  };
  const onSignal = () =>
    stop().catch((err) => {
      console.error(err);
      process.exit(1);
    });
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  await runner.promise;
}

const commands = { migrate, enqueue, paced, fill, work };
const command = commands[process.argv[2]];
if (!command) die("usage: node runner.js migrate | enqueue <jobs> <per-tx> <connections> | paced <jobs> <per-second> | fill <jobs> | work");
command().catch((err) => {
  console.error(err);
  process.exit(1);
});
