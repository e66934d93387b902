/**
 * Reads the representations out of a DASH manifest ffmpeg wrote: what the entry states about each rendition (its
 * codecs above all) comes from the manifest the players read, never from what ingest asked the encoder for.
 *
 * A small reader for the static, template-addressed manifests of ffmpeg's `dash` muxer (`SegmentTemplate` with
 * `$RepresentationID$` and `$Number…$`, inside the `Representation` or its `AdaptationSet`), not a general MPD parser.
 */

export interface MpdRepresentation {
  id: string;
  contentType: 'video' | 'audio';
  /** `video/mp4`, `audio/webm` … */
  mimeType: string;
  /** `avc1.4d401e`, `vp09.00.30.08`, `mp4a.40.2`, `opus`. */
  codecs: string;
  width?: number;
  height?: number;
  /** The initialisation segment's file name, relative to the manifest, `$RepresentationID$` filled in. */
  initialization: string;
  /** The media segments' file name template, `$RepresentationID$` filled in, `$Number…$` kept. */
  media: string;
  startNumber: number;
  /** The nominal segment duration in seconds. */
  segmentSeconds: number;
}

/** The attributes of an element's start tag, unescaped. */
export function attributesOf(tag: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of tag.matchAll(/([A-Za-z_:][\w:.-]*)\s*=\s*"([^"]*)"/g)) {
    attrs[m[1]!] = m[2]!
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  }
  return attrs;
}

/** The elements named `name` in `xml`, each as its start tag and its content (empty for a self-closed one). */
function elements(xml: string, name: string): { tag: string; body: string }[] {
  const found: { tag: string; body: string }[] = [];
  const open = new RegExp(`<${name}\\b[^>]*?(/?)>`, 'g');
  for (let m = open.exec(xml); m; m = open.exec(xml)) {
    if (m[1] === '/') {
      found.push({ tag: m[0], body: '' });
      continue;
    }
    const close = xml.indexOf(`</${name}>`, open.lastIndex);
    const end = close < 0 ? xml.length : close;
    found.push({ tag: m[0], body: xml.slice(open.lastIndex, end) });
    open.lastIndex = end;
  }
  return found;
}

const fail = (what: string): never => {
  throw new Error(`the DASH manifest ${what}`);
};

/** The representations of every adaptation set, in manifest order. */
export function readMpd(xml: string): MpdRepresentation[] {
  if (!/<MPD\b/.test(xml)) fail('has no MPD element');
  return elements(xml, 'AdaptationSet').flatMap(({ tag, body }) => {
    const set = attributesOf(tag);
    const setTemplate = elements(body.replace(/<Representation\b[\s\S]*?<\/Representation>/g, ''), 'SegmentTemplate')[0];
    return elements(body, 'Representation').map(({ tag: repTag, body: repBody }) => {
      const rep = attributesOf(repTag);
      const mimeType = rep.mimeType ?? set.mimeType ?? fail(`names no mimeType for ${rep.id}`);
      const contentType = set.contentType ?? mimeType.split('/')[0];
      if (contentType !== 'video' && contentType !== 'audio') return fail(`has a ${String(contentType)} representation`);
      const template = attributesOf((elements(repBody, 'SegmentTemplate')[0] ?? setTemplate ?? fail(`names no SegmentTemplate for ${rep.id}`)).tag);
      const id = rep.id ?? fail('has a representation without an id');
      const fill = (t: string | undefined) => (t ?? fail(`names no segment files for ${id}`)).replace(/\$RepresentationID\$/g, id);
      const timescale = Number(template.timescale ?? 1);
      const segmentSeconds = Number(template.duration) / timescale;
      if (!(segmentSeconds > 0)) fail(`gives no segment duration for ${id}`);
      const codecs = rep.codecs ?? set.codecs ?? fail(`names no codecs for ${id}`);
      const width = Number(rep.width ?? set.width);
      const height = Number(rep.height ?? set.height);
      return {
        id,
        contentType,
        mimeType,
        codecs,
        ...(width > 0 && height > 0 && { width, height }),
        initialization: fill(template.initialization),
        media: fill(template.media),
        startNumber: Number(template.startNumber ?? 1),
        segmentSeconds,
      };
    });
  });
}

/** The file name of media segment `n` of a template (`seg-0-$Number%05d$.m4s`, `$Number$`). */
export function segmentFileName(template: string, n: number): string {
  return template.replace(/\$Number(?:%0(\d+)d)?\$/g, (_m, width: string | undefined) => String(n).padStart(Number(width ?? 0), '0'));
}
