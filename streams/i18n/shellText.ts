import type { Language } from './language';

/**
 * The few words the page shows before its controls come, in every language: the startup error and the video's name
 * while it has no title. They ship with the first load (the controls' catalogs do not), so they stay this short.
 */
export interface ShellText {
  couldNotStart: string;
  videoPlayer: string;
}

export const SHELL_TEXT: Record<Language, ShellText> = {
  en: { couldNotStart: 'The player could not start.', videoPlayer: 'Video player' },
  es: { couldNotStart: 'No se ha podido iniciar el reproductor.', videoPlayer: 'Reproductor de vídeo' },
  de: { couldNotStart: 'Der Player konnte nicht gestartet werden.', videoPlayer: 'Videoplayer' },
  ja: { couldNotStart: 'プレーヤーを起動できませんでした。', videoPlayer: '動画プレーヤー' },
  ar: { couldNotStart: 'تعذّر تشغيل المشغّل.', videoPlayer: 'مشغّل الفيديو' },
};
