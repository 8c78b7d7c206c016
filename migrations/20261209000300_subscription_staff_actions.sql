-- The support console's subscription actions (docs/api-subscriptions.md, "Console"): a
-- period's retry asked for now, and a subscription cancelled by staff, each audited.
ALTER TABLE staff_audit DROP CONSTRAINT staff_audit_action_check;
ALTER TABLE staff_audit ADD CONSTRAINT staff_audit_action_check CHECK (action = ANY (ARRAY[
    'job.rerun', 'jobs.rerun', 'job.cancel', 'queue.pause', 'queue.resume', 'cashback.release',
    'order.refund', 'participation.annul', 'content.keep', 'content.hide', 'content.remove',
    'subscription.retry', 'subscription.cancel']));
