// A stored picture with the widths the API lists (`image_srcset`: "url 480w, url 960w,
// url 1200w"), so the browser downloads the one its layout needs (issue 30). Until the
// copies exist the srcset is null and the original alone is used. Decoded off the main
// thread; lazy below the fold.
import type { ImgHTMLAttributes } from "react";

/** `sizes` for the layouts that show stored pictures. */
export const IMAGE_SIZES = {
  /** Edge to edge: the header slides, a section's background. */
  fullWidth: "100vw",
  /** A grid of cards: 1 on a phone, 2 on a tablet, 3 on a desktop, 4 on a wide one. */
  cards: "(min-width: 1440px) 25vw, (min-width: 1024px) 33vw, (min-width: 600px) 50vw, 100vw",
  /** Half the page beside its text from 768 px, the whole width below. */
  half: "(min-width: 768px) 50vw, 100vw",
  /** A text column at most `px` wide (an article, an about page). */
  column: (px: number) => `(min-width: ${px}px) ${px}px, 100vw`,
} as const;

type ResponsiveImageProps = Omit<ImgHTMLAttributes<HTMLImageElement>, "src" | "srcSet" | "sizes"> & {
  src: string;
  srcSet?: string | null;
  sizes: string;
  /** Below the fold: loaded as it nears the viewport. */
  lazy?: boolean;
};

export function ResponsiveImage({ src, srcSet, sizes, lazy = true, alt = "", ...rest }: ResponsiveImageProps) {
  return (
    <img
      {...rest}
      src={src}
      srcSet={srcSet ?? undefined}
      sizes={srcSet ? sizes : undefined}
      alt={alt}
      loading={lazy ? "lazy" : "eager"}
      decoding="async"
    />
  );
}
