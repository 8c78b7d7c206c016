// An item's picture or video: a YouTube video (video_id) or a stored one (video) loads only
// near the viewport; a picture loads lazily, at the width its layout (`sizes`) needs.
import { IMAGE_SIZES, ResponsiveImage } from "@/components/responsive-image";
import { NearViewport } from "@/features/landing/components/near-viewport";
import type { LandingItem } from "@/types/api";

/**
 * The item's media, or null when it has none. `alt` names a picture that stands alone;
 * `sizes` is how wide its layout shows it (a card of a grid by default).
 */
export function ItemMedia({ item, alt = "", sizes = IMAGE_SIZES.cards }: { item: LandingItem; alt?: string; sizes?: string }) {
  if (item.video_id) {
    return (
      <NearViewport className="landing-media landing-placeholder">
        <iframe
          className="landing-media"
          src={`https://www.youtube-nocookie.com/embed/${encodeURIComponent(item.video_id)}`}
          title={item.name ?? "Vídeo"}
          loading="lazy"
          allow="encrypted-media; picture-in-picture"
          allowFullScreen
        />
      </NearViewport>
    );
  }
  if (item.video) {
    return (
      <NearViewport className="landing-media landing-placeholder">
        <video className="landing-media" src={item.video} poster={item.image ?? undefined} controls preload="none">
          <track kind="captions" />
        </video>
      </NearViewport>
    );
  }
  if (item.image) {
    return <ResponsiveImage className="landing-media" src={item.image} srcSet={item.image_srcset} sizes={sizes} alt={alt} />;
  }
  return null;
}
