// Console answers as docs/api-ops.md describes them, and the console rendered for a test.
import { screen } from "@testing-library/react";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";
import type { OpsSubscription, OpsSubscriptionPeriod, OpsSubscriptionTry } from "@/features/staff/api/subscriptions";
import type { OpsTopUp } from "@/features/staff/api/topups";
import type {
  JobState,
  OpsAuditEntry,
  OpsJobDetail,
  OpsJobList,
  OpsJobSummary,
  OpsMe,
  OpsQueue,
  OpsStation,
} from "@/types/api";

export const OPS_ME = "GET /api/ops/me";
export const OPS_QUEUES = "GET /api/ops/queues";
export const OPS_STATIONS = "GET /api/ops/stations";
export const FAILED_JOB_ID = "01JD3XKQ7M2V9S8T4R6P5N3B1C";
export const RETRYING_JOB_ID = "01JD3XKQ7M2V9S8T4R6P5N3B2D";
export const DONE_JOB_ID = "01JD3XKQ7M2V9S8T4R6P5N3B3E";

export function buildOpsMe(overrides: Partial<OpsMe> = {}): OpsMe {
  return {
    user: { id: 2, name: "Equipe Demo", email: "equipe@demo.filia.com.br" },
    role: "support",
    station: null,
    can_act: true,
    ...overrides,
  };
}

export const VIEWER: Partial<OpsMe> = { role: "viewer", can_act: false };

export function buildOpsQueue(overrides: Partial<OpsQueue> = {}): OpsQueue {
  return {
    name: "mail.send",
    paused: false,
    paused_at: null,
    paused_by: null,
    counts: { queued: 0, scheduled: 0, running: 0, retrying: 1, succeeded: 10, failed: 2, cancelled: 0 },
    ...overrides,
  };
}

/**
 * The `can_rerun`/`can_cancel` the server sends with each state (docs/api-ops.md), so a
 * fixture built for a state looks like a real answer; tests override them to show the
 * console follows the flags, not the state.
 */
const SERVER_ACTIONS: Record<JobState, Pick<OpsJobSummary, "can_rerun" | "can_cancel">> = {
  queued: { can_rerun: false, can_cancel: true },
  scheduled: { can_rerun: false, can_cancel: true },
  running: { can_rerun: false, can_cancel: false },
  retrying: { can_rerun: true, can_cancel: true },
  succeeded: { can_rerun: false, can_cancel: false },
  failed: { can_rerun: true, can_cancel: false },
  cancelled: { can_rerun: true, can_cancel: false },
};

export function buildOpsJob(overrides: Partial<OpsJobSummary> = {}): OpsJobSummary {
  const state = overrides.state ?? "failed";
  return {
    id: FAILED_JOB_ID,
    queue: "mail.send",
    state,
    attempts: 8,
    max_attempts: 8,
    created_at: "2026-11-21T12:00:00Z",
    run_at: "2026-11-21T12:00:00Z",
    finished_at: "2026-11-21T14:00:00Z",
    error: "O e-mail não pôde ser entregue.",
    station_id: 1,
    user_id: 7,
    subject: { kind: "user", id: "7" },
    ...SERVER_ACTIONS[state],
    ...overrides,
  };
}

export function buildOpsJobList(overrides: Partial<OpsJobList> = {}): OpsJobList {
  return {
    jobs: [
      buildOpsJob(),
      buildOpsJob({
        id: RETRYING_JOB_ID,
        state: "retrying",
        attempts: 1,
        finished_at: null,
        error: "O servidor de e-mail não respondeu; vamos tentar de novo.",
      }),
      buildOpsJob({ id: DONE_JOB_ID, state: "succeeded", attempts: 1, error: null, queue: "points.credit" }),
    ],
    next_cursor: null,
    per_page: 50,
    ...overrides,
  };
}

export function buildAuditEntry(overrides: Partial<OpsAuditEntry> = {}): OpsAuditEntry {
  return {
    id: 5,
    created_at: "2026-11-21T15:00:00Z",
    user: { id: 2, name: "Equipe Demo", email: "equipe@demo.filia.com.br" },
    action: "job.rerun",
    station_id: null,
    job_ids: [FAILED_JOB_ID],
    details: {},
    ...overrides,
  };
}

export function buildOpsJobDetail(overrides: Partial<OpsJobDetail> = {}): OpsJobDetail {
  return {
    ...buildOpsJob({ state: overrides.state ?? "retrying", attempts: 1, finished_at: null }),
    error: "O servidor de e-mail não respondeu; vamos tentar de novo.",
    payload: { mail: { to: "membro@demo.filia.com.br", subject: "Redefinição de senha" } },
    result: null,
    progress: null,
    started_at: "2026-11-21T12:00:01Z",
    failures: [
      {
        attempt: 1,
        worker: "mail.send@host:1#0",
        summary: "O servidor de e-mail não respondeu; vamos tentar de novo.",
        detail: "Connection refused (os error 111)",
        failed_at: "2026-11-21T12:00:05Z",
      },
    ],
    owner: {
      station: { id: 1, name: "Clube Filia Demo" },
      user: { id: 7, name: "Membro Demo", email: "membro@demo.filia.com.br" },
    },
    audit: [],
    ...overrides,
  };
}

export function buildOpsStation(overrides: Partial<OpsStation> = {}): OpsStation {
  return {
    id: 1,
    name: "Clube Filia Demo",
    subdomain: "demo",
    release: { expression: "0 0 * * * *", enabled: true, last_tick: null },
    pending: { lots: 3, amount_cents: 15000, due_lots: 2, due_amount_cents: 10000 },
    ...overrides,
  };
}

export function buildOpsSubscriptionTry(overrides: Partial<OpsSubscriptionTry> = {}): OpsSubscriptionTry {
  return {
    id: 31,
    attempt: 1,
    amount: 4990,
    status: "paid",
    failure_reason: null,
    gateway_charge_id: "ch_31",
    created_at: "2026-11-01T12:00:00Z",
    settled_at: "2026-11-01T12:00:02Z",
    bank_refunded_cents: 0,
    chargedback_at: null,
    ...overrides,
  };
}

export function buildOpsSubscriptionPeriod(overrides: Partial<OpsSubscriptionPeriod> = {}): OpsSubscriptionPeriod {
  return {
    id: 21,
    kind: "first",
    period_index: 0,
    starts_at: "2026-11-01T12:00:00Z",
    ends_at: "2026-12-01T12:00:00Z",
    amount: 4990,
    status: "paid",
    attempts: 1,
    next_attempt_at: null,
    paid_at: "2026-11-01T12:00:02Z",
    tries: [buildOpsSubscriptionTry()],
    ...overrides,
  };
}

/** A monthly plan whose first period was paid, as GET /api/ops/stations/{id}/subscriptions lists it. */
export function buildOpsSubscription(overrides: Partial<OpsSubscription> = {}): OpsSubscription {
  return {
    id: 11,
    user_id: 7,
    user_name: "Membro Demo",
    plan_id: 3,
    action_id: null,
    product_id: null,
    name: "Essencial",
    product_name: null,
    card_brand: "visa",
    card_last_digits: "0010",
    recurrence: "month",
    amount: 4990,
    status: "active",
    current_period: 0,
    current_period_start: "2026-11-01T12:00:00Z",
    current_period_end: "2026-12-01T12:00:00Z",
    cancel_at_period_end: false,
    next_plan_id: null,
    next_plan_name: null,
    created_at: "2026-11-01T12:00:00Z",
    periods: [buildOpsSubscriptionPeriod()],
    ...overrides,
  };
}

/** A subscription whose renewal (period 1) was declined and waits for its next try. */
export function buildPastDueSubscription(overrides: Partial<OpsSubscription> = {}): OpsSubscription {
  return buildOpsSubscription({
    status: "past_due",
    current_period: 1,
    current_period_start: "2026-12-01T12:00:00Z",
    current_period_end: "2027-01-01T12:00:00Z",
    periods: [
      buildOpsSubscriptionPeriod({
        id: 22,
        kind: "renewal",
        period_index: 1,
        starts_at: "2026-12-01T12:00:00Z",
        ends_at: "2027-01-01T12:00:00Z",
        status: "due",
        attempts: 1,
        next_attempt_at: "2026-12-02T12:00:00Z",
        paid_at: null,
        tries: [
          buildOpsSubscriptionTry({
            id: 32,
            status: "failed",
            failure_reason: "Cartão recusado pelo emissor.",
            created_at: "2026-12-01T12:00:00Z",
            settled_at: "2026-12-01T12:00:03Z",
          }),
        ],
      }),
      buildOpsSubscriptionPeriod(),
    ],
    ...overrides,
  });
}

/** Signs a staff account in and stubs the console's calls; GET /api/ops/me answers `me`. */
export function stubOps(handlers: Record<string, ApiHandler> = {}, me: Partial<OpsMe> = {}) {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn({ name: "Equipe Demo", email: "equipe@demo.filia.com.br", role: "staff", type_id: 1 });
  return stubApi({ [OPS_ME]: () => jsonResponse(buildOpsMe(me)), ...handlers });
}

/** Renders the console at `path` once the layout knows who is signed in. */
export async function renderOps(path: string) {
  const rendered = renderApp({ path });
  await screen.findByRole("navigation", { name: "Console" });
  return rendered;
}

export function buildOpsTopUp(overrides: Partial<OpsTopUp> = {}): OpsTopUp {
  return {
    id: 51,
    method: "transfer",
    points: 150.5,
    amount_cents: 15050,
    status: "pending",
    failure_reason: null,
    created_at: "2026-11-28T15:00:00Z",
    credited_at: null,
    expires_at: "2026-12-01T15:00:00Z",
    pix: null,
    user_id: 7,
    user_name: "Membro Demo",
    user_email: "membro@demo.filia.com.br",
    gateway_charge_id: null,
    paid_at: null,
    decided_by: null,
    decided_at: null,
    refund_sent_at: null,
    ...overrides,
  };
}
