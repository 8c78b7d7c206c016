// /homepage/atividades/{id} and /homepage/atividade/{id}: a member's view of an activity.
// Raw content (type 16), agreements (15), video playlists (18), donations (20), shares (5)
// and external links (13) have bodies of their own; the
// shop's types (3, 4, 14, 17) lead to their products, quizzes and surveys (6 to 12) to their
// research, invitations (1, 19) to the invite form, product subscriptions (21) to their
// form (the subscriptions feature); the other types' actions come with
// their issues.
import { lazy, Suspense } from "react";
import { Link, useParams } from "react-router";
import { useActivity } from "@/features/activities/api/get-activity";
import {
  AGREEMENT_TYPE,
  DONATION_TYPE,
  EXTERNAL_LINK_TYPE,
  RAW_CONTENT_TYPE,
  VIDEO_PLAYLIST_TYPE,
} from "@/features/activities/activity-text";
import { RESEARCH_TYPES } from "@/features/activities/research-answers";
import { ActivityDetail } from "@/features/activities/components/activity-detail";
import { DetailSkeleton } from "@/features/activities/components/detail-skeleton";
import { NotFoundView } from "@/features/activities/components/not-found-view";
import { AgreementBody } from "@/features/activities/components/agreement-body";
import { DonationBody } from "@/features/activities/components/donation-body";
import { ExternalLinkBody } from "@/features/activities/components/external-link-body";
import { SHARE_TYPE, ShareBody } from "@/features/activities/components/share-body";
import { PlaylistBody } from "@/features/activities/components/playlist-body";
import { RawContentBody } from "@/features/activities/components/raw-content-body";
import { ResearchBody } from "@/features/activities/components/research-body";
import { useErrorToast } from "@/components/toasts/use-error-toast";
import { ProductSubscriptionBody } from "@/features/subscriptions";
import { ApiError } from "@/lib/api-client";
import type { Activity } from "@/types/api";
import "./activities.css";

/** Member-get-member invitations (1 and 19): their form is loaded when such a page opens. */
const INVITATION_TYPES: readonly number[] = [1, 19];
const InviteBody = lazy(async () => ({ default: (await import("@/features/invitations")).InviteBody }));

/** Product subscription (21): its product, recurrence and card form load when such a page shows. */
export const PRODUCT_SUBSCRIPTION_TYPE = 21;

/** Paid coupon or voucher, presential course, delivery order, voucher type: sold in the shop. */
export const SHOP_TYPES: readonly number[] = [3, 4, 14, 17];

function bodyOf(activity: Activity) {
  if (activity.type_id === RAW_CONTENT_TYPE) return <RawContentBody key={activity.id} activity={activity} />;
  if (activity.type_id === DONATION_TYPE) return <DonationBody key={activity.id} activity={activity} />;
  if (activity.type_id === AGREEMENT_TYPE) return <AgreementBody key={activity.id} activity={activity} />;
  if (activity.type_id === SHARE_TYPE) return <ShareBody key={activity.id} activity={activity} />;
  if (activity.type_id === EXTERNAL_LINK_TYPE) return <ExternalLinkBody activity={activity} />;
  if (INVITATION_TYPES.includes(activity.type_id)) {
    return (
      <Suspense fallback={null}>
        <InviteBody key={activity.id} activity={activity} />
      </Suspense>
    );
  }
  if (activity.type_id === PRODUCT_SUBSCRIPTION_TYPE) {
    return <ProductSubscriptionBody key={activity.id} activity={activity} />;
  }
  if (activity.type_id === VIDEO_PLAYLIST_TYPE) return <PlaylistBody key={activity.id} activity={activity} />;
  if (RESEARCH_TYPES.includes(activity.type_id)) return <ResearchBody activity={activity} />;
  if (SHOP_TYPES.includes(activity.type_id)) {
    return (
      <Link className="button button--primary" to={`/homepage/shopping/${activity.id}`}>
        {activity.click_me_label ?? "Ver produtos"}
      </Link>
    );
  }
  return undefined;
}

export function ActivityPage() {
  const id = useParams().id ?? "";
  const activity = useActivity(id);
  const notFound = activity.error instanceof ApiError && activity.error.status === 404;
  // A 404 is the not-found view, not a failure to report.
  useErrorToast(notFound ? null : activity.error);

  if (activity.isPending) return <DetailSkeleton />;
  if (!activity.data) return <NotFoundView />;
  const data = activity.data;
  return <ActivityDetail activity={data} body={bodyOf(data)} />;
}
