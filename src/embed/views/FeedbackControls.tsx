import { useState } from 'react';
import { useObservableEagerState } from 'observable-hooks';
import type { ViewerVideoView } from '../../../streams/platform/videoViewerState';
import type { ViewerActions } from './viewerActions';
import { useActionRunner } from './useActionRunner';
import { useI18n } from '../i18n/I18nContext';

/** The catalog's words of each report reason the server offers; a reason it does not know keeps the server's label. */
const REASON_KEYS = {
  spam: 'reportReasonSpam',
  violent: 'reportReasonViolent',
  hateful: 'reportReasonHateful',
  rights: 'reportReasonRights',
} as const;

/**
 * Feedback on the end screen (spec §7 `feedback`): "Not interested", and "Report" with the reasons the server
 * offers (each reason is its own feedback token). Anonymous viewers may give feedback too. After sending, a thank-you
 * replaces the buttons; a failure says why and keeps them.
 */
export function FeedbackControls({ actions }: { actions: ViewerActions }) {
  const view: ViewerVideoView = useObservableEagerState(actions.view$);
  const [reporting, setReporting] = useState(false);
  const [reason, setReason] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const { busy, message, run } = useActionRunner();
  const { t } = useI18n();
  if (view.status !== 'ready') return null;
  const { feedback } = view.state;

  const send = async (token: string, thanks: string) => {
    if ((await run(() => actions.sendFeedback(token))).ok) setDone(thanks);
  };

  if (done) {
    return (
      <p className="vf-feedback-done" role="status">
        {done}
      </p>
    );
  }
  return (
    <div className="vf-feedback">
      {!reporting ? (
        <div className="vf-feedback-buttons">
          <button type="button" className="vf-pill" disabled={busy} onClick={() => void send(feedback.notInterested, t('thanksNotInterested'))}>
            {t('notInterested')}
          </button>
          {feedback.report.length > 0 && (
            <button type="button" className="vf-pill" disabled={busy} onClick={() => setReporting(true)}>
              {t('report')}
            </button>
          )}
        </div>
      ) : (
        <form
          className="vf-report"
          aria-label={t('reportVideo')}
          onSubmit={(e) => {
            e.preventDefault();
            const chosen = feedback.report.find((r) => r.reason === reason);
            if (chosen) void send(chosen.token, t('thanksReport'));
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              setReporting(false);
            }
          }}
        >
          <fieldset className="vf-report-reasons">
            <legend>{t('reportWhy')}</legend>
            {feedback.report.map((r) => (
              <label key={r.reason} className="vf-report-reason">
                <input type="radio" name="vf-report-reason" value={r.reason} checked={reason === r.reason} onChange={() => setReason(r.reason)} />{' '}
                {r.reason in REASON_KEYS ? t(REASON_KEYS[r.reason as keyof typeof REASON_KEYS]) : r.label}
              </label>
            ))}
          </fieldset>
          <div className="vf-feedback-buttons">
            <button type="submit" className="vf-pill vf-pill-primary" disabled={busy || reason === null}>
              {t('report')}
            </button>
            <button type="button" className="vf-pill" onClick={() => setReporting(false)}>
              {t('cancel')}
            </button>
          </div>
        </form>
      )}
      {message && (
        <span className="vf-action-error" role="alert">
          {message}
        </span>
      )}
    </div>
  );
}
