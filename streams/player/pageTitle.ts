/** The product name, the page title's suffix (spec §2). */
export const PRODUCT_NAME = 'VidFrame';

/** Spec §2: "{video title} - VidFrame", or just "VidFrame" when the video has no title. */
export function pageTitle(title: string | undefined | null): string {
  const t = typeof title === 'string' ? title.trim() : '';
  return t ? `${t} - ${PRODUCT_NAME}` : PRODUCT_NAME;
}
